"""Lower bounds on the GED and the bipartite (Riesen–Bunke) assignment step: label and
edge-type multiset bounds, the admissible and the heuristic assignment cost matrices (solved
by :mod:`graphs.ged.assignment`), and rounding a bound up to the grid the GED lives on."""

from __future__ import annotations

import math

import numba
import numpy as np

from graphs.ged.encoding import Problem


@numba.njit(cache=True, nogil=True)
def _multiset_distance(x, y):  # pragma: no cover - compiled
    """``D[i, j] = max(|x_i|, |y_j|) - |x_i ∩ y_j|`` for the rows of count matrices x, y.

    Rows are sparse (a node has a few incident edges), so the intersection runs over the
    non-zeros of ``y_j`` only: ``O(n * nnz(y))`` instead of a dense ``(n, m, k)`` broadcast.
    """
    n, k = x.shape
    m = y.shape[0]
    sx = np.zeros(n, dtype=np.int64)
    sy = np.zeros(m, dtype=np.int64)
    ptr = np.zeros(m + 1, dtype=np.int64)
    for j in range(m):
        for c in range(k):
            if y[j, c] != 0:
                ptr[j + 1] += 1
                sy[j] += y[j, c]
        ptr[j + 1] += ptr[j]
    idx = np.zeros(ptr[m], dtype=np.int64)
    e = 0
    for j in range(m):
        for c in range(k):
            if y[j, c] != 0:
                idx[e] = c
                e += 1
    for i in range(n):
        for c in range(k):
            sx[i] += x[i, c]
    out = np.empty((n, m), dtype=np.float64)
    for i in range(n):
        for j in range(m):
            common = 0
            for e in range(ptr[j], ptr[j + 1]):
                c = idx[e]
                a = x[i, c]
                b = y[j, c]
                common += a if a < b else b
            out[i, j] = (sx[i] if sx[i] > sy[j] else sy[j]) - common
    return out


@numba.njit(cache=True, nogil=True)
def _incident_counts(adj):  # pragma: no cover - compiled
    """Per node and edge type: out-edges, in-edges (self-loops excluded) and self-loops."""
    n_types, size, _ = adj.shape
    out = np.zeros((size, n_types), dtype=np.int64)
    inc = np.zeros((size, n_types), dtype=np.int64)
    loops = np.zeros((size, n_types), dtype=np.int64)
    for t in range(n_types):
        for i in range(size):
            for j in range(size):
                c = adj[t, i, j]
                if c != 0:
                    if i == j:
                        loops[i, t] += c
                    else:
                        out[i, t] += c
                        inc[j, t] += c
    return out, inc, loops


@numba.njit(cache=True, nogil=True)
def _neighbour_counts(adj, labels, n_labels):  # pragma: no cover - compiled
    """Per node: counts of (edge type, neighbour label) over out- and in-edges (no loops)."""
    n_types, size, _ = adj.shape
    out = np.zeros((size, n_types * n_labels), dtype=np.int64)
    inc = np.zeros((size, n_types * n_labels), dtype=np.int64)
    for t in range(n_types):
        for i in range(size):
            for j in range(size):
                c = adj[t, i, j]
                if c != 0 and i != j:
                    out[i, t * n_labels + labels[j]] += c
                    inc[j, t * n_labels + labels[i]] += c
    return out, inc


@numba.njit(cache=True, nogil=True)
def _lower_bound_costs(node_cost, a1, a2):  # pragma: no cover - compiled
    """The matrix of :func:`lower_bound_matrix` (all entries are exact halves)."""
    o1, i1, l1 = _incident_counts(a1)
    o2, i2, l2 = _incident_counts(a2)
    edges = 0.5 * (_multiset_distance(o1, o2) + _multiset_distance(i1, i2))
    return node_cost + edges + _multiset_distance(l1, l2)


@numba.njit(cache=True, nogil=True)
def _heuristic_costs(node_cost, a1, a2, lab1, lab2, n_labels):  # pragma: no cover - compiled
    """The matrix of :func:`heuristic_matrix` (all entries are exact halves)."""
    o1, i1, l1 = _incident_counts(a1)
    o2, i2, l2 = _incident_counts(a2)
    no1, ni1 = _neighbour_counts(a1, lab1, n_labels)
    no2, ni2 = _neighbour_counts(a2, lab2, n_labels)
    typed = _multiset_distance(o1, o2) + _multiset_distance(i1, i2)
    context = _multiset_distance(no1, no2) + _multiset_distance(ni1, ni2)
    return node_cost + 0.5 * typed + 0.5 * context + _multiset_distance(l1, l2)


def lower_bound_matrix(p: Problem) -> np.ndarray:
    """Assignment costs whose optimum is a lower bound on the scaled GED.

    Each non-loop edge slot is seen from both of its end pairs, so charging half of the
    incident-edge assignment cost at each node pair never overestimates (Riesen–Bunke's
    admissible variant); self-loops are seen once and are charged fully.
    """
    return _lower_bound_costs(p.node_cost, p.rows.adj, p.cols.adj)


def heuristic_matrix(p: Problem) -> np.ndarray:
    """Assignment costs that guide the upper bound: labels plus the local edge structure.

    Beyond the (direction, type) multisets of the lower bound, nodes whose neighbours carry
    the same labels over the same kind of edges are drawn together, which is what makes
    the induced edit path good on PDGs (statements are mostly distinguished by context).
    """
    return _heuristic_costs(
        p.node_cost, p.rows.adj, p.cols.adj, p.row_labels, p.cols.label_ids, p.n_labels
    )


def multiset_bound(p: Problem) -> float:
    """Scaled bound from label multisets (nodes) and type multisets (edges, loops apart).

    Graded costs: equal labels may pair up for free, every other node pays at least its
    cheapest substitution or its insertion (see :func:`graded_label_bound`).
    """
    if p.graded:
        return float(
            _graded_multiset_bound_kernel(
                p.rows.adj,
                p.cols.adj,
                p.rows.label_ids,
                p.cols.label_ids,
                p.label_cost,
                p.label_weight,
                p.mass,
            )
        )
    return float(
        _multiset_bound_kernel(
            p.rows.adj, p.cols.adj, p.rows.label_ids, p.cols.label_ids, p.n_labels, p.scale
        )
    )


# Also compiled into exact._remaining_bound, whose numba cache does not see edits made here
# (see graphs.ged's notes).
@numba.njit(cache=True, nogil=True)
def graded_label_bound(cnt1, cnt2, lcost, lweight, free_rows, free_cols, mass):  # pragma: no cover
    """Lower bound on the scaled node cost of an assignment under graded costs.

    ``free_rows`` rows (label counts ``cnt1``) map injectively into ``free_cols >= free_rows``
    columns (counts ``cnt2``), the surplus columns being inserted, a column labelled ``b``
    at ``lweight[b]``. Three views, each valid; the largest is returned:

    * rows: of the rows labelled ``a``, at most ``cnt2[a]`` meet an equal label, the others
      pay at least the cheapest substitution of ``a`` by a column label ``b != a``; and the
      surplus columns pay at least the lightest free column's insertion each;
    * columns: of the columns labelled ``b``, at most ``cnt1[b]`` meet an equal label, the
      others pay at least the cheaper of their insertion (if any column is inserted) and
      the cheapest substitution from a row label ``a != b``;
    * mass (when ``mass``: every substitution costs at least the difference of the two
      weights): by the triangle inequality the node costs add up to at least the difference
      of the total weights of the free rows and of the free columns.

    With unit weights and costs the first two equal the multiset bound
    ``scale * (free_cols - common labels)``. When no row is free (a leaf of the exact
    search) the column view is the exact insertion cost.
    """
    k = cnt1.shape[0]
    by_rows = 0.0
    if free_cols > free_rows:
        lightest = np.inf
        for b in range(k):
            if cnt2[b] > 0 and lweight[b] < lightest:
                lightest = lweight[b]
        by_rows = (free_cols - free_rows) * lightest
    by_cols = 0.0
    mass1 = 0.0
    mass2 = 0.0
    for a in range(k):
        mass1 += cnt1[a] * lweight[a]
        mass2 += cnt2[a] * lweight[a]
        excess = cnt1[a] - cnt2[a]
        if excess > 0:
            cheapest = np.inf
            for b in range(k):
                if b != a and cnt2[b] > 0 and lcost[a, b] < cheapest:
                    cheapest = lcost[a, b]
            if cheapest < np.inf:  # always: more rows than equal columns means others exist
                by_rows += excess * cheapest
        excess = cnt2[a] - cnt1[a]
        if excess > 0:
            cheapest = lweight[a] if free_cols > free_rows else np.inf
            for b in range(k):
                if b != a and cnt1[b] > 0 and lcost[b, a] < cheapest:
                    cheapest = lcost[b, a]
            if cheapest < np.inf:
                by_cols += excess * cheapest
    best = by_rows if by_rows > by_cols else by_cols
    if mass:
        diff = mass1 - mass2 if mass1 > mass2 else mass2 - mass1
        if diff > best:
            best = diff
    return best


@numba.njit(cache=True, nogil=True)
def _graded_multiset_bound_kernel(a1, a2, lab1, lab2, lcost, lweight, mass):  # pragma: no cover
    """See :func:`multiset_bound`: the graded node bound plus the edge-type multiset bound."""
    k = lcost.shape[0]
    cnt1 = np.zeros(k, dtype=np.int64)
    cnt2 = np.zeros(k, dtype=np.int64)
    for i in range(lab1.shape[0]):
        cnt1[lab1[i]] += 1
    for j in range(lab2.shape[0]):
        cnt2[lab2[j]] += 1
    n = lab1.shape[0]
    m = lab2.shape[0]
    total = graded_label_bound(cnt1, cnt2, lcost, lweight, min(n, m), max(n, m), mass)
    return total + _type_multiset_bound(a1, a2)


@numba.njit(cache=True, nogil=True)
def _multiset_bound_kernel(a1, a2, lab1, lab2, n_labels, scale):  # pragma: no cover
    """See :func:`multiset_bound`; an integer (scaled)."""
    cnt1 = np.zeros(n_labels, dtype=np.int64)
    cnt2 = np.zeros(n_labels, dtype=np.int64)
    for i in range(lab1.shape[0]):
        cnt1[lab1[i]] += 1
    for j in range(lab2.shape[0]):
        cnt2[lab2[j]] += 1
    common = 0
    for lab in range(n_labels):
        common += cnt1[lab] if cnt1[lab] < cnt2[lab] else cnt2[lab]
    total = scale * (max(lab1.shape[0], lab2.shape[0]) - common)
    return total + _type_multiset_bound(a1, a2)


@numba.njit(cache=True, nogil=True)
def _type_multiset_bound(a1, a2):  # pragma: no cover - compiled
    """Edge part of :func:`multiset_bound`: type multisets of loops and of other slots."""
    total = 0
    n_types, size, _ = a1.shape
    for loops in range(2):
        sum1 = 0
        sum2 = 0
        common = 0
        for t in range(n_types):
            x = 0
            y = 0
            for i in range(size):
                for j in range(size):
                    if (i == j) == (loops == 1):
                        x += a1[t, i, j]
                        y += a2[t, i, j]
            sum1 += x
            sum2 += y
            common += x if x < y else y
        total += (sum1 if sum1 > sum2 else sum2) - common
    return total


def ceil_scaled(value: float, step: float) -> float:
    """Round a scaled lower bound up to the next multiple of ``step``, the grid the scaled GED
    lives on (``Problem.step``: ``scale`` with unit costs, ``scale / grid`` with graded ones,
    ``grid`` <= 64 from :func:`label_pair_costs`)."""
    return step * math.ceil(value / step - 1e-9)
