"""Reading pairs from files: decoding policy, line splitting, and errors that say where."""

import json

import pytest

from ruby_metric.io.inputs import InputError, iter_jsonl, read_aligned, read_text, split_lines


def test_split_lines_only_on_newline():
    # U+2028 and form feed are code, not line ends; \r\n is one line end.
    assert split_lines("a\u2028b\r\nc\x0cd\n") == ["a\u2028b", "c\x0cd"]
    assert split_lines("") == []
    assert split_lines("x") == ["x"]
    assert split_lines("x\n\n") == ["x", ""]


def test_read_text_replaces_invalid_utf8_and_warns(tmp_path, caplog):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\nbad \xff byte\n")
    with caplog.at_level("WARNING"):
        assert read_text(path) == "ok\nbad \ufffd byte\n"
    assert f"{path}:2: invalid UTF-8" in caplog.text


def test_read_text_errors_name_the_file(tmp_path):
    with pytest.raises(InputError, match="missing.txt: no such file"):
        read_text(tmp_path / "missing.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_text(tmp_path)


def test_read_aligned_counts_must_match(tmp_path):
    refs = tmp_path / "refs.txt"
    hyps = tmp_path / "hyps.txt"
    refs.write_text("a\nb\n")
    hyps.write_text("a\n")
    with pytest.raises(InputError, match="has 2 lines but .*hyps.txt has 1"):
        read_aligned(refs, hyps)
    hyps.write_text("x\n\n")  # an empty candidate is a pair, not a missing line
    pairs = read_aligned(refs, hyps)
    assert [(p.id, p.reference, p.candidate) for p in pairs] == [(0, "a", "x"), (1, "b", "")]


def test_jsonl_invalid_line_names_file_and_line(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"reference": "a", "candidate": "b"}\n\n{oops\n')
    with pytest.raises(InputError, match=r"pairs.jsonl:3: invalid JSON"):
        list(iter_jsonl(path))


def test_jsonl_bad_fields_become_problems_not_errors(tmp_path):
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"id": "ok", "reference": ["a", "b"], "candidate": "c", "language": "java"},
        {"reference": "a"},
        {"reference": 3, "candidate": 4},
        [1, 2],
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    pairs = list(iter_jsonl(path))
    assert pairs[0].problem is None and pairs[0].reference == ["a", "b"]
    assert pairs[0].language == "java"
    # ids are 0-based positions, lines in messages 1-based (as editors number them)
    assert pairs[1].id == 1 and pairs[1].problem == f"{path}:2: missing 'candidate'"
    assert "'reference' must be a string" in pairs[2].problem
    assert "'candidate' must be a string" in pairs[2].problem
    assert pairs[3].problem == f"{path}:4: expected a JSON object"


def test_jsonl_unknown_language_is_a_problem_known_aliases_are_not(tmp_path):
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"reference": "a", "candidate": "b", "language": "rust"},
        {"reference": "a", "candidate": "b", "language": "C#"},
        {"reference": "a", "candidate": "b", "language": ""},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    pairs = list(iter_jsonl(path))
    assert pairs[0].problem.startswith(f"{path}:1: unknown language 'rust'; known: c, cpp")
    assert pairs[0].language == "rust"
    assert pairs[1].problem is None and pairs[1].language == "C#"
    assert pairs[2].problem is None


def test_jsonl_null_candidate_is_a_missing_translation_scored_0(tmp_path, caplog):
    # a model that gave no output is a failed translation: 0 in its mean, never left out
    from ruby_metric import RubyScorer

    path = tmp_path / "out.jsonl"
    rows = [{"id": "a", "reference": "int f() { return 1; }", "candidate": "int f() { return 1; }"},
            {"id": "b", "reference": "int g() { return 2; }", "candidate": None}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    pairs = list(iter_jsonl(path))
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: 1 line has a null candidate (no output): each scored as a missing "
        "translation, 0 (first: line 2)"]
    assert pairs[1].problem is None and pairs[1].candidate == ""
    assert pairs[1].missing == f"no output (null at {path}:2)"
    corpus = RubyScorer(language="java").score_pairs(pairs)
    assert [p.ruby for p in corpus.pairs] == [1.0, 0.0]
    assert corpus.ruby == 0.5
    assert corpus.pairs[1].reasons["grs"] == (
        f"candidate: no output (null at {path}:2) (a missing translation scores 0)")
