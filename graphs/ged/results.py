"""What a graph edit distance computation returns: :class:`GEDResult`, its
:class:`EditOperation` steps, and :func:`graph_size`, the size a distance is bounded by."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import networkx as nx


class EditOperation(NamedTuple):
    """One costly operation of an edit path (zero-cost substitutions are not listed).

    ``kind`` is one of ``"node_relabel"``, ``"node_delete"``, ``"node_insert"``,
    ``"edge_retype"``, ``"edge_delete"``, ``"edge_insert"``. ``item1`` / ``item2`` are the
    node (or the ``(u, v)`` endpoint pair of the edge) in ``g1`` / ``g2``, ``None`` when it
    does not exist on that side; ``before`` / ``after`` are the node labels or edge types.
    ``cost`` is 1 except for a relabel under graded costs: its quantized substitution cost.
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


def graph_size(g: nx.Graph) -> int:
    """Number of nodes plus number of edges (parallel edges counted one by one).

    Parameters
    ----------
    g : networkx Graph, DiGraph, MultiGraph or MultiDiGraph

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx
    >>> graph_size(nx.path_graph(3, create_using=nx.DiGraph))
    5
    """
    # number_of_edges() sums a degree view (tens of microseconds on a small multigraph, as
    # much as a whole GED of two equal PDGs); the adjacency dicts give the same count.
    cls = type(g)
    if cls is nx.MultiDiGraph:
        edges = sum([len(keys) for nbrs in g._succ.values() for keys in nbrs.values()])
        return len(g._node) + edges
    if cls is nx.DiGraph:
        return len(g._node) + sum([len(nbrs) for nbrs in g._succ.values()])
    return g.number_of_nodes() + g.number_of_edges()
