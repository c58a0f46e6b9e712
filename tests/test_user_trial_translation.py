"""What a new user evaluating LLM translations of whole programs ran into, one test each
(fixtures/translation_benchmark: three models' Python translations of five Java programs,
one JSONL whose ``id`` is the task, so every id is shared by the three models)."""

from __future__ import annotations

import json
import re

from cli_helpers import FIXTURES, run

PAIRS = FIXTURES / "translation_benchmark" / "pairs.jsonl"


def _row(model: str, task: str) -> dict:
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines()]
    return next(r for r in rows if r["model"] == model and r["id"] == task)


def test_explain_of_an_id_several_systems_share_names_the_system(capsys):
    # the report's hint, `explain --jsonl pairs.jsonl --pair sum_numbers`, explained
    # coder-l's candidate (the first row) whichever model's pair was clicked
    code, _, err = run(capsys, "explain", "--pair", "sum_numbers", "--jsonl", PAIRS,
                       "-l", "python", "-q")
    assert code == 2 and err == (
        f"ruby-metric: error: {PAIRS}: 3 pairs have id sum_numbers (lines 5, 10, 15): name "
        "the system whose pair to explain with --system-field FIELD --system NAME\n"
    )
    code, out, _ = run(capsys, "explain", "--pair", "sum_numbers", "--jsonl", PAIRS, "-l",
                       "python", "-q", "--system-field", "model", "--system", "coder-m",
                       "-f", "json")
    assert code == 0
    got = json.loads(out)
    assert got["candidate"] == _row("coder-m", "sum_numbers")["candidate"]
    code, out, _ = run(capsys, "score", "--jsonl", PAIRS, "-l", "python", "-q",
                       "--system-field", "model", "-f", "jsonl")
    scored = [json.loads(line) for line in out.splitlines()]
    want = next(r for r in scored if r["model"] == "coder-m" and r["id"] == "sum_numbers")
    assert got["result"]["ruby"] == want["ruby"] != next(
        r for r in scored if r["model"] == "coder-l" and r["id"] == "sum_numbers")["ruby"]
    code, _, err = run(capsys, "explain", "--pair", "sum_numbers", "--jsonl", PAIRS, "-l",
                       "python", "-q", "--system-field", "model", "--system", "coder-x")
    assert code == 2 and err.endswith(f"{PAIRS}: no pair has model 'coder-x'\n")
    code, _, err = run(capsys, "explain", "--pair", "sum_numbers", "--jsonl", PAIRS, "-l",
                       "python", "-q", "--system-field", "model")
    assert code == 2 and "--system-field FIELD and --system NAME go together" in err


def test_the_report_of_systems_tells_how_to_explain_one_systems_pair(capsys, tmp_path):
    page = tmp_path / "r.html"
    code, _, _ = run(capsys, "report", "--jsonl", PAIRS, "-l", "python", "-q",
                     "--system-field", "model", "--label-field", "passed", "-o", page)
    assert code == 0
    commands = set(re.findall(r"<code>(ruby-metric explain [^<]*)</code>", page.read_text()))
    assert f"ruby-metric explain --jsonl {PAIRS} --pair ID --system-field model --system " \
           "SYSTEM --lang python" in commands


def test_explain_against_a_source_names_the_sources_unmatched_edges_so():
    from ruby_metric import RubyScorer

    java = ("int first(int[] xs, int t) {\n  for (int i = 0; i < xs.length; i++) {\n"
            "    if (xs[i] == t) return i;\n  }\n  return -1;\n}")
    py = "def first(xs, t):\n    return xs.index(t)"
    text = RubyScorer("python", source_language="java").explain_source(java, py).to_text()
    edges = [line.split()[0] for line in text.splitlines() if " edge line " in line]
    # every one of the source's edges the candidate lacks is the source's, not a reference's
    assert edges and "source" in edges and "reference" not in edges


def test_correlate_says_why_a_system_whose_candidates_all_passed_has_no_correlation(capsys):
    # coder-l passed 5 of 5: its table was six rows of dashes, as if every metric had failed
    code, out, _ = run(capsys, "meta", "correlate", "--jsonl", PAIRS, "-l", "python", "-q",
                       "--label-field", "passed", "--system-field", "model",
                       "--bootstrap", "10")
    assert code == 0
    section = out.split("model coder-l: ")[1].split("model coder-m: ")[0]
    assert section.splitlines()[1:] == [
        "", "none: every pair's 'passed' is 1, and a score correlates with no constant", ""]
    assert "RUBY " in out.split("model coder-m: ")[1]  # a system with both outcomes: its table


def test_the_summary_says_a_tier_does_not_apply_against_a_source(capsys):
    # 'STS  -  (mean of 0 of 5)' read as a string tier that failed on all five programs
    bench = FIXTURES / "translation_benchmark"
    code, out, _ = run(capsys, "score", bench / "sources", bench / "systems" / "coder-m",
                       "-l", "python", "--source-lang", "java", "-q")
    assert code == 0
    summary = {line[:12].strip(): line[13:] for line in out.splitlines()[9:16]}
    assert summary["TRS"].endswith("(mean of 5)")
    for metric in ("STS", "CrystalBLEU", "BLEU"):
        assert summary[metric] == "-  not comparable across languages (scored against the source)"


def test_an_unreadable_pair_does_not_hide_why_a_tier_does_not_apply(capsys, tmp_path):
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines()][:5]
    rows[0]["candidate"] = 42  # unreadable: its only reason is 'input'
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, _ = run(capsys, "score", "--jsonl", data, "-l", "python", "--source-lang",
                       "java", "-q")
    assert code == 0
    assert "RUBY         " in out and "(mean of 4 of 5)" in out
    assert "STS          -  not comparable across languages (scored against the source)" in out
