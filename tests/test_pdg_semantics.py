"""The GRS v2 semantic-fidelity contract (SPEC section 3, "What the graph must see"), per
language, on the PDGs themselves.

Each test builds two PDGs and compares them with
``graphs.graph_edit_distance(g1, g2, edge_label="dep")``: edges are compared by their
dependence kind (``control``, ``control-true``, ``control-false``, ``data``, ``effect``),
nodes by their (canonical) labels. Distance 0 means the graphs are equal: the two programs
must look the same to GRS. A difference must be proven: the GED's lower bound is > 0.
"""

from __future__ import annotations

import re

import pytest

from graphs import graph_edit_distance
from graphs.pdg.build import build_pdg


def ged(code1: str, code2: str, lang: str):
    # exact search up to 20 nodes: every graph here is that small
    return graph_edit_distance(build_pdg(code1, lang), build_pdg(code2, lang),
                               edge_label="dep", exact_max_nodes=20,
                               exact_max_expansions=500_000)


def assert_same(code1: str, code2: str, lang: str) -> None:
    result = ged(code1, code2, lang)
    assert result.distance == 0, (result, code1, code2)


def assert_different(code1: str, code2: str, lang: str) -> None:
    result = ged(code1, code2, lang)
    assert result.lower > 0, (result, code1, code2)


def c_like(lang: str, sig: str, body: str) -> str:
    """A function with C-family ``body`` (locals declared ``int``) in ``lang``: ``sig`` is
    ``"name(a, b)"``; JavaScript declares with ``let`` and has no types."""
    name, params = sig.split("(", 1)
    params = params.rstrip(")")
    if lang == "javascript":
        return f"function {name}({params}) {{ {body.replace('int ', 'let ')} }}"
    typed = ", ".join(f"int {p.strip()}" for p in params.split(",") if p.strip())
    if lang == "csharp":
        name = name[0].upper() + name[1:]
    return f"int {name}({typed}) {{ {body} }}"


C_FAMILY = ["java", "csharp", "c", "cpp", "javascript"]
ALL = [*C_FAMILY, "python"]


# ---------------------------------------------------------------------------------------
# control edges say which outcome they hang on


@pytest.mark.parametrize("lang", ALL)
def test_swapped_then_and_else_bodies_differ(lang):
    # bodies assigning different variables do not fold into one conditional expression,
    # so the graphs have the same labels and differ in the outcome of two control edges
    if lang == "python":
        code = ("def f(a, b):\n    if a > 0:\n        b += a\n    else:\n        a -= b\n"
                "    return b + a\n")
        swapped = ("def f(a, b):\n    if a > 0:\n        a -= b\n    else:\n        b += a\n"
                   "    return b + a\n")
    else:
        code = c_like(lang, "f(a, b)", "if (a > 0) { b += a; } else { a -= b; } return b + a;")
        swapped = c_like(lang, "f(a, b)",
                         "if (a > 0) { a -= b; } else { b += a; } return b + a;")
    assert_different(code, swapped, lang)
    g = build_pdg(code, lang)
    deps = sorted(d for _, _, d in g.edges(data="dep") if d.startswith("control-"))
    assert deps == ["control-false", "control-true"]


@pytest.mark.parametrize("lang", ["java", "c", "javascript"])
def test_swapped_loop_and_if_bodies_differ(lang):
    # a statement in a loop body is not the same as one after an if's false branch
    code = c_like(lang, "f(n)", "int s = 0; while (n > 0) { s += n; n -= 1; } return s;")
    other = c_like(lang, "f(n)", "int s = 0; if (n > 0) { s += n; n -= 1; } return s;")
    assert_different(code, other, lang)


_SWITCH = ("int r = 0; switch (k) { case 1: r += 1; break; case 2: r -= 1; break; "
           "default: r = 0; break; } return r;")
_SWITCH_SWAPPED = ("int r = 0; switch (k) { case 1: r -= 1; break; case 2: r += 1; break; "
                   "default: r = 0; break; } return r;")


@pytest.mark.parametrize("lang", C_FAMILY)
def test_swapped_case_bodies_differ(lang):
    assert_different(c_like(lang, "f(k)", _SWITCH), c_like(lang, "f(k)", _SWITCH_SWAPPED), lang)


def test_swapped_case_bodies_differ_python_match():
    code = ("def f(k):\n    r = 0\n    match k:\n        case 1:\n            r += 1\n"
            "        case 2:\n            r -= 1\n    return r\n")
    swapped = code.replace("r += 1", "r ~~ 1").replace("r -= 1", "r += 1").replace("r ~~", "r -=")
    assert_different(code, swapped, "python")


@pytest.mark.parametrize("lang", C_FAMILY)
def test_a_case_body_hangs_off_its_label(lang):
    g = build_pdg(c_like(lang, "f(k)", _SWITCH), lang, names="declaration")
    label = {n: g.nodes[n]["label"] for n in g}
    control = {(label[u], label[v]) for u, v, t in g.edges(data="type") if t == "control"}
    assert {(u, v) for u, v in control if v.startswith("v1 ")} == {
        ("case 1", "v1 += 1"), ("case 2", "v1 -= 1"), ("default", "v1 = 0")}
    assert {(u, v) for u, v in control if u == "switch (v0)"} == {
        ("switch (v0)", "case 1"), ("switch (v0)", "case 2"), ("switch (v0)", "default")}


# ---------------------------------------------------------------------------------------
# effects are ordered; pure independent statements are not

EFFECT_SWAPS = [
    ("java", "void f(int a, int b) { StringBuilder sb = new StringBuilder(); sb.append(a); "
     "sb.append(b); }", "sb.append(a); sb.append(b);", "sb.append(b); sb.append(a);"),
    ("java", "void f(int a, int b) { System.out.println(a); System.out.println(b); }",
     "System.out.println(a); System.out.println(b);",
     "System.out.println(b); System.out.println(a);"),
    ("csharp", "void F(int a, int b) { Console.WriteLine(a); Console.WriteLine(b); }",
     "Console.WriteLine(a); Console.WriteLine(b);",
     "Console.WriteLine(b); Console.WriteLine(a);"),
    ("csharp", "void F(int a, int b) { var sb = new StringBuilder(); sb.Append(a); "
     "sb.Append(b); }", "sb.Append(a); sb.Append(b);", "sb.Append(b); sb.Append(a);"),
    ("javascript", "function f(a, b) { console.log(a); console.log(b); }",
     "console.log(a); console.log(b);", "console.log(b); console.log(a);"),
    ("python", "def f(a, b):\n    print(a)\n    print(b)\n", "print(a)\n    print(b)",
     "print(b)\n    print(a)"),
    ("python", "def f(a, b):\n    xs = []\n    xs.append(a)\n    xs.append(b)\n    return xs\n",
     "xs.append(a)\n    xs.append(b)", "xs.append(b)\n    xs.append(a)"),
    ("cpp", "void f(int a, int b) { std::vector<int> v; v.push_back(a); v.push_back(b); }",
     "v.push_back(a); v.push_back(b);", "v.push_back(b); v.push_back(a);"),
    ("c", 'void f(int a, int b) { printf("%d", a); printf("%d", b); }',
     'printf("%d", a); printf("%d", b);', 'printf("%d", b); printf("%d", a);'),
]


@pytest.mark.parametrize(("lang", "code", "old", "new"), EFFECT_SWAPS,
                         ids=[f"{s[0]}-{s[2].split('(')[0]}" for s in EFFECT_SWAPS])
def test_swapped_effectful_calls_differ(lang, code, old, new):
    assert old in code
    assert_different(code, code.replace(old, new), lang)


@pytest.mark.parametrize(("lang", "code"), [
    ("java", "void f(int a, int b) { System.out.println(a); g(b); System.out.println(b); }"),
    ("csharp", "void F(int a) { Console.WriteLine(a); G(a); Console.WriteLine(a); }"),
    ("javascript", "function f(a) { console.log(a); g(a); console.log(a); }"),
    ("python", "def f(a):\n    print(a)\n    g(a)\n    print(a)\n"),
    ("c", 'void f(int a) { printf("%d", a); g(a); printf("%d", a); }'),
])
def test_unknown_effects_are_chained_in_program_order(lang, code):
    g = build_pdg(code, lang)
    calls = [n for n in g if g.nodes[n]["kind"] not in ("entry", "param")]
    assert len(calls) == 3
    effects = {(u, v) for u, v, d in g.edges(data=True) if d["type"] == "data"
               and d["var"] == "<effects>"}
    # each call reads and weakly defines <effects>: every earlier call reaches every later
    assert effects == {(calls[0], calls[1]), (calls[1], calls[2]), (calls[0], calls[2])}
    assert all(d["dep"] == "effect" for _, _, d in g.edges(data=True)
               if d.get("var") == "<effects>")


@pytest.mark.parametrize(("lang", "code"), [
    ("java", "int f(List<Integer> xs) { int n = xs.size(); int m = Math.max(n, 1); "
             "return xs.get(0) + m; }"),
    ("python", "def f(xs):\n    n = len(xs)\n    m = max(n, 1)\n    return xs[0] + m\n"),
])
def test_pure_calls_are_not_effects(lang, code):
    g = build_pdg(code, lang)
    assert not [d for _, _, d in g.edges(data=True) if d.get("var") == "<effects>"]


@pytest.mark.parametrize(("lang", "code"), [
    ("java", "void f(int a) { List<Integer> xs = new ArrayList<>(); xs.add(a); xs.add(a); }"),
    ("cpp", "void f(int a) { std::vector<int> v; v.push_back(a); v.push_back(a); }"),
    ("python", "def f(a):\n    xs = []\n    xs.append(a)\n    xs.append(a)\n"),
])
def test_a_call_through_a_local_reads_and_writes_it(lang, code):
    g = build_pdg(code, lang)
    stmts = [n for n in g if g.nodes[n]["kind"] not in ("entry", "param")]
    decl, first, second = stmts
    on_receiver = {(u, v) for u, v, d in g.edges(data=True)
                   if d["type"] == "data" and d["var"] not in ("v0", "<effects>")}
    # the second call reads the first's weak definition and the declaration's
    assert on_receiver == {(decl, first), (decl, second), (first, second)}
    assert not [d for _, _, d in g.edges(data=True) if d.get("var") == "<effects>"]


@pytest.mark.parametrize("lang", ALL)
def test_swapped_independent_pure_declarations_are_equal(lang):
    if lang == "python":
        code = "def f(a, b):\n    x = a * 2\n    y = b + 1\n    return x - y\n"
        swapped = "def f(a, b):\n    y = b + 1\n    x = a * 2\n    return x - y\n"
    else:
        code = c_like(lang, "f(a, b)", "int x = a * 2; int y = b + 1; return x - y;")
        swapped = c_like(lang, "f(a, b)", "int y = b + 1; int x = a * 2; return x - y;")
    assert_same(code, swapped, lang)


# ---------------------------------------------------------------------------------------
# equal meaning, equal graph


@pytest.mark.parametrize("lang", ALL)
def test_increments_are_equal(lang):
    forms = ["i += 1", "i = i + 1"] if lang == "python" else ["i++", "++i", "i += 1",
                                                               "i = i + 1"]
    codes = [f"def f(i):\n    {s}\n    return i\n" if lang == "python"
             else c_like(lang, "f(i)", f"{s}; return i;") for s in forms]
    for other in codes[1:]:
        assert_same(codes[0], other, lang)
    dec = (["i -= 1", "i = i - 1"] if lang == "python" else ["i--", "--i", "i -= 1"])
    codes = [f"def f(i):\n    {s}\n    return i\n" if lang == "python"
             else c_like(lang, "f(i)", f"{s}; return i;") for s in dec]
    for other in codes[1:]:
        assert_same(codes[0], other, lang)


@pytest.mark.parametrize("lang", ALL)
def test_compound_assignment_is_equal(lang):
    if lang == "python":
        code = "def f(x, a, b):\n    x = x * (a + b)\n    return x\n"
        other = "def f(x, a, b):\n    x *= a + b\n    return x\n"
    else:
        code = c_like(lang, "f(x, a, b)", "x = x * (a + b); return x;")
        other = c_like(lang, "f(x, a, b)", "x *= a + b; return x;")
    assert_same(code, other, lang)


@pytest.mark.parametrize("lang", ALL)
def test_redundant_parentheses_are_equal(lang):
    if lang == "python":
        code = "def f(a, b):\n    c = (a * (b))\n    return (c + 1)\n"
        other = "def f(a, b):\n    c = a * b\n    return c + 1\n"
    else:
        code = c_like(lang, "f(a, b)", "int c = (a * (b)); return (c + 1);")
        other = c_like(lang, "f(a, b)", "int c = a * b; return c + 1;")
    assert_same(code, other, lang)


@pytest.mark.parametrize("lang", ["java", "c", "javascript"])
def test_redundant_parentheses_around_a_conditionals_condition(lang):
    assert_same(c_like(lang, "f(a)", "int b = (a > 0) ? 1 : 2; return b;"),
                c_like(lang, "f(a)", "int b = a > 0 ? 1 : 2; return b;"), lang)


@pytest.mark.parametrize("lang", ["java", "csharp", "c", "javascript", "python", "cpp"])
def test_conditional_expression_is_the_same_as_if_else(lang):
    if lang == "python":
        code = ("def f(a):\n    b = 0\n    if a > 0:\n        b = 1\n    else:\n        b = 2\n"
                "    return b\n")
        other = "def f(a):\n    b = 0\n    b = 1 if a > 0 else 2\n    return b\n"
    else:
        code = c_like(lang, "f(a)", "int b = 0; if (a > 0) { b = 1; } else { b = 2; } return b;")
        other = c_like(lang, "f(a)", "int b = 0; b = a > 0 ? 1 : 2; return b;")
    assert_same(code, other, lang)


@pytest.mark.parametrize("lang", ["java", "c", "javascript"])
def test_for_is_the_same_as_the_equivalent_while(lang):
    code = c_like(lang, "f(n)", "int s = 0; for (int i = 0; i < n; i++) { s += i; } return s;")
    other = c_like(lang, "f(n)",
                   "int s = 0; int i = 0; while (i < n) { s += i; i++; } return s;")
    assert_same(code, other, lang)


# ---------------------------------------------------------------------------------------
# fields are not locals; the signature is part of the graph; names are not


def test_python_self_field_is_not_a_bare_name():
    assert_different("def f(self):\n    return self.limit * 2\n",
                     "def f(self):\n    return limit * 2\n", "python")


def test_javascript_this_field_is_not_a_bare_name():
    assert_different("function f() { return this.limit * 2; }",
                     "function f() { return limit * 2; }", "javascript")


@pytest.mark.parametrize(("lang", "code", "other"), [
    ("java", "int add(int a, int b) { return a + b; }",
     "long subtract(int a, int b) { return a + b; }"),
    ("csharp", "int Add(int a, int b) { return a + b; }",
     "long Subtract(int a, int b) { return a + b; }"),
    ("c", "int add(int a, int b) { return a + b; }",
     "long subtract(int a, int b) { return a + b; }"),
    ("cpp", "int add(int a, int b) { return a + b; }",
     "long subtract(int a, int b) { return a + b; }"),
    ("javascript", "function add(a, b) { return a + b; }",
     "function subtract(a, b) { return a + b; }"),
    ("python", "def add(a, b):\n    return a + b\n", "def subtract(a, b):\n    return a + b\n"),
])
def test_the_signature_is_part_of_the_graph(lang, code, other):
    assert_different(code, other, lang)


RENAMES = {
    "java": "int f(int[] xs) { int total = 0; for (int x : xs) { total += x; } return total; }",
    "csharp": "int F(int[] xs) { int total = 0; foreach (var x in xs) { total += x; } "
              "return total; }",
    "c": "int f(int *xs, int n) { int total = 0; for (int k = 0; k < n; k++) total += xs[k]; "
         "return total; }",
    "cpp": "int f(std::vector<int> xs) { int total = 0; for (int x : xs) { total += x; } "
           "return total; }",
    "javascript": "function f(xs) { let total = 0; for (const x of xs) { total += x; } "
                  "return total; }",
    "python": "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n",
}


@pytest.mark.parametrize("lang", ALL)
def test_renaming_a_local_is_equal(lang):
    code = RENAMES[lang]
    renamed = re.sub(r"\btotal\b", "acc", code)
    assert renamed != code
    assert_same(code, renamed, lang)
