"""Batch scoring: a hostile mixed JSONL batch, input order, byte-identical output across
worker counts and executors."""

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ruby_metric import RubyScorer
from ruby_metric.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
DATA = ROOT.parent / "shared" / "datasets" / "codexglue_code2code_trans" / "model_outputs"
TIER_METRIC = {"graph": "grs", "tree": "trs", "string": "sts"}


def _real_pairs(n: int) -> list[tuple[str, str]]:
    gold, output = DATA / "java-cs-model1.gold", DATA / "java-cs-model1.output"
    if gold.is_file():
        refs = gold.read_text(encoding="utf-8").split("\n")[:n]
        hyps = output.read_text(encoding="utf-8").split("\n")[:n]
        return list(zip(refs, hyps, strict=True))
    refs = (FIXTURES / "java_to_cs" / "references.cs").read_text().splitlines()
    hyps = (FIXTURES / "java_to_cs" / "candidates.cs").read_text().split("\n")[: len(refs)]
    return list(zip(refs, hyps, strict=True))


def _hostile_rows() -> list[dict]:
    rng = random.Random(7)
    junk = bytes(rng.randrange(256) for _ in range(400)).decode("latin-1")
    big = "public void F(){" + "x = x + 1;" * 20_000 + "}"  # a 200 KB line
    rows = [
        {"id": f"real-{i}", "reference": r, "candidate": h}
        for i, (r, h) in enumerate(_real_pairs(40))
    ]
    rows += [
        {
            "id": "broken",
            "reference": "public bool E(){return C == 0;}",
            "candidate": "public bool E(){return C == ;",
        },
        {"id": "empty-cand", "reference": "public bool E(){return C == 0;}", "candidate": ""},
        {"id": "empty-both", "reference": "", "candidate": ""},
        {"id": "junk", "reference": "public int A(){return 1;}", "candidate": junk},
        {"id": "nul", "reference": "int a = 1;", "candidate": "int a\x00= 1;"},
        {"id": "big", "reference": big, "candidate": big.replace("+ 1", "+ 2", 10)},
        {
            "id": "two-refs",
            "reference": ["public int A(){return 2;}", "public int A(){return 1;}"],
            "candidate": "public int A(){return 1;}",
        },
        {"id": "bad-type", "reference": "x", "candidate": 5},
    ]
    return rows


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "mixed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _hostile_rows()), encoding="utf-8")
    return path


def _run_cli(capsys, *argv) -> str:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_mixed_batch_one_result_per_line(capsys, batch_file):
    out = _run_cli(capsys, "score", "--jsonl", batch_file, "--lang", "cs", "-f", "jsonl", "-q")
    results = [json.loads(line) for line in out.splitlines()]
    rows = _hostile_rows()
    assert [r["id"] for r in results] == [r["id"] for r in rows]
    for res in results:
        if res["id"] == "bad-type":
            assert res["ruby"] is None and "'candidate' must be a string" in res["reasons"]["input"]
            continue
        assert 0.0 <= res["ruby"] <= 1.0, res
        assert res["ruby"] == res[TIER_METRIC[res["tier"]]]
        if res["tier"] != "graph":
            assert res["reasons"].get("grs"), res  # why RUBY fell back
        if res["tier"] == "string":
            assert res["reasons"].get("trs"), res
    by_id = {r["id"]: r for r in results}
    assert by_id["empty-both"]["ruby"] == 1.0
    assert by_id["two-refs"]["ruby"] == 1.0
    # a method whose only statement is broken: its signature is structure, the statement
    # is kept as text (and the cut-off brace appended)
    assert by_id["broken"]["tier"] == "graph"
    assert "1 statement unparsed, kept as text" in by_id["broken"]["reasons"]["grs"]


def test_output_is_byte_identical_across_workers(capsys, batch_file):
    one = _run_cli(capsys, "score", "--jsonl", batch_file, "-l", "cs", "-f", "json", "-q")
    two = _run_cli(
        capsys, "score", "--jsonl", batch_file, "-l", "cs", "-f", "json", "-q", "--workers", "2"
    )
    assert one == two
    assert json.loads(one)["corpus"]["pairs"] == len(_hostile_rows())


def test_any_executor_gives_the_local_results():
    pairs = _real_pairs(30)
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    scorer = RubyScorer(language="cs")
    local = scorer.score_corpus(refs, hyps)
    with ThreadPoolExecutor(max_workers=3) as pool:
        remote = scorer.score_corpus(refs, hyps, executor=pool)
    assert remote.to_dict() == local.to_dict()


def test_interrupted_run_leaves_valid_jsonl(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    rows = _hostile_rows()[:-2] * 300  # thousands of pairs: still running when interrupted
    src = tmp_path / "many.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = [sys.executable, "-m", "ruby_metric", "score", "--jsonl", str(src), "-l", "cs"]
    proc = subprocess.Popen(
        [*argv, "-f", "jsonl", "-o", str(out), "-j", "2"],
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.stat().st_size > 0:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert 0 < len(lines) < len(rows)
    ids = [json.loads(line)["id"] for line in lines]  # every line is whole, valid JSON
    assert ids == [r["id"] for r in rows[: len(ids)]]
