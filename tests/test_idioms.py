"""The idioms a translator changes are one graph (SPEC section 3, "What the graph must see";
:mod:`graphs.idioms`): each pair below scores GRS 1.0, and a near-miss mutant of it does not.
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


@pytest.mark.parametrize("case", INDEXED + NEGATED + INFERRED, ids=_ids(INDEXED + NEGATED
                                                                         + INFERRED))
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
