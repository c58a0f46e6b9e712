"""A missing translation on the corpus page and in the table: shown as missing, with the
reason its result carries, never as the explanation of an empty candidate; and the
disagreements table names each pair's system."""

from __future__ import annotations

import re

import pytest
from cli_helpers import run, write_folder

from ruby_metric.reports.reasons import reason_kind
from ruby_metric.scoring.missing import missing_of, missing_reason
from ruby_metric.scoring.results import PairResult

REFS = {"a.py": "x = 1\nprint(x)\n", "b.py": "y = 2\nprint(y + 1)\n", "c.py": "print(3)\n"}
# s1 has every file (b.py rewritten), s2 the same b.py and no c.py
S1 = {"a.py": REFS["a.py"], "b.py": "z = 2\nw = z + 1\nprint(w)\n", "c.py": REFS["c.py"]}
S2 = {"a.py": REFS["a.py"], "b.py": S1["b.py"]}


@pytest.fixture
def bench(tmp_path):
    return (write_folder(tmp_path, "refs", REFS), write_folder(tmp_path, "s1", S1),
            write_folder(tmp_path, "s2", S2))


@pytest.fixture
def page(capsys, bench, tmp_path):
    refs, s1, s2 = bench
    out = tmp_path / "r.html"
    code, _, err = run(capsys, "report", refs, s1, s2, "-l", "python", "-o", out)
    assert code == 0, err
    return out.read_text(), f"missing from {s2}"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_missing_of_and_its_kind():
    reason = missing_reason("missing from out")
    assert missing_of(PairResult(id="c", ruby=0.0, grs=0.0, reasons={"grs": reason})) == reason
    assert missing_of(PairResult(id="c", reasons={"grs": "candidate: empty code"})) is None
    # a folder named like another kind's reason is still a missing translation
    assert reason_kind(missing_reason("missing from parse error")) == (
        "missing translation", "candidate")
    assert reason_kind("candidate: empty code") == ("empty code", "candidate")


def test_worst_pair_is_shown_missing_not_as_an_empty_candidate(page):
    html, where = page
    reason = f"candidate: {where} (a missing translation scores 0)"
    assert "empty code" not in html
    first = re.search(r'<details class="pair" id="worst-1"><summary>(.*?)</summary>'
                      r'<div class="pair-body">(.*?)</div></details>', html, re.S)
    summary, body = _text(first.group(1)), first.group(2)
    assert summary == f"#1 · pair c.py · model s2 · {reason} · RUBY 0.0000 (graph) · " \
                      "GRS 0.0000 · TRS 0.0000 · STS 0.0000 · CrystalBLEU 0.0000 · BLEU 0.0000"
    # the reason said once (the note), the reference shown, the candidate said missing
    assert "Candidate PDG" not in body and "Candidate PDG" in html  # the others explained
    assert body.count(reason) == 1 and '<p class="note">' + reason in body
    # every score is the missing translation's 0.0 (CrystalBLEU too: Python's set is shipped)
    assert "<li>CrystalBLEU" not in body and "<li>GRS" not in body
    assert '<pre class="src">print(3)\n</pre>' in body
    assert f'<h3>Candidate</h3><p class="note missing">{where}</p>' in body
    row = re.search(r'<table id="worst-table">.*?</tr><tr>(.*?)</tr>', html, re.S).group(1)
    assert _text(row) == f"1 c.py s2 0.0000 print(3) ({where})"


def test_reasons_section_counts_the_missing_translation(page):
    html, where = page
    section = re.search(r'<section id="reasons">(.*?)</section>', html, re.S).group(1)
    assert "Every tier applied" not in section and 'id="missing-note"' in section
    rows = re.findall(r'<tr id="reason-([^"]+)">(.*?)</tr>', section, re.S)
    assert [slug for slug, _ in rows] == ["missing-translation"]
    assert _text(rows[0][1]) == (f"missing translation 1 1 1 1 candidate 1 pair c.py , GRS: "
                                 f"candidate: {where} (a missing translation scores 0)")


def test_disagreements_name_each_pairs_system(page):
    html, _ = page
    table = re.search(r'<table id="disagreements">(.*?)</table>', html, re.S).group(1)
    assert re.search(r"<th>pair</th><th>model</th><th>RUBY</th>", table)
    # b.py is in both systems with the same text: two rows, told apart by the system cell
    rows = [_text(r).split(" ")[:2] for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]]
    assert sorted(r for r in rows if r[0] == "b.py") == [["b.py", "s1"], ["b.py", "s2"]]


def test_table_why_not_leads_with_the_missing_reason(capsys, bench, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # relative folders: the reason fits the column
    code, out, err = run(capsys, "score", "refs", "s2", "-l", "python")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("c.py "))
    assert row.split()[1:7] == ["0.0000", "graph", "0.0000", "0.0000", "0.0000", "0.0000"]
    why = row.split("  ")[-1].strip()
    # once, for every tier (it was "bleu: candidate: missing ...; grs: ...")
    assert why == "candidate: missing from s2 (a missing translation scores 0)"
