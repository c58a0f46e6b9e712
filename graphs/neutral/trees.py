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
- A C-family ``/`` (``/=``) is integer division ``//`` (``//=``) or true division by its
  operands' types, by the rules the PDG labels use (:mod:`graphs.neutral.division`).
- Leaves: identifiers folded to lower snake case, literals in the neutral spelling,
  keywords mapped (``null`` -> ``none``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from graphs.neutral import division, vocabulary
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
    # the C family's `/` is integer or true division by type, as in the PDG labels
    divisions = typed_tree_divisions(tree, language)
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
        text = divisions[i][0] if i in divisions else str(tree.labels[i])
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
        sum(unknown.values()) / total,
        tuple(sorted(Counter(rule for _, rule in divisions.values()).items())))
    return out, report


def _leaf(label: str, node_type: str, keywords: Any) -> str:
    if is_word(label):
        folded = fold_identifier(label)
        return keywords.get(folded, folded) or folded
    return neutral_literal(label)


# ------------------------------------------------------------------------ typed division

_TYPE_KINDS = frozenset({
    "integral_type", "floating_point_type", "boolean_type", "array_type", "generic_type",
    "type_identifier", "scoped_type_identifier", "predefined_type", "generic_name",
    "implicit_type", "nullable_type", "primitive_type", "sized_type_specifier",
    "template_type", "placeholder_type_specifier", "qualified_identifier"})
#: nodes that declare names with a type child first (fields are left out: the PDG, which
#: reads the same types from its labels, has no node for them)
_DECLARING = frozenset({
    "formal_parameter", "spread_parameter", "local_variable_declaration", "parameter",
    "variable_declaration", "parameter_declaration", "declaration",
    "optional_parameter_declaration"})
#: loops that declare one typed name first (`for (int x : xs)`)
_DECLARING_LOOPS = frozenset({"enhanced_for_statement", "foreach_statement",
                              "for_range_loop"})
_DECLARATORS = frozenset({"variable_declarator", "init_declarator", "array_declarator",
                          "pointer_declarator", "reference_declarator"})
_INDEXED = frozenset({"array_declarator", "pointer_declarator"})
_INDEXING = frozenset({"array_access", "subscript_expression", "element_access_expression"})
_MEMBERS = frozenset({"field_access", "member_access_expression", "field_expression"})
_CALLS = frozenset({"method_invocation", "call_expression", "invocation_expression"})
_SAME_TYPE = frozenset({"parenthesized_expression", "argument", "unary_expression",
                        "update_expression", "prefix_unary_expression",
                        "postfix_unary_expression"})
_ARGUMENTS = frozenset({"argument_list"})
_ARITHMETIC_OPS = frozenset({"+", "-", "*", "/", "%"})


def typed_tree_divisions(tree: Tree, language: str) -> dict[int, tuple[str, str]]:
    """The tree's divisions that the types make integer divisions, by the rules of
    :mod:`graphs.neutral.division` (those the PDG labels use): per node (postorder index),
    its new label (``binary_expression://``, ``assignment_expression://=``) and the rule
    (``division:integer``, ``division:unknown``); a true division keeps its label and is
    listed with ``division:true``.

    Parameters
    ----------
    tree : a :class:`~graphs.Tree` of :func:`graphs.normalized_ast` (with ``kinds``).
    language : its language (nothing is done outside
        :data:`~graphs.neutral.division.TYPED_LANGUAGES`).

    Returns
    -------
    dict : node -> (label, rule).

    Examples
    --------
    >>> from graphs import normalized_ast, parse
    >>> t = normalized_ast(parse("int f(int a, double d) { return a / 2 + d / 2; }", "java"))
    >>> sorted(typed_tree_divisions(t, "java").values())
    [('binary_expression:/', 'division:true'), ('binary_expression://', 'division:integer')]
    """
    if language not in division.TYPED_LANGUAGES or not tree.kinds:
        return {}
    labels = [str(x) for x in tree.labels]
    if not any(lab.endswith((":/", ":/=")) for lab in labels):
        return {}
    kinds = tree.kinds
    kids = tree.children
    env, implicit = _tree_declarations(tree, labels)
    types: list[division.Numeric | None] = [None] * len(labels)
    out: dict[int, tuple[str, str]] = {}
    for i, kind in enumerate(kinds):
        children = kids[i]
        if not children:
            types[i] = env.get(labels[i]) if kind == "identifier" else \
                division.literal(labels[i]) if kind.endswith("literal") else None
            continue
        op = labels[i].split(":", 1)[1] if ":" in labels[i] else ""
        if kind == "binary_expression" and op in _ARITHMETIC_OPS:
            types[i] = division.arithmetic([types[c] for c in children])
        elif kind in _SAME_TYPE and (not op or op in ("-", "+", "++", "--", "_++", "_--")):
            types[i] = types[children[-1]]
        elif kind == "cast_expression":
            types[i] = _tree_type(tree, labels, children[0])
        elif kind in _INDEXING:
            types[i] = division.element(types[children[0]])
        elif kind in _MEMBERS:
            types[i] = division.member(labels[children[-1]])
        elif kind in _CALLS:
            types[i] = _tree_call(tree, labels, types, children)
        if (kind == "binary_expression" and op == "/" or kind == "assignment_expression"
                and op == "/=") and len(children) == 2:
            reading = division.quotient(types[children[0]], types[children[1]])
            head = labels[i][:-len(op)]
            out[i] = (head + division.OPERATOR[reading] + op[1:], f"division:{reading}")
        if i in implicit:
            name, value = implicit[i]
            env[name] = types[value] if name not in env or env[name] == types[value] \
                else None
    return out


def _tree_declarations(tree: Tree, labels: list[str]
                       ) -> tuple[dict[str, division.Numeric | None], dict[int, tuple[str, int]]]:
    """The names declared with an explicit type (a name declared with two types is
    unknown), and the declarators of ``var``/``auto`` names (declarator -> (name, value))."""
    kinds = tree.kinds
    kids = tree.children
    env: dict[str, division.Numeric | None] = {}
    implicit: dict[int, tuple[str, int]] = {}
    for d, kind in enumerate(kinds):
        if kind not in _DECLARING and kind not in _DECLARING_LOOPS:
            continue
        children = kids[d]
        # the type comes first, after any qualifier or modifier (`const`, `final`)
        at = next((k for k, c in enumerate(children) if kinds[c] in _TYPE_KINDS), None)
        if at is None:
            continue
        words, dims = _type_leaves(tree, labels, children[at])
        declarators = children[at + 1:at + 2] if kind in _DECLARING_LOOPS else \
            children[at + 1:]
        for c in declarators:
            if kinds[c] != "identifier" and kinds[c] not in _DECLARATORS:
                continue
            name_leaf = tree.leftmost[c]
            if kinds[name_leaf] != "identifier":
                continue
            extra = sum(1 for a in _path(tree, name_leaf, c) if kinds[a] in _INDEXED)
            extra += sum(labels[k].count("[") for k in kids[c] if kinds[k] == "dimensions")
            if any(w.lower() in ("var", "auto") for w in words):
                if kinds[c] in _DECLARATORS and len(kids[c]) > 1:
                    implicit[c] = (labels[name_leaf], kids[c][-1])
                continue
            typed = division.declared(words, dims + extra)
            name = labels[name_leaf]
            env[name] = typed if name not in env or env[name] == typed else None
    return env, implicit


def _path(tree: Tree, leaf: int, top: int) -> list[int]:
    """The nodes from ``leaf`` up to ``top`` (both included)."""
    out = [leaf]
    while out[-1] != top and tree.parents[out[-1]] != -1:
        out.append(tree.parents[out[-1]])
    return out


def _type_leaves(tree: Tree, labels: list[str], node: int) -> tuple[list[str], int]:
    """The words of a type subtree's leaves and its array depth (``[ ]`` leaves)."""
    leaves = [labels[k] for k in range(tree.leftmost[node], node + 1) if not tree.children[k]]
    words = [w for leaf in leaves for w in leaf.split() if is_word(w)]
    return words, sum(leaf.count("[") for leaf in leaves)


def _tree_type(tree: Tree, labels: list[str], node: int) -> division.Numeric | None:
    words, dims = _type_leaves(tree, labels, node)
    return division.declared(words, dims)


def _tree_call(tree: Tree, labels: list[str], types: list[division.Numeric | None],
               children: tuple[int, ...]) -> division.Numeric | None:
    """A call's type: Java's ``[object,] name, arguments``; the others' ``function,
    arguments`` (the function a name or a member access)."""
    kinds = tree.kinds
    args_node = children[-1]
    if kinds[args_node] not in _ARGUMENTS and labels[args_node] != "( )":
        return None
    args = [types[a] for a in tree.children[args_node]]
    if len(children) >= 3:  # Java: object, name, arguments
        return division.call(labels[children[-2]], types[children[0]], args)
    function = children[0]
    if not tree.children[function]:
        return division.call(labels[function], None, args)
    parts = tree.children[function]
    name_leaf = function - 1 if not tree.children[function - 1] else parts[-1]
    return division.call(labels[name_leaf], types[parts[0]], args)
