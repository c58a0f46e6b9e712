"""The canonical orientation of a condition, and of an ``if`` with an ``else``.

An ``if`` with an ``else`` (and a conditional expression) is read in one orientation: a
top-level ``!``/``not`` goes and the branches swap; a relational ``>=``, ``<=``, ``!=``
(``!==``) becomes ``<``, ``>``, ``==`` (``===``) with the branches swapped (see
:mod:`graphs.idioms`, which applies it to the graph). This module holds the decision, on
syntax alone, so that both the CFG builder and the label walker (:mod:`graphs.dataflow`,
for an ``if`` inside a lambda or an anonymous class, which is part of its statement's label)
read an ``if`` the same way.
"""

from __future__ import annotations

import tree_sitter

from graphs.syntax import named_children, operator_token, strip_parens

__all__ = ["Subst", "condition_orientation", "if_branches"]

Node = tree_sitter.Node
#: Label substitutions: syntax node id -> (value, parenthesize); see
#: :meth:`graphs.dataflow.Walker.walk`.
Subst = dict[int, tuple[object, bool]]

_NEGATED = {">=": "<", "<=": ">", "!=": "==", "!==": "==="}
_NOT_TYPES = frozenset({"unary_expression", "prefix_unary_expression", "not_operator"})
_RELATIONAL = frozenset({"binary_expression", "comparison_operator"})


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
    if node.type in _RELATIONAL and len(named_children(node)) == 2:
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
