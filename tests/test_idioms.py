"""The idioms a translator changes are one graph (SPEC section 3, "What the graph must see";
:mod:`graphs.canon.idioms`): each pair below scores GRS 1.0, and a near-miss mutant of it does not.
"""

from __future__ import annotations

import pytest

from ruby_metric import RubyScorer

_SCORERS: dict[str, RubyScorer] = {}


def grs(a: str, b: str, language: str) -> float:
    scorer = _SCORERS.setdefault(language, RubyScorer(language=language))
    value = scorer.score(a, b).grs
    assert value is not None, (a, b)
    return value


# (language, reference, equivalent rewrite, near-miss mutant of the rewrite)
INDEXED = [
    ("java",
     "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) { s += xs[i]; } "
     "return s; }",
     "int f(int[] xs) { int s = 0; for (int x : xs) { s += x; } return s; }",
     "int f(int[] xs) { int s = 0; for (int x : xs) { s -= x; } return s; }"),
    ("java",
     "int f(List<Integer> xs) { int s = 0; for (int i = 0; i < xs.size(); ++i) "
     "{ if (xs.get(i) > 0) s += xs.get(i); } return s; }",
     "int f(List<Integer> xs) { int s = 0; for (Integer x : xs) { if (x > 0) s += x; } "
     "return s; }",
     "int f(List<Integer> xs) { int s = 0; for (Integer x : xs) { if (x > 1) s += x; } "
     "return s; }"),
    ("java",
     "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i += 1) s += xs[i]; "
     "return s; }",
     "int f(int[] xs) { int s = 0; for (var x : xs) s += x; return s; }",
     "int f(int[] xs) { int s = 1; for (var x : xs) s += x; return s; }"),
    ("csharp",
     "int F(int[] xs) { int s = 0; for (int i = 0; i < xs.Length; i++) { s += xs[i]; } "
     "return s; }",
     "int F(int[] xs) { int s = 0; foreach (var x in xs) { s += x; } return s; }",
     "int F(int[] xs) { int s = 0; foreach (var x in xs) { s *= x; } return s; }"),
    ("csharp",
     "int F(List<int> xs) { int s = 0; for (var i = 0; i < xs.Count; i++) "
     "Console.WriteLine(xs[i]); return s; }",
     "int F(List<int> xs) { int s = 0; foreach (int x in xs) Console.WriteLine(x); "
     "return s; }",
     "int F(List<int> xs) { int s = 0; foreach (int x in xs) Console.Write(x); return s; }"),
    ("cpp",
     "int f(vector<int>& xs) { int s = 0; for (size_t i = 0; i < xs.size(); i++) "
     "{ s += xs[i] * 2; } return s; }",
     "int f(vector<int>& xs) { int s = 0; for (auto& x : xs) { s += x * 2; } return s; }",
     "int f(vector<int>& xs) { int s = 0; for (auto& x : xs) { s += x * 3; } return s; }"),
    ("javascript",
     "function f(xs) { let s = 0; for (let i = 0; i < xs.length; i++) { s += xs[i]; } "
     "return s; }",
     "function f(xs) { let s = 0; for (const x of xs) { s += x; } return s; }",
     "function f(xs) { let s = 0; for (const x of xs) { s += x + 1; } return s; }"),
    ("python",
     "def f(xs):\n    s = 0\n    for i in range(len(xs)):\n        s += xs[i]\n    return s\n",
     "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
     "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return x\n"),
]

# an indexed loop that is *not* its foreach: each must stay below 1.0 against the foreach
NOT_INDEXED = [
    ("java", "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) "
     "{ s += xs[i] * i; } return s; }",
     "int f(int[] xs) { int s = 0; for (int x : xs) { s += x * x; } return s; }"),
    ("java", "int f(int[] xs) { int s = 0; for (int i = 1; i < xs.length; i++) "
     "{ s += xs[i]; } return s; }",
     "int f(int[] xs) { int s = 0; for (int x : xs) { s += x; } return s; }"),
    ("java", "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length - 1; i++) "
     "{ s += xs[i]; } return s; }",
     "int f(int[] xs) { int s = 0; for (int x : xs) { s += x; } return s; }"),
    ("java", "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) "
     "{ xs[i] = s; } return s; }",
     "int f(int[] xs) { int s = 0; for (int x : xs) { x = s; } return s; }"),
    ("csharp", "int F(int[] xs) { int s = 0; for (int i = 0; i <= xs.Length; i++) "
     "{ s += xs[i]; } return s; }",
     "int F(int[] xs) { int s = 0; foreach (var x in xs) { s += x; } return s; }"),
    ("javascript", "function f(xs) { let s = 0; for (var i = 0; i < xs.length; i++) "
     "{ s += xs[i]; } return s + i; }",
     "function f(xs) { let s = 0; for (const x of xs) { s += x; } return s + i; }"),
    ("python", "def f(xs):\n    s = 0\n    for i in range(len(xs)):\n        s += xs[i]\n"
     "    return i\n",
     "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return x\n"),
    ("python", "def f(xs, ys):\n    s = 0\n    for i in range(len(xs)):\n"
     "        s += ys[i]\n    return s\n",
     "def f(xs, ys):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"),
]

# the while form of the indexed loop (for_to_while of it) is the same foreach
WHILE_FORM = [
    ("csharp", "double F(int[] a) { double s = 0; for (int i = 0; i < a.Length; i++) "
     "{ s = s + a[i]; } return s / a.Length; }",
     "double F(int[] a) { double s = 0; int i = 0; while (i < a.Length) { s = s + a[i]; i++; } "
     "return s / a.Length; }",
     "double F(int[] a) { double s = 0; int i = 0; while (i < a.Length) { s = s + a[i]; } "
     "return s / a.Length; }"),
    ("java", "int f(int[] a) { int s = 0; for (int i = 0; i < a.length; i++) { s += a[i]; } "
     "return s; }",
     "int f(int[] a) { int s = 0; int i = 0; while (i < a.length) { s += a[i]; i += 1; } "
     "return s; }",
     "int f(int[] a) { int s = 0; int i = 0; while (i < a.length) { s += a[i]; i += 1; } "
     "return i; }"),
]

NEGATED = [
    ("java", "int f(int a, int b) { if (a < b) { return a; } else { return b * 2; } }",
     "int f(int a, int b) { if (a >= b) { return b * 2; } else { return a; } }",
     "int f(int a, int b) { if (a >= b) { return a; } else { return b * 2; } }"),
    ("java", "void f(boolean c) { if (c) { g(); } else { h(); } }",
     "void f(boolean c) { if (!c) { h(); } else { g(); } }",
     "void f(boolean c) { if (!c) { g(); } else { h(); } }"),
    ("csharp", "int F(int a, int b) { int r = 0; if (a == b) { r = 1; Log(r); } "
     "else { r = 2; } return r; }",
     "int F(int a, int b) { int r = 0; if (a != b) { r = 2; } else { r = 1; Log(r); } "
     "return r; }",
     "int F(int a, int b) { int r = 0; if (a != b) { r = 1; Log(r); } else { r = 2; } "
     "return r; }"),
    ("c", "int f(int a, int b) { if (a <= b) { a = b; b++; } else { b = a; } return a + b; }",
     "int f(int a, int b) { if (a > b) { b = a; } else { a = b; b++; } return a + b; }",
     "int f(int a, int b) { if (a > b) { a = b; b++; } else { b = a; } return a + b; }"),
    ("cpp", "int f(int a, bool c) { if (!(c)) { a *= 2; g(a); } else { a--; } return a; }",
     "int f(int a, bool c) { if (c) { a--; } else { a *= 2; g(a); } return a; }",
     "int f(int a, bool c) { if (c) { a *= 2; g(a); } else { a--; } return a; }"),
    ("javascript", "function f(a, b) { if (a !== b) { log(a); } else { log(b); } }",
     "function f(a, b) { if (a === b) { log(b); } else { log(a); } }",
     "function f(a, b) { if (a === b) { log(a); } else { log(b); } }"),
    ("python", "def f(a, b):\n    if not a > b:\n        print(a)\n    else:\n        print(b)\n",
     "def f(a, b):\n    if a > b:\n        print(b)\n    else:\n        print(a)\n",
     "def f(a, b):\n    if a > b:\n        print(a)\n    else:\n        print(b)\n"),
    # folded into a conditional expression (if/else assigning one variable, and ?:)
    ("java", "int f(int a, int b) { int r; if (a > b) r = a; else r = b; return r; }",
     "int f(int a, int b) { int r = a <= b ? b : a; return r; }",
     "int f(int a, int b) { int r = a <= b ? a : b; return r; }"),
    ("python", "def f(a, b):\n    return a if not b else 0\n",
     "def f(a, b):\n    return 0 if b else a\n",
     "def f(a, b):\n    return a if b else 0\n"),
]

# (declarations used twice: a temporary read once is folded into its reader anyway)
INFERRED = [
    ("java", "void f() { ArrayList<Integer> xs = new ArrayList<Integer>(); xs.add(1); "
     "g(xs); }",
     "void f() { var xs = new ArrayList<Integer>(); xs.add(1); g(xs); }",
     "void f() { var xs = new LinkedList<Integer>(); xs.add(1); g(xs); }"),
    ("java", "int f(int a) { int n = 5; n += a; return n * 2; }",
     "int f(int a) { var n = 5; n += a; return n * 2; }",
     "int f(int a) { var n = 5L; n += a; return n * 2; }"),
    ("csharp", "int F() { StringBuilder sb = new StringBuilder(); sb.Append(1); "
     "return sb.Length; }",
     "int F() { var sb = new StringBuilder(); sb.Append(1); return sb.Length; }",
     "int F() { var sb = new StringBuilder(); sb.Append(2); return sb.Length; }"),
    ("csharp", "double F(double a) { double d = 1.5; d *= a; return d; }",
     "double F(double a) { var d = 1.5; d *= a; return d; }",
     "double F(double a) { var d = 1.5f; d *= a; return d; }"),
    ("cpp", "int f(int a) { int n = 3; n -= a; return n + 1; }",
     "int f(int a) { auto n = 3; n -= a; return n + 1; }",
     "int f(int a) { auto n = 3.0; n -= a; return n + 1; }"),
    ("javascript", "function f(a) { const n = a * 2; g(n); return n + 1; }",
     "function f(a) { let n = a * 2; g(n); return n + 1; }",
     "function f(a) { let n = a * 3; g(n); return n + 1; }"),
    ("javascript", "function f(a) { var n = a * 2; n += g(n); return n + 1; }",
     "function f(a) { let n = a * 2; n += g(n); return n + 1; }",
     "function f(a) { let n = a * 2; n += g(n); return n - 1; }"),
]

# not evident: these stay different from the explicit form
NOT_INFERRED = [
    ("java", "void f() { List<Integer> xs = new ArrayList<Integer>(); xs.add(1); g(xs); }",
     "void f() { var xs = new ArrayList<>(); xs.add(1); g(xs); }"),
    ("java", "void f() { List<Integer> xs = new ArrayList<Integer>(); xs.add(1); g(xs); }",
     "void f() { var xs = new ArrayList<Integer>(); xs.add(1); g(xs); }"),
    ("java", "long f(int a) { long n = 5; n += a; return n * 2; }",
     "long f(int a) { var n = 5; n += a; return n * 2; }"),
    ("csharp", "float F(float a) { float d = 1.5f; d *= a; return d; }",
     "float F(float a) { var d = 1.5; d *= a; return d; }"),
    ("javascript", "function f(a) { if (a) { var n = 1; g(n); } return n; }",
     "function f(a) { if (a) { let n = 1; g(n); } return n; }"),
    ("javascript", "function f(a) { g(n); var n = a; n += 1; return n; }",
     "function f(a) { g(n); let n = a; n += 1; return n; }"),
]


def _ids(cases: list) -> list[str]:
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


@pytest.mark.parametrize("case", INDEXED + WHILE_FORM + NEGATED + INFERRED,
                         ids=_ids(INDEXED + WHILE_FORM + NEGATED + INFERRED))
def test_equal_meaning_equal_graph(case: tuple[str, str, str, str]) -> None:
    language, reference, variant, mutant = case
    assert grs(reference, variant, language) == 1.0
    assert grs(variant, reference, language) == 1.0
    assert grs(reference, mutant, language) < 1.0


@pytest.mark.parametrize("case", NOT_INDEXED + NOT_INFERRED, ids=_ids(NOT_INDEXED +
                                                                      NOT_INFERRED))
def test_not_the_idiom(case: tuple[str, str, str]) -> None:
    language, a, b = case
    assert grs(a, b, language) < 1.0


def test_negation_without_swap_is_a_mutant() -> None:
    """Only the orientation is canonical: the outcomes stay on the control edges."""
    a = "int f(int a, int b) { if (a < b) { return a; } else { return b * 2; } }"
    for mutant in ("int f(int a, int b) { if (!(a < b)) { return a; } else { return b * 2; } }",
                   "int f(int a, int b) { if (a >= b) { return a; } else { return b * 2; } }",
                   "int f(int a, int b) { if (a < b) { return b * 2; } else { return a; } }"):
        assert grs(a, mutant, "java") < 1.0


def test_if_without_else_keeps_its_negation() -> None:
    a = "void f(boolean c) { if (!c) { g(); } h(); }"
    b = "void f(boolean c) { if (c) { g(); } h(); }"
    assert grs(a, b, "java") < 1.0


# ---------------------------------------------------------------------------------------
# the mutation operators for these idioms (validity.mutations.idioms)

import random  # noqa: E402

import graphs  # noqa: E402
from validity.mutations import OPERATORS  # noqa: E402
from validity.mutations.idioms import (  # noqa: E402
    field_initializer,
    indexed_to_foreach,
    inferred_type,
    negate_swap,
)

# (operator, language, code, expected output or None when it must not apply)
OPERATOR_CASES = [
    (indexed_to_foreach, "java",
     "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) { s += xs[i]; } "
     "return s; }",
     "int f(int[] xs) { int s = 0; for (int value : xs) { s += value; } return s; }"),
    (indexed_to_foreach, "csharp",
     "int F(List<int> xs) { int s = 0; for (int i = 0; i < xs.Count; i++) s += xs[i]; "
     "return s; }",
     "int F(List<int> xs) { int s = 0; foreach (var value in xs) s += value; return s; }"),
    (indexed_to_foreach, "cpp",
     "int f(vector<int> xs) { int s = 0; for (int i = 0; i < xs.size(); ++i) s += xs[i]; "
     "return s; }",
     "int f(vector<int> xs) { int s = 0; for (auto& value : xs) s += value; return s; }"),
    (indexed_to_foreach, "javascript",
     "function f(xs) { for (let i = 0; i < xs.length; i++) { g(xs[i]); } }",
     "function f(xs) { for (const value of xs) { g(value); } }"),
    (indexed_to_foreach, "python",
     "def f(xs):\n    for i in range(len(xs)):\n        print(xs[i])\n",
     "def f(xs):\n    for value in xs:\n        print(value)\n"),
    (indexed_to_foreach, "java",  # the index is used otherwise
     "int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) { s += i * xs[i]; } "
     "return s; }", None),
    (indexed_to_foreach, "java",  # an element is written
     "void f(int[] xs) { for (int i = 0; i < xs.length; i++) { xs[i] = 0; } }", None),
    (indexed_to_foreach, "c",
     "int f(int *xs, int n) { int s = 0; for (int i = 0; i < n; i++) s += xs[i]; return s; }",
     None),
    (negate_swap, "java", "void f(int a, int b) { if (a < b) { g(); } else { h(); } }",
     "void f(int a, int b) { if (a >= b) { h(); } else { g(); } }"),
    (negate_swap, "csharp", "void F(bool c) { if (!c) G(); else H(); }",
     "void F(bool c) { if (c) H(); else G(); }"),
    (negate_swap, "c", "void f(int a) { if (a == 0) g(); else h(); }",
     "void f(int a) { if (a != 0) h(); else g(); }"),
    (negate_swap, "cpp", "void f(bool c) { if (c && d) { g(); } else { h(); } }",
     "void f(bool c) { if (!(c && d)) { h(); } else { g(); } }"),
    (negate_swap, "javascript", "function f(a) { if (a > 0) { g(); } else { h(); } }",
     "function f(a) { if (a <= 0) { h(); } else { g(); } }"),
    (negate_swap, "python", "def f(a):\n    if a:\n        g()\n    else:\n        h()\n",
     "def f(a):\n    if not (a):\n        h()\n    else:\n        g()\n"),
    (negate_swap, "java", "void f(int a) { if (a < 0) { g(); } }", None),
    (negate_swap, "java", "void f(int a) { if (a < 0) g(); else if (a > 0) h(); }", None),
    (inferred_type, "java", "void f() { StringBuilder sb = new StringBuilder(); g(sb); }",
     "void f() { var sb = new StringBuilder(); g(sb); }"),
    (inferred_type, "csharp", "void F() { var n = 3; G(n); }", "void F() { int n = 3; G(n); }"),
    (inferred_type, "cpp", "void f() { double d = 1.5; g(d); }",
     "void f() { auto d = 1.5; g(d); }"),
    (inferred_type, "java", "void f() { long n = 3; g(n); }", None),
    (inferred_type, "java", "void f() { List<Integer> xs = new ArrayList<>(); g(xs); }", None),
    (field_initializer, "java", "class A { int n = 3; int f() { return n; } }",
     "class A { int n = 4; int f() { return n; } }"),
    (field_initializer, "csharp", "class A { bool on = true; bool F() { return on; } }",
     "class A { bool on = false; bool F() { return on; } }"),
    (field_initializer, "cpp", "class A { int n = 2; int f() { return n; } };",
     "class A { int n = 3; int f() { return n; } };"),
    (field_initializer, "javascript", "class A { n = 7; f() { return this.n; } }",
     "class A { n = 8; f() { return this.n; } }"),
    (field_initializer, "python", "class A:\n    n = 'a'\n\n    def f(self):\n"
     "        return self.n\n",
     "class A:\n    n = 'ax'\n\n    def f(self):\n        return self.n\n"),
    (field_initializer, "java", "int f() { int n = 3; return n; }", None),
]


@pytest.mark.parametrize("case", OPERATOR_CASES,
                         ids=[f"{c[0].__name__}-{c[1]}-{i}" for i, c in enumerate(OPERATOR_CASES)])
def test_idiom_operators(case) -> None:  # type: ignore[no-untyped-def]
    op, language, code, expected = case
    out = op(code, language, random.Random(0))
    assert out == expected
    if out is not None:
        assert graphs.parse(out, language).ok


def test_idiom_operators_are_registered() -> None:
    kinds = {op.name: op.preserving for op in OPERATORS}
    assert kinds["indexed_to_foreach"] and kinds["negate_swap"] and kinds["inferred_type"]
    assert kinds["field_initializer"] is False


def test_javascript_declarations() -> None:
    """``const`` to ``let`` always; ``let``/``var`` to the other only where that is safe."""
    outs = {inferred_type("function f(a) { const n = a + 1; return n; }", "javascript",
                          random.Random(k)) for k in range(10)}
    assert outs == {"function f(a) { let n = a + 1; return n; }",
                    "function f(a) { var n = a + 1; return n; }"}
    # inside a block var is function-scoped, let is not: only const/let
    outs = {inferred_type("function f(a) { if (a) { let n = 1; g(n); } }", "javascript",
                          random.Random(k)) for k in range(10)}
    assert outs == {"function f(a) { if (a) { const n = 1; g(n); } }"}


@pytest.mark.parametrize("op", [indexed_to_foreach, negate_swap, inferred_type])
def test_idiom_variants_score_one(op) -> None:  # type: ignore[no-untyped-def]
    for case in OPERATOR_CASES:
        if case[0] is op and case[3] is not None:
            assert grs(case[2], case[3], case[1]) == 1.0, case


# -- nested indexed loops: an inner loop over the outer loop's element -------------------

NESTED = {
    "java": ("int f(int[][] g){ int s = 0; for (int i = 0; i < g.length; i++) "
             "{ for (int j = 0; j < g[i].length; j++) { s += g[i][j]; } } return s; }",
             "int f(int[][] g){ int s = 0; for (int[] row : g) "
             "{ for (int x : row) { s += x; } } return s; }"),
    "javascript": ("function f(t){ let k = 0; for (let i = 0; i < t.length; i++) "
                   "{ for (let j = 0; j < t[i].length; j++) { if (t[i][j] != 'a') { k++ } } } "
                   "return k }",
                   "function f(t){ let k = 0; for (const r of t) "
                   "{ for (const c of r) { if (c != 'a') { k++ } } } return k }"),
}


@pytest.mark.parametrize("lang", sorted(NESTED))
def test_nested_indexed_loops_are_nested_foreach(lang):
    from ruby_metric import RubyScorer

    indexed, foreach = NESTED[lang]
    scorer = RubyScorer(lang, metrics=["grs"])
    assert scorer.score(indexed, foreach).grs == 1.0
    # the outer loop rewritten alone (what a translator often does) is the same graph too
    outer_only = indexed.replace("g[i]", "row").replace("t[i]", "r").replace(
        "for (int i = 0; i < g.length; i++)", "for (int[] row : g)").replace(
        "for (let i = 0; i < t.length; i++)", "for (const r of t)")
    assert scorer.score(indexed, outer_only).grs == 1.0
    # an inner body that writes the outer element is not a foreach over it
    written = indexed.replace("s += g[i][j];", "s += g[i][j]; g[i] = null;").replace(
        "{ k++ }", "{ k++ } t[i] = 0")
    assert scorer.score(written, foreach).grs < 1.0
