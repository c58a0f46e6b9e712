"""The :func:`graph_edit_distance` pipeline: shortcuts for equal graphs, the bipartite
assignment and its bounds, local search, the exact search for tiny graphs, and the
result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

import networkx as nx
import numpy as np

from graphs.ged.assignment import assignment_value, solve_assignment
from graphs.ged.bounds import (
    ceil_scaled,
    heuristic_matrix,
    lower_bound_matrix,
    multiset_bound,
)
from graphs.ged.encoding import (
    GraphItems,
    NodeSubstCost,
    NodeWeight,
    Problem,
    graph_items,
)
from graphs.ged.exact import branch_and_bound, complete_perm, search_order
from graphs.ged.local_search import SwapSearch
from graphs.ged.paths import mapping_from_perm, operations_from_encoding
from graphs.ged.results import EditOperation, GEDResult

#: Default size (nodes of the larger graph) up to which the exact search runs.
DEFAULT_EXACT_MAX_NODES = 10
#: Default node-expansion budget of the exact search (a size limit, not a time limit).
DEFAULT_EXACT_MAX_EXPANSIONS = 50_000


def graph_edit_distance(
    g1: nx.Graph,
    g2: nx.Graph,
    *,
    node_label: str = "label",
    edge_label: str = "type",
    node_subst_cost: NodeSubstCost | None = None,
    node_weight: NodeWeight | None = None,
    exact_max_nodes: int = DEFAULT_EXACT_MAX_NODES,
    exact_max_expansions: int = DEFAULT_EXACT_MAX_EXPANSIONS,
    max_swaps: int | None = None,
    fixed_point_iterations: int = 20,
    operations: bool = False,
) -> GEDResult:
    """Graph edit distance with unit, graded or weighted costs, exact for tiny graphs,
    bounded otherwise.

    Parameters
    ----------
    g1, g2 : networkx Graph, DiGraph, MultiGraph or MultiDiGraph
        Both directed or both undirected. Parallel edges between the same ordered pair
        form a multiset of edge types (a PDG may hold a ``control`` and a ``data`` edge
        between the same two statements).
    node_label : str, default "label"
        Node attribute compared for substitutions (missing: ``None``, all equal).
    edge_label : str, default "type"
        Edge attribute compared for edge substitutions (missing: ``None``).
    node_subst_cost : callable or None, default None
        ``None``: unit costs (a substitution costs 0 between equal labels, else 1).
        Otherwise graded costs: ``node_subst_cost(labels1, labels2)`` is called once, with
        the distinct node labels of ``g1`` and of ``g2`` (lists, canonical order; an
        unhashable label is passed as its ``repr``, a missing one as ``None``), and must
        return an array of shape ``(len(labels1), len(labels2))`` of finite costs in
        ``[0, 1]`` (with ``node_weight``: ``[0, w1 + w2]``), 0 between equal labels. Each
        cost is rounded to the nearest multiple of ``1 / 64`` (:data:`GRADED_COST_GRID`; a
        positive one to at least ``1 / 64``), and that quantized value is the cost model:
        ``distance``, bounds and operation costs are exact for it. Without ``node_weight``
        insertions and deletions cost 1. Edges always cost 1. Not called when the graphs
        are equal or one is empty.
    node_weight : callable or None, default None
        Weighted nodes (needs ``node_subst_cost``): ``node_weight(labels)`` is called once
        with every distinct label of both graphs and returns their weights, finite and
        positive; inserting or deleting a node costs its label's weight, rounded like the
        substitution costs (to a multiple of 1/64, at least 1/64). A weight is a function of
        the label, so equal labels weigh the same and pair up for free. When every
        substitution also costs at least the difference of the two weights (as GRS's does),
        the lower bound includes the difference of the total weights.
    exact_max_nodes : int, default 10
        Run the exact branch and bound when both graphs have at most this many nodes (and
        the bipartite bounds did not already meet). ``0`` disables it.
    exact_max_expansions : int, default 50000
        Node-expansion budget of the exact search (a few microseconds each). When it runs
        out, the best mapping found so far is returned with ``exact=False`` and method
        ``"truncated"``: limits are by size, never by wall clock.
    max_swaps : int or None
        Maximum improving pairwise swaps of the local search; ``None`` means
        ``2 * max(n1, n2)``.
    fixed_point_iterations : int, default 20
        Maximum steps of the integer projected fixed point walk. With ``max_swaps=0`` and
        ``fixed_point_iterations=0`` the result is the plain bipartite edit path.
    operations : bool, default False
        Also list the costly edit operations of the induced edit path (diagnostics).

    Returns
    -------
    GEDResult
        ``distance``, bounds with ``lower <= distance <= upper`` (``distance == upper``),
        the node mapping, whether the distance is proven exact, and the method.

    Raises
    ------
    ValueError
        If one graph is directed and the other is not, or ``node_subst_cost`` returns an
        array of the wrong shape, with a non-finite value, a value outside ``[0, 1]``
        (weighted: ``[0, w1 + w2]``) or a non-zero cost between equal labels, or
        ``node_weight`` a weight that is not finite and positive (or comes without
        ``node_subst_cost``).

    Notes
    -----
    The smaller graph is padded to ``N = max(|V1|, |V2|)`` nodes: a substitution costs at
    most a deletion plus an insertion (unit or graded: 1 < 2; weighted: checked against
    ``w1 + w2``), and its incident edges
    never cost more than deleting and inserting them, so some optimal edit path substitutes
    as many nodes as possible and nothing is lost. With ``E``
    the number of edges and ``C`` the number of (edge type, multiplicity level) channels
    (about 4 for PDGs), each assignment costs ``O(N^3)``, each fixed-point step
    ``O(N^3 + C E N)`` and each swap step ``O(C (N^2 + E N))``; there are at most two
    starts of ``fixed_point_iterations + 2 N`` steps. The exact search is exponential and
    therefore gated by ``exact_max_nodes`` and ``exact_max_expansions``. Callers with
    large graphs should check :func:`graph_size` first.

    The lower bound is the larger of the label/type multiset bound and the assignment
    bound with halved edge costs (Riesen–Bunke), rounded up to the grid the GED lives on
    (integers with unit costs; with graded ones multiples of 1/64, or of the coarsest
    ``2**-k`` that holds every quantized cost, e.g. 1/4 for quarters). With graded costs the
    label part of the multiset bound lets equal labels pair up for free and charges every
    other node its cheapest available substitution (or insertion), counted from either
    graph's side. The exact search prunes with the same bounds computed on the free nodes,
    the assignment bound with exact costs for edges to the nodes already mapped.

    Deterministic: nodes are put in a canonical order (label, degrees, then ``repr`` of the
    node id), ties are broken by that order, and nothing depends on wall-clock time or
    hash randomization.

    Examples
    --------
    >>> import networkx as nx
    >>> g1 = nx.DiGraph()
    >>> g1.add_node(0, label="x = 1")
    >>> g1.add_node(1, label="return x")
    >>> g1.add_edge(0, 1, type="data")
    >>> g2 = g1.copy()
    >>> g2.nodes[1]["label"] = "return y"
    >>> r = graph_edit_distance(g1, g2)
    >>> r.distance, r.exact, r.node_mapping
    (1.0, True, ((0, 0), (1, 1)))

    Graded costs, here the share of differing characters (a stand-in for a token edit
    distance), make a small change cost a fraction of a node:

    >>> import numpy as np
    >>> def differing(labels1, labels2):
    ...     return np.array([[sum(a != b for a, b in zip(s, t)) / max(len(s), len(t))
    ...                       if len(s) == len(t) else 1.0 for t in labels2] for s in labels1])
    >>> r = graph_edit_distance(g1, g2, node_subst_cost=differing, operations=True)
    >>> r.distance, r.exact, [(op.kind, op.before, op.after, op.cost) for op in r.operations]
    (0.125, True, [('node_relabel', 'return x', 'return y', 0.125)])

    Weighted nodes, here by the number of words of the label: deleting ``return x`` costs
    2, and a substitution at most the heavier weight:

    >>> words = lambda labels: [len(str(lab).split()) for lab in labels]
    >>> g3 = nx.DiGraph()
    >>> g3.add_node(0, label="x = 1")
    >>> r = graph_edit_distance(g1, g3, node_subst_cost=differing, node_weight=words)
    >>> r.distance, r.node_cost, r.edge_cost
    (3.0, 2.0, 1.0)
    """
    if g1.is_directed() != g2.is_directed():
        raise ValueError("graph_edit_distance: both graphs must be directed or both undirected")
    if not operations and g1 is g2:
        same = _identity_result(g1)
        if same is not None:
            return same
    # Read each graph once: the equality check and the encoding share the lists.
    items = (graph_items(g1, node_label, edge_label), graph_items(g2, node_label, edge_label))
    if not operations and g1 is not g2:
        same = _equal_result(*items, directed=g1.is_directed())
        if same is not None:
            return same
    p = Problem(g1, g2, node_label, edge_label, items, node_subst_cost, node_weight)
    if p.n == 0:
        # Insert everything: no search needed, and exactness is trivial.
        perm = np.arange(p.size, dtype=np.int64)
        return _finish(p, perm, lower_scaled=None, exact=True, method="trivial", ops=operations)

    lower_scaled = max(multiset_bound(p), 0.0)
    heur_perm = solve_assignment(heuristic_matrix(p))
    best_perm, best_split = heur_perm, p.cost(heur_perm)
    best_cost = sum(best_split)
    # The multiset bound alone often proves the heuristic's mapping optimal (most PDG
    # pairs): the assignment lower bound could only raise the target, and an exact result
    # reports lower == upper whatever the bounds were, so it is skipped then.
    proven = best_cost <= ceil_scaled(lower_scaled, p.step)
    if not proven:
        lb_matrix = lower_bound_matrix(p)
        lb_perm = solve_assignment(lb_matrix)
        lower_scaled = max(lower_scaled, assignment_value(lb_matrix, lb_perm))
        target = ceil_scaled(lower_scaled, p.step)  # a mapping this cheap is optimal
        swaps = 2 * p.size if max_swaps is None else max_swaps
        search: SwapSearch | None = None  # built on first use: most pairs never need it
        # Two starts: the structural heuristic's assignment, then the lower bound's. Each
        # is improved by the fixed-point walk, then by swaps; stop once the bounds meet.
        for start in (heur_perm, lb_perm):
            if best_cost <= target:
                break
            if search is None:
                search = SwapSearch(p)
            perm = start
            if fixed_point_iterations > 0:
                perm = search.fixed_point(perm, fixed_point_iterations, target)
            if swaps > 0:
                perm = search.run(perm, swaps, target)
            split = p.cost(perm)
            if sum(split) < best_cost:
                best_perm, best_split, best_cost = perm, split, sum(split)
        proven = best_cost <= target
    if proven:
        return _finish(
            p,
            best_perm,
            lower_scaled,
            exact=True,
            method="bipartite",
            ops=operations,
            split=best_split,
        )

    if p.m <= exact_max_nodes:
        order = search_order(p.rows.slots, p.n)
        best_img = best_perm[: p.n].copy()
        best, img, _, complete = branch_and_bound(
            p.rows.adj[:, : p.n, : p.n].copy(),
            p.cols.adj,
            p.rows.label_ids,
            p.cols.label_ids,
            p.n,
            p.m,
            order,
            p.scale,
            p.label_cost,
            p.label_weight,
            p.graded,
            p.mass,
            float(p.grid),
            float(best_cost),
            best_img,
            exact_max_expansions,
        )
        perm = complete_perm(img, p.m)
        if complete:
            return _finish(p, perm, float(best), exact=True, method="exact", ops=operations)
        return _finish(p, perm, lower_scaled, exact=False, method="truncated", ops=operations)
    return _finish(
        p,
        best_perm,
        lower_scaled,
        exact=False,
        method="bipartite",
        ops=operations,
        split=best_split,
    )


def _identity_result(g: nx.Graph) -> GEDResult | None:
    """A graph against itself: distance 0 under the identity mapping, no search needed.

    Scorers hit this for every exact-match pair (both sides share one PDG). ``None`` when
    the node ids cannot be sorted, so the mapping's documented order needs the full path.
    """
    try:
        nodes = sorted(g.nodes)
    except TypeError:
        return None
    return GEDResult(
        distance=0.0,
        lower=0.0,
        upper=0.0,
        node_mapping=tuple((v, v) for v in nodes),
        exact=True,
        method="identical",
    )


def _equal_result(items1: GraphItems, items2: GraphItems, *, directed: bool) -> GEDResult | None:
    """Two equal graphs: distance 0 when mapping their nodes in sorted order costs nothing.

    Two PDGs of code that differs only in layout, comments or local names are equal node
    for node in source order (about a fifth of the non-identical CodeXGLUE pairs): an
    O(V + E) comparison then replaces the search. ``None`` whenever it does not apply.
    ``items1``, ``items2`` are the graphs' :func:`graph_items`.
    """
    (labels1, edges1), (labels2, edges2) = items1, items2
    if len(labels1) != len(labels2) or len(edges1) != len(edges2):
        return None
    try:
        nodes1, nodes2 = sorted(labels1), sorted(labels2)
        if [labels1[v] for v in nodes1] != [labels2[v] for v in nodes2]:
            return None
        if _positional_edges(edges1, nodes1, directed) != _positional_edges(
            edges2, nodes2, directed
        ):
            return None
    except TypeError:  # node ids that do not sort, or labels that do not hash
        return None
    return GEDResult(
        distance=0.0,
        lower=0.0,
        upper=0.0,
        node_mapping=tuple(zip(nodes1, nodes2, strict=True)),
        exact=True,
        method="identical",
    )


def _positional_edges(
    edges: list[tuple[Hashable, Hashable, Any]], nodes: list, directed: bool
) -> Counter:
    """The multiset of edges as (position of u, position of v, label), u <= v if undirected."""
    pos = {v: i for i, v in enumerate(nodes)}
    counts: Counter = Counter()
    for u, v, label in edges:
        a, b = pos[u], pos[v]
        counts[(a, b, label) if directed or a <= b else (b, a, label)] += 1
    return counts


def _finish(
    p: Problem,
    perm: np.ndarray,
    lower_scaled: float | None,
    *,
    exact: bool,
    method: str,
    ops: bool,
    split: tuple[int, int] | None = None,
) -> GEDResult:
    # ``split``: the caller's p.cost(perm), when it already has it.
    node_s, edge_s = p.cost(perm) if split is None else split
    upper = (node_s + edge_s) / p.scale
    if exact or lower_scaled is None:
        lower = upper
    else:
        lower = min(ceil_scaled(lower_scaled, p.step) / p.scale, upper)
    exact = exact or lower == upper
    mapping = mapping_from_perm(p, perm)
    result_ops: tuple[EditOperation, ...] = ()
    if ops:
        result_ops = tuple(operations_from_encoding(p, perm))
    return GEDResult(
        distance=upper,
        lower=float(lower),
        upper=upper,
        node_mapping=mapping,
        exact=exact,
        method=method,
        node_cost=node_s / p.scale,
        edge_cost=edge_s / p.scale,
        operations=result_ops,
    )
