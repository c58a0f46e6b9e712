"""Locals paired across two PDGs (graphs.pdg.local_alignment) and GRS computed with them.

A PDG names a local after its declaration, so one changed declaration used to rename its
variable in every statement that mentions it; GRS now names the candidate's locals as the
reference's where the matched statements agree, and charges the declaration alone.
"""

import networkx as nx

import graphs
from graphs.pdg.local_alignment import align_locals, is_named_local, rename_locals
from ruby_metric import RubyScorer
from ruby_metric.scoring.code import Code
from ruby_metric.scoring.config import Limits
from ruby_metric.scoring.tiers import GraphTier


def test_named_locals_are_the_digest_names_only():
    assert [is_named_local(t) for t in ("v3fa", "v3fa_2", "v539", "v0", "v12", "b0", "vec",
                                        "v3fax", "x")] == [
        True, True, True, False, False, False, False, False, False]


def test_a_renamed_local_is_paired_by_where_it_stands():
    pairs = [("for v1a2 in range(0, v0)", "for v9f8 in range(0, v0 - 1)"),
             ("v3b4 += v1a2 * v1a2", "v3b4 += v9f8 * v9f8"),
             ("return v3b4", "return v3b4")]
    assert align_locals(pairs) == {"v9f8": "v1a2"}


def test_names_that_already_agree_give_no_renaming():
    pairs = [("v1a2 = 0", "v1a2 = 0"), ("return v1a2 + v0", "return v1a2 + v0")]
    assert align_locals(pairs) == {}
    assert align_locals([("return v0", "return v1")]) == {}  # parameters take no part


def test_two_swapped_locals_are_swapped_back():
    # c = 0; i = 0 declared alike: an unrelated edit can swap which is which
    pairs = [("v1a2 = 0", "v3b4 = 0"), ("v3b4 = 0", "v1a2 = 0"),
             ("v1a2 += 1", "v3b4 += 1"), ("if v3b4 < v0[v1a2]", "if v1a2 < v0[v3b4]"),
             ("v3b4 = v0[v1a2]", "v1a2 = v0[v3b4]")]
    assert align_locals(pairs) == {"v3b4": "v1a2", "v1a2": "v3b4"}


def test_a_wrong_variable_stays_wrong():
    # a[j] where a[i] was meant, once: each local keeps the name most of its uses give it
    pairs = [("v1a2 = 0", "v1a2 = 0"), ("v3b4 = 1", "v3b4 = 1"),
             ("v5c6 += v0[v1a2]", "v5c6 += v0[v3b4]"),
             ("v1a2 += 1", "v1a2 += 1"), ("return v5c6 * v3b4", "return v5c6 * v3b4")]
    assert align_locals(pairs) == {}


def test_shapes_that_differ_pair_the_names_in_the_parts_that_agree():
    # the tokens around the names are matched (longest common runs): "• =" and then the
    # one "•" left on each side
    assert align_locals([("v3b4 = v1a2 + 1", "v9f8 = 2 * v7e6")]) == {
        "v9f8": "v3b4", "v7e6": "v1a2"}
    # a name with no counterpart in the other statement is paired with nothing
    assert align_locals([("v3b4 = f(v1a2)", "v9f8 = f(1)")]) == {"v9f8": "v3b4"}


def test_rename_moves_a_local_that_keeps_its_name_out_of_the_way():
    g = nx.MultiDiGraph()
    g.add_node(0, label="v1a2 = v3b4 + 1")
    g.add_node(1, label='print("v1a2", v1a2)')
    g.add_edge(0, 1, type="data", var="v1a2", dep="data")
    out = rename_locals(g, {"v1a2": "v3b4"})
    assert [out.nodes[n]["label"] for n in out] == [
        "v3b4 = v3b4_0 + 1", 'print("v1a2", v3b4)']  # a string literal is not a name
    assert [d["var"] for _, _, d in out.edges(data=True)] == ["v3b4"]
    assert g.nodes[0]["label"] == "v1a2 = v3b4 + 1"  # the input graph is left as it was


REF = """def f(n):
    s = 0
    for i in range(1, n):
        s += i * i
    return s
"""
# one literal of the loop header changed
CAND = REF.replace("range(1, n)", "range(2, n)")


def test_a_changed_declaration_costs_its_own_statement_only():
    scorer = RubyScorer(language="python")
    e = scorer.explain(REF, CAND)
    g = e.graph
    assert len(g.renamed) == 1
    changed = [m for m in g.mapping if m.status != "match"]
    assert [m.status for m in changed] == ["relabel"]  # the header, not `s += i * i`
    assert g.distance == changed[0].cost + len(g.edge_edits)
    assert scorer.score(REF, CAND).grs == g.similarity
    (cand_name, ref_name), = g.renamed
    # the source's identifiers beside the names: the loop's i on both sides
    assert g.renamed_identifiers == (("i", "i"),)
    assert f"candidate {cand_name} (i) = reference {ref_name} (i)" in e.to_text()


def test_the_renaming_is_in_the_explanation_and_its_json():
    e = RubyScorer(language="python").explain(REF, CAND)
    (cand_name, ref_name), = e.graph.renamed
    assert is_named_local(cand_name) and is_named_local(ref_name)
    assert e.graph.to_dict()["renamed"] == [[cand_name, ref_name]]
    assert e.graph.to_dict()["renamed_identifiers"] == [["i", "i"]]
    # both PDGs are drawn as compared: the variable under the smaller of its two names
    shown, hidden = sorted((cand_name, ref_name))
    for side in ("reference", "candidate"):
        labels = [n["label"] for n in e.to_dict()["pdgs"][side]["nodes"]]
        assert any(shown in lab for lab in labels)
        assert not any(hidden in lab for lab in labels)


def test_common_names_are_the_same_whichever_side_is_the_reference():
    pairs = {"v9f8": "v1a2", "v0a1": "v7b7"}
    ref, cand = graphs.common_names(pairs)
    assert (ref, cand) == ({"v7b7": "v0a1"}, {"v9f8": "v1a2"})
    assert graphs.common_names({r: c for c, r in pairs.items()}) == (cand, ref)


def test_the_second_distance_is_kept_only_when_smaller():
    tier = GraphTier(Limits())
    ref = tier.represent(Code(REF, "python", limits=Limits()))
    cand = tier.represent(Code(CAND, "python", limits=Limits()))
    plain = graphs.graph_edit_distance(ref, cand, **tier.costs.ged_options())
    kept, ref_used, cand_used, pairs = tier.edit(ref, cand)
    assert kept.distance < plain.distance and pairs
    assert (ref_used is ref) != (cand_used is cand)  # one side renamed: the larger name
    # the reference against itself: nothing to rename, the one GED
    same, ref_used, cand_used, pairs = tier.edit(ref, ref)
    assert same.distance == 0 and pairs == {} and ref_used is ref and cand_used is ref


def test_a_pdg_knows_the_source_identifier_of_each_local_and_renaming_keeps_it():
    g = graphs.build_pdg("int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; "
                         "return s; }", "java")
    origins = g.graph["local_names"]
    assert origins["v0"] == "n" and sorted(origins.values()) == ["i", "n", "s"]
    s_name = next(name for name, ident in origins.items() if ident == "s")
    i_name = next(name for name, ident in origins.items() if ident == "i")
    # i renamed to s's name: s moves out of the way, each keeps its identifier
    renamed = rename_locals(g, {i_name: s_name})
    assert renamed.graph["local_names"][s_name] == "i"
    assert renamed.graph["local_names"][f"{s_name}_0"] == "s"


def test_a_huge_statement_pairs_its_names_in_order_and_fast():
    # a generated table of 20,000 literals: matching its tokens took minutes
    ref = "v1a2 = [" + ", ".join(["1"] * 20_000) + ", v3b4]"
    cand = "v9f8 = [" + ", ".join(["1"] * 19_999 + ["2"]) + ", v3b4]"
    assert len(ref.split()) > 20_000
    assert align_locals([(ref, cand)]) == {"v9f8": "v1a2"}
