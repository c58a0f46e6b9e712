"""The language-neutral AST: a normalized AST (:func:`graphs.normalized_ast`) with node
types mapped to shared kinds, for the tree tier between languages.

- An inner node is labelled by its shared kind (:data:`~graphs.neutral.vocabulary.AST_KINDS`:
  ``loop``, ``branch``, ``call``, ``assignment``, ``return``, ...), plus its operator in the
  neutral spelling (``binary:and`` for ``&&`` and ``and``). A type no table knows keeps its
  tree-sitter type, and is counted as unknown.
- Static types, modifiers, imports and annotations are no nodes
  (:data:`~graphs.neutral.vocabulary.AST_DROPPED`), as Python and JavaScript have none.
- Wrappers one language has and another not are spliced out (their children take their
  place): statement wrappers (``expression_statement``), declarators, single parameters;
  when the snippet has functions, the tree is the functions alone (no class around them,
  no imports).
- Leaves: identifiers folded to lower snake case, literals in the neutral spelling,
  keywords mapped (``null`` -> ``none``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from graphs.neutral import vocabulary
from graphs.neutral.pdg import NeutralReport
from graphs.neutral.tokens import fold_identifier, is_word, neutral_literal
from graphs.trees.normalized import SNIPPET_LABEL, Tree

__all__ = ["neutral_tree"]

#: shared kinds whose node is spliced out (children kept in its place)
_SPLICED = frozenset({"statement", "declarator", "parameter", "parentheses", "argument"})
_FUNCTION = "function"


def neutral_tree(tree: Tree, language: str) -> tuple[Tree, NeutralReport]:
    """The neutral form of a normalized AST, and the share of node types it did not know.

    Parameters
    ----------
    tree : a :class:`~graphs.Tree` of :func:`graphs.normalized_ast` (with ``kinds``).
    language : its language.

    Returns
    -------
    (tree, report) : the neutral tree (root ``snippet``) and a :class:`NeutralReport`
        whose ``unknown`` lists node types without a shared kind.

    Examples
    --------
    >>> from graphs import normalized_ast, parse
    >>> java = neutral_tree(normalized_ast(parse("int f(int a) { return a + 1; }", "java")),
    ...                     "java")[0]
    >>> py = neutral_tree(normalized_ast(parse("def f(a):\\n    return a + 1\\n", "python")),
    ...                   "python")[0]
    >>> java.to_nested() == py.to_nested()
    True
    """
    kinds_table = vocabulary.AST_KINDS.get(language, {})
    keywords = vocabulary.KEYWORDS.get(language, {})
    dropped = vocabulary.AST_DROPPED
    n = len(tree.labels)
    kinds = tree.kinds or ("",) * n
    parents = tree.parents
    unknown: Counter[str] = Counter()
    # Preorder pass (reverse postorder: parents before children): what each node becomes
    # (None: spliced or dropped), whether it is inside a dropped subtree, its nearest kept
    # ancestor, and whether it lies under a function.
    label_of: list[str | None] = [None] * n
    gone = [False] * n  # in a dropped subtree
    up = [-1] * n  # nearest kept ancestor (-1: the new root)
    in_function = [False] * n
    functions_seen = False
    for i in range(n - 2, -1, -1):  # n - 1 is the root `snippet`
        p = parents[i]
        parent_kept = p != n - 1 and label_of[p] is not None
        gone[i] = p != n - 1 and gone[p]
        up[i] = p if parent_kept else (up[p] if p != n - 1 else -1)
        in_function[i] = p != n - 1 and (in_function[p] or label_of[p] == _FUNCTION)
        node_type = kinds[i]
        if gone[i] or node_type in dropped:
            gone[i] = True
            continue
        text = str(tree.labels[i])
        if i == 0 or parents[i - 1] != i:  # a leaf (in postorder a leaf's predecessor is
            # not its child)
            label_of[i] = _leaf(text, node_type, keywords)
            continue
        kind = kinds_table.get(node_type)
        if kind is None:
            unknown[node_type] += 1
            kind = node_type
        if kind in _SPLICED:
            continue
        if ":" in text and text.split(":", 1)[0] == node_type:
            op = text.split(":", 1)[1]
            postfix = op.startswith("_")
            op = " ".join(keywords.get(o, o) for o in op.lstrip("_").split())
            kind = f"{kind}:{'_' if postfix else ''}{op}"
        label_of[i] = kind
        functions_seen = functions_seen or kind == _FUNCTION
    # postorder of the kept nodes is the new tree's postorder; with functions, only them
    # (and what they contain)
    keep = [i for i in range(n - 1) if label_of[i] is not None and not gone[i] and (
        not functions_seen or in_function[i] or label_of[i] == _FUNCTION)]
    position = {i: k for k, i in enumerate(keep)}
    root = len(keep)
    labels = [label_of[i] for i in keep] + [SNIPPET_LABEL]
    new_parents = []
    for i in keep:
        a = up[i]
        while a != -1 and a not in position:  # an ancestor left out (outside functions)
            a = up[a]
        new_parents.append(position[a] if a != -1 else root)
    new_parents.append(-1)
    out = Tree(tuple(labels), tuple(new_parents))
    total = sum(1 for k in kinds if k not in dropped) or 1
    report = NeutralReport(
        language, (), tuple(sorted(unknown.items(), key=lambda kv: (-kv[1], kv[0]))),
        sum(unknown.values()) / total)
    return out, report


def _leaf(label: str, node_type: str, keywords: Any) -> str:
    if is_word(label):
        folded = fold_identifier(label)
        return keywords.get(folded, folded) or folded
    return neutral_literal(label)
