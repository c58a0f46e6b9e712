"""The within-task test of benchmarks/cross_language.py (its errors, made both ways, and
the test runs that keep only errors that fail), and the integer division of the map."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from ruby_metric.scoring.crosslang import score_source
from validity.execution import ALL_LANGUAGES, ExecutionChecker

ROOT = Path(__file__).resolve().parents[1]


def _benchmark():
    spec = importlib.util.spec_from_file_location(
        "cross_language_bench", ROOT / "benchmarks" / "cross_language.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cross_language_bench", module)
    spec.loader.exec_module(module)
    return module


def _applied(code: str, language: str) -> dict[str, set[str]]:
    sites = _benchmark()._error_sites(code, language)
    return {kind: {code[:s] + text + code[e:] for s, e, text in found}
            for kind, found in sites.items()}


def test_bounds_and_comparisons_move_by_one_either_way():
    code = "for (int i = 0; i <= n; i++) {\n    if (a[i] > m) m = a[k - 1];\n}"
    got = _applied(code, "cpp")
    assert got["loop bound off by one"] == {code.replace("i <= n", "i < n")}
    assert got["boundary comparison"] == {code.replace("a[i] > m", "a[i] >= m")}
    # `[k - 1]` read one later, and a plain name as index read one earlier
    assert got["index off by one"] == {code.replace("[k - 1]", "[k]"),
                                       code.replace("a[i]", "a[i - 1]")}
    assert got["integer division lost"] == set()


def test_python_range_bound_moves_both_ways_and_floor_division_is_lost():
    code = "for i in range(n):\n    if x >= 2:\n        return n // 2"
    got = _applied(code, "python")
    assert got["loop bound off by one"] == {code.replace("range(n)", "range(n + 1)"),
                                            code.replace("range(n)", "range(n - 1)")}
    assert got["boundary comparison"] == {code.replace("x >= 2", "x > 2")}
    assert got["integer division lost"] == {code.replace("n // 2", "n / 2")}


def test_javascript_floor_of_a_quotient_is_integer_division():
    java = "class S { int half(int n) { return n / 2; } }"
    js = "const half = (n) => { return Math.floor(n / 2); }"
    assert score_source(java, js, source_language="java", language="javascript").ruby == 1.0
    py = "def half(n):\n    return n // 2\n"
    assert score_source(py, js, source_language="python", language="javascript").ruby == 1.0
    # a floor of something else stays a floor call: it is not the source's division
    other = "const half = (n) => { return Math.floor(n); }"
    assert score_source(java, other, source_language="java",
                        language="javascript").ruby < 1.0


_CPP = "#include<vector>\nusing namespace std;\n"


@pytest.mark.parametrize("language,program,test,passes", [
    ("java", "class Solution { int twice(int x) { return 2 * x; } }",
     "public class Main { public static void main(String[] a) {\n"
     " if (new Solution().twice(3) != 6) throw new AssertionError(); } }", True),
    ("java", "class Solution { int twice(int x) { return 2 + x; } }",
     "public class Main { public static void main(String[] a) {\n"
     " if (new Solution().twice(3) != 6) throw new AssertionError(); } }", False),
    ("cpp", _CPP + "int last(vector<int> v){ return v[v.size() - 1]; }",
     "#undef NDEBUG\n#include<assert.h>\nint main(){ assert(last({1, 2, 3}) == 3); }", True),
    # a read past the end aborts (debug containers), though it may return the right value
    ("cpp", _CPP + "int last(vector<int> v){ return v[v.size()]; }",
     "#undef NDEBUG\n#include<assert.h>\nint main(){ last({1, 2, 3}); }", False),
])
def test_compiled_languages_run_when_asked(tmp_path, language, program, test, passes):
    if shutil.which("javac" if language == "java" else "g++") is None:
        pytest.skip(f"no compiler for {language}")
    checker = ExecutionChecker(tmp_path / "cache.json", timeout=60.0, languages=ALL_LANGUAGES)
    assert checker.passes_many([(language, program, test)]) == [passes]
    assert ExecutionChecker(tmp_path / "other.json").supports(language) is False


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="cannot run cobol"):
        ExecutionChecker(languages=("python", "cobol"))


class _Draws:
    """A stand-in for random.Random that returns the given draws of randrange in turn."""

    def __init__(self, *draws: int) -> None:
        self.draws = list(draws)

    def randrange(self, n: int) -> int:
        draw = self.draws.pop(0)
        assert 0 <= draw < n
        return draw


def test_an_error_picks_its_way_first_then_a_site_of_that_way():
    # four plain indices (read one earlier: adds characters), one `- 1]` (read one later:
    # removes them): each way is as likely, whatever the number of sites
    code = "s = a[i] + b[i] + c[i] + d[i] + e[k - 1]"
    bench = _benchmark()
    assert bench._growth((0, 1, "xy")) == "adds"
    assert bench._growth((0, 3, "x")) == "removes"
    assert bench._growth((0, 1, "y")) == "same"
    removes = dict(bench._erroneous(code, "python", _Draws(1, 0)))
    assert removes["index off by one"] == "s = a[i] + b[i] + c[i] + d[i] + e[k]"
    adds = dict(bench._erroneous(code, "python", _Draws(0, 2)))
    assert adds["index off by one"] == "s = a[i] + b[i] + c[i - 1] + d[i] + e[k - 1]"
