"""The weighted GED engine (GRS v3) stays honest: exact = brute force, lower <= exact <= upper,
and the score built on it is symmetric at beta = 1, 1.0 exactly for equal graphs, in [0, 1].

Brute force enumerates every partial injective node mapping and prices it with
:func:`graphs.ged.edit_path`, which walks plain dictionaries (no search, no padding, no
bounds): the independent implementation the search is checked against.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphs.ged import edit_path, graph_edit_distance, graph_size
from ruby_metric.scoring.grs_cost import GRSCostModel, recall_weighted_score

LABELS = ["v0 = 1", "v0 = 2", "return v0", "return v1", "if (v0 > 0)", "v1 += v0[v2]", "f(v0)",
          "int f(int)", "x"]
TYPES = ["data", "control", "control:true", "effect"]
PROPERTY = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def random_graph(rng: random.Random, n: int, labels: list[str]) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    for v in range(n):
        g.add_node(v, label=rng.choice(labels))
    for _ in range(rng.randint(0, 2 * n)):
        if n:
            g.add_edge(rng.randrange(n), rng.randrange(n), dep=rng.choice(TYPES))
    return g


def brute_force(g1, g2, **costs) -> float:
    """Minimum edit path cost over every partial injective mapping of g1 into g2."""
    nodes1, nodes2 = list(g1.nodes), list(g2.nodes)
    best = float("inf")
    for k in range(min(len(nodes1), len(nodes2)) + 1):
        for chosen in itertools.combinations(nodes1, k):
            for image in itertools.permutations(nodes2, k):
                mapping = dict(zip(chosen, image, strict=True))
                pairs = [(a, mapping.get(a)) for a in nodes1]
                cost, _ = edit_path(g1, g2, pairs, edge_label="dep", **costs)
                best = min(best, cost)
    return best


class RandomCosts:
    """Weights and substitution costs drawn per label pair (deterministic per seed).

    ``mass``: substitutions cost at least the difference of the weights (GRS's model);
    otherwise anything in [0, w1 + w2].
    """

    def __init__(self, seed: int, mass: bool) -> None:
        rng = random.Random(seed)
        self.weights = {lab: rng.choice([0.5, 1.0, 1.25, 2.0, 3.0, 5.0]) for lab in LABELS}
        self.pairs = {}
        for a in LABELS:
            for b in LABELS:
                wa, wb = self.weights[a], self.weights[b]
                low = abs(wa - wb) if mass else 0.0
                self.pairs[a, b] = 0.0 if a == b else rng.uniform(low, wa + wb)

    def node_weight(self, labels):
        return [self.weights[lab] for lab in labels]

    def subst(self, labels1, labels2):
        return np.array([[self.pairs[a, b] for b in labels2] for a in labels1])


def random_cases(start: int, count: int):
    """Seeded small cases: graphs of 0-4 and 0-6 nodes (both orders), costs with and without
    the mass property."""
    for seed in range(start, start + count):
        rng = random.Random(seed)
        n1, n2 = rng.randint(0, 4), rng.randint(0, 6)
        if seed % 2:
            n1, n2 = n2, n1
        g1, g2 = random_graph(rng, n1, LABELS), random_graph(rng, n2, LABELS)
        model = RandomCosts(seed, mass=seed % 3 != 0)
        yield g1, g2, {"node_subst_cost": model.subst, "node_weight": model.node_weight}


@pytest.mark.parametrize("start", range(0, 400, 100))
def test_weighted_exact_equals_brute_force(start):
    for g1, g2, costs in random_cases(start, 100):
        result = graph_edit_distance(g1, g2, edge_label="dep", **costs)
        assert result.exact
        assert result.distance == pytest.approx(brute_force(g1, g2, **costs), abs=1e-12)
        assert result.lower == result.distance == result.upper


@pytest.mark.parametrize("seed", range(4))
def test_weighted_exact_equals_brute_force_seven_nodes(seed):
    rng = random.Random(seed)
    g1, g2 = random_graph(rng, 7, LABELS), random_graph(rng, 4, LABELS)
    model = GRSCostModel()
    costs = {"node_subst_cost": model.subst_cost, "node_weight": model.node_weight}
    # both directions (chrF with beta 2 prices a substitution differently each way)
    for a, b in ((g1, g2), (g2, g1)):
        result = graph_edit_distance(a, b, edge_label="dep", **costs)
        assert result.exact
        assert result.distance == pytest.approx(brute_force(a, b, **costs), abs=1e-12)


@pytest.mark.parametrize("start", range(1000, 1400, 100))
def test_weighted_bounds_hold_without_exact_search(start):
    for g1, g2, costs in random_cases(start, 100):
        exact = brute_force(g1, g2, **costs)
        approx = graph_edit_distance(g1, g2, edge_label="dep", exact_max_nodes=0,
                                     max_swaps=0, fixed_point_iterations=0, **costs)
        assert approx.lower <= exact + 1e-12 <= approx.upper + 2e-12
        # "proven optimal" means proven
        if approx.exact:
            assert approx.distance == pytest.approx(exact, abs=1e-12)
        # the reported upper bound is the price of its own mapping
        cost, _ = edit_path(g1, g2, approx.node_mapping, edge_label="dep", **costs)
        assert cost == approx.upper


def test_bounds_on_larger_graphs_are_consistent():
    # beyond the exact search: lower <= upper, and a proven result matches its mapping
    rng = random.Random(7)
    model = GRSCostModel()
    costs = {"node_subst_cost": model.subst_cost, "node_weight": model.node_weight}
    for _ in range(20):
        g1, g2 = random_graph(rng, 16, LABELS), random_graph(rng, 14, LABELS)
        r = graph_edit_distance(g1, g2, edge_label="dep", **costs)
        assert r.lower <= r.upper
        assert edit_path(g1, g2, r.node_mapping, edge_label="dep", **costs)[0] == r.upper
        assert r.upper <= graph_size(g1, node_weight=model.node_weight) + graph_size(
            g2, node_weight=model.node_weight)


def grs(g1, g2, beta: float) -> float:
    model = GRSCostModel(beta)
    d = graph_edit_distance(g1, g2, **model.ged_options()).distance
    return model.score(d, model.size(g1), model.size(g2))


@PROPERTY
@given(seed=st.integers(0, 10**6), n1=st.integers(0, 6), n2=st.integers(0, 6))
def test_beta_one_is_symmetric(seed, n1, n2):
    rng = random.Random(seed)
    g1, g2 = random_graph(rng, n1, LABELS), random_graph(rng, n2, LABELS)
    assert grs(g1, g2, 1.0) == pytest.approx(grs(g2, g1, 1.0), abs=1e-12)


@PROPERTY
@given(seed=st.integers(0, 10**6), n1=st.integers(0, 6), n2=st.integers(0, 6),
       beta=st.sampled_from([0.5, 1.0, 2.0, 3.0]))
def test_score_is_one_exactly_for_equal_graphs_and_in_unit_interval(seed, n1, n2, beta):
    rng = random.Random(seed)
    g1, g2 = random_graph(rng, n1, LABELS), random_graph(rng, n2, LABELS)
    score = grs(g1, g2, beta)
    assert 0.0 <= score <= 1.0
    equal = nx.is_isomorphic(
        g1, g2, node_match=lambda a, b: a["label"] == b["label"],
        edge_match=lambda a, b: sorted(e["dep"] for e in a.values())
        == sorted(e["dep"] for e in b.values()),
    )
    assert (score == 1.0) == equal
    # a relabelled copy (other node ids, same structure) scores 1.0
    copy = nx.relabel_nodes(g1, {v: 100 - v for v in g1.nodes})
    assert grs(g1, copy, beta) == 1.0


def test_one_token_change_is_never_free():
    # the floor of the label distance and of the substitution: a different statement costs
    g1 = nx.MultiDiGraph()
    g1.add_node(0, label="return v0 ? v1 : v2")
    g2 = nx.MultiDiGraph()
    g2.add_node(0, label="return v0 ? v2 : v1")  # chrF 1 (same characters), still different
    assert grs(g1, g2, 2.0) < 1.0


def test_weighted_sizes_and_hand_computed_score():
    # reference: "v0 = 1" (3 tokens) -> "return v0" (2 tokens), one data edge: S_ref = 6.
    # candidate: "return v0" alone: S_cand = 2. Best path: delete "v0 = 1" (3) and the edge
    # (1): GED 4, M = (6 + 2 - 4) / 2 = 2; GRS(beta 2) = 5 * 2 / (4 * 6 + 2) = 10 / 26.
    ref = nx.MultiDiGraph()
    ref.add_node(0, label="v0 = 1")
    ref.add_node(1, label="return v0")
    ref.add_edge(0, 1, dep="data")
    cand = nx.MultiDiGraph()
    cand.add_node(0, label="return v0")
    model = GRSCostModel()
    assert model.size(ref) == 6.0 and model.size(cand) == 2.0
    r = graph_edit_distance(ref, cand, operations=True, **model.ged_options())
    assert r.distance == 4.0 and r.exact
    assert sorted((op.kind, op.cost) for op in r.operations) == [
        ("edge_delete", 1.0), ("node_delete", 3.0)]
    assert model.score(r.distance, 6.0, 2.0) == pytest.approx(10 / 26)
    # recall-weighted: the same candidate as the reference of the other is scored higher
    assert model.score(r.distance, 2.0, 6.0) == pytest.approx(10 / 14)
    assert recall_weighted_score(4.0, 6.0, 2.0, beta=1.0) == pytest.approx(1 - 4 / 8)


def test_weighted_costs_are_validated():
    g1 = nx.MultiDiGraph()
    g1.add_node(0, label="a")
    g2 = nx.MultiDiGraph()
    g2.add_node(0, label="b")
    with pytest.raises(ValueError, match=r"\[0, w1 \+ w2\]"):
        graph_edit_distance(g1, g2, node_subst_cost=lambda a, b: np.full((1, 1), 2.5),
                            node_weight=lambda labels: [1.0] * len(labels))
    with pytest.raises(ValueError, match="finite positive"):
        graph_edit_distance(g1, g2, node_subst_cost=lambda a, b: np.zeros((1, 1)) + 0.5,
                            node_weight=lambda labels: [0.0] * len(labels))
    with pytest.raises(ValueError, match="needs node_subst_cost"):
        graph_edit_distance(g1, g2, node_weight=lambda labels: [1.0] * len(labels))
