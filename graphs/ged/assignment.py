"""The linear sum assignment of a square cost matrix, compiled: :func:`solve_assignment`.

The GED's bipartite bounds and its local search solve one assignment problem per step. They
did it with ``scipy.optimize.linear_sum_assignment``, but importing ``scipy.optimize`` takes
about 0.5 s of CPU (it pulls in ``scipy.linalg``, ``scipy.sparse`` and the LP solvers), which
every process that imports ``graphs`` paid: each worker process of a batch run, before its
first pair, and the CLI. This is the same algorithm as SciPy's (``rectangular_lsap.cpp``:
the shortest augmenting path method of Crouse, 2016, by P. M. Larsen, BSD licence), with the
same operations in the same order and the same tie-breaking, so it returns the same
permutation as SciPy bit for bit (tests/test_ged_assignment.py checks it against SciPy on
matrices full of ties), and every GED result stays what it was.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["solve_assignment"]


def solve_assignment(cost: np.ndarray) -> np.ndarray:
    """The minimum-cost assignment of a square matrix of finite costs, as a permutation.

    Parameters
    ----------
    cost : an ``(n, n)`` array of finite numbers (converted to float64).

    Returns
    -------
    ``perm`` (int64): row ``i`` is assigned column ``perm[i]``; the one SciPy's
    ``linear_sum_assignment(cost)[1]`` gives.

    Raises
    ------
    ValueError : the matrix is not square or holds NaN or infinite costs.

    Examples
    --------
    >>> solve_assignment(np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]]))
    array([1, 0, 2])
    """
    matrix = np.ascontiguousarray(cost, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"solve_assignment needs a square matrix, got shape {matrix.shape}")
    perm = _shortest_augmenting_paths(matrix)
    if perm.shape[0] != matrix.shape[0]:
        raise ValueError("solve_assignment: the cost matrix holds NaN or infinite costs")
    return perm


@numba.njit(cache=True, nogil=True)
def _shortest_augmenting_paths(cost):  # pragma: no cover - compiled
    """SciPy's ``solve`` for a square, finite matrix (no transpose, no maximize): the
    same loops, comparisons and floating-point operations, in the same order. An empty
    permutation for a matrix with a non-finite cost (checked here: cheaper than numpy's
    check on the small matrices a GED solves)."""
    n = cost.shape[0]
    for i in range(n):
        for j in range(n):
            if not np.isfinite(cost[i, j]):
                return np.empty(0, dtype=np.int64)
    u = np.zeros(n)
    v = np.zeros(n)
    shortest = np.empty(n)
    path = np.full(n, -1, dtype=np.int64)
    col4row = np.full(n, -1, dtype=np.int64)
    row4col = np.full(n, -1, dtype=np.int64)
    in_rows = np.zeros(n, dtype=np.bool_)
    in_cols = np.zeros(n, dtype=np.bool_)
    remaining = np.empty(n, dtype=np.int64)
    for current in range(n):
        # augmenting_path(): the shortest path from row `current` to a free column
        min_val = 0.0
        for it in range(n):
            # in reverse order, as SciPy: a constant matrix gives the identity
            remaining[it] = n - it - 1
        in_rows[:] = False
        in_cols[:] = False
        shortest[:] = np.inf
        num_remaining = n
        i = current
        sink = -1
        while sink == -1:
            index = -1
            lowest = np.inf
            in_rows[i] = True
            for it in range(num_remaining):
                j = remaining[it]
                r = min_val + cost[i, j] - u[i] - v[j]
                if r < shortest[j]:
                    path[j] = i
                    shortest[j] = r
                # among equal costs, prefer a column that ends the path
                if shortest[j] < lowest or (shortest[j] == lowest and row4col[j] == -1):
                    lowest = shortest[j]
                    index = it
            min_val = lowest
            j = remaining[index]
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
            in_cols[j] = True
            num_remaining -= 1
            remaining[index] = remaining[num_remaining]
        # update the dual variables
        u[current] += min_val
        for i in range(n):
            if in_rows[i] and i != current:
                u[i] += min_val - shortest[col4row[i]]
        for j in range(n):
            if in_cols[j]:
                v[j] -= min_val - shortest[j]
        # augment the previous solution along the path
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == current:
                break
    return col4row
