"""Local search that improves a node mapping: an integer projected fixed point walk, then
best-improvement pairwise swaps.

The edge cost of a mapping is a quadratic assignment objective, so a fixed-point walk in
its relaxation and the scores of all pairwise swaps at once come from a few sparse
products (compiled with numba)."""

from __future__ import annotations

import numba
import numpy as np

from graphs.ged.assignment import solve_assignment
from graphs.ged.encoding import Problem


@numba.njit(cache=True, nogil=True)
def _channel_lists(s1, a1, s2, a2):  # pragma: no cover - compiled
    """Binary level channels ``F_c`` (graph 1) and ``G_c`` (graph 2), paired by index.

    The scaled edge cost of a mapping is ``E1 + E2 - sum_ij [min(s1, s2') + sum_t min(a1_t,
    a2_t')]`` (``s`` = edges per slot, primes = permuted by the mapping), and ``min(x, y)`` is
    ``sum_l [x >= l] [y >= l]``: one channel per level of ``s`` (first) and per (type,
    level), levels up to the smaller of the two graphs' maxima.

    Returned as sparse lists ``(f_ptr, f_src, f_dst)``, ``(g_ptr, g_src, g_dst)``: entries
    ``ptr[c]:ptr[c + 1]`` are the ``(src, dst)`` of channel ``c`` in row-major order.
    """
    n_types = a1.shape[0]
    levels = np.zeros(n_types + 1, dtype=np.int64)
    levels[0] = min(_max_count(s1), _max_count(s2))
    for t in range(n_types):
        levels[t + 1] = min(_max_count(a1[t]), _max_count(a2[t]))
    return _level_lists(s1, a1, levels), _level_lists(s2, a2, levels)


@numba.njit(cache=True, nogil=True)
def _max_count(x):  # pragma: no cover - compiled
    top = 0
    for i in range(x.shape[0]):
        for k in range(x.shape[1]):
            top = max(top, x[i, k])
    return top


@numba.njit(cache=True, nogil=True)
def _level_lists(s, a, levels):  # pragma: no cover - compiled
    """One graph's channels (see :func:`_channel_lists`) as ``(ptr, src, dst)``."""
    size = s.shape[0]
    n_channels = levels.sum()
    ptr = np.zeros(n_channels + 1, dtype=np.int64)
    c = 0
    for q in range(levels.shape[0]):  # count the entries of each channel
        x = s if q == 0 else a[q - 1]
        for level in range(1, levels[q] + 1):
            count = 0
            for i in range(size):
                for k in range(size):
                    if x[i, k] >= level:
                        count += 1
            ptr[c + 1] = ptr[c] + count
            c += 1
    src = np.empty(ptr[n_channels], dtype=np.int64)
    dst = np.empty(ptr[n_channels], dtype=np.int64)
    e = 0
    for q in range(levels.shape[0]):  # then list them
        x = s if q == 0 else a[q - 1]
        for level in range(1, levels[q] + 1):
            for i in range(size):
                for k in range(size):
                    if x[i, k] >= level:
                        src[e] = i
                        dst[e] = k
                        e += 1
    return ptr, src, dst


@numba.njit(cache=True, nogil=True)
def _block_terms(ptr, src, dst, size):  # pragma: no cover - compiled
    """``B_c[r, s] = F_c[r, r] + F_c[s, s] - F_c[r, s] - F_c[s, r]`` for binary channels."""
    n_channels = ptr.shape[0] - 1
    dense = np.zeros((n_channels, size, size), dtype=np.float64)
    for c in range(n_channels):
        for e in range(ptr[c], ptr[c + 1]):
            dense[c, src[e], dst[e]] = 1.0
    block = np.empty((n_channels, size, size), dtype=np.float64)
    for c in range(n_channels):
        for r in range(size):
            for s in range(size):
                block[c, r, s] = dense[c, r, r] + dense[c, s, s] - dense[c, r, s] - dense[c, s, r]
    return block


# The quadratic parts below are sparse products written out in numba: PDG adjacency is sparse
# (O(N) edges), so they cost O(edges * N) instead of the O(N^3) of dense products, and they
# never enter a multithreaded BLAS, which collapses when scoring runs in parallel workers.


@numba.njit(cache=True, nogil=True)
def _swap_deltas(cp, f_ptr, f_src, f_dst, g_ptr, g_src, g_dst, inv, f_block):  # pragma: no cover
    """Change of the scaled cost for every swap of the images of rows r and s.

    ``cp[i, j]`` is the node cost of row ``i`` on the current image of row ``j``. For the
    quadratic term, with ``H_c[i, j] = G_c[perm i, perm j]``: the row and column sums are
    ``M = sum_c F_c H_c^T`` and ``K = sum_c F_c^T H_c`` (Taillard's formula for asymmetric
    quadratic assignment); for k in {r, s} they double count and miss parts of the 2 x 2 block
    (self-loops, r-s slots), and expanded the fix-up factorizes as ``(F_rr + F_ss - F_rs -
    F_sr) (H_rs + H_sr - H_rr - H_ss)``, precomputed for F as ``f_block``.
    """
    n = cp.shape[0]
    delta = np.empty((n, n), dtype=np.float64)
    for r in range(n):
        for s in range(n):
            delta[r, s] = cp[r, s] + cp[s, r] - cp[r, r] - cp[s, s]
    m = np.zeros((n, n), dtype=np.float64)
    k = np.zeros((n, n), dtype=np.float64)
    h = np.zeros((n, n), dtype=np.float64)
    for c in range(f_ptr.shape[0] - 1):
        h[:, :] = 0.0
        for e in range(g_ptr[c], g_ptr[c + 1]):
            h[inv[g_src[e]], inv[g_dst[e]]] += 1.0
        for e in range(f_ptr[c], f_ptr[c + 1]):
            a = f_src[e]
            b = f_dst[e]
            for s in range(n):
                m[a, s] += h[s, b]
                k[b, s] += h[a, s]
        for r in range(n):
            for s in range(n):
                fb = f_block[c, r, s]
                if fb != 0.0:
                    delta[r, s] += fb * (h[r, s] + h[s, r] - h[r, r] - h[s, s])
    for r in range(n):
        for s in range(n):
            gain = m[r, s] + m[s, r] - m[r, r] - m[s, s] + k[r, s] + k[s, r] - k[r, r] - k[s, s]
            delta[r, s] -= gain
    return delta


@numba.njit(cache=True, nogil=True)
def _quadratic_gradient(f_ptr, f_src, f_dst, g_ptr, g_src, g_dst, x):  # pragma: no cover
    """``sum_c F_c X G_c^T + F_c^T X G_c``: the gradient of ``sum_c <F_c, X G_c X^T>``."""
    n = x.shape[0]
    out = np.zeros((n, n), dtype=np.float64)
    t = np.zeros((n, n), dtype=np.float64)
    for c in range(f_ptr.shape[0] - 1):
        t[:, :] = 0.0
        for e in range(f_ptr[c], f_ptr[c + 1]):
            i = f_src[e]
            k = f_dst[e]
            for col in range(n):
                t[i, col] += x[k, col]  # F X
        for e in range(g_ptr[c], g_ptr[c + 1]):
            j = g_src[e]
            col = g_dst[e]
            for i in range(n):
                out[i, j] += t[i, col]  # (F X) G^T
        t[:, :] = 0.0
        for e in range(f_ptr[c], f_ptr[c + 1]):
            i = f_src[e]
            k = f_dst[e]
            for col in range(n):
                t[k, col] += x[i, col]  # F^T X
        for e in range(g_ptr[c], g_ptr[c + 1]):
            j = g_src[e]
            col = g_dst[e]
            for i in range(n):
                out[i, col] += t[i, j]  # (F^T X) G
    return out


@numba.njit(cache=True, nogil=True)
def _quadratic_form(f_ptr, f_src, f_dst, g_ptr, g_src, g_dst, d):  # pragma: no cover
    """``sum_c <F_c, D G_c D^T>``."""
    n = d.shape[0]
    y = np.zeros((n, n), dtype=np.float64)
    total = 0.0
    for c in range(f_ptr.shape[0] - 1):
        y[:, :] = 0.0
        for e in range(g_ptr[c], g_ptr[c + 1]):
            j = g_src[e]
            col = g_dst[e]
            for i in range(n):
                y[i, col] += d[i, j]  # D G
        for e in range(f_ptr[c], f_ptr[c + 1]):
            i = f_src[e]
            k = f_dst[e]
            for col in range(n):
                total += y[i, col] * d[k, col]
    return total


@numba.njit(cache=True, nogil=True)
def _best_swap(delta):  # pragma: no cover - compiled
    """``(r, s, delta[r, s])`` of the smallest entry above the diagonal, the first one in
    row-major order on ties (what ``argmin`` over ``delta[triu_indices(n, 1)]`` picks)."""
    n = delta.shape[0]
    best_r, best_s = 0, 1
    best = delta[0, 1]
    for r in range(n):
        for s in range(r + 1, n):
            if delta[r, s] < best:
                best_r, best_s, best = r, s, delta[r, s]
    return best_r, best_s, best


class SwapSearch:
    """Local search over mappings: integer projected fixed point, then pairwise swaps."""

    def __init__(self, p: Problem) -> None:
        self.p = p
        self.f_lists, self.g_lists = _channel_lists(
            p.rows.slots, p.rows.adj, p.cols.slots, p.cols.adj
        )
        self.n_channels = self.f_lists[0].shape[0] - 1
        self.c = p.node_cost.astype(np.float64)
        self.f1_block = _block_terms(*self.f_lists, p.size)

    def deltas(self, perm: np.ndarray) -> np.ndarray:
        """``D[r, s]`` = change of the scaled cost when rows ``r`` and ``s`` swap images."""
        inv = np.empty_like(perm)
        inv[perm] = np.arange(perm.shape[0])
        cp = np.ascontiguousarray(self.c[:, perm])
        return _swap_deltas(cp, *self.f_lists, *self.g_lists, inv, self.f1_block)

    def run(self, perm: np.ndarray, max_swaps: int, target: float = 0.0) -> np.ndarray:
        """Best-improvement swaps until none improves, the cost reaches ``target`` (a lower
        bound) or ``max_swaps`` were made.

        Deterministic: the best swap is the first minimum in row-major order.
        """
        perm = perm.copy()
        size = self.p.size
        if size < 2:
            return perm
        cost = sum(self.p.cost(perm))
        grid = self.p.grid
        for _ in range(max_swaps):
            if cost <= target:
                break
            r, s, gain = _best_swap(self.deltas(perm))
            if gain >= -1e-9:
                break
            perm[r], perm[s] = perm[s], perm[r]
            cost += round(gain * grid) / grid  # exact on the cost grid, whatever float noise
        return perm

    def fixed_point(self, perm: np.ndarray, max_iterations: int, target: float = 0.0) -> np.ndarray:
        """Integer projected fixed point (Leordeanu et al. 2009) from the mapping ``perm``.

        Walks in the relaxation of doubly stochastic matrices: each step solves the
        assignment problem of the linearized cost at ``X`` (a Frank-Wolfe direction), keeps
        the best integral solution seen, and moves ``X`` by the exact line minimum of the
        quadratic cost. It escapes the local minima of pairwise swaps that unrelated graphs
        leave to a single assignment.

        ``X`` is kept on a grid of ``2**-10`` so that every product and sum below is an exact
        binary fraction: the results do not depend on summation order.
        """
        p = self.p
        size = p.size
        best_perm = perm.copy()
        best_cost = sum(p.cost(perm))
        if not self.n_channels or size < 2 or best_cost <= target:
            return best_perm
        grid = 1024.0
        x = np.zeros((size, size), dtype=np.float64)
        x[np.arange(size), perm] = 1.0
        for _ in range(max_iterations):
            grad = self.c - _quadratic_gradient(*self.f_lists, *self.g_lists, x)
            image = solve_assignment(grad)
            cost = sum(p.cost(image))
            if cost < best_cost:
                best_cost, best_perm = cost, image
                if best_cost <= target:
                    break
            direction = -x
            direction[np.arange(size), image] += 1.0
            slope = float((grad * direction).sum())
            if slope > -1e-9:
                break  # X is a fixed point of the linearization
            curvature = -_quadratic_form(*self.f_lists, *self.g_lists, direction)
            step = 1.0 if curvature <= 0 else min(1.0, -slope / (2.0 * curvature))
            x = np.round((x + step * direction) * grid) / grid
        return best_perm
