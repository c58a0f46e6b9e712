"""Hand-written gold PDGs: definitions and uses (out/ref, fields, compound assignment,
increments, element stores, destructuring, closures, several functions).

GRS v2 (SPEC section 3): calls with unknown effects (free functions, static calls,
I/O) read and weakly define the pseudo-variable ``<effects>``, so they are chained by
``effect`` edges in program order; a call through a local receiver reads and weakly
defines the receiver; ``PURE_CALLS`` (``size``, ``len``, ``parseInt`` ...) do neither.
Python and JavaScript never read a bare ``x`` as the field ``this.x``/``self.x``.
"""

from __future__ import annotations

import pytest
from pdg_gold import Gold, check

from graphs.pdg.build import build_pdg

# C#: `out` defines, `ref` reads and defines; `out var` declares. int.TryParse, Add and
# Fill have unknown effects: Add is conditional, so both the if's and Add's reach Fill
OUT_REF = Gold(
    control={("E", "P1"), ("E", "P2"), ("E", "DN"), ("E", "IF"), ("E", "FL"), ("E", "R"),
             ("IF", "A")},
    data={("P1", "IF", "v0"), ("IF", "A", "v2"), ("IF", "R", "v2"), ("P2", "A", "v1"),
          ("A", "R", "v1"), ("P2", "R", "v1"), ("FL", "R", "v3"),
          ("IF", "A", "<effects>"), ("IF", "FL", "<effects>"), ("A", "FL", "<effects>")},
    branches={("IF", "A"): "true"},
    programs={"csharp": (
        "int F(string s, ref int total) {\n  int n;\n  if (int.TryParse(s, out n)) {\n"
        "    Add(ref total, n);\n  }\n  Fill(out var m);\n  return n + m + total;\n}",
        {"E": "entry", "P1": "string v0", "P2": "ref int v1", "DN": "int v2",
         "IF": "if (int.TryParse(v0, out v2))", "A": "Add(ref v1, v2)", "FL": "Fill(out var v3)",
         "R": "return v2 + v3 + v1"})},
)

# this.x and a bare x (no local x) are the same field (Java, C#, C++); print is ordered
FIELD_SAME = Gold(
    control={("E", "P"), ("E", "S1"), ("E", "U1"), ("E", "S2"), ("E", "U2")},
    data={("P", "S1", "v0"), ("S1", "U1", "x"), ("S1", "S2", "x"), ("S2", "U2", "x"),
          ("U1", "U2", "<effects>")},
)
_FS_LABELS = {"E": "entry", "P": "int v0", "S1": "x = v0", "U1": "print(x)#1",
              "S2": "x += 1", "U2": "print(x)#2"}
_FS = "void f(int v) { this.x = v; print(x); x += 1; print(this.x); }"
FIELD_SAME.programs = {
    "java": (_FS, _FS_LABELS),
    "csharp": (_FS, _FS_LABELS),
    "cpp": (_FS.replace("this.", "this->"), _FS_LABELS),
}

# JavaScript and Python: a bare x is never the field, so this.x = v reaches only the
# this.x read (x += 1 reads and writes the global x, which nothing defined before)
FIELD_EXPLICIT = Gold(
    control={("E", "P"), ("E", "S1"), ("E", "U1"), ("E", "S2"), ("E", "U2")},
    data={("P", "S1", "v0"), ("S1", "U2", "x"), ("U1", "U2", "<effects>")},
)
FIELD_EXPLICIT.programs = {
    "javascript": (_FS.replace("void f(int v)", "function f(v)"),
                   {**_FS_LABELS, "P": "v0", "S1": "this.x = v0", "U1": "print(x)",
                    "U2": "print(this.x)"}),
}
FIELD_EXPLICIT_PY = Gold(
    control={("E", "P0"), ("E", "P"), ("E", "S1"), ("E", "U1"), ("E", "S2"), ("E", "U2")},
    data={("P", "S1", "v1"), ("S1", "U2", "x"), ("U1", "U2", "<effects>")},
    programs={"python": ("def f(self, v):\n    self.x = v\n    print(x)\n    x += 1\n"
                         "    print(self.x)\n",
                         {"E": "entry", "P0": "v0", "P": "v1", "S1": "self.x = v1",
                          "U1": "print(x)", "S2": "x += 1", "U2": "print(self.x)"})},
)

# a parameter x shadows the field: this.x is the field, x the parameter
FIELD_SHADOW = Gold(
    control={("E", "P"), ("E", "S"), ("E", "U1"), ("E", "U2")},
    data={("P", "S", "v0"), ("P", "U1", "v0"), ("S", "U2", "x"), ("U1", "U2", "<effects>")},
)
_SH_LABELS = {"E": "entry", "P": "int v0", "S": "x = v0", "U1": "use(v0)", "U2": "use(x)"}
_SH = "void f(int x) { this.x = x; use(x); use(this.x); }"
FIELD_SHADOW.programs = {
    "java": (_SH, _SH_LABELS),
    "csharp": (_SH, _SH_LABELS),
    "cpp": (_SH.replace("this.", "this->"), _SH_LABELS),
    "javascript": (_SH.replace("void f(int x)", "function f(x)"),
                   {**_SH_LABELS, "P": "v0", "S": "this.x = v0", "U2": "use(this.x)"}),
}
FIELD_SHADOW_PY = Gold(
    control={("E", "P0"), ("E", "P"), ("E", "S"), ("E", "U1"), ("E", "U2")},
    data={("P", "S", "v1"), ("P", "U1", "v1"), ("S", "U2", "x"), ("U1", "U2", "<effects>")},
    programs={"python": ("def f(self, x):\n    self.x = x\n    use(x)\n    use(self.x)\n",
                         {"E": "entry", "P0": "v0", "P": "v1", "S": "self.x = v1",
                          "U1": "use(v1)", "U2": "use(self.x)"})},
)

# increments inside expressions define and use; compound assignment uses its target
INCREMENTS = Gold(
    control={("E", "P"), ("E", "B"), ("E", "C"), ("E", "R")},
    data={("P", "B", "v0"), ("B", "C", "v0"), ("B", "C", "v1"), ("C", "R", "v1")},
)
_INC = "int f(int a) { int b = a++; b += ++a; return b; }"
_INC_LABELS = {"E": "entry", "P": "int v0", "B": "int v1 = v0++", "C": "v1 += ++v0",
               "R": "return v1"}
INCREMENTS.programs = {
    "java": (_INC, _INC_LABELS), "csharp": (_INC, _INC_LABELS), "c": (_INC, _INC_LABELS),
    "cpp": (_INC, _INC_LABELS),
    "javascript": (_INC.replace("int f(int a)", "function f(a)").replace("int b", "let b"),
                   {**_INC_LABELS, "P": "v0", "B": "let v1 = v0++"}),
}

# an element store is a weak definition of the array: it reads the array and does not
# kill earlier definitions
ELEMENT_STORE = Gold(
    control={("E", "P1"), ("E", "P2"), ("E", "S1"), ("E", "S2"), ("E", "R")},
    data={("P1", "S1", "v0"), ("P1", "S2", "v0"), ("P1", "R", "v0"), ("S1", "S2", "v0"),
          ("S1", "R", "v0"), ("S2", "R", "v0"), ("P2", "S1", "v1"), ("P2", "R", "v1")},
)
_ES_LABELS = {"E": "entry", "P1": "int[] v0", "P2": "int v1", "S1": "v0[v1] = 1",
              "S2": "v0[0] = 2", "R": "return v0[v1]"}
ELEMENT_STORE.programs = {
    "java": ("int f(int[] a, int i) { a[i] = 1; a[0] = 2; return a[i]; }", _ES_LABELS),
    "csharp": ("int F(int[] a, int i) { a[i] = 1; a[0] = 2; return a[i]; }", _ES_LABELS),
    "c": ("int f(int *a, int i) { a[i] = 1; a[0] = 2; return a[i]; }",
          {**_ES_LABELS, "P1": "int * v0"}),
    "python": ("def f(a, i):\n    a[i] = 1\n    a[0] = 2\n    return a[i]\n",
               {**_ES_LABELS, "P1": "v0", "P2": "v1"}),
    "javascript": ("function f(a, i) { a[i] = 1; a[0] = 2; return a[i]; }",
                   {**_ES_LABELS, "P1": "v0", "P2": "v1"}),
}

# tuple unpacking and swaps
PY_TUPLES = Gold(
    control={("E", "P"), ("E", "S1"), ("E", "S2"), ("E", "R")},
    data={("P", "S1", "v0"), ("S1", "S2", "v1"), ("S1", "S2", "v2"), ("S2", "R", "v1"),
          ("S2", "R", "v2")},
    programs={"python": ("def f(p):\n    a, b = p\n    b, a = a, b\n    return a - b\n",
                         {"E": "entry", "P": "v0", "S1": "v1, v2 = v0",
                          "S2": "v2, v1 = v1, v2", "R": "return v1 - v2"})},
)

JS_DESTRUCTURING = Gold(
    control={("E", "P"), ("E", "S1"), ("E", "S2"), ("E", "R")},
    data={("P", "S1", "v0"), ("S1", "S2", "v2"), ("S1", "R", "v1"), ("S2", "R", "v3"),
          ("S2", "R", "v4")},
    programs={"javascript": (
        "function f(o) { const {a, b: c} = o; let [d, ...e] = c; return a + d + e.length; }",
        {"E": "entry", "P": "v0", "S1": "const { v1, b: v2 } = v0",
         "S2": "let [v3, ...v4] = v2", "R": "return v1 + v3 + v4.length"})},
)

# C: &x may write x (weak), *p = v writes through p (weak definition of p); scanf and g
# have unknown effects
C_POINTERS = Gold(
    control={("E", "P1"), ("E", "P2"), ("E", "SC"), ("E", "ST"), ("E", "G")},
    data={("P1", "SC", "v0"), ("SC", "G", "v0"), ("P1", "G", "v0"), ("P1", "ST", "v0"),
          ("SC", "ST", "v0"), ("P2", "ST", "v1"), ("ST", "G", "v1"), ("P2", "G", "v1"),
          ("SC", "G", "<effects>")},
    programs={"c": ('void f(int n, int *p) { scanf("%d", &n); *p = n; g(n, p); }',
                    {"E": "entry", "P1": "int v0", "P2": "int * v1",
                     "SC": 'scanf("%d", &v0)', "ST": "*v1 = v0", "G": "g(v0, v1)"})},
)

# a closure that writes a captured variable weakly defines it; lambda parameters are
# renamed but are not definitions of the enclosing function
CLOSURE = Gold(
    control={("E", "P"), ("E", "S"), ("E", "F"), ("E", "R")},
    data={("P", "F", "v0"), ("S", "F", "v1"), ("S", "R", "v1"), ("F", "R", "v1")},
    programs={"javascript": (
        "function f(xs) { let sum = 0; xs.forEach(x => { sum += x; }); return sum; }",
        {"E": "entry", "P": "v0", "S": "let v1 = 0", "F": "v0.forEach(v2 => { v1 += v2; })",
         "R": "return v1"})},
)

# several functions: one function node each under the entry; locals renamed per function
TWO_FUNCTIONS = Gold(
    control={("E", "F1"), ("E", "F2"), ("F1", "P1"), ("F1", "R1"), ("F2", "P2"),
             ("F2", "R2")},
    data={("P1", "R1", "v0"), ("P2", "R2", "v0")},
)
_TWO_LABELS = {"E": "entry", "F1": "function inc", "P1": "int v0", "R1": "return v0 + 1",
               "F2": "function dec", "P2": "int v0#2", "R2": "return v0 - 1"}
TWO_FUNCTIONS.programs = {
    "java": ("class A {\n  int inc(int a) { return a + 1; }\n  int dec(int b) { return b - 1; }"
             "\n}", {**_TWO_LABELS, "P1": "int v0#1"}),
    "c": ("int inc(int a) { return a + 1; }\nint dec(int b) { return b - 1; }",
          {**_TWO_LABELS, "P1": "int v0#1"}),
    "python": ("def inc(a):\n    return a + 1\n\ndef dec(b):\n    return b - 1\n",
               {**_TWO_LABELS, "P1": "v0#1", "P2": "v0#2"}),
}

# a nested function is a statement of its parent and the entry of its own body; the
# numbering of locals continues into it
NESTED_FUNCTION = Gold(
    control={("E", "P"), ("E", "D"), ("E", "R"), ("D", "Q"), ("D", "RI")},
    data={("P", "R", "v0"), ("D", "R", "v1"), ("Q", "RI", "v2")},
    programs={"python": ("def outer(a):\n    def helper(b):\n        return b + a\n"
                         "    return helper(a)\n",
                         {"E": "entry", "P": "v0", "D": "function v1", "Q": "v2",
                          "RI": "return v2 + v0", "R": "return v1(v0)"}),
              "javascript": ("function outer(a) { function helper(b) { return b + a; } "
                             "return helper(a); }",
                             {"E": "entry", "P": "v0", "D": "function v1", "Q": "v2",
                              "RI": "return v2 + v0", "R": "return v1(v0)"})},
)

CASES = [
    *OUT_REF.cases("out_ref"), *FIELD_SAME.cases("field_same"),
    *FIELD_EXPLICIT.cases("field_explicit"), *FIELD_EXPLICIT_PY.cases("field_explicit"),
    *FIELD_SHADOW.cases("field_shadow"), *FIELD_SHADOW_PY.cases("field_shadow"),
    *INCREMENTS.cases("increments"), *ELEMENT_STORE.cases("element_store"),
    *PY_TUPLES.cases("tuples"), *JS_DESTRUCTURING.cases("destructuring"),
    *C_POINTERS.cases("pointers"), *CLOSURE.cases("closure"),
    *TWO_FUNCTIONS.cases("two_functions"), *NESTED_FUNCTION.cases("nested_function"),
]


@pytest.mark.parametrize(("lang", "gold"), [(c[1], c[2]) for c in CASES],
                         ids=[c[0] for c in CASES])
def test_gold(lang, gold):
    check(lang, gold)


def test_method_names_are_not_variables_in_java():
    # `size` is a local and a method name: the call does not read the local
    g = build_pdg("int f(List<Integer> xs) { int size = 0; size = xs.size(); return size(); }",
                  "java", names="declaration")
    labels = [g.nodes[n]["label"] for n in g]
    assert labels == ["int f(List<Integer>)", "List<Integer> v0", "int v1 = 0", "v1 = v0.size()",
                      "return size()"]
    data = {(u, v) for u, v, t in g.edges(data="type") if t == "data"}
    assert data == {(1, 3)}


def test_qualified_types_and_members():
    g = build_pdg("void f() { java.util.List<P.A> xs = new java.util.ArrayList<>(); "
                  "P.A a = new P.A(); xs.add(a); }", "java", names="declaration")
    labels = [g.nodes[n]["label"] for n in g]
    # (a, read once by the next statement, is folded into it)
    assert labels == ["void f()", "List<A> v0 = new ArrayList<>()", "v0.add(new A())"]


def test_types_are_not_variables_in_csharp():
    # C# types are plain identifiers in the grammar: a local named like a type is not read
    g = build_pdg("void F() { var Foo = 1; Foo x = new Foo(); int y = (Foo) x; int z = (Foo) x; }",
                  "csharp", names="declaration")
    data = {(u, v, d["var"]) for u, v, d in g.edges(data=True) if d["type"] == "data"}
    assert data == {(2, 3, "v1"), (2, 4, "v1")}
