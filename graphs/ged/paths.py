"""Edit paths: a node mapping read back in (g1, g2) terms, its costly operations, and
:func:`edit_path` for any mapping given by the caller."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import networkx as nx
import numpy as np

from graphs.ged.encoding import NodeSubstCost, NodeWeight, Problem, Side, label_pair_costs
from graphs.ged.results import EditOperation


def _image(p: Problem, perm: np.ndarray) -> tuple[Side, Side, list[int | None]]:
    """The two sides in (g1, g2) orientation and the g2 index of each g1 node (or None)."""
    first, second = (p.cols, p.rows) if p.swapped else (p.rows, p.cols)
    image: list[int | None] = [None] * len(first.nodes)
    for i in range(p.n):  # rows beyond n are padding; every column is a real node
        j = int(perm[i])
        if p.swapped:
            image[j] = i
        else:
            image[i] = j
    return first, second, image


def mapping_from_perm(p: Problem, perm: np.ndarray) -> tuple:
    """``(g1 node, g2 node | None)`` pairs for g1's nodes (mapped or deleted), then
    ``(None, g2 node)`` for the inserted ones, each side in its display order."""
    first, second, image = _image(p, perm)
    hit = [False] * len(second.nodes)
    pairs: list[tuple[Hashable | None, Hashable | None]] = []
    for a in first.display:
        b = image[a]
        pairs.append((first.nodes[a], None if b is None else second.nodes[b]))
        if b is not None:
            hit[b] = True
    pairs.extend((None, second.nodes[b]) for b in second.display if not hit[b])
    return tuple(pairs)


def operations_from_encoding(p: Problem, perm: np.ndarray) -> list[EditOperation]:
    """Costly operations of the edit path, expressed in (g1, g2) orientation."""
    first, second, image = _image(p, perm)
    return _edit_operations(
        first, second, dict(enumerate(image)), p.directed, p.pair_cost, p.weight
    )


def _edit_operations(
    s1: Side,
    s2: Side,
    node_map: dict[int, int | None],
    directed: bool,
    pair_cost: np.ndarray | None = None,
    weight: np.ndarray | None = None,
) -> list[EditOperation]:
    """The costly operations; ``pair_cost[g1 label id, g2 label id]``: graded substitutions
    (quantized, real units), ``None``: unit costs; ``weight[label id]``: a node's insertion
    or deletion cost, ``None``: 1."""
    ops: list[EditOperation] = []
    image = set()
    for i, node in enumerate(s1.nodes):
        j = node_map.get(i)
        if j is None:
            cost = 1.0 if weight is None else float(weight[s1.label_ids[i]])
            ops.append(EditOperation("node_delete", node, None, s1.labels[i], None, cost))
        else:
            image.add(j)
            if pair_cost is not None:
                cost = float(pair_cost[s1.label_ids[i], s2.label_ids[j]])
                if cost > 0.0:
                    ops.append(
                        EditOperation(
                            "node_relabel", node, s2.nodes[j], s1.labels[i], s2.labels[j], cost
                        )
                    )
            elif s1.labels[i] != s2.labels[j]:
                ops.append(
                    EditOperation("node_relabel", node, s2.nodes[j], s1.labels[i], s2.labels[j])
                )
    for j, node in enumerate(s2.nodes):
        if j not in image:
            cost = 1.0 if weight is None else float(weight[s2.label_ids[j]])
            ops.append(EditOperation("node_insert", None, node, None, s2.labels[j], cost))

    def slot(u: int, v: int) -> tuple[int, int]:
        return (u, v) if directed or u <= v else (v, u)

    slots1: dict[tuple[int, int], list] = {}
    for u, v, t in s1.edges:
        slots1.setdefault(slot(u, v), []).append(t)
    slots2: dict[tuple[int, int], list] = {}
    for u, v, t in s2.edges:
        slots2.setdefault(slot(u, v), []).append(t)
    inverse = {j: i for i, j in node_map.items() if j is not None}
    for (u, v), types in slots1.items():
        mu, mv = node_map.get(u), node_map.get(v)
        other = [] if mu is None or mv is None else slots2.get(slot(mu, mv), [])
        target = None if mu is None or mv is None else (s2.nodes[mu], s2.nodes[mv])
        ops.extend(_slot_operations((s1.nodes[u], s1.nodes[v]), target, types, other))
    for (u, v), types in slots2.items():
        iu, iv = inverse.get(u), inverse.get(v)
        if iu is not None and iv is not None and slot(iu, iv) in slots1:
            continue  # already compared from graph 1's side
        ops.extend(_slot_operations(None, (s2.nodes[u], s2.nodes[v]), [], types))
    return ops


def _slot_operations(item1: Any, item2: Any, types1: list, types2: list) -> list[EditOperation]:
    rest2 = list(types2)
    rest1 = []
    for t in types1:
        if t in rest2:
            rest2.remove(t)
        else:
            rest1.append(t)
    rest1.sort(key=repr)
    rest2.sort(key=repr)
    ops = []
    for a, b in zip(rest1, rest2, strict=False):
        ops.append(EditOperation("edge_retype", item1, item2, a, b))
    for a in rest1[len(rest2) :]:
        ops.append(EditOperation("edge_delete", item1, None, a, None))
    for b in rest2[len(rest1) :]:
        ops.append(EditOperation("edge_insert", None, item2, None, b))
    return ops


def edit_path(
    g1: nx.Graph,
    g2: nx.Graph,
    node_mapping: Any,
    *,
    node_label: str = "label",
    edge_label: str = "type",
    node_subst_cost: NodeSubstCost | None = None,
    node_weight: NodeWeight | None = None,
) -> tuple[float, list[EditOperation]]:
    """Cost and costly operations of the edit path induced by a node mapping.

    Parameters
    ----------
    g1, g2 : networkx graphs (both directed or both undirected)
    node_mapping : iterable of (g1 node or None, g2 node or None)
        Each node of either graph appears at most once; nodes of ``g1`` (``g2``) that do
        not appear are deleted (inserted).
    node_label, edge_label : str
        As in :func:`graph_edit_distance`.
    node_subst_cost : callable or None
        As in :func:`graph_edit_distance`: ``None`` for unit costs, else graded
        substitution costs (quantized the same way).
    node_weight : callable or None
        As in :func:`graph_edit_distance`: node weights (insertion and deletion costs).

    Returns
    -------
    (cost, operations)
        The cost of the edit path and its costly operations (each with its ``cost``; a
        graded relabel costs the quantized substitution cost, a weighted insertion or
        deletion the node's quantized weight, and substitutions costing 0
        are not listed). Computed independently of the search (plain dictionaries), it is
        also a check of ``GEDResult.upper``.

    Raises
    ------
    ValueError
        On mixed directedness, unknown or repeated nodes in the mapping, or a bad cost
        matrix from ``node_subst_cost``.

    Examples
    --------
    >>> import networkx as nx
    >>> g1 = nx.DiGraph([(0, 1)])
    >>> g2 = nx.DiGraph([(0, 1)])
    >>> edit_path(g1, g2, [(0, 1), (1, 0)])[0]
    2.0
    >>> nx.set_node_attributes(g1, {0: "a", 1: "b"}, "label")
    >>> nx.set_node_attributes(g2, {0: "a", 1: "c"}, "label")
    >>> half = lambda l1, l2: 0.5 * (np.array(l1)[:, None] != np.array(l2)[None, :])
    >>> cost, ops = edit_path(g1, g2, [(0, 0), (1, 1)], node_subst_cost=half)
    >>> cost, [(op.kind, op.cost) for op in ops]
    (0.5, [('node_relabel', 0.5)])
    """
    if g1.is_directed() != g2.is_directed():
        raise ValueError("edit_path: both graphs must be directed or both undirected")
    label_vocab: dict[Any, int] = {}
    s1 = Side(g1, node_label, edge_label, label_vocab)
    s2 = Side(g2, node_label, edge_label, label_vocab)
    if node_weight is not None and node_subst_cost is None:
        raise ValueError("node_weight needs node_subst_cost (graded costs)")
    pair_cost = weight = None
    if node_subst_cost is not None:
        costs = label_pair_costs(node_subst_cost, s1, s2, len(label_vocab), node_weight)
        pair_cost = costs.cost
        weight = None if node_weight is None else costs.weight
    node_map: dict[int, int | None] = {}
    seen2: set[int] = set()
    for a, b in node_mapping:
        if a is None:
            continue
        if a not in s1.index or (b is not None and b not in s2.index):
            raise ValueError(f"edit_path: unknown node in the mapping pair {(a, b)!r}")
        j = None if b is None else s2.index[b]
        i = s1.index[a]
        if i in node_map or (j is not None and j in seen2):
            raise ValueError("edit_path: a node appears twice in the mapping")
        node_map[i] = j
        if j is not None:
            seen2.add(j)
    ops = _edit_operations(s1, s2, node_map, g1.is_directed(), pair_cost, weight)
    return float(sum(op.cost for op in ops)), ops
