"""What a graph edit distance computation returns: :class:`GEDResult`, its
:class:`EditOperation` steps, and :func:`graph_size`, the size a distance is bounded by."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import networkx as nx

from graphs.ged.encoding import NodeWeight, hashable_label, quantize_weights


class EditOperation(NamedTuple):
    """One costly operation of an edit path (zero-cost substitutions are not listed).

    ``kind`` is one of ``"node_relabel"``, ``"node_delete"``, ``"node_insert"``,
    ``"edge_retype"``, ``"edge_delete"``, ``"edge_insert"``. ``item1`` / ``item2`` are the
    node (or the ``(u, v)`` endpoint pair of the edge) in ``g1`` / ``g2``, ``None`` when it
    does not exist on that side; ``before`` / ``after`` are the node labels or edge types.
    ``cost`` is 1 except for a relabel under graded costs (its quantized substitution cost)
    and a node insertion or deletion under weighted costs (the node's quantized weight).
    """

    kind: str
    item1: Any
    item2: Any
    before: Any = None
    after: Any = None
    cost: float = 1.0


@dataclass(frozen=True)
class GEDResult:
    """Result of :func:`graph_edit_distance`.

    Attributes
    ----------
    distance : float
        The reported GED: exact when ``exact`` is true, else the best upper bound found.
        Always the exact cost of the edit path of ``node_mapping`` under the cost model
        (graded costs: as quantized).
    lower : float
        A valid lower bound on the GED.
    upper : float
        Exact cost of the edit path induced by ``node_mapping``; equals ``distance``.
    node_mapping : tuple of (g1 node or None, g2 node or None)
        Every node of ``g1`` with its image (``None``: deleted), then ``(None, v)`` for the
        inserted nodes of ``g2``. Nodes are listed sorted by id when the ids are comparable
        (a PDG's integer ids are source order), else in the canonical order (label,
        degrees, ``repr`` of the id): never in insertion order.
    exact : bool
        True when ``distance`` is proven optimal (exact search, or ``lower == upper``).
    method : str
        ``"identical"`` (the same graph object on both sides, or equal graphs: equal
        labels and edges when nodes are paired in sorted order), ``"trivial"`` (an empty
        graph), ``"bipartite"`` (assignment and local search; exact when its bounds meet),
        ``"exact"`` (branch and bound) or ``"truncated"`` (the branch and bound ran out of
        its expansion budget: best mapping found, not proven).
    node_cost, edge_cost : float
        The split of ``upper`` into node and edge operations.
    operations : tuple of EditOperation
        The costly operations of the induced edit path (empty unless requested).
    """

    distance: float
    lower: float
    upper: float
    node_mapping: tuple[tuple[Hashable | None, Hashable | None], ...]
    exact: bool
    method: str
    node_cost: float = 0.0
    edge_cost: float = 0.0
    operations: tuple[EditOperation, ...] = field(default=(), repr=False)


def graph_size(
    g: nx.Graph, *, node_weight: NodeWeight | None = None, node_label: str = "label"
) -> float:
    """Number of nodes plus number of edges (parallel edges counted one by one); with
    ``node_weight``, the sum of the node weights plus the number of edges.

    This is the cost of deleting (or inserting) the whole graph, the bound a graph edit
    distance under the same cost model is normalized by.

    Parameters
    ----------
    g : networkx Graph, DiGraph, MultiGraph or MultiDiGraph
    node_weight : callable or None
        As in :func:`graph_edit_distance`: weights of the distinct labels, quantized the
        same way (multiples of 1/64).
    node_label : str, default "label"
        The node attribute ``node_weight`` is given.

    Returns
    -------
    int without weights, float with them

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.path_graph(3, create_using=nx.DiGraph)
    >>> graph_size(g)
    5
    >>> nx.set_node_attributes(g, {0: "x = 1", 1: "y = x", 2: "return y"}, "label")
    >>> graph_size(g, node_weight=lambda labels: [len(lab.split()) for lab in labels])
    10.0
    """
    # number_of_edges() sums a degree view (tens of microseconds on a small multigraph, as
    # much as a whole GED of two equal PDGs); the adjacency dicts give the same count.
    cls = type(g)
    if cls is nx.MultiDiGraph:
        edges = sum([len(keys) for nbrs in g._succ.values() for keys in nbrs.values()])
    elif cls is nx.DiGraph:
        edges = sum([len(nbrs) for nbrs in g._succ.values()])
    else:
        edges = g.number_of_edges()
    if node_weight is None:
        return len(g._node) + edges
    counts = Counter(hashable_label(d.get(node_label)) for d in g._node.values())
    if not counts:
        return float(edges)
    labels = list(counts)
    weights = quantize_weights(node_weight(labels))
    if weights.shape != (len(labels),):
        raise ValueError(
            f"node_weight returned {weights.shape[0]} weights for {len(labels)} distinct labels"
        )
    return float(sum(w * counts[lab] for lab, w in zip(labels, weights.tolist(), strict=True))
                 ) + edges
