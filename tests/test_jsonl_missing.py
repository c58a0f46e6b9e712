"""An id some systems of a JSONL have and one lacks is that system's missing translation
(0 on every tier), as a file missing from a system folder is: leaving an input out of the
JSONL does not raise a system's mean."""

from __future__ import annotations

import io
import json
import logging
import shutil

import pytest
from cli_helpers import FIXTURES, run

from ruby_metric.io.inputs import InputError
from ruby_metric.io.systems import read_jsonl_systems

BENCH = FIXTURES / "translation_benchmark"
MISSING = "candidate: missing from the JSONL for model coder-m (a missing translation scores 0)"


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _row(model, pair_id, reference="x = 1", candidate="x = 1", **more):
    return {"id": pair_id, "model": model, "reference": reference, "candidate": candidate,
            **more}


@pytest.fixture
def without_mean_floor(tmp_path):
    """The benchmark's pairs.jsonl with coder-m's mean_floor line deleted."""
    rows = [json.loads(line) for line in (BENCH / "pairs.jsonl").read_text().splitlines()]
    kept = [r for r in rows if (r["model"], r["id"]) != ("coder-m", "mean_floor")]
    assert len(kept) == 14
    return _write(tmp_path / "copy.jsonl", kept)


def test_missing_id_is_placed_in_natural_order_with_the_first_rows_reference(tmp_path, caplog):
    rows = [
        _row("m1", "t2", "a = 2", task="g2", passed=True),
        _row("m1", "t10", "a = 10", task="g10", passed=True),
        _row("m2", "t10", "a = 10", task="g10", passed=False),
        _row("m1", "t1", "a = 1", task="g1", passed=True),
    ]
    path = _write(tmp_path / "x.jsonl", rows)
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        got = read_jsonl_systems(path, system_field="model", label_field="passed",
                                 group_field="task")
    # m2 lacks t2 and t1: both go before its t10 (natural order: t1 < t2 < t10)
    assert [(r.system, r.pair.id) for r in got.rows] == [
        ("m1", "t2"), ("m1", "t10"), ("m2", "t1"), ("m2", "t2"), ("m2", "t10"), ("m1", "t1")]
    m2_t1 = got.rows[2]
    assert (m2_t1.pair.reference, m2_t1.pair.candidate, m2_t1.pair.line) == ("a = 1", "", None)
    assert m2_t1.pair.missing == "missing from the JSONL for model m2"
    assert (m2_t1.label, m2_t1.group) == (None, "g1")
    assert got.missing() == {}
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: 2 ids another system has are missing from a system (model/id: m2/t1, "
        "m2/t2): each scored as a missing translation, 0"]


def test_missing_id_after_the_systems_last_row_and_disagreeing_references(tmp_path, caplog):
    rows = [_row("m1", "a"), _row("m2", "a"),
            _row("m1", "z", "first = 1"), _row("m3", "z", "second = 2"), _row("m3", "a")]
    path = _write(tmp_path / "x.jsonl", rows)
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        got = read_jsonl_systems(path, system_field="model")
    # m2 has no id after z: its z follows its last row (a), before m1's z
    assert [(r.system, r.pair.id, r.pair.reference) for r in got.rows] == [
        ("m1", "a", "x = 1"), ("m2", "a", "x = 1"), ("m2", "z", "first = 1"),
        ("m1", "z", "first = 1"), ("m3", "z", "second = 2"), ("m3", "a", "x = 1")]
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: 1 id another system has is missing from a system (model/id: m2/z); the "
        "systems' rows of 1 id disagree on the reference (z): the first row's is used: each "
        "scored as a missing translation, 0"]


def test_missing_id_takes_a_readable_rows_reference(tmp_path):
    rows = [_row("m1", "a", None), _row("m2", "a", "y = 2"), _row("m3", "b")]
    got = read_jsonl_systems(_write(tmp_path / "x.jsonl", rows), system_field="model")
    m3_a = next(r for r in got.rows if (r.system, r.pair.id) == ("m3", "a"))
    assert (m3_a.pair.reference, m3_a.pair.problem) == ("y = 2", None)


def test_strict_makes_a_missing_id_an_error(tmp_path):
    path = _write(tmp_path / "x.jsonl", [_row("m1", "a"), _row("m1", "b"), _row("m2", "a")])
    with pytest.raises(InputError) as exc:
        read_jsonl_systems(path, system_field="model", strict=True)
    assert str(exc.value) == (f"{path}: 1 id another system has is missing from a system "
                              "(model/id: m2/b) (--strict: every system needs every id)")


def test_score_counts_the_missing_line_as_zero_like_the_folder(capsys, without_mean_floor,
                                                               tmp_path, caplog):
    argv = ("score", "--jsonl", without_mean_floor, "--lang", "python", "--system-field",
            "model")
    code, out, err = run(capsys, *argv, "-f", "jsonl", "-q")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    coder_m = [r for r in rows if r["model"] == "coder-m"]
    # in the folder order: mean_floor between max_index and reverse_words
    assert [r["id"] for r in coder_m] == ["count_divisors", "max_index", "mean_floor",
                                          "reverse_words", "sum_numbers"]
    missing = coder_m[2]
    assert (missing["ruby"], missing["grs"], missing["trs"], missing["sts"]) == (0, 0, 0, 0)
    assert missing["reasons"]["ruby"] == MISSING
    # the other four are as in the full file: 1.0, 1.0, 0.5707, 0.5019; with the zero the
    # mean is 3.0726 / 5 = 0.6145 (left out, it was 3.0726 / 4 = 0.7682)
    others = [r["ruby"] for r in coder_m if r["id"] != "mean_floor"]
    assert [round(v, 4) for v in others] == [1.0, 1.0, 0.5707, 0.5019]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, *argv, "-b")
    assert code == 0, err
    assert out.splitlines() == ["coder-l\t0.6108", "coder-m\t0.6145", "coder-s\t0.9220"]
    assert [r.getMessage() for r in caplog.records if "missing from" in r.getMessage()] == [
        f"{without_mean_floor}: 1 id another system has is missing from a system (model/id: "
        "coder-m/mean_floor): each scored as a missing translation, 0"]
    code, out, err = run(capsys, *argv, "-b", "--strict")
    assert code == 2 and out == ""
    assert "(model/id: coder-m/mean_floor) (--strict: every system needs every id)" in err
    # the same missing file as a folder scores the same
    systems = tmp_path / "systems"
    shutil.copytree(BENCH / "systems", systems)
    (systems / "coder-m" / "mean_floor.py").unlink()
    code, out, err = run(capsys, "score", BENCH / "references", *(
        systems / m for m in ("coder-l", "coder-m", "coder-s")), "--lang", "python", "-b")
    assert code == 0, err
    assert out.splitlines() == ["coder-l\t0.6108", "coder-m\t0.6145", "coder-s\t0.9220"]


def test_meta_commands_compare_on_every_id_and_correlate_leaves_the_missing_out(
        capsys, without_mean_floor):
    base = ("--jsonl", without_mean_floor, "-l", "python", "--system-field", "model",
            "--metrics", "ruby")
    code, out, err = run(capsys, "meta", "compare", *base, "--trials", "99",
                         "--bootstrap", "50")
    assert code == 0, err
    assert "A = coder-l, B = coder-m: 5 paired ids" in out
    assert "coder-m      5           0  0.6145" in out
    code, out, err = run(capsys, "meta", "correlate", *base, "--label-field", "passed",
                         "--bootstrap", "0", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    # the missing translation has no verdict to correlate with: 14 judged pairs
    assert data["pairs"] == 14 and data["systems"]["coder-m"]["pairs"] == 4


def test_systems_from_standard_input_are_read_once(capsys, monkeypatch, without_mean_floor):
    # standard input cannot be read twice: the systems' rows are the pairs scored
    text = without_mean_floor.read_text()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, err = run(capsys, "score", "--jsonl", "-", "--lang", "python",
                         "--system-field", "model", "-b")
    assert code == 0, err
    assert out.splitlines() == ["coder-l\t0.6108", "coder-m\t0.6145", "coder-s\t0.9220"]
