"""The PDG builder's shortcuts agree with the slow, public ways of getting the same answer.

* ``pdg_statements`` (the CFG alone; scorers use it for exact matches) gives the statement
  count and the exceptions of a full ``build_pdg``.
* ``build_pdg`` fills networkx's dicts directly (``pdg._assemble``); the graph must equal one
  built with ``add_node`` / ``add_edge`` in the same order, so a networkx release that changes
  its internals fails here rather than in users' scores.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hostile_helpers import LANGUAGES, SEEDS, fixture_snippets, mutate

from graphs import GraphTooLarge, build_pdg, parse, pdg_statements
from graphs.pdg.dataflow import data_dependences, path_data_dependences, reaching_definitions


def snippets() -> list[tuple[str, str]]:
    rng = random.Random(7)
    out = [(lang, code) for lang in LANGUAGES for code in SEEDS[lang]]
    out += fixture_snippets()
    out += [(lang, mutate(code, rng, rng.randint(1, 3))) for lang, code in list(out)]
    out += [("java", "class A {}"), ("python", "pass"), ("c", ";"), ("csharp", "{ }")]
    return out


def outcome(build, parsed, max_nodes):
    try:
        return build(parsed, max_nodes=max_nodes)
    except (GraphTooLarge, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("max_nodes", [None, 5])
def test_pdg_statements_matches_build_pdg(max_nodes):
    checked = clean = too_large = 0
    for lang, code in snippets():
        parsed = parse(code, lang)
        full = outcome(build_pdg, parsed, max_nodes)
        expected = full if isinstance(full, str) else full.graph["statements"]
        assert outcome(pdg_statements, parsed, max_nodes) == expected, (lang, code)
        checked += 1
        clean += parsed.ok
        too_large += isinstance(full, str) and full.startswith("GraphTooLarge")
    assert checked > 100 and clean > 50
    assert (too_large > 10) == (max_nodes is not None)


def test_direct_assembly_equals_the_networkx_api():
    for lang, code in snippets():
        parsed = parse(code, lang)
        if not parsed.ok:
            continue
        g = build_pdg(parsed)
        h = nx.MultiDiGraph(**g.graph)
        for v, data in g.nodes(data=True):
            h.add_node(v, **data)
        for u, v, data in g.edges(data=True):
            h.add_edge(u, v, **data)
        assert list(g.nodes(data=True)) == list(h.nodes(data=True))
        assert list(g.edges(keys=True, data=True)) == list(h.edges(keys=True, data=True))
        # (predecessors are listed in the order edges were added, which differs here)
        assert sorted(g.in_edges(keys=True, data="type")) == sorted(
            h.in_edges(keys=True, data="type"))
        assert dict(g.pred) == dict(h.pred) and dict(g.succ) == dict(h.succ)
        assert g.graph == h.graph and nx.utils.graphs_equal(g, h)
        g2 = g.copy()  # the public operations work on the directly filled graph
        g2.remove_edges_from(list(g2.edges(keys=True)))
        assert g2.number_of_edges() == 0 and g.number_of_edges() == h.number_of_edges()


@pytest.mark.parametrize("seed", range(200))
def test_straight_line_data_flow_matches_the_general_analysis(seed):
    # build_pdg's shortcut for units that are one path (most methods): one scan along the
    # path must give what reaching definitions + def-use give on the same CFG
    rng = random.Random(seed)
    k = rng.randint(1, 12)  # nodes 1..k after the entry 0; k + 1 is the exit
    names = ["a", "b", "c", "d"][: rng.randint(1, 4)]
    most = min(2, len(names))
    defs = [[]] + [[(v, rng.random() < 0.7) for v in rng.sample(names, rng.randint(0, most))]
                   for _ in range(k)]
    uses = [[]] + [rng.sample(names, rng.randint(0, len(names))) for _ in range(k)]
    succ = [[i + 1] for i in range(k + 1)]
    reach_in, def_node, var_mask = reaching_definitions(succ, defs, 0)
    general = set(data_dependences(reach_in, def_node, var_mask, uses))
    assert path_data_dependences(list(range(1, k + 1)), defs, uses) == general
