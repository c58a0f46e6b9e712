"""Issue 29, units: whole programs and folders of them, a completion on its own, and the
command line on real files (unknown keys, limits, a heartbeat, --resume)."""

from __future__ import annotations

import json
import logging
import time

import pytest
from cli_helpers import HYPS, REFS, run

from ruby_metric import RubyScorer, read_folders
from ruby_metric.io.inputs import InputError, PairInput
from ruby_metric.io.units import pair_folders, program_pieces

JAVA_SUM = """\
import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += in.nextInt();
        }
        System.out.println(total);
    }
}
"""
JAVA_MAX = JAVA_SUM.replace("int total = 0;", "int total = Integer.MIN_VALUE;").replace(
    "total += in.nextInt();", "total = Math.max(total, in.nextInt());")
PY_SUM = """\
n = int(input())
total = 0
for _ in range(n):
    total += int(input())
print(total)
"""
PY_MAX = PY_SUM.replace("total = 0", "total = -10**9").replace(
    "total += int(input())", "total = max(total, int(input()))")


def _tree(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


# -- two folders ------------------------------------------------------------------------


def test_two_folders_are_paired_file_by_file_with_paths_as_ids(tmp_path, capsys, caplog):
    refs = _tree(tmp_path / "refs", {"sum/Main.java": JAVA_SUM, "max/Main.java": JAVA_MAX,
                                     "only_ref/Main.java": JAVA_SUM, ".git/HEAD": "x"})
    hyps = _tree(tmp_path / "hyps", {"sum/Main.java": JAVA_SUM, "max/Main.java": JAVA_SUM,
                                     "extra.java": JAVA_SUM})
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", refs, hyps, "-l", "java", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    # one pair per reference file, sorted by relative path; the whole file each; the
    # reference without a candidate is a missing translation, 0 on every tier
    assert [p["id"] for p in data["pairs"]] == [
        "max/Main.java", "only_ref/Main.java", "sum/Main.java"]
    assert data["pairs"][2]["ruby"] == 1.0 and data["pairs"][2]["tier"] == "graph"
    assert data["pairs"][0]["tier"] == "graph" and data["pairs"][0]["ruby"] < 1.0
    missing = data["pairs"][1]
    assert [missing[m] for m in ("ruby", "grs", "trs", "sts", "bleu")] == [0.0] * 5
    assert missing["reasons"]["grs"] == (
        f"candidate: missing from {hyps} (a missing translation scores 0)")
    # the same numbers as the two files scored alone, as one pair each
    alone = RubyScorer("java").score(JAVA_MAX, JAVA_SUM)
    assert data["pairs"][0]["ruby"] == alone.ruby
    assert data["corpus"]["ruby"] == (alone.ruby + 0.0 + 1.0) / 3
    # the files without a counterpart: one warning naming them (hidden files are not files)
    unmatched = [r.getMessage() for r in caplog.records if "no counterpart" in r.getMessage()]
    assert unmatched == [
        f"1 file of {refs} with no counterpart in {hyps} (only_ref/Main.java): each scored "
        f"as a missing translation, 0; 1 file of {hyps} with no counterpart in {refs} "
        "(extra.java): left out"
    ]
    code, out, err = run(capsys, "score", refs, hyps, "-l", "java", "--strict")
    assert (code, out) == (2, "")
    assert "(--strict: every file must have a counterpart)" in err


def test_against_sources_folders_pair_by_path_without_extension(tmp_path, capsys):
    src = _tree(tmp_path / "java", {"a/Sum.java": JAVA_SUM, "b/Max.java": JAVA_MAX})
    out_dir = _tree(tmp_path / "py", {"a/Sum.py": PY_SUM, "b/Max.py": PY_MAX})
    code, out, err = run(capsys, "score", src, out_dir, "-l", "python", "--source-lang", "java",
                         "-f", "jsonl")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == ["a/Sum.py", "b/Max.py"]
    assert all(r["mode"] == "source" and r["tier"] == "graph" for r in rows)
    scorer = RubyScorer("python", source_language="java")
    assert rows[0]["ruby"] == scorer.score_source(JAVA_SUM, PY_SUM).ruby
    # explain --pair takes the same id and gives the same number
    code, out, err = run(capsys, "explain", "--pair", "b/Max.py", src, out_dir, "-l", "python",
                         "--source-lang", "java", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["result"]["ruby"] == rows[1]["ruby"]
    # two files of one folder that differ only in their extension pair with the same file
    (src / "a" / "Sum.txt").write_text("notes")
    code, _, err = run(capsys, "score", src, out_dir, "-l", "python", "--source-lang", "java")
    assert code == 2 and "a/Sum.java and a/Sum.txt both pair with 'a/Sum'" in err


def test_folder_errors_are_one_line(tmp_path, capsys, caplog):
    folder = _tree(tmp_path / "f", {"A.java": JAVA_SUM})
    file = tmp_path / "A.java"
    file.write_text(JAVA_SUM)
    code, _, err = run(capsys, "score", folder, file, "-l", "java")
    assert code == 2 and err == (f"ruby-metric: error: {folder} is a folder but {file} is not: "
                                 "give two folders (paired file by file) or two files\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    # a folder with no file is a model that wrote nothing: its pairs are missing, 0
    caplog.clear()
    code, out, err = run(capsys, "score", folder, empty, "-l", "java", "-b")
    assert (code, out) == (0, "0.0000\n")
    assert [r.getMessage() for r in caplog.records] == [
        f"{empty} has no files: each of the 1 file of {folder} scored as a missing "
        "translation, 0"]
    stray = _tree(tmp_path / "stray", {"A.txt": JAVA_SUM})
    code, _, err = run(capsys, "score", folder, stray, "-l", "java")
    assert code == 2 and err == (f"ruby-metric: error: no pairs to score: no file of {stray} "
                                 f"has a counterpart in {folder} (paired by path)\n")
    code, _, err = run(capsys, "explain", folder, folder, "-l", "java")
    assert code == 2 and "pass --pair ID" in err


def test_the_python_api_reads_the_same_folders(tmp_path):
    refs = _tree(tmp_path / "r", {"x/One.java": JAVA_SUM, "Two.java": JAVA_MAX})
    hyps = _tree(tmp_path / "h", {"x/One.java": JAVA_MAX, "Two.java": JAVA_MAX})
    pairs = read_folders(refs, hyps)
    assert [p.id for p in pairs] == ["Two.java", "x/One.java"]
    assert pairs[1].reference == JAVA_SUM and pairs[1].candidate == JAVA_MAX
    scorer = RubyScorer("java")
    corpus = scorer.score_pairs(pairs)
    assert [r.id for r in corpus.pairs] == ["Two.java", "x/One.java"]
    assert corpus.pairs[0].ruby == 1.0
    assert corpus.pairs[1].ruby == scorer.score(JAVA_SUM, JAVA_MAX).ruby
    streamed = list(scorer.stream(lambda: iter(pairs)))
    assert [r.ruby for r in streamed] == [r.ruby for r in corpus.pairs]
    assert read_folders(refs, hyps, language="cs")[0].language == "cs"
    with pytest.raises(InputError, match="no such folder"):
        read_folders(tmp_path / "missing", hyps)
    # the pairing alone, for a caller that reads the files its own way
    assert pair_folders(refs, hyps).only_references == ()


# -- two files as one pair -----------------------------------------------------------------


def test_unit_file_scores_two_programs_as_one_pair_as_explain_does(tmp_path, capsys, caplog):
    ref, hyp = tmp_path / "ref.java", tmp_path / "hyp.java"
    ref.write_text(JAVA_SUM)
    hyp.write_text(JAVA_MAX)
    # line by line (the default) the two programs are 13 pairs, and a warning says so
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", ref, hyp, "-l", "java", "-f", "json")
    assert code == 0 and json.loads(out)["corpus"]["pairs"] == 13
    pieces = [r.getMessage() for r in caplog.records if "--unit file" in r.getMessage()]
    assert pieces == [
        f"each line is scored as a pair of its own, but these look like whole programs ({ref}: "
        "line 1 starts with 'import' and line 10 is only a closing bracket): pass --unit file "
        "to score each file as one program, or give two folders"
    ]
    code, out, err = run(capsys, "score", ref, hyp, "-l", "java", "--unit", "file", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["corpus"]["pairs"] == 1 and data["pairs"][0]["id"] == str(hyp)
    code, out, _ = run(capsys, "explain", ref, hyp, "-l", "java", "-f", "json")
    assert data["pairs"][0]["ruby"] == json.loads(out)["result"]["ruby"]
    code, _, err = run(capsys, "score", "--jsonl", ref, "-l", "java", "--unit", "file")
    assert code == 2 and "--unit is for REFS and HYPS" in err


def test_a_corpus_of_one_snippet_per_line_gets_no_program_warning(capsys, caplog):
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-b")
    assert code == 0 and not [r for r in caplog.records if "--unit" in r.getMessage()]


@pytest.mark.parametrize(("lines", "why"), [
    (["package a;", "class A {}"], "line 1 starts with 'package'"),
    (["#include <stdio.h>", "int main() { return 0; }"], "line 1 starts with '#include'"),
    (["using System;", "class A {}"], "line 1 starts with 'using'"),
    (["int f() {", "  return 1;", "};"], "line 3 is only a closing bracket"),
    (["from os import path", "print(path)"], "line 1 starts with 'from'"),
    (["import os"], None),  # one line: a one-line snippet, not a program's header
    # a Python program with no import and no bracket: only its indentation gives it away
    (["n = int(input())", "for d in range(n):", "    print(d)"],
     "line 3 is indented under the block line 2 opens"),
    (["if (c) {", "    f();"], "line 2 is indented under the block line 1 opens"),
    (["for x in xs: f(x)", "    g()"], None),  # the line above closes what it opens
    (["x = 1:", "y = 2"], None),  # not indented: a line of its own
    (["x = f(a)", "y = {1: 2}"], None),
])
def test_program_pieces(lines, why):
    assert program_pieces("f", lines) == (None if why is None else f"f: {why}")


# -- a completion on its own ----------------------------------------------------------------


@pytest.mark.parametrize("body", [
    "for x in xs:\n        if x:\n            return 1\n    return 0\n",
    "total = 0\n    for x in xs:\n        total += x\n    return total\n",
    "total = 0\n\tfor x in xs:\n\t\ttotal += x\n\treturn total\n",
])
def test_a_python_body_without_its_def_gets_the_graph_tier(body):
    # the prompt ended with the body's indentation: line 1 at column 0, the rest indented
    reference = ("\t" if "\t" in body else "    ") + body  # the body as it sits in its def
    r = RubyScorer("python").score(reference, body)
    assert r.tier == "graph"
    assert r.reasons["grs"] == "candidate: repaired (re-indented line 1)"
    # as every repair, it costs the repair node '⁇' (weight 1, unmatched): for the first
    # body S_ref = 4 nodes (weights 4+2+2+2) + 5 edges = 15, S_cand = 16, GED = 1, M = 15,
    # GRS = 5 * 15 / (4 * 15 + 16) = 75/76
    if body.startswith("for"):
        assert r.grs == pytest.approx(75 / 76)
    assert RubyScorer("python", repair=False).score(reference, body).tier == "string"


def test_a_block_header_on_line_1_is_left_as_written():
    from graphs import parse
    from graphs.repair.insertions import repair_candidates

    # line 1 opens the block the later lines are the body of: normal code, not a completion
    parsed = parse("def f(x):\n    return g(x, [1, 2", "python")
    assert [c.kind for c in repair_candidates(parsed)] == ["brackets"]


# -- the command line on real files ---------------------------------------------------------


def test_unknown_jsonl_keys_are_one_warning(tmp_path, capsys, caplog):
    path = tmp_path / "p.jsonl"
    rows = [{"reference": "int a = 1;", "candidate": "int a = 2;", "model": "m", "passed": 1,
             "task": "t"}] * 20
    rows.append({"reference": "int a = 1;", "candidate": "int a = 2;", "lang": "java"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with caplog.at_level(logging.INFO, logger="ruby_metric"):
        code, _, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-b")
    assert code == 0, err
    # a key that stands for one of the pair's keys is a warning (the pair misses it); a
    # benchmark's own data (a model, a verdict, a task) is an info line
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warned == [
        f"{path}: unknown key 'lang' (line 21; did you mean 'language'?) ignored (known "
        "keys: reference, candidate, language, id, source)"
    ]
    told = [r.getMessage() for r in caplog.records if "not read" in r.getMessage()]
    assert told == [
        f"{path}: keys 'model' (line 1), 'passed' (line 1), 'task' (line 1) not read "
        "(--system-field, --label-field and --group-field name such fields)"
    ]


def test_limits_on_the_command_line(tmp_path, capsys):
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl",
                         "--max-chars", "30", "--max-tokens", "3")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    longest = max(rows, key=lambda r: len(REFS.read_text().splitlines()[r["id"]]))
    text = REFS.read_text().splitlines()[longest["id"]]
    assert longest["grs"] is None and longest["trs"] is None
    assert f"reference: {len(text)} > 30 chars" in longest["reasons"]["grs"]
    assert longest["sts"] is None and "token" in longest["reasons"]["sts"]
    with pytest.raises(SystemExit) as stop:  # argparse's own usage error
        run(capsys, "score", REFS, HYPS, "-l", "cs", "--max-chars", "0")
    assert stop.value.code == 2
    assert "argument --max-chars: must be at least 1: 0" in capsys.readouterr().err


def _slow(monkeypatch, seconds):
    """Make every pair take ``seconds`` longer to score."""
    from ruby_metric.scoring.pair_scorer import PairScorer

    real = PairScorer.score_detailed

    def slow(self, *args, **kwargs):
        time.sleep(seconds)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PairScorer, "score_detailed", slow)


def test_a_long_pair_gets_a_heartbeat(monkeypatch):
    _slow(monkeypatch, 0.5)
    beats = []
    pairs = [PairInput("fast", "int a;", "int b;"), PairInput("p/Slow.java", "int a = 1;", "x")]
    run_ = RubyScorer("java").stream(lambda: iter(pairs), heartbeat=beats.append,
                                     heartbeat_every=0.2)
    assert [r.id for r in run_] == ["fast", "p/Slow.java"]
    assert beats, "no heartbeat"
    assert {b.ids for b in beats} <= {("fast",), ("p/Slow.java",)}
    assert {b.chars for b in beats if b.ids == ("p/Slow.java",)} <= {11}
    assert all(b.seconds >= 0.2 for b in beats)
    # none without a callback, and none after the run
    count = len(beats)
    time.sleep(0.5)
    assert len(beats) == count


def test_the_cli_writes_the_heartbeat_on_stderr(monkeypatch, capsys):
    import ruby_metric.api.scorer as scorer_module
    from ruby_metric.batch.heartbeat import Watch

    _slow(monkeypatch, 0.4)
    monkeypatch.setattr(scorer_module, "Watch", lambda report, every: Watch(report, 0.15))
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-b")
    assert code == 0
    assert "ruby-metric: still scoring pair 0 (" in err and " chars, 0 s)" in err
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-b", "-q")
    assert err == ""


def test_resume_appends_what_is_missing(tmp_path, capsys):
    # Python has no shipped n-gram set: CrystalBLEU's comes from all the references, so a
    # resumed run must give each pair the numbers a whole run gives
    rows = [{"reference": f"def f{i}(a):\n    return a + {i}\n",
             "candidate": f"def f{i}(b):\n    return b * {i}\n", "id": f"t{i}"}
            for i in range(12)]
    src = tmp_path / "p.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    argv = ["score", "--jsonl", src, "-l", "python", "-f", "jsonl"]
    assert run(capsys, *argv, "-o", full)[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:5]) + lines[5][:17])  # a Ctrl-C mid-line
    code, out, err = run(capsys, *argv, "-o", part, "--resume")
    assert code == 0, err
    assert part.read_text() == full.read_text()
    assert "dropped an unfinished last line (17 bytes)" in err
    assert "7 pairs scored in this run only (resumed: 5 pairs already in" in err
    # nothing left: nothing appended
    code, _, err = run(capsys, *argv, "-o", part, "--resume")
    assert code == 0 and part.read_text() == full.read_text()


def test_resume_refuses_a_file_that_is_not_its_own(tmp_path, capsys):
    other = tmp_path / "notes.jsonl"
    other.write_text('{"id": 1, "text": "mine"}\n')
    code, _, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl", "-o", other,
                       "--resume")
    assert code == 2 and f"{other}:1: not a line of ruby-metric score -f jsonl output" in err
    assert other.read_text() == '{"id": 1, "text": "mine"}\n'
    other.write_text("some text without a newline")
    code, _, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl", "-o", other,
                       "--resume")
    assert code == 2 and other.read_text() == "some text without a newline"
    code, _, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "--resume")
    assert code == 2 and "--resume needs -f jsonl -o FILE" in err


def test_two_programs_of_different_lengths_are_told_about_unit_file(capsys, tmp_path):
    # what a newcomer types first: two whole programs, which rarely have equal line counts
    java = tmp_path / "Main.java"
    java.write_text("import java.util.Scanner;\nclass Main {\n"
                    "  public static void main(String[] a) {\n"
                    "    System.out.println(1);\n  }\n}\n")
    py = tmp_path / "main.py"
    py.write_text("print(1)\n")
    code, _, err = run(capsys, "score", java, py, "-l", "python", "--source-lang", "java")
    assert code == 2 and err == (
        f"ruby-metric: error: {java} has 6 lines but {py} has 1: the files must be "
        f"line-aligned; they look like whole programs ({java}: line 1 starts with 'import' "
        "and line 5 is only a closing bracket): pass --unit file to score the two files as "
        "one pair\n"
    )
    one, two = tmp_path / "one.cs", tmp_path / "two.cs"  # snippets: no hint
    one.write_text("int a;\n")
    two.write_text("int a;\nint b;\n")
    code, _, err = run(capsys, "score", one, two, "-l", "cs")
    assert err.endswith("the files must be line-aligned\n")
