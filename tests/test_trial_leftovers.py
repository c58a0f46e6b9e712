"""The 0.7.0 new-user trial's leftovers: ``meta compare --html`` with two systems of a JSONL
or two folders, ``explain`` of a missing translation, source mode named in the pages'
headers, one naming of the neutral locals in every ``explain`` section, and an empty system
folder."""

from __future__ import annotations

import json
import logging
import re

import pytest
from cli_helpers import FIXTURES, run, write_folder

BENCH = FIXTURES / "translation_benchmark"
SOURCE = ("-l", "python", "--source-lang", "java")
AGAINST = "candidates in python scored against their sources in java, not a reference"


@pytest.fixture
def two_models(tmp_path):
    """The benchmark's JSONL with two of its three models (coder-l, coder-m)."""
    lines = (BENCH / "pairs.jsonl").read_text().splitlines(keepends=True)
    path = tmp_path / "two.jsonl"
    path.write_text("".join(line for line in lines if '"model": "coder-s"' not in line))
    return path


@pytest.fixture
def lacking(tmp_path):
    """sources/ and two model folders, coder-m without max_index.py; and the same as a JSONL
    (coder-m without a max_index line)."""
    sources = write_folder(tmp_path, "sources", {
        p.name: p.read_text() for p in (BENCH / "sources").iterdir()})
    models = [write_folder(tmp_path, name, {
        p.name: p.read_text() for p in (BENCH / "systems" / name).iterdir()
        if not (name == "coder-m" and p.name == "max_index.py")})
        for name in ("coder-l", "coder-m")]
    jsonl = tmp_path / "lacking.jsonl"
    jsonl.write_text("".join(
        line for line in (BENCH / "pairs.jsonl").read_text().splitlines(keepends=True)
        if '"model": "coder-s"' not in line
        and '"id": "max_index", "model": "coder-m"' not in line))
    return sources, models, jsonl


# ------------------------------------------------- 1. meta compare --html, two systems


def _cell(page: str, row: str, column: int) -> float:
    """The exact value (``data-value``) of the ``column``-th score cell of a table row."""
    cells = re.search(rf'<tr id="{row}">(.*?)</tr>', page).group(1)
    return float(re.findall(r'data-value="([^"]+)"', cells)[column])


def test_compare_html_of_a_jsonl_of_two_systems(two_models, tmp_path, capsys):
    page = tmp_path / "two.html"
    args = ("meta", "compare", "--jsonl", two_models, "--system-field", "model", *SOURCE,
            "--trials", "99", "--bootstrap", "50", "-q", "-f", "json")
    # before: exit 2, "--html draws one A-vs-B page: ... compare two systems of the JSONL
    # at a time", for a JSONL of two systems
    code, out, err = run(capsys, *args, "--html", page)
    assert code == 0, err
    html = page.read_text()
    assert 'id="name-a">coder-l</span>' in html and 'id="name-b">coder-m</span>' in html
    # the page's numbers are the table's: the same comparison
    (comparison,) = json.loads(out)["comparisons"]
    ruby = comparison["metrics"]["ruby"]
    assert (_cell(html, "cmp-ruby", 0), _cell(html, "cmp-ruby", 1)) == (
        ruby["score_a"], ruby["score_b"])
    code, plain, _ = run(capsys, *args)
    assert json.loads(plain) == json.loads(out)
    # every pair of the JSONL where RUBY differs, of both models, against the Java source
    assert html.count('<details class="pair"') == 5
    assert html.count("<h3>Source (java)</h3>") == 5


def test_compare_html_of_two_folders_shows_a_missing_translation(lacking, tmp_path, capsys):
    sources, (large, medium), _ = lacking
    page = tmp_path / "folders.html"
    code, _, err = run(capsys, "meta", "compare", sources, large, medium, *SOURCE,
                       "--trials", "99", "--bootstrap", "50", "-q", "--html", page)
    assert code == 0, err
    html = page.read_text()
    # the largest difference: coder-m's missing max_index.py (0) against coder-l's
    first = re.search(r'<details class="pair" id="differ-1">.*?</details>', html,
                      re.S).group(0)
    assert '<code class="pid">max_index.py</code>' in first
    assert (f'<p class="note missing">candidate: missing from {medium} (a missing '
            "translation scores 0)</p>") in first
    assert first.count("<pre>") == 2  # the source and coder-l's text; no empty <pre>


def test_compare_html_of_three_systems_is_one_error_before_scoring(tmp_path, capsys):
    page = tmp_path / "three.html"
    code, _, err = run(capsys, "meta", "compare", "--jsonl", BENCH / "pairs.jsonl",
                       "--system-field", "model", *SOURCE, "--html", page)
    assert code == 2 and not page.exists()
    assert err == (f"ruby-metric: error: --html draws one A-vs-B page: {BENCH / 'pairs.jsonl'} "
                   "has 3 systems (coder-l, coder-m, coder-s); give two (or leave out --html "
                   "for every pair's table)\n")


# ------------------------------------------------------ 3. source mode in the headers


def _header(html: str) -> str:
    return re.search(r"<header>.*?</header>", html, re.S).group(0)


def test_report_header_says_scored_against_sources(tmp_path, capsys):
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", BENCH / "sources", BENCH / "systems" / "coder-l",
                       *SOURCE, "-o", page, "-q")
    assert code == 0, err
    header = _header(page.read_text())
    # before: "5 pairs · language: python", as if scored against references
    assert f"5 pairs · {AGAINST}: GRS and TRS on language-neutral graphs and trees; STS, " \
           "CrystalBLEU and BLEU not comparable</p>" in header
    code, _, err = run(capsys, "report", FIXTURES / "java_to_cs" / "references.cs",
                       FIXTURES / "java_to_cs" / "candidates.cs", "-l", "cs", "-o", page, "-q")
    header = _header(page.read_text())
    assert "10 pairs · language: csharp</p>" in header and "source" not in header


def test_compare_and_explain_headers_say_scored_against_sources(two_models, tmp_path, capsys):
    page = tmp_path / "compare.html"
    code, _, err = run(capsys, "meta", "compare", "--jsonl", two_models, "--system-field",
                       "model", *SOURCE, "--trials", "9", "--bootstrap", "5", "-q",
                       "--html", page)
    assert code == 0, err
    assert f'<p class="meta" id="against">{AGAINST}:' in _header(page.read_text())
    pair = tmp_path / "pair.html"
    code, _, err = run(capsys, "explain", BENCH / "sources" / "max_index.java",
                       BENCH / "systems" / "coder-m" / "max_index.py", *SOURCE, "--html", pair,
                       "-q")
    assert code == 0, err
    assert ("candidate in python scored against its source in java, not a reference"
            in _header(pair.read_text()))


# ------------------------------------------------------ 2. explain a missing translation


def test_explain_a_file_missing_from_a_system_folder(lacking, tmp_path, capsys):
    sources, (_, medium), _ = lacking
    args = ("explain", "--pair", "max_index.py", sources, medium, *SOURCE)
    # before: exit 2, "pair max_index.py: no candidate to explain (...)"
    code, out, err = run(capsys, *args, "-q")
    assert code == 0, err
    reason = f"candidate: missing from {medium} (a missing translation scores 0)"
    lines = out.splitlines()
    assert lines[:4] == [
        "RUBY explanation (python, against its source in java): a missing translation "
        f"(missing from {medium})",
        f"  RUBY         0.0000  = GRS: {reason}",
        f"  GRS          0.0000  {reason}",
        f"  TRS          0.0000  {reason}",
    ]
    assert lines[8].startswith("Missing translation: the system wrote no candidate")
    assert "Graph tier" not in out and "Neutral map" not in out and "Tree tier" not in out
    # the scores are the pair's in a run, id aside
    code, out, _ = run(capsys, *args, "-f", "json", "-q")
    explained = json.loads(out)
    code, out, _ = run(capsys, "score", sources, medium, *SOURCE, "-f", "json", "-q")
    (scored,) = [p for p in json.loads(out)["pairs"] if p["id"] == "max_index.py"]
    assert explained["result"] == scored | {"id": None}
    assert explained["missing"] == f"missing from {medium}" and explained["candidate"] == ""
    assert explained["graph"] is None and explained["pdgs"]["candidate"] is None


def test_explain_an_id_missing_from_a_system_of_a_jsonl(lacking, tmp_path, capsys):
    _, _, jsonl = lacking
    page = tmp_path / "pair.html"
    # before: exit 2, "no pair with id max_index (4 pairs, ids count_divisors, ...)"
    code, out, err = run(capsys, "explain", "--pair", "max_index", "--jsonl", jsonl,
                         "--system-field", "model", "--system", "coder-m", *SOURCE,
                         "--html", page, "-q")
    assert code == 0, err
    assert out.splitlines()[0].endswith(
        ": a missing translation (missing from the JSONL for model coder-m)")
    html = page.read_text()
    assert '<p class="note missing" id="missing">Missing translation:' in html
    assert "<h3>Source (java)</h3>" in html and "Candidate (python)" not in html
    assert re.findall(r"<h2>([^<]*)</h2>", html) == ["Scores", "Code"]
    # the other model's pair of that id is explained as ever
    code, out, err = run(capsys, "explain", "--pair", "max_index", "--jsonl", jsonl,
                         "--system-field", "model", "--system", "coder-l", *SOURCE, "-q")
    assert code == 0 and "missing" not in out.splitlines()[0] and "Graph tier (GRS)" in out


# ------------------------------------------------------------ 5. an empty system folder


@pytest.fixture
def silent_model(tmp_path):
    """sources/, coder-l/ and coder-s/ as in the benchmark, and coder-m/ with no file."""
    sources = write_folder(tmp_path, "sources", {
        p.name: p.read_text() for p in (BENCH / "sources").iterdir()})
    models = [write_folder(tmp_path, name, {
        p.name: p.read_text() for p in (BENCH / "systems" / name).iterdir()})
        for name in ("coder-l", "coder-s")]
    (tmp_path / "coder-m").mkdir()
    return sources, models[0], tmp_path / "coder-m", models[1]


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_a_model_with_no_output_scores_zero_beside_the_others(silent_model, capsys, caplog):
    sources, large, medium, small = silent_model
    # before: exit 2, "no pairs for system coder-m: no file of .../coder-m has a
    # counterpart in .../sources": the other models were not scored either
    code, out, err = run(capsys, "score", sources, large, medium, small, *SOURCE, "-b")
    assert code == 0, err
    assert out == "coder-l\t0.5967\ncoder-m\t0.0000\ncoder-s\t0.6814\n"
    assert _warnings(caplog) == [
        f"{medium} has no files: each of the 5 files of {sources} scored as a missing "
        "translation, 0"]
    code, out, err = run(capsys, "score", sources, large, medium, *SOURCE, "-f", "json", "-q")
    pairs = [p for p in json.loads(out)["pairs"] if p["model"] == "coder-m"]
    # each has the id the other model's file has, and the missing reason
    assert [(p["id"], p["ruby"], p["reasons"]["grs"]) for p in pairs] == [
        (f"{task}.py", 0.0, f"candidate: missing from {medium} (a missing translation "
         "scores 0)")
        for task in ("count_divisors", "max_index", "mean_floor", "reverse_words",
                     "sum_numbers")]
    code, out, err = run(capsys, "meta", "compare", sources, large, medium, *SOURCE,
                         "--trials", "99", "--bootstrap", "50", "-q", "-f", "json")
    assert code == 0 and json.loads(out)["systems"]["coder-m"]["ruby"] == 0.0


def test_one_empty_folder_alone_and_a_folder_that_pairs_nothing(silent_model, tmp_path,
                                                                capsys, caplog):
    sources, _, medium, _ = silent_model
    # before: a warning naming the five sources, then an error
    code, out, err = run(capsys, "score", sources, medium, *SOURCE, "-b")
    assert (code, out) == (0, "0.0000\n") and len(_warnings(caplog)) == 1
    # files, none of which pairs with a source: a mistake, one error and no warning before
    caplog.clear()
    stray = write_folder(tmp_path, "stray", {"count_divisors.txt/x.py": "x = 1\n"})
    code, _, err = run(capsys, "score", sources, stray, *SOURCE)
    assert code == 2 and _warnings(caplog) == []
    assert err == (f"ruby-metric: error: no pairs to score: no file of {stray} has a "
                   f"counterpart in {sources} (paired by path without extension)\n")
    code, _, err = run(capsys, "score", sources, medium, stray, *SOURCE)
    assert code == 2 and err.startswith("ruby-metric: error: system stray: no pairs to score:")
    # no source at all: nothing to score, whatever the models wrote
    empty = tmp_path / "no-sources"
    empty.mkdir()
    code, _, err = run(capsys, "score", empty, medium, *SOURCE)
    assert (code, err) == (2, f"ruby-metric: error: no pairs to score: {empty} has no files\n")


# ------------------------------------------- 4. one naming of neutral locals in explain


def test_explain_names_a_local_alike_in_the_map_and_the_graph(capsys):
    from ruby_metric import RubyScorer

    source = (BENCH / "sources" / "max_index.java").read_text()
    candidate = (BENCH / "systems" / "coder-m" / "max_index.py").read_text()
    e = RubyScorer("python", source_language="java").explain_source(source, candidate)
    # every neutral label the map section shows is a node label of the PDG whose node table
    # the graph section gives (before: the map's own renaming, n as v246 there, v164 here)
    for labels, pdg in zip(e.neutral_labels, (e.ref_pdg, e.cand_pdg), strict=True):
        shown = [x.label for x in labels if x.label is not None]
        assert sorted(shown) == sorted(node.label for node in pdg.nodes)
    text = e.to_text(max_items=40)
    assert "    line 6 'int n = in.nextInt();' -> 'v164 = read_int()'\n" in text
    assert "  'v164 = read_int()'    (line 6 'int n = in.nextInt();')\n" in text
    assert "    line 3 'data = sys.stdin.read().split()' -> 'v761 = read_tokens()'\n" in text
    assert "v246" not in text and "vd79" not in text  # the own PDGs' names, nowhere
    # the counted loop's parts folded into its range are no node, said so
    assert "    line 9 'i++' -> (no node)\n" in text
    labels = e.to_dict()["mapping"]["source"]["labels"]
    assert {"code": "int n = in.nextInt();", "line": 6, "source": "int v246 = v853.nextInt()",
            "label": "v164 = read_int()", "rules": ["vocabulary", "declaration", "io:int read"],
            "unknown": []} in labels
    html = e.to_html()
    assert ("<td>6</td><td><code>int n = in.nextInt();</code></td>"
            "<td><code>v164 = read_int()</code></td>") in html


# ------------------------------------------- 6. the language check reads the parses


def test_each_side_says_whether_it_parsed_not_its_reasons(caplog):
    from ruby_metric import RubyScorer
    from ruby_metric.scoring.code import Code

    java = "int f(int x) { return x + 1; }"
    python = "def f(x):\n    return x + 1\n"
    assert Code(java, "python").unparsed() == "parse error at line 1, col 1"
    assert Code("", "python").unparsed() is None  # empty: nothing failed to parse
    scorer = RubyScorer("python")
    pair = scorer.pair_scorer
    # the candidate's empty code stops the tiers first; the reference's failure is its own
    scored = pair.score_detailed(java, "", 7, "python", None)
    assert scored.unparsed == {"reference": "parse error at line 1, col 1"}
    assert scored.result.reasons["grs"] == "candidate: empty code; reference: parse error at " \
        "line 1, col 1"
    # no structural tier ran: no parse was made, nothing said
    lexical = RubyScorer("python", metrics=["sts"]).pair_scorer
    assert lexical.score_detailed(java, java, 7, "python", None).unparsed == {}
    # one of two references in another language: GRS applies through the other and no
    # reason says so; before, the check counted the pairs its reasons named, none here
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        corpus = scorer.score_corpus([[java, python]] * 3, [python] * 3)
    assert [p.ruby for p in corpus.pairs] == [1.0] * 3
    assert corpus.pairs[0].reasons == {}
    assert [w for w in _warnings(caplog) if "n-gram" not in w] == [
        "the references of 3 of 3 pairs do not parse cleanly as python (first: pair 0, "
        "reference: parse error at line 1, col 1): is the language right?"]
