"""Both graphs of a GED problem as arrays: canonical node order, labels and edge types as
small integers over shared vocabularies, typed adjacency count tensors, quantized graded
substitution costs, and the exact (compiled) cost of a node mapping."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import networkx as nx
import numba
import numpy as np

#: Graded substitution costs are rounded to the nearest multiple of ``1 / GRADED_COST_GRID``
#: (a power of two: sums of such costs are exact in floating point, see :mod:`graphs.ged`).
GRADED_COST_GRID = 64

#: ``f(labels1, labels2) -> array (len(labels1), len(labels2))`` of substitution costs in
#: [0, 1] between the distinct node labels of ``g1`` and of ``g2`` (0 for equal labels).
NodeSubstCost = Callable[[list, list], Any]


#: A graph's raw content: node -> label, and the edges ``(u, v, type)`` one by one.
_GraphItems = tuple[dict[Hashable, Any], list[tuple[Hashable, Hashable, Any]]]


def _graph_items(g: nx.Graph, node_label: str, edge_label: str) -> _GraphItems:
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


class _Side:
    """One graph in canonical order, with labels and types encoded as small integers."""

    __slots__ = ("adj", "display", "edges", "index", "labels", "label_ids", "nodes", "slots")

    def __init__(
        self,
        g: nx.Graph,
        node_label: str,
        edge_label: str,
        label_vocab: dict,
        items: _GraphItems | None = None,
    ) -> None:
        labels, graph_edges = _graph_items(g, node_label, edge_label) if items is None else items
        raw = {n: _hashable(lab) for n, lab in labels.items()}
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
            (index[u], index[v], _hashable(t)) for u, v, t in graph_edges
        ]
        # Reports list nodes by id when ids are comparable (a PDG's ints are source order),
        # else in canonical order; either way independent of insertion order.
        try:
            self.display: list[int] = [index[n] for n in sorted(self.nodes)]
        except TypeError:
            self.display = list(range(len(self.nodes)))
        # Set by _Problem: typed counts adj[t, i, j] and their total over types per slot.
        self.adj: np.ndarray = np.zeros((0, 0, 0), dtype=np.int64)
        self.slots: np.ndarray = np.zeros((0, 0), dtype=np.int64)


def _hashable(value: Any) -> Hashable:
    # Labels are compared by equality; an unhashable label (a list, say) falls back to repr.
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _build_adjacency(side: _Side, type_vocab: dict, size: int, directed: bool) -> np.ndarray:
    """Typed adjacency counts ``adj[t, i, j]``, zero-padded to ``size`` nodes.

    Undirected graphs are stored symmetrically with self-loops counted twice, so that every
    cost computed over ordered pairs is exactly twice the undirected cost (``_Problem.scale``).
    """
    adj = np.zeros((max(len(type_vocab), 1), size, size), dtype=np.int64)
    for i, j, t in side.edges:
        k = type_vocab[t]
        adj[k, i, j] += 1
        if not directed:
            adj[k, j, i] += 1
    return adj


class _Problem:
    """Both graphs encoded over shared vocabularies, the rows side being the smaller graph."""

    def __init__(
        self,
        g1: nx.Graph,
        g2: nx.Graph,
        node_label: str,
        edge_label: str,
        items: tuple[_GraphItems, _GraphItems] | None = None,
        node_subst_cost: NodeSubstCost | None = None,
    ) -> None:
        self.directed = g1.is_directed()
        # Undirected costs are computed over ordered pairs, i.e. doubled: keep integers.
        self.scale = 1 if self.directed else 2
        # Every scaled cost is a multiple of 1 / grid (unit costs: integers; graded: see
        # _label_pair_costs), a scaled GED a multiple of ``step``: lower bounds round up to it.
        self.graded = node_subst_cost is not None
        label_vocab: dict[Any, int] = {}
        items1, items2 = (None, None) if items is None else items
        s1 = _Side(g1, node_label, edge_label, label_vocab, items1)
        s2 = _Side(g2, node_label, edge_label, label_vocab, items2)
        # Graded: quantized substitution costs between vocabulary ids, (g1 label, g2 label).
        self.pair_cost: np.ndarray | None = None
        self.grid = 1
        if node_subst_cost is not None:
            self.pair_cost, self.grid = _label_pair_costs(node_subst_cost, s1, s2, len(label_vocab))
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
        # Node costs (scaled): substitution by label, padding rows are insertions. A
        # substitution (unit or graded, at most 1) never costs more than a deletion plus an
        # insertion (2), and neither do the incident edges (max(|A|, |B|) - |A ∩ B| <= |A| +
        # |B|), so some optimal edit path substitutes min(n, m) nodes: padding only the
        # smaller graph to max(n, m) loses no optimum.
        self._label_cost: np.ndarray | None = None
        if self.pair_cost is None:
            node_cost = np.ones((self.size, self.size), dtype=np.int64)
            node_cost[: self.n, :] = self.rows.label_ids[:, None] != self.cols.label_ids[None, :]
            if self.scale != 1:
                node_cost *= self.scale
        else:
            node_cost = np.full((self.size, self.size), float(self.scale))
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


def _label_pair_costs(
    f: NodeSubstCost, s1: _Side, s2: _Side, n_labels: int
) -> tuple[np.ndarray, int]:
    """Quantized substitution costs ``C[a, b]`` between the vocabulary ids of g1 and g2, and
    the grid of the costs: the coarsest ``2**k`` (``k <= 6``) with every cost a multiple of
    ``2**-k``.

    Calls ``f`` once, on the distinct labels of each graph (canonical order). Entries for
    pairs of ids that are not (g1 label, g2 label) are 1 (never read); equal ids cost 0.
    Lower bounds round up to multiples of ``1 / grid``: the coarser, the sooner they meet
    the upper bound (0/1 costs from a callable prove exactly what unit costs prove).
    """
    # Equal ids are equal labels (shared vocabulary): a dict keeps each id once, in order.
    distinct1 = dict(zip(s1.label_ids.tolist(), s1.labels, strict=True))
    distinct2 = dict(zip(s2.label_ids.tolist(), s2.labels, strict=True))
    ids1, labels1 = list(distinct1), list(distinct1.values())
    ids2, labels2 = list(distinct2), list(distinct2.values())
    cost = np.ones((max(n_labels, 1), max(n_labels, 1)), dtype=np.float64)
    np.fill_diagonal(cost, 0.0)
    if not ids1 or not ids2:
        return cost, 1  # nothing to substitute: f is not called on an empty side
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
    if raw.size <= _SMALL_COSTS:
        small = _small_pair_costs(cost, raw, ids1, ids2, labels1)
        if small is not None:
            return small
    low, high = raw.min(), raw.max()
    if not (low >= 0.0 and high <= 1.0):  # also catches nan
        if not np.isfinite(raw).all():
            raise ValueError("node_subst_cost returned a non-finite cost (nan or inf)")
        raise ValueError(
            f"node_subst_cost must return costs in [0, 1], got values in [{low:g}, {high:g}]"
        )
    # a positive cost stays positive: at least one tick (two different statements that
    # differ in one token of 300 must not cost nothing)
    ticks = np.where(raw > 0.0, np.maximum(np.rint(raw * GRADED_COST_GRID), 1.0), 0.0)
    rows = np.array(ids1, dtype=np.int64)[:, None]
    cols = np.array(ids2, dtype=np.int64)
    same = rows == cols
    if ticks[same].any():
        i, j = np.argwhere(same & (ticks != 0.0))[0]
        raise ValueError(
            f"node_subst_cost must be 0 between equal labels ({labels1[i]!r} costs "
            f"{raw[i, j]:g} against itself)"
        )
    cost[rows, cols] = ticks / GRADED_COST_GRID
    # Coarsest grid: drop the trailing zero bits that all tick counts share.
    bits = int(np.bitwise_or.reduce(ticks.astype(np.int64), axis=None))
    grid = GRADED_COST_GRID
    while grid > 1 and bits % 2 == 0:
        bits //= 2
        grid //= 2
    return cost, grid


# Up to this many label pairs (a typical PDG pair has a few dozen) the quantization below is
# done on Python numbers: a dozen numpy calls on a tiny array cost more than the GED search.
_SMALL_COSTS = 256


def _small_pair_costs(
    cost: np.ndarray, raw: np.ndarray, ids1: list[int], ids2: list[int], labels1: list
) -> tuple[np.ndarray, int] | None:
    """:func:`_label_pair_costs`'s quantization of ``raw`` into ``cost``, the same numbers
    (``round`` rounds half to even as ``np.rint`` does; ``v * 64`` is exact), or None when
    a cost is outside [0, 1] or nan, for the array path to report."""
    flat = raw.ravel().tolist()
    if not all(0.0 <= v <= 1.0 for v in flat):  # nan fails too
        return None
    # a positive cost stays positive: at least one tick
    ticks = [max(round(v * GRADED_COST_GRID), 1) if v > 0.0 else 0 for v in flat]
    n2 = len(ids2)
    where2 = {b: j for j, b in enumerate(ids2)}
    for i, a in enumerate(ids1):  # row-major: the first offending pair, as argwhere finds
        j = where2.get(a)
        if j is not None and ticks[i * n2 + j]:
            raise ValueError(
                f"node_subst_cost must be 0 between equal labels ({labels1[i]!r} costs "
                f"{raw[i, j]:g} against itself)"
            )
    rows = np.array(ids1, dtype=np.int64)[:, None]
    cols = np.array(ids2, dtype=np.int64)
    cost[rows, cols] = np.array(ticks, dtype=np.float64).reshape(len(ids1), n2) / GRADED_COST_GRID
    bits = 0
    for t in ticks:
        bits |= t
    grid = GRADED_COST_GRID
    while grid > 1 and bits % 2 == 0:
        bits //= 2
        grid //= 2
    return cost, grid


@numba.njit(cache=True, nogil=True)
def _mapping_cost(node_cost, a1, s1, a2, s2, perm):  # pragma: no cover - compiled
    """Scaled (node, edge) cost of the mapping ``perm`` (see :meth:`_Problem.cost`).

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
