"""Several systems as folders, and labels joined from a file of their own: what is read,
and the warnings and errors on folders and labels that do not match."""

from __future__ import annotations

import json
import logging

import pytest
from cli_helpers import run, write_folder

from ruby_metric.io.inputs import InputError
from ruby_metric.io.system_folders import join_labels, read_folder_systems, system_names

REFS = {"a.py": "x = 1\nprint(x)\n", "b.py": "y = 2\nprint(y + 1)\n", "c.py": "print(3)\n"}


@pytest.fixture
def bench(tmp_path):
    """refs/ with a.py b.py c.py; s1/ has all three, s2/ lacks c.py and has an extra d.py."""
    refs = write_folder(tmp_path, "refs", REFS)
    s1 = write_folder(tmp_path, "s1", REFS)
    s2 = write_folder(tmp_path, "s2", {"a.py": REFS["a.py"], "b.py": "y = 3\n", "d.py": "z = 0\n"})
    return refs, s1, s2


def _labels(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_names_are_folder_names_or_paths_when_they_clash(tmp_path):
    assert system_names(["x/coder-l", "y/coder-m/"]) == ["coder-l", "coder-m"]
    assert system_names(["run1/m", "run2/m", "z/n"]) == ["run1/m", "run2/m", "n"]
    with pytest.raises(InputError, match="the same system given twice"):
        system_names(["a/m", "a/m/"])


def test_folder_systems_pair_by_path_and_warn_once(bench, caplog):
    refs, s1, s2 = bench
    with caplog.at_level(logging.WARNING):
        rows = read_folder_systems(refs, [s1, s2])
    assert [(r.system, r.pair.id, r.pair.candidate) for r in rows.rows] == [
        ("s1", "a.py", REFS["a.py"]), ("s1", "b.py", REFS["b.py"]), ("s1", "c.py", REFS["c.py"]),
        ("s2", "a.py", REFS["a.py"]), ("s2", "b.py", "y = 3\n"), ("s2", "c.py", "")]
    # the file s2 lacks is its missing translation (scored 0), not left out; d.py has no
    # reference to be scored against and is
    assert [r.pair.missing for r in rows.rows] == [None] * 5 + [f"missing from {s2}"]
    assert rows.rows[-1].pair.reference == REFS["c.py"]
    assert rows.system_field == "model" and rows.systems == ["s1", "s2"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0] == (
        f"1 file of {refs} with no counterpart in {s2} (c.py): each scored as a missing "
        f"translation, 0; 1 file of {s2} with no counterpart in {refs} (d.py): left out")
    with pytest.raises(InputError, match=r"\(c\.py\).*--strict: every file"):
        read_folder_systems(refs, [s1, s2], strict=True)
    empty = write_folder(refs.parent, "s3", {"zzz.py": "1\n"})
    with pytest.raises(InputError, match="system s3: no pairs to score: no file of"):
        read_folder_systems(refs, [s1, empty])


def test_folder_systems_against_sources_by_stem(tmp_path):
    src = write_folder(tmp_path, "src", {"a.java": "class A {}\n", "b.java": "class B {}\n"})
    out = write_folder(tmp_path, "m1", {"a.py": "pass\n", "b.py": "pass\n"})
    rows = read_folder_systems(src, [out, write_folder(tmp_path, "m2", {"b.py": "x\n"})],
                               by_stem=True)
    # m2 lacks a: its missing translation has the id m1's candidate of a has
    assert [(r.system, r.pair.id, r.pair.reference, r.pair.missing) for r in rows.rows] == [
        ("m1", "a.py", "class A {}\n", None), ("m1", "b.py", "class B {}\n", None),
        ("m2", "a.py", "class A {}\n", f"missing from {tmp_path / 'm2'}"),
        ("m2", "b.py", "class B {}\n", None)]


def test_labels_join_by_system_and_id_and_name_what_does_not_match(bench, tmp_path, caplog):
    refs, s1, s2 = bench
    rows = read_folder_systems(refs, [s1, s2])
    caplog.clear()
    labels = _labels(tmp_path / "labels.jsonl", [
        {"model": "s1", "id": "a.py", "ok": True, "task": "A"},
        {"model": "s1", "id": "b.py", "ok": False, "task": "B"},
        {"model": "s1", "id": "c.py", "ok": 1, "task": "C"},
        {"model": "s2", "id": "a.py", "ok": 0.5, "task": "A"},
        {"model": "s2", "id": "c.py", "ok": False, "task": "C"},  # s2's missing c.py
        {"model": "s2", "id": "d.py", "ok": True, "task": "D"},  # d.py has no reference
    ])  # and s2/b.py has no label
    with caplog.at_level(logging.WARNING):
        joined = join_labels(rows, labels, label_field="ok")
    assert [(r.system, r.pair.id, r.label, r.group) for r in joined.rows] == [
        ("s1", "a.py", True, "a.py"), ("s1", "b.py", False, "b.py"), ("s1", "c.py", 1.0, "c.py"),
        ("s2", "a.py", 0.5, "a.py"), ("s2", "b.py", None, "b.py"), ("s2", "c.py", False, "c.py")]
    assert (joined.label_field, joined.group_field) == ("ok", "id")
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "1 label of" in warnings[0] and "names no pair (s2/d.py)" in warnings[0]
    assert "1 pair of" in warnings[0] and "has no label" in warnings[0]
    assert "(s2/b.py)" in warnings[0]
    grouped = join_labels(rows, labels, label_field="ok", group_field="task")
    assert [r.group for r in grouped.rows] == ["A", "B", "C", "A", None, "C"]
    with pytest.raises(InputError, match="s2/d.py.*--strict"):
        join_labels(rows, labels, label_field="ok", strict=True)


@pytest.mark.parametrize(("row", "message"), [
    ({"id": "a.py", "ok": True}, r"labels.jsonl:1: missing 'model': with several systems"),
    ({"model": "s1", "ok": True}, r"labels.jsonl:1: every label needs an 'id'"),
    ({"model": "s1", "id": "a.py", "ok": "yes"}, r"labels.jsonl:1: 'ok' must be a number"),
])
def test_label_errors_name_the_line(bench, tmp_path, row, message):
    refs, s1, s2 = bench
    labels = _labels(tmp_path / "labels.jsonl", [row])
    with pytest.raises(InputError, match=message):
        join_labels(read_folder_systems(refs, [s1, s2]), labels, label_field="ok")


def test_one_folder_with_labels_joins_by_id(bench, tmp_path):
    refs, s1, _ = bench
    labels = _labels(tmp_path / "l.jsonl", [{"id": k, "ok": k != "b.py"} for k in REFS])
    joined = join_labels(read_folder_systems(refs, [s1]), labels, label_field="ok",
                         solo_name="s1")
    assert [(r.system, r.label, r.group) for r in joined.rows] == [
        (None, True, None), (None, False, None), (None, True, None)]
    twice = _labels(tmp_path / "t.jsonl", [{"id": "a.py", "ok": 1}, {"id": "a.py", "ok": 0}])
    with pytest.raises(InputError, match="t.jsonl:2: s1/a.py is labelled twice"):
        join_labels(read_folder_systems(refs, [s1]), twice, label_field="ok", solo_name="s1")


def test_cli_folder_systems_warnings_and_errors(capsys, bench, tmp_path, caplog):
    refs, s1, s2 = bench
    labels = _labels(tmp_path / "labels.jsonl", [
        {"model": m, "id": k, "ok": True} for m in ("s1", "s2") for k in ("a.py", "b.py")])
    code, out, err = run(capsys, "score", refs, s1, s2, "-l", "python", "--labels", labels,
                         "--label-field", "ok", "-f", "jsonl", "-q")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["model"], r["id"], r["ok"]) for r in rows] == [
        ("s1", "a.py", True), ("s1", "b.py", True), ("s1", "c.py", None),
        ("s2", "a.py", True), ("s2", "b.py", True), ("s2", "c.py", None)]
    # s2's missing c.py: 0 on every tier, with the reason
    assert [rows[-1][m] for m in ("ruby", "grs", "trs", "sts", "bleu")] == [0.0] * 5
    assert rows[-1]["reasons"]["ruby"] == (
        f"candidate: missing from {s2} (a missing translation scores 0)")
    caplog.clear()
    code, out, _ = run(capsys, "score", refs, s1, s2, "-l", "python", "-b")
    assert code == 0 and out.splitlines()[0] == "s1\t1.0000"
    mine = [r.getMessage() for r in caplog.records if r.name.endswith("system_folders")]
    assert len(mine) == 1 and "(c.py)" in mine[0] and "(d.py)" in mine[0]
    code, out, err = run(capsys, "score", refs, s1, s2, "-l", "python", "--system-field",
                         "system", "-f", "jsonl", "-q")
    assert code == 0 and json.loads(out.splitlines()[0])["system"] == "s1"
    code, _, err = run(capsys, "score", refs, s1, s2, "-l", "python", "--strict")
    assert code == 2 and "--strict: every file must have a counterpart" in err
    code, _, err = run(capsys, "score", refs, s1, s2, "-l", "python", "--labels", labels)
    assert code == 2 and "name the field holding each label with --label-field" in err
    code, _, err = run(capsys, "score", refs, s1, "-l", "python", "--label-field", "ok")
    assert code == 2 and "--label-field read JSONL fields: give --jsonl FILE, or --labels" in err
    code, _, err = run(capsys, "score", refs, s1, refs / "a.py", "-l", "python")
    assert code == 2 and "a.py: not a folder, but other inputs are" in err
    code, _, err = run(capsys, "meta", "compare", refs, s1, s1, "-l", "python")
    assert code == 2 and "the same system given twice" in err
    code, _, err = run(capsys, "meta", "correlate", refs, s1, s2, "-l", "python",
                       "--label-field", "ok")
    assert code == 2 and "REFS SYSTEM... with --labels FILE" in err


def test_one_folder_and_the_old_forms_still_work(capsys, bench, tmp_path):
    refs, s1, _ = bench
    code, out, _ = run(capsys, "score", refs, s1, "-l", "python", "-b", "-q")
    assert code == 0 and out == "1.0000\n"
    lines = tmp_path / "r.py"
    lines.write_text("x = 1\ny = 2\n")
    other = tmp_path / "h.py"
    other.write_text("x = 1\ny = 3\n")
    code, out, err = run(capsys, "score", lines, lines, other, "-l", "python", "-b")
    assert code == 0, err
    # line-aligned systems are named by their paths, as meta compare names them
    first, second = out.splitlines()
    assert first == f"{lines}\t1.0000" and second.startswith(f"{other}\t0.")


def test_labels_of_one_line_aligned_file_join_by_line(capsys, tmp_path):
    refs, hyps = tmp_path / "r.py", tmp_path / "h.py"
    refs.write_text("x = 1\ny = 2\n")
    hyps.write_text("x = 1\ny = 3\n")
    labels = _labels(tmp_path / "l.jsonl", [{"id": 0, "ok": True}, {"id": 1, "ok": False}])
    code, out, err = run(capsys, "score", refs, hyps, "-l", "python", "--labels", labels,
                         "--label-field", "ok", "-f", "jsonl", "-q")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["ok"], r["ruby"] == 1.0) for r in rows] == [
        (0, True, True), (1, False, False)]
