"""Scoring against the source (SPEC section 9): RubyScorer(source_language=...), the CLI's
--source-lang and JSONL ``source`` field, explanations with the neutral map, signatures."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from graphs.neutral import CallEntry, CallTable
from ruby_metric import RubyScorer
from ruby_metric.io.inputs import iter_jsonl
from ruby_metric.scoring.crosslang import NOT_COMPARABLE

ROOT = Path(__file__).resolve().parents[1]
JAVA = "int total(int[] xs) { int s = 0; for (int x : xs) s += x; return s; }"
PY = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s"
PY_OTHER = "def first(xs):\n    if len(xs) > 0:\n        return xs[0]\n    return None"


@pytest.fixture(scope="module")
def scorer() -> RubyScorer:
    return RubyScorer(language="python", source_language="java")


def test_a_faithful_translation_scores_one_and_lexical_metrics_are_not_comparable(scorer):
    r = scorer.score_source(JAVA, PY, id="t1")
    assert (r.id, r.mode, r.ruby, r.tier, r.grs) == ("t1", "source", 1.0, "graph", 1.0)
    assert (r.sts, r.crystalbleu, r.bleu) == (None, None, None)
    assert {r.reasons[m] for m in ("sts", "crystalbleu", "bleu")} == {NOT_COMPARABLE}
    assert r.to_dict()["mode"] == "source" and "mode" not in r.to_record()


def test_another_program_scores_lower(scorer):
    same = scorer.score_source(JAVA, PY)
    other = scorer.score_source(JAVA, PY_OTHER)
    assert other.grs < 0.6 < same.grs


def test_each_mode_refuses_the_other_ones_calls(scorer):
    with pytest.raises(ValueError, match="score_source"):
        scorer.score(JAVA, PY)
    with pytest.raises(ValueError, match="score_source"):
        scorer.score_corpus([JAVA], [PY])
    with pytest.raises(ValueError, match="source_language"):
        RubyScorer(language="python").score_source(JAVA, PY)
    with pytest.raises(ValueError, match="needs language"):
        RubyScorer(source_language="java")


def test_a_reference_scorer_is_unchanged_by_the_mode():
    r = RubyScorer(language="python").score(PY, PY)
    assert r.mode == "reference" and "mode" not in r.to_dict() and r.bleu == 1.0


def test_signature_names_the_mode_the_source_and_both_grammars(scorer):
    signature = scorer.signature()
    assert "|mode:source|srclang:java|map:neutral5-" in signature
    assert "grammar:tree-sitter-java-" in signature and "+tree-sitter-python-" in signature
    table = CallTable.default().with_entries(
        CallEntry("frobnicate", "frob($0)", {"java": "$0.frobnicate()", "python": "frob($0)"})
    )
    other = RubyScorer(language="python", source_language="java", call_table=table)
    assert other.signature() != signature  # another table is another measurement
    assert RubyScorer(language="python").signature().count("mode:") == 0


def test_a_call_table_entry_makes_a_call_known(scorer):
    java = "int f(Thing t) { return t.frobnicate(); }"
    py = "def f(t):\n    return frob(t)"
    table = CallTable.default().with_entries(
        CallEntry("frobnicate", "frob($0)", {"java": "$0.frobnicate()", "python": "frob($0)"})
    )
    extended = RubyScorer(language="python", source_language="java", call_table=table)
    before, after = scorer.score_source(java, py), extended.score_source(java, py)
    assert after.grs == 1.0 > before.grs
    assert "not known to the map (frobnicate" in before.reasons["grs"]


def test_corpus_form_with_workers_equals_one_process(scorer):
    sources, cands = [JAVA] * 70, [PY if i % 3 else PY_OTHER for i in range(70)]
    one = scorer.score_source_corpus(sources, cands)
    assert one.tiers["graph"] == 70 and one.bleu is None and one.crystalbleu is None
    assert one.pairs[1].ruby == 1.0 and one.pairs[0].ruby < 0.6
    assert "mode:source" in one.signature
    table = CallTable.default().with_entries(
        CallEntry("frobnicate", "frob($0)", {"java": "$0.frobnicate()", "python": "frob($0)"})
    )
    with RubyScorer(language="python", source_language="java", call_table=table) as pooled:
        pickle.loads(pickle.dumps(pooled))  # what the workers receive
        two = pooled.score_source_corpus(sources, cands, workers=2)
    assert [p.to_dict() for p in two.pairs] == [p.to_dict() for p in one.pairs]


def test_explain_source_shows_the_neutral_map(scorer):
    e = scorer.explain_source(JAVA + " // sum", PY)
    text = e.to_text()
    assert "against its source in java" in text and "Neutral map" in text
    # the statement as written, and its label in the PDG the graph tier compares
    assert "line 1 'int total(int[] xs)' -> 'def total(_)'" in text
    d = e.to_dict()
    assert d["source_language"] == "java" and json.loads(json.dumps(d)) == d
    source_labels = [m["source"] for m in d["mapping"]["source"]["labels"]]
    assert "int total(int[])" in source_labels
    html = e.to_html()
    assert "Source (java)" in html and "Candidate (python)" in html and 'id="mapping"' in html
    assert e.notes["ngrams"] == NOT_COMPARABLE


def test_jsonl_source_field(tmp_path):
    path = tmp_path / "pairs.jsonl"
    lines = [
        {"source": JAVA, "candidate": PY},
        {"reference": JAVA, "candidate": PY},
        {"source": JAVA, "reference": PY, "candidate": PY},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    as_source = list(iter_jsonl(path, against="source"))
    assert as_source[0].problem is None and as_source[0].reference == JAVA
    assert "missing 'source' (it has a 'reference'" in as_source[1].problem
    assert as_source[2].problem is None and as_source[2].reference == JAVA
    as_reference = list(iter_jsonl(path))
    assert "missing 'reference' (it has a 'source'" in as_reference[0].problem
    assert "--source-lang" in as_reference[0].problem


def test_cli_score_and_explain_against_the_source(tmp_path, capsys):
    src, hyp = tmp_path / "src.java", tmp_path / "hyp.java"
    src.write_text(JAVA + "\n" + JAVA + "\n")
    hyp.write_text("int total(int[] a) { int t = 0; for (int v : a) t += v; return t; }\nint y;\n")
    code, out, _ = run(capsys, "score", src, hyp, "--source-lang", "java", "--lang", "java",
                       "-f", "json")
    corpus = json.loads(out)
    assert code == 0 and corpus["pairs"][0]["ruby"] == 1.0 and corpus["pairs"][0]["mode"]
    assert "mode:source|srclang:java" in corpus["corpus"]["signature"]
    jsonl = tmp_path / "pairs.jsonl"
    jsonl.write_text(json.dumps({"source": JAVA, "candidate": PY, "id": "a"}) + "\n")
    code, out, _ = run(capsys, "score", "--jsonl", jsonl, "--source-lang", "java", "--lang",
                       "python", "-f", "jsonl")
    assert code == 0
    row = json.loads(out)
    assert (row["id"], row["mode"], row["ruby"], row["bleu"]) == ("a", "source", 1.0, None)
    code, out, _ = run(capsys, "score", "--jsonl", jsonl, "--lang", "python", "-f", "jsonl")
    assert code == 2 and not out  # a source without --source-lang: no pair readable
    code, out, _ = run(capsys, "explain", "--jsonl", jsonl, "--pair", "a", "--source-lang",
                       "java", "--lang", "python", "--html", tmp_path / "p.html")
    assert code == 0 and "Neutral map" in out
    assert "Source (java)" in (tmp_path / "p.html").read_text()


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path):
    refs = tmp_path / "refs.java"
    refs.write_text("int x = 1;\n" * 400)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ruby_metric", "score", str(refs), str(refs), "--lang", "java",
         "-f", "jsonl"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert json.loads(first)["ruby"] == 1.0
    assert "Traceback" not in err


JAVA_GETTERS = ("public boolean isExpected(int symbol) { ATNState s = atn.states.get(getState()); "
                "IntervalSet following = atn.nextTokens(s); "
                "if (following.contains(symbol)) { return true; } return false; }")
CS_PROPERTIES = ("public bool IsExpected(int symbol) { ATNState s = atn.states[State]; "
                 "IntervalSet following = atn.NextTokens(s); "
                 "if (following.Contains(symbol)) { return true; } return false; }")


def test_a_port_to_properties_scores_one_and_a_renamed_function_loses_its_name():
    """Java getters and C# properties fold the same temporaries once neutral (GRS 1.0); a
    function renamed loses what its name weighs, word by word (is_expected: 2 words)."""
    cs = RubyScorer(language="csharp", source_language="java")
    r = cs.score_source(JAVA_GETTERS, CS_PROPERTIES)
    assert (r.grs, r.ruby) == (1.0, 1.0)
    renamed = cs.score_source(JAVA_GETTERS, CS_PROPERTIES.replace("IsExpected", "IsWanted"))
    # the entry "def is_expected(_)" vs "def is_wanted(_)" (6 each, one word changed, R = P):
    # d = 0.5033, (6 + 6) d -> 387/64; equal sizes 29: GRS = 1 - (387 / 64) / 58
    assert renamed.grs == pytest.approx(1 - (387 / 64) / 58)
    text = cs.explain_source(JAVA_GETTERS, CS_PROPERTIES).to_text()
    assert "idiom: temporary -> its reader" in text
