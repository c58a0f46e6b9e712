"""Exact search (numba): depth-first branch and bound over injective maps rows -> columns,
pruned by admissible estimates of the remaining cost."""

from __future__ import annotations

import numba
import numpy as np

from graphs.ged.bounds import graded_label_bound


@numba.njit(cache=True, nogil=True)
def _slot_cost(a1, s1, i, k, a2, s2, j, m):  # pragma: no cover - compiled
    # max(|A|, |B|) - |A ∩ B| for the slot (i, k) of graph 1 against (j, m) of graph 2.
    x = s1[i, k]
    y = s2[j, m]
    if x == 0 and y == 0:
        return 0
    common = 0
    for t in range(a1.shape[0]):
        u = a1[t, i, k]
        v = a2[t, j, m]
        common += u if u < v else v
    return (x if x > y else y) - common


@numba.njit(cache=True, nogil=True)
def _group_cost(x, y):  # pragma: no cover - compiled
    sx = 0
    sy = 0
    common = 0
    for t in range(x.shape[0]):
        sx += x[t]
        sy += y[t]
        common += x[t] if x[t] < y[t] else y[t]
    return (sx if sx > sy else sy) - common


@numba.njit(cache=True, nogil=True)
def _remaining_bound(
    a1, a2, lab1, lab2, n, m, img, used, scale, n_labels, cnt1, cnt2, x, y, lcost, lweight,
    graded, mass
):  # pragma: no cover - compiled
    """Admissible estimate of the cost still to pay in a partial mapping (scaled, float).

    Nodes: every free row maps to a free column, surplus columns are inserted, so at least
    ``|free cols| - |label multiset intersection|`` is paid with unit costs, and
    :func:`graded_label_bound` with graded ones (``lcost``, insertions at ``lweight``).
    Edges: undecided slots are grouped by (assigned anchor, direction), plus slots among
    free nodes and free self-loops; an undecided slot of graph 1 can only meet a slot of
    graph 2 in the same group, so each group costs at least the distance of its type
    multisets. At a leaf this is exact.
    """
    n_types = a1.shape[0]
    for lab in range(n_labels):
        cnt1[lab] = 0
        cnt2[lab] = 0
    free_rows = 0
    free_cols = 0
    for i in range(n):
        if img[i] < 0:
            cnt1[lab1[i]] += 1
            free_rows += 1
    for j in range(m):
        if not used[j]:
            cnt2[lab2[j]] += 1
            free_cols += 1
    if graded:
        total = graded_label_bound(cnt1, cnt2, lcost, lweight, free_rows, free_cols, mass)
    else:
        common = 0
        for lab in range(n_labels):
            common += cnt1[lab] if cnt1[lab] < cnt2[lab] else cnt2[lab]
        total = float(scale * (free_cols - common))
    if free_cols == 0:
        return total
    # Anchored groups: out- and in-slots between an assigned node and the free nodes.
    for a in range(n):
        b = img[a]
        if b < 0:
            continue
        for direction in range(2):
            for t in range(n_types):
                x[t] = 0
                y[t] = 0
            for k in range(n):
                if img[k] < 0:
                    for t in range(n_types):
                        x[t] += a1[t, a, k] if direction == 0 else a1[t, k, a]
            for j in range(m):
                if not used[j]:
                    for t in range(n_types):
                        y[t] += a2[t, b, j] if direction == 0 else a2[t, j, b]
            total += _group_cost(x, y)
    # Slots among free nodes, and free self-loops.
    for loops in range(2):
        for t in range(n_types):
            x[t] = 0
            y[t] = 0
        for k in range(n):
            if img[k] < 0:
                for kk in range(n):
                    if img[kk] < 0 and ((k == kk) == (loops == 1)):
                        for t in range(n_types):
                            x[t] += a1[t, k, kk]
        for j in range(m):
            if not used[j]:
                for jj in range(m):
                    if not used[jj] and ((j == jj) == (loops == 1)):
                        for t in range(n_types):
                            y[t] += a2[t, j, jj]
        total += _group_cost(x, y)
    return total


@numba.njit(cache=True, nogil=True)
def _hungarian(cost, k, u, v, p, way, minv, done):  # pragma: no cover - compiled
    """Optimal value of the k x k assignment problem in ``cost[:k, :k]`` (O(k^3)).

    Shortest augmenting paths with potentials (Kuhn-Munkres); the work arrays are passed in
    so the search allocates nothing per node.
    """
    for j in range(k + 1):
        u[j] = 0.0
        v[j] = 0.0
        p[j] = 0
        way[j] = 0
    for i in range(1, k + 1):
        p[0] = i
        j0 = 0
        for j in range(k + 1):
            minv[j] = np.inf
            done[j] = 0
        while True:
            done[j0] = 1
            i0 = p[j0]
            delta = np.inf
            j1 = 0
            for j in range(1, k + 1):
                if done[j] == 0:
                    cur = cost[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(k + 1):
                if done[j] != 0:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0 != 0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    return -v[0]


@numba.njit(cache=True, nogil=True)
def _assignment_bound(
    a1, s1, a2, s2, lab1, lab2, n, m, img, used, lw, cost, fr, fc, xo, xi, yo, yi, work, hp, lc
):  # pragma: no cover - compiled
    """Admissible estimate of the remaining cost that couples labels and structure (scaled).

    Free rows against free columns (padded with insertion rows) in an assignment problem:
    a pair pays its substitution cost ``lc[label, label]`` (scaled, unit or graded; an
    insertion row pays the column's weight ``lw[label]``), the
    exact cost of its slots to already assigned nodes (each such slot belongs to exactly one
    free row), its self-loops, and half the (direction, type) multiset distance of its
    edges to other free nodes (each seen from both ends).
    """
    n_types = a1.shape[0]
    kr = 0
    for i in range(n):
        if img[i] < 0:
            fr[kr] = i
            kr += 1
    kc = 0
    for j in range(m):
        if not used[j]:
            fc[kc] = j
            kc += 1
    if kc == 0:
        return 0.0
    for r in range(kr):
        i = fr[r]
        for t in range(n_types):
            xo[r, t] = 0
            xi[r, t] = 0
        for q in range(kr):
            k = fr[q]
            if k != i:
                for t in range(n_types):
                    xo[r, t] += a1[t, i, k]
                    xi[r, t] += a1[t, k, i]
    for c in range(kc):
        j = fc[c]
        for t in range(n_types):
            yo[c, t] = 0
            yi[c, t] = 0
        for q in range(kc):
            k = fc[q]
            if k != j:
                for t in range(n_types):
                    yo[c, t] += a2[t, j, k]
                    yi[c, t] += a2[t, k, j]
    for c in range(kc):
        j = fc[c]
        # Insertion row: everything at j is inserted.
        ins = lw[lab2[j]] + s2[j, j]
        for a in range(n):
            b = img[a]
            if b >= 0:
                ins += s2[j, b] + s2[b, j]
        free = 0
        for t in range(n_types):
            free += yo[c, t] + yi[c, t]
        for r in range(kr, kc):
            cost[r, c] = ins + 0.5 * free
        for r in range(kr):
            i = fr[r]
            val = lc[lab1[i], lab2[j]]
            val += _slot_cost(a1, s1, i, i, a2, s2, j, j)
            for a in range(n):
                b = img[a]
                if b >= 0:
                    val += _slot_cost(a1, s1, i, a, a2, s2, j, b)
                    val += _slot_cost(a1, s1, a, i, a2, s2, b, j)
            so = 0
            sy = 0
            co = 0
            si = 0
            syi = 0
            ci = 0
            for t in range(n_types):
                so += xo[r, t]
                sy += yo[c, t]
                co += xo[r, t] if xo[r, t] < yo[c, t] else yo[c, t]
                si += xi[r, t]
                syi += yi[c, t]
                ci += xi[r, t] if xi[r, t] < yi[c, t] else yi[c, t]
            free = (so if so > sy else sy) - co + (si if si > syi else syi) - ci
            cost[r, c] = val + 0.5 * free
    return _hungarian(cost, kc, work[0], work[1], hp[0], hp[1], work[2], hp[2])


@numba.njit(cache=True, nogil=True)
def branch_and_bound(
    a1, a2, lab1, lab2, n, m, order, scale, lcost, lweight, graded, mass, grid, best, best_img,
    max_expansions
):  # pragma: no cover - compiled
    """Minimum scaled cost over injective maps of the n rows into the m >= n columns.

    Starts from a known solution (``best``, ``best_img``) and only accepts strictly better
    ones, so ties keep the earlier, deterministic solution. Children are tried in order of
    increasing incremental cost, ties by column index. Returns (best, best_img, expansions,
    complete); ``complete`` is False when the expansion budget ran out.

    Costs are floats: substitutions come from ``lcost`` (scaled, unit or graded),
    insertions from ``lweight`` (scaled, per label), and every
    cost is a multiple of ``1 / grid`` (1 for unit costs, :data:`GRADED_COST_GRID` for
    graded ones), so the sums are exact and a bound may be rounded up to that grid.
    """
    n_labels = lcost.shape[0]
    n_types = a1.shape[0]
    s1 = np.zeros((n, n), dtype=np.int64)
    s2 = np.zeros((m, m), dtype=np.int64)
    for t in range(n_types):
        for i in range(n):
            for k in range(n):
                s1[i, k] += a1[t, i, k]
        for j in range(m):
            for k in range(m):
                s2[j, k] += a2[t, j, k]
    img = -np.ones(n, dtype=np.int64)
    used = np.zeros(m, dtype=np.bool_)
    cand = np.zeros((n, m), dtype=np.int64)
    cinc = np.zeros((n, m), dtype=np.float64)
    ncand = np.zeros(n, dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    gst = np.zeros(n + 1, dtype=np.float64)
    cnt1 = np.zeros(n_labels, dtype=np.int64)
    cnt2 = np.zeros(n_labels, dtype=np.int64)
    x = np.zeros(n_types, dtype=np.int64)
    y = np.zeros(n_types, dtype=np.int64)
    cost = np.zeros((m, m), dtype=np.float64)
    fr = np.zeros(n, dtype=np.int64)
    fc = np.zeros(m, dtype=np.int64)
    xo = np.zeros((n, n_types), dtype=np.int64)
    xi = np.zeros((n, n_types), dtype=np.int64)
    yo = np.zeros((m, n_types), dtype=np.int64)
    yi = np.zeros((m, n_types), dtype=np.int64)
    work = np.zeros((3, m + 1), dtype=np.float64)
    iwork = np.zeros((3, m + 1), dtype=np.int64)
    expansions = 0
    complete = True
    depth = 0
    fill = True
    while depth >= 0:
        if fill:
            # Candidate columns of row order[depth], sorted by incremental cost then index.
            i = order[depth]
            cnt = 0
            for j in range(m):
                if used[j]:
                    continue
                inc = lcost[lab1[i], lab2[j]]
                inc += _slot_cost(a1, s1, i, i, a2, s2, j, j)
                for a in range(n):
                    b = img[a]
                    if b >= 0:
                        inc += _slot_cost(a1, s1, i, a, a2, s2, j, b)
                        inc += _slot_cost(a1, s1, a, i, a2, s2, b, j)
                p = cnt
                while p > 0 and cinc[depth, p - 1] > inc:
                    cinc[depth, p] = cinc[depth, p - 1]
                    cand[depth, p] = cand[depth, p - 1]
                    p -= 1
                cinc[depth, p] = inc
                cand[depth, p] = j
                cnt += 1
            ncand[depth] = cnt
            pos[depth] = 0
            fill = False
        if pos[depth] >= ncand[depth]:
            depth -= 1
            if depth >= 0:
                i = order[depth]
                used[img[i]] = False
                img[i] = -1
            continue
        j = cand[depth, pos[depth]]
        g = gst[depth] + cinc[depth, pos[depth]]
        pos[depth] += 1
        if g >= best:
            pos[depth] = ncand[depth]  # later candidates cost at least as much
            continue
        expansions += 1
        if expansions > max_expansions:
            complete = False
            break
        i = order[depth]
        img[i] = j
        used[j] = True
        h = _remaining_bound(
            a1, a2, lab1, lab2, n, m, img, used, scale, n_labels, cnt1, cnt2, x, y, lcost,
            lweight, graded, mass
        )
        if g + h < best and depth + 1 < n:
            h2 = _assignment_bound(
                a1,
                s1,
                a2,
                s2,
                lab1,
                lab2,
                n,
                m,
                img,
                used,
                lweight,
                cost,
                fr,
                fc,
                xo,
                xi,
                yo,
                yi,
                work,
                iwork,
                lcost,
            )
            # The remaining cost is a multiple of 1 / grid: round the bound up to it.
            h2 = np.ceil(h2 * grid - 1e-9) / grid
            if h2 > h:
                h = h2
        if g + h < best and depth + 1 == n:
            best = g + h  # at a leaf the bound is the exact insertion cost
            best_img[:] = img
        if g + h < best:
            gst[depth + 1] = g
            depth += 1
            fill = True
        else:
            used[j] = False
            img[i] = -1
    return best, best_img, expansions, complete


@numba.njit(cache=True, nogil=True)
def search_order(slots, n):  # pragma: no cover - compiled
    """Rows in the order the exact search assigns them: most connected to the placed first.

    Decided edges early means real costs (not estimates) early, so pruning starts sooner.
    ``slots[i, k]`` counts the edges from row ``i`` to row ``k``. Next is the free row with
    the most links to the placed ones, then the highest degree, then the lowest index.
    """
    conn = np.zeros((n, n), dtype=np.int64)
    degree = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for k in range(n):
            conn[i, k] = slots[i, k] + slots[k, i]
            degree[i] += conn[i, k]
    placed = np.empty(n, dtype=np.int64)
    free = np.ones(n, dtype=np.bool_)
    links = np.zeros(n, dtype=np.int64)
    for step in range(n):
        best = -1
        for i in range(n):
            if free[i] and (
                best < 0
                or links[i] > links[best]
                or (links[i] == links[best] and degree[i] > degree[best])
            ):
                best = i
        placed[step] = best
        free[best] = False
        for k in range(n):
            links[k] += conn[best, k]
    return placed


def complete_perm(img: np.ndarray, m: int) -> np.ndarray:
    """Extend an injective rows -> columns map to a permutation: padding rows take the rest."""
    used = np.zeros(m, dtype=bool)
    used[img] = True
    return np.concatenate([img, np.flatnonzero(~used)]).astype(np.int64)
