"""The corpus report: ``ruby-metric report`` and :mod:`ruby_metric.reports.corpus`.

The page is checked in headless chromium as the pair page is (no console line: no script
ran, nothing was fetched), section by section against ``score --format json`` on the same
fixtures, for determinism, and for bad input (the exit statuses of ``score``).
"""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import FIXTURES, HYPS, REFS
from cli_helpers import run as _run_main
from test_html_report import _load

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import PairInput
from ruby_metric.pages.plots import bin_index
from ruby_metric.reports.corpus import (
    HIST_BINS,
    ReportBuilder,
    corpus_html,
    reason_kind,
    report,
    report_stream,
)
from ruby_metric.scoring.results import METRICS, PairResult, aggregate

SECTIONS = ("summary", "histograms", "reasons", "scatter", "worst")


def run(capsys, *argv):
    """``ruby-metric argv...``: exit status, stdout, stderr (argparse's exits included)."""
    try:
        return _run_main(capsys, *argv)
    except SystemExit as exc:
        out, err = capsys.readouterr()
        return exc.code, out, err


@pytest.fixture(scope="module")
def fixture_json():
    """``score --format json`` on the Java->C# fixtures: the numbers the page must show."""
    import contextlib
    import io

    from ruby_metric.cli.app import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", str(REFS), str(HYPS), "--lang", "cs", "--format", "json"]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The report of the Java->C# fixtures, built by the CLI."""
    from ruby_metric.cli.app import main

    target = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", str(REFS), str(HYPS), "--lang", "cs", "-o", str(target), "-q"]) == 0
    return target


def _data_value(html: str, row_id: str) -> str:
    match = re.search(rf'<tr id="{row_id}">.*?data-value="([^"]+)"', html)
    assert match, row_id
    return match.group(1)


# -- the page ---------------------------------------------------------------------------------


def test_page_loads_cleanly_in_chromium_with_every_section(page, tmp_path):
    dom, console = _load(page, tmp_path)
    assert console == []
    for section in SECTIONS:
        assert f'<section id="{section}">' in dom
    # six histograms (RUBY's and GRS's on a log count scale: 5 of 10 pairs score 1.0)
    assert dom.count('<svg class="plot hist') == 6
    assert dom.count('<svg class="plot scatter"') == 2
    # 10 pairs, 20 worst by default: every pair, each collapsible
    assert dom.count('<details class="pair"') == 10
    assert "<script" not in dom


def test_summary_numbers_equal_score_json(page, fixture_json):
    html = page.read_text(encoding="utf-8")
    corpus = fixture_json["corpus"]
    for metric in METRICS:
        assert float(_data_value(html, f"sum-{metric}")) == corpus[metric]
        assert (
            int(
                re.search(rf'<tr id="sum-{metric}">(?:.*?data-value="([^"]+)"){{2}}', html).group(1)
            )
            == corpus["counts"][metric]
        )
    # pair 5 (a method cut off before its last brace) is repaired: GRS 0.9353, was STS 0.8958
    # (0.9532 before the inserted `}` stopped being credited as the missing `return -1;`)
    assert re.search(r'id="sum-ruby">.*?>0\.8260<', html)
    assert re.search(r'id="sum-bleu">.*?>0\.6635<', html)
    for tier, count in corpus["tiers"].items():
        assert int(_data_value(html, f"tier-{tier}")) == count
    assert corpus["tiers"] == {"graph": 9, "tree": 0, "string": 1}
    assert corpus["structure"] == {"repaired": {"candidate": 1}}
    assert "Tolerant structure: repaired: 1 candidate" in html
    assert f'id="signature">{corpus["signature"]}<' in html


def test_histograms_bin_every_pair_and_mark_the_mean(page, fixture_json):
    html = page.read_text(encoding="utf-8")
    ruby = [p["ruby"] for p in fixture_json["pairs"]]
    figure = html[html.index('<figure id="hist-ruby">') :]
    figure = figure[: figure.index("</figure>")]
    bars = re.findall(r"[\])]: ([\d,]+) pairs?</title>", figure)
    counts = [int(c.replace(",", "")) for c in bars]
    assert len(counts) == HIST_BINS
    expected = [0] * HIST_BINS
    for value in ruby:
        expected[bin_index(value, HIST_BINS)] += 1
    assert counts == expected
    # four exact matches and pair 8 (a switch against its if chain: the same graph); the
    # empty candidate (the repaired pair 5, 0.9353, is in the bin below)
    assert counts[-1] == 5 and counts[0] == 1
    assert "mean 0.8260" in figure and "5 score exactly 1.0" in figure
    # BLEU: the mean of the pairs and the corpus-level score, both marked
    bleu = html[html.index('<figure id="hist-bleu">') :]
    assert "corpus 0.6635" in bleu[: bleu.index("</figure>")]


def test_reasons_grouped_by_kind_with_an_example(page):
    html = page.read_text(encoding="utf-8")
    empty = re.search(r'<tr id="reason-empty-code">(.*?)</tr>', html).group(1)
    assert 'data-value="1"' in empty and "candidate 1" in empty
    assert "pair <code class=\"pid\">9</code>" in empty and "candidate: empty code" in empty
    # pair 5's missing brace is repaired: its tiers applied, so it is not a reason
    assert 'id="reason-parse-error"' not in html


def test_scatter_has_a_point_per_pair_and_the_disagreements(page, fixture_json):
    html = page.read_text(encoding="utf-8")
    figure = html[html.index('<figure id="scatter-bleu">') :]
    figure = figure[: figure.index("</figure>")]
    assert figure.count("<circle") == 10
    assert figure.count('class="pt pt-string"') == 1  # pair 5 is repaired: a graph
    assert "pair 8: RUBY 1.0000, BLEU 0.3832 (graph)" in figure
    table = html[html.index('<table id="disagreements">') :]
    rows = re.findall(r'<tr><td><div class="pid"><code class="pid">(\w+)</code>',
                      table[: table.index("</table>")])
    # pair 8 scores RUBY 1.0 against BLEU 0.3832: the largest gap; 0 and 9 agree exactly
    assert rows[:2] == ["8", "3"] and "0" not in rows and "9" not in rows and len(rows) == 8


def test_worst_pairs_ranked_and_explained(page):
    html = page.read_text(encoding="utf-8")
    ranked = re.findall(
        r'<details class="pair" id="worst-(\d+)"><summary>#\d+ · pair <code class="pid">'
        r"(\w+)</code> · <b>RUBY ([\d.]+)</b>",
        html,
    )
    assert [(r, p) for r, p, _ in ranked[:3]] == [("1", "9"), ("2", "1"), ("3", "6")]
    assert [s for _, _, s in ranked[:3]] == ["0.0000", "0.7164", "0.7800"]
    # the explanation's own numbers, with ids scoped per pair
    assert 'id="w2-value-ruby">0.7164<' in html and 'id="w2-value-grs">0.7164<' in html
    assert "url(#w2-ref-ah-control)" in html and 'id="w2-ref-ah-control"' in html
    assert len(re.findall(r' id="value-ruby"', html)) == 0  # no unscoped id left


def test_worst_option_and_worst_by(tmp_path, capsys):
    target = tmp_path / "r.html"
    code, _, err = run(
        capsys,
        "report",
        REFS,
        HYPS,
        "--lang",
        "cs",
        "-o",
        target,
        "--worst",
        "2",
        "--worst-by",
        "bleu",
    )
    assert code == 0, err
    html = target.read_text(encoding="utf-8")
    assert html.count('<details class="pair"') == 2
    assert "lowest-scoring pairs by BLEU" in html
    summary = r'id="worst-{}"><summary>#{} · pair <code class="pid">{}</code> · <b>BLEU 0\.{}'
    assert re.search(summary.format(1, 1, 9, "0000"), html)
    assert re.search(summary.format(2, 2, 8, "3832"), html)
    assert "wrote" in err and "10 pairs" in err
    code, _, _ = run(capsys, "report", REFS, HYPS, "--lang", "cs", "-o", target, "--worst", "0")
    assert code == 0 and '<details class="pair"' not in target.read_text(encoding="utf-8")


def test_same_input_same_bytes_whatever_the_workers(tmp_path, capsys, page):
    again = tmp_path / "again.html"
    code, _, _ = run(
        capsys, "report", REFS, HYPS, "--lang", "cs", "-o", again, "-q", "--workers", "2"
    )
    assert code == 0
    assert again.read_bytes() == page.read_bytes()


def test_jsonl_languages_multi_references_and_escaping(tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    lines = (FIXTURES / "pairs.jsonl").read_text(encoding="utf-8")
    evil = {
        "id": "evil</script>",
        "language": "java",
        "reference": 'int f(){String s = "</script><b>x</b>"; return 1;}',
        "candidate": "int f(){ return 2; } <b>bold</b>",
    }
    bad = {"id": "no-candidate", "reference": "int x = 1;"}
    pairs.write_text(lines + json.dumps(evil) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    target = tmp_path / "r.html"
    code, _, err = run(capsys, "report", "--jsonl", pairs, "-o", target)
    assert code == 0, err
    dom, console = _load(target, tmp_path)
    assert console == []
    # the code's markup stayed text: no element was made from it
    assert "<b>x</b>" not in dom and "<b>bold</b>" not in dom
    assert "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;" in dom and "evil&lt;/script&gt;" in dom
    html = target.read_text(encoding="utf-8")
    # the Python pair is explained in Python with the n-gram set its score used: the one
    # shipped for Python (the `crystalbleu` package gives 0.24174 with it on this pair)
    rank = re.search(
        r'id="worst-(\d+)"><summary>#\d+ · pair <code class="pid">python-loop</code>', html)
    prefix = f"w{rank.group(1)}-"
    assert f'id="{prefix}value-ruby">0.3478<' in html
    assert f'id="{prefix}value-crystalbleu">0.2417<' in html
    # the unreadable pair: counted, with its reason
    row = re.search(r'<tr id="reason-unreadable-pair">(.*?)</tr>', html).group(1)
    assert "no-candidate" in row and "candidate" in row
    assert re.search(r'<tr id="tier-none">.*?data-value="1"', html)


# -- bad input: as score ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        [REFS, FIXTURES / "missing.cs", "--lang", "cs"],
        [REFS, FIXTURES / "cs_to_java" / "candidates.java", "--lang", "cs"],
        [REFS, HYPS],
        ["--jsonl", FIXTURES / "nope.jsonl"],
        [REFS, HYPS, "--lang", "klingon"],
        [REFS, HYPS, "--lang", "cs", "--metrics", "ruby,nope"],
    ],
    ids=["missing-file", "misaligned", "no-lang", "missing-jsonl", "bad-lang", "bad-metric"],
)
def test_bad_input_exits_like_score(args, tmp_path, capsys):
    target = tmp_path / "r.html"
    s_code, _, s_err = run(capsys, "score", *args)
    r_code, _, r_err = run(capsys, "report", *args, "-o", target)
    assert s_code == r_code == 2
    assert r_err.strip() == s_err.strip().replace("ruby-metric score", "ruby-metric report")
    assert len(r_err.strip().splitlines()) == 1 and "Traceback" not in r_err
    assert not target.exists()


def test_bad_jsonl_line_names_the_line(tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"reference": "a", "candidate": "a"}\n{not json\n', encoding="utf-8")
    code, _, err = run(capsys, "report", "--jsonl", pairs, "-o", tmp_path / "r.html")
    assert code == 2
    assert f"{pairs}:2" in err and "Traceback" not in err


def test_report_usage_errors(tmp_path, capsys):
    code, _, err = run(capsys, "report", REFS, HYPS, "--lang", "cs")
    assert code == 2 and "--output" in err
    code, _, err = run(
        capsys, "report", REFS, HYPS, "--lang", "cs", "-o", tmp_path / "r.html", "--worst", "-1"
    )
    assert code == 2 and "--worst" in err
    code, _, err = run(
        capsys,
        "report",
        REFS,
        HYPS,
        "--lang",
        "cs",
        "-o",
        tmp_path / "r.html",
        "--metrics",
        "bleu",
        "--worst-by",
        "ruby",
    )
    assert code == 2 and "not among --metrics" in err
    code, _, err = run(
        capsys, "report", REFS, HYPS, "--lang", "cs", "-o", tmp_path / "no" / "such" / "r.html"
    )
    assert code == 2 and "cannot write" in err and "Traceback" not in err


# -- the library ------------------------------------------------------------------------------


def test_reason_kinds():
    assert reason_kind("candidate: parse error at line 3, col 14") == ("parse error", "candidate")
    assert reason_kind("reference: missing ';' at line 1, col 9") == ("parse error", "reference")
    assert reason_kind("both: empty code") == ("empty code", "both")
    assert reason_kind("reference 2: no statements") == ("no statements", "reference")
    assert reason_kind("candidate: PDG larger than the limit (5000 nodes)") == (
        "too large",
        "candidate",
    )
    assert reason_kind(
        "more than 10 token edits between 30,000 and 31,000 tokens: the exact distance"
    ) == ("too large", "pair")
    assert reason_kind("candidate: no language given") == ("no language", "candidate")
    assert reason_kind("something new") == ("other", "pair")


def test_python_api_report_and_corpus_html():
    scorer = RubyScorer("java")
    refs = ["int f(int a){return a+1;}", "int x = 1;", "void g(){ h(); }"]
    hyps = ["int f(int b){return b+2;}", "int x = ;", "void g(){ h(); }"]
    rep = report(scorer, refs, hyps, worst=2)
    assert [w.result.id for w in rep.worst] == [1, 0]
    assert rep.worst[0].explanation is not None
    assert rep.corpus.summary() == scorer.score_corpus(refs, hyps).summary()
    assert rep.histograms[0].metric == "ruby" and sum(rep.histograms[0].counts) == 3
    assert [g.kind for g in rep.reasons] == ["parse error"]
    assert rep.reasons[0].by_metric == {"grs": 1, "trs": 1}
    corpus = scorer.score_corpus(refs, hyps)
    full = corpus_html(corpus, refs, hyps, scorer=scorer, worst=2)
    assert full == rep.to_html()
    bare = corpus_html(corpus, worst=2)
    assert "the pair&#x27;s text was not given" in bare and 'id="worst-2"' in bare
    with pytest.raises(ValueError, match="3 pairs but 2 references"):
        corpus_html(corpus, refs[:2], hyps[:2])


def test_large_corpus_page_stays_small_and_uses_density():
    # 100,000 synthetic results through the streaming builder: only aggregates are kept
    builder = ReportBuilder(worst=20)
    results = []
    for i in range(100_000):
        x = (i * 7919 % 1000) / 1000
        y = (i * 104729 % 997) / 997
        tier = ("graph", "tree", "string")[i % 3]
        reasons = {"grs": f"candidate: parse error at line {i % 5 + 1}, col 2"} if i % 3 else {}
        r = PairResult(id=i, ruby=y, tier=tier, sts=y, crystalbleu=x, bleu=x, reasons=reasons)
        builder.add(r, PairInput(i, "int x = 1;", "int x = 2;") if i < 5 else None)
        if i % 1000 == 0:
            results.append(r)
    corpus = aggregate(results, crystalbleu=0.5, bleu=0.5, signature="sig")
    rep = builder.finish(corpus)
    assert builder.n == 100_000
    assert all(s.points is None and s.n == 100_000 for s in rep.scatters)
    assert sum(map(sum, rep.scatters[0].grid)) == 100_000
    assert len(rep.worst) == 20 and rep.worst[0].result.ruby == 0.0
    ruby_hist = rep.histograms[0]
    assert sum(ruby_hist.counts) == 100_000
    parse = rep.reasons[0]
    assert parse.kind == "parse error" and parse.pairs == 66_666 and parse.example_id == 1
    html = rep.to_html()
    assert len(html.encode()) < 400_000
    assert "<circle" not in html and '<rect class="cell"' in html


def test_builder_keeps_the_earliest_of_tied_worst_pairs():
    builder = ReportBuilder(worst=2, metrics=["sts"])
    for i, value in enumerate([0.5, 0.2, 0.2, 0.9, 0.2]):
        builder.add(PairResult(id=f"p{i}", sts=value))
    assert [w.result.id for w in builder.worst_pairs()] == ["p1", "p2"]
    assert builder.worst_by == "sts"


def test_report_stream_progress_and_title():
    seen = []
    data = [PairInput(i, "int x = 1;", "int x = 1;") for i in range(3)]
    rep = report_stream(
        RubyScorer("java"), lambda: iter(data), progress=seen.append, title="Nightly <run>"
    )
    assert seen == [1, 2, 3]
    html = rep.to_html()
    assert "<title>Nightly &lt;run&gt;</title>" in html
    assert not rep.reasons and "Every tier applied to every pair." in html


def test_a_pair_in_its_own_language_is_explained_with_every_setting_of_the_run():
    from ruby_metric.reports.corpus import report

    ref = "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s"
    hyp = "def f(xs):\n    s = 1\n    for x in xs:\n        s *= x\n    return s"
    scorer = RubyScorer("java", grs_beta=1)
    rep = report(scorer, [ref], [hyp], languages=["python"], worst=1)
    worst = rep.worst[0]
    graph = worst.explanation.graph
    # the explanation's GRS is the pair's, at the run's beta (it was beta 2 before)
    assert graph.beta == 1.0
    assert worst.explanation.result.grs == worst.result.grs
