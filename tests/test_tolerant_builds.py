"""The one-call structures of a tolerant parse: :func:`graphs.tolerant_pdg` and
:func:`graphs.tolerant_tree` (what repair and containment did, written into the graph or
tree), and :class:`graphs.NoStructure` when there is nothing to build."""

from __future__ import annotations

import networkx as nx
import pytest

import graphs


def labels(graph: nx.MultiDiGraph) -> list[str]:
    return [graph.nodes[n]["label"] for n in graph]


def test_a_repaired_side_marks_the_guess_and_adds_the_repair_node() -> None:
    # `g(a` is repaired by an inserted `)`: the statement it completes is the side's text,
    # and one more node, unconnected and last, stands for the inserted token
    t = graphs.tolerant_parse(graphs.parse("int f(int a) { a = g(a; return a; }", "java"))
    g = graphs.tolerant_pdg(t)
    assert labels(g) == ["int f(int)", "int v0", "⁇ a = g(a;", "return v0", "⁇ )"]
    repair = g.nodes[4]
    assert repair["kind"] == "repair" and repair["opaque"] and g.degree(4) == 0
    assert g.nodes[2]["opaque"] and not g.nodes[3].get("opaque")


def test_a_contained_side_labels_its_stand_in() -> None:
    t = graphs.tolerant_parse(graphs.parse("void f(int b) { a = b + * 1; g(a); }", "java"))
    assert t.clean is None and t.contained is not None
    g = graphs.tolerant_pdg(t)
    assert labels(g) == ["void f(int)", "int v0", "⁇ a = b + * 1;", "g(a)"]
    assert [n for n in g if g.nodes[n].get("opaque")] == [2]


def test_a_clean_program_has_its_entry_unified() -> None:
    text = "def helper(x):\n    return x + 1\ndef main():\n    print(helper(2))\nmain()\n"
    t = graphs.tolerant_parse(graphs.parse(text, "python"))
    g = graphs.tolerant_pdg(t)
    assert g.graph["entry"] is True
    assert labels(g)[0] == graphs.ENTRY_LABEL == "entry"
    # the same graph as building it by hand from what runs
    program = graphs.what_runs(t.clean)
    assert labels(g) == labels(graphs.unify_entry(graphs.build_pdg(program.parsed), program))


def test_no_structure_names_the_parse_error() -> None:
    # two broken statements in one: neither repaired nor contained
    t = graphs.tolerant_parse(graphs.parse("int f( { a = = ; b ) ( }", "java"))
    assert t.clean is None and t.contained is None
    with pytest.raises(graphs.NoStructure) as pdg_error:
        graphs.tolerant_pdg(t)
    with pytest.raises(graphs.NoStructure) as tree_error:
        graphs.tolerant_tree(t)
    assert str(pdg_error.value) == str(tree_error.value) == t.original.error
    assert str(pdg_error.value)  # a reason, never empty


def test_the_graph_limit_is_kept() -> None:
    t = graphs.tolerant_parse(graphs.parse("int f(int a) { a = g(a; return a; }", "java"))
    with pytest.raises(graphs.GraphTooLarge):
        graphs.tolerant_pdg(t, max_nodes=2)
    assert graphs.tolerant_pdg(t, max_nodes=4).number_of_nodes() == 5  # the limit is the build's


def test_the_tree_of_a_repaired_side_ends_with_the_repair_leaf() -> None:
    t = graphs.tolerant_parse(graphs.parse("int f() { return 1;", "java"))
    tree = graphs.tolerant_tree(t)
    assert tree.labels[-2:] == ("⁇ }", "snippet")
    clean = graphs.tolerant_tree(graphs.tolerant_parse(graphs.parse("int f() { return 1; }",
                                                                    "java")))
    assert tree.labels[:-2] == clean.labels[:-1]
