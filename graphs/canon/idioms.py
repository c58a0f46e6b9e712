"""The idioms a translator changes, written one canonical way (SPEC section 3, "What the graph
must see"): equal meaning, equal graph.

- **Indexed loop as ``foreach``.** ``for (int i = 0; i < xs.length; i++)`` (or ``xs.Length``,
  ``xs.Count``, ``xs.size()``; the bound may be written ``xs.length > i``; ``i++``,
  ``++i``, ``i += 1``, ``i = i + 1``) and Python's ``for i in range(len(xs))`` whose body
  reads the index only as ``xs[i]`` (Java lists: ``xs.get(i)``) is the loop over the
  elements: one ``foreach`` header labelled as the
  language writes it (``for (int x : xs)``, ``foreach (var x in xs)``, ``for (auto & x :
  xs)``, ``for (const x of xs)``, ``for x in xs``) and each ``xs[i]`` read as the element
  variable. Only where that is the same meaning: the index is declared by the loop, starts at
  0, steps by one, is bounded by exactly the length and occurs nowhere in the body but as
  ``xs[i]``; ``xs`` occurs in the body only there (so the body neither resizes nor replaces
  it); no ``xs[i]`` is written (assigned, incremented, passed by ``ref``/``out``, taken by
  ``&``, deleted) or read inside a lambda. JavaScript ``var`` and Python indices must not
  occur outside the loop (they outlive it). Approximation: Python cannot tell a list from a
  dict keyed ``0..n-1`` (iterating a dict gives its keys).
- **Element types.** The element type of ``xs`` comes from its one declaration in the
  snippet (``int[] xs``, ``List<Integer> xs``, ``IList<int> xs``): Java and C# ``foreach``
  headers with ``var`` are labelled with it, and so is the header an indexed loop becomes
  (``var`` where it is unknown). C++ writes ``auto &`` (an element reference, which is what
  ``xs[i]`` is).
- **Negated conditions.** An ``if`` with an ``else`` (and a conditional expression) is read
  in one orientation: a top-level ``!``/``not`` goes and the branches swap; a relational
  ``>=``, ``<=``, ``!=`` (``!==``) becomes ``<``, ``>``, ``==`` (``===``) with the branches
  swapped: the strict orders and equality are canonical (each non-strict one is the
  negation of a strict one, and most code already reads that way, so labels stay as
  written). So ``if (!c) A else B`` is ``if (c) B else A`` and ``if (a >= b) B else A`` is
  ``if (a < b) A else B``. The outcomes stay on the control edges, so a negated condition
  *without* the swap (a real mutant) is still a different graph. Choice: the orders are
  taken to be total; with a NaN operand ``a >= b`` and ``!(a < b)`` differ, and so do
  user-defined operators that are not complementary. Equality operators are exact.
- **Converse comparisons.** ``b > a`` is labelled ``a < b`` and ``b >= a`` ``a <= b``,
  wherever the comparison stands (conditions, returns, assignments, arguments, lambdas,
  comprehensions). The order: the orientation above first, then the converse of what it
  leaves, so every order comparison between operands free of effects reads ``<`` or
  ``<=`` (``<`` alone in an oriented condition): ``if (a >= b) B else A``, ``if (!(b > a))
  B else A``, ``if (b <= a) B else A`` and ``if (b > a) A else B`` are all ``if (a < b) A
  else B``. Only where it is the same meaning: the grammar's binary comparison (Java, C#,
  C, C++, JavaScript ``binary_expression``; Python's two-operand ``comparison_operator``,
  never a chain ``a < b < c``; a C++ ``>>`` or template bracket is no comparison) whose two
  operands are free of effects and of evaluation order (names, ``this``/``self``,
  literals without interpolation, field and element accesses of those, a unary minus, in
  parentheses; not calls, assignments, increments, ``new``, ``await``, casts or
  arithmetic: see :func:`graphs.canon.orientation.pure_operand`); an element a foreach reads
  (``xs.get(i)``) counts. A temporary the PDG folds into its reader counts as its value
  (``int n = s.length(); if (n > 0)`` is ``if (s.length() > 0)``, as written), so a
  comparison where one operand names a temporary of effects and the other does not is left
  as written. Approximation: the converse is exact for numbers (NaN included), strings and
  the built-in orders, not for user-defined operators (C++, C#, Python ``__gt__``/
  ``__lt__``) that are not each other's converse, nor for getters with effects (C# and
  Python properties, JavaScript getters and ``valueOf``), which then run in the other order.
- **Inferred local types.** ``var x = new T(...)`` (Java, C#) is labelled ``T x = new
  T(...)``; ``var``/``auto`` with a literal initializer gets the literal's type (``int``,
  ``long``, ``double``, ``float``, ``decimal``, ``char``, ``boolean``/``bool``,
  ``String``/``string``). A JavaScript declaration is labelled ``const`` when its names are
  never assigned again in the function, else ``let``; ``var`` becomes one of them only as a
  statement of a function body, the only declaration of its names there, none of them
  mentioned before it (so hoisting and function scope change nothing). ``for (let x of
  xs)`` is ``for (const x of xs)`` when the body never assigns ``x``.

The loop and ``if`` rewrites are hooks of the CFG builder (:class:`IdiomRewrites`, a mixin of
the builder of :mod:`graphs.pdg.cfg`, see :mod:`graphs.canon.builder`); everything else is a
label substitution (see the ``subst`` of :meth:`graphs.pdg.dataflow.Walker.walk`) found once
per parse by :func:`label_substitutions` (a comparison's
:class:`graphs.canon.orientation.Converse`, which the walker applies once it knows the
operator the orientation gave the comparison). Which loops are indexed loops over their
elements is decided in :mod:`graphs.canon.indexed_loops`.
"""

from __future__ import annotations

import tree_sitter

# indexed_loop and indexed_while, defined here before graphs.canon.indexed_loops, are still
# exported.
from graphs.canon.indexed_loops import indexed_loop, indexed_while, subscript

# condition_orientation, defined here before graphs.canon.orientation, is still exported.
from graphs.canon.orientation import (
    RELATIONAL,
    Converse,
    Final,
    Subst,
    Temporaries,
    Variable,
    condition_orientation,
    converse_comparison,
    if_branches,
)
from graphs.lang.roles import Ctx, Role
from graphs.lang.syntax import LAMBDAS as _LAMBDAS
from graphs.lang.syntax import named_children as _named
from graphs.lang.syntax import operator_token as _op
from graphs.lang.syntax import walk as _walk

__all__ = ["IdiomRewrites", "condition_orientation", "element_type", "indexed_loop",
           "indexed_while", "label_substitutions", "literal_type", "reassigned"]

Node = tree_sitter.Node

_TERNARIES = frozenset({"ternary_expression", "conditional_expression"})
_LISTS = frozenset({"List", "ArrayList", "LinkedList", "IList", "IReadOnlyList", "Vector",
                    "ImmutableList"})
_JAVA_LITERALS = {"decimal_integer_literal": "int", "hex_integer_literal": "int",
                  "decimal_floating_point_literal": "double", "string_literal": "String",
                  "character_literal": "char", "true": "boolean", "false": "boolean"}
_CSHARP_LITERALS = {"integer_literal": "int", "real_literal": "double",
                    "string_literal": "string", "character_literal": "char",
                    "boolean_literal": "bool", "verbatim_string_literal": "string"}
_CPP_LITERALS = {"number_literal": "int", "char_literal": "char", "true": "bool",
                 "false": "bool"}


# ---------------------------------------------------------------------------------------
# negated conditions


def _ternary_parts(node: Node, python: bool) -> tuple[Node, Node, Node] | None:
    """(condition, then value, else value) of a conditional expression."""
    if python:
        kids = _named(node)
        return (kids[1], kids[0], kids[2]) if len(kids) == 3 else None
    parts = [node.child_by_field_name(f) for f in ("condition", "consequence", "alternative")]
    if any(p is None for p in parts):
        return None
    return parts[0], parts[1], parts[2]  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# element types and inferred local types


def _declared_types(root: Node, language: str) -> dict[str, Node | None]:
    """Name -> type syntax node of every name declared exactly once below ``root`` (Java and
    C# parameters, locals and fields; None for a name declared more than once)."""
    out: dict[str, Node | None] = {}
    for n in _walk(root):
        t = n.type
        if t in ("formal_parameter", "parameter", "enhanced_for_statement"):
            name, kind = n.child_by_field_name("name"), n.child_by_field_name("type")
        elif t == "foreach_statement":
            name, kind = n.child_by_field_name("left"), n.child_by_field_name("type")
        elif t == "variable_declarator" and n.parent is not None:
            name, kind = n.child_by_field_name("name"), n.parent.child_by_field_name("type")
            if name is None:
                kids = _named(n)
                name = kids[0] if kids and kids[0].type == "identifier" else None
            if n.child_by_field_name("dimensions") is not None:
                kind = None
        else:
            continue
        if name is None:
            continue
        key = name.text.decode()
        out[key] = kind if key not in out else None
    return out


def _element_type(kind: Node | None) -> Node | None:
    """The element type of an array or list type node (``int[]`` -> ``int``)."""
    if kind is None:
        return None
    if kind.type == "array_type":
        dims = kind.child_by_field_name("dimensions") or kind.child_by_field_name("rank")
        elem = kind.child_by_field_name("element") or kind.child_by_field_name("type")
        if dims is None or dims.text.replace(b" ", b"") != b"[]" or elem is None:
            return None
        return None if elem.type == "implicit_type" else elem
    if kind.type in ("generic_type", "generic_name"):
        kids = _named(kind)
        args = [c for c in kids if c.type in ("type_arguments", "type_argument_list")]
        head = kids[0].text.decode().rsplit(".", 1)[-1] if kids else ""
        if head in _LISTS and len(args) == 1 and len(_named(args[0])) == 1:
            return _named(args[0])[0]
    return None


def sequence_element_type(types: dict[str, Node | None], xs: Node, language: str
                          ) -> Node | str | None:
    """The element type of what an indexed loop runs over: a declared array or list
    (``int[] xs``: ``int``; ``int[][] xs``: ``"int[]"``), or an outer loop's element
    ``xs[i]`` of a declared array of arrays (``int[][] xs``: ``"int"``). None if unknown."""
    if xs.type == "identifier":
        kind = types.get(xs.text.decode())
        found = _element_type(kind)
        return found if found is not None else _array_element_text(kind, 1)
    sub = subscript(xs, language)
    if sub is None or sub[0].type != "identifier":
        return None
    return _array_element_text(types.get(sub[0].text.decode()), 2)


def _array_element_text(kind: Node | None, depth: int) -> str | None:
    """``int[][]`` with ``depth`` 1: ``"int[]"``; with 2: ``"int"`` (Java arrays)."""
    if kind is None or kind.type != "array_type":
        return None
    text = b"".join(kind.text.split()).decode()
    cut = len("[]") * depth
    if not text.endswith("[]" * depth) or len(text) <= cut or not text[:-cut].replace(
            "[]", "").replace("_", "a").replace(".", "a").isalnum():
        return None
    return text[:-cut]


def element_type(root: Node, name: str, language: str) -> Node | None:
    """The element type node of ``name``'s one declaration below ``root`` (Java, C#), if
    it is an array or list type."""
    return _element_type(_declared_types(root, language).get(name))


def literal_type(value: Node, language: str) -> str | None:
    """The type of a literal initializer, for ``var``/``auto`` (None when not evident)."""
    text = value.text.decode()
    if value.type in ("unary_expression", "prefix_unary_expression"):
        kids = _named(value)
        op = _op(value)
        if len(kids) != 1 or op is None or op.type != "-":
            return None
        value, text = kids[0], kids[0].text.decode()
    low = text.lower()
    if language == "java":
        kind = _JAVA_LITERALS.get(value.type)
        if kind == "int" and low.endswith("l"):
            return "long"
        if kind == "double" and low[-1:] in ("f", "d"):
            return "float" if low.endswith("f") else "double"
        return kind
    if language == "csharp":
        kind = _CSHARP_LITERALS.get(value.type)
        if kind == "int" and low[-1:] in ("l", "u"):
            return None
        if kind == "double" and low[-1:] in ("f", "m", "d"):
            return {"f": "float", "m": "decimal", "d": "double"}[low[-1]]
        return kind
    if language == "cpp":
        kind = _CPP_LITERALS.get(value.type)
        if kind == "int":
            if low.startswith("0x") or any(ch in low for ch in "ul"):
                return None
            if any(ch in low for ch in ".e"):
                return "double" if low[-1:].isdigit() or low.endswith(".") else None
        return kind
    return None


def _new_type(value: Node) -> Node | None:
    """``T`` of ``new T(...)`` when it names the object's type exactly."""
    if value.type != "object_creation_expression":
        return None
    kind = value.child_by_field_name("type")
    if kind is None or b"<>" in kind.text.replace(b" ", b""):
        return None
    if any(c.type == "class_body" for c in value.children):  # an anonymous class
        return None
    return kind


def _inferred(decl: Node, language: str, subst: Subst) -> None:
    """``var``/``auto`` of a local declaration -> the evident type of its one initializer."""
    kind = decl.child_by_field_name("type")
    if kind is None or kind.text not in (b"var", b"auto"):
        return
    declarators = [c for c in _named(decl) if c.type in ("variable_declarator",
                                                          "init_declarator")]
    if len(declarators) != 1:
        return
    d = declarators[0]
    value = d.child_by_field_name("value")
    if value is None:
        kids = _named(d)
        value = kids[-1] if len(kids) == 2 else None
    name = d.child_by_field_name("name") or d.child_by_field_name("declarator")
    if value is None or name is None or name.type != "identifier":
        return
    if language in ("java", "csharp"):
        new = _new_type(value)
        if new is not None:
            subst[kind.id] = (new, False)
            return
    literal = literal_type(value, language)
    if literal is not None:
        subst[kind.id] = (literal, False)


def _function_of(node: Node) -> Node | None:
    cur = node.parent
    while cur is not None and cur.type not in _LAMBDAS and cur.type not in (
            "method_declaration", "constructor_declaration", "function_item",
            "method_definition", "generator_function_declaration"):
        cur = cur.parent
    return cur


def reassigned(root: Node, names: set[bytes], skip: Node) -> bool:
    """Whether any of ``names`` is assigned or incremented below ``root`` (outside ``skip``,
    the declaration itself)."""
    for n in _walk(root):
        if skip.start_byte <= n.start_byte < skip.end_byte:
            continue
        t = n.type
        if "assign" in t or t in ("for_in_statement",):
            target = n.child_by_field_name("left")
        elif t == "update_expression":
            target = n.child_by_field_name("argument")
        else:
            continue
        if target is not None and target.type == "identifier" and target.text in names:
            return True
    return False


def _javascript_keyword(decl: Node, subst: Subst) -> None:
    """A JavaScript declaration's keyword: ``const`` for names never assigned again, else
    ``let``; ``var`` only where it means the same as ``let`` (module docstring)."""
    keyword = decl.child_by_field_name("kind") or (decl.children[0] if decl.children else None)
    if keyword is None or keyword.type not in ("const", "var", "let"):
        return
    fn = _function_of(decl)
    root = fn if fn is not None else decl
    while fn is None and root.parent is not None:
        root = root.parent
    names = set()
    for d in _named(decl):
        name = d.child_by_field_name("name")
        if d.type != "variable_declarator" or name is None or name.type != "identifier":
            return
        names.add(name.text)
    if keyword.type == "var":
        block = decl.parent
        if fn is None or block is None or block.type != "statement_block" or \
                block.parent is None or block.parent.id != fn.id:
            return
        for n in _walk(fn):
            if n.type not in ("identifier", "shorthand_property_identifier") or \
                    n.text not in names or decl.start_byte <= n.start_byte < decl.end_byte:
                continue
            if n.start_byte < decl.start_byte:
                return  # mentioned before (hoisting) or a parameter
            p = n.parent
            if p is not None and p.type == "variable_declarator" and \
                    p.child_by_field_name("name") == n:
                return  # declared again
    target = "let" if reassigned(root, names, decl) else "const"
    if target != keyword.type:
        subst[keyword.id] = (target, False)


def _javascript_loop(loop: Node, subst: Subst) -> None:
    """``for (let x of xs)`` is ``for (const x of xs)`` when the body never assigns ``x``."""
    keyword = loop.child_by_field_name("kind")
    left, body = loop.child_by_field_name("left"), loop.child_by_field_name("body")
    if keyword is None or keyword.type not in ("let", "const") or left is None or \
            left.type != "identifier" or body is None:
        return
    target = "let" if reassigned(body, {left.text}, left) else "const"
    if target != keyword.type:
        subst[keyword.id] = (target, False)


def _may_substitute(text: bytes | None, language: str) -> bool:
    """Whether ``text`` can hold a form :func:`label_substitutions` rewrites: a conditional
    expression, a comparison ``>``, ``>=`` or ``<=``, or (Java, C#, C++) an inferred type;
    JavaScript's declarations always."""
    if text is None or language == "javascript" or b">" in text or b"<=" in text:
        return True
    if language == "python":
        return b"if" in text and b"else" in text
    return b"?" in text or (language != "c" and (b"var" in text or b"auto" in text))


def _loop_condition(node: Node, roles) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``node`` is (in) the condition of a ``while``, ``do`` or classic ``for``."""
    child, cur = node, node.parent
    while cur is not None and cur.type not in _LAMBDAS:
        role = roles.statements.get(cur.type)
        if role is not None:
            if role not in (Role.WHILE, Role.DO, Role.FOR):
                return False
            field = roles.for_fields[1] if role is Role.FOR else "condition"
            return any(c.id == child.id for c in cur.children_by_field_name(field))
        child, cur = cur, cur.parent
    return False


def label_substitutions(parsed, roles) -> Subst:  # type: ignore[no-untyped-def]
    """The label substitutions of a parse that need no CFG change: conditional expressions
    in their canonical orientation, comparisons that may read as their converse, inferred
    local types, ``var`` in ``foreach`` headers, JavaScript ``let`` (see the module
    docstring)."""
    language = roles.language
    python = language == "python"
    subst: Subst = {}
    types: dict[str, Node | None] | None = None
    temporaries: Temporaries | None = None

    def converse(node: Node) -> Converse | None:
        nonlocal temporaries
        if node.type not in RELATIONAL:
            return None
        if temporaries is None:
            temporaries = Temporaries(parsed, roles)
        # (no temporary is folded into a loop's condition: it is evaluated again each round)
        return converse_comparison(node, roles,
                                   None if _loop_condition(node, roles) else temporaries)

    for top in parsed.nodes:
        if not _may_substitute(top.text, language):
            continue  # most code has none of these forms: skip the walk
        stack = [top]
        while stack:  # _walk(top), inlined: it visits every node of most snippets
            n = stack.pop()
            stack.extend(reversed(n.children))
            t = n.type
            if t in _TERNARIES:
                parts = _ternary_parts(n, python)
                if parts is None:
                    continue
                cond, then, other = parts
                cs, swap = condition_orientation(cond)
                subst.update(cs)
                if swap:  # (a comparison shown in the other's place is still read as one)
                    subst[then.id] = (converse(other) or Final(other), False)
                    subst[other.id] = (converse(then) or Final(then), False)
            elif t in RELATIONAL and n.id not in subst:  # (not a swapped branch)
                found = converse(n)
                if found is not None:
                    subst[n.id] = (found, False)
            elif t in ("local_variable_declaration", "variable_declaration", "declaration") \
                    and language in ("java", "csharp", "cpp"):
                _inferred(n, language, subst)
            elif t in ("lexical_declaration", "variable_declaration") and \
                    language == "javascript":
                _javascript_keyword(n, subst)
            elif t == "for_in_statement" and language == "javascript":
                _javascript_loop(n, subst)
            elif t in ("enhanced_for_statement", "foreach_statement"):
                kind = n.child_by_field_name("type")
                seq = n.child_by_field_name("value") or n.child_by_field_name("right")
                if kind is None or seq is None or kind.text != b"var" or \
                        seq.type != "identifier":
                    continue
                if types is None:
                    types = _declared_types(top, language)
                elem = _element_type(types.get(seq.text.decode()))
                if elem is not None:
                    subst[kind.id] = (elem, False)
    return subst


class IdiomRewrites:
    """The CFG builder's idiom hooks, a mixin of a :class:`~graphs.canon.builder.CFGBuilder`
    of which it uses ``parsed``, ``roles`` and ``new_node``: :meth:`idiom_subst` holds every
    label substitution of the parse; :meth:`swapped_if`, :meth:`oriented`,
    :meth:`indexed_header` and :meth:`indexed_while_loop` add to it."""

    def idiom_subst(self) -> Subst:
        """Label substitutions for every node of the graph (made on first use)."""
        found = self.__dict__.get("_idioms")
        if found is None:
            found = self._idioms = label_substitutions(self.parsed, self.roles)
        return found

    def skip_label_search(self) -> None:
        """Keep only the substitutions the build itself registers, without searching the
        parse for the others: for a CFG whose labels nobody reads (its shape never depends
        on them)."""
        self._idioms = {}

    def swapped_if(self, s: Node) -> bool:
        """Whether an ``if`` with an ``else`` (and nothing else) reads in the other
        orientation; its condition's substitutions are then registered."""
        found = if_branches(s, self.roles.else_clauses, self.roles.elif_clauses)
        if found is None:
            return False
        subst, swap = condition_orientation(found[0])
        self.idiom_subst().update(subst)
        return swap

    def oriented(self, cond: Node, then: list, other: list) -> tuple[list, list]:
        """A folded conditional's branches in the canonical orientation of ``cond``."""
        subst, swap = condition_orientation(cond)
        self.idiom_subst().update(subst)
        return (other, then) if swap else (then, other)

    def _root(self, s: Node) -> Node:
        root = s
        while root.parent is not None and root.type not in self.roles.functions:
            root = root.parent
        return root

    def indexed_header(self, s: Node, body: Node) -> int | None:
        """The ``foreach`` header node an indexed loop is read as (None if it is not one)."""
        root = self._root(s)
        found = indexed_loop(s, body, self.roles, root)
        if found is None:
            return None
        xs, i, _keyword, sites = found
        last = body.prev_sibling if body.prev_sibling is not None else s
        return self._foreach(s, last, root, xs, i, sites)

    def indexed_while_loop(self, decl: Node, loop: Node) -> tuple[int, list[Node]] | None:
        """``(foreach header, body statements)`` of ``T i = 0; while (i < xs.length) {...
        i++; }`` read as its ``foreach`` (None if it is not one)."""
        if self.roles.statements.get(loop.type) is not Role.WHILE or \
                self.roles.statements.get(decl.type) is not Role.DECLARATION:
            return None
        root = self._root(loop)
        found = indexed_while(decl, loop, self.roles, root)
        if found is None:
            return None
        xs, i, items, sites = found
        body = loop.child_by_field_name("body")
        last = body.prev_sibling if body is not None and body.prev_sibling else loop
        return self._foreach(decl, last, root, xs, i, sites), items

    def _foreach(self, s: Node, last: Node, root: Node, xs: Node, i: Node,
                 sites: list[Node]) -> int:
        parsed = self.parsed
        language = self.roles.language
        elem = Variable(f"{xs.text.decode()}[{i.text.decode()}]")
        subst = self.idiom_subst()
        for site in sites:
            subst[site.id] = (elem, False)
        use, decl = Ctx.USE, Ctx.DECL
        kind: object = "var"
        if language in ("java", "csharp"):
            types = _declared_types(root if root.parent is not None else parsed.tree.root_node,
                                    language)
            found_type = sequence_element_type(types, xs, language)
            if found_type is not None:
                kind = found_type
        head: list[tuple[object, Ctx]]
        if language == "python":
            head = [("for", use), (elem, decl), ("in", use), (xs, use)]
        elif language == "java":
            head = [("for", use), ("(", use), (kind, Ctx.TYPE), (elem, decl), (":", use),
                    (xs, use), (")", use)]
        elif language == "csharp":
            head = [("foreach", use), ("(", use), (kind, Ctx.TYPE), (elem, decl), ("in", use),
                    (xs, use), (")", use)]
        elif language == "cpp":
            head = [("for", use), ("(", use), ("auto", use), ("&", use), (elem, decl),
                    (":", use), (xs, use), (")", use)]
        else:
            head = [("for", use), ("(", use), ("const", use), (elem, decl), ("of", use),
                    (xs, use), (")", use)]
        return self.new_node("foreach", head, s, last)
