"""Normalized abstract syntax trees, stored as compact postorder arrays.

A :class:`Tree` is what the tree tier compares: labels in postorder plus parent indices,
from which the arrays Zhang–Shasha needs (leftmost leaf descendants, keyroots) follow. It is
a plain frozen dataclass of tuples: picklable, hashable, cheap to send to worker processes.

:func:`normalized_ast` turns a :class:`~graphs.parsing.parser.ParsedCode` into a Tree:

- tree-sitter's *named* nodes only; comments and MISSING nodes dropped;
- the wrapper's scaffolding excluded: one synthetic root labelled ``"snippet"`` sits over
  the snippet's top-level nodes (the same for every snippet, so identical code is at
  distance 0 whatever context it parsed in);
- a leaf's label is its text (identifiers, literals, keywords such as ``this``); a named
  leaf made of several tokens (Java ``modifiers``) is labelled by its tokens joined with one
  space, so whitespace never matters;
- literals are atomic: a string literal is one leaf labelled with its full text (its
  fragments and escapes are not separate nodes), unless it interpolates expressions;
- an inner node's label is its type, plus its operator when it has one, because operators
  are anonymous tokens in tree-sitter and ``a + b`` must differ from ``a - b``:
  ``binary_expression:+``, ``unary_expression:!``, ``update_expression:++`` (prefix) and
  ``update_expression:_++`` (postfix);
- with ``abstract_identifiers`` every identifier leaf is labelled by its node type
  (``identifier``, ``type_identifier``, ...); with ``abstract_literals`` every literal by its
  kind (``string_literal``, ``decimal_integer_literal``, ...).

No recursion anywhere: the traversals use explicit stacks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import tree_sitter

from graphs.lang.languages import Language, get_language, get_ts_language
from graphs.parsing.parser import ParsedCode

__all__ = ["OPAQUE_MARK", "SNIPPET_LABEL", "Tree", "normalized_ast"]

SNIPPET_LABEL = "snippet"
#: Prefix of the label of an ERROR subtree kept as one leaf (``opaque_errors``).
OPAQUE_MARK = "⁇"

Nested = tuple[Any, Sequence["Nested"]]


@dataclass(frozen=True, repr=False)
class Tree:
    """An ordered labelled tree in postorder arrays.

    Attributes
    ----------
    labels : tuple of str
        Node labels in postorder (children before their parent, left to right); the root
        is last.
    parents : tuple of int
        Postorder index of each node's parent; ``-1`` for the root.
    kinds : tuple of str
        Node types (tree-sitter types, ``"snippet"`` for the synthetic root); empty when the
        tree was built from labels only. Not part of equality.
    positions : tuple of (int, int) or None
        1-based (line, column) of each node's start in the original snippet, ``None`` for
        synthetic nodes; empty when unknown. Not part of equality. Normalized ASTs compute
        them on first access (scoring never reads them; explanations do).
    children : tuple of tuple of int
        Derived: each node's children, in order.
    leftmost : tuple of int
        Derived: postorder index of each node's leftmost leaf descendant.
    keyroots : tuple of int
        Derived: Zhang–Shasha keyroots, ascending.

    Examples
    --------
    >>> from graphs import Tree
    >>> t = Tree.from_nested(("f", [("a", []), ("b", [("c", [])])]))
    >>> t.labels, t.parents, len(t)
    (('a', 'c', 'b', 'f'), (3, 2, 3, -1), 4)
    >>> t.to_nested()
    ('f', [('a', []), ('b', [('c', [])])])
    """

    labels: tuple[Any, ...]
    parents: tuple[int, ...]
    kinds: tuple[str, ...] = field(default=(), compare=False)
    # a factory, not a default: a class attribute would hide the lazy value (__getattr__)
    positions: tuple[tuple[int, int] | None, ...] = field(default_factory=tuple, compare=False)
    children: tuple[tuple[int, ...], ...] = field(init=False, compare=False)
    leftmost: tuple[int, ...] = field(init=False, compare=False)
    keyroots: tuple[int, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        labels, parents = tuple(self.labels), tuple(int(p) for p in self.parents)
        n = len(labels)
        if len(parents) != n:
            raise ValueError(f"{n} labels but {len(parents)} parents")
        if self.kinds and len(self.kinds) != n:
            raise ValueError(f"{n} labels but {len(self.kinds)} kinds")
        if self.positions and len(self.positions) != n:
            raise ValueError(f"{n} labels but {len(self.positions)} positions")
        kids: list[list[int]] = [[] for _ in range(n)]
        for i, p in enumerate(parents):
            if i == n - 1:
                if p != -1:
                    raise ValueError("the last node (postorder root) must have parent -1")
            elif not i < p < n:
                raise ValueError(f"node {i}: parent {p} is not a later postorder index")
            else:
                kids[p].append(i)
        leftmost = list(range(n))
        for i in range(n):
            if kids[i]:
                leftmost[i] = leftmost[kids[i][0]]
            # a child list must be contiguous postorder blocks: first child's subtree
            # starts the parent's subtree, each next child starts after the previous
            prev = None
            for c in kids[i]:
                if prev is not None and leftmost[c] != prev + 1:
                    raise ValueError(f"node {i}: children are not in postorder")
                prev = c
            if kids[i] and kids[i][-1] != i - 1:
                raise ValueError(f"node {i}: last child must precede it in postorder")
        last_with_leftmost = {}
        for i in range(n):
            last_with_leftmost[leftmost[i]] = i
        set_ = object.__setattr__
        set_(self, "labels", labels)
        set_(self, "parents", parents)
        set_(self, "kinds", tuple(self.kinds))
        set_(self, "positions", tuple(self.positions))
        set_(self, "children", tuple(tuple(k) for k in kids))
        set_(self, "leftmost", tuple(leftmost))
        set_(self, "keyroots", tuple(sorted(last_with_leftmost.values())))

    @classmethod
    def _trusted(cls, labels: tuple[Any, ...], parents: tuple[int, ...],
                 kinds: tuple[str, ...], positions: _LazyPositions) -> Tree:
        """A tree from arrays known to be a valid postorder (built by :func:`normalized_ast`).

        Skips the checks of ``__post_init__`` (a fifth of the AST build time) and leaves the
        derived arrays and the positions to be computed on first access: scoring needs no
        positions, and no arrays at all for a pair of equal trees (most pairs of CodeXGLUE
        model outputs have equal ASTs).
        """
        self = object.__new__(cls)
        self.__dict__.update(labels=labels, parents=parents, kinds=kinds,
                             _lazy_positions=positions)
        return self

    def __getattr__(self, name: str) -> Any:
        # Only reached for names not found normally: the derived arrays and `positions` of
        # a tree built by _trusted (or unpickled without them) before their first use.
        # Concurrent first uses compute equal values; either assignment is fine.
        d = self.__dict__
        if name in ("leftmost", "keyroots") and "parents" in d:
            d["leftmost"], d["keyroots"] = _derived(d["parents"])
            return d[name]
        if name == "children" and "parents" in d:
            parents = d["parents"]
            kids: list[list[int]] = [[] for _ in parents]
            for i, p in enumerate(parents[:-1]):
                kids[p].append(i)
            value = d["children"] = tuple(map(tuple, kids))
            return value
        if name == "positions":
            lazy = self.__dict__.get("_lazy_positions")
            if lazy is not None:
                value = lazy.resolve()
                # set before dropping the source, so a concurrent reader finds one of them
                self.__dict__["positions"] = value
                self.__dict__.pop("_lazy_positions", None)
                return value
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        # derived arrays (if computed) travel with the tree
        state = dict(self.__dict__)
        if "_lazy_positions" in state:  # the source index stays behind; ship the values
            state["positions"] = self.positions
            state.pop("_lazy_positions", None)
        return state

    def __len__(self) -> int:
        return len(self.labels)

    def size(self) -> int:
        """Number of nodes (the synthetic root of a normalized AST included)."""
        return len(self.labels)

    @property
    def root(self) -> int:
        """Postorder index of the root (the last node); -1 for an empty tree."""
        return len(self.labels) - 1

    def __repr__(self) -> str:
        if not self.labels:
            return "Tree(size=0)"
        return f"Tree(size={len(self.labels)}, root={self.labels[-1]!r})"

    @classmethod
    def from_nested(cls, nested: Nested | Any) -> Tree:
        """Build a tree from nested ``(label, [children])`` tuples.

        Parameters
        ----------
        nested : tuple
            ``(label, children)`` where ``children`` is a sequence of the same form; a
            1-tuple ``(label,)`` or a bare string is a leaf.

        Returns
        -------
        Tree

        Examples
        --------
        >>> from graphs import Tree
        >>> Tree.from_nested(("a", ["b", ("c",)])).labels
        ('b', 'c', 'a')
        """
        labels: list[Any] = []
        parents: list[int] = []
        # each frame: [label, children, next child, postorder indices of done children]
        stack: list[list[Any]] = [[*_split(nested), 0, []]]
        while stack:
            frame = stack[-1]
            if frame[2] < len(frame[1]):
                child = frame[1][frame[2]]
                frame[2] += 1
                stack.append([*_split(child), 0, []])
                continue
            stack.pop()
            index = len(labels)
            labels.append(frame[0])
            parents.append(-1)
            for c in frame[3]:
                parents[c] = index
            if stack:
                stack[-1][3].append(index)
        return cls(tuple(labels), tuple(parents))

    def to_nested(self) -> Nested | None:
        """Return the tree as nested ``(label, [children])`` tuples (None if empty).

        Examples
        --------
        >>> from graphs import Tree
        >>> Tree((("x"), "y"), (1, -1)).to_nested()
        ('y', [('x', [])])
        """
        built: list[Nested] = []
        for i, label in enumerate(self.labels):
            built.append((label, [built[c] for c in self.children[i]]))
        return built[-1] if built else None

    def depth(self) -> int:
        """Number of nodes on the longest root-to-leaf path (0 for an empty tree)."""
        depths = [0] * len(self.labels)
        best = 0
        for i in range(len(self.labels) - 1, -1, -1):
            p = self.parents[i]
            depths[i] = 1 if p < 0 else depths[p] + 1
            best = max(best, depths[i])
        return best


def _split(nested: Any) -> tuple[Any, Sequence[Any]]:
    if isinstance(nested, tuple):
        if len(nested) == 1:
            return nested[0], ()
        if len(nested) == 2:
            return nested[0], nested[1]
        raise ValueError(f"expected (label, children) or (label,), got {nested!r}")
    return nested, ()


def _derived(parents: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Leftmost leaf descendants and keyroots of a valid postorder parent array.

    The arrays ``__post_init__`` derives while checking, from subtree sizes: a subtree is
    the block of postorder indices ending at its root, and a keyroot is the root or a node
    that is not its parent's first child (the highest node of each leftmost chain).
    """
    n = len(parents)
    size = [1] * n
    for i in range(n - 1):
        size[parents[i]] += size[i]
    leftmost = [i - s + 1 for i, s in enumerate(size)]
    keyroots = tuple([i for i, p in enumerate(parents) if p < 0 or leftmost[i] != leftmost[p]])
    return tuple(leftmost), keyroots


class _LazyPositions:
    """Start offsets of a normalized AST's nodes, turned into (line, column) on demand.

    Mapping an offset back to the snippet costs more than building the node's label, and
    only explanations read positions.
    """

    __slots__ = ("index", "starts")

    def __init__(self, index: Any, starts: list[int]) -> None:
        self.index = index  # the ParsedCode's SourceIndex
        self.starts = starts  # byte offsets into ParsedCode.text; -1 for synthetic nodes

    def resolve(self) -> tuple[tuple[int, int] | None, ...]:
        position = self.index.position
        return tuple(None if s < 0 else position(s) for s in self.starts)


def _is_comment(node: tree_sitter.Node, lang: Language) -> bool:
    return node.type in lang.comment_types or (node.is_extra and "comment" in node.type)


def _keep(node: tree_sitter.Node, lang: Language) -> bool:
    return node.is_named and not node.is_missing and not _is_comment(node, lang)


_NO_NODES: list[tree_sitter.Node] = []  # never appended to

# What the AST walk does with a named child, by its kind: kept, dropped (a comment type),
# or dropped only where the grammar made it an extra (other types containing "comment").
_KEPT, _DROPPED, _COMMENT_IF_EXTRA = 0, 1, 2


class _PerKind(dict[int, Any]):
    """A ``kind_id -> value`` table of one grammar, filled on first sight of each kind.

    ``node.kind_id`` is cheaper than ``node.type``, which builds a new ``str`` on every
    call; a node's type is the name of its kind id (the alias-resolved public symbol, whose
    name is the node's own).
    """

    def __init__(self, compute: Callable[[int], Any]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, kind_id: int) -> Any:
        # concurrent first sights store equal values
        value = self[kind_id] = self._compute(kind_id)
        return value


def _role(name: str, comment_types: frozenset[str]) -> int:
    if name in comment_types:
        return _DROPPED
    return _COMMENT_IF_EXTRA if "comment" in name else _KEPT


# Per-language constants of the AST walk, keyed by name and checked against the registry
# entry (register_language may replace it).
_CONFIGS: dict[str, tuple[Language, tuple[Any, ...]]] = {}


def _config(lang: Language) -> tuple[Any, ...]:
    cached = _CONFIGS.get(lang.name)
    if cached is None or cached[0] is not lang:
        ts = get_ts_language(lang.name)
        comment_types = lang.comment_types
        # grammars without an `operator(s)` field never need the lookup
        cached = _CONFIGS[lang.name] = (lang, (
            lang.literal_types, lang.interpolation_types, lang.operator_types,
            ts.field_id_for_name("operator"), ts.field_id_for_name("operators"),
            _PerKind(lambda k: ts.node_kind_for_id(k) or ""),
            _PerKind(lambda k: _role(ts.node_kind_for_id(k) or "", comment_types)),
        ))
    return cached[1]


def normalized_ast(parsed: ParsedCode, *, abstract_identifiers: bool = False,
                   abstract_literals: bool = False, opaque_errors: bool = False) -> Tree:
    """Build the normalized AST of a parsed snippet.

    Parameters
    ----------
    parsed : ParsedCode
        The result of :func:`graphs.parse`. A parse that is not clean still gives a tree
        (``ERROR`` nodes labelled ``"ERROR"``); callers decide whether it is usable.
    abstract_identifiers : bool, default False
        Label identifier leaves by their node type instead of their name.
    abstract_literals : bool, default False
        Label literals by their kind instead of their text.
    opaque_errors : bool, default False
        Make each ``ERROR`` node one leaf labelled ``"⁇ "`` and its text on one line
        (error-contained structure, :mod:`graphs.repair.containment`), instead of an inner node
        ``"ERROR"`` over whatever tree-sitter recovered.

    Returns
    -------
    Tree
        Postorder arrays with the synthetic root ``"snippet"`` last; ``kinds`` holds node
        types and ``positions`` 1-based (line, column) in ``parsed.source``.

    Examples
    --------
    >>> from graphs import parse, normalized_ast
    >>> t = normalized_ast(parse("x = a + 1", "python"))
    >>> t.to_nested()
    ('snippet', [('expression_statement', [('assignment', [('x', []), \
('binary_operator:+', [('a', []), ('1', [])])])])])
    >>> normalized_ast(parse("x = a + 1", "python"), abstract_identifiers=True,
    ...                abstract_literals=True).labels[:4]
    ('identifier', 'identifier', 'integer', 'binary_operator:+')
    """
    lang = get_language(parsed.language)
    (literal_types, interpolation_types, operator_types, op_field, ops_field, type_of,
     role_of) = _config(lang)
    index = parsed.index
    ptext = parsed.text
    text = index.text
    verbatim = index.verbatim
    # MISSING nodes make their ancestors has_error: a clean tree needs no is_missing test
    check_missing = parsed.tree.root_node.has_error

    # One pass in the mirror image's preorder (root first, children right to left): its
    # reverse is the postorder. Each node is looked at once, with one scan of its children
    # (this loop is the tree tier's build cost, hence the inlining).
    labels: list[Any] = [SNIPPET_LABEL]
    kinds: list[str] = [SNIPPET_LABEL]
    starts: list[int] = [-1]
    parents: list[int] = [-1]  # in visiting order
    stack = [n for n in parsed.nodes if _keep(n, lang)]
    stack_parent = [0] * len(stack)
    while stack:
        node = stack.pop()
        parents.append(stack_parent.pop())
        node_type = type_of[node.kind_id]
        start = node.start_byte
        kept: list[tree_sitter.Node] = _NO_NODES  # the children to visit
        if opaque_errors and node_type == "ERROR":
            label = OPAQUE_MARK + " " + " ".join(text(ptext, start, node.end_byte).split())
        elif node_type in literal_types and (abstract_literals or not any(
                type_of[c.kind_id] in interpolation_types for c in node.named_children)):
            label = node_type if abstract_literals else (
                text(ptext, start, node.end_byte) or node_type)
        elif not (children := node.children):
            # a leaf (half of all nodes)
            if (abstract_identifiers and "identifier" in node_type) or (
                    abstract_literals and node_type in literal_types):
                label = node_type
            elif verbatim:
                # SourceIndex.text inlined for the common case
                try:
                    label = ptext[start:node.end_byte].decode("utf-8", "surrogatepass")
                except UnicodeDecodeError:
                    label = text(ptext, start, node.end_byte)
                label = label or node_type
            else:
                label = text(ptext, start, node.end_byte) or node_type
        else:
            tokens: list[tree_sitter.Node] = []  # anonymous children
            kept = []
            for c in children:
                if not c.is_named:
                    tokens.append(c)
                    continue
                role = role_of[c.kind_id]  # one lookup instead of the type's comment tests
                if (role == _KEPT or (role == _COMMENT_IF_EXTRA and not c.is_extra)) and not (
                        check_missing and c.is_missing):
                    kept.append(c)
            if kept:
                label = node_type
                if tokens:
                    if node_type not in operator_types:
                        # the first non-empty of the `operator` and `operators` fields
                        # (children_by_*, not child_by_field_id: that one misses fields of
                        # hidden children inside ERROR nodes). Elsewhere, the node's field
                        # map lists every field of its children, inherited ones included,
                        # so a None from the cheap child_by_field_id (no list, no cursor)
                        # means no child has the field: most nodes with tokens have none.
                        field: list[tree_sitter.Node] = []
                        any_field = node_type == "ERROR"
                        if op_field is not None and (
                                any_field or node.child_by_field_id(op_field) is not None):
                            field = node.children_by_field_id(op_field)
                        if not field and ops_field is not None and (
                                any_field or node.child_by_field_id(ops_field) is not None):
                            field = node.children_by_field_id(ops_field)
                        tokens = [c for c in field if not c.is_named]
                    if tokens:
                        op = " ".join([c.type for c in tokens])
                        # a postfix operator follows its only operand: `i++` vs `++i`
                        if len(kept) == 1 and tokens[0].start_byte >= kept[0].end_byte:
                            op = "_" + op
                        label = f"{node_type}:{op}"
            elif (abstract_identifiers and "identifier" in node_type) or (
                    abstract_literals and node_type in literal_types):
                label = node_type
            else:
                # made only of anonymous tokens (Java `modifiers`, `break;`) or of
                # dropped nodes (comments)
                label = " ".join([text(ptext, c.start_byte, c.end_byte)
                                  for c in tokens]) or node_type
        labels.append(label)
        kinds.append(node_type)
        starts.append(start)
        if kept:
            stack.extend(kept)
            stack_parent.extend([len(labels) - 1] * len(kept))
    n = len(labels)
    last = n - 1
    labels.reverse()
    kinds.reverse()
    starts.reverse()
    # visiting index r is postorder index last - r
    post_parents = tuple([last - p for p in reversed(parents[1:])]) + (-1,)
    return Tree._trusted(tuple(labels), post_parents, tuple(kinds),
                         _LazyPositions(index, starts))
