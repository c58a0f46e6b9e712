"""Tests of graphs.ged: exactness against networkx and brute force, bounds, determinism."""

from __future__ import annotations

import doctest
import importlib
import itertools
import json
import os
import pkgutil
import random
import subprocess
import sys
from collections import Counter

import networkx as nx
import numpy as np
import pytest

import graphs
from graphs import ged
from graphs.ged import EditOperation, edit_path, graph_edit_distance, graph_size
from graphs.ged.encoding import Problem
from graphs.ged.generators import STATEMENTS, mutate_pdg, random_pdg
from graphs.ged.local_search import SwapSearch, _block_terms, _channel_lists

# --------------------------------------------------------------------------------------------
# Helpers: graph generators and an independent cost model
# --------------------------------------------------------------------------------------------


def random_graph(
    rng: random.Random,
    n: int,
    *,
    p: float = 0.3,
    labels: str = "abc",
    types: str = "cd",
    multi: bool = False,
    loops: bool = False,
    directed: bool = True,
) -> nx.Graph:
    if directed:
        g = nx.MultiDiGraph() if multi else nx.DiGraph()
    else:
        g = nx.MultiGraph() if multi else nx.Graph()
    for i in range(n):
        g.add_node(i, label=rng.choice(labels))
    for i, j in itertools.product(range(n), repeat=2):
        if (i == j and not loops) or (not directed and j < i):
            continue
        if rng.random() < p:
            g.add_edge(i, j, type=rng.choice(types))
            if multi and rng.random() < 0.4:
                g.add_edge(i, j, type=rng.choice(types))
    return g


def shuffled_copy(rng: random.Random, g: nx.Graph, rename: bool) -> nx.Graph:
    """Same graph, nodes and edges inserted in another order, optionally with new node ids."""
    nodes = list(g.nodes(data=True))
    rng.shuffle(nodes)
    name = {v: (f"n{rng.random():.12f}" if rename else v) for v, _ in nodes}
    h = g.__class__()
    for v, data in nodes:
        h.add_node(name[v], **data)
    edges = list(g.edges(data=True))
    rng.shuffle(edges)
    for u, v, data in edges:
        h.add_edge(name[u], name[v], **data)
    return h


def slots(g: nx.Graph) -> dict:
    """Edge-type multisets per ordered (or, undirected, unordered) node pair."""
    out: dict = {}
    for u, v, t in g.edges(data="type"):
        key = (u, v) if g.is_directed() else frozenset((u, v))
        out.setdefault(key, Counter())[t] += 1
    return out


def reference_cost(g1: nx.Graph, g2: nx.Graph, mapping: dict, subst=None) -> float:
    """Cost of the edit path of ``mapping`` (g1 node -> g2 node or None), from scratch.

    ``subst(label1, label2)``: the substitution cost (default: unit costs).
    """
    cost = 0
    image = {b for b in mapping.values() if b is not None}
    for a in g1:
        b = mapping.get(a)
        if b is None:
            cost += 1
        elif subst is not None:
            cost += subst(g1.nodes[a].get("label"), g2.nodes[b].get("label"))
        elif g1.nodes[a].get("label") != g2.nodes[b].get("label"):
            cost += 1
    cost += sum(1 for b in g2 if b not in image)
    s1, s2 = slots(g1), slots(g2)
    seen = set()
    for key, types in s1.items():
        ends = tuple(key) if g1.is_directed() else tuple(key) * (2 if len(key) == 1 else 1)
        a, b = ends[0], ends[-1]
        ma, mb = mapping.get(a), mapping.get(b)
        other: Counter = Counter()
        if ma is not None and mb is not None:
            k2 = (ma, mb) if g2.is_directed() else frozenset((ma, mb))
            other = s2.get(k2, Counter())
            seen.add(k2)
        common = sum((types & other).values())
        cost += max(sum(types.values()), sum(other.values())) - common
    for key, types in s2.items():
        if key not in seen:
            cost += sum(types.values())
    return cost


def brute_force_ged(g1: nx.Graph, g2: nx.Graph, subst=None) -> float:
    """Minimum over every partial injective node map (deletions and insertions included)."""
    nodes1, nodes2 = list(g1), list(g2)
    best = None
    for choice in itertools.product([None, *nodes2], repeat=len(nodes1)):
        used = [b for b in choice if b is not None]
        if len(used) != len(set(used)):
            continue
        cost = reference_cost(g1, g2, dict(zip(nodes1, choice, strict=True)), subst)
        best = cost if best is None else min(best, cost)
    return best if best is not None else len(nodes2) + g2.number_of_edges()


def networkx_ged(g1: nx.Graph, g2: nx.Graph) -> float:
    return nx.graph_edit_distance(
        g1,
        g2,
        node_subst_cost=lambda a, b: 0 if a.get("label") == b.get("label") else 1,
        node_del_cost=lambda a: 1,
        node_ins_cost=lambda a: 1,
        edge_subst_cost=lambda a, b: 0 if a.get("type") == b.get("type") else 1,
        edge_del_cost=lambda a: 1,
        edge_ins_cost=lambda a: 1,
    )


def check_result(g1: nx.Graph, g2: nx.Graph, r: ged.GEDResult) -> None:
    """Invariants every result must satisfy."""
    assert r.lower <= r.distance <= r.upper
    assert r.distance == r.upper
    assert r.node_cost + r.edge_cost == r.upper
    assert 0 <= r.distance <= graph_size(g1) + graph_size(g2)
    mapping = {a: b for a, b in r.node_mapping if a is not None}
    assert set(mapping) == set(g1.nodes)
    images = [b for _, b in r.node_mapping if b is not None]
    assert sorted(map(repr, images)) == sorted(map(repr, g2.nodes))
    # The reported upper bound is the cost of its own mapping, checked independently.
    assert reference_cost(g1, g2, mapping) == r.upper
    assert edit_path(g1, g2, r.node_mapping)[0] == r.upper
    if r.exact:
        assert r.lower == r.distance


# --------------------------------------------------------------------------------------------
# Exactness
# --------------------------------------------------------------------------------------------


def test_matches_networkx_on_random_digraphs():
    # networkx's exact search is slow beyond 6 nodes: most pairs are small, a few reach 7.
    # No self-loops here: networkx mishandles them (networkx issue #8188); the brute-force
    # test below covers loops.
    rng = random.Random(20240601)
    sizes = [(rng.randint(0, 5), rng.randint(0, 5)) for _ in range(130)]
    sizes += [(6, rng.randint(3, 6)) for _ in range(20)] + [(7, 5), (5, 7), (7, 6)]
    methods = Counter()
    for n1, n2 in sizes:
        p = 0.3 if max(n1, n2) <= 5 else 0.2
        g1 = random_graph(rng, n1, p=p)
        g2 = random_graph(rng, n2, p=p)
        expected = networkx_ged(g1, g2)
        r = graph_edit_distance(g1, g2)
        assert r.exact
        assert r.distance == expected, (n1, n2, r)
        check_result(g1, g2, r)
        methods[r.method] += 1
        plain = graph_edit_distance(g1, g2, max_swaps=0, fixed_point_iterations=0)
        assert plain.exact and plain.distance == expected
        # Without the exact search the bounds must still contain the true distance.
        approx = graph_edit_distance(g1, g2, exact_max_nodes=0)
        assert approx.lower <= expected <= approx.upper
        check_result(g1, g2, approx)
    assert methods["exact"] > 10 and methods["bipartite"] > 10


@pytest.mark.parametrize("directed", [True, False])
def test_matches_brute_force_on_multigraphs_with_loops(directed):
    rng = random.Random(7 if directed else 8)
    for _ in range(70):
        g1 = random_graph(rng, rng.randint(0, 4), p=0.45, multi=True, loops=True, directed=directed)
        g2 = random_graph(rng, rng.randint(0, 4), p=0.45, multi=True, loops=True, directed=directed)
        expected = brute_force_ged(g1, g2)
        r = graph_edit_distance(g1, g2)
        assert r.exact and r.distance == expected
        check_result(g1, g2, r)
        # A poor starting bound leaves more of the work to the branch and bound.
        r = graph_edit_distance(g1, g2, max_swaps=0, fixed_point_iterations=0)
        assert r.exact and r.distance == expected
        approx = graph_edit_distance(g1, g2, exact_max_nodes=0, max_swaps=0)
        assert approx.lower <= expected <= approx.upper


def test_exact_search_beats_or_equals_bipartite_on_harder_graphs():
    rng = random.Random(99)
    for _ in range(12):
        g1 = random_graph(rng, 9, p=0.35, labels="ab")
        g2 = random_graph(rng, 9, p=0.35, labels="ab")
        exact = graph_edit_distance(g1, g2)
        approx = graph_edit_distance(g1, g2, exact_max_nodes=0)
        assert exact.exact
        assert approx.lower <= exact.distance <= approx.upper
        check_result(g1, g2, exact)
    assert graph_edit_distance(g2, g1).distance == exact.distance  # symmetric when exact


def test_budget_exhaustion_is_reported_not_hidden():
    rng = random.Random(5)
    g1 = random_graph(rng, 10, p=0.4, labels="a")
    g2 = random_graph(rng, 10, p=0.4, labels="a")
    r = graph_edit_distance(g1, g2, exact_max_expansions=3)
    assert r.method in ("truncated", "bipartite")
    if r.method == "truncated":
        assert not r.exact or r.lower == r.upper
    check_result(g1, g2, r)
    full = graph_edit_distance(g1, g2)
    assert full.exact and r.lower <= full.distance <= r.distance


# --------------------------------------------------------------------------------------------
# Bounds on larger graphs
# --------------------------------------------------------------------------------------------


def test_bounds_hold_on_larger_graphs():
    rng = random.Random(31337)
    for n in (20, 30, 45, 60):
        for k in range(6):
            if k < 2:
                g1 = random_pdg(rng, n)
                g2 = mutate_pdg(rng, g1, n // 4)
            elif k < 4:
                g1 = random_pdg(rng, n, STATEMENTS[:6])
                g2 = random_pdg(rng, n - rng.randint(0, 8), STATEMENTS[:6])
            else:
                g1 = random_graph(rng, n, p=0.1, multi=True, loops=True)
                g2 = random_graph(rng, n - rng.randint(0, 8), p=0.1, multi=True, loops=True)
            r = graph_edit_distance(g1, g2, operations=True)
            assert r.method == "bipartite"
            check_result(g1, g2, r)
            assert sum(op.cost for op in r.operations) == r.upper
            # Never worse than the plain bipartite edit path.
            plain = graph_edit_distance(g1, g2, max_swaps=0, fixed_point_iterations=0)
            check_result(g1, g2, plain)
            assert r.upper <= plain.upper and r.lower == plain.lower


def test_lower_bound_is_at_least_the_label_and_type_counts():
    g1 = nx.DiGraph()
    g1.add_nodes_from([(i, {"label": "a"}) for i in range(4)])
    g1.add_edges_from([(0, 1), (1, 2), (2, 3)], type="data")
    g2 = nx.DiGraph()
    g2.add_nodes_from([(i, {"label": "b"}) for i in range(6)])
    r = graph_edit_distance(g1, g2, exact_max_nodes=0)
    # 4 relabels + 2 insertions, 3 edge deletions: every bound sees it.
    assert r.lower == r.distance == 9 and r.exact


# --------------------------------------------------------------------------------------------
# Identity, emptiness, hand-worked multigraph cases
# --------------------------------------------------------------------------------------------


def test_identical_and_isomorphic_graphs_score_zero():
    rng = random.Random(4)
    for n in (1, 5, 12, 25, 40, 60):
        for g in (random_pdg(rng, n), random_pdg(rng, n, STATEMENTS[:3])):
            assert graph_edit_distance(g, g).distance == 0
            for rename in (False, True):
                h = shuffled_copy(rng, g, rename=rename)
                r = graph_edit_distance(g, h)
                assert r.distance == 0 and r.exact and r.lower == 0
                check_result(g, h, r)
                assert reference_cost(g, h, dict(r.node_mapping)) == 0


def test_empty_graphs():
    empty = nx.MultiDiGraph()
    assert graph_edit_distance(empty, empty).distance == 0
    rng = random.Random(1)
    for n in (1, 4, 30):
        g = random_pdg(rng, n)
        for a, b in ((g, empty), (empty, g)):
            r = graph_edit_distance(a, b, operations=True)
            assert r.distance == graph_size(g) and r.exact and r.method == "trivial"
            check_result(a, b, r)
            assert len(r.operations) == graph_size(g)


def typed_pair(types1, types2, *, multi=True, loops=False):
    cls = nx.MultiDiGraph if multi else nx.DiGraph
    g1, g2 = cls(), cls()
    for g, types in ((g1, types1), (g2, types2)):
        g.add_node("u", label="x = 1")
        g.add_node("v", label="return x")
        for t in types:
            if loops:
                g.add_edge("u", "u", type=t)
            else:
                g.add_edge("u", "v", type=t)
    return g1, g2


@pytest.mark.parametrize(
    ("types1", "types2", "expected"),
    [
        (["control", "data"], ["data"], 1),  # delete the control edge
        (["control"], ["data"], 1),  # retype
        (["control", "data"], ["data", "data"], 1),  # max(2, 2) - |{data}|
        (["control", "control", "data"], ["data"], 2),  # max(3, 1) - 1
        (["data", "data"], ["data"], 1),
        ([], ["control", "data"], 2),
        (["control", "data"], ["data", "control"], 0),
    ],
)
@pytest.mark.parametrize("loops", [False, True])
def test_multigraph_edge_retype_worked_by_hand(types1, types2, expected, loops):
    g1, g2 = typed_pair(types1, types2, loops=loops)
    r = graph_edit_distance(g1, g2, operations=True)
    assert r.distance == expected and r.exact
    assert dict(r.node_mapping) == {"u": "u", "v": "v"}
    check_result(g1, g2, r)


def test_operations_describe_the_edit_path():
    g1, g2 = typed_pair(["control", "data"], ["data", "data"])
    g2.add_node("w", label="print(x)")
    g2.add_edge("v", "w", type="control")
    r = graph_edit_distance(g1, g2, operations=True)
    assert r.distance == 3
    assert sorted(r.operations) == sorted(
        [
            EditOperation("edge_retype", ("u", "v"), ("u", "v"), "control", "data"),
            EditOperation("node_insert", None, "w", None, "print(x)"),
            EditOperation("edge_insert", None, ("v", "w"), None, "control"),
        ]
    )
    cost, ops = edit_path(g1, g2, r.node_mapping)
    assert cost == 3 and sorted(ops) == sorted(r.operations)


def test_direction_matters_and_undirected_graphs_do_not_care():
    d1 = nx.DiGraph()
    d1.add_node(0, label="a")
    d1.add_node(1, label="b")
    d2 = d1.copy()
    d1.add_edge(0, 1, type="data")
    d2.add_edge(1, 0, type="data")
    assert graph_edit_distance(d1, d2).distance == 2
    u1, u2 = d1.to_undirected(), d2.to_undirected()
    assert graph_edit_distance(u1, u2).distance == 0
    with pytest.raises(ValueError, match="directed"):
        graph_edit_distance(d1, u2)


def test_missing_and_unhashable_attributes():
    g1 = nx.DiGraph([(0, 1)])
    g2 = nx.DiGraph([(0, 1)])
    assert graph_edit_distance(g1, g2).distance == 0  # no labels, no types: all equal
    g2.nodes[0]["label"] = ["not", "hashable"]
    g2.edges[0, 1]["type"] = "data"
    r = graph_edit_distance(g1, g2)
    assert r.distance == 2 and r.exact


# --------------------------------------------------------------------------------------------
# Determinism and API details
# --------------------------------------------------------------------------------------------


def test_same_result_whatever_the_insertion_order():
    rng = random.Random(11)
    for n in (8, 20, 40):
        g1 = random_pdg(rng, n, STATEMENTS[:5])
        g2 = random_pdg(rng, n - 2, STATEMENTS[:5])
        r = graph_edit_distance(g1, g2)
        for _ in range(3):
            s1 = shuffled_copy(rng, g1, rename=False)
            s2 = shuffled_copy(rng, g2, rename=False)
            assert graph_edit_distance(s1, s2) == r


_SUBPROCESS = """
import json, random
from graphs.ged.generators import random_pdg, STATEMENTS
import networkx as nx
from graphs.ged import graph_edit_distance
rng = random.Random(3)
out = []
for n in (9, 25, 50):
    g1 = nx.relabel_nodes(random_pdg(rng, n, STATEMENTS[:6]), lambda v: f"a{{v}}")
    g2 = nx.relabel_nodes(random_pdg(rng, n - 3, STATEMENTS[:6]), lambda v: f"b{{v}}")
    r = graph_edit_distance(g1, g2)
    out.append([r.distance, r.lower, r.method, [list(p) for p in r.node_mapping]])
print(json.dumps(out))
"""


def test_same_result_in_other_processes_and_hash_seeds():
    code = _SUBPROCESS.format()
    outputs = set()
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert len(json.loads(outputs.pop())) == 3


def test_node_mapping_order_is_canonical_and_flipped_back():
    g1 = nx.DiGraph()
    g1.add_nodes_from([("z", {"label": "a"}), ("y", {"label": "b"}), ("x", {"label": "c"})])
    g2 = nx.DiGraph()
    g2.add_nodes_from([(2, {"label": "c"}), (1, {"label": "a"})])
    r = graph_edit_distance(g1, g2)  # g1 larger: searched the other way round
    assert r.node_mapping == (("x", 2), ("y", None), ("z", 1))  # sorted by id
    r = graph_edit_distance(g2, g1)
    assert r.node_mapping == ((1, "z"), (2, "x"), (None, "y"))
    g2.add_node("mixed", label="b")  # ids no longer comparable: canonical order instead
    r = graph_edit_distance(g2, g1)
    assert r.node_mapping == ((1, "z"), ("mixed", "y"), (2, "x"))


def test_swap_deltas_match_recomputed_costs():
    rng = random.Random(2)
    nprng = np.random.default_rng(2)
    for trial in range(12):
        directed = trial % 3 != 0
        g1 = random_graph(rng, rng.randint(2, 8), p=0.4, multi=True, loops=True, directed=directed)
        g2 = random_graph(rng, rng.randint(2, 8), p=0.4, multi=True, loops=True, directed=directed)
        problem = Problem(g1, g2, "label", "type")
        search = SwapSearch(problem)
        perm = nprng.permutation(problem.size)
        base = sum(problem.cost(perm))
        deltas = search.deltas(perm)
        for r, s in itertools.combinations(range(problem.size), 2):
            swapped = perm.copy()
            swapped[[r, s]] = swapped[[s, r]]
            assert sum(problem.cost(swapped)) - base == deltas[r, s]


def test_edit_path_validation_and_graph_size():
    g = nx.MultiDiGraph()
    g.add_edge(0, 1, type="control")
    g.add_edge(0, 1, type="data")
    assert graph_size(g) == 4
    with pytest.raises(ValueError, match="twice"):
        edit_path(g, g, [(0, 0), (1, 0)])
    with pytest.raises(ValueError, match="unknown"):
        edit_path(g, g, [(0, 7)])
    assert edit_path(g, g, [])[0] == 2 * graph_size(g)


def test_package_exports_and_docstring_examples():
    assert graphs.graph_edit_distance is graph_edit_distance
    assert graphs.graph_size is graph_size
    failures = tried = 0
    for info in pkgutil.iter_modules(ged.__path__, prefix="graphs.ged."):
        result = doctest.testmod(importlib.import_module(info.name), verbose=False)
        failures, tried = failures + result.failed, tried + result.attempted
    assert tried >= 3 and failures == 0


def test_same_object_is_distance_zero_without_search():
    g = nx.MultiDiGraph()
    g.add_node(0, label="entry")
    g.add_node(1, label="x = 1")
    g.add_node(2, label="return x")
    g.add_edge(0, 1, type="control")
    g.add_edge(0, 2, type="control")
    g.add_edge(1, 2, type="data")
    fast = graph_edit_distance(g, g)
    full = graph_edit_distance(g, g.copy())
    assert (fast.distance, fast.lower, fast.upper, fast.exact) == (0.0, 0.0, 0.0, True)
    assert fast.method == "identical"
    assert fast.node_mapping == full.node_mapping == ((0, 0), (1, 1), (2, 2))


def test_equal_graphs_in_node_order_skip_the_search():
    # Two PDGs of code that differs only in layout or local names: equal labels and edges
    # when nodes are paired in sorted order, so the O(V + E) check proves distance 0.
    g = nx.MultiDiGraph()
    for v, label in enumerate(("entry", "int v0 = 0", "v0++", "return v0")):
        g.add_node(v, label=label)
    for u, v, t in ((0, 1, "control"), (0, 2, "control"), (0, 3, "control"),
                    (1, 2, "data"), (2, 3, "data"), (1, 3, "data")):
        g.add_edge(u, v, type=t)
    h = nx.MultiDiGraph()
    h.add_nodes_from((v + 10, d) for v, d in reversed(list(g.nodes(data=True))))
    h.add_edges_from((u + 10, v + 10, d) for u, v, d in reversed(list(g.edges(data=True))))
    r = graph_edit_distance(g, h)
    assert (r.distance, r.lower, r.exact, r.method) == (0.0, 0.0, True, "identical")
    assert r.node_mapping == ((0, 10), (1, 11), (2, 12), (3, 13))
    assert nx.graph_edit_distance(g, h, node_match=same_label, edge_match=same_types) == 0
    # one edge type differs: the check fails and the search finds the one substitution
    h.remove_edge(11, 13)
    h.add_edge(11, 13, type="control")
    r = graph_edit_distance(g, h)
    assert r.method != "identical" and r.distance == 1 and r.exact
    # the same graphs in another node order are equal, but not position by position
    k = nx.relabel_nodes(g, {0: 0, 1: 2, 2: 1, 3: 3})
    r = graph_edit_distance(g, k)
    assert r.method != "identical" and r.distance == 0 and r.exact


def same_label(a: dict, b: dict) -> bool:
    return a["label"] == b["label"]


def same_types(a: dict, b: dict) -> bool:
    return a["type"] == b["type"]


class _TaggedMultiDiGraph(nx.MultiDiGraph):
    """A subclass: read through the public views, not the plain classes' adjacency dicts."""


def test_views_and_subclasses_read_like_plain_graphs():
    rng = random.Random(11)
    for trial in range(8):
        multi = trial % 2 == 0
        g1 = random_graph(rng, rng.randint(3, 9), p=0.35, multi=multi, loops=True)
        g2 = random_graph(rng, rng.randint(3, 9), p=0.35, multi=multi, loops=True)
        expected = graph_edit_distance(g1, g2, operations=True)
        view = nx.subgraph_view(g1, filter_node=lambda v: True)  # filtered adjacency dicts
        assert graph_edit_distance(view, g2, operations=True) == expected
        if multi:
            tagged = _TaggedMultiDiGraph(g1)
            assert graph_edit_distance(tagged, g2, operations=True) == expected
        if trial < 2:  # equal up to node ids: the equality shortcut reads the same items
            renamed = nx.relabel_nodes(g1, {v: v + 100 for v in g1})
            assert graph_edit_distance(g1, renamed).method == "identical"


def test_sparse_channels_match_the_dense_definition():
    # Reference: dense binary channels [count >= level], slot totals first, then each type.
    rng = random.Random(4)
    for trial in range(10):
        directed = trial % 3 != 0
        g1 = random_graph(rng, rng.randint(1, 7), p=0.5, multi=True, loops=True, directed=directed)
        g2 = random_graph(rng, rng.randint(1, 7), p=0.5, multi=True, loops=True, directed=directed)
        p = Problem(g1, g2, "label", "type")
        sources = [(p.rows.slots, p.cols.slots)]
        sources += [(p.rows.adj[t], p.cols.adj[t]) for t in range(p.n_types)]
        f1, f2 = [], []
        for x, y in sources:
            for level in range(1, min(x.max(initial=0), y.max(initial=0)) + 1):
                f1.append(x >= level)
                f2.append(y >= level)
        f_lists, g_lists = _channel_lists(p.rows.slots, p.rows.adj, p.cols.slots, p.cols.adj)
        for dense, (ptr, src, dst) in ((f1, f_lists), (f2, g_lists)):
            assert len(ptr) == len(dense) + 1
            for c, channel in enumerate(dense):
                rows, cols = np.nonzero(channel)  # row-major, like the lists
                assert np.array_equal(src[ptr[c] : ptr[c + 1]], rows)
                assert np.array_equal(dst[ptr[c] : ptr[c + 1]], cols)
        block = _block_terms(*f_lists, p.size)
        for c, channel in enumerate(np.array(f1, dtype=float).reshape(-1, p.size, p.size)):
            diag = np.diag(channel)
            assert (block[c] == diag[:, None] + diag[None, :] - channel - channel.T).all()


# --------------------------------------------------------------------------------------------
# Graded node substitution costs
# --------------------------------------------------------------------------------------------


class LabelCosts:
    """A random symmetric substitution cost table over labels (0 on the diagonal), usable as
    ``node_subst_cost`` and, quantized as documented, as the brute force's reference."""

    def __init__(self, rng: random.Random, labels: str, *, grid_only: bool = False) -> None:
        self.table: dict = {}
        for a, b in itertools.combinations_with_replacement(labels, 2):
            c = rng.random()
            if grid_only:  # coarse costs: exercises the coarser rounding grid
                c = rng.choice([0.25, 0.5, 0.75, 1.0])
            if a == b:
                c = 0.0
            self.table[a, b] = self.table[b, a] = c
        self.calls = 0

    def __call__(self, labels1: list, labels2: list) -> np.ndarray:
        self.calls += 1
        assert len(set(labels1)) == len(labels1) and len(set(labels2)) == len(labels2)
        return np.array([[self.table[a, b] for b in labels2] for a in labels1])

    def quantized(self, a, b) -> float:
        c = self.table[a, b]
        return (max(round(c * 64), 1) if c > 0 else 0) / 64  # a positive cost: >= 1/64


def unit_callable(labels1: list, labels2: list) -> np.ndarray:
    return (np.array(labels1, dtype=object)[:, None] != np.array(labels2, dtype=object)).astype(
        float
    )


def check_graded(g1: nx.Graph, g2: nx.Graph, r: ged.GEDResult, costs: LabelCosts) -> None:
    """The invariants of check_result, under the graded (quantized) cost model."""
    assert r.lower <= r.distance == r.upper
    assert r.node_cost + r.edge_cost == r.upper
    assert 0 <= r.distance <= graph_size(g1) + graph_size(g2)
    mapping = {a: b for a, b in r.node_mapping if a is not None}
    assert set(mapping) == set(g1.nodes)
    assert reference_cost(g1, g2, mapping, costs.quantized) == r.upper
    assert edit_path(g1, g2, r.node_mapping, node_subst_cost=costs)[0] == r.upper
    if r.exact:
        assert r.lower == r.distance
    # On the grid: the quantized costs and integral edge costs make a multiple of 1/64.
    assert (r.distance * 64).is_integer() and (r.lower * 64).is_integer()


@pytest.mark.parametrize("directed", [True, False])
def test_graded_costs_match_brute_force(directed):
    rng = random.Random(40 if directed else 41)
    methods: Counter = Counter()
    for trial in range(60):
        costs = LabelCosts(rng, "abcd", grid_only=trial % 5 == 4)
        n1 = rng.randint(0, 5 if trial % 4 == 0 else 4)
        n2 = rng.randint(0, 4)
        g1 = random_graph(rng, n1, p=0.45, labels="abcd", multi=True, loops=True, directed=directed)
        g2 = random_graph(rng, n2, p=0.45, labels="abcd", multi=True, loops=True, directed=directed)
        expected = brute_force_ged(g1, g2, costs.quantized)
        r = graph_edit_distance(g1, g2, node_subst_cost=costs)
        assert r.exact and r.distance == expected, (trial, r, expected)
        check_graded(g1, g2, r, costs)
        methods[r.method] += 1
        # A poor starting bound leaves the work to the branch and bound and its bounds.
        plain = graph_edit_distance(
            g1, g2, node_subst_cost=costs, max_swaps=0, fixed_point_iterations=0
        )
        assert plain.exact and plain.distance == expected
        for kwargs in ({"exact_max_nodes": 0}, {"exact_max_nodes": 0, "max_swaps": 0}):
            approx = graph_edit_distance(g1, g2, node_subst_cost=costs, **kwargs)
            assert approx.lower <= expected <= approx.upper
            check_graded(g1, g2, approx, costs)
        # The symmetric cost table makes the GED symmetric.
        assert graph_edit_distance(g2, g1, node_subst_cost=costs).distance == expected
    assert methods["exact"] >= 3 and methods["bipartite"] >= 3


def test_graded_exact_search_on_harder_graphs():
    rng = random.Random(42)
    for trial in range(8):
        costs = LabelCosts(rng, "abc")
        g1 = random_graph(rng, 8, p=0.35, labels="abc")
        g2 = random_graph(rng, 7 + trial % 2, p=0.35, labels="abc")
        exact = graph_edit_distance(g1, g2, node_subst_cost=costs)
        approx = graph_edit_distance(g1, g2, node_subst_cost=costs, exact_max_nodes=0)
        assert exact.exact
        assert approx.lower <= exact.distance <= approx.upper
        check_graded(g1, g2, exact, costs)
        check_graded(g1, g2, approx, costs)
        if trial < 2:  # brute force on fewer nodes (it enumerates every partial map)
            h1, h2 = g1.subgraph(range(6)).copy(), g2.subgraph(range(5)).copy()
            small = graph_edit_distance(h1, h2, node_subst_cost=costs)
            assert small.exact and small.distance == brute_force_ged(h1, h2, costs.quantized)


def test_graded_bounds_hold_on_larger_graphs():
    rng = random.Random(43)
    labels = STATEMENTS[:8]
    costs = LabelCosts(rng, [*labels, "entry"])
    for n in (20, 45):
        for k in range(4):
            g1 = random_pdg(rng, n, labels)
            g2 = mutate_pdg(rng, g1, n // 4) if k < 2 else random_pdg(rng, n - k, labels)
            for g in (g1, g2):  # mutate_pdg may draw labels outside the table
                for v, lab in g.nodes(data="label"):
                    if lab not in labels and lab != "entry":
                        g.nodes[v]["label"] = labels[hash(lab) % len(labels)]
            r = graph_edit_distance(g1, g2, node_subst_cost=costs, operations=True)
            check_graded(g1, g2, r, costs)
            assert sum(op.cost for op in r.operations) == r.upper
            plain = graph_edit_distance(
                g1, g2, node_subst_cost=costs, max_swaps=0, fixed_point_iterations=0
            )
            assert r.upper <= plain.upper and r.lower == plain.lower


def test_graded_operations_carry_their_real_cost():
    g1 = nx.MultiDiGraph()
    g1.add_node(0, label="x = 1")
    g1.add_node(1, label="return x")
    g1.add_node(2, label="print(x)")
    g1.add_edge(0, 1, type="data")
    g1.add_edge(0, 2, type="data")
    g2 = nx.MultiDiGraph()
    g2.add_node("a", label="x = 2")
    g2.add_node("b", label="return x")
    g2.add_edge("a", "b", type="data")
    table = {("x = 1", "x = 2"): 0.3, ("print(x)", "x = 2"): 0.9}

    def cost(labels1, labels2):
        return np.array(
            [[0.0 if a == b else table.get((a, b), 1.0) for b in labels2] for a in labels1]
        )

    r = graph_edit_distance(g1, g2, node_subst_cost=cost, operations=True)
    relabel = [op for op in r.operations if op.kind == "node_relabel"]
    # 0.3 rounds to 19/64; then print(x) is deleted with its edge.
    assert relabel == [EditOperation("node_relabel", 0, "a", "x = 1", "x = 2", 19 / 64)]
    assert r.exact and r.distance == 19 / 64 + 2
    assert sum(op.cost for op in r.operations) == r.distance
    assert {op.kind for op in r.operations} == {"node_relabel", "node_delete", "edge_delete"}
    path = edit_path(g1, g2, r.node_mapping, node_subst_cost=cost)
    assert path == (r.distance, list(r.operations))
    # A zero-cost substitution between different labels is not a costly operation; a tiny
    # positive one costs the grid's smallest step, 1/64 (different is never free).
    free = graph_edit_distance(g1, g2, node_subst_cost=lambda a, b: cost(a, b) * 0.0)
    assert free.distance == 2 and free.exact
    tiny = graph_edit_distance(g1, g2, node_subst_cost=lambda a, b: cost(a, b) * 0.001)
    assert tiny.distance == 2 + 1 / 64 and tiny.exact


def test_graded_costs_are_deterministic_and_id_independent():
    rng = random.Random(44)
    for n, m in ((6, 5), (9, 9), (25, 22), (50, 47)):
        costs = LabelCosts(rng, [*STATEMENTS[:6], "entry"])
        g1 = random_pdg(rng, n, STATEMENTS[:6])
        g2 = random_pdg(rng, m, STATEMENTS[:6])
        r = graph_edit_distance(g1, g2, node_subst_cost=costs)
        assert graph_edit_distance(g1, g2, node_subst_cost=costs) == r
        for _ in range(2):
            s1 = shuffled_copy(rng, g1, rename=False)
            s2 = shuffled_copy(rng, g2, rename=False)
            assert graph_edit_distance(s1, s2, node_subst_cost=costs) == r
            if r.exact:  # other node ids may break ties differently, never the optimum
                h1 = shuffled_copy(rng, g1, rename=True)
                h2 = shuffled_copy(rng, g2, rename=True)
                renamed = graph_edit_distance(h1, h2, node_subst_cost=costs)
                assert renamed.distance == r.distance and renamed.exact


def test_graded_cost_function_is_called_once_on_distinct_labels():
    rng = random.Random(45)
    costs = LabelCosts(rng, [*STATEMENTS[:5], "entry"])
    g1 = random_pdg(rng, 30, STATEMENTS[:5])
    g2 = random_pdg(rng, 12, STATEMENTS[:5])
    graph_edit_distance(g1, g2, node_subst_cost=costs)
    assert costs.calls == 1
    # Equal graphs and empty sides need no substitution cost at all.
    graph_edit_distance(g1, g1.copy(), node_subst_cost=costs)
    r = graph_edit_distance(nx.MultiDiGraph(), g2, node_subst_cost=costs)
    assert costs.calls == 1 and r.distance == graph_size(g2) and r.method == "trivial"


def test_unit_costs_from_a_callable_equal_the_default():
    rng = random.Random(46)
    for n in (4, 7, 10, 20, 40, 80):
        for k in range(3):
            if k == 0:
                g1 = random_pdg(rng, n)
                g2 = mutate_pdg(rng, g1, max(1, n // 5))
            else:
                g1 = random_pdg(rng, n, STATEMENTS[:6])
                g2 = random_pdg(rng, n - k, STATEMENTS[:6])
            unit = graph_edit_distance(g1, g2, operations=True)
            same = graph_edit_distance(g1, g2, node_subst_cost=unit_callable, operations=True)
            assert same.distance == unit.distance and same.lower == unit.lower
            assert same.exact == unit.exact and same.method == unit.method
            assert same.node_mapping == unit.node_mapping
            assert same.operations == unit.operations


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (lambda a, b: np.zeros((len(a), len(b) + 1)), "shape"),
        (lambda a, b: np.zeros(len(a) * len(b)), "shape"),
        (lambda a, b: np.full((len(a), len(b)), np.nan), "non-finite"),
        (lambda a, b: np.full((len(a), len(b)), np.inf), "non-finite"),
        (lambda a, b: np.full((len(a), len(b)), -0.5), r"\[0, 1\]"),
        (lambda a, b: np.full((len(a), len(b)), 1.5), r"\[0, 1\]"),
        (lambda a, b: np.full((len(a), len(b)), 0.5), "equal labels"),
        (lambda a, b: [["x"] * len(b)] * len(a), "numeric"),
    ],
)
def test_bad_cost_matrices_raise(bad, message):
    g1 = nx.DiGraph()
    g1.add_nodes_from([(0, {"label": "a"}), (1, {"label": "b"})])
    g1.add_edge(0, 1, type="data")
    g2 = nx.DiGraph()
    g2.add_nodes_from([(0, {"label": "a"}), (1, {"label": "c"}), (2, {"label": "c"})])
    with pytest.raises(ValueError, match=message):
        graph_edit_distance(g1, g2, node_subst_cost=bad)
    with pytest.raises(ValueError, match=message):
        edit_path(g1, g2, [(0, 0)], node_subst_cost=bad)


def test_graded_swap_deltas_match_recomputed_costs():
    rng = random.Random(47)
    nprng = np.random.default_rng(47)
    for trial in range(8):
        directed = trial % 3 != 0
        costs = LabelCosts(rng, "abc")
        g1 = random_graph(rng, rng.randint(2, 8), p=0.4, multi=True, loops=True, directed=directed)
        g2 = random_graph(rng, rng.randint(2, 8), p=0.4, multi=True, loops=True, directed=directed)
        problem = Problem(g1, g2, "label", "type", node_subst_cost=costs)
        search = SwapSearch(problem)
        perm = nprng.permutation(problem.size)
        base = sum(problem.cost(perm))
        deltas = search.deltas(perm)
        for r, s in itertools.combinations(range(problem.size), 2):
            swapped = perm.copy()
            swapped[[r, s]] = swapped[[s, r]]
            assert sum(problem.cost(swapped)) - base == deltas[r, s]


def test_graded_budget_exhaustion_keeps_valid_bounds():
    rng = random.Random(48)
    for _ in range(4):
        costs = LabelCosts(rng, "ab")
        g1 = random_graph(rng, 10, p=0.4, labels="ab")
        g2 = random_graph(rng, 9, p=0.4, labels="ab")
        r = graph_edit_distance(g1, g2, node_subst_cost=costs, exact_max_expansions=3)
        check_graded(g1, g2, r, costs)
        full = graph_edit_distance(g1, g2, node_subst_cost=costs, exact_max_expansions=10**6)
        assert full.exact and r.lower <= full.distance <= r.distance
        check_graded(g1, g2, full, costs)
