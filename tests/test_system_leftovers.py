"""The #29 trial's design-level leftovers: a file missing from a system's folder is a failed
translation (0), ``--resume`` with systems matches rows by (system, id), ``meta compare``
says when too few pairs can show no significant difference, the language check speaks on
small inputs, and folder ids come in natural order."""

from __future__ import annotations

import itertools
import json
import logging

import numpy as np
import pytest
from cli_helpers import run, write_folder

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import InputError
from ruby_metric.io.natural_order import natural_key, natural_sorted
from ruby_metric.io.resume import resume_point
from ruby_metric.io.system_folders import read_folder_systems
from ruby_metric.io.units import read_folders
from ruby_metric.meta.sample_size import fewest_pairs_for_significance, significance_floor

A = "x = 1\nprint(x)\n"
B = "y = 2\nprint(y + 1)\n"
C = "total = 0\nfor i in range(3):\n    total += i\nprint(total)\n"
JAVA = "class A {\n    int f(int x) {\n        return x + 1;\n    }\n}\n"


@pytest.fixture
def bench(tmp_path):
    """refs/ a.py b.py c.py; s1/ all three, equal to the references; s2/ lacks c.py."""
    refs = write_folder(tmp_path, "refs", {"a.py": A, "b.py": B, "c.py": C})
    s1 = write_folder(tmp_path, "s1", {"a.py": A, "b.py": B, "c.py": C})
    s2 = write_folder(tmp_path, "s2", {"a.py": A, "b.py": B})
    return refs, s1, s2


# ------------------------------------------------------------ a missing file is a failure


def test_a_missing_file_scores_zero_and_does_not_reward_its_system(bench, capsys, caplog):
    refs, s1, s2 = bench
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", refs, s1, s2, "-l", "python", "-b")
    assert code == 0, err
    # before: s2 was averaged over the two files it has, 1.0000, beside s1's 1.0000
    assert out == "s1\t1.0000\ns2\t0.6667\n"
    warned = [r.getMessage() for r in caplog.records if "no counterpart" in r.getMessage()]
    assert warned == [f"1 file of {refs} with no counterpart in {s2} (c.py): each scored as "
                      "a missing translation, 0"]
    code, out, err = run(capsys, "score", refs, s1, s2, "-l", "python", "-f", "json", "-q")
    data = json.loads(out)
    missing = data["pairs"][-1]
    assert (missing["model"], missing["id"]) == ("s2", "c.py")
    assert {m: missing[m] for m in ("ruby", "grs", "trs", "sts", "bleu")} == dict.fromkeys(
        ("ruby", "grs", "trs", "sts", "bleu"), 0.0)
    assert missing["tier"] == "graph"
    reason = f"candidate: missing from {s2} (a missing translation scores 0)"
    assert {k: v for k, v in missing["reasons"].items() if k != "crystalbleu"} == dict.fromkeys(
        ("ruby", "grs", "trs", "sts", "bleu"), reason)
    # the corpus BLEU counts the missing reference's length, as an empty output's
    empty = RubyScorer("python").score_corpus([A, B, C], [A, B, ""])
    assert data["systems"]["s2"]["bleu"] == empty.bleu < 1.0
    assert data["systems"]["s2"]["pairs"] == 3
    assert data["systems"]["s2"]["grs"] == pytest.approx(2 / 3)
    # --strict: still an error
    code, _, err = run(capsys, "score", refs, s1, s2, "-l", "python", "--strict")
    assert code == 2 and "(c.py) (--strict: every file must have a counterpart)" in err
    # explain says it is missing and why it scores 0 (tests/test_trial_leftovers.py)
    code, out, err = run(capsys, "explain", "--pair", "c.py", refs, s2, "-l", "python", "-q")
    assert code == 0 and out.startswith(
        f"RUBY explanation (python): a missing translation (missing from {s2})\n")


def test_against_sources_a_missing_file_takes_the_id_of_the_others(tmp_path, capsys):
    src = write_folder(tmp_path, "src", {"A.java": JAVA, "B.java": JAVA})
    m1 = write_folder(tmp_path, "m1", {"A.py": "def f(x):\n    return x + 1\n", "B.py": "pass\n"})
    m2 = write_folder(tmp_path, "m2", {"B.py": "pass\n", "notes.txt": "n"})
    rows = read_folder_systems(src, [m1, m2], by_stem=True)
    assert [(r.system, r.pair.id, r.pair.missing) for r in rows.rows] == [
        ("m1", "A.py", None), ("m1", "B.py", None), ("m2", "A.py", f"missing from {m2}"),
        ("m2", "B.py", None)]
    # one folder: the id takes the extension its candidates share
    only = write_folder(tmp_path, "only", {"B.py": "pass\n"})
    assert [p.id for p in read_folders(src, only, by_stem=True)] == ["A.py", "B.py"]
    code, out, err = run(capsys, "score", src, m1, m2, "-l", "python", "--source-lang", "java",
                         "-f", "jsonl", "-q")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    missing = [r for r in lines if r["model"] == "m2" and r["id"] == "A.py"]
    assert len(missing) == 1
    assert (missing[0]["ruby"], missing[0]["grs"], missing[0]["trs"]) == (0.0, 0.0, 0.0)
    # BLEU & co. are not comparable across languages for any candidate: still undefined
    assert missing[0]["bleu"] is None and missing[0]["mode"] == "source"


def test_meta_compare_compares_systems_on_the_same_ids(bench, capsys):
    refs, s1, s2 = bench
    code, out, err = run(capsys, "meta", "compare", refs, s1, s2, "-l", "python",
                         "--metrics", "ruby", "--trials", "99", "--bootstrap", "50",
                         "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["missing_ids"] == {}
    comparison = data["comparisons"][0]
    assert comparison["pairs"] == 3
    assert comparison["metrics"]["ruby"]["score_b"] == pytest.approx(2 / 3)


# ------------------------------------------------------------------ --resume with systems


def test_resume_with_folder_systems_and_labels_matches_rows_by_system_and_id(
        bench, tmp_path, capsys):
    refs, s1, s2 = bench
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(
        json.dumps({"model": m, "id": k, "ok": m == "s1" or k != "c.py"}) + "\n"
        for m in ("s1", "s2") for k in ("a.py", "b.py", "c.py")))
    argv = ["score", refs, s1, s2, "-l", "python", "--labels", labels, "--label-field", "ok",
            "-f", "jsonl"]
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert run(capsys, *argv, "-o", full)[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    assert len(lines) == 6
    # s1's three lines and s2's first, then a Ctrl-C mid-line: a.py is s1's and s2's id
    part.write_text("".join(lines[:4]) + lines[4][:20])
    code, _, err = run(capsys, *argv, "-o", part, "--resume")
    assert code == 0, err
    assert part.read_text() == full.read_text()
    assert "2 pairs scored in this run only (resumed: 4 pairs already in" in err
    code, _, err = run(capsys, *argv, "-o", part, "--resume")
    assert code == 0 and part.read_text() == full.read_text()


def test_resume_with_a_jsonl_of_systems_whose_pairs_are_equal(tmp_path, capsys):
    # m1 and m2 wrote the same candidate for t0: the pair differs only by its system
    rows = [{"id": f"t{i}", "model": m, "reference": r, "candidate": A if i == 0 else c}
            for m, outs in (("m1", [A, B, C]), ("m2", [A, "pass\n", B]))
            for i, (r, c) in enumerate(zip([A, B, C], outs, strict=True))]
    rows.append({"id": "t0", "model": "m3", "reference": A, "candidate": B})
    src = tmp_path / "p.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    argv = ["score", "--jsonl", src, "-l", "python", "--system-field", "model", "-f", "jsonl"]
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert run(capsys, *argv, "-o", full)[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    part.write_text(lines[0] + lines[4] + lines[2])  # written out of order: keys, not lines
    code, _, err = run(capsys, *argv, "-o", part, "--resume")
    assert code == 0, err
    resumed = [json.loads(line) for line in part.read_text().splitlines()]
    assert sorted(map(json.dumps, resumed)) == sorted(
        json.dumps(json.loads(line)) for line in lines)
    # m3 lacks t1 and t2: its missing translations (scored 0) are resumed like any pair
    assert [(r["model"], r["id"]) for r in resumed[3:]] == [
        ("m1", "t1"), ("m2", "t0"), ("m2", "t2"), ("m3", "t0"), ("m3", "t1"), ("m3", "t2")]
    # a file written without systems cannot be matched by system: refused, left as it is
    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"id": "t0", "ruby": 1.0, "tier": "graph", "reasons": {}}\n')
    code, _, err = run(capsys, *argv, "-o", plain, "--resume")
    assert code == 2 and f"{plain}:1: no 'model': a run with several systems" in err
    assert plain.read_text() == '{"id": "t0", "ruby": 1.0, "tier": "graph", "reasons": {}}\n'


def test_resume_point_keys_by_system_and_id(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": "a.py", "ruby": 1.0, "tier": "graph", "reasons": {}, '
                    '"model": "s1"}\n{"id": 3, "ruby": 0.0, "tier": "string", "reasons": {}, '
                    '"model": "s2"}\n')
    assert resume_point(path, system_field="model").ids == {'["s1", "a.py"]', '["s2", 3]'}
    assert resume_point(path).ids == {'"a.py"', "3"}
    with pytest.raises(InputError, match="s.jsonl:1: no 'system'"):
        resume_point(path, system_field="system")


# ------------------------------------------------------- meta compare on too few pairs


@pytest.mark.parametrize("n", range(1, 9))
def test_the_significance_floor_is_the_exact_sign_flip_test_s_smallest_p(n):
    # an independent count: every one of the 2^n sign flips of n same-sign differences;
    # only the observed one and its mirror reach the observed |sum|
    d = np.arange(1, n + 1, dtype=float)
    flips = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
    exact = float(np.mean(np.abs(flips @ d) >= d.sum() - 1e-12))
    assert significance_floor(n) == exact == 2 / 2 ** n


def test_fewest_pairs_for_significance_by_level_and_comparisons():
    # 2/2^5 = 0.0625 > 0.05 >= 2/2^6; Holm over 3: 3 * 2/2^6 = 0.094 > 0.05 >= 3 * 2/2^7
    assert fewest_pairs_for_significance(0.95) == 6
    assert fewest_pairs_for_significance(0.95, comparisons=3) == 7
    assert fewest_pairs_for_significance(0.99) == 8  # 2/2^8 = 0.0078 <= 0.01 < 2/2^7
    assert significance_floor(2000) == 0.0  # no overflow


def test_meta_compare_warns_once_when_no_difference_can_be_significant(bench, tmp_path, capsys,
                                                                      caplog):
    refs, s1, s2 = bench
    s3 = write_folder(tmp_path, "s3", {"a.py": B, "b.py": A, "c.py": C})
    argv = ["--metrics", "sts", "--trials", "99", "--bootstrap", "50"]
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "meta", "compare", refs, s1, s2, "-l", "python", *argv)
    assert code == 0, err
    few = [r.getMessage() for r in caplog.records if "too few pairs" in r.getMessage()]
    assert len(few) == 1
    assert few[0].startswith("too few pairs for a difference to be significant at 0.05: ")
    assert "so it takes 6 pairs: s1 vs s2 on 3 pairs (p >= 0.25);" in few[0]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "meta", "compare", refs, s1, s2, s3, "-l", "python", *argv)
    few = [r.getMessage() for r in caplog.records if "too few pairs" in r.getMessage()]
    assert len(few) == 1  # once for the three comparisons
    assert ("Holm multiplies the smallest of 3 comparisons' p-values by 3, so it takes 7 "
            "pairs: s1 vs s2 on 3 pairs (p >= 0.75); s1 vs s3 on 3 pairs (p >= 0.75); "
            "s2 vs s3 on 3 pairs (p >= 0.75);") in few[0]
    # two line-aligned files: the A-vs-B table warns as well
    r, h = tmp_path / "r.py", tmp_path / "h.py"
    r.write_text("x = 1\ny = 2\n")
    h.write_text("x = 1\ny = 3\n")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "meta", "compare", r, r, h, "-l", "python", *argv)
    assert code == 0, err
    few = [r.getMessage() for r in caplog.records if "too few pairs" in r.getMessage()]
    assert len(few) == 1 and f"{r} vs {h} on 2 pairs (p >= 0.5)" in few[0]


def test_meta_compare_is_silent_from_six_pairs(tmp_path, capsys, caplog):
    texts = [f"v{i} = {i}\nprint(v{i})\n" for i in range(6)]
    refs = write_folder(tmp_path, "refs", {f"{i}.py": t for i, t in enumerate(texts)})
    s1 = write_folder(tmp_path, "s1", {f"{i}.py": t for i, t in enumerate(texts)})
    s2 = write_folder(tmp_path, "s2", {f"{i}.py": "pass\n" for i in range(6)})
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "meta", "compare", refs, s1, s2, "-l", "python", "--metrics",
                           "sts", "--trials", "99", "--bootstrap", "50")
    assert code == 0, err
    assert not [r for r in caplog.records if "too few pairs" in r.getMessage()]


# ------------------------------------------------------ the language check on small inputs


def _language_warnings(caplog, references, candidates, language):
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        RubyScorer(language).score_corpus(references, candidates)
    return [r.getMessage() for r in caplog.records if "is the language right" in r.getMessage()]


def test_the_language_check_speaks_under_ten_pairs_when_every_reference_fails(caplog):
    java = ["int f(int x) { return x + 1; }", "class A { void g() { h(); } }",
            "for (int i = 0; i < n; i++) { s += i; }"]
    # before: silent under 10 pairs
    assert _language_warnings(caplog, java, java, "python") == [
        "the references of 3 of 3 pairs do not parse cleanly as python (first: pair 0, "
        "reference: parse error at line 1, col 1): is the language right?"]
    assert _language_warnings(caplog, java, java, "java") == []
    # two of three: a fragment or two among good code says too little
    assert _language_warnings(caplog, [*java[:2], "x = 1"], java, "python") == []


# ---------------------------------------------------------------------- natural order


def test_folder_ids_come_in_natural_order(tmp_path, caplog):
    files = {f"{n}/Solution.py": f"print({n})\n" for n in (10, 2, 1, 100, 9)}
    refs = write_folder(tmp_path, "refs", files)
    hyps = write_folder(tmp_path, "hyps",
                        {k: v for k, v in files.items() if not k.startswith("9/")})
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        pairs = read_folders(refs, hyps)
    assert [p.id for p in pairs] == [
        "1/Solution.py", "2/Solution.py", "9/Solution.py", "10/Solution.py", "100/Solution.py"]
    assert pairs[2].missing == f"missing from {hyps}"
    other = write_folder(tmp_path, "other", {"10/Solution.py": "x\n", "2/Solution.py": "y\n"})
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        rows = read_folder_systems(refs, [hyps, other])
    assert [r.pair.id for r in rows.rows if r.system == "other"] == [
        "1/Solution.py", "2/Solution.py", "9/Solution.py", "10/Solution.py", "100/Solution.py"]
    assert caplog.records[-1].getMessage().endswith(
        f"3 files of {refs} with no counterpart in {other} (1/Solution.py, 9/Solution.py, "
        "100/Solution.py): each scored as a missing translation, 0")


def test_natural_key_is_a_total_deterministic_order():
    ids = ["a10", "a9", "a", "a02", "a2", "b1", "10", "9", "", "a2b", "a2a"]
    assert natural_sorted(ids) == ["", "9", "10", "a", "a02", "a2", "a2a", "a2b", "a9", "a10",
                                   "b1"]
    assert natural_sorted(reversed(ids)) == natural_sorted(ids)
    assert natural_key("02") != natural_key("2") and natural_key(3) == natural_key("3")
