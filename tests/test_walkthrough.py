"""The README walkthrough "Evaluate a translation benchmark", run on its fixtures.

fixtures/translation_benchmark/ holds five whole Java stdin/stdout programs, a Python
reference translation of each, and three models' Python translations with their execution
verdicts (``passed``), as folders and as one JSONL (``pairs.jsonl``: id, model, task, source,
reference, candidate, passed). The wrong translations are wrong the way model output is:
a line read where a token read was meant (coder-m/sum_numbers), ``/`` for ``//``
(coder-s/mean_floor), an off-by-one loop bound (coder-s/count_divisors), ``split(" ")`` on
text with a double space (coder-m/reverse_words).

Each command of the walkthrough runs here, and its numbers are checked against the fixture
itself (identical files score 1.0), against each other (one system's score is the same in
``score``, ``meta compare`` and ``report``) and against an independent count (the
within-task AUC from the per-pair scores, Holm's adjustment by hand).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import FIXTURES, run

from ruby_metric.cli.app import main
from ruby_metric.meta.systems import holm

BENCH = FIXTURES / "translation_benchmark"
PAIRS = BENCH / "pairs.jsonl"
MODELS = ["coder-l", "coder-m", "coder-s"]
TASKS = ["count_divisors", "max_index", "mean_floor", "reverse_words", "sum_numbers"]
PY = ("--jsonl", PAIRS, "--lang", "python")


def _rows() -> list[dict]:
    return [json.loads(line) for line in PAIRS.read_text().splitlines()]


@pytest.fixture(scope="module")
def scores():
    """``score --system-field model --label-field passed -f json`` against the references,
    run once for the module."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", *map(str, PY), "--system-field", "model", "--label-field",
                     "passed", "-f", "json"])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_the_jsonl_and_the_folders_hold_the_same_data():
    rows = _rows()
    assert [(r["model"], r["id"]) for r in rows] == [(m, t) for m in MODELS for t in TASKS]
    for r in rows:
        assert r["task"] == r["id"]
        assert r["source"] == (BENCH / "sources" / f"{r['task']}.java").read_text()
        assert r["reference"] == (BENCH / "references" / f"{r['task']}.py").read_text()
        assert r["candidate"] == (BENCH / "systems" / r["model"] / f"{r['task']}.py").read_text()
    labels = [json.loads(line) for line in (BENCH / "labels.jsonl").read_text().splitlines()]
    assert [(x["model"], x["id"], x["passed"]) for x in labels] == [
        (r["model"], f"{r['task']}.py", r["passed"]) for r in rows]


def test_the_labels_are_the_execution_verdicts():
    def output(program: Path, task: str) -> str:
        with (BENCH / "inputs" / f"{task}.txt").open("rb") as stdin:
            done = subprocess.run([sys.executable, str(program)], stdin=stdin,
                                  capture_output=True, timeout=60, check=False)
        return done.stdout.decode() if done.returncode == 0 else "error"

    expected = {t: output(BENCH / "references" / f"{t}.py", t) for t in TASKS}
    assert expected["sum_numbers"] == "100\n" and expected["mean_floor"] == "2\n"
    for r in _rows():
        got = output(BENCH / "systems" / r["model"] / f"{r['task']}.py", r["task"])
        assert (got == expected[r["task"]]) is r["passed"], (r["model"], r["task"], got)
    failing = sorted((r["model"], r["task"]) for r in _rows() if not r["passed"])
    assert failing == [("coder-m", "reverse_words"), ("coder-m", "sum_numbers"),
                       ("coder-s", "count_divisors"), ("coder-s", "mean_floor")]


def test_score_per_system_against_the_references(scores):
    systems = scores["systems"]
    assert list(systems) == MODELS and all(s["pairs"] == 5 for s in systems.values())
    by = {(p["model"], p["id"]): p for p in scores["pairs"]}
    # coder-m's count_divisors, max_index and mean_floor are the references, byte for byte
    for task in ("count_divisors", "max_index", "mean_floor"):
        assert (BENCH / "systems/coder-m" / f"{task}.py").read_text() == (
            BENCH / "references" / f"{task}.py").read_text()
        assert by[("coder-m", task)]["ruby"] == 1.0 and by[("coder-m", task)]["passed"] is True
    for model in MODELS:
        rubies = [by[(model, t)]["ruby"] for t in TASKS]
        assert systems[model]["ruby"] == pytest.approx(sum(rubies) / 5, abs=1e-12)
    # the measured corpus RUBY per model: the near-copies with one-token bugs (coder-s)
    # score above the correct but restyled translations (coder-l)
    assert [round(systems[m]["ruby"], 4) for m in MODELS] == [0.6108, 0.8145, 0.9220]


def test_score_against_the_java_sources(capsys):
    code, out, err = run(capsys, "score", *PY, "--source-lang", "java", "--system-field",
                         "model", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [(p["model"], p["id"]) for p in data["pairs"]] == [(m, t) for m in MODELS
                                                               for t in TASKS]
    assert all(p["mode"] == "source" and p["ruby"] is not None for p in data["pairs"])
    assert all(p["bleu"] is None for p in data["pairs"])  # not comparable across languages
    for model, system in data["systems"].items():
        mine = [p["ruby"] for p in data["pairs"] if p["model"] == model]
        assert system["pairs"] == 5 and system["ruby"] == pytest.approx(sum(mine) / 5)


def test_meta_compare_three_systems(capsys, scores):
    code, out, err = run(capsys, "meta", "compare", *PY, "--system-field", "model",
                         "--label-field", "passed", "--trials", "999", "--bootstrap", "500",
                         "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [(c["a"], c["b"]) for c in data["comparisons"]] == [
        ("coder-l", "coder-m"), ("coder-l", "coder-s"), ("coder-m", "coder-s")]
    assert data["correction"] == "holm" and data["missing_ids"] == {}
    for model in MODELS:  # the same system scores as score's
        assert data["systems"][model]["ruby"] == pytest.approx(scores["systems"][model]["ruby"])
    assert [data["systems"][m]["labels"] for m in MODELS] == ["5/5 true", "3/5 true",
                                                               "3/5 true"]
    l_vs_s = data["comparisons"][1]["metrics"]["ruby"]
    assert l_vs_s["n"] == 5 and l_vs_s["difference"] == pytest.approx(
        scores["systems"]["coder-l"]["ruby"] - scores["systems"]["coder-s"]["ruby"])
    for test in ("randomization", "bootstrap"):
        raw = [c["metrics"]["ruby"][f"p_value_{test}"] for c in data["comparisons"]]
        adjusted = [c["metrics"]["ruby"][f"p_value_{test}_adjusted"] for c in data["comparisons"]]
        assert adjusted == pytest.approx(holm(raw))
        assert all(a >= r for a, r in zip(adjusted, raw, strict=True))


def _within_task_auc(pairs: list[dict], metric: str) -> tuple[float, int, int]:
    """The within-task AUC counted directly: every (passing, failing) pair of one task,
    ties 1/2; with the candidates and pairs it is over."""
    wins = total = 0.0
    candidates = 0
    for task in TASKS:
        mine = [p for p in pairs if p["id"] == task]
        good = [p[metric] for p in mine if p["passed"]]
        bad = [p[metric] for p in mine if not p["passed"]]
        if good and bad:
            candidates += len(mine)
        for g in good:
            for b in bad:
                total += 1
                wins += 1.0 if g > b else 0.5 if g == b else 0.0
    return wins / total, candidates, int(total)


def test_meta_correlate_within_task_auc_per_system_and_tier(capsys, scores):
    code, out, err = run(capsys, "meta", "correlate", *PY, "--label-field", "passed",
                         "--group-field", "task", "--system-field", "model", "--bootstrap",
                         "0", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["pairs"], data["unreadable"], data["groups"]) == (15, 0, 5)
    for metric in ("ruby", "grs", "trs", "sts", "bleu"):
        within = data["metrics"][metric]["within_group"]
        auc, n, pairs = _within_task_auc(scores["pairs"], metric)
        assert within["auc"] == pytest.approx(auc)
        # like for like: every tier over the same 12 candidates of the 4 mixed tasks
        assert (within["n"], within["pairs"], within["groups"]) == (n, pairs, 4) == (n, 8, 4)
        assert (within["left_out_groups"], within["left_out_items"]) == (1, 3)  # max_index
    assert data["metrics"]["ruby"]["within_group"]["auc"] == 0.625
    # per system each task has one candidate: no task has both outcomes, and it says so
    assert data["systems"]["coder-m"]["metrics"]["ruby"]["within_group"]["groups"] == 0
    assert data["systems"]["coder-m"]["metrics"]["ruby"]["auc"] == 1.0
    code, out, _ = run(capsys, "meta", "correlate", *PY, "--label-field", "passed",
                       "--group-field", "task", "--system-field", "model", "--bootstrap", "0")
    assert code == 0 and "model coder-l: correlation with 'passed' over 5 pairs" in out
    assert "none: no group has both a 'passed' 1 and a 0 here" in out


def test_report_side_by_side(capsys, tmp_path, scores):
    page = tmp_path / "benchmark.html"
    code, _, err = run(capsys, "report", *PY, "--system-field", "model", "--label-field",
                       "passed", "-o", page, "--worst", "4")
    assert code == 0, err
    html = page.read_text()
    for model, passed in zip(MODELS, ("5/5 true", "3/5 true", "3/5 true"), strict=True):
        start = html.index(f'<tr id="system-{model}">')
        row = html[start:html.index("</tr>", start)]
        ruby = scores["systems"][model]["ruby"]
        assert f">{ruby:.4f}<" in row and passed in row
    worst = html[html.index('id="worst-table"'):]
    assert "<th>model</th><th>passed</th>" in worst[:300]
    # the lowest RUBY of all fifteen is coder-l's correct, restyled sum_numbers
    lowest = min(scores["pairs"], key=lambda p: p["ruby"])
    assert (lowest["model"], lowest["id"], lowest["passed"]) == ("coder-l", "sum_numbers", True)
    assert "<td>coder-l</td><td>true</td>" in worst[: worst.index("</tr>", 400) + 5]


# ------------------------------------------------------------------ the folder form
# The same benchmark as it ships on disk: references/ (or sources/), a folder per model,
# labels.jsonl. Every command gives the numbers its JSONL form gives on the same data.

SYSTEMS = [BENCH / "systems" / m for m in MODELS]
LABELS = ("--labels", BENCH / "labels.jsonl", "--label-field", "passed")
SCORED = ("ruby", "grs", "trs", "sts", "bleu", "tier")


def _by_task(pairs: list[dict]) -> dict[tuple[str, str], dict]:
    """Rows by (model, task): the folder ids are files (``sum_numbers.py``), the JSONL's
    are tasks (``sum_numbers``)."""
    return {(p["model"], p["id"].removesuffix(".py")): p for p in pairs}


def test_score_folders_gives_the_jsonl_numbers(capsys, scores):
    code, out, err = run(capsys, "score", BENCH / "references", *SYSTEMS, "-l", "python",
                         *LABELS, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [(p["model"], p["id"]) for p in data["pairs"]] == [
        (m, f"{t}.py") for m in MODELS for t in TASKS]
    folder, jsonl = _by_task(data["pairs"]), _by_task(scores["pairs"])
    assert folder.keys() == jsonl.keys()
    for key, row in folder.items():
        assert {k: row[k] for k in (*SCORED, "passed")} == {
            k: jsonl[key][k] for k in (*SCORED, "passed")}, key
    for model in MODELS:
        assert data["systems"][model]["ruby"] == scores["systems"][model]["ruby"]
    assert "no label" not in err and "left out" not in err
    code, out, _ = run(capsys, "score", BENCH / "references", *SYSTEMS, "-l", "python", "-b")
    assert code == 0 and out.splitlines() == [
        f"{m}\t{scores['systems'][m]['ruby']:.4f}" for m in MODELS]


def test_score_folders_against_the_sources_gives_the_jsonl_numbers(capsys):
    code, out, err = run(capsys, "score", *PY, "--source-lang", "java", "--system-field",
                         "model", "-f", "json")
    assert code == 0, err
    jsonl = json.loads(out)
    code, out, err = run(capsys, "score", BENCH / "sources", *SYSTEMS, "-l", "python",
                         "--source-lang", "java", *LABELS, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    folder, by = _by_task(data["pairs"]), _by_task(jsonl["pairs"])
    assert folder.keys() == by.keys() and len(folder) == 15
    for key, row in folder.items():
        assert row["mode"] == "source" and row["passed"] is not None
        assert {k: row[k] for k in (*SCORED, "mode")} == {k: by[key][k] for k in (*SCORED, "mode")}
    assert {m: s["ruby"] for m, s in data["systems"].items()} == {
        m: s["ruby"] for m, s in jsonl["systems"].items()}


def test_meta_compare_folders_gives_the_jsonl_numbers(capsys):
    fast = ("--trials", "199", "--bootstrap", "100", "-f", "json")
    code, out, err = run(capsys, "meta", "compare", *PY, "--system-field", "model",
                         "--label-field", "passed", *fast)
    assert code == 0, err
    jsonl = json.loads(out)
    code, out, err = run(capsys, "meta", "compare", BENCH / "references", *SYSTEMS,
                         "-l", "python", *LABELS, *fast)
    assert code == 0, err
    data = json.loads(out)
    assert data["system_field"] == "model" and data["missing_ids"] == {}
    assert data["comparisons"] == jsonl["comparisons"]  # the same tests, the same p-values
    for model in MODELS:
        assert data["systems"][model] == jsonl["systems"][model]
    # two folders are two systems too (not the line-aligned A-vs-B branch)
    code, out, err = run(capsys, "meta", "compare", BENCH / "references", *SYSTEMS[:2],
                         "-l", "python", *fast)
    assert code == 0, err
    (two,) = json.loads(out)["comparisons"]
    assert (two["a"], two["b"]) == ("coder-l", "coder-m")
    first = jsonl["comparisons"][0]["metrics"]["ruby"]
    for key in ("score_a", "score_b", "difference", "n", "p_value_ttest"):
        assert two["metrics"]["ruby"][key] == first[key], key
    # one comparison: nothing to adjust for
    assert two["metrics"]["ruby"]["p_value_ttest_adjusted"] == first["p_value_ttest"]


def test_meta_correlate_folders_within_task_auc(capsys):
    common = ("--bootstrap", "0", "-f", "json")
    code, out, err = run(capsys, "meta", "correlate", *PY, "--label-field", "passed",
                         "--group-field", "task", "--system-field", "model", *common)
    assert code == 0, err
    jsonl = json.loads(out)
    # the task of a pair of folders is its file: no --group-field needed
    code, out, err = run(capsys, "meta", "correlate", BENCH / "references", *SYSTEMS,
                         "-l", "python", *LABELS, *common)
    assert code == 0, err
    data = json.loads(out)
    assert data["group_field"] == "id" and jsonl["group_field"] == "task"
    for key in ("metrics", "pairs", "unreadable", "groups"):
        assert data[key] == jsonl[key], key
    assert data["metrics"]["ruby"]["within_group"]["auc"] == 0.625
    for model in MODELS:
        assert data["systems"][model]["metrics"] == jsonl["systems"][model]["metrics"]
    # or the group named by a field of the labels file
    code, out, err = run(capsys, "meta", "correlate", BENCH / "references", *SYSTEMS,
                         "-l", "python", *LABELS, "--group-field", "task", *common)
    assert code == 0, err
    assert json.loads(out)["metrics"] == jsonl["metrics"]


def test_report_folders_side_by_side(capsys, tmp_path, scores):
    page = tmp_path / "benchmark.html"
    code, _, err = run(capsys, "report", BENCH / "references", *SYSTEMS, "-l", "python",
                       *LABELS, "-o", page, "--worst", "4")
    assert code == 0, err
    html = page.read_text()
    for model, passed in zip(MODELS, ("5/5 true", "3/5 true", "3/5 true"), strict=True):
        start = html.index(f'<tr id="system-{model}">')
        row = html[start:html.index("</tr>", start)]
        assert f">{scores['systems'][model]['ruby']:.4f}<" in row and passed in row
    worst = html[html.index('id="worst-table"'):]
    assert "<th>model</th><th>passed</th>" in worst[:300]
    assert "sum_numbers.py" in worst[: worst.index("</tr>", 400) + 5]


def test_compare_and_correlate_folders_against_the_sources(capsys):
    """Source mode for systems as folders: ``sources/`` as REFS, ``Foo.java`` with
    ``Foo.py``; the numbers of the JSONL form read against its ``source`` field."""
    java = ("-l", "python", "--source-lang", "java", "-f", "json")
    fast = ("--trials", "99", "--bootstrap", "50")
    code, out, err = run(capsys, "meta", "compare", *PY, "--source-lang", "java", "-f",
                         "json", "--system-field", "model", *fast)
    assert code == 0, err
    jsonl = json.loads(out)
    code, out, err = run(capsys, "meta", "compare", BENCH / "sources", *SYSTEMS, *java, *fast)
    assert code == 0, err
    data = json.loads(out)
    assert data["comparisons"] == jsonl["comparisons"]
    assert all(data["systems"][m]["ruby"] == jsonl["systems"][m]["ruby"] for m in MODELS)
    code, out, err = run(capsys, "meta", "correlate", *PY, "--source-lang", "java", "-f",
                         "json", "--label-field", "passed", "--group-field", "task",
                         "--system-field", "model", "--bootstrap", "0")
    assert code == 0, err
    jsonl = json.loads(out)
    code, out, err = run(capsys, "meta", "correlate", BENCH / "sources", *SYSTEMS, *java,
                         *LABELS, "--bootstrap", "0")
    assert code == 0, err
    data = json.loads(out)
    assert data["metrics"] == jsonl["metrics"] and data["pairs"] == 15
    assert data["metrics"]["ruby"]["within_group"]["n"] == 12
