"""Per-pair explanations: token edits, AST edits, PDG mapping, matched n-grams, reports, CLI."""

import ast
import json
import re

import networkx as nx
import pytest
from grs_helpers import label_distance
from sacrebleu.metrics import CHRF

import crystal
import graphs
from graphs.flow.labels import label_tokens
from ruby_metric import RubyScorer
from ruby_metric.api.explain import (
    AstEdit,
    Explanation,
    NgramMatch,
    Pdg,
    TokenBlock,
    TokenEdit,
)
from ruby_metric.cli.app import main

SUM = "int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }"
SUM_PLUS = "int f(int n) { int s = 0; int k = 2; while (n > 0) { s += n; n--; } return s + k; }"


@pytest.fixture(scope="module")
def java():
    return RubyScorer("java")


@pytest.fixture(scope="module")
def plain():
    """No language, whitespace tokens: only STS and the BLEUs, tokens exactly as written."""
    return RubyScorer(None, tokenizer="whitespace", ngrams=[("a",), ("a", "a")])


# -- STS: token edit script -------------------------------------------------------------------


def test_token_edits_replace(java):
    e = java.explain("int a = 1;", "int b = 1;")
    assert e.ref_tokens == ("int", "a", "=", "1", ";")
    assert e.string.edits == (TokenEdit("replace", 1, 1, "a", "b"),)
    assert e.string.distance == 1 and e.string.similarity == e.result.sts == 0.8
    assert [b.kind for b in e.string.blocks] == ["equal", "replace", "equal"]


def test_token_edits_insert_and_delete(plain):
    e = plain.explain("x = a + b ;", "x = a ;")
    assert e.string.edits == (
        TokenEdit("delete", 3, 3, "+", None),
        TokenEdit("delete", 4, 3, "b", None),
    )
    assert e.string.blocks[1] == TokenBlock("delete", 3, 5, 3, 3)
    back = plain.explain("x = a ;", "x = a + b ;")
    assert back.string.edits == (
        TokenEdit("insert", 3, 3, None, "+"),
        TokenEdit("insert", 3, 4, None, "b"),
    )
    assert back.result.sts == pytest.approx(1 - 2 / 6)


# -- TRS: AST edit mapping --------------------------------------------------------------------


def test_ast_rename_found(java):
    e = java.explain("int a = 1;", "int b = 1;")
    assert e.tree.renames == (
        AstEdit("rename", "a", "b", "identifier", "identifier", (1, 5), (1, 5)),
    )
    assert e.tree.insertions == e.tree.deletions == ()
    assert e.tree.distance == 1 and e.tree.matched == e.tree.ref_size - 1
    assert "rename 'a' -> 'b' at line 1, col 5" in e.to_text()


def test_ast_insertions_listed(java):
    e = java.explain("int a = 1;", "int a = 1 + c;")
    labels = sorted(x.cand_label for x in e.tree.insertions)
    assert labels == ["binary_expression:+", "c"]
    assert e.tree.distance == len(e.tree.edits) == 2


# -- GRS: PDG node mapping ----------------------------------------------------------------------


def test_pdg_mapping_unmatched_node_and_edges(java):
    e = java.explain(SUM, SUM_PLUS)
    g = e.graph
    assert e.result.tier == "graph" and g.similarity == pytest.approx(e.result.grs)
    # every node of both graphs appears once in the mapping
    assert sorted(m.ref for m in g.mapping if m.ref is not None) == [n.id for n in e.ref_pdg.nodes]
    assert sorted(m.cand for m in g.mapping if m.cand is not None) == [
        n.id for n in e.cand_pdg.nodes
    ]
    inserted = [e.cand_pdg.node(i).text for i in g.unmatched_cand_nodes]
    assert inserted == ["int k = 2;"] and g.unmatched_ref_nodes == ()
    relabeled = [
        (e.ref_pdg.node(m.ref).text, e.cand_pdg.node(m.cand).text) for m in g.nodes_with("relabel")
    ]
    assert relabeled == [("return s;", "return s + k;")]
    # "return s" (2 tokens) -> "return s + k" (4 tokens): every n-gram of the reference's
    # label is in the candidate's (R = 1) and about half the other way (P about 0.59), so
    # d = 1 - (2 R + 4 P) / 6 is about 0.27 and the substitution costs the weight
    # difference, max(6 * 0.27, |2 - 4|) = 2: the candidate carries all of the statement
    (m,) = g.nodes_with("relabel")
    assert (m.ref_weight, m.cand_weight, m.cost) == (2, 4, 2.0) and 0.27 < m.distance < 0.28
    # the new statement's control edge from the entry and its data edge to the return
    k = g.unmatched_cand_nodes[0]
    ret = next(n.id for n in e.cand_pdg.nodes if n.kind == "return")
    assert {(x.kind, x.cand_edge, x.cand_type) for x in g.edge_edits} == {
        ("insert", (0, k), "control"),
        ("insert", (k, ret), "data"),
    }
    # insert "int k = 2" (4 tokens), relabel the return (2), insert two edges (1 each)
    assert g.distance == 4 + 2 + 2
    # S_ref = node weights 5 + 2 + 4 + 6 + 3 + 3 + 2 (entry "int f(int)", "int n",
    # "int s = 0", "while (n > 0)", "s += n", "n -= 1", "return s") + 17 edges = 42;
    # S_cand adds "int k = 2" (4), 2 more tokens in the return and 2 edges: 50.
    # M = (42 + 50 - 8) / 2 = 42; GRS = 5 * 42 / (4 * 42 + 50)
    assert (g.ref_size, g.cand_size, g.matched_mass, g.beta) == (42, 50, 42, 2)
    assert g.similarity == e.result.grs == pytest.approx(210 / 218)
    text = e.to_text()
    rows, _ = graph_table(text)
    inserted_row = rows[-1]
    assert inserted_row["cells"] == ["insert", "-/1", "-", "4", "-", "4"]
    assert inserted_row["codes"] == ["line 1 'int k = 2;'"]
    relabel_row = next(r for r in rows if r["cells"][0] == "relabel")
    assert relabel_row["cells"][2:] == ["2", "4", "0.271812", "2"]
    assert relabel_row["codes"] == ["line 1 'return s;'", "line 1 'return s + k;'"]
    assert relabel_row["labels"][1].endswith(" + " + inserted_row["labels"][0].split()[1])
    assert "  GED    = node costs 6 + edge costs 2 = 8\n" in text
    assert "  M      = (S_ref + S_cand - GED) / 2 = (42 + 50 - 8) / 2 = 42\n" in text
    assert "(1 + 2^2) * 42 / (2^2 * 42 + 50)\n         = 210 / 218 = 0.963303  (GRS 0.9633 " in text


def test_pdg_records_from_hand_made_graph():
    g = nx.MultiDiGraph()
    g.add_node(0, label="entry", text="void f()", line=1, kind="entry")
    g.add_node(2, label="v0++", text="x++;", line=3, kind="statement")
    g.add_node(1, label="int v0 = 0", text="int x = 0;", line=2, kind="declaration")
    g.add_edge(1, 2, type="data", var="v0")
    g.add_edge(0, 2, type="control")
    g.add_edge(0, 1, type="control")
    pdg = Pdg.from_graph(g)
    assert [n.id for n in pdg.nodes] == [0, 1, 2]
    assert [(x.source, x.target, x.type, x.var) for x in pdg.edges] == [
        (0, 1, "control", None),
        (0, 2, "control", None),
        (1, 2, "data", "v0"),
    ]
    # a graph without ``dep`` attributes: each edge's dep is its type
    assert [x.dep for x in pdg.edges] == ["control", "control", "data"]


# -- GRS v2: the explanation is the GRS (graded labels, dep-typed edges) ----------------------

# Then/else swapped: each branch has its own call, and the calls read different parameters,
# so the data edges pin each call to its own node and only the branch outcome changes.
BRANCHES = "void f(int x, int y) { if (x > 0) { print(x); } else { print(y); } }"
BRANCHES_SWAPPED = "void f(int x, int y) { if (x > 0) { print(y); } else { print(x); } }"
# The if/else assigning one variable is a conditional expression (one statement).
SIGN = "int f(int x){int r; if (x > 0) {r = 1;} else {r = -1;} return r;}"
SIGN_SWAPPED = "int f(int x){int r; if (x > 0) {r = -1;} else {r = 1;} return r;}"
# Two effect calls in the other order; the locals they print pin them by data edges (read
# from r, so they are not temporaries folded into the prints).
PRINTS = ("void f(Reader r) { int a = r.read(); int b = r.read(); System.out.println(a); "
          "System.out.println(b); }")
PRINTS_SWAPPED = ("void f(Reader r) { int a = r.read(); int b = r.read(); "
                  "System.out.println(b); System.out.println(a); }")


@pytest.mark.parametrize(
    ("ref", "cand"),
    [
        (BRANCHES, BRANCHES_SWAPPED),
        (SIGN, SIGN_SWAPPED),
        (PRINTS, PRINTS_SWAPPED),
        (SUM, SUM_PLUS),
        ("int f(int a) { return a + 1; }", "int f(int a) { return a - 1; }"),
        ("int f(int x) { return x + 1; }", "int f(int x) { while (true) { } }"),
        (SUM, "int g() { return 0; }"),
    ],
)
def test_graph_explanation_is_the_grs(java, ref, cand):
    e = java.explain(ref, cand)
    g = e.graph
    assert e.result.tier == "graph"
    assert g.similarity == e.result.grs  # equal, not approximately: the same GED call
    # the GED is what the mapping and the unmatched edges cost
    assert g.distance == sum(m.cost for m in g.mapping) + len(g.edge_edits)
    for m in g.mapping:
        ref_label = None if m.ref is None else e.ref_pdg.node(m.ref).label
        cand_label = None if m.cand is None else e.cand_pdg.node(m.cand).label
        if ref_label is not None:
            assert m.ref_weight == max(1, len(label_tokens(ref_label)))
        if cand_label is not None:
            assert m.cand_weight == max(1, len(label_tokens(cand_label)))
        if m.status == "match":
            assert m.cost == 0.0 and ref_label == cand_label
        elif m.status == "delete":
            assert m.cost == m.ref_weight
        elif m.status == "insert":
            assert m.cost == m.cand_weight
        else:  # relabel or replace: max((w_ref + w_cand) * d, |w_ref - w_cand|), 1/64 grid
            d = label_distance(ref_label, cand_label, m.ref_weight, m.cand_weight)
            assert m.distance == pytest.approx(d, abs=1e-9)
            raw = max((m.ref_weight + m.cand_weight) * d, abs(m.ref_weight - m.cand_weight))
            assert m.cost == max(1, round(raw * 64)) / 64
            assert (m.status == "replace") == (d == 1.0)


def test_swapped_branches_retype_true_and_false(java):
    e = java.explain(BRANCHES, BRANCHES_SWAPPED)
    g = e.graph
    # the calls keep their labels (print(x) onto print(x)); both control edges change outcome
    assert g.nodes_with("relabel") == g.nodes_with("replace") == ()
    assert g.unmatched_ref_nodes == g.unmatched_cand_nodes == ()
    retypes = {(e.ref_pdg.node(x.ref_edge[1]).text, x.ref_type, x.cand_type) for x in g.edge_edits}
    assert retypes == {
        ("print(x);", "control-true", "control-false"),
        ("print(y);", "control-false", "control-true"),
    }
    assert all(x.kind == "retype" for x in g.edge_edits)
    # GED 2 over sizes 33 + 33: 6 nodes weighing 7 ("void f(int, int)") + 2 + 2 (the
    # parameters) + 6 ("if (x > 0)") + 4 + 4 (the calls), and 8 edges. Equal sizes: GRS is
    # 1 - GED / (S_ref + S_cand) whatever beta
    assert (g.distance, g.ref_size, g.cand_size) == (2, 33, 33)
    assert g.similarity == e.result.grs == pytest.approx(1 - 2 / 66)
    text = e.to_text()
    assert (
        "control (true) edge line 1 'if (x > 0)' -> line 1 'print(x);' is control (false) "
        "in the candidate"
    ) in text
    pdg_edges = {x.dep for x in e.ref_pdg.edges}
    assert {"control", "control-true", "control-false", "data"} <= pdg_edges


def test_swapped_sign_relabel_cost_by_hand(java):
    e = java.explain(SIGN, SIGN_SWAPPED)
    g = e.graph
    (m,) = g.nodes_with("relabel")
    ref_label, cand_label = e.ref_pdg.node(m.ref).label, e.cand_pdg.node(m.cand).label
    # int r; + the if/else that sets r fold into r's declaration, which is a temporary
    # read once by the return: "return v0 > 0 ? 1 : -1" vs "return v0 > 0 ? -1 : 1",
    # 9 tokens each, the same characters: P = R = chrF (by sacrebleu) and d = 1 - chrF =
    # 0.2579..., the cost (9 + 9) * d = 4.643 on the GED's grid: 297 / 64.
    ref_toks, cand_toks = label_tokens(ref_label), label_tokens(cand_label)
    assert len(ref_toks) == len(cand_toks) == 9 and ref_toks[:5] == cand_toks[:5]
    d = 1 - CHRF().sentence_score(cand_label, [ref_label]).score / 100
    assert m.distance == pytest.approx(d, abs=1e-9) and round(18 * d * 64) == 297
    assert m.cost == 297 / 64
    assert g.edge_edits == () and g.distance == 297 / 64
    # entry "int f(int)" (5), x (2), the return (9) and 3 edges per side
    assert (g.ref_size, g.cand_size) == (19, 19)
    assert e.result.grs == g.similarity == pytest.approx(1 - (297 / 64) / 38)
    (row,) = (r for r in graph_table(e.to_text())[0] if r["cells"][0] == "relabel")
    assert row["cells"][2:] == ["9", "9", "0.257920", "4.640625"]  # 297/64, printed exactly
    assert row["labels"] == [ref_label, cand_label]  # what d is computed on, not the code
    assert row["codes"] == ["line 1 'return r;'", "line 1 'return r;'"]


def test_one_token_change_costs_a_fraction(java):
    e = java.explain("int f(int a) { return a + 1; }", "int f(int a) { return a - 1; }")
    g = e.graph
    (m,) = g.mapping[2:]
    # "return v0 + 1" vs "return v0 - 1", 4 tokens each: hyp "returnv0-1" against ref
    # "returnv0+1" (whitespace dropped) share 9 of 10 characters, 7 of 9 bigrams, 6 of 8
    # trigrams, 5 of 7, 4 of 6 and 3 of 5 longer n-grams (all but those holding the
    # operator): P = R = mean(9/10, 7/9, 6/8, 5/7, 4/6, 3/5) = 0.734788, d = 0.265212, so the
    # pair (4 + 4 tokens) costs 8 * 0.2652 = 2.122 -> 136/64, a quarter of its mass
    assert m.status == "relabel" and (m.ref_weight, m.cand_weight) == (4, 4)
    p = (9 / 10 + 7 / 9 + 6 / 8 + 5 / 7 + 4 / 6 + 3 / 5) / 6
    assert m.distance == pytest.approx(1 - p, abs=1e-12)
    assert m.cost == round(8 * (1 - p) * 64) / 64 == 136 / 64
    # entry (5), a (2), return (4) and 3 edges a side: 14 + 14
    assert g.distance == 136 / 64 and (g.ref_size, g.cand_size) == (14, 14)
    assert e.result.grs == pytest.approx(1 - (136 / 64) / 28)
    (row,) = (r for r in graph_table(e.to_text())[0] if r["cells"][0] == "relabel")
    assert row["cells"][2:] == ["4", "4", "0.265212", "2.125"]
    assert row["labels"] == ["return v0 + 1", "return v0 - 1"]
    assert row["codes"] == ["line 1 'return a + 1;'", "line 1 'return a - 1;'"]


def test_unrelated_statements_are_a_replace(java):
    # neither body reads x: the parameter is only part of the entry's signature
    e = java.explain("int f(int x) { return 1; }", "int f(int x) { g(); }")
    g = e.graph
    (m,) = g.nodes_with("replace")
    # "return 1" (2 tokens) and "g()" (3 tokens) have no character in common: P = R = 0,
    # d 1, and the pair shares nothing: it costs both statements, max(5 * 1, |2 - 3|) = 5
    assert (e.ref_pdg.node(m.ref).text, e.cand_pdg.node(m.cand).text) == ("return 1;", "g();")
    assert (m.distance, m.ref_weight, m.cand_weight, m.cost) == (1.0, 2, 3, 5.0)
    assert g.nodes_with("relabel") == () and g.edge_edits == ()
    # entry "int f(int)" (5) + the statement + 1 control edge: 8 and 9; M = (8 + 9 - 5) / 2
    # = 6, GRS = 5 * 6 / (4 * 8 + 9) = 30 / 41 (the edge still matches: a replace keeps
    # the statement's place)
    assert g.distance == 5 and (g.ref_size, g.cand_size) == (8, 9)
    assert e.result.grs == pytest.approx(30 / 41)
    (row,) = (r for r in graph_table(e.to_text())[0] if r["cells"][0] == "replace")
    assert row["cells"][2:] == ["2", "3", "1.000000", "5"]
    assert row["labels"] == ["return 1", "g()"]
    assert row["codes"] == ["line 1 'return 1;'", "line 1 'g();'"]


def test_swapped_effects_show_an_effect_edge(java):
    e = java.explain(PRINTS, PRINTS_SWAPPED)
    g = e.graph
    # each call maps onto the call printing the same local (labels equal: cost 0); the
    # effect edge runs the other way, so it is deleted and inserted (1 + 1)
    assert g.nodes_with("relabel") == g.nodes_with("replace") == ()
    ref_edges = [(x.kind, x.ref_type, x.cand_type) for x in g.edge_edits]
    assert ref_edges == [("delete", "effect", None), ("insert", None, "effect")]
    (deleted, inserted) = g.edge_edits
    assert [e.ref_pdg.node(i).text for i in deleted.ref_edge] == [
        "System.out.println(a);",
        "System.out.println(b);",
    ]
    assert [e.cand_pdg.node(i).text for i in inserted.cand_edge] == [
        "System.out.println(b);",
        "System.out.println(a);",
    ]
    # 6 nodes, 11 edges per side: 5 control from the entry; data r -> a, r -> b, a -> b (a
    # read of r may update r), a -> print(a), b -> print(b); 1 effect. Node weights:
    # "void f(Reader)" 5, "Reader v0" 2, "int a = v0.read()" 8 twice, "System.out.println(a)"
    # 8 twice: 39 + 11 = 50 a side
    assert g.distance == 2 and (g.ref_size, g.cand_size) == (50, 50)
    assert e.result.grs == pytest.approx(1 - 2 / 100)
    effect = [x for x in e.ref_pdg.edges if x.dep == "effect"]
    assert len(effect) == 1 and effect[0].type == "data" and effect[0].var == "<effects>"
    assert "reference effect edge line 1 'System.out.println(a);'" in e.to_text()


# -- GRS by hand, from the text report alone ----------------------------------------------------

ROW = re.compile(r"    (\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)  (.*)")
TOTAL = re.compile(r"    total\s+(\S+)\s+(\S+)\s+(\S+)")
LABEL = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?:\s+\((line .*)\))?""")


def graph_table(text):
    """The text report's GRS node table: one dict per mapping entry (``cells``: status, line,
    w_ref, w_cand, d, cost as printed; ``labels`` and ``codes``: the reference's then the
    candidate's) and the totals row (w_ref, w_cand, cost)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    status "))
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("    total"):
            return rows, TOTAL.fullmatch(line).groups()
        if line.lstrip().startswith("-> "):  # a relabel's candidate label
            label = LABEL.fullmatch(line.lstrip()[3:])
            rows[-1]["labels"].append(ast.literal_eval(label[1]))
            rows[-1]["codes"].append(label[2])
            continue
        row = ROW.fullmatch(line)
        label = LABEL.fullmatch(row[7])
        rows.append({
            "cells": list(row.groups()[:6]),
            "labels": [ast.literal_eval(label[1])],
            "codes": [label[2]] if label[2] else [],
            "label_column": line.index(row[7]),
        })
    raise AssertionError("no totals row")


def grs_from_text(text):
    """GRS recomputed from the numbers the text report prints, and what it printed."""
    rows, total = graph_table(text)
    w_ref = sum(float(r["cells"][2]) for r in rows if r["cells"][2] != "-")
    w_cand = sum(float(r["cells"][3]) for r in rows if r["cells"][3] != "-")
    node_cost = sum(float(r["cells"][5]) for r in rows)
    assert tuple(map(float, total)) == (w_ref, w_cand, node_cost)
    edges = re.search(r"\n  edges: (\d+) reference, (\d+) candidate; .* edge cost (\d+) ", text)
    edges_ref, edges_cand, edge_cost = map(int, edges.groups())
    beta = float(re.search(r"GRS    = \(1 \+ beta\^2\) .* = \(1 \+ (\S+)\^2\)", text)[1])
    s_ref, s_cand = w_ref + edges_ref, w_cand + edges_cand
    ged = node_cost + edge_cost
    m = (s_ref + s_cand - ged) / 2
    grs = (1 + beta**2) * m / (beta**2 * s_ref + s_cand)
    printed = {
        "S_ref": re.search(r"\n  S_ref  = node weights (\S+) \+ edges (\d+) = (\S+)\n", text),
        "S_cand": re.search(r"\n  S_cand = node weights (\S+) \+ edges (\d+) = (\S+)\n", text),
        "GED": re.search(r"\n  GED    = node costs (\S+) \+ edge costs (\d+) = (\S+)\n", text),
        "M": re.search(r"\n  M      = .* = (\S+)\n", text),
        "GRS": re.search(r"\n         = (\S+) / (\S+) = (\S+)  \(GRS (\S+) above", text),
        "tier": re.search(r"\n  GRS +(\S+)", text),
    }
    # every intermediate number printed is the one recomputed, exactly (multiples of 1/128)
    assert tuple(map(float, printed["S_ref"].groups())) == (w_ref, edges_ref, s_ref)
    assert tuple(map(float, printed["S_cand"].groups())) == (w_cand, edges_cand, s_cand)
    assert tuple(map(float, printed["GED"].groups())) == (node_cost, edge_cost, ged)
    assert float(printed["M"][1]) == m
    top, bottom = (1 + beta**2) * m, beta**2 * s_ref + s_cand
    assert tuple(map(float, printed["GRS"].groups()[:2])) == (top, bottom)
    return grs, printed["GRS"][3], printed["GRS"][4], printed["tier"][1]


ABS = ("int f(int a, int b){ if (a < b) { return b - a; } return a - b; }",
       "int f(int a, int b){ if (b >= a) { return b - a; } return a - b; }")
REPAIRED = ("int f() { return 1; }", "int f() { return 1;")  # '⁇ }' inserted


@pytest.mark.parametrize("beta", ["2", "1"])
@pytest.mark.parametrize(
    ("ref", "hyp"),
    [ABS, (SUM, SUM_PLUS), (SUM_PLUS, SUM), REPAIRED, ("int x = 1; x++;", "int x = 2;")],
    ids=["relabel", "insert", "delete", "text-label", "snippet"],
)
def test_text_report_recomputes_grs(capsys, beta, ref, hyp):
    """The text report alone gives GRS: the node table's weights and costs, the edge counts
    and beta, through S = weights + edges, GED = node costs + edge costs, M = (S_ref + S_cand -
    GED) / 2 and GRS = (1 + beta^2) M / (beta^2 S_ref + S_cand)."""
    code, out, err = run(
        capsys, "explain", "-l", "java", "--grs-beta", beta, "--ref-text", ref, "--hyp-text", hyp
    )
    assert code == 0, err
    grs, formula, above, tier = grs_from_text(out)
    expected = RubyScorer("java", grs_beta=float(beta)).score(ref, hyp).grs
    assert f"{grs:.6f}" == formula == f"{expected:.6f}"
    assert f"{grs:.4f}" == above == tier == f"{expected:.4f}"
    assert grs == pytest.approx(expected, abs=1e-12)  # the printed numbers are exact
    if (ref, hyp) != ABS:
        assert any(r["cells"][0] in ("insert", "delete") for r in graph_table(out)[0])


def test_text_node_table_lists_every_pair_with_its_label(java):
    e = java.explain(*ABS)
    rows, total = graph_table(e.to_text(max_items=0))
    # every entry of the mapping, matches too, whatever max_items; the labels GED compared
    assert len(rows) == len(e.graph.mapping) == 4
    assert [r["cells"][0] for r in rows] == [m.status for m in e.graph.mapping]
    assert [r["labels"][0] for r in rows] == [n.label for n in e.ref_pdg.nodes]
    assert rows[0]["cells"] == ["match", "1", "7", "7", "0", "0"]
    assert rows[0]["labels"] == ["int f(int, int)"] and rows[0]["codes"] == []
    assert rows[3]["labels"] == [
        "return v0 < v1 ? v1 - v0 : v0 - v1", "return v1 < v0 ? v0 - v1 : v1 - v0"]
    assert rows[3]["codes"][0] == "line 1 'if (a < b) { return b - a; } return a - b;'"
    assert total == ("23", "23", "12.90625")


def test_text_node_table_of_a_long_method_stays_aligned(java):
    body = " ".join(f"System.out.println(n * {i} + {i});" for i in range(1, 40))
    sums = " + ".join(f"s{i}" for i in range(38, 24, -1))  # s38 + ... + s25
    ref = f"int f(int n) {{ {body} System.out.println(n + {sums}); return n; }}"
    hyp = ref.replace("s26 + s25)", "s26 + s24)").replace("* 17 +", "* 71 +")
    e = java.explain(ref, hyp)
    text = e.to_text()
    rows, _ = graph_table(text)
    assert len(rows) == len(e.graph.mapping) == 43  # entry, n, 40 prints, the return
    # one column for every label, and no line of the table much wider than that column
    # plus a label cut to 72 characters and its code to 50
    assert len({r["label_column"] for r in rows}) == 1
    table = text[text.index("    status ") : text.index("    total")].splitlines()
    assert max(map(len, table)) <= rows[0]["label_column"] + 74 + 2 + 62
    # the long label is cut where the two differ (at its end): both still tell them apart
    (call,) = (r for r in rows if r["labels"][0].startswith("…"))
    full = [n.label for n in e.ref_pdg.nodes if "v0 + s38" in n.label]
    ref_label, cand_label = call["labels"]
    assert len(ref_label) == len(cand_label) == 72 and len(full[0]) > 72
    assert ref_label == "…" + full[0][-71:] and cand_label.endswith("s26 + s24)")
    assert len({r["labels"][0] for r in rows}) == len(rows)  # no two rows look alike


# -- CrystalBLEU / BLEU: matched n-grams -----------------------------------------------------------


def test_matched_ngrams_by_hand():
    shared = [("int",), ("=",), (";",), ("=", "1")]
    scorer = RubyScorer("java", ngrams=shared)
    ng = scorer.explain("int a = 1;", "int b = 1;").ngrams
    assert ng.variant == "ignore" and ng.ngram_set.startswith("k4-n2-")
    one, two, three, four = ng.orders
    assert one.matches == (
        NgramMatch(("int",), 1, True),
        NgramMatch(("=",), 1, True),
        NgramMatch(("1",), 1, False),
        NgramMatch((";",), 1, True),
    )
    assert (one.matched, one.total, one.matched_unshared, one.total_unshared) == (4, 5, 1, 2)
    assert two.matches == (NgramMatch(("=", "1"), 1, True), NgramMatch(("1", ";"), 1, False))
    assert (two.matched, two.total, two.matched_unshared, two.total_unshared) == (2, 4, 1, 3)
    assert three.matches == (NgramMatch(("=", "1", ";"), 1, False),)
    assert (three.matched, three.total) == (1, 3)
    assert four.matches == () and four.total == 2


def test_matched_ngrams_clipped(plain):
    ng = plain.explain("a a b", "a a a b").ngrams
    one = ng.orders[0]
    assert one.matches == (NgramMatch(("a",), 2, True), NgramMatch(("b",), 1, False))
    assert (one.matched, one.total, one.matched_unshared, one.total_unshared) == (3, 4, 1, 1)
    assert ng.orders[1].matches[0] == NgramMatch(("a", "a"), 1, True)


def test_unshared_counts_are_crystalbleus_statistics(java):
    ref, cand = SUM, SUM_PLUS
    ng = java.explain(ref, cand).ngrams
    stats = crystal.segment_stats(
        [crystal.tokenize(ref)], crystal.tokenize(cand), 4, ignoring=java.ngram_set.ngrams
    )
    assert [o.matched_unshared for o in ng.orders] == list(stats.matches)
    assert [o.total_unshared for o in ng.orders] == list(stats.totals)
    plain_stats = crystal.segment_stats([crystal.tokenize(ref)], crystal.tokenize(cand), 4)
    assert [o.matched for o in ng.orders] == list(plain_stats.matches)


# -- reports --------------------------------------------------------------------------------------


def test_text_report_has_every_tier_value(java):
    e = java.explain(SUM, SUM_PLUS)
    text = e.to_text()
    r = e.result
    for name, value in [
        ("RUBY", r.ruby),
        ("GRS", r.grs),
        ("TRS", r.trs),
        ("STS", r.sts),
        ("CrystalBLEU", r.crystalbleu),
        ("BLEU", r.bleu),
    ]:
        assert value is not None
        line = next(x for x in text.splitlines()[1:] if x.split()[:1] == [name])
        assert f"{value:.4f}" in line
    assert "= GRS: both sides have a program dependence graph" in text


def test_text_report_caps_long_lists(java):
    e = java.explain(SUM, "int g() { return 0; }")
    text = e.to_text(max_items=2)
    assert "... and " in text and " more" in text
    full = e.to_text(max_items=1000)
    assert "... and " not in full


def test_json_round_trip(java):
    e = java.explain(["int x = 0;", SUM], SUM_PLUS)
    d = e.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["result"] == e.result.to_dict()
    assert d["reference_index"] == 1 and d["reference_count"] == 2
    assert d["graph"]["mapping"][0].keys() == {
        "ref", "cand", "status", "cost", "ref_weight", "cand_weight", "distance"}
    assert {"ref_size", "cand_size", "matched_mass", "beta", "formula"} <= d["graph"].keys()
    assert d["pdgs"]["reference"]["edges"][0].keys() == {"source", "target", "type", "dep", "var"}
    assert d["ngrams"]["orders"][0]["matches"][0]["ngram"] == ["int"]
    assert d["pdgs"]["candidate"]["nodes"][0]["kind"] == "entry"


def test_best_reference_is_explained(java):
    e = java.explain(["int z = 9; return z;", SUM], SUM)
    assert e.reference_index == 1 and e.reference == SUM
    assert e.result.ruby == 1.0 and e.graph.distance == 0
    assert "reference 2 of 2" in e.to_text()


def test_broken_candidate_gives_reasons(java):
    e = java.explain("int a = 1;", "int a = ;")
    assert e.result.tier == "string"
    assert e.graph is None and e.tree is None and e.string is not None
    assert e.notes["graph"].startswith("candidate: parse error at line 1")
    assert e.notes["tree"] == e.notes["graph"]
    assert e.ref_pdg is not None and e.cand_pdg is None
    assert e.notes["candidate_pdg"].startswith("parse error")
    text = e.to_text()
    assert "= STS: GRS n/a (candidate: parse error" in text
    assert "Tree tier (TRS): n/a (candidate: parse error" in text
    assert json.loads(json.dumps(e.to_dict()))["graph"] is None


def test_each_side_parsed_once(monkeypatch):
    calls = []
    real = graphs.parse

    def counting(text, language, *args, **kwargs):
        calls.append(text)
        return real(text, language, *args, **kwargs)

    monkeypatch.setattr(graphs, "parse", counting)
    fresh = RubyScorer("java")  # the module's scorer keeps SUM from the tests above
    fresh.explain(SUM, SUM_PLUS)
    assert sorted(calls) == sorted([SUM, SUM_PLUS])
    fresh.explain(SUM, SUM_PLUS)  # the reference is kept; the candidate is built again
    assert sorted(calls) == sorted([SUM, SUM_PLUS, SUM_PLUS])


def test_metrics_not_requested():
    scorer = RubyScorer("java", metrics=["sts"])
    e = scorer.explain("int a = 1;", "int b = 1;")
    assert e.graph is None and e.tree is None and e.ngrams is None
    assert e.notes["graph"] == e.notes["tree"] == e.notes["ngrams"] == "not requested"
    assert e.string.distance == 1
    assert "RUBY         n/a" in e.to_text()


def test_explanation_is_exported():
    import ruby_metric

    assert ruby_metric.Explanation is Explanation


# -- CLI ------------------------------------------------------------------------------------------


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def pair_files(tmp_path):
    ref = tmp_path / "ref.java"
    hyp = tmp_path / "hyp.java"
    ref.write_text("int f(int a) {\n  return a + 1;\n}\n")
    hyp.write_text("int f(int b) {\n  return b - 1;\n}\n")
    return ref, hyp


def test_cli_text_and_html(capsys, pair_files, tmp_path):
    ref, hyp = pair_files
    page = tmp_path / "report.html"
    code, out, err = run(capsys, "explain", ref, hyp, "--lang", "java", "--html", page)
    assert code == 0, err
    assert out.startswith("RUBY explanation (java)")
    assert "rename 'binary_expression:+' -> 'binary_expression:-'" in out
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_cli_json_and_text_options(capsys, pair_files, tmp_path):
    ref, _ = pair_files
    hyp_text = ["--hyp-text", "int f(int a) { return a + 1; }"]
    code, out, err = run(capsys, "explain", ref, *hyp_text, "-l", "java", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["result"]["ruby"] == 1.0 and data["candidate"].startswith("int f(int a)")
    target = tmp_path / "out.json"
    texts = ["--ref-text", "int a = 1;", "--hyp-text", "int b = 1;"]
    code, out, _ = run(capsys, "explain", *texts, "-l", "java", "-f", "json", "-o", target)
    assert code == 0 and out == ""
    assert json.loads(target.read_text())["string"]["distance"] == 1


def test_cli_exit_2_on_missing_file(capsys, pair_files, tmp_path):
    ref, _ = pair_files
    missing = tmp_path / "nope.java"
    code, out, err = run(capsys, "explain", ref, missing, "--lang", "java")
    assert code == 2 and out == ""
    assert err.strip() == f"ruby-metric: error: {missing}: no such file"


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "REF", "HYP"],  # no --lang
        ["explain", "REF", "--lang", "java"],  # no candidate
        ["explain", "REF", "HYP", "--hyp-text", "x", "--lang", "java"],  # candidate twice
        ["explain", "-", "-", "--lang", "java"],  # both from stdin
        ["explain", "REF", "HYP", "--lang", "klingon"],
    ],
)
def test_cli_bad_usage_exit_2(capsys, pair_files, argv):
    ref, hyp = pair_files
    argv = [str(ref) if a == "REF" else str(hyp) if a == "HYP" else a for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("ruby-metric: error:") and err.count("\n") == 1


def test_cli_notes_when_two_files_look_line_aligned(capsys, pair_files):
    from cli_helpers import HYPS, REFS

    # ten lines each (one of them an empty candidate): explained whole, with a note
    code, out, err = run(capsys, "explain", REFS, HYPS, "--lang", "cs")
    assert code == 0 and out.startswith("RUBY explanation (csharp)")
    assert err == (
        "ruby-metric: note: explaining each file as one snippet (both have 10 lines); "
        "pass --pair K to explain pair K (line K+1) of line-aligned files\n"
    )
    code, _, err = run(capsys, "explain", REFS, HYPS, "--lang", "cs", "-q")
    assert (code, err) == (0, "")
    # one method over three (indented) lines on each side: no note
    code, _, err = run(capsys, "explain", *pair_files, "--lang", "java")
    assert (code, err) == (0, "")
