"""The square linear sum assignment problem: :func:`solve_assignment` and
:func:`assignment_value`.

A compiled shortest augmenting path solver (D. F. Crouse, "On implementing 2D rectangular
assignment algorithms", IEEE TAES 52(4), 2016), the algorithm behind
``scipy.optimize.linear_sum_assignment`` since scipy 1.5. It is ours so that a process that
scores a pair never imports ``scipy.optimize`` (about a third of the start-up of a fresh
process, paid by every CLI call and every worker), and it makes every choice scipy makes,
ties included, so that each GED, and so each score, is the same to the last bit: rows in
order, the columns still to scan walked from the last one down and removed by moving the
last one into the gap, a free column preferred among equally short ones.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _shortest_augmenting_paths(cost):  # pragma: no cover - compiled
    """Optimal assignment of the square matrix ``cost``: ``(col4row, bad)``, row i ->
    column ``col4row[i]``; or, if an entry is infinite or NaN, ``bad`` its flat index (else
    -1) and no assignment.

    Every row in turn grows a Dijkstra tree over the columns on reduced costs
    ``min_val + c[i, j] - u[i] - v[j]`` until it reaches a free column, then the duals are
    updated and the assignment flipped along the path. Costs are taken relative to the
    matrix's minimum, so that every reduced cost starts non-negative; the arithmetic is
    done in the same order as scipy's, since a different rounding could break a tie the
    other way.
    """
    n = cost.shape[0]
    col4row = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return col4row, -1
    low = np.inf
    for i in range(n):
        for j in range(n):
            c = cost[i, j]
            if not np.isfinite(c):
                return col4row, i * n + j
            if c < low:
                low = c
    u = np.zeros(n, dtype=np.float64)
    v = np.zeros(n, dtype=np.float64)
    row4col = np.full(n, -1, dtype=np.int64)
    path = np.full(n, -1, dtype=np.int64)
    shortest = np.empty(n, dtype=np.float64)
    remaining = np.empty(n, dtype=np.int64)
    scanned_rows = np.zeros(n, dtype=np.bool_)
    scanned_cols = np.zeros(n, dtype=np.bool_)
    for cur in range(n):
        for k in range(n):
            remaining[k] = n - 1 - k
        n_remaining = n
        scanned_rows[:] = False
        scanned_cols[:] = False
        shortest[:] = np.inf
        min_val = 0.0
        i = cur
        sink = -1
        while sink == -1:
            scanned_rows[i] = True
            best = -1
            lowest = np.inf
            for k in range(n_remaining):
                j = remaining[k]
                reduced = min_val + (cost[i, j] - low) - u[i] - v[j]
                if reduced < shortest[j]:
                    path[j] = i
                    shortest[j] = reduced
                # a free column wins a tie: the search ends there
                if shortest[j] < lowest or (shortest[j] == lowest and row4col[j] == -1):
                    lowest = shortest[j]
                    best = k
            min_val = lowest
            j = remaining[best]
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
            scanned_cols[j] = True
            n_remaining -= 1
            remaining[best] = remaining[n_remaining]
        u[cur] += min_val
        for r in range(n):
            if scanned_rows[r] and r != cur:
                u[r] += min_val - shortest[col4row[r]]
        for c in range(n):
            if scanned_cols[c]:
                v[c] -= min_val - shortest[c]
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            j, col4row[i] = col4row[i], j
            if i == cur:
                break
    return col4row, -1


def solve_assignment(cost: np.ndarray) -> np.ndarray:
    """Optimal assignment of a square cost matrix as a permutation (row i -> perm[i]).

    The same permutation as ``scipy.optimize.linear_sum_assignment(cost)[1]``, ties
    included.

    Parameters
    ----------
    cost:
        A square matrix of finite numbers.

    Returns
    -------
    numpy.ndarray
        ``perm`` (int64) minimizing ``cost[i, perm[i]]`` summed over the rows.

    Raises
    ------
    ValueError
        If ``cost`` is not square or holds an infinite or NaN entry.

    Examples
    --------
    >>> solve_assignment(np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]]))
    array([1, 0, 2])
    """
    matrix = np.ascontiguousarray(cost, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"assignment cost matrix must be square, got shape {matrix.shape}")
    perm, bad = _shortest_augmenting_paths(matrix)
    if bad >= 0:
        at = divmod(int(bad), matrix.shape[0])
        raise ValueError(
            f"assignment cost matrix has a non-finite entry {matrix[at]} at (row, column) {at}"
        )
    return perm


def assignment_value(cost: np.ndarray, perm: np.ndarray) -> float:
    """Total cost of an assignment: ``cost[i, perm[i]]`` summed over the rows.

    Examples
    --------
    >>> assignment_value(np.array([[4.0, 1.0], [2.0, 0.0]]), np.array([1, 0]))
    3.0
    """
    return float(cost[np.arange(cost.shape[0]), perm].sum())
