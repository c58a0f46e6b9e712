"""Exact ordered tree edit distance (Zhang–Shasha), unit costs, compiled with numba.

Insert, delete and rename each cost 1 (rename 0 when the labels are equal), the costs of
the RUBY paper's TRS and of ``zss.simple_distance`` with a 0/1 label distance, whose results
this module reproduces exactly, about three orders of magnitude faster.

Labels are mapped to integers per pair before the kernel runs, and the kernel runs on the
trees or on their mirror images (children reversed: same distance), whichever makes less
Zhang–Shasha work for the pair (about 2x less on typical ASTs). Memory is two
``(n1 + 1) x (n2 + 1)`` int32 tables (8 MB for two 1,000-node trees). The kernels are
compiled on first use (about 1–2 s, once; ``cache=True`` keeps the machine code next to this
module, so later processes load it in milliseconds).

:func:`tree_edit_mapping` also recovers an optimal edit script by backtracking the forest
distance tables, recomputing the ones it needs (no per-cell operation lists): same memory,
about twice the time of the distance alone.
"""

from __future__ import annotations

import logging
import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from graphs.trees.normalized import Tree

__all__ = ["EditOperation", "TEDResult", "tree_edit_distance", "tree_edit_mapping",
           "warm_up"]

logger = logging.getLogger(__name__)


# Table indices are cast to unsigned: numba then skips the negative-index wraparound code
# it adds for signed ones (every index here is non-negative by construction). With flat
# tables instead of 2-D ones, this takes the kernel's time per cell from ~2 ns to ~1 ns.
_u = np.uint64


@njit(cache=True, nogil=True, inline="always")
def _forest(l1, lab1, l2, lab2, i, j, td, n2, fd, store):  # pragma: no cover - compiled
    """Forest distances between the subtrees rooted at i and j (Zhang–Shasha's treedist).

    ``td`` and ``fd`` are the flat views of the ``n1 x n2`` tree distance table and the
    ``(n1 + 1) x (n2 + 1)`` forest distance table. Fills fd[x, y] for the forests
    l1[i]..l1[i]+x-1 and l2[j]..l2[j]+y-1; stores tree distances of subtree pairs sharing
    the leftmost leaves in td when ``store``. Row 0 and column 0 of fd (y and x: forest
    against nothing) must be set (:func:`_borders`); no call overwrites them.

    Inlined: calling it costs as much as a small subproblem. Rows whose node shares the
    leftmost leaf of i are split from the others (only they hold whole-tree cells), and the
    cell on the left is carried in a register."""
    s = n2 + 1  # fd row stride
    li = l1[_u(i)]
    lj = l2[_u(j)]
    m = i - li + 2
    n = j - lj + 2
    for x in range(1, m):
        i1 = li + x - 1
        li1 = l1[_u(i1)]
        row = x * s  # fd[x, y] = fd[row + y]
        up = row - s  # fd[x - 1, y] = fd[up + y]
        trow = i1 * n2 + lj - 1  # td[i1, lj + y - 1] = td[trow + y]
        left = x  # fd[x, y - 1]
        if li1 == li:
            a = lab1[_u(i1)]
            for y in range(1, n):
                j1 = lj + y - 1
                lj1 = l2[_u(j1)]
                best = min(fd[_u(up + y)], left) + 1
                if lj1 == lj:
                    # both forests are whole trees: rename (free when the labels are equal)
                    sub = fd[_u(up + y - 1)] + (1 if a != lab2[_u(j1)] else 0)
                    if sub < best:
                        best = sub
                    if store:
                        td[_u(trow + y)] = best
                else:
                    # map subtree i1 onto subtree j1 (known from an earlier keyroot pair);
                    # fd[li1 - li, lj1 - lj] is on row 0, so it is lj1 - lj
                    sub = lj1 - lj + td[_u(trow + y)]
                    if sub < best:
                        best = sub
                fd[_u(row + y)] = best
                left = best
        else:
            # map subtree i1 onto subtree j1: fd[li1 - li, lj1 - lj] + td[i1, j1]
            far = (li1 - li) * s - lj  # fd[li1 - li, lj1 - lj] = fd[far + lj1]
            for y in range(1, n):
                best = min(fd[_u(up + y)], left) + 1
                sub = fd[_u(far + l2[_u(lj + y - 1)])] + td[_u(trow + y)]
                if sub < best:
                    best = sub
                fd[_u(row + y)] = best
                left = best


@njit(cache=True, nogil=True)
def _borders(fd):  # pragma: no cover - compiled
    """Row 0 and column 0 of the forest distance table: a forest against nothing."""
    for x in range(fd.shape[0]):
        fd[x, 0] = x
    for y in range(fd.shape[1]):
        fd[0, y] = y


@njit(cache=True, nogil=True, inline="always")
def _leaf_distances(label, leftmost, lab, counts, out, start, stride):  # pragma: no cover
    """Tree distances between one node labelled ``label`` and every subtree of a tree
    (leftmost leaves ``leftmost``, labels ``lab``), written to out[start + k * stride] for
    subtree k: ``size(k) - 1`` insertions, plus a rename unless some node of k has the label.

    Exactly the values the Zhang–Shasha recurrence gives for a leaf keyroot, in O(n) per
    leaf instead of one small subproblem per keyroot of the other tree (most keyroots of
    ASTs are leaves). ``counts`` is scratch space of n + 1 entries."""
    n = leftmost.size
    c = 0
    counts[0] = 0
    for k in range(n):
        c += lab[_u(k)] == label
        counts[_u(k + 1)] = c  # nodes labelled `label` among 0..k
    for k in range(n):
        lk = leftmost[_u(k)]
        has = counts[_u(k + 1)] != counts[_u(lk)]
        out[_u(start + k * stride)] = k - lk + 1 - has


@njit(cache=True, nogil=True)
def _distance(l1, kr1, lab1, l2, kr2, lab2, td, fd):  # pragma: no cover - compiled
    """Fill the tree distance table ``td`` (every pair of subtrees) and return the
    distance between the whole trees; ``fd`` is the forest distance table.

    Leaf keyroots get closed-form rows and columns (:func:`_leaf_distances`); the table
    equals Zhang–Shasha's entry for entry, so the mapping recovered from it is the same."""
    n1 = l1.size
    n2 = l2.size
    tdf = td.ravel()
    fdf = fd.ravel()
    _borders(fd)
    counts = np.empty(max(n1, n2) + 1, np.int64)
    for b in range(kr2.size):
        j = kr2[b]
        if l2[j] == j:
            _leaf_distances(lab2[j], l1, lab1, counts, tdf, j, n2)  # column j
    for a in range(kr1.size):
        i = kr1[a]
        if l1[i] == i:
            _leaf_distances(lab1[i], l2, lab2, counts, tdf, i * n2, 1)  # row i
            continue
        for b in range(kr2.size):
            j = kr2[b]
            if l2[j] != j:
                _forest(l1, lab1, l2, lab2, i, j, tdf, n2, fdf, True)
    return td[n1 - 1, n2 - 1]


@njit(cache=True, nogil=True)
def _mapping(l1, lab1, l2, lab2, td, fd, out_i, out_j):  # pragma: no cover - compiled
    """Backtrack an optimal edit script from a filled ``td``; returns how many (i, j) pairs
    were written (-1 = none: j inserted, or i deleted)."""
    n1 = l1.size
    n2 = l2.size
    tdf = td.ravel()
    fdf = fd.ravel()  # a view: fd[x, y] reads what _forest wrote
    _borders(fd)
    # pending subtree pairs: disjoint subtrees on both sides, so at most min(n1, n2)
    stack_i = np.empty(min(n1, n2) + 1, np.int64)
    stack_j = np.empty(min(n1, n2) + 1, np.int64)
    stack_i[0] = n1 - 1
    stack_j[0] = n2 - 1
    sp = 1
    count = 0
    while sp > 0:
        sp -= 1
        i = stack_i[sp]
        j = stack_j[sp]
        _forest(l1, lab1, l2, lab2, i, j, tdf, n2, fdf, False)
        li = l1[i]
        lj = l2[j]
        x = i - li + 1
        y = j - lj + 1
        while x > 0 or y > 0:
            if x > 0 and fd[x, y] == fd[x - 1, y] + 1:
                out_i[count] = li + x - 1
                out_j[count] = -1
                count += 1
                x -= 1
            elif y > 0 and fd[x, y] == fd[x, y - 1] + 1:
                out_i[count] = -1
                out_j[count] = lj + y - 1
                count += 1
                y -= 1
            else:
                i1 = li + x - 1
                j1 = lj + y - 1
                if l1[i1] == li and l2[j1] == lj:
                    out_i[count] = i1
                    out_j[count] = j1
                    count += 1
                    x -= 1
                    y -= 1
                else:
                    # whole subtrees i1 and j1 are mapped onto each other: resolve later
                    stack_i[sp] = i1
                    stack_j[sp] = j1
                    sp += 1
                    x = l1[i1] - li
                    y = l2[j1] - lj
    return count


@njit(cache=True, nogil=True)
def _works(parents):  # pragma: no cover - compiled
    """Subtree sizes, and the Zhang–Shasha work (sum of keyroot subtree sizes) of the tree
    and of its mirror image (children reversed), from a valid postorder parent array.

    A subtree is the block of postorder indices ending at its root. A keyroot is the root
    or a node that is not its parent's first child (its leftmost leaf differs from the
    parent's: ``i - size[i] != p - size[p]``); in the mirror image, a node that is not its
    parent's last child (the last child of ``p`` is ``p - 1``)."""
    n = parents.size
    size = np.ones(n, np.int64)
    if n == 0:
        return size, 0, 0
    for i in range(n - 1):
        size[parents[i]] += size[i]
    work = size[n - 1]
    mirror_work = size[n - 1]
    for i in range(n - 1):
        p = parents[i]
        if i - size[i] != p - size[p]:
            work += size[i]
        if i != p - 1:
            mirror_work += size[i]
    return size, work, mirror_work


@njit(cache=True, nogil=True)
def _oriented(parents, size, mirrored):  # pragma: no cover - compiled
    """(leftmost leaves, keyroots ascending, new index -> original index) of the tree, or
    of its mirror image when ``mirrored``.

    The mirror's postorder is the original preorder reversed; a node's preorder index is
    ``leftmost + depth`` (the nodes left of its subtree, then its ancestors), and its
    mirrored subtree is the block of the same size ending at its mirror index."""
    n = parents.size
    last = n - 1
    leftmost = np.empty(n, np.int64)
    perm = np.empty(n, np.int64)
    is_keyroot = np.empty(n, np.bool_)
    count = 0
    if not mirrored:
        for i in range(n):
            leftmost[i] = i - size[i] + 1
            perm[i] = i
            p = parents[i]
            is_keyroot[i] = i == last or leftmost[i] != p - size[p] + 1
            count += is_keyroot[i]
    else:
        depth = np.zeros(n, np.int64)
        for i in range(last - 1, -1, -1):
            depth[i] = depth[parents[i]] + 1
        for i in range(n):
            k = last - (i - size[i] + 1) - depth[i]
            perm[k] = i
            leftmost[k] = k - size[i] + 1
            is_keyroot[k] = i == last or i != parents[i] - 1
            count += is_keyroot[k]
    keyroots = np.empty(count, np.int64)
    count = 0
    for k in range(n):
        if is_keyroot[k]:
            keyroots[count] = k
            count += 1
    return leftmost, keyroots, perm


@njit(cache=True, nogil=True)
def _orient(par1, lab1, par2, lab2):  # pragma: no cover - compiled
    """Whether the pair runs mirrored, then (leftmost, keyroots, labels, permutation) of
    each tree in that orientation: the mirror images when they make strictly less work.

    The work products are exact in int64 (a work is at most n (n + 1) / 2) for every pair
    whose n1 x n2 tables fit in memory."""
    size1, w1, mw1 = _works(par1)
    size2, w2, mw2 = _works(par2)
    mirrored = mw1 * mw2 < w1 * w2
    l1, kr1, p1 = _oriented(par1, size1, mirrored)
    l2, kr2, p2 = _oriented(par2, size2, mirrored)
    if mirrored:
        lab1 = lab1[p1]
        lab2 = lab2[p2]
    return mirrored, (l1, kr1, lab1, p1), (l2, kr2, lab2, p2)


@njit(cache=True, nogil=True)
def _ted(parents, labels, n1):  # pragma: no cover - compiled
    """The distance from :func:`_kernel_inputs`: orientation, tables and kernel in one
    compiled call (numpy work per call from Python cost as much as the kernel itself on
    typical ASTs)."""
    _, (l1, kr1, o1, _), (l2, kr2, o2, _) = _orient(parents[:n1], labels[:n1],
                                                    parents[n1:], labels[n1:])
    td = np.empty((l1.size, l2.size), np.int32)
    fd = np.empty((l1.size + 1, l2.size + 1), np.int32)
    return _distance(l1, kr1, o1, l2, kr2, o2, td, fd)


def _as_tree(t: Tree | Any) -> Tree:
    return t if isinstance(t, Tree) else Tree.from_nested(t)


def _kernel_inputs(a: Tree, b: Tree) -> tuple[np.ndarray, np.ndarray, int]:
    """Parent arrays and label ids (equal ids for equal labels, per pair) of both trees,
    ``a``'s then ``b``'s, and ``len(a)``.

    One array of each for the pair, not per tree: fewer conversions from tuples (the trees
    of real scoring are fresh, so a per-tree cache would not save any)."""
    ids: dict[Any, int] = {}
    labels = np.array([ids.setdefault(x, len(ids)) for x in a.labels + b.labels], np.int64)
    parents = np.fromiter(a.parents + b.parents, np.int64, len(labels))
    return parents, labels, len(a)


def _arrays(tree: Tree, mirrored: bool = False) -> tuple[np.ndarray | None, np.ndarray,
                                                         np.ndarray, int]:
    """(permutation to original indices or None, leftmost, keyroots, work) of ``tree``, or
    of its mirror image (children reversed), as the kernels derive them (for inspection and
    tests: the kernels compute them from the parent array themselves).

    Zhang–Shasha's work is (sum of keyroot subtree sizes of a) x (same for b); on the mirror
    images the distance is the same but the sums differ, often by 2x on ASTs, so the kernel
    runs on whichever orientation is cheaper for the pair.
    """
    parents = np.fromiter(tree.parents, np.int64, len(tree.parents))
    size, work, mirror_work = _works(parents)
    leftmost, keyroots, perm = _oriented(parents, size, mirrored)
    if mirrored:
        return perm, leftmost, keyroots, int(mirror_work)
    return None, leftmost, keyroots, int(work)


def _prepare(a: Tree, b: Tree):
    """Kernel arguments for the cheaper orientation, and the index permutations (None, or
    mirrored index -> original index for each tree)."""
    parents, labels, n1 = _kernel_inputs(a, b)
    mirrored, (l1, kr1, lab1, p1), (l2, kr2, lab2, p2) = _orient(
        parents[:n1], labels[:n1], parents[n1:], labels[n1:])
    td = np.empty((len(a), len(b)), np.int32)
    fd = np.empty((len(a) + 1, len(b) + 1), np.int32)
    perms = (p1, p2) if mirrored else (None, None)
    return (l1, kr1, lab1, l2, kr2, lab2, td, fd), perms


def tree_edit_distance(a: Tree | Any, b: Tree | Any) -> int:
    """Exact Zhang–Shasha tree edit distance with unit costs.

    Parameters
    ----------
    a, b : Tree or nested tuples
        Trees, or nested ``(label, [children])`` tuples (see :meth:`Tree.from_nested`).

    Returns
    -------
    int
        Minimum number of node insertions, deletions and renames turning ``a`` into ``b``;
        equal to ``zss.simple_distance`` with ``label_dist = 0 if equal else 1``.

    Examples
    --------
    >>> from graphs import tree_edit_distance
    >>> tree_edit_distance(("f", [("a", []), ("b", [])]), ("f", [("a", []), ("c", [])]))
    1
    >>> tree_edit_distance(("f", [("a", [])]), ("g", [("f", [("a", [])]), ("x", [])]))
    2
    """
    a, b = _as_tree(a), _as_tree(b)
    if not len(a) or not len(b):
        return len(a) + len(b)
    if a.labels == b.labels and a.parents == b.parents:
        return 0
    return int(_ted(*_kernel_inputs(a, b)))


@dataclass(frozen=True)
class EditOperation:
    """One step of an edit script (or a free match).

    Attributes
    ----------
    kind : str
        ``"match"`` (same label, cost 0), ``"rename"``, ``"delete"`` (node of ``a``) or
        ``"insert"`` (node of ``b``).
    i, j : int or None
        Postorder indices in ``a`` and ``b``.
    label_a, label_b : object or None
        The labels involved.
    position_a, position_b : tuple of int or None
        (line, column) of the nodes in their sources, when the trees carry positions.
    """

    kind: str
    i: int | None
    j: int | None
    label_a: Any = None
    label_b: Any = None
    position_a: tuple[int, int] | None = None
    position_b: tuple[int, int] | None = None

    @property
    def cost(self) -> int:
        """0 for a match, 1 otherwise."""
        return 0 if self.kind == "match" else 1

    def __str__(self) -> str:
        def at(pos: tuple[int, int] | None) -> str:
            return f" at line {pos[0]}, col {pos[1]}" if pos else ""

        if self.kind == "rename":
            return f"rename {self.label_a!r} -> {self.label_b!r}{at(self.position_b)}"
        if self.kind == "delete":
            return f"delete {self.label_a!r}{at(self.position_a)}"
        if self.kind == "insert":
            return f"insert {self.label_b!r}{at(self.position_b)}"
        return f"match {self.label_a!r}{at(self.position_b)}"


@dataclass(frozen=True)
class TEDResult:
    """Distance and an optimal edit mapping between two trees.

    Attributes
    ----------
    distance : int
        The tree edit distance.
    mapping : tuple of (int or None, int or None)
        Postorder index pairs: ``(i, j)`` maps node ``i`` of ``a`` to node ``j`` of ``b``,
        ``(i, None)`` deletes ``i``, ``(None, j)`` inserts ``j``. Sorted by ``i`` (pairs and
        deletions), then insertions by ``j``. Every node of both trees appears once.
    operations : tuple of EditOperation
        The costly steps (renames, deletions, insertions) in mapping order;
        ``len(operations) == distance``.
    size_a, size_b : int
        Tree sizes.
    """

    distance: int
    mapping: tuple[tuple[int | None, int | None], ...]
    operations: tuple[EditOperation, ...]
    size_a: int
    size_b: int

    @property
    def similarity(self) -> float:
        """Deprecated: ``1 - distance / (size_a + size_b)`` (RUBY's TRS); 1.0 for two empty
        trees.

        Turning a distance into a score is the product's normalization, not ``graphs``'s,
        which returns distances and sizes only: use
        ``ruby_metric.scoring.tiers.normalized_similarity(r.distance, r.size_a + r.size_b)``.
        """
        warnings.warn(
            "TEDResult.similarity is deprecated: graphs returns distances and sizes only; use "
            "ruby_metric.scoring.tiers.normalized_similarity(r.distance, r.size_a + r.size_b)",
            DeprecationWarning,
            stacklevel=2,
        )
        total = self.size_a + self.size_b
        return 1.0 - self.distance / total if total else 1.0


def tree_edit_mapping(a: Tree | Any, b: Tree | Any) -> TEDResult:
    """Tree edit distance plus an optimal edit mapping, for diagnostics.

    Parameters
    ----------
    a, b : Tree or nested tuples
        As for :func:`tree_edit_distance`.

    Returns
    -------
    TEDResult
        ``distance`` equals :func:`tree_edit_distance`; ``operations`` lists the renames,
        deletions and insertions with labels (and source positions for normalized ASTs).

    Examples
    --------
    >>> from graphs import tree_edit_mapping
    >>> r = tree_edit_mapping(("f", [("a", []), ("b", [])]), ("f", [("a", []), ("c", [])]))
    >>> r.distance, r.mapping
    (1, ((0, 0), (1, 1), (2, 2)))
    >>> [str(op) for op in r.operations]
    ["rename 'b' -> 'c'"]
    """
    a, b = _as_tree(a), _as_tree(b)
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        pairs = [(i, None) for i in range(n1)] + [(None, j) for j in range(n2)]
        distance = n1 + n2
    else:
        args, (p1, p2) = _prepare(a, b)
        distance = int(_distance(*args))
        l1, _, lab1, l2, _, lab2, td, fd = args
        out_i = np.empty(n1 + n2, np.int64)
        out_j = np.empty(n1 + n2, np.int64)
        count = _mapping(l1, lab1, l2, lab2, td, fd, out_i, out_j)
        out_i, out_j = out_i[:count], out_j[:count]
        if p1 is not None:  # back from mirrored to original postorder indices
            out_i = np.where(out_i < 0, -1, p1[np.maximum(out_i, 0)])
            out_j = np.where(out_j < 0, -1, p2[np.maximum(out_j, 0)])
        raw = zip(out_i.tolist(), out_j.tolist(), strict=True)
        pairs = [(None if i < 0 else i, None if j < 0 else j) for i, j in raw]
    pairs.sort(key=lambda p: (p[0] is None, p[0] if p[0] is not None else p[1]))
    operations = []
    pos_a, pos_b = a.positions, b.positions
    for i, j in pairs:
        la = a.labels[i] if i is not None else None
        lb = b.labels[j] if j is not None else None
        if i is not None and j is not None and la == lb:
            continue
        kind = "rename" if i is not None and j is not None else (
            "delete" if j is None else "insert")
        operations.append(EditOperation(
            kind, i, j, la, lb,
            pos_a[i] if pos_a and i is not None else None,
            pos_b[j] if pos_b and j is not None else None,
        ))
    if len(operations) != distance:  # an invariant of the backtracking; never expected
        raise AssertionError(f"edit script costs {len(operations)}, distance is {distance}")
    return TEDResult(distance, tuple(pairs), tuple(operations), n1, n2)


def warm_up() -> float:
    """Compile (or load from cache) the TED kernels now; return the seconds it took.

    The first call of :func:`tree_edit_distance` in a process otherwise pays this cost.

    Examples
    --------
    >>> from graphs.trees.ted import warm_up
    >>> warm_up() >= 0
    True
    """
    start = time.perf_counter()
    a, b = ("a", [("b", [])]), ("a", [("c", []), ("b", [])])
    tree_edit_distance(a, b)  # _ted
    tree_edit_mapping(a, b)  # _orient, _distance, _mapping
    elapsed = time.perf_counter() - start
    logger.debug("TED kernels ready in %.3f s", elapsed)
    return elapsed
