"""Systems and labels (issue 29): one JSONL split into systems by a field, pairs matched by
id, every pair of systems tested with p-values adjusted for the number of comparisons,
labels carried into every output, the within-group AUC like for like, and a null reference
meaning the same in every command."""

from __future__ import annotations

import csv
import io
import json
import logging
from pathlib import Path

import pytest
from cli_helpers import run

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import InputError, PairInput
from ruby_metric.io.systems import SystemRow, SystemsInput, read_aligned_systems, read_jsonl_systems
from ruby_metric.meta import compare_results, within_group_like_for_like
from ruby_metric.meta.systems import compare_many, holm, subset_corpus

REFS = ["x = a + b\nprint(x)", "for i in range(n):\n    s += i", "y = f(1, 2)", "z = 0"]
OUTS = {
    "good": list(REFS),
    "near": ["x = a - b\nprint(x)", "for i in range(n):\n    s -= i", "y = f(2, 1)", "z = 1"],
    "bad": ["print(0)", "pass", "y = 0", "z"],
}


def _rows(systems=OUTS, labels=True):
    rows = []
    for system, outs in systems.items():
        for i, (ref, out) in enumerate(zip(REFS, outs, strict=True)):
            row = {"id": f"t{i}", "model": system, "reference": ref, "candidate": out,
                   "task": f"task{i % 2}"}
            if labels:
                row["passed"] = out == ref
            rows.append(row)
    return rows


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def judged(tmp_path):
    return _write(tmp_path / "systems.jsonl", _rows())


# ------------------------------------------------------------------------ reading


def test_reader_splits_by_field_with_labels_groups_and_ids(judged, caplog):
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        rows = read_jsonl_systems(judged, system_field="model", label_field="passed",
                                  group_field="task")
    # the fields asked for are known keys: no "unknown key" warning for them
    assert caplog.records == []
    assert rows.systems == ["good", "near", "bad"]
    assert [r.label for r in rows.rows[:5]] == [True, True, True, True, False]
    assert rows.rows[1].group == "task1" and rows.rows[1].group_key == ("str", "task1")
    assert rows.indices("near") == [4, 5, 6, 7]
    assert rows.shared("good", "bad") == [(0, 8), (1, 9), (2, 10), (3, 11)]
    assert rows.extras(4) == {"model": "near", "passed": False}
    assert rows.missing() == {}


def test_reader_matches_by_id_not_position(tmp_path):
    rows = _rows()
    # system "near" lists its pairs in another order and lacks t3
    near = [r for r in rows if r["model"] == "near"][:3][::-1]
    data = [r for r in rows if r["model"] != "near"] + near
    got = read_jsonl_systems(_write(tmp_path / "x.jsonl", data), system_field="model")
    # the t3 near lacks is its missing translation, after its last row (no id of near
    # comes after t3)
    assert got.missing() == {}
    assert got.rows[11].pair.missing == "missing from the JSONL for model near"
    pairs = [(got.rows[a].pair.id, got.rows[b].pair.id) for a, b in got.shared("good", "near")]
    assert pairs == [("t0", "t0"), ("t1", "t1"), ("t2", "t2"), ("t3", "t3")]
    assert got.shared("good", "near") == [(0, 10), (1, 9), (2, 8), (3, 11)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("id"), "x.jsonl:2: no 'id': pairs of different systems are matched"),
        (lambda r: r.pop("model"), "x.jsonl:2: missing 'model'"),
        (lambda r: r.update(id="t0"), "x.jsonl:2: id 't0' appears twice for model 'good' "
                                      "(also line 1)"),
        (lambda r: r.update(passed="yes"), "x.jsonl:2: 'passed' must be a number or true/"),
        (lambda r: r.update(model=[1]), "x.jsonl:2: 'model' must be a string or an integer"),
    ],
)
def test_reader_errors_name_the_line(tmp_path, change, message):
    rows = _rows()
    change(rows[1])
    path = _write(tmp_path / "x.jsonl", rows)
    with pytest.raises(InputError) as exc:
        read_jsonl_systems(path, system_field="model", label_field="passed")
    assert str(exc.value).startswith(f"{tmp_path}/{message}")


def test_aligned_systems_are_matched_by_line(tmp_path):
    refs = tmp_path / "refs.py"
    refs.write_text("a = 1\nb = 2\n")
    paths = []
    for name in ("s1", "s2", "s3"):
        (tmp_path / name).write_text("a = 1\nb = 3\n")
        paths.append(str(tmp_path / name))
    got = read_aligned_systems(refs, paths)
    assert got.systems == paths and got.shared(paths[0], paths[2]) == [(0, 4), (1, 5)]
    with pytest.raises(InputError, match="the same system given twice"):
        read_aligned_systems(refs, [paths[0], paths[0]])


# ------------------------------------------------------------------------ statistics


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1 -> 0.03, 0.06, 0.04 -> monotone 0.03, 0.06, 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, None, 0.2]) == [0.5, None, 0.4]
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # capped at 1
    assert holm([]) == []


def test_subset_corpus_equals_scoring_the_subset_alone():
    scorer = RubyScorer("python", metrics=["ruby", "sts", "bleu"])
    refs = REFS * 2
    cands = OUTS["near"] + OUTS["bad"]
    whole = scorer.score_corpus(refs, cands)
    sub = subset_corpus(whole, [4, 5, 6, 7])
    alone = scorer.score_corpus(REFS, OUTS["bad"])
    assert sub.bleu == pytest.approx(alone.bleu, abs=1e-12)
    assert sub.means["ruby"] == pytest.approx(alone.means["ruby"], abs=1e-12)
    assert sub.counts == alone.counts and len(sub.pairs) == 4


def test_compare_many_is_every_pair_with_holm():
    scorer = RubyScorer("python", metrics=["ruby", "sts", "bleu"])
    rows = tuple(
        SystemRow(PairInput(f"t{i}", ref, out), system)
        for system, outs in OUTS.items() for i, (ref, out) in enumerate(zip(REFS, outs,
                                                                             strict=True))
    )
    systems = SystemsInput(rows, "x")
    corpus = scorer.score_pairs([r.pair for r in rows])
    many = compare_many(systems, corpus, metrics=["ruby", "sts", "bleu"], trials=199,
                        bootstrap=100, seed=3)
    assert [(c.a, c.b) for c in many.comparisons] == [
        ("good", "near"), ("good", "bad"), ("near", "bad")]
    # each comparison is compare_results on the two systems scored on their own
    alone = {s: scorer.score_corpus(REFS, outs) for s, outs in OUTS.items()}
    for c in many.comparisons:
        direct = compare_results(alone[c.a], alone[c.b], metrics=["ruby", "sts", "bleu"],
                                 trials=199, bootstrap=100, seed=3)
        for metric in ("ruby", "sts", "bleu"):
            assert c.report[metric].difference == pytest.approx(direct[metric].difference)
            assert c.report[metric].p_value_randomization == direct[metric].p_value_randomization
    for test, name in (("randomization", "p_value_randomization"),
                       ("bootstrap", "p_value_bootstrap")):
        raw = [getattr(c.report["ruby"], name) for c in many.comparisons]
        assert [c.adjusted["ruby"][test] for c in many.comparisons] == holm(raw)
    data = many.to_dict()
    assert list(data["systems"]) == ["good", "near", "bad"] and len(data["comparisons"]) == 3
    assert data["comparisons"][0]["metrics"]["ruby"]["p_value_bootstrap_adjusted"] is not None


def test_within_group_like_for_like_judges_every_metric_on_the_same_candidates():
    # task a: pass 0.9 / fail 0.1 for both metrics; task b: metric y is undefined on the pass,
    # so b leaves out both metrics' candidate there, and both AUCs are task a's alone.
    scores = {"x": [0.9, 0.1, 0.2, 0.8], "y": [0.9, 0.1, None, 0.3], "z": [None] * 4}
    out, left = within_group_like_for_like(scores, [1, 0, 1, 0], "aabb", bootstrap=0)
    assert left == 1
    assert (out["x"].value, out["x"].n, out["x"].groups) == (1.0, 2, 1)
    assert (out["y"].value, out["y"].n) == (1.0, 2)
    assert out["z"].n == 0  # undefined everywhere: does not narrow the others, reports none
    assert out["x"].left_out_groups == 1 and out["x"].left_out_items == 1


# ------------------------------------------------------------------------ CLI

FAST = ("--metrics", "ruby,sts,bleu")


def test_score_prints_a_corpus_block_per_system(capsys, judged):
    code, out, err = run(capsys, "score", "--jsonl", judged, "-l", "python", *FAST,
                         "--system-field", "model", "--label-field", "passed")
    assert code == 0, err
    blocks = out.split("== model ")
    assert [b.split(" ==")[0] for b in blocks[1:]] == ["good", "near", "bad"]
    assert "RUBY         1.0000  (mean of 4)" in blocks[1]  # every candidate is its reference
    code, out, _ = run(capsys, "score", "--jsonl", judged, "-l", "python", *FAST,
                       "--system-field", "model", "-b")
    lines = out.splitlines()
    assert lines[0] == "good\t1.0000" and [line.split("\t")[0] for line in lines] == [
        "good", "near", "bad"]


def test_score_rows_carry_system_and_label_in_every_format(capsys, judged):
    argv = ("score", "--jsonl", judged, "-l", "python", *FAST, "--system-field", "model",
            "--label-field", "passed")
    code, out, _ = run(capsys, *argv, "-f", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and list(rows[4])[:3] == ["id", "model", "passed"]
    assert (rows[4]["model"], rows[4]["passed"], rows[0]["passed"]) == ("near", False, True)
    code, out, _ = run(capsys, *argv, "-f", "csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and (table[8]["model"], table[8]["passed"]) == ("bad", "False")
    code, out, _ = run(capsys, *argv, "-f", "json")
    data = json.loads(out)
    assert code == 0 and data["pairs"][5]["model"] == "near"
    assert data["systems"]["good"]["ruby"] == 1.0 and data["systems"]["bad"]["pairs"] == 4
    # the mean of a system's block is the mean of its rows
    near = [p["ruby"] for p in data["pairs"] if p["model"] == "near"]
    assert data["systems"]["near"]["ruby"] == pytest.approx(sum(near) / 4)
    # a label without systems is carried too
    code, out, _ = run(capsys, "score", "--jsonl", judged, "-l", "python", *FAST,
                       "--label-field", "passed", "-f", "jsonl")
    assert code == 0 and json.loads(out.splitlines()[1])["passed"] is True


def test_field_options_need_jsonl_and_free_names(capsys, judged, tmp_path):
    refs = tmp_path / "r.py"
    refs.write_text("a = 1\n")
    code, _, err = run(capsys, "score", refs, refs, "-l", "python", "--system-field", "model")
    assert code == 2 and "--system-field read JSONL fields: give --jsonl FILE" in err
    code, _, err = run(capsys, "score", "--jsonl", judged, "-l", "python",
                       "--label-field", "ruby")
    assert code == 2 and "field 'ruby' is also a column of the results" in err


def test_meta_compare_jsonl_every_pair_adjusted(capsys, judged):
    argv = ("meta", "compare", "--jsonl", judged, "-l", "python", *FAST, "--system-field",
            "model", "--label-field", "passed", "--trials", "199", "--bootstrap", "100")
    code, out, err = run(capsys, *argv, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [(c["a"], c["b"]) for c in data["comparisons"]] == [
        ("good", "near"), ("good", "bad"), ("near", "bad")]
    assert data["systems"]["good"]["labels"] == "4/4 true"
    raw = [c["metrics"]["sts"]["p_value_randomization"] for c in data["comparisons"]]
    assert [c["metrics"]["sts"]["p_value_randomization_adjusted"]
            for c in data["comparisons"]] == holm(raw)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "3 systems (by 'model')" in out and "adjusted for 3 (Holm)" in out
    assert "A = near, B = bad: 4 paired ids" in out


def test_meta_compare_three_aligned_files_and_errors(capsys, tmp_path, judged):
    refs = tmp_path / "refs.py"
    refs.write_text("\n".join(r.replace("\n", "; ") for r in REFS) + "\n")
    files = []
    for name, outs in OUTS.items():
        files.append(tmp_path / f"{name}.py")
        files[-1].write_text("\n".join(o.replace("\n", "; ") for o in outs) + "\n")
    code, out, err = run(capsys, "meta", "compare", refs, *files, "-l", "python", *FAST,
                         "--trials", "99", "--bootstrap", "50")
    assert code == 0, err
    assert out.count("paired id") == 3
    code, _, err = run(capsys, "meta", "compare", "--jsonl", judged, "-l", "python")
    assert code == 2 and "needs --system-field FIELD" in err
    code, _, err = run(capsys, "meta", "compare", refs, files[0], "-l", "python")
    assert code == 2 and "needs at least two systems" in err


def test_meta_compare_names_missing_ids(capsys, tmp_path, caplog):
    rows = [r for r in _rows() if not (r["model"] == "bad" and r["id"] == "t3")]
    path = _write(tmp_path / "x.jsonl", rows)
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "meta", "compare", "--jsonl", path, "-l", "python", *FAST,
                             "--system-field", "model", "--trials", "99", "--bootstrap", "50")
    assert code == 0, err
    # the id bad lacks is its missing translation (scored 0), so every pair of systems is
    # compared on all 4 ids
    assert any("missing from a system (model/id: bad/t3)" in r.getMessage()
               for r in caplog.records)
    assert "has no pair for" not in out
    assert "A = good, B = bad: 4 paired ids" in out and "A = good, B = near: 4 paired" in out


def test_correlate_with_label_field_systems_and_groups(capsys, judged):
    argv = ("meta", "correlate", "--jsonl", judged, "-l", "python", *FAST, "--bootstrap", "0",
            "-f", "json")
    code, out, err = run(capsys, *argv, "--label-field", "passed", "--system-field", "model",
                         "--group-field", "task")
    assert code == 0, err
    data = json.loads(out)
    code, out2, _ = run(capsys, *argv, "--human-field", "passed", "--system-field", "model",
                        "--group-field", "task")
    assert json.loads(out2)["metrics"] == data["metrics"]  # the same field by either name
    assert data["pairs"] == 12 and list(data["systems"]) == ["good", "near", "bad"]
    assert data["systems"]["near"]["pairs"] == 4
    # pooled, each task has 2 passing (good) and 4 failing candidates: every metric scores
    # an exact copy higher than anything else, so the within-task AUC is 1 with 16 pairs
    within = data["metrics"]["ruby"]["within_group"]
    assert (within["auc"], within["n"], within["pairs"], within["groups"]) == (1.0, 12, 16, 2)
    code, _, err = run(capsys, *argv, "--label-field", "passed", "--human-field", "other")
    assert code == 2 and "name different fields" in err
    code, _, err = run(capsys, *argv)
    assert code == 2 and "needs the judgment field: --label-field FIELD" in err


def test_null_reference_is_one_unreadable_pair_in_every_command(capsys, tmp_path, caplog):
    rows = _rows()
    rows[2]["reference"] = None  # good/t2
    rows[6]["reference"] = None  # near/t2
    path = _write(tmp_path / "null.jsonl", rows)
    why = "'reference' is null (nothing to score the candidate against)"
    base = ("--jsonl", path, "-l", "python", *FAST, "--system-field", "model")

    def warned() -> bool:
        found = any("2 of 12 pairs cannot be read" in r.getMessage() and why in r.getMessage()
                    for r in caplog.records)
        caplog.clear()
        return found

    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", *base, "-f", "json")
        assert code == 0 and warned(), err
        data = json.loads(out)
        assert [p["id"] for p in data["pairs"] if "input" in p["reasons"]] == ["t2", "t2"]
        assert data["systems"]["good"]["counts"]["ruby"] == 3
        code, out, err = run(capsys, "meta", "compare", *base, "--trials", "99", "--bootstrap",
                             "20", "-f", "json")
        assert code == 0 and warned(), err
        data = json.loads(out)
        assert [data["systems"][s]["unreadable"] for s in ("good", "near", "bad")] == [1, 1, 0]
        assert data["comparisons"][0]["metrics"]["ruby"]["n"] == 3  # t2 left out, counted
        code, out, err = run(capsys, "meta", "correlate", *base, "--label-field", "passed",
                             "--bootstrap", "0")
        assert code == 0 and warned(), err
        assert "2 unreadable left out" in out and why in out
        code, _, err = run(capsys, "meta", "correlate", *base, "--label-field", "passed",
                           "--strict")
        assert code == 2 and why in err and "--strict" in err
        page = tmp_path / "page.html"
        code, _, err = run(capsys, "report", *base, "-o", page)
        assert code == 0 and warned(), err
    html = page.read_text()
    assert '<tr id="system-good"><td><b>good</b></td><td class="num">4</td>' \
           '<td class="num">1</td>' in html


def test_report_puts_systems_side_by_side_with_labels(capsys, judged, tmp_path):
    page = tmp_path / "page.html"
    code, _, err = run(capsys, "report", "--jsonl", judged, "-l", "python", *FAST,
                       "--system-field", "model", "--label-field", "passed", "-o", page,
                       "--worst", "3")
    assert code == 0, err
    html = page.read_text()
    assert "3 systems by <code>model</code>" in html
    for name, passed in (("good", "4/4 true"), ("near", "0/4 true"), ("bad", "0/4 true")):
        assert f'id="system-{name}"' in html
        row = html[html.index(f'id="system-{name}"'):]
        assert f'<td class="num">{passed}</td></tr>' in row[: row.index("</tr>") + 5]
    table = html[html.index('id="worst-table"'):]
    assert "<th>model</th><th>passed</th>" in table[:300]
    assert "<td>bad</td><td>false</td>" in table


def test_meta_compare_matches_by_id_whatever_the_order(capsys, tmp_path):
    rows = _rows()
    shuffled = rows[:4] + rows[4:8][::-1] + [rows[9], rows[8], rows[11], rows[10]]
    argv = ("-l", "python", *FAST, "--system-field", "model", "--trials", "199",
            "--bootstrap", "100", "-f", "json")
    results = []
    for name, data in (("in_order", rows), ("shuffled", shuffled)):
        code, out, err = run(capsys, "meta", "compare", "--jsonl",
                             _write(tmp_path / f"{name}.jsonl", data), *argv)
        assert code == 0, err
        results.append(json.loads(out)["comparisons"])
    assert results[0] == results[1]
    assert results[0][0]["metrics"]["ruby"]["n"] == 4


BENCHMARK = Path(__file__).resolve().parents[1] / "fixtures" / "translation_benchmark"


def test_a_label_field_no_line_has_is_an_error_not_null_labels(capsys):
    """A misspelt --label-field would label every pair null: an error naming the field."""
    code, _, err = run(capsys, "score", "--jsonl", BENCHMARK / "pairs.jsonl", "--lang", "python",
                       "--system-field", "model", "--label-field", "pased", "-b")
    assert code == 2
    assert "pairs.jsonl: no line has the label field 'pased'" in err
    code, _, err = run(capsys, "score", BENCHMARK / "references", BENCHMARK / "systems" / "coder-l",
                       BENCHMARK / "systems" / "coder-m", "--lang", "python", "--labels",
                       BENCHMARK / "labels.jsonl", "--label-field", "pased", "-b")
    assert code == 2
    assert ("labels.jsonl: no line has the label field 'pased'; its fields: id, "
            "model, passed, task") in err
    code, out, _ = run(capsys, "score", "--jsonl", BENCHMARK / "pairs.jsonl", "--lang", "python",
                       "--system-field", "model", "--label-field", "passed", "-b")
    assert code == 0 and out.split() == ["coder-l", "0.6108", "coder-m", "0.8145",
                                         "coder-s", "0.9220"]


def test_the_table_shows_each_pairs_label_after_its_id(tmp_path, capsys):
    path = tmp_path / "p.jsonl"
    pairs = {"a": ("int x = 1;", "int x = 1;"), "b": ("int y = 2;", "int y = 3;"),
             "a2": ("int x = 1;", "int x = 2;"), "b2": ("int y = 2;", "int y = 2;")}
    rows = [{"id": key[0], "model": "m1" if len(key) == 1 else "m2", "reference": ref,
             "candidate": cand} for key, (ref, cand) in pairs.items()]
    for row, label in zip(rows, (True, False, 0.5), strict=False):
        row["ok"] = label
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = run(capsys, "score", "--jsonl", path, "-l", "java", "--system-field",
                         "model", "--label-field", "ok")
    assert code == 0, err
    cells = [line.split()[:3] for line in out.splitlines()
             if line[:2] in ("a ", "b ", "id")]
    # each system's block: the label of each of its pairs, JSON's spelling, "-" for none
    assert [c[:2] for c in cells] == [["id", "ok"], ["a", "true"], ["b", "false"],
                                      ["id", "ok"], ["a", "0.5"], ["b", "-"]]
    assert cells[1][2] == cells[5][2] == "1.0000"  # the two identical pairs, after the label
    # without --label-field, no such column
    code, out, _ = run(capsys, "score", "--jsonl", path, "-l", "java", "--system-field", "model")
    assert out.splitlines()[1].split()[:2] == ["id", "ruby"]
