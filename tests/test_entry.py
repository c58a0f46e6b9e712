"""What runs (issue 29) and one entry (issue 30): a unit's entry point, what is reachable
from it, what is left out of GRS and TRS and named in reasons, and the entry as one node."""

from __future__ import annotations

import re

import pytest

from graphs import build_pdg, parse
from graphs.parsing.entry import what_runs
from graphs.pdg.entry_node import unify_entry
from ruby_metric import RubyScorer
from ruby_metric.scoring.crosslang import score_source

JAVA = """import java.util.*;
import java.io.*;

public class Main {
    static class FastReader {
        BufferedReader br;
        StringTokenizer st;
        FastReader() { br = new BufferedReader(new InputStreamReader(System.in)); }
        String next() {
            while (st == null || !st.hasMoreElements()) {
                try { st = new StringTokenizer(br.readLine()); } catch (IOException e) { }
            }
            return st.nextToken();
        }
        int nextInt() { return Integer.parseInt(next()); }
        long nextLong() { return Long.parseLong(next()); }
    }

    public static void main(String[] args) {
        FastReader in = new FastReader();
        int n = in.nextInt();
        int s = 0;
        for (int i = 0; i < n; i++) { s += i * i; }
        System.out.println(s);
    }
}
"""
# the same program without the method it never calls
JAVA_USED = JAVA.replace("        long nextLong() { return Long.parseLong(next()); }\n", "")

C_PROGRAM = """#include <stdio.h>

int unused(int a) { return a * 3; }

int square(int a) { return a * a; }

int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++) {
        s += square(i);
    }
    printf("%d\\n", s);
    return 0;
}
"""
C_USED = C_PROGRAM.replace("int unused(int a) { return a * 3; }\n\n", "")

PY_GUARD = """import sys


def helper(x):
    return x + 1


def main():
    s = 0
    for i in range(10):
        s += i * i
    print(s)


if __name__ == "__main__":
    main()
"""
PY_TOP = """s = 0
for i in range(10):
    s += i * i
print(s)
"""
JAVA_SUM = """public class Main {
    static int unusedHelper(int x) { return x + 1; }

    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 10; i++) {
            s += i * i;
        }
        System.out.println(s);
    }
}
"""

JS_PROGRAM = """function helper(a) { return a * 3; }
function solve(n) { let s = 0; for (let i = 0; i < n; i++) { s += i; } return s; }
console.log(solve(10));
"""


def _labels(graph):
    """Node labels in order, each local's canonical name (a digest) written ``v``."""
    return [re.sub(r"\bv[0-9a-f]+\b", "v", graph.nodes[n]["label"]) for n in sorted(graph)]


# ---------------------------------------------------------------------- what is left out

def test_java_unused_reader_method_is_left_out():
    program = what_runs(parse(JAVA, "java"))
    assert (program.entry, program.main) == ("main", "main")
    # next() is called by nextInt(), the constructor runs with new FastReader()
    assert program.left_out == ("FastReader.nextLong",)
    assert "nextLong" not in program.parsed.source
    # blanked, not removed: every line of the rest is where it was
    assert program.parsed.source.count("\n") == JAVA.count("\n")
    assert program.describe() == "left out, never called from main: FastReader.nextLong"


def test_reader_reached_only_through_mapped_reads_is_left_out():
    # what the I/O model maps as a whole (here: the reader's declaration and its reads,
    # by their text) names nothing: the reader class is then unreachable
    def mapped(node):
        text = node.text.decode()
        return node.type in ("local_variable_declaration", "method_invocation") and (
            "FastReader" in text or text.startswith("in.next"))

    program = what_runs(parse(JAVA, "java"), mapped)
    assert program.left_out == ("FastReader",)
    assert what_runs(parse(JAVA, "java")).left_out == ("FastReader.nextLong",)


def test_java_left_out_code_scores_as_absent():
    scorer = RubyScorer(language="java")
    result = scorer.score(JAVA, JAVA_USED)
    # the reference's unused method is not a statement the candidate deleted
    assert result.grs == 1.0
    assert result.trs == 1.0
    assert result.reasons["grs"] == (
        "reference: left out, never called from main: FastReader.nextLong")
    assert result.reasons["trs"] == result.reasons["grs"]
    # both sides' unused code is left out, so the swap scores the same
    assert scorer.score(JAVA_USED, JAVA).grs == 1.0


def test_explain_names_what_was_left_out():
    text = RubyScorer(language="java").explain(JAVA, JAVA_USED).to_text()
    assert "reference: left out, never called from main: FastReader.nextLong" in text
    source = RubyScorer(language="python", source_language="java").explain_source(
        JAVA_SUM, PY_GUARD).to_text()
    assert "source: left out, never called from main: Main.unusedHelper" in source
    assert "candidate: left out, never called from main: helper" in source


def test_c_unused_helper_is_left_out():
    program = what_runs(parse(C_PROGRAM, "c"))
    assert (program.entry, program.left_out) == ("main", ("unused",))
    graph = unify_entry(build_pdg(program.parsed, unread_parameters=False), program)
    # main dissolved into the entry, square() still a function below it
    assert _labels(graph) == [
        "entry", "function square", "int v", "return v * v",
        "int v = 0", "while (v < 10)", "int v = 0", "v += 1", "v += square(v)",
        'printf("%d\\n", v)', "return 0"]
    assert graph.graph["functions"] == 1
    result = RubyScorer(language="c").score(C_PROGRAM, C_USED)
    assert (result.grs, result.trs) == (1.0, 1.0)


def test_python_guard_and_main_called_once():
    program = what_runs(parse(PY_GUARD, "python"))
    assert program.entry == "top level"
    assert (program.main, program.main_call_line, program.guard_line) == ("main", 16, 15)
    assert program.left_out == ("helper",)
    graph = unify_entry(build_pdg(program.parsed, unread_parameters=False), program)
    # the guard, the call and the function node dissolve: the statements of main() are
    # the entry's, as if written at the top level
    top = build_pdg(PY_TOP, "python", unread_parameters=False)
    assert _labels(graph) == _labels(top) == [
        "entry", "v = 0", "for v in range(10)", "v += v * v", "print(v)"]
    assert graph.graph["functions"] == 0
    result = RubyScorer(language="python").score(PY_TOP, PY_GUARD)
    assert result.grs == 1.0
    assert result.reasons["grs"] == "candidate: left out, never called from main: helper"


def test_csharp_main_and_top_level_statements():
    cs = """using System;
namespace A {
    class Reader {
        public int Next() { return 1; }
        public long NextLong() { return 2; }
        public override string ToString() { return "r"; }
    }
    class Program {
        static int Unused() { return 3; }
        static void Main(string[] args) { var r = new Reader(); Console.WriteLine(r.Next()); }
    }
}
"""
    program = what_runs(parse(cs, "cs"))
    assert (program.entry, program.left_out) == ("main", ("Reader.NextLong", "Program.Unused"))
    top = ("using System;\nint F(int a) { return a; }\nint G() { return 1; }\n"
           "Console.WriteLine(F(2));\n")
    program = what_runs(parse(top, "cs"))
    assert (program.entry, program.left_out) == ("top level", ("G",))


def test_javascript_top_level_program():
    program = what_runs(parse(JS_PROGRAM, "javascript"))
    assert (program.entry, program.main, program.left_out) == ("top level", None, ("helper",))
    # the call of solve() keeps it, with everything it calls
    assert "solve(n)" in program.parsed.source and "helper" not in program.parsed.source


def test_entry_is_one_node_across_languages():
    # Java's main (its unused helper left out) and Python's main() behind the guard (its
    # unused helper left out) are one program: the same neutral graph
    java_to_python = score_source(JAVA_SUM, PY_GUARD, source_language="java",
                                  language="python")
    assert java_to_python.grs == 1.0
    assert java_to_python.reasons[:2] == (
        "grs: candidate: left out, never called from main: helper; "
        "source: left out, never called from main: Main.unusedHelper",
        "trs: candidate: left out, never called from main: helper; "
        "source: left out, never called from main: Main.unusedHelper")
    assert score_source(JAVA_SUM, PY_TOP, source_language="java",
                        language="python").grs == 1.0


# ------------------------------------------------------------- conservative reachability

def test_names_keep_what_they_reference():
    java = """class Main {
    interface Op { int apply(int x); }
    static class Base { int f() { return 1; } int g() { return 2; } }
    static class Derived extends Base { int f() { return 3; } }
    static class Point implements Comparable<Point> {
        int x;
        public int compareTo(Point o) { return x - o.x; }
        int unusedInPoint() { return 0; }
    }
    static class Text { public String toString() { return "t"; } void never() {} }
    static class Unused { void a() {} }
    public static void main(String[] args) {
        Base b = new Derived();
        System.out.println(b.f() + new Text());
        java.util.Arrays.sort(new Point[0]);
    }
}
"""
    program = what_runs(parse(java, "java"))
    # Derived.f overrides what main calls by name; Point's methods may be called by the
    # library it implements Comparable for; toString is called implicitly
    assert program.left_out == ("Op", "Base.g", "Text.never", "Unused")


def test_python_values_and_dunders_keep_functions():
    py = """class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __lt__(self, other):
        return self.a < other.a

    def unused(self):
        return 0


def key(p):
    return p.b


def never():
    return 1


ps = sorted([Pair(1, 2), Pair(0, 3)], key=key)
print(ps[0].a)
"""
    program = what_runs(parse(py, "python"))
    assert program.left_out == ("Pair.unused", "never")
    # the class keeps a statement: its emptied members are no parse error
    assert program.parsed.ok


# ------------------------------------------------------------- units without an entry point

@pytest.mark.parametrize("code,language", [
    ("int add(int a, int b) { return a + b; }", "java"),  # a method snippet
    ("public static void main(String[] a) { f(); }", "java"),  # main without its class
    ("def f(x):\n    return x + 1\n\ndef g():\n    return 2\n", "python"),  # a module
    ("FIX = 1\n\ndef f(x):\n    return x + FIX\n", "python"),  # constants: no program
    # a driver that calls none of the unit's functions: they run from elsewhere
    ("def f(x):\n    return x\n\nimport doctest\ndoctest.testmod()\n", "python"),
    ("const f = (x) => x + 1;\nmodule.exports = f;\n", "javascript"),
    ("int f(int a) { return a; }\nint g(void) { return 1; }\n", "c"),
])
def test_unit_without_entry_keeps_everything(code, language):
    parsed = parse(code, language)
    program = what_runs(parsed)
    assert program.entry is None and program.left_out == ()
    assert program.parsed is parsed


def test_snippet_scores_unchanged():
    # the values of the same pairs before entry points were looked for (GRS: v4 label costs,
    # 0.9.0; 0.9871419270833334 under v3)
    ref = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }"
    cand = ref.replace("i < n", "i <= n")
    result = RubyScorer(language="java").score(ref, cand)
    assert result.trs == 1 - 1 / 62  # 31 nodes a side, one leaf renamed
    assert result.grs == 0.9720052083333334
    assert "grs" not in result.reasons and "trs" not in result.reasons
    module = "def f(x):\n    return x + 1\n\ndef g():\n    return 2\n"
    result = RubyScorer(language="python").score(module, module.replace("x + 1", "x + 2"))
    # "return v0 + 1" vs "+ 2" (4 tokens each, R = P): (4 + 4) d on the 1/64 grid
    assert (result.grs, result.trs) == (31 / 32, 31 / 32)
