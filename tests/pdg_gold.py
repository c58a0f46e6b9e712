"""Helpers for the hand-written gold PDGs of tests/test_pdg_*.py.

A gold case names nodes by symbols. For each language it gives the code and the label of
every symbol; the expected edges are written once, over symbols, for all languages that
share the structure. A label that occurs more than once in a graph is written
``"label#k"`` (its k-th occurrence in node order, from 1).

Edges are checked with their ``dep`` too (GRS v2, SPEC section 3): ``branches`` lists the
control edges that hang on an outcome of an if/while/for/foreach/do predicate
(``"true"``: ``control-true``, ``"false"``: ``control-false``); every other control edge
must be plain ``control``. A data edge on the pseudo-variable ``<effects>`` must be an
``effect`` edge, any other a ``data`` edge; ``-carried`` is added to the ``dep`` of a
loop-carried one. Where a gold gives ``carried`` (the data edges that go round a loop,
worked out by hand), exactly those must be carried.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from graphs.pdg.build import build_pdg


@dataclass
class Gold:
    """Expected control edges ``(src, dst)`` and data edges ``(src, dst, var)`` over
    symbols, per language ``(code, {symbol: label})``, and the outcome (``"true"`` or
    ``"false"``) of every control edge that hangs on a predicate's branch."""

    control: set[tuple[str, str]]
    data: set[tuple[str, str, str]]
    programs: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    branches: dict[tuple[str, str], str] = field(default_factory=dict)
    carried: set[tuple[str, str, str]] | None = None

    def __post_init__(self) -> None:
        unknown = set(self.branches) - self.control
        assert not unknown, f"branches that are not control edges: {unknown}"
        assert set(self.branches.values()) <= {"true", "false"}, self.branches

    def cases(self, name: str) -> list[tuple[str, str, Gold]]:
        return [(f"{name}-{lang}", lang, self) for lang in self.programs]


def node_index(graph: nx.MultiDiGraph) -> dict[str, int]:
    """Map ``label`` (unique labels) and ``label#k`` (every label) to node ids."""
    seen: dict[str, int] = {}
    index: dict[str, int] = {}
    for n in graph:
        label = graph.nodes[n]["label"]
        seen[label] = seen.get(label, 0) + 1
        index[f"{label}#{seen[label]}"] = n
    for label, count in seen.items():
        if count == 1:
            index[label] = index[f"{label}#1"]
    return index


def edge_sets(graph: nx.MultiDiGraph) -> tuple[set[tuple[int, int]], set[tuple[int, int, str]]]:
    control = {(u, v) for u, v, t in graph.edges(data="type") if t == "control"}
    data = {(u, v, d["var"]) for u, v, d in graph.edges(data=True) if d["type"] == "data"}
    return control, data


def control_deps(graph: nx.MultiDiGraph) -> dict[tuple[int, int], str]:
    """``dep`` of every control edge (a pair has at most one control edge)."""
    deps: dict[tuple[int, int], str] = {}
    for u, v, d in graph.edges(data=True):
        if d["type"] == "control":
            assert (u, v) not in deps, f"two control edges {u} -> {v}"
            deps[u, v] = d["dep"]
    return deps


def check(lang: str, gold: Gold) -> None:
    """Build the PDG of ``gold``'s program in ``lang`` and compare it with the gold edges."""
    code, labels = gold.programs[lang]
    # declaration-order names keep the gold readable; canonical names are tested apart
    graph = build_pdg(code, lang, names="declaration")
    index = node_index(graph)
    shown = [graph.nodes[n]["label"] for n in graph]
    # the entry's label is the signature (tested apart): "E" names node 0
    labels = dict(labels)
    if labels.get("E") == "entry" and graph.nodes[0]["kind"] == "entry":
        labels["E"] = graph.nodes[0]["label"]
        index.setdefault(labels["E"], 0)
    missing = {s: lab for s, lab in labels.items() if lab not in index}
    assert not missing, f"labels not in graph: {missing}; graph labels: {shown}"
    ids = {s: index[lab] for s, lab in labels.items()}
    names = {v: k for k, v in ids.items()}
    # every node of the graph must be named by the gold
    unnamed = [shown[n] for n in graph if n not in names]
    assert not unnamed, f"nodes the gold does not name: {unnamed}"
    control, data = edge_sets(graph)
    got_control = {(names[u], names[v]) for u, v in control}
    got_data = {(names[u], names[v], var) for u, v, var in data}
    assert got_control == gold.control, (
        f"control: missing {gold.control - got_control}, extra {got_control - gold.control}")
    assert got_data == gold.data, (
        f"data: missing {gold.data - got_data}, extra {got_data - gold.data}")
    got_deps = {(names[u], names[v]): dep for (u, v), dep in control_deps(graph).items()}
    want_deps = {e: "control-" + gold.branches[e] if e in gold.branches else "control"
                 for e in gold.control}
    wrong = {e: (dep, want_deps[e]) for e, dep in got_deps.items() if dep != want_deps[e]}
    assert not wrong, f"control dep (got, expected): {wrong}"
    got_carried = set()
    for u, v, d in graph.edges(data=True):
        if d["type"] == "data":
            want = "effect" if d["var"] == "<effects>" else "data"
            assert d["dep"] in (want, want + "-carried"), (names[u], names[v], d)
            if d["dep"].endswith("-carried"):
                got_carried.add((names[u], names[v], d["var"]))
    if gold.carried is not None:
        assert got_carried == gold.carried, (
            f"carried: missing {gold.carried - got_carried}, extra {got_carried - gold.carried}")
