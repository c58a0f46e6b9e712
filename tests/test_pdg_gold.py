"""Hand-written gold PDGs: control constructs in every language that has them.

Each case lists every control edge (controller -> dependent, ``E`` the entry) and every
data edge (definition -> use, with the normalized variable) of a small function; the graph
must have exactly those edges. Expected edges were derived by hand from the semantics
(post-dominator control dependence, reaching definitions), not copied from the output.

GRS v2 (SPEC section 3): ``branches`` gives the outcome each control edge on an
if/while/for/foreach/do predicate hangs on (a loop header's body and its own back edge
are its true outcome); a switch controls its case/default labels and a case body hangs
off its label (off every label that reaches it by fall-through or ``goto case``); calls
with unknown effects (free functions, I/O) are chained by ``<effects>`` data edges.
Labels are canonical: ``i++``/``i--`` are ``i += 1``/``i -= 1``, ``x = x * 2`` is
``x *= 2``, a classic ``for`` condition is ``while (...)``.
"""

from __future__ import annotations

import pytest
from pdg_gold import Gold, check

# ---------------------------------------------------------------------------------------
# if / else

# (b += a and b = 2 do not fold into one conditional expression: see IF_FOLD)
# (the branches assign different variables: one variable in both would fold into a
# conditional expression, IF_FOLD below); b = 0 reaches the return on the false branch
IF_ELSE = Gold(
    control={("E", "P"), ("E", "I"), ("E", "IF"), ("E", "R"), ("IF", "T"), ("IF", "F")},
    data={("P", "IF", "v0"), ("P", "T", "v0"), ("I", "T", "v1"), ("T", "R", "v1"),
          ("I", "R", "v1")},
    branches={("IF", "T"): "true", ("IF", "F"): "false"},
)
_C_IF = "int f(int a) {\n  int b = 0;\n  if (a > 0) { b += a; } else { a = 2; }\n  return b;\n}"
_C_IF_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "IF": "if (0 < v0)",
                "T": "v1 += v0", "F": "v0 = 2", "R": "return v1"}
IF_ELSE.programs = {
    "java": (_C_IF, _C_IF_LABELS),
    "csharp": (_C_IF.replace("int f", "int F"), _C_IF_LABELS),
    "c": (_C_IF, _C_IF_LABELS),
    "cpp": (_C_IF, _C_IF_LABELS),
    "javascript": ("function f(a) { let b = 0; if (a > 0) { b += a; } else { a = 2; } "
                   "return b; }", {**_C_IF_LABELS, "P": "v0", "I": "let v1 = 0"}),
    "python": ("def f(a):\n    b = 0\n    if a > 0:\n        b += a\n    else:\n        a = 2\n"
               "    return b\n",
               {**_C_IF_LABELS, "P": "v0", "I": "v1 = 0", "IF": "if 0 < v0"}),
}

# if/else assigning one variable in both branches is the conditional expression (one
# statement, no predicate): its strong definition kills b = 0
IF_FOLD = Gold(
    control={("E", "P"), ("E", "I"), ("E", "C"), ("E", "R")},
    data={("P", "C", "v0"), ("C", "R", "v1")},
)
_IF_FOLD = "int f(int a) { int b = 0; if (a > 0) { b = 1; } else { b = 2; } return b; }"
_IF_FOLD_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "C": "v1 = 0 < v0 ? 1 : 2",
                   "R": "return v1"}
IF_FOLD.programs = {
    "java": (_IF_FOLD, _IF_FOLD_LABELS),
    "csharp": (_IF_FOLD, _IF_FOLD_LABELS),
    "c": (_IF_FOLD, _IF_FOLD_LABELS),
    "cpp": (_IF_FOLD, _IF_FOLD_LABELS),
    "javascript": (_IF_FOLD.replace("int f(int a)", "function f(a)").replace("int b", "let b"),
                   {**_IF_FOLD_LABELS, "P": "v0", "I": "let v1 = 0"}),
    "python": ("def f(a):\n    b = 0\n    if a > 0:\n        b = 1\n    else:\n        b = 2\n"
               "    return b\n",
               {**_IF_FOLD_LABELS, "P": "v0", "I": "v1 = 0", "C": "v1 = 1 if 0 < v0 else 2"}),
}

# else-if chains (Python: elif)
_ELSE_IF = ("int f(int a) { if (a > 0) { int b = 1; return b; } else if (a < 0) { int b = 2;"
            " return b; } else { int b = 3; return b; } }")
ELSE_IF = Gold(
    control={("E", "P"), ("E", "IF1"), ("IF1", "T1"), ("IF1", "R1"), ("IF1", "IF2"),
             ("IF2", "T2"), ("IF2", "R2"), ("IF2", "T3"), ("IF2", "R3")},
    data={("P", "IF1", "v0"), ("P", "IF2", "v0"), ("T1", "R1", "v1"), ("T2", "R2", "v1"),
          ("T3", "R3", "v1")},
    branches={("IF1", "T1"): "true", ("IF1", "R1"): "true", ("IF1", "IF2"): "false",
              ("IF2", "T2"): "true", ("IF2", "R2"): "true", ("IF2", "T3"): "false",
              ("IF2", "R3"): "false"},
)
_ELSE_IF_LABELS = {"E": "entry", "P": "int v0", "IF1": "if (0 < v0)", "T1": "int v1 = 1",
                   "R1": "return v1#1", "IF2": "if (v0 < 0)", "T2": "int v1 = 2",
                   "R2": "return v1#2", "T3": "int v1 = 3", "R3": "return v1#3"}
ELSE_IF.programs = {
    "java": (_ELSE_IF, _ELSE_IF_LABELS),
    "csharp": (_ELSE_IF, _ELSE_IF_LABELS),
    "c": (_ELSE_IF, _ELSE_IF_LABELS),
    "cpp": (_ELSE_IF, _ELSE_IF_LABELS),
    "javascript": (_ELSE_IF.replace("int f(int a)", "function f(a)").replace("int b", "let b"),
                   # a let never assigned again is labelled const (graphs.canon.idioms)
                   {**_ELSE_IF_LABELS, "P": "v0", "T1": "const v1 = 1", "T2": "const v1 = 2",
                    "T3": "const v1 = 3"}),
    "python": ("def f(a):\n    if a > 0:\n        b = 1\n        return b\n    elif a < 0:\n"
               "        b = 2\n        return b\n    else:\n        b = 3\n        return b\n",
               {**_ELSE_IF_LABELS, "P": "v0", "IF1": "if 0 < v0", "IF2": "elif v0 < 0",
                "T1": "v1 = 1", "T2": "v1 = 2", "T3": "v1 = 3"}),
}

# ---------------------------------------------------------------------------------------
# loops

WHILE = Gold(
    control={("E", "P"), ("E", "I"), ("E", "W"), ("E", "R"), ("W", "W"), ("W", "A"),
             ("W", "U")},
    data={("P", "W", "v0"), ("P", "A", "v0"), ("P", "U", "v0"), ("U", "W", "v0"),
          ("U", "A", "v0"), ("U", "U", "v0"), ("I", "A", "v1"), ("I", "R", "v1"),
          ("A", "A", "v1"), ("A", "R", "v1")},
    branches={("W", "W"): "true", ("W", "A"): "true", ("W", "U"): "true"},
    # n-- and s += n reach the next iteration's reads round the loop
    carried={("U", "W", "v0"), ("U", "A", "v0"), ("U", "U", "v0"), ("A", "A", "v1")},
)
_WHILE = "int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }"
_WHILE_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "W": "while (0 < v0)",
                 "A": "v1 += v0", "U": "v0 -= 1", "R": "return v1"}
WHILE.programs = {
    "java": (_WHILE, _WHILE_LABELS),
    "csharp": (_WHILE, _WHILE_LABELS),
    "c": (_WHILE, _WHILE_LABELS),
    "cpp": (_WHILE, _WHILE_LABELS),
    "javascript": ("function f(n) { let s = 0; while (n > 0) { s += n; n--; } return s; }",
                   {**_WHILE_LABELS, "P": "v0", "I": "let v1 = 0"}),
    "python": ("def f(n):\n    s = 0\n    while n > 0:\n        s += n\n        n -= 1\n"
               "    return s\n",
               {**_WHILE_LABELS, "P": "v0", "I": "v1 = 0", "W": "while 0 < v0"}),
}

DO = Gold(
    control={("E", "P"), ("E", "I"), ("E", "A"), ("E", "D"), ("E", "R"), ("D", "A"),
             ("D", "D")},
    data={("P", "D", "v0"), ("I", "A", "v1"), ("A", "A", "v1"), ("A", "D", "v1"),
          ("A", "R", "v1")},
    branches={("D", "A"): "true", ("D", "D"): "true"},
)
_DO = "int f(int n) { int i = 0; do { i += 2; } while (i < n); return i; }"
_DO_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "A": "v1 += 2",
              "D": "do while (v1 < v0)", "R": "return v1"}
DO.programs = {
    "java": (_DO, _DO_LABELS),
    "csharp": (_DO, _DO_LABELS),
    "c": (_DO, _DO_LABELS),
    "cpp": (_DO, _DO_LABELS),
    "javascript": ("function f(n) { let i = 0; do { i += 2; } while (i < n); return i; }",
                   {**_DO_LABELS, "P": "v0", "I": "let v1 = 0"}),
}

FOR = Gold(
    control={("E", "P"), ("E", "S"), ("E", "FI"), ("E", "FC"), ("E", "R"), ("FC", "FC"),
             ("FC", "A"), ("FC", "FU")},
    data={("P", "FC", "v0"), ("FI", "FC", "v2"), ("FI", "FU", "v2"), ("FI", "A", "v2"),
          ("FU", "FC", "v2"), ("FU", "FU", "v2"), ("FU", "A", "v2"), ("S", "A", "v1"),
          ("S", "R", "v1"), ("A", "A", "v1"), ("A", "R", "v1")},
    branches={("FC", "FC"): "true", ("FC", "A"): "true", ("FC", "FU"): "true"},
    # the update reaches the condition, itself and the body of the next iteration
    carried={("FU", "FC", "v2"), ("FU", "FU", "v2"), ("FU", "A", "v2"), ("A", "A", "v1")},
)
_FOR = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) { s += i; } return s; }"
_FOR_LABELS = {"E": "entry", "P": "int v0", "S": "int v1 = 0", "FI": "int v2 = 0",
               "FC": "while (v2 < v0)", "FU": "v2 += 1", "A": "v1 += v2", "R": "return v1"}
FOR.programs = {
    "java": (_FOR, _FOR_LABELS),
    "csharp": (_FOR, _FOR_LABELS),
    "c": (_FOR, _FOR_LABELS),
    "cpp": (_FOR, _FOR_LABELS),
    "javascript": (_FOR.replace("int f(int n)", "function f(n)").replace("int ", "let "),
                   {**_FOR_LABELS, "P": "v0", "S": "let v1 = 0", "FI": "let v2 = 0"}),
}

FOREACH = Gold(
    control={("E", "P"), ("E", "S"), ("E", "L"), ("E", "R"), ("L", "L"), ("L", "A")},
    data={("P", "L", "v0"), ("L", "A", "v2"), ("S", "A", "v1"), ("S", "R", "v1"),
          ("A", "A", "v1"), ("A", "R", "v1")},
    branches={("L", "L"): "true", ("L", "A"): "true"},
)
_FE_LABELS = {"E": "entry", "P": "int[] v0", "S": "int v1 = 0", "L": "for (int v2 : v0)",
              "A": "v1 += v2", "R": "return v1"}
FOREACH.programs = {
    "java": ("int f(int[] xs) { int s = 0; for (int x : xs) { s += x; } return s; }",
             _FE_LABELS),
    "csharp": ("int F(int[] xs) { int s = 0; foreach (int x in xs) { s += x; } return s; }",
               {**_FE_LABELS, "L": "foreach (int v2 in v0)"}),
    "cpp": ("int f(std::vector<int> xs) { int s = 0; for (int x : xs) { s += x; } return s; }",
            {**_FE_LABELS, "P": "vector<int> v0"}),
    "javascript": ("function f(xs) { let s = 0; for (const x of xs) { s += x; } return s; }",
                   {**_FE_LABELS, "P": "v0", "S": "let v1 = 0", "L": "for (const v2 of v0)"}),
    "python": ("def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
               {**_FE_LABELS, "P": "v0", "S": "v1 = 0", "L": "for v2 in v0"}),
}

# JavaScript's for-in is a foreach too; g has unknown effects, so each call is ordered
# after the previous iteration's
FOR_IN = Gold(
    control={("E", "P"), ("E", "L"), ("L", "L"), ("L", "A")},
    data={("P", "L", "v0"), ("P", "A", "v0"), ("L", "A", "v1"), ("A", "A", "<effects>")},
    branches={("L", "L"): "true", ("L", "A"): "true"},
    programs={"javascript": ("function f(o) { for (const k in o) { g(k, o[k]); } }",
                             {"E": "entry", "P": "v0", "L": "for (const v1 in v0)",
                              "A": "g(v1, v0[v1])"})},
)

# break and continue: the loop header is re-tested only through the continue and the
# fall-through paths, so it depends on both ifs (not on itself)
BREAK_CONTINUE = Gold(
    control={("E", "P"), ("E", "S"), ("E", "W"), ("E", "R"), ("W", "U"), ("W", "I1"),
             ("I1", "C"), ("I1", "W"), ("I1", "I2"), ("I2", "B"), ("I2", "A"), ("I2", "W")},
    data={("P", "W", "v0"), ("P", "U", "v0"), ("U", "I1", "v0"), ("U", "I2", "v0"),
          ("U", "A", "v0"), ("U", "W", "v0"), ("U", "U", "v0"), ("S", "A", "v1"),
          ("S", "R", "v1"), ("A", "A", "v1"), ("A", "R", "v1")},
    branches={("W", "U"): "true", ("W", "I1"): "true", ("I1", "C"): "true",
              ("I1", "W"): "true", ("I1", "I2"): "false", ("I2", "B"): "true",
              ("I2", "A"): "false", ("I2", "W"): "false"},
)
_BC = ("int f(int n) { int s = 0; while (n > 0) { n--; if (n == 5) continue; "
       "if (n == 2) break; s += n; } return s; }")
_BC_LABELS = {"E": "entry", "P": "int v0", "S": "int v1 = 0", "W": "while (0 < v0)",
              "U": "v0 -= 1", "I1": "if (v0 == 5)", "C": "continue", "I2": "if (v0 == 2)",
              "B": "break", "A": "v1 += v0", "R": "return v1"}
BREAK_CONTINUE.programs = {
    "java": (_BC, _BC_LABELS),
    "csharp": (_BC, _BC_LABELS),
    "c": (_BC, _BC_LABELS),
    "cpp": (_BC, _BC_LABELS),
    "javascript": (_BC.replace("int f(int n)", "function f(n)").replace("int s", "let s"),
                   {**_BC_LABELS, "P": "v0", "S": "let v1 = 0"}),
    "python": ("def f(n):\n    s = 0\n    while n > 0:\n        n -= 1\n        if n == 5:\n"
               "            continue\n        if n == 2:\n            break\n        s += n\n"
               "    return s\n",
               {**_BC_LABELS, "P": "v0", "S": "v1 = 0", "W": "while 0 < v0",
                "I1": "if v0 == 5", "I2": "if v0 == 2"}),
}

# ---------------------------------------------------------------------------------------
# return and throw

RETURN = Gold(
    control={("E", "P"), ("E", "IF"), ("IF", "R1"), ("IF", "M"), ("IF", "R2")},
    data={("P", "IF", "v0"), ("P", "M", "v0"), ("M", "R2", "v0")},
    branches={("IF", "R1"): "true", ("IF", "M"): "false", ("IF", "R2"): "false"},
)
_RET = "int f(int a) { if (a < 0) return -1; a = a * 2; return a; }"
_RET_LABELS = {"E": "entry", "P": "int v0", "IF": "if (v0 < 0)", "R1": "return -1",
               "M": "v0 *= 2", "R2": "return v0"}
RETURN.programs = {
    "java": (_RET, _RET_LABELS),
    "csharp": (_RET, _RET_LABELS),
    "c": (_RET, _RET_LABELS),
    "cpp": (_RET, _RET_LABELS),
    "javascript": (_RET.replace("int f(int a)", "function f(a)"), {**_RET_LABELS, "P": "v0"}),
    "python": ("def f(a):\n    if a < 0:\n        return -1\n    a = a * 2\n    return a\n",
               {**_RET_LABELS, "P": "v0", "IF": "if v0 < 0"}),
}

THROW = Gold(
    control={("E", "P"), ("E", "IF"), ("IF", "T"), ("IF", "U")},
    data={("P", "IF", "v0"), ("P", "U", "v0")},
    branches={("IF", "T"): "true", ("IF", "U"): "false"},
)
_TH_LABELS = {"E": "entry", "P": "int v0", "IF": "if (v0 < 0)", "U": "use(v0)"}
THROW.programs = {
    "java": ('void f(int a) { if (a < 0) throw new IllegalArgumentException("neg"); use(a); }',
             {**_TH_LABELS, "T": 'throw new IllegalArgumentException("neg")'}),
    "csharp": ('void F(int a) { if (a < 0) throw new System.ArgumentException("neg"); use(a);'
               " }", {**_TH_LABELS, "T": 'throw new ArgumentException("neg")'}),
    "cpp": ('void f(int a) { if (a < 0) throw std::invalid_argument("neg"); use(a); }',
            {**_TH_LABELS, "T": 'throw invalid_argument("neg")'}),
    "javascript": ('function f(a) { if (a < 0) throw new Error("neg"); use(a); }',
                   {**_TH_LABELS, "P": "v0", "T": 'throw new Error("neg")'}),
    "python": ('def f(a):\n    if a < 0:\n        raise ValueError("neg")\n    use(a)\n',
               {**_TH_LABELS, "P": "v0", "IF": "if v0 < 0", "T": 'raise ValueError("neg")'}),
}

# ---------------------------------------------------------------------------------------
# try / catch / finally

# The try header branches to the body and to each handler; both paths assign r before
# the finally reads it, so the initial r = 0 reaches nothing.
TRY = Gold(
    control={("E", "P"), ("E", "I"), ("E", "T"), ("E", "F"), ("E", "L"), ("E", "R"),
             ("T", "A"), ("T", "C"), ("T", "B")},
    data={("P", "A", "v0"), ("A", "L", "v1"), ("B", "L", "v1"), ("A", "R", "v1"),
          ("B", "R", "v1")},
)
_TRY_LABELS = {"E": "entry", "P": "String v0", "I": "int v1 = 0", "T": "try",
               "A": "v1 = Integer.parseInt(v0)", "C": "catch (NumberFormatException v2)",
               "B": "v1 = -1", "F": "finally", "L": "log(v1)", "R": "return v1"}
TRY.programs = {
    "java": ("int f(String s) {\n  int r = 0;\n  try {\n    r = Integer.parseInt(s);\n"
             "  } catch (NumberFormatException e) {\n    r = -1;\n  } finally {\n    log(r);\n"
             "  }\n  return r;\n}", _TRY_LABELS),
    "csharp": ("int F(string s) { int r = 0; try { r = int.Parse(s); } catch "
               "(FormatException e) { r = -1; } finally { log(r); } return r; }",
               {**_TRY_LABELS, "P": "string v0", "A": "v1 = int.Parse(v0)",
                "C": "catch (FormatException v2)"}),
    "javascript": ("function f(s) { let r = 0; try { r = parseInt(s); } catch (e) { r = -1; }"
                   " finally { log(r); } return r; }",
                   {**_TRY_LABELS, "P": "v0", "I": "let v1 = 0", "A": "v1 = parseInt(v0)",
                    "C": "catch (v2)"}),
    "python": ("def f(s):\n    r = 0\n    try:\n        r = int(s)\n    except ValueError as e:"
               "\n        r = -1\n    finally:\n        log(r)\n    return r\n",
               {**_TRY_LABELS, "P": "v0", "I": "v1 = 0", "A": "v1 = int(v0)",
                "C": "except ValueError as v2"}),
}

# A throw in the body goes to every catch of its try; C++ has no finally.
# (the throw branches to both catches, so which handler runs depends on it, as on the try)
TRY_THROW = Gold(
    control={("E", "P"), ("E", "T"), ("E", "R"), ("T", "IF"), ("T", "C1"), ("T", "C2"),
             ("T", "H1"), ("T", "H2"), ("IF", "X"), ("IF", "U"), ("X", "C1"), ("X", "H1"),
             ("X", "C2"), ("X", "H2")},
    data={("P", "IF", "v0"), ("P", "U", "v0"), ("U", "R", "v0"), ("H1", "R", "v0"),
          ("H2", "R", "v0")},
    branches={("IF", "X"): "true", ("IF", "U"): "false"},
)
_TT_LABELS = {"E": "entry", "P": "int v0", "T": "try", "IF": "if (v0 < 0)",
              "U": "v0 *= 2", "H1": "v0 = 1", "H2": "v0 = 2", "R": "return v0"}
TRY_THROW.programs = {
    "cpp": ("int f(int a) { try { if (a < 0) throw std::runtime_error(\"x\"); a = a * 2; } "
            "catch (const std::runtime_error& e) { a = 1; } catch (...) { a = 2; } return a; }",
            {**_TT_LABELS, "X": 'throw runtime_error("x")',
             "C1": "catch (const runtime_error & v1)", "C2": "catch (...)"}),
    "java": ("int f(int a) { try { if (a < 0) throw new E(); a = a * 2; } catch (E e) { a = 1; "
             "} catch (Exception e) { a = 2; } return a; }",
             {**_TT_LABELS, "X": "throw new E()", "C1": "catch (E v1)",
              "C2": "catch (Exception v1)"}),
}

# return inside try/finally: one copy of the finally per continuation, so the statement
# after the try depends on the if (not on the finally), and the finally runs on every path
FINALLY_RETURN = Gold(
    control={("E", "P"), ("E", "T"), ("T", "IF"), ("T", "F"), ("T", "CL"), ("IF", "R1"),
             ("IF", "M"), ("IF", "F"), ("IF", "CL"), ("IF", "R2")},
    data={("P", "IF", "v0"), ("P", "R1", "v0"), ("P", "M", "v0"), ("M", "R2", "v0")},
    # the finally (F, CL) runs on both outcomes of the if: its edges hang on neither
    branches={("IF", "R1"): "true", ("IF", "M"): "false", ("IF", "R2"): "false"},
)
_FR_LABELS = {"E": "entry", "P": "int v0", "T": "try", "IF": "if (0 < v0)", "R1": "return v0#1",
              "M": "v0 = -v0", "F": "finally", "CL": "close()", "R2": "return v0#2"}
_FR = "int f(int a) { try { if (a > 0) return a; a = -a; } finally { close(); } return a; }"
FINALLY_RETURN.programs = {
    "java": (_FR, _FR_LABELS),
    "csharp": (_FR, _FR_LABELS),
    "javascript": (_FR.replace("int f(int a)", "function f(a)"), {**_FR_LABELS, "P": "v0"}),
    "python": ("def f(a):\n    try:\n        if a > 0:\n            return a\n        a = -a\n"
               "    finally:\n        close()\n    return a\n",
               {**_FR_LABELS, "P": "v0", "IF": "if 0 < v0"}),
}

# ---------------------------------------------------------------------------------------
# labelled jumps and goto

LABELED = Gold(
    control={("E", "P"), ("E", "I"), ("E", "L1"), ("E", "R"), ("L1", "L2"), ("L2", "IF1"),
             ("L2", "L1"), ("IF1", "CO"), ("IF1", "L1"), ("IF1", "IF2"), ("IF2", "BR"),
             ("IF2", "INC"), ("IF2", "L2")},
    data={("P", "L1", "v0"), ("L1", "L2", "v2"), ("L2", "IF1", "v3"), ("L2", "IF2", "v3"),
          ("I", "INC", "v1"), ("I", "R", "v1"), ("INC", "INC", "v1"), ("INC", "R", "v1")},
    branches={("L1", "L2"): "true", ("L2", "IF1"): "true", ("L2", "L1"): "false",
              ("IF1", "CO"): "true", ("IF1", "L1"): "true", ("IF1", "IF2"): "false",
              ("IF2", "BR"): "true", ("IF2", "INC"): "false", ("IF2", "L2"): "false"},
)
_LB_LABELS = {"E": "entry", "P": "int[][] v0", "I": "int v1 = 0",
              "L1": "for (int[] v2 : v0)", "L2": "for (int v3 : v2)", "IF1": "if (v3 < 0)",
              "CO": "continue outer", "IF2": "if (v3 == 0)", "BR": "break outer",
              "INC": "v1 += 1", "R": "return v1"}
LABELED.programs = {
    "java": ("int f(int[][] m) {\n  int c = 0;\n  outer:\n  for (int[] row : m) {\n"
             "    for (int x : row) {\n      if (x < 0) continue outer;\n"
             "      if (x == 0) break outer;\n      c++;\n    }\n  }\n  return c;\n}",
             _LB_LABELS),
    "javascript": ("function f(m) { let c = 0; outer: for (const row of m) { for (const x of "
                   "row) { if (x < 0) continue outer; if (x === 0) break outer; c++; } } "
                   "return c; }",
                   {**_LB_LABELS, "P": "v0", "I": "let v1 = 0", "L1": "for (const v2 of v0)",
                    "L2": "for (const v3 of v2)", "IF2": "if (v3 === 0)"}),
}

# a labelled block (not a loop): break leaves the block; use and go have unknown effects
LABELED_BLOCK = Gold(
    control={("E", "P"), ("E", "IF"), ("E", "G"), ("IF", "B"), ("IF", "U")},
    data={("P", "IF", "v0"), ("P", "U", "v0"), ("U", "G", "<effects>")},
    branches={("IF", "B"): "true", ("IF", "U"): "false"},
    programs={"java": ("void f(int a) { blk: { if (a > 0) break blk; use(a); } go(); }",
                       {"E": "entry", "P": "int v0", "IF": "if (0 < v0)", "B": "break blk",
                        "U": "use(v0)", "G": "go()"})},
)

GOTO = Gold(
    control={("E", "P"), ("E", "I"), ("E", "LB"), ("E", "INC"), ("E", "IF"), ("E", "R"),
             ("IF", "G"), ("IF", "LB"), ("IF", "INC"), ("IF", "IF")},
    data={("I", "INC", "v1"), ("INC", "INC", "v1"), ("INC", "IF", "v1"), ("INC", "R", "v1"),
          ("P", "IF", "v0")},
    branches={("IF", "G"): "true", ("IF", "LB"): "true", ("IF", "INC"): "true",
              ("IF", "IF"): "true"},
)
_GOTO = "int f(int n) {\n  int i = 0;\nloop:\n  i++;\n  if (i < n) goto loop;\n  return i;\n}"
_GOTO_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "LB": "loop", "INC": "v1 += 1",
                "IF": "if (v1 < v0)", "G": "goto loop", "R": "return v1"}
GOTO.programs = {"c": (_GOTO, _GOTO_LABELS), "cpp": (_GOTO, _GOTO_LABELS),
                 "csharp": (_GOTO, _GOTO_LABELS)}

# ---------------------------------------------------------------------------------------
# switch

# fall-through from case 1 into case 2 (Java, C, C++, JavaScript): the switch controls
# its labels, each body hangs off the labels that reach it (r += 2 and break off both)
SWITCH_FALL = Gold(
    control={("E", "P"), ("E", "I"), ("E", "SW"), ("E", "R"), ("SW", "C1"), ("SW", "C2"),
             ("SW", "D"), ("C1", "A1"), ("C1", "A2"), ("C1", "B"), ("C2", "A2"),
             ("C2", "B"), ("D", "A3")},
    data={("P", "SW", "v0"), ("I", "A1", "v1"), ("I", "A2", "v1"), ("A1", "A2", "v1"),
          ("A2", "R", "v1"), ("A3", "R", "v1")},
)
_SWF = ("int f(int k) {\n  int r = 0;\n  switch (k) {\n    case 1:\n      r += 1;\n"
        "    case 2:\n      r += 2;\n      break;\n    default:\n      r = -1;\n  }\n"
        "  return r;\n}")
_SWF_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "SW": "switch (v0)",
               "C1": "case 1", "A1": "v1 += 1", "C2": "case 2", "A2": "v1 += 2", "B": "break",
               "D": "default", "A3": "v1 = -1", "R": "return v1"}
SWITCH_FALL.programs = {
    "java": (_SWF, _SWF_LABELS),
    "c": (_SWF, _SWF_LABELS),
    "cpp": (_SWF, _SWF_LABELS),
    "javascript": (_SWF.replace("int f(int k)", "function f(k)").replace("int r", "let r"),
                   {**_SWF_LABELS, "P": "v0", "I": "let v1 = 0"}),
}

# no fall-through: C# (stacked labels share statements), Java's arrow rules, Python match
SWITCH_NOFALL = Gold(
    control={("E", "P"), ("E", "I"), ("E", "SW"), ("E", "R"), ("SW", "C1"), ("C1", "A2"),
             ("SW", "D"), ("D", "A3")},
    data={("P", "SW", "v0"), ("I", "A2", "v1"), ("A2", "R", "v1"), ("A3", "R", "v1")},
)
_SWN_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "SW": "switch (v0)",
               "A2": "v1 += 2", "D": "default", "A3": "v1 = -1", "R": "return v1"}
SWITCH_NOFALL.programs = {
    "java": ("int f(int k) { int r = 0; switch (k) { case 1, 2 -> r += 2; default -> r = -1; }"
             " return r; }", {**_SWN_LABELS, "C1": "case 1, 2"}),
    "python": ("def f(k):\n    r = 0\n    match k:\n        case 1 | 2:\n            r += 2\n"
               "        case _:\n            r = -1\n    return r\n",
               {**_SWN_LABELS, "P": "v0", "I": "v1 = 0", "SW": "match v0", "C1": "case 1 | 2",
                "D": "case _"}),
}
# stacked labels: the shared body hangs off both
SWITCH_CS = Gold(
    control={("E", "P"), ("E", "I"), ("E", "SW"), ("E", "R"), ("SW", "C1"), ("SW", "C2"),
             ("C1", "A2"), ("C2", "A2"), ("C1", "B1"), ("C2", "B1"), ("SW", "D"),
             ("D", "A3"), ("D", "B2")},
    data={("P", "SW", "v0"), ("I", "A2", "v1"), ("A2", "R", "v1"), ("A3", "R", "v1")},
    programs={"csharp": ("int F(int k) { int r = 0; switch (k) { case 1: case 2: r += 2; "
                         "break; default: r = -1; break; } return r; }",
                         {**_SWN_LABELS, "C1": "case 1", "C2": "case 2", "B1": "break#1",
                          "B2": "break#2"})},
)
# no default: the switch can be skipped, so the initial value reaches the return
SWITCH_NO_DEFAULT = Gold(
    control={("E", "P"), ("E", "I"), ("E", "SW"), ("E", "R"), ("SW", "C"), ("C", "A"),
             ("C", "B")},
    data={("P", "SW", "v0"), ("I", "R", "v1"), ("A", "R", "v1")},
)
_SND = "int f(int k) { int r = 0; switch (k) { case 1: r = 1; break; } return r; }"
_SND_LABELS = {"E": "entry", "P": "int v0", "I": "int v1 = 0", "SW": "switch (v0)",
               "C": "case 1", "A": "v1 = 1", "B": "break", "R": "return v1"}
SWITCH_NO_DEFAULT.programs = {"c": (_SND, _SND_LABELS), "csharp": (_SND, _SND_LABELS),
                              "java": (_SND, _SND_LABELS)}
# C#'s goto case jumps to another label: case 1's label and body are reached from the
# switch directly and through case 3, so they hang off both labels
SWITCH_GOTO_CASE = Gold(
    control={("E", "P"), ("E", "SW"), ("E", "R"), ("SW", "C1"), ("SW", "C3"), ("C1", "A1"),
             ("C1", "B"), ("C3", "G"), ("C3", "C1"), ("C3", "A1"), ("C3", "B")},
    data={("P", "SW", "v0")},
    programs={"csharp": ("int F(int k) { switch (k) { case 1: A(); break; case 3: goto case 1;"
                         " } return 0; }",
                         {"E": "entry", "P": "int v0", "SW": "switch (v0)", "C1": "case 1",
                          "A1": "A()", "B": "break", "C3": "case 3", "G": "goto case 1",
                          "R": "return 0"})},
)

# ---------------------------------------------------------------------------------------
# Python: with, loop else, comprehension

PY_WITH_ELSE = Gold(
    # ys is a temporary read once, by the return: folded into it
    control={("E", "P1"), ("E", "P2"), ("E", "W"), ("E", "RD"), ("E", "L"),
             ("E", "R"), ("L", "IF"), ("L", "EL"), ("IF", "B"), ("IF", "L")},
    data={("P1", "W", "v0"), ("W", "RD", "v2"), ("P2", "L", "v1"), ("P2", "R", "v1"),
          ("L", "IF", "v4"), ("RD", "IF", "v3"), ("L", "R", "v4"), ("EL", "R", "v4")},
    branches={("L", "IF"): "true", ("L", "EL"): "false", ("IF", "B"): "true",
              ("IF", "L"): "false"},
    programs={"python": (
        "def f(path, xs):\n    with open(path) as fh:\n        data = fh.read()\n"
        "    for x in xs:\n        if x == data:\n            break\n    else:\n"
        "        x = None\n    ys = [y * 2 for y in xs if y]\n    return x, ys\n",
        {"E": "entry", "P1": "v0", "P2": "v1", "W": "with open(v0) as v2",
         "RD": "v3 = v2.read()", "L": "for v4 in v1", "IF": "if v4 == v3", "B": "break",
         "EL": "v4 = None", "R": "return v4, [v5 * 2 for v5 in v1 if v5]"})},
)

PY_WHILE_ELSE = Gold(
    control={("E", "P"), ("E", "W"), ("E", "R"), ("W", "IF"), ("W", "EL"), ("IF", "B"),
             ("IF", "D"), ("IF", "W")},
    data={("P", "W", "v0"), ("P", "IF", "v0"), ("P", "D", "v0"), ("D", "W", "v0"),
          ("D", "IF", "v0"), ("D", "D", "v0"), ("P", "R", "v0"), ("D", "R", "v0")},
    branches={("W", "IF"): "true", ("W", "EL"): "false", ("IF", "B"): "true",
              ("IF", "D"): "false", ("IF", "W"): "false"},
    programs={"python": (
        "def f(n):\n    while n:\n        if n == 3:\n            break\n        n -= 1\n"
        "    else:\n        print('done')\n    return n\n",
        {"E": "entry", "P": "v0", "W": "while v0", "IF": "if v0 == 3", "B": "break",
         "D": "v0 -= 1", "EL": "print('done')", "R": "return v0"})},
)

CASES = [
    *IF_ELSE.cases("if_else"), *IF_FOLD.cases("if_fold"), *ELSE_IF.cases("else_if"),
    *WHILE.cases("while"),
    *DO.cases("do"), *FOR.cases("for"), *FOREACH.cases("foreach"), *FOR_IN.cases("for_in"),
    *BREAK_CONTINUE.cases("break_continue"), *RETURN.cases("return"),
    *THROW.cases("throw"), *TRY.cases("try"), *TRY_THROW.cases("try_throw"),
    *FINALLY_RETURN.cases("finally_return"), *LABELED.cases("labeled"),
    *LABELED_BLOCK.cases("labeled_block"), *GOTO.cases("goto"),
    *SWITCH_FALL.cases("switch_fall"), *SWITCH_NOFALL.cases("switch_nofall"),
    *SWITCH_CS.cases("switch_cs"), *SWITCH_NO_DEFAULT.cases("switch_no_default"),
    *SWITCH_GOTO_CASE.cases("switch_goto_case"), *PY_WITH_ELSE.cases("py_with_else"),
    *PY_WHILE_ELSE.cases("py_while_else"),
]


@pytest.mark.parametrize(("lang", "gold"), [pytest.param(c[1], c[2], id=c[0]) for c in CASES])
def test_gold(lang, gold):
    check(lang, gold)
