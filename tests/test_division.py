"""Integer and true division in the neutral vocabulary (graphs.neutral.division): Python's
``//`` and ``/`` are two operators, the C family's ``/`` is one or the other by its operands'
types, JavaScript's ``Math.floor(a / b)`` is the integer one; PDG labels and trees agree."""

from __future__ import annotations

import pytest

import graphs
from graphs.neutral import neutral_label, neutral_pdg
from graphs.neutral.division import (
    Numeric,
    call,
    declared,
    literal,
    quotient,
    true_quotients,
    typed_divisions,
)
from graphs.neutral.trees import typed_tree_divisions
from ruby_metric import RubyScorer

PY_FLOOR = "def f(a, b):\n    c = a // b\n    return c + 1"
PY_TRUE = "def f(a, b):\n    c = a / b\n    return c + 1"


# --------------------------------------------------------------------------- the rules


def test_declared_literal_and_call_types():
    assert declared(["int"]) == Numeric("int")
    assert declared(["long", "double"]) == Numeric("float")  # `long double` is floating
    assert declared(["vector", "int"]) == Numeric("int", 1)
    assert declared(["double"], 1) == Numeric("float", 1)
    assert declared(["String"]) is None and declared(["Map", "int"]) is None
    assert [literal(x) for x in ("2", "0x1F", "10L", "'a'")] == [Numeric("int")] * 4
    assert [literal(x) for x in ("2.0", "2f", "1e3", "2m", "1.")] == [Numeric("float")] * 5
    assert literal('"2"') is None
    assert call("size", None, []) == Numeric("int")
    assert call("floor", None, [Numeric("int")]) == Numeric("float")  # Math.floor: double
    assert call("max", None, [Numeric("int"), Numeric("float")]) == Numeric("float")
    assert call("get", Numeric("int", 1), [Numeric("int")]) == Numeric("int")
    assert call("foo", None, []) is None


def test_quotient_reading():
    i, f = Numeric("int"), Numeric("float")
    assert (quotient(i, i), quotient(i, f), quotient(f, None), quotient(i, None),
            quotient(None, None)) == ("integer", "true", "true", "unknown", "unknown")


@pytest.mark.parametrize(("language", "labels", "expected"), [
    # parameters, literals, `.length`, arrays, casts, `/=`
    ("java", {0: ("param", "int v0"), 1: ("param", "double[] v1"),
              2: ("return", "return v0 / 2 + v1[0] / v0")},
     {2: ("return v0 // 2 + v1[0] / v0", ("division:integer", "division:true"))}),
    ("java", {0: ("param", "int v0"), 1: ("declaration", "double v2 = (double) v0 / 3")},
     {1: ("double v2 = (double) v0 / 3", ("division:true",))}),
    ("java", {0: ("param", "double v0"), 1: ("declaration", "int v2 = (int) v0 / 3")},
     {1: ("int v2 = (int) v0 // 3", ("division:integer",))}),
    ("java", {0: ("param", "int[] v0"), 1: ("statement", "v5 /= v0.length")},
     {1: ("v5 //= v0.length", ("division:unknown",))}),
    ("java", {0: ("param", "int[] v0"), 1: ("declaration", "int v5 = 7"),
              2: ("statement", "v5 /= v0.length")},
     {2: ("v5 //= v0.length", ("division:integer",))}),
    # a product's type: int * int is int, with a double it is double
    ("java", {0: ("param", "int v0"), 1: ("param", "double v1"),
              2: ("return", "return v0 * v0 / 2"), 3: ("return", "return v0 * v1 / 2")},
     {2: ("return v0 * v0 // 2", ("division:integer",)),
      3: ("return v0 * v1 / 2", ("division:true",))}),
    # a number split by the label's tokens is one literal; Math.sqrt is a double
    ("cpp", {0: ("param", "int v0"), 1: ("return", "return v0 / 2.5 + sqrt(v0) / 2")},
     {1: ("return v0 / 2.5 + sqrt(v0) / 2", ("division:true",))}),
    # `1.` is a floating literal, even when the label's tokens cut it from its dot
    ("java", {0: ("param", "int v0"), 1: ("return", "return Math.pow(v0, 1. / 3)")},
     {1: ("return Math.pow(v0, 1. / 3)", ("division:true",))}),
    # C#'s `var` takes its initializer's type; a List<int>'s Count is an int
    ("csharp", {0: ("param", "List<int> v0"), 1: ("declaration", "var v1 = v0.Count * 1.5"),
                2: ("return", "return v1 / 2")},
     {2: ("return v1 / 2", ("division:true",))}),
    # C's array declarator and a call the rules do not know (unknown: integer division)
    ("c", {0: ("param", "int v0[10]"), 1: ("return", "return v0[1] / foo(v0)")},
     {1: ("return v0[1] // foo(v0)", ("division:unknown",))}),
    # Python and JavaScript write which division they mean: nothing to type
    ("python", {0: ("param", "v0"), 1: ("return", "return v0 / 2")}, {}),
    ("javascript", {0: ("param", "v0"), 1: ("return", "return v0 / 2")}, {}),
])
def test_typed_divisions_of_labels(language, labels, expected):
    kinds = {n: kind for n, (kind, _) in labels.items()}
    texts = {n: label for n, (_, label) in labels.items()}
    assert typed_divisions(texts, kinds, language) == expected


def test_neutral_labels_of_the_two_quotients():
    assert neutral_label("return v0 // v1", "return", "python").label == "return v0 // v1"
    assert neutral_label("v0 //= 2", "statement", "python").label == "v0 //= 2"
    assert neutral_label("return int(v0 / v1)", "return", "python").label == \
        "return v0 // v1"
    assert neutral_label("return Math.floor(v0 / v1)", "return", "javascript").label == \
        "return v0 // v1"
    assert neutral_label("return Math.trunc(v0 / v1)", "return", "javascript").label == \
        "return v0 // v1"
    assert neutral_label("return v0 / v1", "return", "javascript").label == "return v0 / v1"
    assert neutral_label("return (v0 / v1) | 0", "return", "javascript").label == \
        "return v0 // v1"
    assert neutral_label("return ~~(v0 / v1)", "return", "javascript").label == \
        "return v0 // v1"
    # folded as each language's PDG folds `x = x / y`
    assert neutral_label("v0 = Math.floor(v0 / v1)", "statement", "javascript").label == \
        "v0 //= v1"
    assert neutral_label("v0 = Math.floor(v0 / v1) + 1", "statement", "javascript").label == \
        "v0 = v0 // v1 + 1"
    assert true_quotients(["v0", "/", "float", "(", "v1", ")"]) == ["v0", "/", "v1"]
    assert true_quotients(["float", "(", "v1", ")", "+", "v0"]) == \
        ["float", "(", "v1", ")", "+", "v0"]


def test_the_pdg_names_the_rule():
    java = graphs.build_pdg("double f(int a, double d) { return a / 2 + d / 2; }", "java")
    _, report = neutral_pdg(java)
    rules = dict(report.rules)
    assert (rules["division:integer"], rules["division:true"]) == (1, 1)
    ret = next(m for m in report.labels if m.source.startswith("return"))
    assert ret.label == "return v0 // 2 + v1 / 2"


def test_the_tree_reads_division_as_the_labels_do():
    tree = graphs.normalized_ast(graphs.parse(
        "double f(int a, double d, int[] xs) { int c = a / 2; c /= xs.length; "
        "return (double) a / c + d / a + xs[0] / c; }", "java"))
    got = sorted(typed_tree_divisions(tree, "java").values())
    assert got == [("assignment_expression://=", "division:integer"),
                   ("binary_expression:/", "division:true"),
                   ("binary_expression:/", "division:true"),
                   ("binary_expression://", "division:integer"),
                   ("binary_expression://", "division:integer")]
    qualified = graphs.normalized_ast(graphs.parse(
        "float f(const std::vector<float>& v, const int n) { return v[0] / n + n / 2; }",
        "cpp"))
    assert sorted(typed_tree_divisions(qualified, "cpp").values()) == [
        ("binary_expression:/", "division:true"),
        ("binary_expression://", "division:integer")]
    cpp = graphs.normalized_ast(graphs.parse(
        "float f(std::vector<int> v, float h) { auto n = v.size(); return n / 2 + h / n; }",
        "cpp"))
    assert sorted(typed_tree_divisions(cpp, "cpp").values()) == [
        ("binary_expression:/", "division:true"),
        ("binary_expression://", "division:integer")]


# --------------------------------------------------------------------------- scores


JAVA_INT = "int f(int a, int b) { int c = a / b; return c + 1; }"


# (source language, language, source, the right translation, the wrong one, what TRS
# says: "one" the right scores 1.0 above the wrong, "above" the right above the wrong,
# None: not asserted, the tree tier has no call table)
@pytest.mark.parametrize(("source_language", "language", "source", "right", "wrong", "trs"), [
    pytest.param("java", "python", JAVA_INT, PY_FLOOR, PY_TRUE, "one",
                 id="java int division is python floor division"),
    pytest.param("java", "python",
                 "double f(double a, double b) { double c = a / b; return c + 1; }",
                 PY_TRUE, PY_FLOOR, "one", id="java double division is python true division"),
    pytest.param("java", "javascript", JAVA_INT,
                 "function f(a, b) {\n  const c = Math.floor(a / b);\n  return c + 1;\n}",
                 "function f(a, b) {\n  const c = a / b;\n  return c + 1;\n}", None,
                 id="javascript needs Math.floor for a java int division"),
    pytest.param("java", "javascript",
                 "int f(int x, int base) { while (x > 0) { x = x / base; } return x; }",
                 "function f(x, base) {\n  while (x > 0) {\n    x = Math.floor(x / base);\n"
                 "  }\n  return x;\n}",
                 "function f(x, base) {\n  while (x > 0) {\n    x = x / base;\n  }\n"
                 "  return x;\n}", None,
                 id="javascript floor into the variable is a compound integer division"),
    pytest.param("cpp", "python",
                 "#include <vector>\nint f(std::vector<int> v) { int c = v.size() / 2; "
                 "c /= v[0]; return c; }",
                 "def f(v):\n    c = len(v) // 2\n    c //= v[0]\n    return c",
                 "def f(v):\n    c = len(v) / 2\n    c /= v[0]\n    return c", "above",
                 id="cpp size division and compound division"),
    pytest.param("csharp", "python",
                 "class A { double F(double[] d) { var m = d.Length / 2.0; return m; } }",
                 "def f(d):\n    m = len(d) / 2.0\n    return m",
                 "def f(d):\n    m = len(d) // 2.0\n    return m", "above",
                 id="csharp var with a double literal is true division"),
    pytest.param("java", "python",
                 "double f(int a, int b) { double c = (double) a / b; return c + 1; }",
                 PY_TRUE, PY_FLOOR, "above", id="a cast to double asks for true division"),
    pytest.param("java", "python",
                 "int f(Foo a, Foo b) { int c = a.x / b.y; return c + 1; }",
                 "def f(a, b):\n    c = a.x // b.y\n    return c + 1",
                 "def f(a, b):\n    c = a.x / b.y\n    return c + 1", "one",
                 id="unknown types keep integer division"),
])
def test_the_right_division_scores_one_and_the_wrong_lower(source_language, language, source,
                                                            right, wrong, trs):
    scorer = RubyScorer(language=language, source_language=source_language)
    r, w = scorer.score_source(source, right), scorer.score_source(source, wrong)
    assert r.grs == 1.0 > w.grs
    if trs == "one":
        assert r.trs == 1.0 > w.trs
    elif trs == "above":
        assert r.trs > w.trs


def test_explain_names_the_division_rule():
    scorer = RubyScorer(language="python", source_language="java")
    text = scorer.explain_source(JAVA_INT, PY_FLOOR).to_text()
    assert "division:integer x1" in text
