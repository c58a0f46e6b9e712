"""Issue 29 "Nothing vanishes" / issue 30 item 4: against its source, a candidate with no
structure scores 0.0 (never null), a mean over fewer pairs than were read says so, and the
"is the language right?" check watches both sides of source mode."""

from __future__ import annotations

import json
import logging

import pytest
from cli_helpers import run

from ruby_metric import RubyScorer
from ruby_metric.io.formats import write_table
from ruby_metric.scoring.crosslang import score_source

JAVA = "int total(int[] xs) { int s = 0; for (int x : xs) s += x; return s; }"
PY = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s"


@pytest.fixture(scope="module")
def scorer() -> RubyScorer:
    return RubyScorer(language="python", source_language="java")


@pytest.mark.parametrize(("candidate", "why"), [
    ("", "empty code"),
    ("   \n\t\n", "empty code"),
    ("@@@ ??? ))) junk", "unmatched ')' at line 1, col 9"),
    ("hello world, in prose", "parse error at line 1, col 1"),
])
def test_a_structureless_candidate_scores_zero_against_its_source(scorer, candidate, why):
    r = scorer.score_source(JAVA, candidate)
    # the tree tier is the floor: an empty tree against the source's, every node deleted
    assert (r.ruby, r.tier, r.trs, r.grs) == (0.0, "tree", 0.0, None)
    assert r.reasons["trs"] == (
        f"candidate: {why}: no structure left to compare, scored 0 against the source "
        "(every source node deleted)")
    assert r.reasons["grs"] == f"candidate: {why}"
    assert "ruby" not in r.reasons
    # the function gives the same, with the reason
    s = score_source(JAVA, candidate, source_language="java", language="python")
    assert (s.ruby, s.trs) == (0.0, 0.0) and s.trs_reason == r.reasons["trs"]


def test_the_zero_is_explained_as_every_source_node_deleted(scorer):
    e = scorer.explain_source(JAVA, "")
    assert e.result.ruby == 0.0 and e.tree is not None
    assert e.tree.cand_size == 0 and e.tree.distance == e.tree.ref_size > 0
    assert {a.kind for a in e.tree.edits} == {"delete"}
    assert "TRS          0.0000  candidate: empty code: no structure left" in e.to_text()


def test_a_source_without_structure_leaves_no_score(scorer):
    """The source, not the candidate, is what cannot be compared: no number about the
    candidate (and the language check below says why)."""
    r = scorer.score_source("@@@ ??? ))) junk", PY)
    assert r.ruby is None and r.tier is None and r.reasons["ruby"] == "no tier applies"
    both = scorer.score_source("", "")
    assert both.ruby is None and both.reasons["trs"] == "both: empty code"


def test_a_candidate_beyond_a_limit_is_not_called_structureless():
    from ruby_metric.scoring.code import Limits

    small = RubyScorer(language="python", source_language="java",
                       limits=Limits(max_chars=40))
    r = small.score_source("int f() { return 1; }", "x = 1\n" * 20)
    assert r.ruby is None and "longer than the limit" in r.reasons["trs"]


def test_the_corpus_mean_counts_the_broken_candidates(scorer):
    cands = [PY] * 3 + ["", "junk ))) ("]
    corpus = scorer.score_source_corpus([JAVA] * 5, cands)
    assert [p.ruby for p in corpus] == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert corpus.ruby == pytest.approx(3 / 5) and corpus.counts["ruby"] == 5
    # a mean with the zeros is another measurement than one without: the signature says so
    assert "|structureless:0" in corpus.signature
    assert "partial_means" not in corpus.summary() or "ruby" not in (
        corpus.summary()["partial_means"])


def test_a_mean_over_fewer_pairs_than_read_says_so(scorer):
    corpus = scorer.score_source_corpus([JAVA, JAVA, "@@@ )))"], [PY, "", PY])
    summary = corpus.summary()
    assert [p.ruby for p in corpus] == [1.0, 0.0, None]
    assert summary["ruby"] == 0.5 and summary["counts"]["ruby"] == 2
    assert summary["partial_means"]["ruby"] == "mean of 2 of 3"
    assert summary["partial_means"]["grs"] == "mean of 1 of 3"
    assert "sts" not in summary["partial_means"]  # defined nowhere: nothing is averaged
    import io

    out = io.StringIO()
    write_table(corpus, out)
    lines = out.getvalue().splitlines()
    assert "RUBY         0.5000  (mean of 2 of 3)" in lines
    assert "GRS          1.0000  (mean of 1 of 3)" in lines
    full = RubyScorer(language="python", source_language="java").score_source_corpus(
        [JAVA], [PY])
    out = io.StringIO()
    write_table(full, out)
    assert "RUBY         1.0000  (mean of 1)" in out.getvalue().splitlines()


def test_the_cli_says_how_many_pairs_a_mean_is_over(tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    rows = [{"id": "ok", "source": JAVA, "candidate": PY},
            {"id": "empty", "source": JAVA, "candidate": ""},
            {"id": "bad-source", "source": "@@@ )))", "candidate": PY}]
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out_file = tmp_path / "scores.json"
    code, _, err = run(capsys, "score", "--jsonl", pairs, "--source-lang", "java", "--lang",
                       "python", "-f", "json", "-o", out_file)
    assert code == 0
    corpus = json.loads(out_file.read_text())["corpus"]
    assert corpus["partial_means"]["ruby"] == "mean of 2 of 3"
    assert [p["ruby"] for p in json.loads(out_file.read_text())["pairs"]] == [1.0, 0.0, None]
    assert "3 pairs, RUBY 0.5000 (mean of 2 of 3)," in err


def _warnings(caplog, sources, candidates, source_language, language):
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ruby_metric"):
        RubyScorer(language=language, source_language=source_language).score_source_corpus(
            sources, candidates)
    return [r.getMessage() for r in caplog.records]


def test_the_language_check_watches_both_sides_against_a_source(caplog):
    sources, cands = [JAVA] * 12, [PY] * 10 + ["", "junk ))) ("]
    assert _warnings(caplog, sources, cands, "java", "python") == []
    # the wrong --source-lang: Java read as Python (every source, whatever its candidate:
    # an empty or unparsable one does not hide its source's failure)
    assert _warnings(caplog, sources, cands, "python", "python") == [
        "the sources of 12 of 12 pairs do not parse cleanly as python (first: pair 0, source: "
        "parse error at line 1, col 1): is the language right?"
    ]
    # the wrong --lang: Python candidates read as Java (all scored 0, none unseen)
    assert _warnings(caplog, sources, cands, "java", "java") == [
        "the candidates of 11 of 12 pairs do not parse cleanly as java (first: pair 0, "
        "candidate: parse error at line 1, col 1): is the language right?"
    ]
    # under 10 pairs a majority says too little (8 of 9 is silent), but every source of
    # the run failing is what a wrong language does, down to one pair
    assert _warnings(caplog, [*sources[:8], PY], cands[:9], "python", "python") == []
    assert _warnings(caplog, sources[:9], cands[:9], "python", "python") == [
        "the sources of 9 of 9 pairs do not parse cleanly as python (first: pair 0, source: "
        "parse error at line 1, col 1): is the language right?"
    ]
    assert _warnings(caplog, sources[:1], cands[:1], "python", "python") == [
        "the sources of 1 of 1 pair do not parse cleanly as python (first: pair 0, source: "
        "parse error at line 1, col 1): is the language right?"
    ]
    assert _warnings(caplog, sources[:1], cands[:1], "java", "python") == []


def test_meta_compare_says_how_many_pairs_its_means_are_over(tmp_path, capsys):
    refs, a, b = tmp_path / "refs.java", tmp_path / "a.java", tmp_path / "b.java"
    lines = ["int f(int x) { return x + 1; }", "int g(int y) { return y * 2; }",
             "int h() { return 3; }"]
    refs.write_text("\n".join(lines) + "\n")
    a.write_text("\n".join(lines) + "\n")
    b.write_text("\n".join([*lines[:2], "@@@ ))) ("]) + "\n")  # GRS n/a on B's third
    code, out, err = run(capsys, "meta", "compare", refs, a, b, "--lang", "java",
                         "--metrics", "ruby,grs", "--trials", "99", "--bootstrap", "50")
    assert code == 0, err
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line[:4] in
            ("RUBY", "GRS ")}
    assert rows["RUBY"][-1] == "3"  # the string tier scores B's junk: every pair
    assert rows["GRS"][-3:] == ["2", "of", "3"]
