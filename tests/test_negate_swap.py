"""``if (!c) B else A`` is ``if (c) A else B`` wherever the ``if`` stands (issue 18).

The two causes the mutation benchmark's ``negate_swap`` pairs still showed, each fixed by
a principle rather than by a case:

1. An ``if`` inside a lambda, an anonymous class, a function expression or a nested class
   is part of its statement's label; the label walker now reads it in the canonical
   orientation the CFG gives an ``if`` it builds (:mod:`graphs.canon.orientation`).
2. An identifier declared in both branches (``int t`` in each block, a Python name assigned
   anew in each branch) is two variables, each named by its own declaration
   (:mod:`graphs.pdg.naming`): which branch comes first renames nothing.

Each case: the ``negate_swap`` operator's rewrite scores GRS 1.0 against the original (both
ways), and negating the condition *without* the swap (a mutant) does not.
"""

from __future__ import annotations

import random

import pytest
from grs_helpers import grs

from graphs.pdg.build import build_pdg
from validity.mutations.idioms import negate_swap


def swapped(code: str, language: str) -> str:
    """The one ``negate_swap`` rewrite of ``code`` (one ``if`` with an ``else`` in it)."""
    outs = {negate_swap(code, language, random.Random(k)) for k in range(8)}
    assert len(outs) == 1 and None not in outs, outs
    return outs.pop()


# (language, code with one if/else, the same with the condition negated and no swap)
IN_LABELS = [
    ("java",  # an anonymous class (humaneval-java-116)
     "List<Integer> f(List<Integer> xs) { xs.sort(new Comparator<Integer>() { "
     "public int compare(Integer a, Integer b) { int d = a - b; "
     "if (d < 0) { return 1; } else { return a.compareTo(b); } } }); return xs; }",
     "List<Integer> f(List<Integer> xs) { xs.sort(new Comparator<Integer>() { "
     "public int compare(Integer a, Integer b) { int d = a - b; "
     "if (d >= 0) { return 1; } else { return a.compareTo(b); } } }); return xs; }"),
    ("java",  # a lambda with a block body
     "void f(List<Integer> xs) { xs.forEach(x -> { if (x > 0) { g(x); } else { h(x); } }); }",
     "void f(List<Integer> xs) { xs.forEach(x -> { if (x <= 0) { g(x); } else { h(x); } }); }"),
    ("csharp",
     "void F(List<int> xs) { xs.ForEach(x => { if (x == 0) { G(x); } else { H(x); } }); }",
     "void F(List<int> xs) { xs.ForEach(x => { if (x != 0) { G(x); } else { H(x); } }); }"),
    ("javascript",  # a function expression folded into its reader (humaneval-javascript-6)
     "function f(s) { var g = function (c) { if (c == '(') { return 1; } else { return -1; } "
     "}; return s.split('').map(x => g(x)); }",
     "function f(s) { var g = function (c) { if (c != '(') { return 1; } else { return -1; } "
     "}; return s.split('').map(x => g(x)); }"),
    ("python",  # a nested class is one node labelled with its text
     "def f(xs):\n    class K:\n        def key(self, x):\n            if x < 0:\n"
     "                return -x\n            else:\n                return x * 2\n"
     "    return sorted(xs, key=K().key)\n",
     "def f(xs):\n    class K:\n        def key(self, x):\n            if x >= 0:\n"
     "                return -x\n            else:\n                return x * 2\n"
     "    return sorted(xs, key=K().key)\n"),
]

BOTH_BRANCHES = [
    ("java",  # humaneval-java-106
     "List<Integer> f(int n) { List<Integer> ret = new ArrayList<>(); "
     "for (int i = 1; i <= n; i++) { if (i % 2 == 0) { int x = 1; "
     "for (int j = 1; j <= i; j++) { x *= j; } ret.add(x); } else { int x = 0; "
     "for (int j = 1; j <= i; j++) { x += j; } ret.add(x); } } return ret; }",
     "List<Integer> f(int n) { List<Integer> ret = new ArrayList<>(); "
     "for (int i = 1; i <= n; i++) { if (i % 2 != 0) { int x = 1; "
     "for (int j = 1; j <= i; j++) { x *= j; } ret.add(x); } else { int x = 0; "
     "for (int j = 1; j <= i; j++) { x += j; } ret.add(x); } } return ret; }"),
    ("csharp",  # codexglue-csharp-655
     "void F(string field, Reader reader) { if (field != null) { Terms terms = "
     "reader.GetTerms(field); Fill(field, terms); } else { foreach (string name in "
     "reader.Fields()) { Terms terms = reader.GetTerms(name); Fill(name, terms); } } }",
     "void F(string field, Reader reader) { if (field == null) { Terms terms = "
     "reader.GetTerms(field); Fill(field, terms); } else { foreach (string name in "
     "reader.Fields()) { Terms terms = reader.GetTerms(name); Fill(name, terms); } } }"),
    ("python",  # humaneval-python-106: a name assigned in each branch, read only there
     "def f(n):\n    ret = []\n    for i in range(1, n + 1):\n        if i % 2 == 0:\n"
     "            x = 1\n            for j in range(1, i + 1): x *= j\n"
     "            ret += [x]\n        else:\n            x = 0\n"
     "            for j in range(1, i + 1): x += j\n            ret += [x]\n    return ret\n",
     "def f(n):\n    ret = []\n    for i in range(1, n + 1):\n        if i % 2 != 0:\n"
     "            x = 1\n            for j in range(1, i + 1): x *= j\n"
     "            ret += [x]\n        else:\n            x = 0\n"
     "            for j in range(1, i + 1): x += j\n            ret += [x]\n    return ret\n"),
    ("javascript",
     "function f(a, n) { if (a < n) { let k = a * 2; g(k); } else { let k = n - a; h(k); } }",
     "function f(a, n) { if (a >= n) { let k = a * 2; g(k); } else { let k = n - a; h(k); } }"),
    ("cpp",  # codexglue-java-521's loops, in C++
     "void f(int location, int size) { Link* link = head; if (location < size / 2) { "
     "for (int i = 0; i <= location; i++) { link = link->next; } } else { "
     "for (int i = size; i > location; i--) { link = link->prev; } } use(link); }",
     "void f(int location, int size) { Link* link = head; if (location >= size / 2) { "
     "for (int i = 0; i <= location; i++) { link = link->next; } } else { "
     "for (int i = size; i > location; i--) { link = link->prev; } } use(link); }"),
]


def _ids(cases: list) -> list[str]:
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


@pytest.mark.parametrize("case", IN_LABELS + BOTH_BRANCHES,
                         ids=[f"label-{i}" for i in _ids(IN_LABELS)] +
                         [f"branches-{i}" for i in _ids(BOTH_BRANCHES)])
def test_negate_swap_scores_one(case: tuple[str, str, str]) -> None:
    language, code, negated = case
    variant = swapped(code, language)
    assert grs(code, variant, language) == 1.0, variant
    assert grs(variant, code, language) == 1.0, variant
    assert grs(code, negated, language) < 1.0
    assert grs(variant, negated, language) < 1.0


# ---------------------------------------------------------------------------------------
# the graphs themselves


def _labels(code: str, language: str) -> list[str]:
    g = build_pdg(code, language)
    return [g.nodes[n]["label"] for n in g]


def _data(code: str, language: str) -> list[tuple[int, int, str]]:
    g = build_pdg(code, language)
    return sorted((u, v, d["var"]) for u, v, d in g.edges(data=True) if d["dep"] == "data")


def test_an_if_in_a_label_reads_in_the_canonical_orientation() -> None:
    negated = "void f(List<Integer> xs) { xs.forEach(x -> { if (!(x < 0)) g(x); else h(x); }); }"
    plain = "void f(List<Integer> xs) { xs.forEach(x -> { if (x < 0) h(x); else g(x); }); }"
    assert _labels(negated, "java") == _labels(plain, "java")
    assert _labels(plain, "java")[-1] == "v0.forEach(b0->{ if (b0 < 0) h(b0); else g(b0); })"
    # without an else the negation stays, as for an if the graph builds
    lone = "void f(List<Integer> xs) { xs.forEach(x -> { if (!(x < 0)) g(x); }); }"
    assert _labels(lone, "java")[-1] == "v0.forEach(b0->{ if (!(b0 < 0)) g(b0); })"


def test_block_scoped_declarations_of_one_identifier_are_two_variables() -> None:
    code = ("void f(boolean c, int a, int b) { if (c) { int t = a; g(t, t); } "
            "else { int t = b; h(t, t); } }")
    labels = _labels(code, "java")
    # entry, c, a, b, if; then int t = a, g(t, t); else int t = b, h(t, t)
    assert labels[:5] == ["void f(boolean, int, int)", "boolean v0", "int v1", "int v2",
                          "if (v0)"]
    first, second = labels[5].split()[1], labels[7].split()[1]
    assert first != second
    assert labels[5:] == [f"int {first} = v1", f"g({first}, {first})",
                          f"int {second} = v2", f"h({second}, {second})"]
    assert [(u, v, var) for u, v, var in _data(code, "java") if u > 3] == [
        (5, 6, first), (7, 8, second)]
    # each is named by its own declaration: as when it is declared alone
    alone = "void f(boolean c, int a, int b) { if (c) { int t = a; g(t, t); } }"
    assert _labels(alone, "java")[5] == f"int {first} = v1"
    # and the order of the branches changes no name
    other = ("void f(boolean c, int a, int b) { if (!c) { int t = b; h(t, t); } "
             "else { int t = a; g(t, t); } }")
    assert sorted(_labels(other, "java")) == sorted(labels)


def test_a_python_name_assigned_afresh_is_two_variables() -> None:
    two = "def f():\n    x = 0\n    print(x)\n    x = 1\n    print(x)\n"
    labels = _labels(two, "python")
    assert labels[1].split()[0] != labels[3].split()[0]
    assert [lab.split()[0] for lab in labels[1:]] == [
        labels[1].split()[0], f"print({labels[1].split()[0]})",
        labels[3].split()[0], f"print({labels[3].split()[0]})"]
    # assigned in both branches and read after them: one variable (its definitions meet)
    one = ("def f(c):\n    if c:\n        x = 1\n        g()\n    else:\n        x = 2\n"
           "        h()\n    return x\n")
    labels = _labels(one, "python")
    assert len({lab.split()[0] for lab in labels if " = " in lab}) == 1, labels


def test_declarations_alike_stay_one_variable() -> None:
    # two loops declaring i alike: one name, as in the source
    code = ("void f(int n) { for (int i = 0; i < n; i++) g(i); "
            "for (int i = 0; i < n; i++) h(i); }")
    assert len({var for _, _, var in _data(code, "java") if var != "v0"}) == 1
    # one declaration, assigned in each branch: one variable
    once = "void f(boolean c) { int t; if (c) { t = 1; g(t); } else { t = 2; h(t); } }"
    assert len({var for _, _, var in _data(once, "java") if var != "v0"}) == 1
