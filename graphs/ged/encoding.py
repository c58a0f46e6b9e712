"""Both graphs of a GED problem as arrays: canonical node order, labels and edge types as
small integers over shared vocabularies, typed adjacency count tensors, quantized graded
substitution costs, and the exact (compiled) cost of a node mapping."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import networkx as nx
import numba
import numpy as np

#: Graded substitution costs are rounded to the nearest multiple of ``1 / GRADED_COST_GRID``
#: (a power of two: sums of such costs are exact in floating point, see :mod:`graphs.ged`).
GRADED_COST_GRID = 64

#: ``f(labels1, labels2) -> array (len(labels1), len(labels2))`` of substitution costs in
#: [0, 1] between the distinct node labels of ``g1`` and of ``g2`` (0 for equal labels).
NodeSubstCost = Callable[[list, list], Any]

#: ``f(labels) -> sequence (len(labels),)`` of positive node weights (the cost of inserting
#: or deleting a node with that label), called on distinct labels.
NodeWeight = Callable[[list], Any]


#: A graph's raw content: node -> label, and the edges ``(u, v, type)`` one by one.
GraphItems = tuple[dict[Hashable, Any], list[tuple[Hashable, Hashable, Any]]]


def graph_items(g: nx.Graph, node_label: str, edge_label: str) -> GraphItems:
    """Node labels and edges (parallel edges one by one) in networkx's iteration order.

    Plain directed (multi)graphs, which is what PDGs are, are read straight from their
    adjacency dicts, in the order their edge views would yield: the views cost several
    times more per edge, which shows on the small graphs scoring compares. Subgraph views
    keep the plain class and wrap those dicts in mappings that the views iterate the same
    way, so they qualify too; other classes (undirected graphs, subclasses) go through the
    public views.
    """
    cls = type(g)
    if cls is nx.MultiDiGraph or cls is nx.DiGraph:
        labels = {n: d.get(node_label) for n, d in g._node.items()}
        if cls is nx.MultiDiGraph:
            edges = [
                (u, v, d.get(edge_label))
                for u, nbrs in g._succ.items()
                for v, keyed in nbrs.items()
                for d in keyed.values()
            ]
        else:
            edges = [
                (u, v, d.get(edge_label)) for u, nbrs in g._succ.items() for v, d in nbrs.items()
            ]
        return labels, edges
    labels = {n: d.get(node_label) for n, d in g.nodes(data=True)}
    edge_view = (
        g.edges(keys=False, data=edge_label, default=None)
        if g.is_multigraph()
        else g.edges(data=edge_label, default=None)
    )
    return labels, list(edge_view)


class Side:
    """One graph in canonical order, with labels and types encoded as small integers."""

    __slots__ = ("adj", "display", "edges", "index", "labels", "label_ids", "nodes", "slots")

    def __init__(
        self,
        g: nx.Graph,
        node_label: str,
        edge_label: str,
        label_vocab: dict,
        items: GraphItems | None = None,
    ) -> None:
        labels, graph_edges = graph_items(g, node_label, edge_label) if items is None else items
        # str labels (a PDG's) are hashable as they are: no call for them
        raw = {n: lab if type(lab) is str else hashable_label(lab) for n, lab in labels.items()}
        # Degrees from the edge list: networkx's multigraph degree views are slow.
        out_deg = dict.fromkeys(raw, 0)
        in_deg = dict.fromkeys(raw, 0) if g.is_directed() else out_deg
        for u, v, _ in graph_edges:
            out_deg[u] += 1
            in_deg[v] += 1
        # Structure first (label, degrees), identity last: isomorphic copies with other node
        # ids get the same order up to ties, and nothing depends on str hash randomization.
        keys = {n: (repr(raw[n]), -out_deg[n], -in_deg[n], type(n).__name__, repr(n)) for n in raw}
        self.nodes: list[Hashable] = sorted(raw, key=keys.__getitem__)
        self.index: dict[Hashable, int] = {n: i for i, n in enumerate(self.nodes)}
        self.labels: list[Any] = [raw[n] for n in self.nodes]
        self.label_ids = np.array(
            [label_vocab.setdefault(lab, len(label_vocab)) for lab in self.labels], dtype=np.int64
        )
        index = self.index
        self.edges: list[tuple[int, int, Any]] = [
            (index[u], index[v], t if type(t) is str else hashable_label(t))
            for u, v, t in graph_edges
        ]
        # Reports list nodes by id when ids are comparable (a PDG's ints are source order),
        # else in canonical order; either way independent of insertion order.
        try:
            self.display: list[int] = [index[n] for n in sorted(self.nodes)]
        except TypeError:
            self.display = list(range(len(self.nodes)))
        # Set by Problem: typed counts adj[t, i, j] and their total over types per slot
        # (until then shared empty placeholders: edit_path's sides never need them).
        self.adj: np.ndarray = _NO_ADJ
        self.slots: np.ndarray = _NO_SLOTS


_NO_ADJ = np.zeros((0, 0, 0), dtype=np.int64)
_NO_ADJ.flags.writeable = False
_NO_SLOTS = np.zeros((0, 0), dtype=np.int64)
_NO_SLOTS.flags.writeable = False


def hashable_label(value: Any) -> Hashable:
    """A label as the GED compares it: itself, or its ``repr`` when it is unhashable."""
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _build_adjacency(side: Side, type_vocab: dict, size: int, directed: bool) -> np.ndarray:
    """Typed adjacency counts ``adj[t, i, j]``, zero-padded to ``size`` nodes.

    Undirected graphs are stored symmetrically with self-loops counted twice, so that every
    cost computed over ordered pairs is exactly twice the undirected cost (``Problem.scale``).
    """
    adj = np.zeros((max(len(type_vocab), 1), size, size), dtype=np.int64)
    for i, j, t in side.edges:
        k = type_vocab[t]
        adj[k, i, j] += 1
        if not directed:
            adj[k, j, i] += 1
    return adj


class Problem:
    """Both graphs encoded over shared vocabularies, the rows side being the smaller graph."""

    def __init__(
        self,
        g1: nx.Graph,
        g2: nx.Graph,
        node_label: str,
        edge_label: str,
        items: tuple[GraphItems, GraphItems] | None = None,
        node_subst_cost: NodeSubstCost | None = None,
        node_weight: NodeWeight | None = None,
    ) -> None:
        self.directed = g1.is_directed()
        # Undirected costs are computed over ordered pairs, i.e. doubled: keep integers.
        self.scale = 1 if self.directed else 2
        # Every scaled cost is a multiple of 1 / grid (unit costs: integers; graded: see
        # label_pair_costs), a scaled GED a multiple of ``step``: lower bounds round up to it.
        self.graded = node_subst_cost is not None
        label_vocab: dict[Any, int] = {}
        items1, items2 = (None, None) if items is None else items
        s1 = Side(g1, node_label, edge_label, label_vocab, items1)
        s2 = Side(g2, node_label, edge_label, label_vocab, items2)
        if node_weight is not None and node_subst_cost is None:
            raise ValueError("node_weight needs node_subst_cost (graded costs)")
        # Graded: quantized substitution costs between vocabulary ids, (g1 label, g2 label),
        # and node weights by label (1 without node_weight).
        self.pair_cost: np.ndarray | None = None
        self.weight: np.ndarray | None = None
        self.grid = 1
        # Whether every substitution costs at least the difference of the weights (the
        # mass bound of graphs.ged.bounds); trivially so with unit weights.
        self.mass = True
        if node_subst_cost is not None:
            costs = label_pair_costs(node_subst_cost, s1, s2, len(label_vocab), node_weight)
            self.pair_cost, self.grid, self.mass = costs.cost, costs.grid, costs.mass
            self.weight = None if node_weight is None else costs.weight
        self.step = self.scale / self.grid
        # The exact search assigns the rows graph's nodes; fewer rows = smaller search tree.
        self.swapped = len(s1.nodes) > len(s2.nodes)
        self.rows, self.cols = (s2, s1) if self.swapped else (s1, s2)
        type_vocab: dict[Any, int] = {}
        for side in (self.rows, self.cols):
            for _, _, t in side.edges:
                type_vocab.setdefault(t, len(type_vocab))
        self.n = len(self.rows.nodes)
        self.m = len(self.cols.nodes)
        self.size = self.m  # padded size: max(n, m)
        for side in (self.rows, self.cols):
            side.adj = _build_adjacency(side, type_vocab, self.size, self.directed)
            # Edges per slot whatever their type: constant per problem, reused by every cost.
            side.slots = side.adj.sum(0)
        self.n_labels = len(label_vocab)
        self.n_types = self.rows.adj.shape[0]
        # Label ids of the rows padded to ``size``; padding nodes have no edges, so their
        # (arbitrary) label never enters a neighbour count.
        self.row_labels = np.zeros(self.size, dtype=np.int64)
        self.row_labels[: self.n] = self.rows.label_ids
        # Node costs (scaled): substitution by label, padding rows are insertions (at the
        # column's weight). A substitution never costs more than a deletion plus an
        # insertion (unit: 1 < 2; graded: checked against w1 + w2 by label_pair_costs), and
        # neither do the incident edges (max(|A|, |B|) - |A ∩ B| <= |A| + |B|), so some
        # optimal edit path substitutes min(n, m) nodes: padding only the smaller graph to
        # max(n, m) loses no optimum.
        self._label_cost: np.ndarray | None = None
        #: Scaled insertion / deletion cost per vocabulary id (float64).
        if self.weight is None:
            self.label_weight = np.full(max(self.n_labels, 1), float(self.scale))
        else:
            self.label_weight = self.scale * self.weight
        if self.pair_cost is None:
            node_cost = np.ones((self.size, self.size), dtype=np.int64)
            node_cost[: self.n, :] = self.rows.label_ids[:, None] != self.cols.label_ids[None, :]
            if self.scale != 1:
                node_cost *= self.scale
        else:
            node_cost = np.empty((self.size, self.size), dtype=np.float64)
            node_cost[self.n :, :] = self.label_weight[self.cols.label_ids][None, :]
            node_cost[: self.n, :] = self.label_cost[
                self.rows.label_ids[:, None], self.cols.label_ids[None, :]
            ]
        self.node_cost = node_cost

    @property
    def label_cost(self) -> np.ndarray:
        """Scaled substitution costs between vocabulary ids, ``[rows label, cols label]``.

        Float64 in both cost models (unit: ``scale`` off the diagonal); built on first use,
        since the unit-cost bipartite path never needs it.
        """
        if self._label_cost is None:
            k = max(self.n_labels, 1)
            if self.pair_cost is None:
                cost = np.full((k, k), float(self.scale))
                np.fill_diagonal(cost, 0.0)
            else:
                cost = self.scale * (self.pair_cost.T if self.swapped else self.pair_cost)
            self._label_cost = np.ascontiguousarray(cost, dtype=np.float64)
        return self._label_cost

    # ---------------------------------------------------------------- exact cost of a mapping

    def cost(self, perm: np.ndarray) -> tuple[int, int]:
        """Scaled (node cost, edge cost) of the edit path where row ``i`` maps to ``perm[i]``."""
        node, edge = _mapping_cost(
            self.node_cost,
            self.rows.adj,
            self.rows.slots,
            self.cols.adj,
            self.cols.slots,
            np.asarray(perm, dtype=np.int64),
        )
        if self.graded:
            return float(node), int(edge)
        return int(node), int(edge)


class _LabelCosts(NamedTuple):
    """Quantized node costs over the shared label vocabulary (real units, not scaled)."""

    #: ``cost[a, b]``: substitution of g1 label id ``a`` by g2 label id ``b`` (pairs that are
    #: not (g1 label, g2 label) are never read; equal ids cost 0).
    cost: np.ndarray
    #: ``weight[a]``: insertion / deletion cost of a node labelled ``a`` (1 without weights).
    weight: np.ndarray
    #: The coarsest ``2**k`` (``k <= 6``) such that every cost and weight is a multiple of
    #: ``2**-k``: the grid lower bounds round up to.
    grid: int
    #: Every substitution costs at least the difference of the two weights: then the node
    #: part of any edit path costs at least ``|sum of g1 weights - sum of g2 weights|``.
    mass: bool


def _ticks(values: np.ndarray) -> np.ndarray:
    """Costs in units of ``1 / GRADED_COST_GRID``: nearest, a positive cost at least one."""
    return np.where(values > 0.0, np.maximum(np.rint(values * GRADED_COST_GRID), 1.0), 0.0)


def quantize_weights(weights: Any) -> np.ndarray:
    """Node weights as the GED uses them: each rounded to the nearest multiple of 1/64, at
    least 1/64 (:data:`GRADED_COST_GRID`).

    Raises ValueError on a weight that is not a finite positive number.

    Examples
    --------
    >>> from graphs.ged.encoding import quantize_weights
    >>> quantize_weights([1, 2.5, 0.001]).tolist()
    [1.0, 2.5, 0.015625]
    """
    return _weight_ticks(weights)[0] / GRADED_COST_GRID


def _weight_ticks(weights: Any) -> tuple[np.ndarray, int]:
    """Node weights in units of ``1 / GRADED_COST_GRID`` (see :func:`quantize_weights`) and
    the bitwise or of those tick counts."""
    try:
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"node_weight must return numbers, got an error converting: {exc}"
                         ) from exc
    # One compiled pass instead of a dozen numpy calls on a few dozen weights.
    ticks, ok, bits = _positive_ticks(np.ascontiguousarray(w))
    if not ok:
        bad = w[~np.isfinite(w) | (w <= 0.0)][0]
        raise ValueError(f"node_weight must return finite positive weights, got {bad:g}")
    return ticks, bits


def label_pair_costs(
    f: NodeSubstCost,
    s1: Side,
    s2: Side,
    n_labels: int,
    node_weight: NodeWeight | None = None,
) -> _LabelCosts:
    """Quantized substitution costs between the vocabulary ids of g1 and g2, the node
    weights, the grid and whether the weight-difference (mass) bound holds.

    Calls ``node_weight`` once on every distinct label (vocabulary order) and ``f`` once,
    on the distinct labels of each graph (canonical order). Lower bounds round up to
    multiples of ``1 / grid``: the coarser, the sooner they meet the upper bound (0/1 costs
    from a callable prove exactly what unit costs prove).
    """
    k = max(n_labels, 1)
    # Equal ids are equal labels (shared vocabulary): a dict keeps each id once, in order.
    distinct1 = dict(zip(s1.label_ids.tolist(), s1.labels, strict=True))
    distinct2 = dict(zip(s2.label_ids.tolist(), s2.labels, strict=True))
    # ``wt``: the weights in ticks (whole numbers), what the checks below compare.
    wt = np.full(k, float(GRADED_COST_GRID))
    bits = 0
    if node_weight is not None and n_labels:
        vocab = {**distinct1, **distinct2}
        labels = [vocab[i] for i in range(n_labels)]
        raw_wt, bits = _weight_ticks(node_weight(labels))
        if raw_wt.shape != (n_labels,):
            raise ValueError(
                f"node_weight returned {raw_wt.shape[0]} weights for {n_labels} distinct labels"
            )
        wt[:n_labels] = raw_wt
    weight = wt / GRADED_COST_GRID
    ids1, labels1 = list(distinct1), list(distinct1.values())
    ids2, labels2 = list(distinct2), list(distinct2.values())
    if not ids1 or not ids2:
        # nothing to substitute: f is not called on an empty side
        cost = np.ones((k, k), dtype=np.float64)
        np.fill_diagonal(cost, 0.0)
        return _LabelCosts(cost, weight, _coarsest_grid(bits), True)
    try:
        raw = np.asarray(f(labels1, labels2), dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"node_subst_cost must return a numeric array, got an error converting it: {exc}"
        ) from exc
    if raw.shape != (len(labels1), len(labels2)):
        raise ValueError(
            f"node_subst_cost returned shape {raw.shape}, expected "
            f"{(len(labels1), len(labels2))} (distinct labels of g1 x distinct labels of g2)"
        )
    rows = np.array(ids1, dtype=np.int64)
    cols = np.array(ids2, dtype=np.int64)
    # The common case in one compiled pass (a few dozen costs: numpy's per-call overhead
    # would dominate); any cost it rejects goes through the checks below, which raise.
    cost, ok, mass, cost_bits = _graded_ticks(
        np.ascontiguousarray(raw), rows, cols, weight, wt, node_weight is not None, k
    )
    if ok:
        return _LabelCosts(cost, weight, _coarsest_grid(bits | cost_bits), mass)
    # A substitution never costs more than a deletion plus an insertion: the padding of the
    # smaller graph (graphs.ged.distance) relies on it.
    limit = weight[rows][:, None] + weight[cols][None, :]
    if node_weight is None:
        limit = np.ones_like(limit)  # the documented range of unweighted graded costs
    if not np.isfinite(raw).all():
        raise ValueError("node_subst_cost returned a non-finite cost (nan or inf)")
    over = raw > limit * (1.0 + 1e-12)
    if (raw < 0.0).any() or over.any():
        if node_weight is None:
            raise ValueError(
                f"node_subst_cost must return costs in [0, 1], got values in "
                f"[{raw.min():g}, {raw.max():g}]"
            )
        i, j = np.argwhere((raw < 0.0) | over)[0]
        raise ValueError(
            f"node_subst_cost must return costs in [0, w1 + w2] (weights of the two labels), "
            f"got {raw[i, j]:g} for {labels1[i]!r} -> {labels2[j]!r} with weights "
            f"{weight[rows[i]]:g} + {weight[cols[j]]:g}"
        )
    ticks = np.minimum(_ticks(raw), limit * GRADED_COST_GRID)
    same = rows[:, None] == cols[None, :]
    if ticks[same].any():
        i, j = np.argwhere(same & (ticks != 0.0))[0]
        raise ValueError(
            f"node_subst_cost must be 0 between equal labels ({labels1[i]!r} costs "
            f"{raw[i, j]:g} against itself)"
        )
    raise AssertionError("_graded_ticks rejected costs that pass every check")


@numba.njit(cache=True, nogil=True)
def _positive_ticks(w):  # pragma: no cover - compiled
    """:func:`_ticks` of ``w``, whether every value is finite and positive (else the ticks
    are incomplete) and the bitwise or of the tick counts."""
    out = np.empty(w.shape[0], dtype=np.float64)
    bits = 0
    for i in range(w.shape[0]):
        x = w[i]
        if not (np.isfinite(x) and x > 0.0):
            return out, False, 0
        t = np.rint(x * GRADED_COST_GRID)
        out[i] = t if t > 1.0 else 1.0
        bits |= np.int64(out[i])
    return out, True, bits


@numba.njit(cache=True, nogil=True)
def _graded_ticks(raw, rows, cols, weight, wt, weighted, k):  # pragma: no cover - compiled
    """The accepting path of :func:`label_pair_costs`, scalar by scalar the same operations
    as its numpy checks: returns the ``(k, k)`` costs (1 off the diagonal, 0 on it,
    ``cost[rows[i], cols[j]]`` the quantized ``raw[i, j]``), whether every cost is valid,
    whether the mass bound holds and the or of the tick counts. On the first invalid cost
    it stops with ``ok = False``: the caller's checks then raise."""
    cost = np.ones((k, k), dtype=np.float64)
    for a in range(k):
        cost[a, a] = 0.0
    bits = 0
    mass = True
    for i in range(raw.shape[0]):
        a = rows[i]
        for j in range(raw.shape[1]):
            b = cols[j]
            x = raw[i, j]
            # the documented range of unweighted graded costs is [0, 1]
            limit = weight[a] + weight[b] if weighted else 1.0
            if not np.isfinite(x) or x < 0.0 or x > limit * (1.0 + 1e-12):
                return cost, False, False, 0
            t = 0.0
            if x > 0.0:
                t = np.rint(x * GRADED_COST_GRID)
                if t < 1.0:
                    t = 1.0
            cap = limit * GRADED_COST_GRID
            if cap < t:
                t = cap
            if a == b and t != 0.0:
                return cost, False, False, 0
            cost[a, b] = t / GRADED_COST_GRID
            if t < abs(wt[a] - wt[b]):
                mass = False
            bits |= np.int64(t)
    return cost, True, mass, bits


def _coarsest_grid(bits: int) -> int:
    """The coarsest grid holding every tick count whose bits are or-ed in ``bits``: drop the
    trailing zero bits they all share."""
    grid = GRADED_COST_GRID
    while grid > 1 and bits % 2 == 0:
        bits //= 2
        grid //= 2
    return grid


@numba.njit(cache=True, nogil=True)
def _mapping_cost(node_cost, a1, s1, a2, s2, perm):  # pragma: no cover - compiled
    """Scaled (node, edge) cost of the mapping ``perm`` (see :meth:`Problem.cost`).

    Each slot ``(i, k)`` of graph 1 meets ``(perm i, perm k)`` of graph 2 and costs
    ``max(|A|, |B|) - |A ∩ B|``: the maxima come from the per-slot totals ``s1``, ``s2``, the
    intersections from the typed counts, visited only where graph 1 has an edge.
    """
    size = perm.shape[0]
    node = 0
    for i in range(size):
        node += node_cost[i, perm[i]]
    edge = 0
    for i in range(size):
        pi = perm[i]
        for k in range(size):
            x = s1[i, k]
            y = s2[pi, perm[k]]
            edge += x if x > y else y
    for t in range(a1.shape[0]):
        for i in range(size):
            pi = perm[i]
            for k in range(size):
                u = a1[t, i, k]
                if u != 0:
                    v = a2[t, pi, perm[k]]
                    edge -= u if u < v else v
    return node, edge
