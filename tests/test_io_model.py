"""The I/O model of the neutral PDG (graphs.neutral.io): reads, prints and plumbing in one
vocabulary for the six languages, worked out by hand per idiom."""

from __future__ import annotations

import pytest

import graphs
from graphs.neutral import neutral_pdg
from ruby_metric.scoring.crosslang import score_source


def labels(code: str, language: str) -> list[str]:
    """The neutral labels of a program's statements (no entry, function or parameter)."""
    graph, _report = neutral_pdg(graphs.build_pdg(code, language), language)
    return [d["label"] for _n, d in sorted(graph.nodes(data=True))
            if d["kind"] not in ("entry", "function", "param")]


def reads(code: str, language: str) -> list[str]:
    """The right-hand sides of the statements, locals dropped: what each one does."""
    out = []
    for label in labels(code, language):
        out.append(label.split(" = ", 1)[1] if " = " in label else label)
    return out


def grs(source: str, source_language: str, candidate: str, language: str) -> float:
    result = score_source(source, candidate, source_language=source_language,
                          language=language)
    assert result.grs is not None
    return result.grs


# ------------------------------------------------------------------------------ Java

JAVA_SCANNER = """
import java.util.*;
public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int n = sc.nextInt();
        double x = sc.nextDouble();
        String w = sc.next();
        String line = sc.nextLine();
        System.out.println(n + x);
        System.out.print(w + line);
        sc.close();
    }
}
"""


def test_java_scanner_reads_by_kind_and_its_construction_and_close_are_no_statement():
    got = reads(JAVA_SCANNER, "java")
    assert got[:4] == ["read_int()", "read_float()", "read_token()", "input()"]
    # println is a print, print a write; no scanner, no close
    assert [lab.split("(")[0] for lab in got[4:]] == ["print", "write"]


def test_a_tokenizer_over_a_line_of_a_reader_over_stdin_reads_tokens():
    java = """
    class Main {
        public static void main(String[] args) throws IOException {
            BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
            StringTokenizer st = new StringTokenizer(br.readLine());
            int a = Integer.parseInt(st.nextToken());
            long b = Long.parseLong(st.nextToken());
            String s = br.readLine();
            System.out.println(a + b + s);
        }
    }
    """
    assert reads(java, "java") == ["read_int()", "read_int()", "input()",
                                   labels(java, "java")[-1]]


FAST_READER = """
import java.io.*;
import java.util.*;
public class Main {
    static class FastReader {
        BufferedReader br;
        StringTokenizer st;
        public FastReader() { br = new BufferedReader(new InputStreamReader(System.in)); }
        String next() {
            while (st == null || !st.hasMoreElements()) {
                try { st = new StringTokenizer(br.readLine()); }
                catch (IOException e) { e.printStackTrace(); }
            }
            return st.nextToken();
        }
        int nextInt() { return Integer.parseInt(next()); }
        double nextDouble() { return Double.parseDouble(next()); }
    }
    public static void main(String[] args) {
        FastReader in = new FastReader();
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        int a = in.nextInt();
        double b = in.nextDouble();
        out.println(a + b);
        out.flush();
    }
}
"""


def test_a_hand_written_fast_reader_is_known_by_what_its_methods_return():
    graph, report = neutral_pdg(graphs.build_pdg(FAST_READER, "java"), "java")
    kinds = [d["kind"] for _n, d in graph.nodes(data=True)]
    assert kinds.count("function") == 1  # main only: the reader class is plumbing
    assert reads(FAST_READER, "java") == ["read_int()", "read_float()"] + [
        labels(FAST_READER, "java")[-1]]
    assert labels(FAST_READER, "java")[-1].startswith("print(")
    assert "read method next_int -> read_int()" in report.idioms
    assert "read method next -> read_token()" in report.idioms
    assert report.unknown == ()  # the reader's and writer's classes are no unknown calls


def test_an_iterator_over_a_list_is_no_read():
    java = """
    class A {
        int f(List<Integer> xs) {
            Iterator<Integer> it = xs.iterator();
            int a = it.next();
            return a;
        }
    }
    """
    assert "read_token()" not in " ".join(labels(java, "java"))


# ---------------------------------------------------------------------------- Python


def test_python_split_line_destructured_into_k_names_is_k_token_reads():
    assert reads("a, b, c = map(int, input().split())\nprint(a + b + c)\n", "python")[:3] \
        == ["read_int()"] * 3
    assert reads("a, b = input().split()\nprint(a + b)\n", "python")[:2] == [
        "read_token()", "read_token()"]
    assert reads("x, y = map(float, input().split())\nprint(x * y)\n", "python")[:2] == [
        "read_float()", "read_float()"]


def test_python_int_of_input_stays_a_line_read():
    assert reads("n = int(input())\nprint(n)\n", "python")[0] == "int(input())"


def test_python_token_list_by_index_and_by_next_is_a_token_stream():
    by_index = ("import sys\ndata = sys.stdin.read().split()\nidx = 0\n"
                "n = int(data[idx])\nidx += 1\ns = data[idx]\nidx += 1\nprint(n, s)\n")
    assert reads(by_index, "python")[:2] == ["read_int()", "read_token()"]
    assert len(labels(by_index, "python")) == 3  # no import, list, index counter
    by_next = ("import sys\nit = iter(sys.stdin.read().split())\nn = int(next(it))\n"
               "print(n)\n")
    assert reads(by_next, "python")[:1] == ["read_int()"]
    assert len(labels(by_next, "python")) == 2


def test_python_lines_by_index_are_line_reads_and_print_without_newline_is_write():
    code = "import sys\nlines = sys.stdin.readlines()\nprint(lines[0], end='')\n"
    assert labels(code, "python") == ["write(input())"]


def test_a_list_read_at_a_loop_index_is_an_array_not_a_stream():
    code = ("n = int(input())\na = list(map(int, input().split()))\ns = 0\n"
            "for i in range(n):\n    s += a[i] * a[i]\nprint(s)\n")
    got = labels(code, "python")
    assert "read_int()" not in " ".join(got)
    assert got[1].endswith("= read_list(int)")  # one read of a list, not token reads


def test_a_slice_of_the_token_list_is_not_one_token():
    code = ("import sys\ndata = sys.stdin.read().split()\nn = int(data[0])\n"
            "xs = list(map(int, data[1:n + 1]))\nprint(sum(xs))\n")
    assert "read_int()" not in " ".join(labels(code, "python"))


# ------------------------------------------------------------------------------ C, C++


def test_c_scanf_is_one_read_per_conversion_typed_by_the_format():
    c = ('#include <stdio.h>\nint main() {\n    int a; double x; char s[10];\n'
         '    scanf("%d %lf %s", &a, &x, s);\n    printf("%d\\n", a);\n    return 0;\n}\n')
    assert reads(c, "c")[:3] == ["read_int()", "read_float()", "read_token()"]


def test_cpp_cin_reads_what_its_targets_are_declared_and_set_up_is_plumbing():
    cpp = ('#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n'
           '    ios::sync_with_stdio(false);\n    cin.tie(nullptr);\n'
           '    long long n; double x; string s;\n    cin >> n >> x >> s;\n'
           '    getline(cin, s);\n    cout << n << endl;\n    cout << x;\n    return 0;\n}\n')
    got = labels(cpp, "cpp")
    assert [lab.split(" = ", 1)[1] for lab in got[1:5]] == [
        "read_int()", "read_float()", "read_token()", "input()"]
    assert got[5].startswith("print(") and got[6].startswith("write(")
    assert not any("sync_with_stdio" in lab or "tie" in lab for lab in got)


def test_c_scanf_and_cpp_cin_programs_are_one_graph():
    c = ('#include <stdio.h>\nint main() {\n    int a, b;\n    scanf("%d %d", &a, &b);\n'
         '    printf("%d\\n", a + b);\n    return 0;\n}\n')
    cpp = ('#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n'
           '    ios::sync_with_stdio(false);\n    int a, b;\n    cin >> a >> b;\n'
           '    printf("%d\\n", a + b);\n    return 0;\n}\n')
    assert grs(c, "c", cpp, "cpp") == 1.0


# ------------------------------------------------------------------------ C#, JavaScript


def test_csharp_split_line_read_by_index_is_token_reads_each_its_own_statement():
    cs = ("class P {\n    static void Main() {\n"
          "        var parts = Console.ReadLine().Split(' ');\n"
          "        int a = int.Parse(parts[0]);\n        int b = int.Parse(parts[1]);\n"
          "        Console.Write(a + b);\n    }\n}\n")
    got = labels(cs, "csharp")
    assert [lab.split(" = ", 1)[1] for lab in got[:2]] == ["read_int()", "read_int()"]
    assert got[2].startswith("write(") and len(got) == 3


def test_javascript_input_lines_and_tokens_by_index():
    js = ('const lines = require("fs").readFileSync(0, "utf8").split("\\n");\n'
          'const n = parseInt(lines[0]);\n'
          'const data = require("fs").readFileSync("/dev/stdin").toString().trim()'
          '.split(/\\s+/);\nlet i = 0;\nconst a = parseInt(data[i++]);\n'
          'console.log(n + a);\nprocess.stdout.write(String(a));\n')
    got = reads(js, "javascript")
    assert got[:2] == ["int(input())", "read_int()"]
    assert labels(js, "javascript")[2].startswith("print(")
    assert labels(js, "javascript")[3].startswith("write(")
    assert len(got) == 4  # no list, no index counter


PY_TOKENS = "a, b = map(int, input().split())\nprint(a + b)\n"


@pytest.mark.parametrize("other, language", [
    ("const [a, b] = readline().split(' ').map((x) => parseInt(x));\nconsole.log(a + b);\n",
     "javascript"),
    ("import sys\ndata = sys.stdin.read().split()\nidx = 0\na = int(data[idx])\nidx += 1\n"
     "b = int(data[idx])\nidx += 1\nprint(a + b)\n", "python"),
    ("import sys\nit = iter(sys.stdin.read().split())\na = int(next(it))\nb = int(next(it))\n"
     "print(a + b)\n", "python"),
])
def test_token_reads_written_any_way_are_one_graph(other, language):
    assert grs(PY_TOKENS, "python", other, language) == 1.0


# ------------------------------------------------------------------ scores and explain

JAVA_TWO_TOKENS = """
import java.util.*;
public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int a = sc.nextInt();
        int b = sc.nextInt();
        System.out.println(a + b);
        sc.close();
    }
}
"""


def test_a_token_read_translation_scores_above_a_line_read_one():
    tokens = grs(JAVA_TWO_TOKENS, "java", PY_TOKENS, "python")
    lines = grs(JAVA_TWO_TOKENS, "java", "a = int(input())\nb = int(input())\nprint(a + b)\n",
                "python")
    assert tokens > lines
    # the two differ in their read statements only, both against the same source
    assert tokens - lines > 0.1


def test_explain_names_the_io_rules():
    _graph, report = neutral_pdg(graphs.build_pdg(PY_TOKENS, "python"), "python")
    assert "split line -> 2 reads" in report.idioms
    assert dict(report.rules)["io:split line"] == 2
    _graph, report = neutral_pdg(graphs.build_pdg(JAVA_TWO_TOKENS, "java"), "java")
    assert "reader construction -> no statement" in report.idioms
    closing = [m for m in report.labels if m.source.endswith(".close()")]
    assert closing and closing[0].label is None and "io:plumbing" in closing[0].rules
