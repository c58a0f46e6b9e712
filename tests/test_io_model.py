"""The I/O model of the neutral PDG (graphs.neutral.io): reads, prints and plumbing in one
vocabulary for the six languages, worked out by hand per idiom."""

from __future__ import annotations

import tracemalloc

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


# ------------------------------------------------------- lists of tokens (0.8.0, neutral5)

JAVA_ARRAY = """
import java.util.*;
public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int n = sc.nextInt();
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = sc.nextInt();
        }
        long best = 0;
        for (int i = 0; i < n; i++) {
            if (a[i] > best) best = a[i];
        }
        System.out.println(best);
    }
}
"""

PY_MAX_LOOP = ("best = 0\nfor i in range(n):\n    if a[i] > best:\n        best = a[i]\n"
               "print(best)\n")
#: right: n tokens read as a list (the iterator is read twice, so the PDG keeps it)
PY_ARRAY_RIGHT = ("import sys\nit = iter(sys.stdin.read().split())\nn = int(next(it))\n"
                  "a = [int(next(it)) for _ in range(n)]\n" + PY_MAX_LOOP)
#: wrong: each element read from a line of its own
PY_ARRAY_LINES = ("import sys\nit = iter(sys.stdin.read().split())\nn = int(next(it))\n"
                  "a = [0] * n\nfor i in range(n):\n    a[i] = int(input())\n" + PY_MAX_LOOP)


def test_a_counted_loop_storing_token_reads_is_one_list_read_and_its_allocation_plumbing():
    graph, report = neutral_pdg(graphs.build_pdg(JAVA_ARRAY, "java"), "java")
    assert reads(JAVA_ARRAY, "java")[:2] == ["read_int()", "read_list(int)"]
    assert "new int" not in " ".join(d["source_label"] or "" for _n, d in graph.nodes(data=True)
                                     if d["kind"] != "for")
    assert "counted read loop -> list read" in report.idioms
    assert "list allocation -> no statement" in report.idioms
    assert dict(report.rules)["io:read loop -> list read"] == 1
    # the list read takes no input: not the count, not the loop's index
    kinds = {n: d["kind"] for n, d in graph.nodes(data=True)}
    lists = [n for n, d in graph.nodes(data=True) if d["label"].endswith("read_list(int)")]
    assert [kinds[u] for u, _v, d in graph.in_edges(lists[0], data=True)
            if d.get("type") == "data" and d.get("var") != "<effects>"] == []


@pytest.mark.parametrize("code, language", [
    ("import java.util.*;\nclass M { public static void main(String[] x) {\n"
     "  Scanner sc = new Scanner(System.in);\n  int n = sc.nextInt();\n"
     "  List<Integer> a = new ArrayList<>();\n"
     "  for (int i = 0; i < n; i++) a.add(sc.nextInt());\n  System.out.println(a);\n} }\n",
     "java"),
    ("import java.io.*;\nimport java.util.*;\nclass M {\n"
     "  public static void main(String[] x) throws IOException {\n"
     "    BufferedReader br = new BufferedReader(new InputStreamReader(System.in));\n"
     "    StringTokenizer st = new StringTokenizer(br.readLine());\n"
     "    int n = Integer.parseInt(st.nextToken());\n    long[] a = new long[n];\n"
     "    for (int i = 0; i < n; i++) a[i] = Long.parseLong(st.nextToken());\n"
     "    System.out.println(a[0]);\n  }\n}\n", "java"),
    ("#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n;\n"
     "    cin >> n;\n    vector<int> a(n);\n    for (int i = 0; i < n; i++) cin >> a[i];\n"
     "    cout << a[0] << endl;\n    return 0;\n}\n", "cpp"),
    ("#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n;\n"
     "    cin >> n;\n    vector<long long> a(n);\n    for (auto &x : a) cin >> x;\n"
     "    cout << a[0] << endl;\n    return 0;\n}\n", "cpp"),
    ('#include <stdio.h>\nint main() {\n    int n;\n    scanf("%d", &n);\n    int a[100];\n'
     '    for (int i = 0; i < n; i++) scanf("%d", &a[i]);\n    printf("%d\\n", a[0]);\n'
     '    return 0;\n}\n', "c"),
    ("import sys\nn = int(sys.stdin.readline())\nprint(list(map(int, input().split())))\n",
     "python"),
    ("n = int(input())\nprint([int(x) for x in input().split()])\n", "python"),
    ("using System;\nclass P {\n    static void Main() {\n"
     "        int n = int.Parse(Console.ReadLine());\n"
     "        string[] tokens = Console.ReadLine().Split(' ');\n        int[] a = new int[n];\n"
     "        for (int i = 0; i < n; i++) a[i] = int.Parse(tokens[i]);\n"
     "        Console.WriteLine(a[0]);\n    }\n}\n", "csharp"),
    ('const data = require("fs").readFileSync(0, "utf8").split(/\\s+/);\nlet idx = 0;\n'
     'const n = parseInt(data[idx++]);\nconst b = [];\n'
     'for (let i = 0; i < n; i++) {\n    b.push(parseInt(data[idx++]));\n}\n'
     'console.log(b[0]);\n', "javascript"),
    ("import sys\ninput = sys.stdin.readline\nn = int(input())\n"
     "print(list(map(int, input().split())))\n", "python"),
])
def test_a_list_of_int_tokens_is_one_read_in_every_language(code, language):
    got = reads(code, language)
    assert got[0] in ("read_int()", "int(input())")
    assert "read_list(int)" in " ".join(got[1:])
    assert "input()" not in " ".join(got[1:])  # no line read left in the list's part


def test_python_strings_of_a_line_and_a_comprehension_over_a_stream_are_list_reads():
    assert reads("xs = input().split()\nprint(xs[len(xs) - 1])\n", "python")[0] \
        == "read_list(str)"
    code = ("import sys\ndata = sys.stdin.read().split()\nidx = 0\nn = int(data[idx])\n"
            "idx += 1\na = [int(data[idx + i]) for i in range(n)]\nidx += n\n"
            "k = int(data[idx])\nidx += 1\nprint(sum(a) + k)\n")
    got = reads(code, "python")
    assert got[:3] == ["read_int()", "read_list(int)", "read_int()"]
    assert len(got) == 7  # sum(a) is a loop of 3; no list, no index, no step


def test_java_array_read_into_python_tokens_scores_one_and_above_lines():
    right = grs(JAVA_ARRAY, "java", PY_ARRAY_RIGHT, "python")
    wrong = grs(JAVA_ARRAY, "java", PY_ARRAY_LINES, "python")
    assert right == 1.0
    assert wrong < right
    # a list of lines stays lines: it reads differently at run time
    got = " ".join(reads("n = int(input())\na = [int(input()) for _ in range(n)]\n"
                         "print(a)\n", "python"))
    assert "read_list" not in got and "int(input())" in got
    assert "read_list" not in " ".join(reads(PY_ARRAY_LINES, "python"))


def test_python_list_of_a_line_into_java_reads_the_same_and_scores_above_lines():
    py = "n = int(input())\na = list(map(int, input().split()))\nprint(a[n - 1])\n"
    head = ("import java.io.*;\nimport java.util.*;\nclass Main {\n"
            "  public static void main(String[] x) throws IOException {\n"
            "    BufferedReader br = new BufferedReader(new InputStreamReader(System.in));\n"
            "    int n = Integer.parseInt(br.readLine());\n")
    tail = "    System.out.println(a[n - 1]);\n  }\n}\n"
    right = head + ("    StringTokenizer st = new StringTokenizer(br.readLine());\n"
                    "    int[] a = new int[n];\n"
                    "    for (int i = 0; i < n; i++) a[i] = Integer.parseInt(st.nextToken());\n"
                    ) + tail
    wrong = head + ("    int[] a = new int[n];\n"
                    "    for (int i = 0; i < n; i++) a[i] = Integer.parseInt(br.readLine());\n"
                    ) + tail
    assert reads(right, "java")[:2] == reads(py, "python")[:2] == [
        "int(input())", "read_list(int)"]
    assert grs(py, "python", right, "java") == 1.0
    assert grs(py, "python", wrong, "java") < 1.0


CPP_ARRAY = ("#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n;\n"
             "    cin >> n;\n    vector<int> a(n);\n    for (int i = 0; i < n; i++) cin >> a[i];\n"
             "    long long best = 0;\n    for (int i = 0; i < n; i++) {\n"
             "        if (a[i] > best) best = a[i];\n    }\n    cout << best << endl;\n"
             "}\n")  # no return 0: the Java and Python programs have none


def test_cpp_array_read_into_python_tokens_scores_one_and_above_lines():
    right = grs(CPP_ARRAY, "cpp", PY_ARRAY_RIGHT, "python")
    assert right == 1.0
    assert grs(CPP_ARRAY, "cpp", PY_ARRAY_LINES, "python") < right


def test_java_array_read_into_cpp_by_reference_loop_scores_one():
    cpp = CPP_ARRAY.replace("for (int i = 0; i < n; i++) cin >> a[i];",
                            "for (auto &x : a) cin >> x;")
    assert grs(JAVA_ARRAY, "java", cpp, "cpp") == 1.0
    lines = CPP_ARRAY.replace("cin >> a[i];", "getline(cin, s), a[i] = stoi(s);").replace(
        "    long long best", "    string s;\n    long long best")
    assert grs(JAVA_ARRAY, "java", lines, "cpp") < 1.0


JAVA_SUM = """
import java.util.*;
public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int n = sc.nextInt();
        int k = sc.nextInt();
        long total = 0;
        for (int i = 0; i < n; i++) {
            int x = sc.nextInt();
            total += x / k;
        }
        System.out.println(total);
    }
}
"""
PY_STREAM = ("import sys\ndata = sys.stdin.read().split()\nidx = 0\nn = int(data[idx])\n"
             "idx += 1\nk = int(data[idx])\nidx += 1\ntotal = 0\nfor i in range(n):\n"
             "    x = int(data[idx])\n    idx += 1\n    total += x // k\nprint(total)\n")


def test_a_stream_index_that_did_not_step_reads_the_same_token_again():
    forgot = PY_STREAM.replace("k = int(data[idx])\nidx += 1\n", "k = int(data[idx])\n")
    assert "token_again" not in " ".join(reads(PY_STREAM, "python"))
    got = reads(forgot, "python")
    assert "int(token_again())" in " ".join(got)
    assert grs(JAVA_SUM, "java", PY_STREAM, "python") == 1.0
    assert grs(JAVA_SUM, "java", forgot, "python") < 1.0
    _graph, report = neutral_pdg(graphs.build_pdg(forgot, "python"), "python")
    assert "same token again" in report.idioms


def test_python_run_time_set_up_is_plumbing():
    set_up = ("import sys\nimport threading\nsys.setrecursionlimit(10 ** 6)\n"
              "threading.stack_size(2 ** 26)\nsys.set_int_max_str_digits(0)\n")
    assert labels(set_up + PY_STREAM, "python") == labels(PY_STREAM, "python")
    assert grs(JAVA_SUM, "java", set_up + PY_STREAM, "python") == 1.0
    _graph, report = neutral_pdg(graphs.build_pdg(set_up + PY_STREAM, "python"), "python")
    assert report.idioms.count("run-time set-up -> no statement") == 4


PY_SUM_RIGHT = ("n, k = map(int, input().split())\nxs = list(map(int, input().split()))\n"
                "total = 0\nfor i in range(n):\n    x = xs[i]\n    total += x // k\n"
                "print(total)\n")


@pytest.mark.parametrize("right", [
    PY_SUM_RIGHT,
    PY_STREAM.replace("idx = 0\nn = int(data[idx])\nidx += 1\nk = int(data[idx])\n"
                      "idx += 1\n", "n, k = int(data[0]), int(data[1])\n").replace(
        "    x = int(data[idx])\n    idx += 1\n", "    x = int(data[2 + i])\n"),
])
def test_a_loop_reading_one_token_per_iteration_reads_its_tokens_first(right):
    # the Java loop reads n tokens one by one; the Python one reads them into a list and
    # walks it once: both are a list read, then the loop over its elements
    got = labels(right, "python")
    assert "read_list(int)" in " ".join(got) and "read_int()" in got[0]
    assert grs(JAVA_SUM, "java", right, "python") == 1.0
    per_line = ("n = int(input())\nk = int(input())\ntotal = 0\nfor i in range(n):\n"
                "    x = int(input())\n    total += x // k\nprint(total)\n")
    assert grs(JAVA_SUM, "java", per_line, "python") < 1.0
    assert "read_list" not in " ".join(labels(per_line, "python"))  # lines stay lines
    _graph, report = neutral_pdg(graphs.build_pdg(JAVA_SUM, "java"), "java")
    assert "read loop -> list read first" in report.idioms
    # a loop that may leave early reads fewer tokens: it keeps its reads
    java = JAVA_SUM.replace("total += x / k;", "total += x / k;\n            if (x == 0) break;")
    assert "read_list" not in " ".join(labels(java, "java"))
    assert "read_int()" in " ".join(labels(java, "java")[2:])


PY_SUM_FOREACH = ("n, k = map(int, input().split())\nxs = list(map(int, input().split()))\n"
                  "total = 0\nfor x in xs:\n    total += x // k\nprint(total)\n")


@pytest.mark.parametrize("right", [
    PY_SUM_FOREACH,
    PY_SUM_FOREACH.replace("total = 0\nfor x in xs:\n    total += x // k\nprint(total)\n",
                           "print(sum(x // k for x in xs))\n"),
    "import sys\ninput = sys.stdin.readline\n" + PY_SUM_RIGHT,
    ("import sys\ndata = sys.stdin.read().split()\nn, k = int(data[0]), int(data[1])\n"
     "total = 0\nfor i in range(n):\n    total += int(data[i + 2]) // k\nprint(total)\n"),
])
def test_a_loop_over_the_tokens_read_ahead_is_the_loop_over_the_list(right):
    # the Java loop counted to n reads n tokens: read ahead, it runs once per element of
    # their list, so a translation that walks the line's tokens (`for x in xs`, a sum over
    # them) is the same graph; so is one that reads lines through `input =
    # sys.stdin.readline`, or walks a token list from `data[i + 2]` (before this rule:
    # 0.790, 0.790, 0.894 and 0.688)
    assert grs(JAVA_SUM, "java", right, "python") == 1.0
    # the loop over the list, no index left
    assert labels(JAVA_SUM, "java")[3:6] == [
        "vf88 = read_list(int)", "for vb14 in vf88", "vd9d += vb14 // ve58"]
    _graph, report = neutral_pdg(graphs.build_pdg(JAVA_SUM, "java"), "java")
    assert dict(report.rules)["io:loop over the tokens read"] == 1
    per_line = ("n = int(input())\nk = int(input())\ntotal = 0\nfor i in range(n):\n"
                "    x = int(input())\n    total += x // k\nprint(total)\n")
    assert grs(JAVA_SUM, "java", per_line, "python") < 0.7


def test_prints_in_nested_loops_bridge_without_copies():
    # bridging effect edges node after node multiplied copies of the same edge: three
    # loops of branching prints took 250 MB and 4.5 s (one more print, out of memory)
    loops = "\n".join(
        f"      while (a > {i}) {{\n        if (a >= 2) {{ System.out.print(\" \" + a); a -= 2; }}"
        f"\n        else {{ System.out.print(\" \" + b); a -= 1; }}\n      }}" for i in range(3))
    java = ("import java.util.*;\nclass A {\n  public static void main(String[] args) {\n"
            "    Scanner sc = new Scanner(System.in);\n    int t = sc.nextInt();\n"
            "    for (int k = 1; k <= t; k++) {\n      int a = sc.nextInt();\n"
            "      int b = sc.nextInt();\n" + loops + "\n    }\n  }\n}\n")
    graph = graphs.build_pdg(java, "java")
    tracemalloc.start()
    try:
        neutral, _report = neutral_pdg(graph, "java")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # measured 0.6 MB
    effects = [(u, v, d["dep"]) for u, v, d in neutral.edges(data=True)
               if d.get("var") == "<effects>"]
    assert len(effects) == len(set(effects))
