"""``ruby-metric meta``: outputs, seeds, and exit status 2 with file:line on bad input."""

import json

import pytest

from ruby_metric.cli import meta as meta_cli

FAST = ["--lang", "java", "--metrics", "sts,crystalbleu,bleu"]

PROGRAMS = {
    "sum": [
        "int s = 0; for (int v : a) s += v; return s;",
        "int total = 0; for (int i = 0; i < a.length; i++) total += a[i]; return total;",
        "return Arrays.stream(a).sum();",
    ],
    "max": [
        "int m = a[0]; for (int v : a) if (v > m) m = v; return m;",
        "return Arrays.stream(a).max().getAsInt();",
        "int best = a[0]; for (int i = 1; i < a.length; i++) best = Math.max(best, a[i]);"
        " return best;",
    ],
}


def run(capsys, *argv):
    code = meta_cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def classes(tmp_path):
    path = tmp_path / "classes.jsonl"
    lines = [
        json.dumps({"class": c, "code": code}) for c, codes in PROGRAMS.items() for code in codes
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_distinguishability_json_and_table(capsys, classes):
    code, out, err = run(capsys, "distinguishability", "--classes", classes, *FAST, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["exact"] is True and data["pairs"] == {"intra": 12, "inter": 18}
    bleu = data["metrics"]["bleu"]
    for key in ("d", "intra", "inter", "d_ci", "corpus_d", "classifier"):
        assert key in bleu
    assert set(data["metrics"]) == {"sts", "crystalbleu", "bleu"}
    code, out, _ = run(capsys, "distinguishability", "--classes", classes, *FAST, "--pairs", "5")
    assert code == 0 and "sampled 5 intra + 5 inter" in out and "CrystalBLEU" in out


def test_distinguishability_is_reproducible_with_a_seed(capsys, classes):
    argv = ["distinguishability", "--classes", classes, *FAST, "--pairs", "6", "-f", "json"]
    outs = [run(capsys, *argv, "--seed", seed)[1] for seed in (1, 1, 2)]
    first, again, other = (json.loads(o) for o in outs)
    del first["seconds"], again["seconds"], other["seconds"]
    assert first == again and first != other


def test_distinguishability_input_errors(capsys, tmp_path, classes):
    code, _, err = run(capsys, "distinguishability", "--classes", tmp_path / "nope.jsonl", *FAST)
    assert code == 2 and "nope.jsonl: no such file" in err and err.count("\n") == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"class": "a", "code": "x"}\n{"class": "a", "code": \n')
    code, _, err = run(capsys, "distinguishability", "--classes", bad, *FAST)
    assert code == 2 and f"{bad}:2: invalid JSON" in err
    bad.write_text('{"class": "a", "code": "x"}\n\n{"code": "y"}\n')
    code, _, err = run(capsys, "distinguishability", "--classes", bad, *FAST)
    assert code == 2 and f"{bad}:3: missing 'class'" in err
    bad.write_text('{"class": "a", "code": "x"}\n{"class": "a", "code": "y"}\n')
    code, _, err = run(capsys, "distinguishability", "--classes", bad, *FAST)
    assert code == 2 and "two classes" in err
    # --class-field reads other layouts, e.g. GCJ's {"label": ..., "code": ...}
    relabeled = tmp_path / "label.jsonl"
    relabeled.write_text(classes.read_text().replace('"class"', '"label"'))
    code, _, err = run(
        capsys, "distinguishability", "--classes", relabeled, "--class-field", "label", *FAST
    )
    assert code == 0, err


@pytest.fixture
def judged(tmp_path):
    refs = PROGRAMS["sum"] + PROGRAMS["max"]
    rows = []
    for i, ref in enumerate(refs):
        for j, cand in enumerate(refs):
            rows.append(
                {"reference": ref, "candidate": cand, "ok": (i < 3) == (j < 3), "id": len(rows)}
            )
    path = tmp_path / "judged.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_correlate_json_with_binary_judgments(capsys, judged):
    argv = ["correlate", "--jsonl", judged, "--human-field", "ok", *FAST, "--bootstrap", "50"]
    code, out, err = run(capsys, *argv, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["pairs"] == 36
    sts = data["metrics"]["sts"]
    for key in ("pearson", "spearman", "kendall", "pearson_ci", "auc", "auc_ci"):
        assert key in sts
    assert sts["auc"] > 0.5
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "AUC" in out and "spearman" in out


def test_correlate_input_errors(capsys, tmp_path, judged):
    code, _, err = run(capsys, "correlate", "--jsonl", judged, "--human-field", "score", *FAST)
    assert code == 2 and f"{judged}: no line has the label field 'score'" in err
    partly = tmp_path / "partly.jsonl"
    line = {"reference": "a", "candidate": "b", "h": 1}
    partly.write_text(json.dumps(line) + "\n" + json.dumps({"reference": "a", "candidate": "c"})
                      + "\n")
    code, _, err = run(capsys, "correlate", "--jsonl", partly, "--human-field", "h", *FAST)
    assert code == 2 and f"{partly}:2: missing 'h'" in err
    bad = tmp_path / "bad.jsonl"
    line = {"reference": "a", "candidate": "b", "h": 1}
    bad.write_text(json.dumps(line) + "\n" + json.dumps({**line, "h": "good"}) + "\n")
    code, _, err = run(capsys, "correlate", "--jsonl", bad, "--human-field", "h", *FAST)
    assert code == 2 and f"{bad}:2: 'h' must be a number" in err


def test_compare_table_json_and_errors(capsys, tmp_path):
    refs = tmp_path / "refs.txt"
    good = tmp_path / "a.txt"
    bad = tmp_path / "b.txt"
    codes = PROGRAMS["sum"] + PROGRAMS["max"]
    refs.write_text("\n".join(codes) + "\n")
    good.write_text("\n".join(c.replace("a", "b") for c in codes) + "\n")
    bad.write_text("\n".join("return 0;" for _ in codes) + "\n")
    argv = ["compare", refs, good, bad, *FAST, "--trials", "199", "--bootstrap", "100"]
    code, out, err = run(capsys, *argv, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    for key in (
        "score_a",
        "score_b",
        "difference",
        "p_value_randomization",
        "p_value_bootstrap",
        "p_value_ttest",
    ):
        assert key in data["metrics"]["bleu"]
    assert data["metrics"]["sts"]["difference"] > 0
    assert run(capsys, *argv, "-f", "json")[1] == out  # same seed, same numbers
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "p rand" in out
    short = tmp_path / "short.txt"
    short.write_text("return 0;\n")
    code, _, err = run(capsys, "compare", refs, good, short, *FAST)
    assert code == 2 and "line-aligned" in err
    code, _, err = run(capsys, "compare", refs, good, tmp_path / "missing.txt", *FAST)
    assert code == 2 and "missing.txt: no such file" in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        meta_cli.main(["compare", "a", "b", "c", "--lang", "java", "--trials", "0"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        meta_cli.main(["distinguishability", "--lang", "java"])  # --classes missing
    assert exc.value.code == 2


def test_wired_into_the_main_cli(capsys, classes):
    from ruby_metric import cli

    try:
        code = cli.main(
            ["meta", "distinguishability", "--classes", str(classes), *FAST, "-f", "json"]
        )
    except SystemExit:
        pytest.skip("`ruby-metric meta` is not wired into ruby_metric.cli.app yet")
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["exact"]
    code = cli.main(["meta", "distinguishability", "--classes", "missing.jsonl", *FAST])
    assert code == 2


def test_compare_one_pair_reports_no_test_and_says_why(capsys, tmp_path):
    a, b = tmp_path / "a1.cs", tmp_path / "b1.cs"
    a.write_text("int a = 1;\n")
    b.write_text("int b = 2;\n")
    argv = ["compare", a, a, b, "--lang", "cs", "--metrics", "sts,bleu"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    sts = next(line for line in out.splitlines() if line.startswith("STS"))
    # scores, no interval and no p-value: "-" where 0.0000 (p boot) and 1.0000 (p rand) were
    assert sts.split() == ["STS", "mean", "1.0000", "0.6000", "0.4000", "-", "-", "-", "-", "1"]
    assert (
        "p boot and CI not applicable for STS, BLEU: 1 pair, needs 4: "
        "the only resample is the pair itself\n" in out
    )
    assert "p rand not applicable for STS, BLEU: 1 pair, needs 2" in out
    assert "p t not applicable for STS, BLEU: 1 pair, needs 2: one pair has no variance" in out
    data = json.loads(run(capsys, *argv, "-f", "json")[1])["metrics"]["sts"]
    assert data["p_value_bootstrap"] is None and data["p_value_randomization"] is None
    assert data["not_applicable"]["bootstrap"].startswith("1 pair, needs 4")


def test_compare_p_values_at_the_resampling_floor_show_as_bounds(capsys, tmp_path):
    refs, good, bad = tmp_path / "refs.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    codes = (PROGRAMS["sum"] + PROGRAMS["max"]) * 2
    refs.write_text("\n".join(codes) + "\n")
    good.write_text("\n".join(codes) + "\n")
    bad.write_text("\n".join("return 0;" for _ in codes) + "\n")
    argv = ["compare", refs, good, bad, "--lang", "java", "--metrics", "sts"]
    code, out, err = run(capsys, *argv, "--trials", "199", "--bootstrap", "300")
    assert code == 0, err
    sts = next(line for line in out.splitlines() if line.startswith("STS"))
    # A wins all 12 pairs: no bootstrap resample against it (0 of 300: "< 1/300", rounded
    # up) and no randomization trial as extreme (exact p 2/2**12, at the floor 1/(199 + 1))
    assert sts.split()[7:11] == ["<=", "5e-03", "<", "3.4e-03"], sts
    assert "not applicable" not in out
    data = json.loads(run(capsys, *argv, "--trials", "199", "--bootstrap", "300", "-f", "json")[1])
    sts = data["metrics"]["sts"]
    assert sts["p_value_bootstrap"] == 0.0 and sts["p_value_randomization"] == 1 / 200
    assert sts["bootstrap_samples"] == 300 and sts["trials"] == 199


def test_distinguishability_lists_notes_apart_from_undefined(capsys, tmp_path, monkeypatch):
    from test_meta_distinguishability import NOTED_CLASSES, NotingScorer

    path = tmp_path / "noted.jsonl"
    path.write_text("".join(json.dumps({"class": c, "code": p}) + "\n" for c, p in NOTED_CLASSES))
    monkeypatch.setattr(meta_cli, "scorer_from_args", lambda args: NotingScorer())
    argv = ["distinguishability", "--classes", path, "--lang", "java", "--no-classifier"]
    code, out, err = run(capsys, *argv, "--bootstrap", "0")
    assert code == 0, err
    trs = next(line for line in out.splitlines() if line.startswith("TRS "))
    assert trs.split()[-1] == "10"  # excluded
    lines = [line for line in out.splitlines() if line.startswith("TRS ") and ":" in line]
    assert lines == [
        "TRS undefined on 10 pairs: 10 x candidate: parse error at line #, col #",
        "TRS notes (scored, not excluded) on 8 pairs: "
        "4 x candidate: # statement unparsed, kept as text (line #); "
        "4 x reference: # statement unparsed, kept as text (line #)",
    ]
    data = json.loads(run(capsys, *argv, "--bootstrap", "0", "-f", "json")[1])
    assert data["reasons"] == {"trs": {"candidate: parse error at line #, col #": 10}}
    assert sum(data["notes"]["trs"].values()) == 8
