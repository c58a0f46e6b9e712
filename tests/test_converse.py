"""``b > a`` is ``a < b`` (and ``b >= a`` is ``a <= b``) in GRS labels, where that is the same
meaning: both operands free of effects (:mod:`graphs.canon.orientation`, "Converse comparisons" in
:mod:`graphs.canon.idioms`).

Each converse rewrite scores GRS 1.0 against the original; each near miss (the operator
reversed, ``a < b`` to ``a > b``, which reads ``b < a``; the operands swapped; a non-strict
operator for a strict one) stays below 1.0, whatever the canonical names of the operands
(parameters by position, locals by their declaration, lambda and comprehension names by
their place, fields and globals by their own name). Operands with effects, Python chains,
C++ shifts and templates are left as written.
"""

from __future__ import annotations

import random

import pytest
from grs_helpers import grs

from graphs.neutral import neutral_pdg
from graphs.pdg.build import build_pdg
from validity.mutations import converse_comparison


def labels(code: str, language: str) -> list[str]:
    g = build_pdg(code, language)
    return [g.nodes[n]["label"] for n in g]


# ---------------------------------------------------------------------------------------
# the examples of the report

_JAVA_IF = ("void f(int a, int b){ if (a < b) { System.out.println(a); } "
            "else { System.out.println(b); } }")
_PY_FILTER = "def f(xs, t):\n    return [x for x in xs if x < t]\n"


def test_the_reported_java_converse_is_equal_and_the_bug_is_not() -> None:
    assert grs(_JAVA_IF, _JAVA_IF.replace("a < b", "b > a"), "java") == 1.0
    assert grs(_JAVA_IF, _JAVA_IF.replace("a < b", "a <= b"), "java") < 1.0


def test_the_reported_python_converse_scores_above_the_bug() -> None:
    converse = grs(_PY_FILTER, _PY_FILTER.replace("x < t", "t > x"), "python")
    bug = grs(_PY_FILTER, _PY_FILTER.replace("x < t", "x <= t"), "python")
    assert converse == 1.0 > bug


# ---------------------------------------------------------------------------------------
# every language, every place a comparison stands in a label

# (language, code with the comparison "a < b"); the converse is "b > a"
PLACES = [
    ("java", "void f(int a, int b) { if (a < b) g(); else h(); }"),
    ("java", "void f(int a, int b) { while (a < b) a += 2; }"),
    ("java", "boolean f(int a, int b) { return a < b; }"),
    ("java", "void f(int a, int b) { boolean c = a < b; g(c); }"),
    ("java", "int f(int a, int b) { return a < b ? a : b; }"),
    ("java", "void f(List<Integer> xs, int b) { xs.removeIf(a -> a < b); }"),
    ("java", "void f(int[] xs, int b) { for (int i = 0; i < xs.length; i++) "
             "if (xs[i] < this.lim) g(i); }".replace("xs[i] < this.lim", "a < b")
     .replace("int b)", "int a, int b)")),
    ("csharp", "bool F(int a, int b) { return a < b; }"),
    ("csharp", "void F(int a, int b) { if (a < b) { G(); } else { H(); } }"),
    ("csharp", "bool F(List<int> xs, int b) { return xs.Any(a => a < b); }"),
    ("cpp", "bool f(int a, int b) { return a < b; }"),
    ("cpp", "void f(int a, int b) { for (; a < b; a++) g(a); }"),
    ("cpp", "void f(vector<int>& v, int b) { auto it = find_if(v.begin(), v.end(), "
            "[b](int a) { return a < b; }); g(it); }"),
    ("c", "int f(int a, int b) { int m = a < b ? a : b; return m; }"),
    ("c", "void f(int a, int b) { do { a++; } while (a < b); }"),
    ("javascript", "function f(a, b) { return a < b; }"),
    ("javascript", "function f(xs, b) { return xs.filter(a => a < b); }"),
    ("javascript", "function f(a, b) { if (a < b) { g(); } else { h(); } }"),
    ("python", "def f(a, b):\n    return a < b\n"),
    ("python", "def f(a, b):\n    if a < b:\n        g()\n    else:\n        h()\n"),
    ("python", "def f(xs, b):\n    return [a for a in xs if a < b]\n"),
    ("python", "def f(xs, b):\n    return sorted(xs, key=lambda a: a < b)\n"),
    ("python", "def f(a, b):\n    x = 1 if a < b else 2\n    return x\n"),
]


def _ids(cases: list[tuple[str, str]]) -> list[str]:
    return [f"{lang}-{k}" for k, (lang, _) in enumerate(cases)]


@pytest.mark.parametrize("case", PLACES, ids=_ids(PLACES))
def test_the_converse_is_one_graph_and_near_misses_are_not(case: tuple[str, str]) -> None:
    language, code = case
    assert "a < b" in code
    for same in ("b > a", "(b) > a"):
        assert grs(code, code.replace("a < b", same), language) == 1.0, same
        assert grs(code.replace("a < b", same), code, language) == 1.0, same
    for near in ("a > b", "b < a", "a <= b", "b >= a", "a >= b"):
        assert grs(code, code.replace("a < b", near), language) < 1.0, near
    # the non-strict forms are one graph too
    loose = code.replace("a < b", "a <= b")
    assert grs(loose, loose.replace("a <= b", "b >= a"), language) == 1.0


@pytest.mark.parametrize(("language", "head"), [
    ("java", "int f(int a, int b, int[] xs)"), ("csharp", "int F(int a, int b, int[] xs)"),
    ("cpp", "int f(int a, int b, int *xs)"), ("c", "int f(int a, int b, int *xs)"),
    ("javascript", "function f(a, b, xs)")])
def test_every_order_comparison_reads_less(language: str, head: str) -> None:
    code = (head + " { int n = 0; if (b > a) n += 1; "
            "if (xs[a] >= -b) n += 2; while (n > 3) n -= 1; return n; }")
    if language == "javascript":
        code = code.replace("int n", "let n")
    got = labels(code, language)
    ifs = [lab for lab in got if lab.startswith(("if", "while"))]
    assert ifs == ["if (v0 < v1)", "if (-v1 <= v2[v0])",
                   next(lab for lab in ifs if lab.startswith("while"))], got
    assert not any(">" in lab for lab in got[1:]), got


# ---------------------------------------------------------------------------------------
# with the orientation of an if/else: one form whichever way it is written

ORIENTED = [  # all "if a < b then g else h"
    "if (a < b) g(); else h();",
    "if (b > a) g(); else h();",
    "if (a >= b) h(); else g();",
    "if (b <= a) h(); else g();",
    "if (!(a >= b)) g(); else h();",
    "if (!(b > a)) h(); else g();",
    "if (!(a < b)) h(); else g();",
    "if (!(b <= a)) g(); else h();",
]


@pytest.mark.parametrize("body", ORIENTED)
def test_an_if_reads_one_way_after_both_rules(body: str) -> None:
    code = "void f(int a, int b) { " + body + " }"
    first = "void f(int a, int b) { " + ORIENTED[0] + " }"
    assert grs(first, code, "java") == 1.0
    assert "if (v0 < v1)" in labels(code, "java")
    # the swapped branches without the negation are a different graph
    mutant = code.replace("g();", "x();").replace("h();", "g();").replace("x();", "h();")
    assert grs(first, mutant, "java") < 1.0


def test_a_conditional_expression_reads_one_way_after_both_rules() -> None:
    forms = ["int f(int a, int b) { return a < b ? a : b; }",
             "int f(int a, int b) { return b > a ? a : b; }",
             "int f(int a, int b) { return a >= b ? b : a; }",
             "int f(int a, int b) { return b <= a ? b : a; }",
             "int f(int a, int b) { return !(b > a) ? b : a; }"]
    for code in forms:
        assert labels(code, "csharp")[-1] == "return v0 < v1 ? v0 : v1", code


def test_a_comparison_in_a_swapped_branch_is_still_read_as_its_converse() -> None:
    a = "boolean f(int a, boolean c) { return c ? a > 0 : false; }"
    b = "boolean f(int a, boolean c) { return !c ? false : a > 0; }"
    assert labels(a, "java")[-1] == labels(b, "java")[-1] == "return v1 ? 0 < v0 : false"


# ---------------------------------------------------------------------------------------
# renaming: a reversed operator never takes the original's label

TRAPS = [  # (language, code with "{l} < {r}", l, r): what l and r are
    ("java", "void f(int a, int b) { if ({l} < {r}) g(); }", "a", "b"),  # parameters
    ("java", "void f() { int a = read(); int b = read2(); if ({l} < {r}) g(); }", "a", "b"),
    # locals declared alike, told apart by what is done with them
    ("java", "void f() { int a = read(); int b = read(); if ({l} < {r}) g(); }", "a", "b"),
    ("java", "void f() { int a = 0; int b = 0; a = p(); b = q(); if ({l} < {r}) g(a); }",
     "a", "b"),
    ("java", "void f() { if ({l} < {r}) g(); }", "this.a", "this.b"),  # fields
    ("java", "void f() { if ({l} < {r}) g(); }", "a", "b"),  # first seen in the comparison
    ("java", "void f() { if ({l} < {r}) g(); }", "A.x", "B.y"),
    ("java", "boolean f(List<Integer> xs) { return xs.stream().anyMatch(a -> {l} < {r}); }",
     "a", "b"),  # a lambda's parameter and a global
    ("python", "def f():\n    a = read()\n    b = read()\n    if {l} < {r}:\n        g()\n",
     "a", "b"),
    ("python", "def f(xs):\n    return [a for a in xs for b in xs if {l} < {r}]\n", "a", "b"),
    ("python", "def f(d):\n    return {{a: b for a, b in d.items() if {l} < {r}}}\n",
     "a", "b"),
    ("python", "def f():\n    return {l} < {r}\n", "a", "b"),  # globals
    ("python", "def f(xs):\n    return [x for x in xs if {l} < {r}]\n", "x", "t"),
    ("javascript", "function f(xs) { return xs.sort((a, b) => {l} < {r} ? -1 : 1); }",
     "a", "b"),
    ("csharp", "bool F() { var a = R(); var b = R(); return {l} < {r}; }", "a", "b"),
    ("cpp", "bool f() { return {l} < {r}; }", "this->a", "this->b"),
    ("cpp", "bool f(int *xs, int i) { return {l} < {r}; }", "xs[i]", "xs[0]"),
    ("c", "int f() { int a = r(); int b = r(); return {l} < {r}; }", "a", "b"),
]


@pytest.mark.parametrize("case", TRAPS, ids=_ids([(c[0], c[1]) for c in TRAPS]))
def test_renaming_never_makes_a_reversed_comparison_the_original(
        case: tuple[str, str, str, str]) -> None:
    language, template, left, right = case

    def form(a: str, op: str, b: str) -> str:
        return template.replace("{l} < {r}", f"{a} {op} {b}").replace("{{", "{") \
            .replace("}}", "}")

    code = form(left, "<", right)
    assert grs(code, form(right, ">", left), language) == 1.0
    for near in (form(left, ">", right), form(right, "<", left)):
        assert grs(code, near, language) < 1.0, near


# ---------------------------------------------------------------------------------------
# left as written

KEPT = [  # (language, code, a comparison that must stay in a label as written)
    ("java", "boolean f(int a) { return g() > a; }", "g() > v0"),
    ("java", "boolean f(int a) { return a++ > 0; }", "v0++ > 0"),
    ("java", "boolean f(int a, int b) { return (a = b) > 0; }", "(v0 = v1) > 0"),
    ("java", "boolean f(int a) { return a + 1 > 0; }", "v0 + 1 > 0"),
    ("csharp", "bool F(int a) { return new X() > a; }", "new X() > v0"),
    ("csharp", "bool F(int a) { return $\"{a}\".Length > 0; }", "> 0"),
    ("javascript", "async function f(a) { return await g() > a; }", "await g() > v0"),
    ("javascript", "function f(a) { return `${a}` > a; }", "} ` > v0"),
    ("python", "def f(a, b, c):\n    return c > b > a\n", "v2 > v1 > v0"),
    ("python", "def f(a):\n    return f'{a}' > a\n", "' > v0"),
    ("python", "def f(a):\n    return len(a) > 0\n", "len(v0) > 0"),
    ("cpp", "bool f(int a) { return (a >> 2) > a; }", "v0 >> 2 > v0"),
    ("cpp", "int f(int a) { std::vector<std::vector<int>> v; return v.size(); }",
     "vector<vector<int>>"),
    ("c", "int f(int *p, int a) { return *p > a; }", "*v0 > v1"),
]


@pytest.mark.parametrize("case", KEPT, ids=_ids([(c[0], c[1]) for c in KEPT]))
def test_operands_with_effects_chains_and_shifts_are_left_as_written(
        case: tuple[str, str, str]) -> None:
    language, code, kept = case
    got = labels(code, language)
    assert any(kept in lab for lab in got), got


def test_a_temporary_of_effects_keeps_its_reader_as_written() -> None:
    """``int n = s.length(); if (n > 0)`` is ``if (s.length() > 0)``: the temporary folds into
    its reader, which then compares a call, so it stays as written (as its direct form)."""
    folded = "void f(String s) { int n = s.length(); if (n > 0) g(); }"
    direct = "void f(String s) { if (s.length() > 0) g(); }"
    assert labels(folded, "java") == labels(direct, "java")
    assert "if (v0.length() > 0)" in labels(direct, "java")
    # two temporaries of effects: both operands are locals as written, one folds
    both = "void f() { int a = read(); int b = read2(); if (a < b) g(); }"
    assert grs(both, both.replace("a < b", "b > a"), "java") == 1.0
    # one temporary of effects beside a local read again: as written, as its direct form
    one = "void f() { int a = read(); int b = read(); if (b > a) g(a); }"
    assert labels(one, "java") == labels(
        "void f() { int a = read(); if (read() > a) g(a); }", "java")


def test_a_loop_element_read_through_a_call_is_the_element() -> None:
    loop = ("int f(List<Integer> xs) { int s = 0; for (int i = 0; i < xs.size(); ++i) "
            "{ if (xs.get(i) > 0) s += xs.get(i); } return s; }")
    each = "int f(List<Integer> xs) { int s = 0; for (Integer x : xs) { if (0 < x) s += x; } " \
           "return s; }"
    assert grs(loop, each, "java") == 1.0


@pytest.mark.parametrize(("language", "code"), [
    ("java", "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) s += xs[i]; "
             "return s; }"),
    ("csharp", "int F(List<int> xs) { int s = 0; for (int i = 0; i < xs.Count; i++) "
               "{ s += xs[i]; } return s; }"),
    ("javascript", "function f(xs) { let s = 0; for (let i = 0; i < xs.length; i++) "
                   "{ s += xs[i]; } return s; }"),
    ("cpp", "int f(vector<int> xs) { int s = 0; for (int i = 0; i < xs.size(); i++) "
            "{ s += xs[i]; } return s; }"),
])
def test_an_indexed_loop_bounded_the_other_way_round_is_its_foreach(language: str,
                                                                    code: str) -> None:
    bound = code.split("; ")[2]  # i < xs.length
    index, _, length = bound.partition(" < ")
    assert grs(code, code.replace(bound, f"{length} > {index}"), language) == 1.0
    assert any(lab.startswith(("for (", "foreach (")) and "; " not in lab
               for lab in labels(code.replace(bound, f"{length} > {index}"), language))


def test_a_temporary_is_never_folded_into_a_loop_condition() -> None:
    code = ("void f(int a, int b) { int lo = Math.max(a, 2); int hi = Math.min(b, 8); "
            "for (int i = lo; i <= hi; i += 2) g(i); int n = a + 1; int k = 0; "
            "while (k < n) { g(k); k++; } }")
    other = code.replace("i <= hi", "hi >= i").replace("k < n", "n > k")
    assert grs(code, other, "java") == 1.0


def test_a_comparison_in_a_class_written_out_in_its_label_keeps_its_names() -> None:
    code = ("void f() { class P { boolean g(int n) { for (int j = 2; j < n; j++) { h(j); } "
            "return true; } } }")
    assert labels(code, "java")[-1] == labels(code.replace("j < n", "n > j"), "java")[-1]


def test_the_neutral_graph_still_reads_a_countdown_as_a_range() -> None:
    java = "void f(int n) { for (int i = n; i > 0; i--) g(i); }"
    py = "def f(n):\n    for i in range(n, 0, -1):\n        g(i)\n"
    up = "void f(int n) { for (int i = 0; n > i; i++) g(i); }"

    def neutral(code: str, language: str) -> list[str]:
        g = neutral_pdg(build_pdg(code, language))[0]
        return [g.nodes[n]["label"] for n in g]

    assert neutral(java, "java") == neutral(py, "python")
    assert any(lab.startswith("for ") and "range(0, v0)" in lab for lab in neutral(up, "java"))


# ---------------------------------------------------------------------------------------
# the mutation benchmark's variant


@pytest.mark.parametrize("case", PLACES, ids=_ids(PLACES))
def test_the_converse_comparison_variant_scores_one(case: tuple[str, str]) -> None:
    language, code = case
    outs = {converse_comparison(code, language, random.Random(k)) for k in range(6)}
    outs.discard(None)
    assert outs, code
    for out in outs:
        assert grs(code, out, language) == 1.0, out


@pytest.mark.parametrize(("language", "code"), [
    ("java", "boolean f() { return g() < a || a++ < b; }"),
    ("python", "ok = a < b < c"),
    ("javascript", "ok = `${a}` < b;"),
    ("cpp", "bool f() { return (a >> 2) == b; }"),
])
def test_the_variant_has_no_site_with_effects_or_chains(language: str, code: str) -> None:
    assert converse_comparison(code, language, random.Random(0)) is None
