"""The "is the language right?" check counts every reference that does not parse, whatever
its candidate does; reasons name each side that fails (the 0.7.0 new-user trial)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from cli_helpers import FIXTURES, run

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import iter_jsonl
from ruby_metric.reports.corpus import reason_kind

BENCH = FIXTURES / "translation_benchmark"
# a Python reference read as Java: Java's parser stops at the ':' (line 1, col 18)
PY = "def mean_floor(xs):\n    return sum(xs) // len(xs)\n"
PY_FAILS = "parse error at line 1, col 18"
JAVA = "int f() { return 1; }"


def test_a_failing_reference_is_named_whatever_the_candidate_is():
    scorer = RubyScorer("java", metrics=["grs", "trs"])
    # an empty candidate used to hide the reference: "candidate: empty code" alone
    expected = f"candidate: empty code; reference: {PY_FAILS}"
    assert scorer.score(PY, "").reasons == {"grs": expected, "trs": expected}
    # failures of one kind are still said once, with each side's numbers
    assert scorer.score(PY, "int x = ;").reasons["trs"] == (
        f"both: {PY_FAILS} (reference); parse error at line 1, col 7 (candidate)")
    # the candidate is the reference itself
    assert scorer.score(PY, PY).reasons["trs"] == f"both: {PY_FAILS}"
    # a reference that parses is not named
    assert scorer.score(JAVA, "").reasons["trs"] == "candidate: empty code"
    # several references: each that fails, numbered
    assert scorer.score([JAVA, PY], "int f( {").reasons["trs"] == (
        f"candidate: '{{' at line 1, col 8 is never closed; reference 2: {PY_FAILS}")
    assert scorer.score([PY, PY + "\n"], "").reasons["grs"] == (
        f"candidate: empty code; reference 1: {PY_FAILS}; reference 2: {PY_FAILS}")


def test_the_report_classifies_a_reason_by_its_first_side():
    assert reason_kind(f"candidate: empty code; reference: {PY_FAILS}") == (
        "empty code", "candidate")
    assert reason_kind("candidate: AST larger than the limit (9 > 4 nodes); "
                       f"reference 2: {PY_FAILS}") == ("too large", "candidate")


def test_no_score_changes_with_the_reasons():
    # the reason's text is not part of a score: the tiers that need a candidate still fail
    r = RubyScorer("java").score(PY, "")
    assert (r.grs, r.trs, r.tier) == (None, None, "string")


def _warnings(caplog, references, candidates):
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        corpus = RubyScorer("java").score_corpus(references, candidates)
    return corpus, [r.getMessage() for r in caplog.records]


def test_every_failing_reference_is_counted(caplog):
    cands = ["", "int x = ;", PY, JAVA]
    _, warnings = _warnings(caplog, [PY] * 4, cands)
    # before: the empty candidate's pair was not counted, 3 of 4 stayed silent
    assert warnings == [
        "the references of 4 of 4 pairs do not parse cleanly as java (first: pair 0, "
        f"reference: {PY_FAILS}): is the language right?"
    ]
    _, warnings = _warnings(caplog, [JAVA, *[PY] * 3], cands)
    assert warnings == []  # 3 of 4: under 10 pairs, only all of them say the language


def _logged(caplog) -> str:
    return "\n".join(r.getMessage() for r in caplog.records)


def test_the_cli_warns_on_a_wrong_lang_for_a_folder(capsys, caplog):
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, _ = run(capsys, "score", BENCH / "references",
                           BENCH / "systems" / "coder-l", "--lang", "java", "-b")
    assert code == 0
    assert out == "0.5025\n"  # the score the run gave before: unchanged
    assert ("the references of 5 of 5 pairs do not parse cleanly as java (first: pair "
            "count_divisors.py, reference: missing identifier at line 1, col 2): is the language "
            "right?") in _logged(caplog)


def test_a_missing_candidate_keeps_its_failing_reference(tmp_path, capsys, caplog):
    refs, hyps = tmp_path / "refs", tmp_path / "hyps"
    refs.mkdir()
    hyps.mkdir()
    for name in ("a.py", "b.py"):
        (refs / name).write_text(PY)
    (hyps / "a.py").write_text(PY)  # b.py is missing
    out_file = tmp_path / "s.jsonl"
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "score", refs, hyps, "--lang", "java", "-f", "jsonl",
                           "-o", out_file)
    assert code == 0, err
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    missing = next(r for r in rows if r["id"] == "b.py")
    assert missing["trs"] == 0.0  # a missing translation scores 0, as before
    assert missing["reasons"]["trs"] == (
        f"candidate: missing from {hyps} (a missing translation scores 0); "
        f"reference: {PY_FAILS}")
    assert "the references of 2 of 2 pairs do not parse cleanly as java" in _logged(caplog)


def test_from_config_names_scorer_config():
    with pytest.raises(TypeError) as info:
        RubyScorer.from_config("java")  # type: ignore[arg-type]
    assert str(info.value) == (
        "RubyScorer.from_config takes a ScorerConfig, not str 'java': use ScorerConfig(...) "
        "or RubyScorer(...) with the options")


def test_a_folder_that_does_not_exist_says_so(capsys, tmp_path):
    nope = BENCH / "systems" / "nope"
    code, _, err = run(capsys, "score", BENCH / "references", nope, "--lang", "python")
    assert (code, err) == (2, f"ruby-metric: error: {nope}: no such file or folder\n")
    code, _, err = run(capsys, "score", nope, BENCH / "references", "--lang", "python")
    assert (code, err) == (2, f"ruby-metric: error: {nope}: no such file or folder\n")


def test_stream_warns_of_unknown_keys_once(caplog, tmp_path: Path):
    pairs = tmp_path / "p.jsonl"
    # python without a shipped n-gram set for this tokenizer would read a third time;
    # here the language scan and the scoring pass read the file: both used to warn
    pairs.write_text("".join(json.dumps({"id": i, "reference": JAVA, "candidate": JAVA,
                                         "lang": "java"}) + "\n" for i in range(3)))
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        run_ = RubyScorer("java").stream(lambda: iter_jsonl(pairs), workers=2)
        assert [r.ruby for r in run_] == [1.0, 1.0, 1.0]
    unknown = [r.getMessage() for r in caplog.records if "unknown key" in r.getMessage()]
    assert unknown == [f"{pairs}: unknown key 'lang' (line 1; did you mean 'language'?) "
                       "ignored (known keys: reference, candidate, language, id, source)"]


def test_stream_of_the_benchmark_warns_once(caplog):
    with caplog.at_level(logging.INFO, logger="ruby_metric"):
        results = list(RubyScorer("java").stream(
            lambda: iter_jsonl(BENCH / "pairs.jsonl"), workers=2))
    assert len(results) == 15
    # its model, task and verdict are a benchmark's data, no typo of a pair's key: one info
    # line for the read, no warning
    unread = [r for r in caplog.records if "not read" in r.getMessage()]
    assert [r.levelno for r in unread] == [logging.INFO]
    assert not [r for r in caplog.records if "unknown key" in r.getMessage()]
