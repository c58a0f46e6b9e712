"""The canonical orientation of a condition, of an ``if`` with an ``else``, and of a
comparison.

An ``if`` with an ``else`` (and a conditional expression) is read in one orientation: a
top-level ``!``/``not`` goes and the branches swap; a relational ``>=``, ``<=``, ``!=``
(``!==``) becomes ``<``, ``>``, ``==`` (``===``) with the branches swapped (see
:mod:`graphs.canon.idioms`, which applies it to the graph). This module holds the decision, on
syntax alone, so that both the CFG builder and the label walker (:mod:`graphs.pdg.dataflow`,
for an ``if`` inside a lambda or an anonymous class, which is part of its statement's label)
read an ``if`` the same way.

A comparison whose operator is ``>`` or ``>=`` *after* that orientation is read as its
converse, ``b > a`` as ``a < b`` and ``b >= a`` as ``a <= b``, when both operands are free of
effects (:func:`pure_operand`) and the PDG folds no temporary of effects into one of them
alone (:class:`Temporaries`). :func:`converse_comparison` finds the comparisons this may
apply to, once per parse; the label walker decides when it walks one (:class:`Converse`),
since only then does it know the operator the orientation gave it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter

from graphs.lang.syntax import named_children, operator_token, strip_parens, walk

if TYPE_CHECKING:
    from graphs.lang.roles import LanguageRoles

__all__ = ["CONVERSE", "RELATIONAL", "Converse", "Final", "Subst", "Temporaries", "Variable",
           "condition_orientation", "converse_comparison", "if_branches", "pure_operand"]

Node = tree_sitter.Node
#: Label substitutions: syntax node id -> (value, parenthesize); see
#: :meth:`graphs.pdg.dataflow.Walker.walk`.
Subst = dict[int, tuple[object, bool]]


@dataclass(frozen=True, slots=True)
class Variable:
    """A label part, or a substitution, that is a variable with no syntax of its own: the
    element variable of an indexed loop read as a ``foreach`` (:mod:`graphs.canon.idioms`)."""

    name: str


@dataclass(frozen=True, slots=True)
class Final:
    """A substitution whose syntax node is walked as it is, never substituted again at its
    own top (two exchanged operands of a conditional expression point at each other)."""

    node: tree_sitter.Node


_NEGATED = {">=": "<", "<=": ">", "!=": "==", "!==": "==="}
_NOT_TYPES = frozenset({"unary_expression", "prefix_unary_expression", "not_operator"})
#: The grammars' binary comparison nodes (Python's ``comparison_operator`` may be a chain).
RELATIONAL = frozenset({"binary_expression", "comparison_operator"})
#: An order comparison's converse operator: ``b > a`` is ``a < b``, ``b >= a`` is ``a <= b``.
CONVERSE = {">": "<", ">=": "<="}
#: The operators written in the source that may read ``>`` or ``>=`` once oriented (``<=``
#: is ``>`` in a condition read the other way round).
_MAY_TURN = frozenset({">", ">=", "<="})
#: Operand nodes that are their own value (literals the grammar writes with a token inside).
_CONSTANTS = frozenset({"boolean_literal", "null_literal"})
#: The brackets of a subscript's index (C#, C++): read through.
_INDEX_LISTS = frozenset({"bracketed_argument_list", "argument", "subscript_argument_list"})
_UNARY = frozenset({"unary_expression", "prefix_unary_expression", "unary_operator"})


def condition_orientation(cond: Node) -> tuple[Subst, bool]:
    """The label substitutions that write ``cond`` in its canonical orientation, and whether
    the outcomes swap (``!c`` -> ``c``, swapped; ``a >= b`` -> ``a < b``, swapped; both:
    ``!(a >= b)`` -> ``a < b``, not swapped). See the module docstring.
    """
    subst: Subst = {}
    swap = False
    top = node = strip_parens(cond)
    while node.type in _NOT_TYPES:
        op = operator_token(node)
        arg = node.child_by_field_name("argument") or node.child_by_field_name("operand")
        if arg is None:
            kids = named_children(node)
            arg = kids[0] if len(kids) == 1 else None
        if op is None or op.type not in ("!", "not") or arg is None:
            break
        swap = not swap
        node = strip_parens(arg)
    if node.type in RELATIONAL and len(named_children(node)) == 2:
        op = operator_token(node)
        if op is not None and op.type in _NEGATED:
            swap = not swap
            subst[op.id] = (_NEGATED[op.type], False)
    if node.id != top.id:
        subst[top.id] = (node, False)
    return subst, swap


def if_branches(node: Node, else_clauses: frozenset[str], elif_clauses: frozenset[str]
                ) -> tuple[Node, Node | None, Node | None] | None:
    """``(condition, consequence, alternative body)`` of an ``if`` read in an orientation:
    one with exactly one alternative that is not an ``elif`` (Java's ``else if`` is an
    ``if`` as the alternative, which counts). None for any other ``if``.

    The alternative body is the ``else`` clause's body (its ``body`` field, else its last
    named child), or the alternative itself where the grammar has no ``else`` clause; either
    branch is None when the syntax lacks it.
    """
    cond = node.child_by_field_name("condition")
    alts = [c for i, c in enumerate(node.children)
            if node.field_name_for_child(i) == "alternative"]
    if cond is None or len(alts) != 1 or alts[0].type in elif_clauses:
        return None
    alt: Node | None = alts[0]
    if alt.type in else_clauses:
        body = alt.child_by_field_name("body")
        if body is None:
            kids = named_children(alt)
            body = kids[-1] if kids else None
        alt = body
    return cond, node.child_by_field_name("consequence"), alt


@dataclass(frozen=True, slots=True)
class Converse:
    """The label substitution of a comparison ``node``, ``left op right``
    (:func:`converse_comparison`): :meth:`graphs.pdg.dataflow.Walker.walk` writes it ``right
    op' left`` when ``op`` (or the token a substitution made of it, see
    :func:`condition_orientation`) is ``>`` or ``>=``, ``op'`` its :data:`CONVERSE`, and both
    operands are :func:`pure_operand` (a loop's element variable counts); else ``node`` as
    written."""

    node: Node
    left: Node
    op: Node
    right: Node


def converse_comparison(node: Node, roles: LanguageRoles,
                        temporaries: Temporaries | None = None) -> Converse | None:
    """The :class:`Converse` of ``node`` when it is a binary order comparison (the
    grammar's ``binary_expression`` or Python's ``comparison_operator``, never a chain
    ``a < b < c``) that may read ``>`` or ``>=``. Whether its operands are free of effects
    (:func:`pure_operand`) is asked where it is walked; here only that neither names a
    temporary of effects unless both do (:class:`Temporaries`).

    Examples
    --------
    >>> from graphs import parse
    >>> from graphs.lang.languages import get_roles
    >>> from graphs.lang.syntax import walk
    >>> def found(code, language):
    ...     roles = get_roles(language)
    ...     return [(c.left.text, c.op.type, c.right.text) for c in (
    ...         converse_comparison(n, roles) for n in walk(parse(code, language).tree.root_node))
    ...         if c is not None]
    >>> found("ok = b > a && a < b && v.size() >= n && (x >> 2) == 1;", "cpp")
    [(b'b', '>', b'a'), (b'v.size()', '>=', b'n')]
    >>> found("ok = a < b < c or b >= a", "python")
    [(b'b', '>=', b'a')]
    """
    if node.type not in RELATIONAL:
        return None
    kids = named_children(node)
    if len(kids) != 2:
        return None
    op = operator_token(node)
    if op is None or op.type not in _MAY_TURN:
        return None
    left, right = kids
    if temporaries is not None and _tainted(left, roles, temporaries) != _tainted(
            right, roles, temporaries):
        # one operand names a temporary of effects that the PDG may fold into it (it then
        # reads as that call, not as the converse: see Temporaries)
        return None
    return Converse(node, left, op, right)


def _tainted(node: Node, roles: LanguageRoles, temporaries: Temporaries) -> bool:
    """Whether ``node`` is free of effects as written but not as the temporaries it names
    may be folded into it."""
    # pure with its temporaries implies pure as written: that cheaper answer comes first
    return not pure_operand(node, roles, temporaries=temporaries) and pure_operand(node, roles)


def pure_operand(node: Node, roles: LanguageRoles, *,
                 subst: Mapping[int, tuple[object, bool]] | None = None,
                 temporaries: Temporaries | None = None) -> bool:
    """Whether evaluating ``node`` has no effect and reads nothing an effect could change
    between two operands: a name, ``this``/``self``, a literal (no interpolation), a
    field or member access and an element access (``xs[i]``) of such operands, a unary
    minus of one, in any parentheses. Calls, assignments, increments, ``new``, ``await``,
    casts, arithmetic... are not.

    With ``subst`` (label substitutions, see :meth:`graphs.pdg.dataflow.Walker.walk`), a node
    substituted by a variable with no syntax of its own (``xs.get(i)`` read as a loop's
    element) is one; other substitutions are not looked at. With ``temporaries``
    (:class:`Temporaries`), a name of one is only as pure as its value.
    """
    stack = [node]
    seen: set[bytes] = set()
    while stack:
        n = stack.pop()
        if subst and n.id in subst:
            value = subst[n.id][0]
            if not isinstance(value, Node) and getattr(value, "node", None) is None:
                continue  # a token, or a variable with no syntax of its own
        t = n.type
        if n.child_count == 0:
            if not n.is_named and t not in roles.this_types:
                return False
            if temporaries is not None and t in roles.identifiers:
                value = temporaries.get(n.text)
                if value is not None and n.text not in seen:
                    seen.add(n.text)
                    stack.append(value)
            continue
        if t in roles.literals or t in _CONSTANTS:
            if any(c.type in roles.interpolations for kid in n.children for c in walk(kid)):
                return False
            continue
        if t == "parenthesized_expression" or t in _INDEX_LISTS:
            kids = named_children(n)
            if len(kids) != 1 or (t == "argument" and len(n.children) != 1):
                return False  # a tuple; a C# argument with ref/out/in or a name
            stack.append(kids[0])
            continue
        member = roles.members.get(t)
        if member is not None:
            obj = n.child_by_field_name(member[0])
            name = n.child_by_field_name(member[1])
            if obj is None or name is None or name.child_count:
                return False
            stack.append(obj)
            continue
        if t in roles.subscripts:
            stack.extend(named_children(n))
            continue
        if t in _UNARY:
            op = operator_token(n)
            kids = named_children(n)
            if op is None or op.type != "-" or len(kids) != 1:
                return False
            stack.append(kids[0])
            continue
        return False
    return True


class Temporaries:
    """The value of each possible temporary of a parse, by name (found on first ask): a name
    defined once with a value (``T t = e``, ``t = e``) and read once, declarations without a
    value aside. The PDG may fold it into its reader (``T t = g(); return a > t`` is
    ``return a > g()``, see :func:`graphs.canon.rewrites.merge_statements` and
    :mod:`graphs.canon.folding`), so an operand naming it is only as pure as ``e``.

    >>> from graphs import parse
    >>> from graphs.lang.languages import get_roles
    >>> t = Temporaries(parse("int n = s.length(); int m = 0; if (n > m) g(m);", "java"),
    ...                 get_roles("java"))
    >>> t.get(b"n").text, t.get(b"m"), t.get(b"s")
    (b's.length()', None, None)
    """

    def __init__(self, parsed, roles: LanguageRoles) -> None:  # type: ignore[no-untyped-def]
        self._root: Node = parsed.tree.root_node
        self._source: bytes = parsed.text
        self._roles = roles
        self._found: dict[bytes, Node | None] = {}

    def get(self, name: bytes) -> Node | None:
        """The value of the temporary ``name``, or None if it is none."""
        if name not in self._found:
            self._found[name] = self._value(name)
        return self._found[name]

    def _value(self, name: bytes) -> Node | None:
        roles = self._roles
        values: list[Node] = []
        reads = 0
        # its occurrences, found in the text (the tree's identifiers would take a walk)
        for start in _whole_words(self._source, name):
            end = start + len(name)
            node = self._root.descendant_for_byte_range(start, end)
            if node is None or node.type not in roles.identifiers or \
                    node.start_byte != start or node.end_byte != end:
                continue  # in a string, a comment
            parent = node.parent
            t = parent.type if parent is not None else ""
            field = roles.declarations.get(t)
            value = None
            if field is not None and parent.child_by_field_name(field) == node:
                value = parent.child_by_field_name("value")
                if value is None:  # C#: the value has no field
                    kids = named_children(parent)
                    value = kids[-1] if len(kids) == 2 and kids[0] == node else None
                if value is None:
                    continue  # a declaration alone (or a parameter)
            elif t in roles.assignments and not roles.assignments[t] and \
                    parent.child_by_field_name("left") == node:
                op = parent.child_by_field_name("operator") or operator_token(parent)
                if op is None or op.type == "=":
                    value = parent.child_by_field_name("right")
            if value is not None:
                values.append(value)
            else:
                reads += 1
            if len(values) > 1 or reads > 1:
                return None
        return values[0] if len(values) == 1 and reads == 1 else None


def _whole_words(source: bytes, word: bytes) -> Iterator[int]:
    """The offsets of ``word`` in ``source`` where no ASCII word character or ``$`` stands
    right before or after it (a regular expression per name would be compiled anew for
    each of the many names a corpus has).

    >>> list(_whole_words(b"n = n1 + $n + n", b"n"))
    [0, 14]
    """
    start = source.find(word)
    while start != -1:
        end = start + len(word)
        if not (_word_byte(source[start - 1:start]) if start else False) and not _word_byte(
                source[end:end + 1]):
            yield start
        start = source.find(word, start + 1)


def _word_byte(byte: bytes) -> bool:
    return bool(byte) and (byte.isalnum() or byte in b"_$")

