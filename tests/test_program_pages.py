"""Issue 29 "Pages": whole programs shown whole, ids kept in one piece, hints for the input
given, ids on the compare page, the chance level on every histogram, the source's graph
named "Source PDG", and a page of many whole programs that stays small."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import run
from program_fixtures import program_pairs

from ruby_metric import RubyScorer
from ruby_metric.pages.corpus_page import PAIR_BYTES
from ruby_metric.pages.html_text import escape
from ruby_metric.reports.compare import compare_report
from ruby_metric.reports.corpus import report

JAVA = "int total(int[] xs) { int s = 0; for (int x : xs) s += x; return s; }"
PY = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s"


@pytest.fixture(scope="module")
def programs():
    return program_pairs(40)


@pytest.fixture(scope="module")
def program_page(programs):
    refs, cands, ids = programs
    rep = report(RubyScorer("java"), refs, cands, ids=ids, worst=20)
    return rep, rep.to_html()


def _sections(html: str) -> list[str]:
    return re.findall(r'<details class="pair" id="worst-\d+">.*?</div></details>\n', html, re.S)


def test_a_page_of_whole_programs_stays_small(program_page, programs):
    """Each lowest-scoring pair takes at most PAIR_BYTES (whole, each of these takes about
    200 KB: its PDG drawings and edit lists); the page of 40 whole programs, 20 of them
    explained, stays far under 1 MB."""
    rep, html = program_page
    sections = _sections(html)
    assert len(sections) == 20
    assert max(len(s.encode("utf-8")) for s in sections) <= PAIR_BYTES
    assert all('class="note compact"' in s for s in sections)
    assert len(html.encode("utf-8")) < 600_000
    # what compact keeps: every text whole, the scores, the node mapping, the counts
    refs, cands, ids = programs
    for w, section in zip(rep.worst, sections, strict=True):
        index = ids.index(w.result.id)
        assert re.sub(r"<[^>]+>", "", section).count(
            refs[index].splitlines()[-3].replace('"', "&quot;")) >= 1
        assert "PDG nodes not matched as they are" in section
        assert "Unmatched PDG edges: " in section and "<svg" not in section
        # the command that writes it whole, the id one shell word ("~" is quoted)
        command = f"ruby-metric explain --pair '{w.result.id}' ... --html pair.html"
        assert f"<code>{escape(command)}</code>" in section


def test_a_pair_of_methods_is_shown_whole():
    refs = ["int f(int a) { int b = a + 1; return b * 2; }"] * 3
    cands = ["int f(int a) { int c = a + 2; return c * 2; }",
             "int g(int x) { return x; }", refs[0]]
    html = report(RubyScorer("java"), refs, cands, worst=3).to_html()
    sections = _sections(html)
    assert len(sections) == 3 and not any("note compact" in s for s in sections)
    assert all('<svg class="pdg"' in s for s in sections)


def test_whole_programs_are_shown_whole_in_the_tables(program_page, programs):
    _, html = program_page
    refs, cands, ids = programs
    table = re.search(r'<table id="disagreements">.*?</table>', html, re.S).group(0)
    shown = re.findall(r'<tr class="texts"><td colspan="8"><details><summary>both texts in '
                       r"full \((\d+) lines and (\d+) lines\)</summary>", table)
    assert len(shown) == 10
    first = ids.index(re.search(r'<code class="pid">([^<]+)</code>', table).group(1))
    assert (int(shown[0][0]), int(shown[0][1])) == (
        refs[first].count("\n"), cands[first].count("\n"))
    assert f"<pre>{escape(refs[first])}</pre>" in table and escape(cands[first]) in table
    assert "\u2026" not in table  # nothing cut
    worst = re.search(r'<table id="worst-table">.*?</table>', html, re.S).group(0)
    assert worst.count('<td class="lines"><a href="#worst-') == 40


def test_pair_ids_never_break_inside(program_page):
    rep, html = program_page
    assert "code.pid, td code.pid { white-space: nowrap; word-break: keep-all;" in html
    long_id = rep.worst[0].result.id
    assert len(long_id) > 50 and f'<div class="pid"><code class="pid">{long_id}</code>' in html
    # every id on the page is a pid: none left in plain code that breaks anywhere
    assert not re.search(r"pair <code>", html)
    assert not re.search(r'<td><code>solutions/', html)


def test_hints_match_the_input(tmp_path, capsys):
    jsonl = tmp_path / "pairs.jsonl"
    rows = [{"id": f"task-{i}", "reference": "int f() { return 1; }",
             "candidate": f"int f() {{ return {i}; }}"} for i in range(3)]
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = tmp_path / "r.html"
    code, _, err = run(capsys, "report", "--jsonl", jsonl, "--lang", "java", "-o", page)
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert f"<code>ruby-metric explain --jsonl {jsonl} --pair ID --lang java</code>" in html
    assert "REFS HYPS" not in html
    refs, hyps = tmp_path / "refs.java", tmp_path / "hyps.java"
    refs.write_text("int f() { return 1; }\n" * 2)
    hyps.write_text("int f() { return 2; }\nint f() { return 1; }\n")
    code, _, err = run(capsys, "report", refs, hyps, "--lang", "java", "--grs-beta", "1",
                       "-o", page)
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert (f"<code>ruby-metric explain --pair ID {refs} {hyps} --lang java --grs-beta 1"
            "</code>") in html
    assert "--jsonl" not in html


def test_the_compare_page_names_pairs_by_id():
    refs = ["int f() { return 1; }", "int g() { return 2; }"]
    page = compare_report(RubyScorer("java", metrics=["ruby"]), refs,
                          ["int f() { return 1; }", "int h() { x(); }"], refs,
                          ids=["tasks/a.java", "tasks/b.java"], trials=9, bootstrap=5, top=2)
    html = page.to_html()
    assert 'pair <code class="pid">tasks/b.java</code>' in html
    assert "pair tasks/b.java: A " in html  # the scatter's tooltip
    assert "pair <code>1</code>" not in html and "pair 1:" not in html
    with pytest.raises(ValueError, match="2 references but 1 ids"):
        compare_report(RubyScorer("java", metrics=["ruby"]), refs, refs, refs, ids=["x"])


def _figure(html: str, metric: str) -> str:
    return re.search(rf'<figure id="hist-{metric}">.*?</figure>', html, re.S).group(0)


@pytest.mark.parametrize(("language", "ruby", "sts"), [
    ("java", "0.404", "0.322"),  # two Java sets: the higher of each
    ("python", "0.381", "0.183"),
])
def test_the_chance_level_is_marked_on_each_histogram(language, ruby, sts):
    code = {"java": "int f() { return 1; }", "python": "def f():\n    return 1\n"}[language]
    html = report(RubyScorer(language), [code] * 3, [code, code + " ", code], worst=0).to_html()
    figure = _figure(html, "ruby")
    assert '<line class="mark-chance" x1="' in figure
    assert f">chance {ruby}</text>" in figure and f"red dotted: chance level {ruby}" in figure
    assert f">chance {sts}</text>" in _figure(html, "sts")
    assert "svg.plot line.mark-chance { stroke: #dc2626;" in html


def test_no_chance_level_without_one_measured(tmp_path):
    html = report(RubyScorer("c"), ["int f() { return 1; }"], ["int f() { return 2; }"],
                  worst=0).to_html()
    assert "mark-chance\"" not in html and "chance level" not in html


def test_the_source_side_is_named_source_everywhere():
    scorer = RubyScorer(language="python", source_language="java")
    page = scorer.explain_source(JAVA, PY.replace("s += x", "s -= x")).to_html()
    assert "<h3>Source PDG (" in page and "Reference PDG" not in page
    assert "unmatched (source)" in page and "unmatched (reference)" not in page
    assert "<th>source</th><th>candidate</th>" in page
    text = scorer.explain_source(JAVA, PY.replace("s += x", "s -= x")).to_text()
    assert "delete (source only)" in text and "edges: " in text
    assert "reference" not in text  # the terminal's explanation names it the same
    # the corpus page of a run against sources
    from ruby_metric.io.inputs import PairInput
    from ruby_metric.reports.corpus import report_stream

    data = [PairInput(i, JAVA, c) for i, c in enumerate([PY, "", PY.replace("+", "*")])]
    html = report_stream(scorer, lambda: iter(data), worst=3).to_html()
    assert "<th>source</th><th>candidate</th>" in html
    assert html.count("<h3>Source PDG (") >= 1 and "Reference PDG" not in html
    assert "mark-chance\"" not in html  # none measured across languages
    # the empty candidate scored 0 is among the pairs, not left out
    assert 'id="sum-ruby"' in html and "mean of 3 pairs" in html
