"""Small readers of tree-sitter syntax that the idiom modules (:mod:`graphs.canon.idioms`,
:mod:`graphs.canon.indexed_loops`) share: a preorder walk, the named children without comments, a
node without its parentheses, an expression's operator token, and the node types that open a
function.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

__all__ = ["LAMBDAS", "named_children", "operator_token", "strip_parens", "walk"]

Node = tree_sitter.Node

#: Node types that open a function, lambdas included: code inside runs another number of
#: times than the code around it (or never), and a local's function ends there.
LAMBDAS = frozenset({"lambda_expression", "lambda", "arrow_function", "function_expression",
                     "function", "anonymous_method_expression", "local_function_statement",
                     "function_definition", "function_declaration"})
_PARENS = frozenset({"parenthesized_expression", "condition_clause"})


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node below it, in preorder."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def named_children(node: Node) -> list[Node]:
    """``node``'s named children, comments left out."""
    return [c for c in node.named_children if "comment" not in c.type]


def strip_parens(node: Node) -> Node:
    """``node`` without the parentheses (or condition clause) around it."""
    while node.type in _PARENS:
        kids = named_children(node)
        if len(kids) != 1:
            break
        node = kids[0]
    return node


def operator_token(node: Node) -> Node | None:
    """The operator token of an expression: its ``operator`` field, else its one anonymous
    child (None when there is no single one)."""
    op = node.child_by_field_name("operator") or node.child_by_field_name("operators")
    if op is not None:
        return op
    ops = [c for c in node.children if not c.is_named]
    return ops[0] if len(ops) == 1 else None
