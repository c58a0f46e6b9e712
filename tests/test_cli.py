"""The command line: formats, exit codes, one-line errors naming file and line."""

import csv
import io
import json
import subprocess
import sys

import pytest
from cli_helpers import FIXTURES, HYPS, REFS, run


def test_score_json_has_corpus_and_pairs(capsys):
    code, out, err = run(capsys, "score", REFS, HYPS, "--lang", "cs", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["corpus"]["pairs"] == 10 == len(data["pairs"])
    assert data["corpus"]["signature"].startswith("ruby-metric:")
    first = data["pairs"][0]
    assert list(first) == [
        "id",
        "ruby",
        "tier",
        "grs",
        "trs",
        "sts",
        "crystalbleu",
        "bleu",
        "reasons",
    ]
    assert first["ruby"] == 1.0 and first["tier"] == "graph"
    # the empty candidate on the last line is scored, with reasons for the structural tiers
    last = data["pairs"][-1]
    assert last["tier"] == "string" and last["grs"] is None and last["reasons"]["trs"]


def test_score_jsonl_csv_and_table(capsys, tmp_path):
    code, out, _ = run(capsys, "score", REFS, HYPS, "--lang", "cs", "--format", "jsonl")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [obj["id"] for obj in lines] == list(range(10))

    target = tmp_path / "scores.csv"
    code, out, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "csv", "-o", target)
    assert code == 0 and out == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == 10 and rows[0]["tier"] == "graph"

    code, out, _ = run(capsys, "score", REFS, HYPS, "--lang", "cs")
    assert code == 0
    assert "RUBY tiers" in out and "signature" in out and "CrystalBLEU" in out


def test_metrics_option(capsys):
    code, out, _ = run(
        capsys, "score", REFS, HYPS, "--lang", "cs", "-f", "jsonl", "--metrics", "sts,bleu"
    )
    assert code == 0
    first = json.loads(out.splitlines()[0])
    assert first["sts"] == 1.0 and first["ruby"] is None and first["trs"] is None


def test_jsonl_input_with_mixed_languages_and_ids(capsys):
    code, out, err = run(capsys, "score", "--jsonl", FIXTURES / "pairs.jsonl", "-f", "jsonl")
    assert code == 0, err
    rows = {obj["id"]: obj for obj in map(json.loads, out.splitlines())}
    assert rows["sum-exact"]["ruby"] == 1.0
    assert rows["max-two-refs"]["sts"] == 1.0
    # its only statement is broken: kept as text, the signature is structure
    assert rows["broken-candidate"]["tier"] == "graph"
    assert "kept as text" in rows["broken-candidate"]["reasons"]["grs"]
    assert rows["python-loop"]["tier"] is not None


@pytest.mark.parametrize(
    "argv, message",
    [
        (["score", "missing.cs", HYPS, "--lang", "cs"], "missing.cs: no such file"),
        (
            ["score", REFS, FIXTURES / "cs_to_java" / "candidates.java", "--lang", "cs"],
            "has 10 lines but",
        ),
        (["score", REFS, HYPS], "--lang is required"),
        (["score", REFS, HYPS, "--lang", "cobol"], "unknown language 'cobol'"),
        (["score", REFS, HYPS, "--lang", "cs", "--ngrams", "nope.json"], "nope.json"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_invalid_jsonl_names_file_and_line(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"reference": "a", "candidate": "a", "language": "java"}\nnot json\n')
    code, _, err = run(capsys, "score", "--jsonl", path)
    assert code == 2 and f"{path}:2: invalid JSON" in err


def test_ngrams_build_then_score_with_it(capsys, tmp_path):
    out_file = tmp_path / "cs.json"
    code, _, err = run(capsys, "ngrams", "build", REFS, "--lang", "cs", "-k", "50", "-o", out_file)
    assert code == 0, err
    data = json.loads(out_file.read_text())
    assert data["k"] == 50
    code, out, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "json", "--ngrams", out_file)
    assert code == 0
    assert "k50-n4-" in json.loads(out)["corpus"]["signature"]


def test_console_script_runs_as_module():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruby_metric",
            "score",
            str(REFS),
            str(HYPS),
            "--lang",
            "cs",
            "-f",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["corpus"]["pairs"] == 10


def test_called_as_a_function_the_callers_collector_is_left_alone(capsys):
    import gc

    frozen = gc.get_freeze_count()
    code, _, _ = run(capsys, "score", REFS, HYPS, "--lang", "cs", "-f", "json")
    assert code == 0
    assert gc.get_freeze_count() == frozen  # only the program run freezes its imports


def test_run_as_the_program_it_freezes_what_its_imports_made():
    script = ("import gc, sys; from ruby_metric.cli import app; "
              "app._main = lambda argv: print(gc.get_freeze_count() > 50000) or 0; "
              "sys.argv = ['ruby-metric', '--version']; sys.exit(app.main())")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert (proc.returncode, proc.stdout) == (0, "True\n"), proc.stderr


def test_an_unknown_jsonl_language_is_an_unreadable_pair(capsys, tmp_path):
    rust = json.dumps({"reference": "x", "candidate": "y", "language": "rust"})
    java = json.dumps({"reference": "int x;", "candidate": "int y;", "language": "java"})
    only = tmp_path / "rust.jsonl"
    only.write_text(rust + "\n")
    unknown = f"{only}:1: unknown language 'rust'; known: c, cpp, csharp, java, javascript"
    # --strict: any unreadable pair is exit 2; without it, no readable pair at all is too
    for extra in (["--strict"], []):
        code, out, err = run(capsys, "score", "--jsonl", only, "-b", *extra)
        assert (code, out) == (2, "") and unknown in err, (extra, err)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(rust + "\n" + java + "\n")
    code, _, err = run(capsys, "score", "--jsonl", mixed, "--strict", "-b")
    assert code == 2 and f"{mixed}:1: unknown language 'rust'" in err
    code, out, _ = run(capsys, "score", "--jsonl", mixed, "-f", "jsonl", "-q")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and rows[1]["ruby"] == 1.0
    assert rows[0]["reasons"]["input"].startswith(f"{mixed}:1: unknown language 'rust'")


def test_cli_messages_use_option_spelling_and_plurals(capsys, tmp_path):
    ws = tmp_path / "ws.json"
    code, _, err = run(capsys, "ngrams", "build", REFS, "--tokenizer", "whitespace", "-k", "20",
                       "-o", ws, "-q")
    assert code == 0, err
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "--ngrams", ws, "-b")
    assert (code, out) == (2, "")
    assert err == (
        f"ruby-metric: error: --ngrams {ws} was built with tokenizer 'whitespace' but the "
        "scores use 'code'; pass --tokenizer whitespace, or build the set with --tokenizer "
        "code\n"
    )
    code, out, _ = run(capsys, "score", REFS, HYPS, "-l", "cs", "--ngrams", ws, "-b",
                       "--tokenizer", "whitespace")
    assert code == 0 and float(out) > 0
    one, two = tmp_path / "one.cs", tmp_path / "two.cs"
    one.write_text("int a;\n")
    two.write_text("int a;\nint b;\n")
    code, _, err = run(capsys, "score", one, two, "-l", "cs")
    assert code == 2 and err == (
        f"ruby-metric: error: {one} has 1 line but {two} has 2: the files must be line-aligned\n"
    )


def test_ngrams_build_of_nothing_is_an_error_and_writes_nothing(capsys, tmp_path):
    empty = tmp_path / "empty.cs"
    empty.write_text("\n  \n")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "readme.md").write_text("no code here\n")
    out_file = tmp_path / "set.json"
    code, _, err = run(capsys, "ngrams", "build", empty, "-o", out_file)
    assert code == 2 and err == (
        f"ruby-metric: error: {empty}: no code to count n-grams in (the files are empty or "
        "blank, or the folders hold no code files); nothing written\n"
    )
    code, _, err = run(capsys, "ngrams", "build", folder, "--lang", "java", "-o", out_file)
    assert code == 2 and err == (
        f"ruby-metric: error: {folder}: no java files (.java) in the folder(s) given; "
        "nothing written\n"
    )
    assert not out_file.exists()


def test_ngrams_build_records_the_language_and_warns_on_another(capsys, tmp_path, caplog):
    import logging

    out_file = tmp_path / "cs.json"
    code, _, err = run(capsys, "ngrams", "build", REFS, "--lang", "C#", "-k", "5", "-o", out_file)
    assert code == 0
    assert err == f"wrote 5 n-grams (k5-n4-9b35fd52dde3, from 1 snippet) to {out_file}\n"
    header = json.loads(out_file.read_text())
    assert (header["language"], header["tokenizer"], len(header["ngrams"])) == ("csharp", "code", 5)
    code, _, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "--ngrams", out_file, "-b")
    assert code == 0 and err == ""
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, _ = run(capsys, "score", REFS, HYPS, "-l", "java", "--ngrams", out_file, "-b")
    assert code == 0
    assert [r.getMessage() for r in caplog.records] == [
        f"--ngrams {out_file} was built from csharp code, but --lang is java: its n-grams are "
        "not the trivially shared ones of java (build a set from java code: ruby-metric "
        "ngrams build)"
    ]
