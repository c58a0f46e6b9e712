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
from graphs.trees import SNIPPET_LABEL, Tree

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
    kinds = tree.kinds or tuple("" for _ in tree.labels)
    children = tree.children
    unknown: Counter[str] = Counter()
    # postorder: each node's result (a list of nested subtrees) from its children's
    done: list[list[Any]] = [[] for _ in tree.labels]
    functions: list[Any] = []
    n = len(tree.labels)
    for i in range(n):
        node_type = kinds[i]
        label = tree.labels[i]
        if i == n - 1:
            break
        if node_type in dropped:
            continue
        kids = [sub for c in children[i] for sub in done[c]]
        if not children[i]:
            done[i] = [(_leaf(str(label), node_type, keywords), [])]
            continue
        kind = kinds_table.get(node_type)
        if kind is None:
            unknown[node_type] += 1
            kind = node_type
        if kind in _SPLICED:
            done[i] = kids
            continue
        text = str(label)
        if ":" in text:
            op = text.split(":", 1)[1]
            postfix = op.startswith("_")
            op = " ".join(keywords.get(o, o) for o in op.lstrip("_").split())
            kind = f"{kind}:{'_' if postfix else ''}{op}"
        subtree = (kind, kids)
        done[i] = [subtree]
        if kind == _FUNCTION:
            functions.append(subtree)
    top = functions if functions else [s for c in children[n - 1] for s in done[c]] \
        if n else []
    if functions:
        # only the outermost functions: a nested one is inside its parent already
        inner = {id(k) for f in functions for k in _descendants(f)}
        top = [f for f in functions if id(f) not in inner]
    out = Tree.from_nested((SNIPPET_LABEL, top))
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


def _descendants(subtree: Any) -> list[Any]:
    out = []
    stack = list(subtree[1])
    while stack:
        s = stack.pop()
        out.append(s)
        stack.extend(s[1])
    return out
