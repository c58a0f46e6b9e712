"""A pipeline's tool (issue 20): exit codes, workers, input edges, CLI affordances, library
edges. Signals are in ``test_signals.py``, the report's views in ``test_report_views.py``.

Each test names the finding it pins (1 to 9, as numbered in the issue).
"""

from __future__ import annotations

import io
import json
import multiprocessing
import re
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import HYPS, REFS, run

from ruby_metric import RubyScorer
from ruby_metric.cli.app import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REF_LINES = REFS.read_text(encoding="utf-8").splitlines()
HYP_LINES = HYPS.read_text(encoding="utf-8").split("\n")[: len(REF_LINES)]


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))


# -- 1. nothing readable is an error, not exit 0 ---------------------------------------------


def test_1_score_exits_2_when_no_pair_is_readable(tmp_path, capsys):
    bad = _jsonl(
        tmp_path / "bad.jsonl",
        [{"ref": r, "hyp": h} for r, h in zip(REF_LINES, HYP_LINES, strict=True)],
    )
    for fmt in ("table", "jsonl"):
        status, out, err = run(capsys, "score", "--jsonl", bad, "-l", "cs", "-f", fmt)
        assert status == 2
        assert out == ""  # not a line of null scores
        last = err.strip().splitlines()[-1]
        assert last.startswith("ruby-metric: error: no pair could be read: all 10 pairs")
        assert "bad.jsonl:1: missing 'reference'" in last


def test_1_report_exits_2_and_writes_no_page(tmp_path, capsys):
    bad = _jsonl(tmp_path / "bad.jsonl", [{"ref": "a", "hyp": "b"}] * 3)
    page = tmp_path / "page.html"
    status, _, err = run(capsys, "report", "--jsonl", bad, "-l", "cs", "-o", page)
    assert status == 2 and "no pair could be read" in err
    assert not page.exists()


def test_1_meta_exits_2_when_no_pair_is_readable(tmp_path, capsys):
    bad = _jsonl(tmp_path / "bad.jsonl", [{"ref": "a", "hyp": "b", "human": 1}] * 3)
    status, _, err = run(
        capsys, "meta", "correlate", "--jsonl", bad, "-l", "cs", "--human-field", "human"
    )
    assert status == 2 and "bad.jsonl:1" in err and "Traceback" not in err


def test_1_strict_makes_one_unreadable_pair_an_error(tmp_path, capsys):
    rows = [{"reference": r, "candidate": h} for r, h in zip(REF_LINES, HYP_LINES, strict=True)]
    rows[4] = {"reference": REF_LINES[4]}
    mixed = _jsonl(tmp_path / "mixed.jsonl", rows)
    status, out, _ = run(capsys, "score", "--jsonl", mixed, "-l", "cs", "-f", "jsonl")
    assert status == 0 and len(out.splitlines()) == 10  # lenient: the pair has a reason
    status, out, err = run(capsys, "score", "--jsonl", mixed, "-l", "cs", "-f", "jsonl", "--strict")
    assert status == 2 and out == ""
    assert "mixed.jsonl:5: missing 'candidate'" in err.splitlines()[-1]


# -- 3. workers: reused, capped, identical -------------------------------------------------------


def test_3_a_second_call_reuses_the_pool():
    refs = REF_LINES * 20  # 200 pairs: 4 chunks
    hyps = HYP_LINES * 20
    with RubyScorer(language="cs") as scorer:
        first = scorer.score_corpus(refs, hyps, workers=2)
        pool = scorer.worker_pool(2)
        pids = sorted(p.pid for p in pool.processes)
        assert len(pids) == 2 and pool.started
        start = time.perf_counter()
        second = scorer.score_corpus(refs, hyps, workers=2)
        elapsed = time.perf_counter() - start
        assert scorer.worker_pool(2) is pool
        assert sorted(p.pid for p in pool.processes) == pids  # no new process started
        assert second.to_dict() == first.to_dict()
        assert elapsed < 30  # generous: no start-up, just 200 pairs
    assert not pool.started  # closed with the scorer
    assert not [p for p in pool.processes if p.is_alive()]


def test_3_workers_are_capped_at_the_chunks():
    before = len(multiprocessing.active_children())
    scorer = RubyScorer(language="cs")
    start = time.perf_counter()
    result = scorer.score_corpus(REF_LINES[:2], HYP_LINES[:2], workers=64)
    assert time.perf_counter() - start < 20
    assert len(multiprocessing.active_children()) == before  # one chunk: no pool at all
    assert result.to_dict() == scorer.score_corpus(REF_LINES[:2], HYP_LINES[:2]).to_dict()
    three = scorer.score_corpus(REF_LINES * 15, HYP_LINES * 15, workers=64)  # 150: 3 chunks
    assert len(scorer.worker_pool(1).processes) == 3
    assert three.to_dict() == scorer.score_corpus(REF_LINES * 15, HYP_LINES * 15).to_dict()
    scorer.close()


def test_3_output_is_byte_identical_across_worker_counts(tmp_path, capsys):
    refs, hyps = tmp_path / "r.cs", tmp_path / "h.cs"
    refs.write_text("".join(f"{r} // {i}\n" for i in range(30) for r in REF_LINES))
    hyps.write_text("".join(f"{h} // {i}\n" for i in range(30) for h in HYP_LINES))
    outputs = {}
    for workers in (1, 2, 3):
        status, out, _ = run(capsys, "score", refs, hyps, "-l", "cs", "-f", "jsonl", "-j", workers)
        assert status == 0
        outputs[workers] = out
    assert outputs[1] == outputs[2] == outputs[3] and len(outputs[1].splitlines()) == 300


# -- 4. a byte-order mark is not code ------------------------------------------------------------


def test_4_bom_is_stripped_and_counted(tmp_path, capsys):
    refs, hyps = tmp_path / "r.cs", tmp_path / "h.cs"
    refs.write_bytes(b"\xef\xbb\xbf" + REFS.read_bytes())
    hyps.write_bytes(b"\xef\xbb\xbf" + HYPS.read_bytes())
    status, out, err = run(capsys, "score", refs, hyps, "-l", "cs", "-f", "jsonl")
    plain_status, plain, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl")
    assert status == plain_status == 0
    assert out == plain  # pair 0 scores as without the marks (1.0 where it was 1.0)
    assert "dropped 2 UTF-8 byte-order mark(s)" in err
    rows = [
        {"reference": "\ufeff" + r, "candidate": h}
        for r, h in zip(REF_LINES, HYP_LINES, strict=True)
    ]
    status, out, err = run(
        capsys, "score", "--jsonl", _jsonl(tmp_path / "p.jsonl", rows), "-l", "cs", "-f", "jsonl"
    )
    assert status == 0 and out == plain and "dropped 10" in err


# -- 5. JSONL without any language ---------------------------------------------------------------


def test_5_jsonl_without_language_needs_lang_or_allow_no_lang(tmp_path, capsys):
    rows = [{"reference": r, "candidate": h} for r, h in zip(REF_LINES, HYP_LINES, strict=True)]
    pairs = _jsonl(tmp_path / "p.jsonl", rows)
    status, out, err = run(capsys, "score", "--jsonl", pairs)
    assert status == 2 and out == ""
    assert "no pair has a 'language' and no --lang" in err and "--allow-no-lang" in err
    status, out, _ = run(capsys, "score", "--jsonl", pairs, "--allow-no-lang", "-f", "jsonl")
    assert status == 0 and all(json.loads(x)["tier"] == "string" for x in out.splitlines())
    status, out, _ = run(capsys, "score", "--jsonl", pairs, "--lang", "cs", "-f", "jsonl")
    assert status == 0 and json.loads(out.splitlines()[0])["tier"] == "graph"
    rows[3]["language"] = "cs"  # one pair naming its language is enough
    status, _, _ = run(capsys, "score", "--jsonl", _jsonl(tmp_path / "q.jsonl", rows))
    assert status == 0


# -- 6. stdin --------------------------------------------------------------------------------


def test_6_dash_reads_hyps_refs_or_jsonl_from_stdin(tmp_path, capsys, monkeypatch):
    _, expected, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl")
    _stdin(monkeypatch, HYPS.read_text(encoding="utf-8"))
    status, out, err = run(capsys, "score", REFS, "-", "-l", "cs", "-f", "jsonl")
    assert status == 0 and out == expected, err
    _stdin(monkeypatch, REFS.read_text(encoding="utf-8"))
    status, out, _ = run(capsys, "score", "-", HYPS, "-l", "cs", "-f", "jsonl")
    assert status == 0 and out == expected
    rows = [{"reference": r, "candidate": h} for r, h in zip(REF_LINES, HYP_LINES, strict=True)]
    _stdin(monkeypatch, "".join(json.dumps(r) + "\n" for r in rows))
    status, out, _ = run(capsys, "score", "--jsonl", "-", "-l", "cs", "-f", "jsonl")
    assert status == 0 and out == expected
    status, _, err = run(capsys, "score", "-", "-", "-l", "cs")
    assert status == 2 and "only one of REFS and HYPS" in err
    _stdin(monkeypatch, '{"ref": 1}\n')
    status, _, err = run(capsys, "score", "--jsonl", "-", "-l", "cs")
    assert status == 2 and "<stdin>:1" in err


# -- 7. CLI affordances ----------------------------------------------------------------------


def test_7_score_only_prints_the_corpus_number(capsys):
    status, out, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "json")
    corpus = json.loads(out)["corpus"]
    status, out, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-b")
    assert status == 0 and out == f"{corpus['ruby']:.4f}\n"
    status, out, _ = run(
        capsys, "score", REFS, HYPS, "-l", "cs", "--score-only", "--metrics", "bleu,ruby"
    )
    assert out == f"{corpus['bleu']:.4f}\n"


def test_7_cite_prints_both_papers(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--cite"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    assert out.count("@inproceedings{") == 2
    assert "Does {BLEU} Score Work for Code Migration?" in out and "2019" in out
    assert "{CrystalBLEU}: Precisely and Efficiently Measuring the Similarity of Code" in out
    assert "Eghbali" in out and "Pradel" in out and "Tran, Ngoc" in out


def _parsers(parser, path=("ruby-metric",)):
    yield path, parser
    for action in parser._actions:  # argparse has no public walk over subcommands
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):
            for name, sub in choices.items():
                yield from _parsers(sub, (*path, name))


def test_7_every_help_has_examples_and_clear_options():
    seen = 0
    quiet_helps = set()
    for path, parser in _parsers(build_parser()):
        text = parser.format_help()
        seen += 1
        assert "examples:" in text, " ".join(path)
        assert "ruby-metric " in text.split("examples:")[1], " ".join(path)
        for action in parser._actions:
            if "--quiet" in action.option_strings:
                quiet_helps.add(action.help)
            if "--workers" in action.option_strings:
                assert "default 1" in action.help
            if "--format" in action.option_strings and path[-1] == "score":
                assert action.help and "jsonl" in action.help
    assert seen >= 9  # main, score, ngrams, build, explain, report, meta and its three
    assert len(quiet_helps) == 1  # --quiet means the same in every command


def test_7_quiet_is_silent_in_score_and_report(tmp_path):
    import subprocess

    rows = [
        {"reference": r, "candidate": h, "lang": "cs"}
        for r, h in zip(REF_LINES, HYP_LINES, strict=True)
    ]
    pairs = _jsonl(tmp_path / "p.jsonl", rows)  # an unknown key: a warning without -q

    def cli(*argv):
        return subprocess.run(
            [sys.executable, "-m", "ruby_metric", *map(str, argv)],
            capture_output=True,
            text=True,
            timeout=300,
        )

    loud = cli("score", "--jsonl", pairs, "-l", "cs", "-f", "jsonl")
    assert "unknown key 'lang'" in loud.stderr and "10 pairs, RUBY" in loud.stderr
    for argv in (
        ("score", "--jsonl", pairs, "-l", "cs", "-f", "jsonl", "-q"),
        ("report", "--jsonl", pairs, "-l", "cs", "-o", tmp_path / "r.html", "-q"),
    ):
        done = cli(*argv)
        assert done.returncode == 0 and done.stderr == "", argv


# -- 8. explain one pair of a corpus ---------------------------------------------------------


def test_8_explain_pair_uses_the_outputs_ids(tmp_path, capsys):
    status, out, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl")
    row = json.loads(out.splitlines()[7])
    assert row["id"] == 7
    status, by_pair, _ = run(capsys, "explain", "--pair", 7, REFS, HYPS, "-l", "cs", "-f", "json")
    assert status == 0
    ref, hyp = tmp_path / "ref.cs", tmp_path / "hyp.cs"
    ref.write_text(REF_LINES[7])  # line 8 of the files
    hyp.write_text(HYP_LINES[7])
    _, by_files, _ = run(capsys, "explain", ref, hyp, "-l", "cs", "-f", "json")
    assert by_pair == by_files
    assert json.loads(by_pair)["result"]["ruby"] == pytest.approx(row["ruby"])
    status, _, err = run(capsys, "explain", "--pair", 10, REFS, HYPS, "-l", "cs")
    assert status == 2 and "no pair with id 10" in err and "0 to 9" in err
    rows = [
        {"id": f"p{i}", "reference": r, "candidate": h, "language": "cs"}
        for i, (r, h) in enumerate(zip(REF_LINES, HYP_LINES, strict=True))
    ]
    status, by_id, _ = run(
        capsys,
        "explain",
        "--pair",
        "p7",
        "--jsonl",
        _jsonl(tmp_path / "p.jsonl", rows),
        "-f",
        "json",
    )
    assert status == 0 and by_id == by_pair


# -- 9. library edges ------------------------------------------------------------------------


class _Index:
    def __init__(self, values):
        self.values = list(values)

    def tolist(self):
        return list(self.values)


class _Series:
    """What score_corpus uses of a pandas Series: iteration, ``index`` and ``tolist()``."""

    def __init__(self, values, index):
        self._values, self.index = list(values), _Index(index)

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def tolist(self):
        return list(self._values)


def test_9_score_corpus_takes_any_iterable_and_keeps_ids():
    scorer = RubyScorer(language="cs")
    expected = scorer.score_corpus(REF_LINES, HYP_LINES)
    from_gen = scorer.score_corpus((r for r in REF_LINES), iter(HYP_LINES))
    assert from_gen.to_dict() == expected.to_dict()
    ids = [f"task-{i}" for i in range(10)]
    named = scorer.score_corpus(tuple(REF_LINES), HYP_LINES, ids=(i for i in ids))
    assert [p.id for p in named.pairs] == ids
    series = _Series(HYP_LINES, range(500, 510))
    sliced = scorer.score_corpus(_Series(REF_LINES, range(500, 510)), series)
    assert [p.id for p in sliced.pairs] == list(range(500, 510))
    with pytest.raises(TypeError, match="references must be an iterable with one item per pair"):
        scorer.score_corpus(42, HYP_LINES)
    with pytest.raises(TypeError, match="not a string"):
        scorer.score_corpus("int x;", "int y;")


def test_9_score_corpus_keeps_a_real_pandas_index():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"ref": REF_LINES, "hyp": HYP_LINES}).iloc[5:8]
    result = RubyScorer(language="cs").score_corpus(frame["ref"], frame["hyp"])
    assert [p.id for p in result.pairs] == [5, 6, 7]


def test_9_readme_explains_the_sentence_mean_trap_and_ships_what_it_cites():
    assert "mean of sentence" in README and "corpus BLEU" in README
    assert "to_records()" in README
    for cited in re.findall(r"\b(SPEC(?:\.md)?)\b", README):
        assert (ROOT / f"{cited}.md").exists() or (ROOT / cited).exists(), cited


def test_readme_has_stdin_pipeline_examples_and_the_suite_duration():
    assert "score refs.cs - " in README or "score REFS - " in README
    assert "--jsonl -" in README
    assert re.search(r"test suite .*?takes about \d", README)
