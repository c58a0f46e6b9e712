"""Properties of build_pdg: invariance under renaming and reordering, robustness (deep
nesting, size limits, bad input), attributes, options, and the less common constructs."""

from __future__ import annotations

import dataclasses
import re
import time

import networkx as nx
import pytest
from networkx.algorithms.isomorphism import categorical_multiedge_match

import graphs
from graphs import parse
from graphs.lang.languages import get_roles
from graphs.lang.roles import Role
from graphs.pdg.build import GraphTooLarge, build_pdg
from graphs.pdg.cfg import build_cfg

EDGE_MATCH = categorical_multiedge_match(["type", "var"], [None, None])


def node_match(a, b):
    return a["label"] == b["label"] and a["kind"] == b["kind"]


def same_labelled_graph(g1: nx.MultiDiGraph, g2: nx.MultiDiGraph) -> bool:
    return nx.is_isomorphic(g1, g2, node_match=node_match, edge_match=EDGE_MATCH)


def rename(code: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        code = re.sub(rf"\b{old}\b", new, code)
    return code


PROGRAMS = {
    "java": ("int sum(int[] values, int limit) {\n  int total = 0;\n"
             "  for (int k = 0; k < values.length; k++) {\n    if (values[k] > limit) break;\n"
             "    total += values[k];\n  }\n  return total;\n}",
             {"values": "xs", "limit": "cap", "total": "acc", "k": "j"}),
    "csharp": ("int Sum(int[] values, int limit) {\n  int total = 0;\n"
               "  foreach (var v in values) {\n    if (v > limit) continue;\n"
               "    total += v;\n  }\n  return total;\n}",
               {"values": "xs", "limit": "cap", "total": "acc", "v": "item"}),
    "python": ("def total(values, limit):\n    acc = 0\n    for v in values:\n"
               "        if v > limit:\n            break\n        acc += v\n    else:\n"
               "        acc = -acc\n    return [w for w in values if w < acc]\n",
               {"values": "xs", "limit": "cap", "acc": "result", "v": "item", "w": "z"}),
    "c": ("int sum(int *values, int n) {\n  int total = 0, i;\n"
          "  for (i = 0; i < n; i++) total += values[i];\n  return total;\n}",
          {"values": "xs", "n": "count", "total": "acc", "i": "j"}),
    "cpp": ("int sum(const std::vector<int>& values) {\n  int total = 0;\n"
            "  for (auto v : values) { total += v; }\n"
            "  auto twice = [&](int q) { return q * total; };\n  return twice(2);\n}",
            {"values": "xs", "total": "acc", "v": "item", "twice": "dbl", "q": "r"}),
    "javascript": ("function sum(values, limit) {\n  let total = 0;\n"
                   "  for (const v of values) { if (v > limit) break; total += v; }\n"
                   "  return values.map(x => x + total);\n}",
                   {"values": "xs", "limit": "cap", "total": "acc", "v": "item", "x": "y"}),
}


@pytest.mark.parametrize("lang", sorted(PROGRAMS))
def test_renaming_locals_gives_the_same_labelled_graph(lang):
    code, names = PROGRAMS[lang]
    g1 = build_pdg(code, lang)
    g2 = build_pdg(rename(code, names), lang)
    assert [g1.nodes[n]["label"] for n in g1] == [g2.nodes[n]["label"] for n in g2]
    assert sorted(g1.edges(data=True), key=repr) == sorted(g2.edges(data=True), key=repr)
    assert same_labelled_graph(g1, g2)
    # and the renaming did change the source
    assert [g1.nodes[n]["text"] for n in g1] != [g2.nodes[n]["text"] for n in g2]


# (calls with unknown effects are ordered, so swapping them is not independent: see
# test_swapping_effectful_calls_changes_the_graph)
SWAPS = [
    ("java", "void f(int a, int b) { int x = a * 2; int y = b + 1; use(x, y); }",
     "void f(int a, int b) { int y = b + 1; int x = a * 2; use(x, y); }"),
    ("csharp", "int F(int a) { int x = 0, y = 0; x = a + 1; y = a * 2; return x - y; }",
     "int F(int a) { int x = 0, y = 0; y = a * 2; x = a + 1; return x - y; }"),
    ("python", "def f(a, b):\n    a += 1\n    b -= 1\n    return a * b\n",
     "def f(a, b):\n    b -= 1\n    a += 1\n    return a * b\n"),
    ("javascript", "function f(o) { o.x = 1; g(o.y); if (o.z) { let a = o.p + 1; "
     "let b = Math.max(o.q, 2); } }",
     "function f(o) { o.x = 1; g(o.y); if (o.z) { let b = Math.max(o.q, 2); "
     "let a = o.p + 1; } }"),
]


@pytest.mark.parametrize(("lang", "code", "swapped"), SWAPS, ids=[s[0] for s in SWAPS])
def test_swapping_independent_statements_gives_an_isomorphic_graph(lang, code, swapped):
    g1, g2 = build_pdg(code, lang), build_pdg(swapped, lang)
    assert same_labelled_graph(g1, g2)


def test_swapping_dependent_statements_changes_the_graph():
    g1 = build_pdg("void f(int a) { a = a + 1; print(a); }", "java")
    g2 = build_pdg("void f(int a) { print(a); a = a + 1; }", "java")
    assert not same_labelled_graph(g1, g2)


@pytest.mark.parametrize(("lang", "code", "swapped"), [
    ("java", "void f(int a, int b) { log(a); print(b); }",
     "void f(int a, int b) { print(b); log(a); }"),
    ("javascript", "function f(o) { if (o.z) { h(); k(); } }",
     "function f(o) { if (o.z) { k(); h(); } }"),
], ids=["java", "javascript"])
def test_swapping_effectful_calls_changes_the_graph(lang, code, swapped):
    g1, g2 = build_pdg(code, lang), build_pdg(swapped, lang)
    assert not same_labelled_graph(g1, g2)
    effects = [(g1.nodes[u]["label"], g1.nodes[v]["label"], d["dep"])
               for u, v, d in g1.edges(data=True) if d.get("var") == "<effects>"]
    assert len(effects) == 1 and effects[0][2] == "effect"


def test_java_and_csharp_with_the_same_text_get_the_same_graph():
    # (the loop also reads i itself: an indexed loop that only reads xs[i] reads as each
    # language's own foreach, written differently in Java and C#)
    body = ("{ int n = 0; for (int i = 0; i < xs.Length; i++) { if (xs[i] != null) n += i; } "
            "while (n > 10) { n /= 2; } return n; }")
    g_java = build_pdg("int count(Object[] xs) " + body, "java")
    g_cs = build_pdg("int count(Object[] xs) " + body, "csharp")
    assert [g_java.nodes[n]["label"] for n in g_java] == [g_cs.nodes[n]["label"] for n in g_cs]
    assert same_labelled_graph(g_java, g_cs)


def test_whitespace_comments_and_this_do_not_matter():
    g1 = build_pdg("void f(int a){if(a>0){this.x=a;}/* note */ g( a );}", "java")
    g2 = build_pdg("void f(int a)\n{\n  // comment\n  if (a > 0)\n  {\n    x = a;\n  }\n"
                   "  g(a);\n}", "java")
    assert [g1.nodes[n]["label"] for n in g1] == [g2.nodes[n]["label"] for n in g2]
    assert same_labelled_graph(g1, g2)


def test_node_attributes_and_order():
    code = "int f(int a) {\n  int b = a;\n  while (b > 0) {\n    b--;\n  }\n  return b;\n}"
    g = build_pdg(code, "java")
    assert list(g) == list(range(g.number_of_nodes()))
    rows = [(g.nodes[n]["kind"], g.nodes[n]["line"], g.nodes[n]["text"]) for n in g]
    assert rows == [("entry", 1, "int f(int a)"), ("param", 1, "int a"),
                    ("declaration", 2, "int b = a;"), ("while", 3, "while (b > 0)"),
                    ("statement", 4, "b--;"), ("return", 6, "return b;")]
    assert g.graph["language"] == "java"
    assert g.graph["statements"] == 4
    assert g.graph["functions"] == 1
    assert all(d["type"] in ("control", "data") for _, _, d in g.edges(data=True))
    assert all("var" in d for _, _, d in g.edges(data=True) if d["type"] == "data")


def test_positions_are_in_the_original_snippet_inside_wrappers():
    # statements parse inside a method wrapper; lines still count from the snippet
    g = build_pdg("int x = 1;\n\nx++;\nreturn x;", "java")
    assert [(g.nodes[n]["line"], g.nodes[n]["text"]) for n in g] == [
        (1, ""), (1, "int x = 1;"), (3, "x++;"), (4, "return x;")]
    g = build_pdg("x = 1\nif x:\n    y = x\n", "python")
    assert [g.nodes[n]["line"] for n in g] == [1, 1, 2, 3]


def test_options_normalize_and_abstract_literals():
    code = 'void f(int count) { this.n = count * 2; print("n=" + this.n + \'c\'); }'
    labels = [d for _, d in build_pdg(code, "java").nodes(data="label")]
    assert labels == ["void f(int)", "int v0", "n = v0 * 2", "print(\"n=\" + n + 'c')"]
    raw = build_pdg(code, "java", normalize=False)
    assert [d for _, d in raw.nodes(data="label")] == [
        "void f(int)", "int count", "this.n = count * 2", "print(\"n=\" + this.n + 'c')"]
    assert {d["var"] for _, _, d in raw.edges(data=True) if d["type"] == "data"} == {
        "count", "n"}
    abstract = build_pdg(code, "java", abstract_literals=True)
    assert [d for _, d in abstract.nodes(data="label")] == [
        "void f(int)", "int v0", "n = v0 * NUM", "print(STR + n + CHAR)"]


def test_accepts_parsed_code_and_rejects_parse_errors():
    parsed = parse("int f() { return 1; }", "java")
    assert build_pdg(parsed).number_of_nodes() == 2
    with pytest.raises(ValueError, match=r"at line 1, col \d+"):
        build_pdg("int f( { return 1; }", "java")
    with pytest.raises(ValueError, match=r"'\(' at line 1, col 4 is never closed"):
        build_pdg(parse("if (", "java"))
    with pytest.raises(ValueError, match="language is required"):
        build_pdg("int x = 1;")
    with pytest.raises(ValueError):
        build_pdg("int x = 1;", "cobol")


def test_empty_function_and_snippets():
    g = build_pdg("void f() { }", "java")
    assert list(g.nodes(data="kind")) == [(0, "entry")]
    assert g.number_of_edges() == 0 and g.graph["statements"] == 0
    g = build_pdg("void f(int a) { ; }", "csharp")
    assert [k for _, k in g.nodes(data="kind")] == ["entry", "param"]
    assert g.graph["statements"] == 0
    g = build_pdg("def f():\n    pass\n", "python")
    assert g.graph["statements"] == 0
    # an expression is one statement
    g = build_pdg("a + b * c", "java")
    assert [d for _, d in g.nodes(data="label")] == ["entry", "a + b * c"]


def test_max_nodes():
    code = "void f(int a) {" + "a++;" * 2000 + "}"
    assert build_pdg(code, "java", max_nodes=2002).number_of_nodes() == 2002
    with pytest.raises(GraphTooLarge, match="graph larger than limit"):
        build_pdg(code, "java", max_nodes=2001)
    assert issubclass(GraphTooLarge, ValueError) and graphs.GraphTooLarge is GraphTooLarge
    # the limit stops the build early: far cheaper than building the graph
    big = "void f(int a) {" + "if (a > 0) { a--; }" * 20000 + "}"
    parsed = parse(big, "java")
    start = time.perf_counter()
    with pytest.raises(GraphTooLarge):
        build_pdg(parsed, max_nodes=50)
    assert time.perf_counter() - start < 0.5


DEEP = 5000


@pytest.mark.parametrize(("name", "code", "lang", "nodes"), [
    ("nested-if", "void f(int a) {" + "if (a > 0) {" * DEEP + "a--;" + "}" * DEEP + "}",
     "java", DEEP + 3),
    # the innermost 8 levels (graphs.canon.folding's depth bound) fold into one conditional
    # assignment a = a == 4992 ? a + 1 : ... : a - 1: 2 nodes a level, 16 fewer
    ("else-if", "void f(int a) {" + "".join(f"if (a == {i}) a++; else " for i in range(DEEP))
     + "a--; }", "java", 2 * DEEP + 3 - 16),
    ("blocks", "void f(int a) {" + "{" * DEEP + "a--;" + "}" * DEEP + "}", "csharp", 3),
    ("parentheses", "void f(int a) { a = " + "(" * DEEP + "a" + ")" * DEEP + "; }", "java", 3),
    ("while", "void f(int a) {" + "while (a > 0) {" * DEEP + "a--;" + "}" * DEEP + "}", "c",
     DEEP + 3),
    ("calls", "function f(a) { return " + "g(" * DEEP + "a" + ")" * DEEP + "; }",
     "javascript", 3),
])
def test_deep_nesting_does_not_recurse(name, code, lang, nodes):
    g = build_pdg(code, lang)
    assert g.number_of_nodes() == nodes


def test_deterministic():
    code, _ = PROGRAMS["java"]
    g1, g2 = build_pdg(code, "java"), build_pdg(code, "java")
    assert list(g1.nodes(data=True)) == list(g2.nodes(data=True))
    assert list(g1.edges(data=True)) == list(g2.edges(data=True))


def test_unknown_statement_types_become_plain_and_are_reported():
    roles = get_roles("java")
    statements = {k: v for k, v in roles.statements.items() if k != "while_statement"}
    crippled = dataclasses.replace(roles, statements=statements)
    cfg = build_cfg(parse("void f(int a) { while (a > 0) a--; g(); }", "java"), crippled)
    assert cfg.fallback_types == {"while_statement"}
    assert [n.kind for n in cfg.nodes] == ["entry", "param", "statement", "statement"]
    assert build_pdg("void f(int a) { while (a > 0) a--; }", "java").graph[
        "fallback_types"] == ()


def test_role_tables_cover_every_language():
    for lang in ("java", "csharp", "python", "c", "cpp", "javascript"):
        roles = get_roles(lang)
        present = set(roles.statements.values())
        assert {Role.IF, Role.WHILE, Role.BREAK, Role.CONTINUE, Role.RETURN,
                Role.BLOCK} <= present, lang


def control(g):
    return {(g.nodes[u]["label"], g.nodes[v]["label"])
            for u, v, t in g.edges(data="type") if t == "control"}


def data(g):
    return {(g.nodes[u]["label"], g.nodes[v]["label"], d["var"])
            for u, v, d in g.edges(data=True) if d["type"] == "data"}


def test_with_like_statements():
    g = build_pdg("void F(string p) { using (var r = Open(p)) { r.Read(); } lock (this) "
                  "{ n++; } Done(); }", "csharp", names="declaration")
    assert [g.nodes[n]["kind"] for n in g] == ["entry", "param", "with", "statement", "with",
                                               "statement", "statement"]
    # Read through the local r reads (and weakly writes) r; Open and Done have unknown
    # effects, ordered
    assert data(g) == {("string v0", "using (var v1 = Open(v0))", "v0"),
                       ("using (var v1 = Open(v0))", "v1.Read()", "v1"),
                       ("using (var v1 = Open(v0))", "Done()", "<effects>")}
    assert all(u == "void F(string)" for u, _ in control(g))
    g = build_pdg("void f(Object o) { synchronized (o) { g(o); } }", "java")
    assert [g.nodes[n]["label"] for n in g] == ["void f(Object)", "Object v0", "synchronized (v0)",
                                                "g(v0)"]


def test_yield():
    g = build_pdg("IEnumerable<int> F(int n) { if (n < 0) yield break; yield return n; "
                  "Log(n); }", "csharp")
    assert [g.nodes[n]["kind"] for n in g] == ["entry", "param", "if", "yield", "yield",
                                               "statement"]
    # yield break leaves, yield return continues
    assert control(g) >= {("if (v0 < 0)", "yield break"), ("if (v0 < 0)", "yield return v0"),
                          ("if (v0 < 0)", "Log(v0)")}
    g = build_pdg("def f(xs):\n    for x in xs:\n        yield x\n    return\n", "python",
                  names="declaration")
    assert ("for v1 in v0", "yield v1") in control(g)


def test_unreachable_code_hangs_off_the_entry():
    g = build_pdg("int f() { return 1; g(); }", "java")
    assert control(g) == {("int f()", "return 1"), ("int f()", "g()")}


def test_infinite_loops_still_have_control_dependences():
    g = build_pdg("void f() { for (;;) { g(); } }", "java")
    # a classic for's condition is labelled as the equivalent while's
    assert control(g) == {("void f()", "while ()"), ("while ()", "while ()"),
                          ("while ()", "g()")}
    g = build_pdg("void f() { l: g(); goto l; }", "c")
    assert ("void f()", "g()") in control(g)


def test_class_with_methods_and_fields():
    g = build_pdg("class A {\n  int n;\n  A(int n) { this.n = n; }\n  int get() { return n; }"
                  "\n}", "java")
    assert [(g.nodes[v]["kind"], g.nodes[v]["label"]) for v in g] == [
        ("entry", "entry"), ("function", "function A"), ("param", "int v0"),
        ("statement", "n = v0"), ("function", "function get"), ("return", "return n")]
    assert g.graph["functions"] == 2 and g.graph["statements"] == 2
    assert data(g) == {("int v0", "n = v0", "v0")}


def test_functions_next_to_statements_and_imports():
    g = build_pdg("import os\n\ndef f(a):\n    return a\n\nprint(f(1))\n", "python")
    assert [g.nodes[v]["label"] for v in g] == ["entry", "function f", "v0", "return v0",
                                                "print(f(1))"]
    assert control(g) == {("entry", "function f"), ("entry", "print(f(1))"),
                          ("function f", "v0"), ("function f", "return v0")}
    # one function after imports is just that function
    g = build_pdg("#include <stdio.h>\nint main(void) { printf(\"hi\"); return 0; }", "c")
    assert [g.nodes[v]["label"] for v in g] == ["int main()", 'printf("hi")', "return 0"]


def test_arrow_functions_and_expression_bodies():
    g = build_pdg("const f = (a, b) => a + b;", "javascript")
    assert [g.nodes[v]["label"] for v in g] == ["f(_, _)", "v0", "v1", "return v0 + v1"]
    assert g.nodes[0]["text"] == "const f = (a, b) =>"
    g = build_pdg("public int Twice(int x) => x * 2;", "csharp")
    assert [g.nodes[v]["label"] for v in g] == ["int Twice(int)", "int v0", "return v0 * 2"]


def test_walrus_comprehension_and_lambda_scopes():
    g = build_pdg("def f(xs):\n    if (n := len(xs)) > 2:\n        return [x * n for x in xs]\n"
                  "    g = lambda y: y + n\n    return g(1) + g(2)\n", "python",
                  names="declaration")
    assert [g.nodes[v]["label"] for v in g] == [
        "def f(_)", "v0", "if (v1 := len(v0)) > 2", "return [v2 * v1 for v2 in v0]",
        "v3 = lambda v4: v4 + v1", "return v3(1) + v3(2)"]
    assert ("if (v1 := len(v0)) > 2", "v3 = lambda v4: v4 + v1", "v1") in data(g)
