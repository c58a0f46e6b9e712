"""What a new user's trial of 0.5.2 found, each pinned by a test that failed before the fix:
unreadable pairs left out of the corpus scores unannounced, ``explain --pair`` scoring
CrystalBLEU without the corpus's n-gram set, an interrupted ``-o FILE`` run destroying the
file, a stream of tuples failing with an AttributeError, pandas Series paired against their
indexes, one invalid-UTF-8 line named of many, and the bare ``ruby-metric``."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from cli_helpers import run

from ruby_metric import RubyScorer
from ruby_metric.cli import args as cli_args
from ruby_metric.io.inputs import InputError, PairInput, iter_jsonl, read_aligned, read_text


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_unreadable_pairs_are_announced_with_what_the_corpus_scores_cover(
    tmp_path, caplog, capsys
):
    path = _jsonl(tmp_path / "mixed.jsonl", [
        {"reference": "int f(){return 1;}", "candidate": "int f(){return 1;}", "language": "java"},
        {"reference": "int f(){return 1;}", "candidate": 42, "language": "java"},
        {"reference": "int f(){return 1;}", "candidate": "int g(){return 7;}", "language": "jav"},
    ])
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, out, err = run(capsys, "score", "--jsonl", path, "-b")
    assert code == 0, err
    assert out == "1.0000\n"  # the one readable pair: an exact match
    assert [r.getMessage() for r in caplog.records] == [
        f"2 of 3 pairs cannot be read and get no scores (first: pair 1, {path}:2: 'candidate' "
        "must be a string); the corpus scores are over the other 1 pair"
    ]


def test_no_output_is_a_missing_translation_in_the_library_too(caplog):
    # a model that wrote nothing (None, NaN) on the hard items must not gain by it: 0, said
    # once (0.8.0; it was an unreadable pair, left out of the mean with a warning)
    scorer = RubyScorer("java")
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        corpus = scorer.score_corpus(["int f(){return 1;}"] * 3,
                                     ["int f(){return 1;}", float("nan"), None])
    assert [p.ruby for p in corpus.pairs] == [1.0, 0.0, 0.0]
    assert corpus.counts["ruby"] == 3 and corpus.ruby == 1 / 3
    assert corpus.pairs[2].reasons["grs"] == (
        "candidate: no output (None) (a missing translation scores 0)")
    assert [r.getMessage() for r in caplog.records] == [
        "2 candidates are None or NaN (no output): each scored as a missing translation, 0 "
        "(first: pair 1)"
    ]


def test_a_stream_is_iterated_once():
    run = RubyScorer("java").stream(lambda: iter([PairInput(0, "int a;", "int a;")]))
    assert [r.ruby for r in run] == [1.0]
    with pytest.raises(RuntimeError, match="iterated to its end already"):
        list(run)


def test_an_interrupt_inside_a_compiled_callback_is_still_an_interrupt(monkeypatch, capsys):
    # a signal handler that raises while numba calls back into Python surfaces as a
    # SystemError with the interrupt as its cause: callers must see the interrupt
    from ruby_metric.api.scorer import RubyScorer as Scorer
    from ruby_metric.cli.signals import Stopped
    from ruby_metric.scoring.pair_scorer import PairScorer

    def interrupted(self, *args, **kwargs):
        try:
            raise Stopped(15)
        except Stopped as stop:
            raise SystemError("returned a result with an exception set") from stop

    monkeypatch.setattr(PairScorer, "score_detailed", interrupted)
    with pytest.raises(KeyboardInterrupt):
        Scorer("java").score_corpus(["int a;"], ["int b;"])
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "java_to_cs"
    code, _, err = run(capsys, "score", fixtures / "references.cs", fixtures / "candidates.cs",
                       "-l", "cs", "-b")
    assert (code, err) == (143, "ruby-metric: stopped by SIGTERM\n")


def test_an_output_that_is_also_an_input_is_refused(tmp_path, capsys):
    path = _jsonl(tmp_path / "x.jsonl", [{"reference": "int a;", "candidate": "int b;",
                                          "language": "java"}])
    before = path.read_bytes()
    code, out, err = run(capsys, "score", "--jsonl", path, "-f", "jsonl", "-o", path)
    assert code == 2 and out == ""
    assert err == (f"ruby-metric: error: --output {path} is also an input of this command "
                   f"({path}): writing it would destroy what is read\n")
    assert path.read_bytes() == before
    link = tmp_path / "link"
    link.symlink_to(path)
    code, _, err = run(capsys, "report", "--jsonl", path, "-o", link)
    assert code == 2 and "is also an input" in err and path.read_bytes() == before


def test_every_pair_readable_gives_no_such_warning(tmp_path, caplog, capsys):
    path = _jsonl(tmp_path / "ok.jsonl", [{"reference": "int a;", "candidate": "int b;"}] * 2)
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        code, _, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-b")
    assert code == 0, err
    assert not caplog.records


def test_explain_pair_scores_crystalbleu_with_the_set_score_builds(capsys, tmp_path):
    # C++ ships no n-gram set: `score` builds one from the corpus's references, and the
    # explanation of one of its pairs must use that set, not fall back to none
    refs = [f"int f{i}(int a{i}, int b{i}) {{ int s{i} = a{i} + b{i} * {i}; return s{i} - {i}; }}"
            for i in range(200)]
    hyps = [r.replace("return", "return 1 +") if i % 2 else r for i, r in enumerate(refs)]
    ref_file, hyp_file = tmp_path / "refs.cpp", tmp_path / "hyps.cpp"
    ref_file.write_text("\n".join(refs) + "\n")
    hyp_file.write_text("\n".join(hyps) + "\n")
    code, out, err = run(capsys, "score", ref_file, hyp_file, "-l", "cpp", "-f", "jsonl", "-q")
    assert code == 0, err
    scored = json.loads(out.splitlines()[1])["crystalbleu"]
    assert scored is not None and 0 < scored < 1
    code, out, err = run(capsys, "explain", "--pair", "1", ref_file, hyp_file, "-l", "cpp",
                         "-f", "json", "-q")
    assert code == 0, err
    assert json.loads(out)["result"]["crystalbleu"] == scored


def test_an_interrupted_whole_output_leaves_the_file_as_it_was(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("precious\n")
    with pytest.raises(KeyboardInterrupt), cli_args.output_file(str(target), whole=True) as out:
        out.write("{ half a")
        raise KeyboardInterrupt
    assert target.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # nothing left over
    with cli_args.output_file(str(target), whole=True) as out:
        out.write("{}\n")
    assert target.read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_streamed_output_keeps_the_lines_written_before_an_interrupt(tmp_path):
    target = tmp_path / "out.jsonl"
    with pytest.raises(KeyboardInterrupt), cli_args.output_file(str(target)) as out:
        out.write('{"id": 0}\n')
        out.flush()
        raise KeyboardInterrupt
    assert target.read_text() == '{"id": 0}\n'


def test_score_json_to_a_directory_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot write"), cli_args.output_file(
            str(tmp_path), whole=True):
        pass


def test_stream_of_tuples_is_a_type_error_naming_the_position():
    scorer = RubyScorer("java")
    pair = PairInput(0, "int f(){return 1;}", "int f(){return 1;}")
    with pytest.raises(TypeError, match=r"pair 1 is a tuple, not a PairInput"):
        list(scorer.stream(lambda: iter([pair, ("int a;", "int b;")])))
    assert [r.ruby for r in scorer.stream(lambda: iter([pair]))] == [1.0]


def test_series_with_different_indexes_are_an_error_unless_ids_are_given():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"gold": ["int a;"] * 6, "pred": ["int b;"] * 6})
    scorer = RubyScorer("java")
    with pytest.raises(ValueError, match=r"indexes of references and candidates differ \(at "
                                         r"position 0: 0 vs 3\)"):
        scorer.score_corpus(frame["gold"][:3], frame["pred"][3:6])
    with pytest.raises(ValueError, match=r"^3 references but 2 candidates$"):
        scorer.score_corpus(frame["gold"][:3], frame["pred"][:2])
    nan_index = pandas.DataFrame({"r": ["int a;"] * 2, "h": ["int b;"] * 2},
                                 index=[float("nan"), 1.0])
    assert [str(p.id) for p in scorer.score_corpus(nan_index.r, nan_index.h).pairs] == [
        "nan", "1.0"]  # NaN labels equal, as pandas' Index.equals has them
    same = scorer.score_corpus(frame["gold"][3:6], frame["pred"][3:6])
    assert [p.id for p in same.pairs] == [3, 4, 5]
    chosen = scorer.score_corpus(frame["gold"][:3], frame["pred"][3:6], ids=["a", "b", "c"])
    assert [p.id for p in chosen.pairs] == ["a", "b", "c"]


def test_invalid_utf8_warning_names_every_bad_line(tmp_path, caplog):
    text = tmp_path / "bad.java"
    text.write_bytes(b"int a;\nint \xff b;\nint c;\nint \xfe d;\n")
    jsonl = tmp_path / "bad.jsonl"
    jsonl.write_bytes(b'{"reference": "a", "candidate": "b\xff"}\n{"reference": "a", '
                      b'"candidate": "b"}\n{"reference": "a\xfe", "candidate": "b"}\n')
    many = tmp_path / "many.java"
    many.write_bytes(b"\xff\n" * 9)
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        read_text(text)
        assert len(list(iter_jsonl(jsonl))) == 3
        read_text(many)
        list(iter_jsonl(jsonl, warn=False))
    assert [r.getMessage() for r in caplog.records] == [
        f"{text}:2: invalid UTF-8, replaced with U+FFFD (also line 4)",
        f"{jsonl}:1: invalid UTF-8, replaced with U+FFFD (also line 3)",
        f"{many}:1: invalid UTF-8, replaced with U+FFFD (also lines 2, 3, 4, 5, 6 and 3 more)",
    ]


def test_line_count_mismatch_names_an_empty_last_line(tmp_path):
    refs, hyps, other = tmp_path / "r.txt", tmp_path / "h.txt", tmp_path / "o.txt"
    refs.write_text("a\nb\n\n")
    hyps.write_text("a\nb\n")
    other.write_text("a\nb\nc\n")
    with pytest.raises(InputError) as err:
        read_aligned(refs, hyps)
    assert str(err.value) == (f"{refs} has 3 lines but {hyps} has 2: the files must be "
                              f"line-aligned (the last line of {refs} is empty)")
    with pytest.raises(InputError) as err:
        read_aligned(hyps, refs)
    assert str(err.value).endswith(f"(the last line of {refs} is empty)")
    with pytest.raises(InputError) as err:
        read_aligned(other, hyps)
    assert str(err.value).endswith("the files must be line-aligned")


def test_no_command_prints_the_usage_with_the_commands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        run(capsys, )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ruby-metric")
    assert "{score,ngrams,explain,report,meta}" in err
    assert err.rstrip().endswith(
        "error: the following arguments are required: command (ruby-metric -h explains each)"
    )


def test_a_run_whose_references_do_not_parse_warns_of_the_language(caplog):
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "java_to_cs"
    refs = (fixtures / "references.cs").read_text(encoding="utf-8").splitlines()
    hyps = (fixtures / "candidates.cs").read_text(encoding="utf-8").split("\n")[: len(refs)]
    metrics = ["ruby", "grs", "trs", "sts"]
    messages = {}
    for language in ("python", "java", "cs"):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="ruby_metric"):
            RubyScorer(language, metrics=metrics).score_corpus(refs, hyps)
        messages[language] = [r.getMessage() for r in caplog.records]
    assert messages["python"] == [
        # every C# reference fails as Python, whatever its candidate does (an empty or
        # differently failing candidate used to hide two of them: "8 of 10")
        "the references of 10 of 10 pairs do not parse cleanly as python (first: pair 0, "
        "reference: parse error at line 1, col 1): is the language right?"
    ]
    # C# methods read as Java: fewer than half have a statement Java cannot parse
    assert messages["java"] == []
    assert messages["cs"] == []  # their language
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        RubyScorer("python", metrics=metrics).score_corpus(refs[:9], hyps[:9])
    # under 10 pairs a majority says too little, but all of them failing is a wrong language
    assert [r.getMessage() for r in caplog.records] == [
        "the references of 9 of 9 pairs do not parse cleanly as python (first: pair 0, "
        "reference: parse error at line 1, col 1): is the language right?"
    ]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        RubyScorer("python", metrics=metrics).score_corpus(
            ["x = 1", *refs[:8]], ["x = 1", *hyps[:8]])
    assert caplog.records == []  # 8 of 9: too little


@pytest.mark.parametrize(("candidate", "line"), [
    ("int f() {\n  int x = 1;\n  return g(1;\n}", 3),  # inserted ")" at line 3
    ("int f() {\n  int x = 1;\n  return g(1));\n}", 3),  # a stray ")" kept as text
    ("int f() {\n  int x = 1;\n\n  return g(1);\n", 4),  # "}" appended after line 4
])
def test_the_repair_node_stands_at_the_line_of_the_repair(candidate, line):
    import graphs

    assert graphs.tolerant_parse(graphs.parse(candidate, "java")).mark_line == line
    explanation = RubyScorer("java").explain("int f() { return g(1); }", candidate).to_dict()
    repair = [n for n in explanation["pdgs"]["candidate"]["nodes"] if n["kind"] == "repair"]
    assert [n["line"] for n in repair] == [line]


def test_function_body_fragments_are_no_wrong_language(caplog):
    # HumanEval's canonical solutions are a function's body and its closing brace: the
    # brace is a stray closer kept as text, which is no sign of a wrong language
    refs = [f"    int s = a + {i};\n    return s * b;\n  }}\n" for i in range(12)]
    cands = [r.replace("s * b", "b * s") for r in refs]
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        corpus = RubyScorer("java", metrics=["ruby", "grs", "trs"]).score_corpus(refs, cands)
    assert corpus.structure == {"contained": {"candidate": 12, "reference": 12}}
    assert caplog.records == []


def test_group_keys_keep_their_json_type(tmp_path, capsys):
    rows = [{"reference": "x = 1", "candidate": c, "language": "python", "passed": ok,
             "task_id": task}
            for task in (1, True, "1") for c, ok in (("x = 1", 1), ("x = 2", 0))]
    path = _jsonl(tmp_path / "judged.jsonl", rows)
    code, out, err = run(capsys, "meta", "correlate", "--jsonl", path, "-l", "python",
                         "--human-field", "passed",
                         "--group-field", "task_id", "--bootstrap", "0", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["groups"] == 3  # true, 1 and "1" are three tasks
    assert data["metrics"]["bleu"]["within_group"]["pairs"] == 3


def test_stream_of_a_list_says_it_takes_a_function():
    pair = PairInput(0, "int a;", "int a;")
    with pytest.raises(TypeError, match=r"^stream\(\) takes a function returning the pairs "
                                        r"\(e\.g\. lambda: iter_jsonl\(path\)\), not a list"):
        RubyScorer("java").stream([pair])


def test_line_count_mismatch_counts_several_empty_last_lines(tmp_path):
    refs, hyps = tmp_path / "r.txt", tmp_path / "h.txt"
    refs.write_text("a\nb\n\n\n")
    hyps.write_text("a\nb\n")
    with pytest.raises(InputError, match=r"\(the last 2 lines of .*r\.txt are empty\)$"):
        read_aligned(refs, hyps)


def test_explain_pair_keeps_the_pairs_own_language(tmp_path, capsys):
    # a JSONL pair that names its language is scored in it whatever --lang says, and
    # explained in it too
    cs = "public int Size() { return items.Count; }"
    path = _jsonl(tmp_path / "mixed.jsonl", [
        {"id": "c3", "reference": cs, "candidate": cs.replace("Count", "Length"),
         "language": "cs"},
    ])
    code, out, err = run(capsys, "score", "--jsonl", path, "-l", "java", "-f", "jsonl", "-q")
    assert code == 0, err
    scored = json.loads(out)["ruby"]
    code, out, err = run(capsys, "explain", "--pair", "c3", "--jsonl", path, "-l", "java",
                         "-f", "json", "-q")
    assert code == 0, err
    explained = json.loads(out)
    assert (explained["language"], explained["result"]["ruby"]) == ("csharp", scored)


def test_pairs_without_a_language_beside_pairs_with_one_are_announced(tmp_path, caplog, capsys):
    rows = [{"reference": "int f(){return 1;}", "candidate": "int f(){return 2;}",
             "language": language} for language in ("java", None, "")]
    path = _jsonl(tmp_path / "langs.jsonl", rows)
    with caplog.at_level(logging.WARNING, logger="ruby_metric.batch"):
        code, _, err = run(capsys, "score", "--jsonl", path, "-f", "jsonl", "-q")
    assert code == 0, err
    assert [r.getMessage() for r in caplog.records if r.name == "ruby_metric.batch.engine"] == [
        "2 pairs without a language (and none given with --lang or language=) scored with "
        "STS, CrystalBLEU and BLEU only, while the other pairs get every tier"
    ]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric.batch"):
        run(capsys, "score", "--jsonl", path, "-l", "java", "-f", "jsonl", "-q")
        RubyScorer().score_corpus(["a b"], ["a c"])  # no language anywhere: nothing to say
    assert [r for r in caplog.records if r.name == "ruby_metric.batch.engine"] == []
