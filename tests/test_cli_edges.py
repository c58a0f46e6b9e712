"""CLI and batch edges met by a pipeline author: streamed counts, unknown JSONL keys, empty
input, mixed-language signatures, 0-based ids, and the reason on an identical broken pair."""

import json
import logging

import pytest
from cli_helpers import HYPS, REFS, run

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import PairInput, iter_jsonl


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_streamed_summary_counts_the_pairs_scored(capsys, fmt):
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", fmt)
    assert code == 0, err
    summary = [line for line in err.splitlines() if line.startswith("ruby-metric: 10 pairs")]
    assert len(summary) == 1, err
    assert summary[0].startswith("ruby-metric: 10 pairs, RUBY 0.")


def test_streamed_corpus_result_reports_its_pair_count():
    refs = REFS.read_text().splitlines()
    hyps = HYPS.read_text().splitlines()
    pairs = [PairInput(i, r, h) for i, (r, h) in enumerate(zip(refs, hyps, strict=True))]
    run = RubyScorer("cs").stream(lambda: iter(pairs))
    assert len(list(run)) == 10
    corpus = run.corpus()
    assert corpus.pairs == () and corpus.summary()["pairs"] == 10


def test_unknown_jsonl_key_warns_once_with_key_and_line(tmp_path, caplog, capsys):
    path = tmp_path / "pairs.jsonl"
    rows = [{"reference": "int a = 1;", "candidate": "int a = 2;"}]
    rows += [{"reference": "x = 1", "candidate": "x = 2", "lang": "python"}] * 3
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-f", "jsonl")
    assert code == 0, err
    warnings = [r.getMessage() for r in caplog.records if "unknown key" in r.getMessage()]
    assert warnings == [
        f"{path}: unknown key 'lang' (line 2; did you mean 'language'?) ignored "
        "(known keys: reference, candidate, language, id, source)"
    ]
    # the library reader warns too, and can be told not to (a second read of the file)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        assert len(list(iter_jsonl(path))) == 4
        assert len(list(iter_jsonl(path, warn=False))) == 4
    assert [r.getMessage()[-60:] for r in caplog.records] == [warnings[0][-60:]]


def test_a_lang_typo_is_named_in_the_no_language_error(tmp_path, capsys, monkeypatch):
    import io

    path = tmp_path / "k.jsonl"
    text = json.dumps({"reference": "a", "candidate": "b", "lang": "java"}) + "\n"
    path.write_text(text)
    hint = "; unknown key 'lang' in line 1: did you mean 'language'?\n"
    code, out, err = run(capsys, "score", "--jsonl", path)
    assert (code, out) == (2, "")
    assert err.startswith(f"ruby-metric: error: {path}: no pair has a 'language'")
    assert err.endswith("--allow-no-lang to score STS, CrystalBLEU and BLEU only" + hint)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, _, err = run(capsys, "score", "--jsonl", "-", "-q")
    assert code == 2 and err.startswith("ruby-metric: error: <stdin>: no pair")
    assert err.endswith(hint)
    # the reader reports the stray keys with their first line, warned or not
    path.write_text(text.replace('"lang"', '"language"') + text + text)
    unknown: dict[str, int] = {}
    assert len(list(iter_jsonl(path, warn=False, unknown_keys=unknown))) == 3
    assert unknown == {"lang": 2}


@pytest.mark.parametrize("fmt", ["table", "jsonl"])
def test_two_empty_files_are_bad_usage(tmp_path, capsys, fmt):
    refs, hyps = tmp_path / "refs.txt", tmp_path / "hyps.txt"
    refs.write_text("")
    hyps.write_text("")
    code, out, err = run(capsys, "score", refs, hyps, "-l", "java", "-f", fmt)
    assert (code, out) == (2, "")
    assert err == f"ruby-metric: error: no pairs to score: {refs} and {hyps} are empty\n"


def test_a_jsonl_file_of_blank_lines_is_bad_usage(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n  \n")
    code, out, err = run(capsys, "score", "--jsonl", path, "-f", "jsonl")
    assert (code, out) == (2, "")
    assert err == f"ruby-metric: error: no pairs to score: {path} has no JSON lines\n"


def test_an_empty_corpus_has_no_bleu_either():
    corpus = RubyScorer("java").score_corpus([], [])
    summary = corpus.summary()
    assert summary["pairs"] == 0
    assert summary["bleu"] is None and summary["crystalbleu"] is None and summary["ruby"] is None


def test_mixed_language_run_names_every_language(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"reference": "int a = 1;", "candidate": "int a = 2;", "language": "cs"},
        {"reference": "x = 1", "candidate": "x = 2", "language": "python"},
        {"reference": "int a = 1;", "candidate": "int a = 2;"},  # scored as --lang java
        {"reference": 5, "candidate": "x", "language": "cobol"},  # unreadable: not scored
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    code, out, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-f", "json", "-q")
    assert code == 0, err
    signature = json.loads(out)["corpus"]["signature"]
    fields = dict(field.split(":", 1) for field in signature.split("|"))
    assert fields["lang"] == "csharp+java+python"
    grammars = [g.rsplit("-", 1)[0] for g in fields["grammar"].split("+")]
    assert grammars == ["tree-sitter-c-sharp", "tree-sitter-java", "tree-sitter-python"]


def test_a_one_language_run_keeps_its_signature():
    refs = REFS.read_text().splitlines()
    corpus = RubyScorer("cs").score_corpus(refs, refs)
    assert "|lang:csharp|" in corpus.signature
    assert corpus.signature == RubyScorer("cs").signature()


def test_default_ids_are_zero_based_for_aligned_files_and_jsonl(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"reference": "int a;", "candidate": "int b;"},
        {"id": "named", "reference": "x", "candidate": "y"},
    ]
    rows.append({"reference": "int c;", "candidate": "int c;"})
    path.write_text(json.dumps(rows[0]) + "\n\n" + "\n".join(map(json.dumps, rows[1:])) + "\n[1]\n")
    assert [p.id for p in iter_jsonl(path)] == [0, "named", 2, 3]  # blank lines are not pairs
    code, out, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-f", "jsonl")
    assert code == 0, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == [0, "named", 2, 3]
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "-f", "jsonl")
    assert [json.loads(line)["id"] for line in out.splitlines()] == list(range(10))


def test_an_identical_pair_that_does_not_parse_blames_both_sides():
    # strict parsing (repair=False): with repair this text gets a graph
    scorer = RubyScorer("java", repair=False)
    broken = "int f(int a) { return a +"
    same = scorer.score(broken, broken)
    assert same.reasons["grs"].startswith("both: ") and same.reasons["trs"].startswith("both: ")
    assert same.reasons["trs"] == "both: " + scorer.score("int f() {}", broken).reasons[
        "trs"
    ].removeprefix("candidate: ")
    assert same.tier == "string" and same.ruby == 1.0
    # different texts: the side that fails is named as before
    assert scorer.score("int f() { return 1; }", broken).reasons["trs"].startswith("candidate: ")


def test_meta_judged_pairs_default_ids_are_zero_based(tmp_path):
    from ruby_metric.cli.meta import read_judged_pairs

    path = tmp_path / "judged.jsonl"
    rows = [
        {"reference": "a", "candidate": "b", "human": 1},
        {"reference": "c", "candidate": "d", "human": 0},
    ]
    path.write_text("\n\n".join(map(json.dumps, rows)) + "\n")
    pairs, human = read_judged_pairs(path, "human")
    assert [p.id for p in pairs] == [0, 1] and human == [1.0, 0.0]


def test_other_tools_keys_get_their_field_named(tmp_path, caplog):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"ref": "int a = 1;", "hyp": "int a = 2;", "pred": "x"}) + "\n")
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        list(iter_jsonl(path))
    # one warning names every key with its hint
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: unknown keys 'ref' (line 1; did you mean 'reference'?), 'hyp' (line 1; did "
        "you mean 'candidate'?), 'pred' (line 1; did you mean 'candidate'?) ignored (known "
        "keys: reference, candidate, language, id, source)"
    ]


def test_summary_gives_corpus_scores_of_the_requested_metrics_only(capsys):
    from pathlib import Path

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "java_to_cs"
    code, out, err = run(capsys, "score", fixtures / "references.cs",
                         fixtures / "candidates.cs", "-l", "cs", "--metrics", "ruby,crystalbleu")
    assert code == 0, err
    summary = out[out.index("\npairs "):]
    assert "RUBY " in summary and "CrystalBLEU " in summary
    # STS scored the one pair RUBY fell back on: not a corpus score that was asked for
    for label in ("GRS ", "TRS ", "STS ", "BLEU "):
        assert f"\n{label}" not in summary


def test_table_columns_are_the_requested_metrics(capsys):
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "--metrics", "ruby,crystalbleu")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["id", "ruby", "tier", "cbleu", "why", "not"]
    assert lines[2].split() == ["0", "1.0000", "graph", "1.0000"]
    code, out, err = run(capsys, "score", REFS, HYPS, "-l", "cs", "--metrics", "bleu")
    assert code == 0, err
    assert out.splitlines()[0].split() == ["id", "bleu", "why", "not"]
    assert "RUBY tiers" not in out  # no RUBY asked for: no tier column, no tier counts


def test_duplicate_jsonl_ids_are_warned_with_their_lines(tmp_path, caplog, capsys):
    path = tmp_path / "dup.jsonl"
    rows = [
        {"reference": "int a;", "candidate": "int a;", "id": "x"},
        {"reference": "int a;", "candidate": "int b;", "id": 0},  # not the first's position
        {"reference": "int a;", "candidate": "int c;", "id": "x"},
        {"reference": "int a;", "candidate": "int d;", "id": 4},  # the next one's position
        {"reference": "int a;", "candidate": "int e;"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-f", "jsonl")
    assert code == 0, err
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: duplicate pair ids, which outputs and explain --pair cannot tell apart: "
        "id 'x' in lines 1, 3; id '4' in lines 4, 5"
    ]
    assert [p.line for p in iter_jsonl(path, warn=False)] == [1, 2, 3, 4, 5]


def test_explain_missing_pair_names_the_ids_there_are(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    rows = [{"reference": "int a;", "candidate": "int b;", "id": f"p{i}"} for i in range(6)]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    code, _, err = run(capsys, "explain", "--pair", "7", "--jsonl", path, "-l", "java")
    assert code == 2
    assert err == (
        f"ruby-metric: error: {path}: no pair with id 7 (6 pairs, ids p0, p1, p2, p3, ...)\n"
    )
    code, _, err = run(capsys, "explain", "--pair", "10", REFS, HYPS, "-l", "cs")
    assert code == 2 and err == (
        f"ruby-metric: error: {REFS} / {HYPS}: no pair with id 10 "
        "(10 pairs: ids 0 to 9, the 0-based positions)\n"
    )


def test_cite_with_a_command_is_an_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "--cite", "score")
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == "ruby-metric: error: --cite takes no command (got 'score'): run it alone\n"
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "--cite")
    assert exit_.value.code == 0 and capsys.readouterr().out.count("@inproceedings{") == 2
