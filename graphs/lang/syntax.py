"""Small readers of tree-sitter syntax that ``graphs`` (and the validity benchmark) share:
the preorder walk (every tree walk in document order is this one, pruned or not), the leaves
in a byte range, the named children without comments, a node without its parentheses, an
expression's operator token, and the node types that open a function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter

__all__ = ["LAMBDAS", "leaves", "named_children", "operator_token", "strip_parens", "walk"]

Node = tree_sitter.Node

#: Node types that open a function, lambdas included: code inside runs another number of
#: times than the code around it (or never), and a local's function ends there.
LAMBDAS = frozenset({"lambda_expression", "lambda", "arrow_function", "function_expression",
                     "function", "anonymous_method_expression", "local_function_statement",
                     "function_definition", "function_declaration"})
_PARENS = frozenset({"parenthesized_expression", "condition_clause"})


def walk(node: Node, descend: Callable[[Node], bool] | None = None) -> Iterator[Node]:
    """``node`` and every node below it, in preorder (document order).

    Parameters
    ----------
    node : tree_sitter.Node
        Where the walk starts (it is the first node yielded).
    descend : callable, optional
        With it, the walk goes below a node ``n`` only when ``descend(n)`` is true (``n``
        itself is yielded either way): a pruned walk. It is asked after the caller has
        seen ``n``.

    Returns
    -------
    Iterator of tree_sitter.Node

    Examples
    --------
    >>> from graphs import parse
    >>> root = parse("f(a + b);", "java").nodes[0]
    >>> [n.type for n in walk(root) if n.is_named]
    ['expression_statement', 'method_invocation', 'identifier', 'argument_list', \
'binary_expression', 'identifier', 'identifier']
    >>> [n.type for n in walk(root, lambda n: n.type != "argument_list")]
    ['expression_statement', 'method_invocation', 'identifier', 'argument_list', ';']
    """
    stack = [node]
    if descend is None:
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children))
    else:
        while stack:
            n = stack.pop()
            yield n
            if descend(n):
                stack.extend(reversed(n.children))


def leaves(node: Node, lo: int, hi: int) -> Iterator[Node]:
    """The leaves of ``node`` that overlap the byte range ``[lo, hi)``, in document order,
    MISSING nodes (tokens the parser invented) left out.

    Examples
    --------
    >>> from graphs import parse
    >>> root = parse("f(a + b);", "java").tree.root_node
    >>> [n.type for n in leaves(root, 0, root.end_byte)]
    ['identifier', '(', 'identifier', '+', 'identifier', ')', ';']
    """
    def overlaps(n: Node) -> bool:
        return n.end_byte > lo and n.start_byte < hi

    for n in walk(node, overlaps):
        if not n.child_count and not n.is_missing and overlaps(n):
            yield n


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
