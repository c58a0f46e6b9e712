"""Each tier explains what it measured, and an explanation computes nothing twice."""

from __future__ import annotations

import pytest

import graphs
from ruby_metric import RubyScorer
from ruby_metric.scoring.code import Code, Limits
from ruby_metric.scoring.evidence import GraphExplanation, StringExplanation, TreeExplanation
from ruby_metric.scoring.tiers import GraphTier, StringTier, TreeTier

PAIRS = {
    "java": (
        "int f(int a){ int s = 0; for (int i = 0; i < a; i++) s += i; return s; }",
        "int f(int n){ int s = 0; int i = 0; while (i <= n) { s = s + i; i++; } return s; }",
    ),
    "python": (
        "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n",
        "def f(xs):\n    return sum(xs)\n",
    ),
    "cs": (
        "int F(int x) { if (x > 0) { return 1; } else { return -1; } }",
        "int F(int x) { return x > 0 ? 1 : 0; }",
    ),
}


@pytest.mark.parametrize("language", sorted(PAIRS))
@pytest.mark.parametrize(
    ("tier_class", "evidence_class"),
    [(StringTier, StringExplanation), (TreeTier, TreeExplanation), (GraphTier, GraphExplanation)],
)
def test_explain_gives_the_similarity_it_explains(language, tier_class, evidence_class):
    tier = tier_class(Limits())
    ref_text, cand_text = PAIRS[language]
    tokenizer = "code-python" if language == "python" else "code"
    ref = tier.represent(Code(ref_text, language, tokenizer, Limits()))
    cand = tier.represent(Code(cand_text, language, tokenizer, Limits()))
    evidence = tier.explain(ref, cand)
    assert isinstance(evidence, evidence_class)
    assert evidence.similarity == tier.similarity(ref, cand)  # equal, not approximately
    assert 0.0 < evidence.similarity < 1.0


def test_string_evidence_by_hand():
    tier = StringTier(Limits())
    e = tier.explain(["int", "x", "=", "1", ";"], ["long", "x", "=", "2", ";", "}"])
    # two replacements and one insertion over the longer side's six tokens
    assert (e.distance, e.ref_length, e.cand_length) == (3, 5, 6)
    assert e.similarity == 1 - 3 / 6
    assert [(x.kind, x.ref_token, x.cand_token) for x in e.edits] == [
        ("replace", "int", "long"),
        ("replace", "1", "2"),
        ("insert", None, "}"),
    ]


class _Counting:
    """Wraps a function of :mod:`graphs` and counts its calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.calls = 0
        original = getattr(graphs, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(graphs, name, counted)


def test_explain_runs_each_distance_once(monkeypatch):
    ged = _Counting(monkeypatch, "graph_edit_distance")
    ted = _Counting(monkeypatch, "tree_edit_distance")
    mapping = _Counting(monkeypatch, "tree_edit_mapping")
    ref, cand = PAIRS["java"]
    e = RubyScorer("java").explain(ref, cand)
    # One GED (with its edit path) and one tree mapping; no distance-only rerun.
    assert (ged.calls, mapping.calls, ted.calls) == (1, 1, 0)
    assert e.graph.similarity == e.result.grs == RubyScorer("java").score(ref, cand).grs
    assert e.tree.similarity == e.result.trs


def test_explain_with_several_references_uses_the_winner(monkeypatch):
    ged = _Counting(monkeypatch, "graph_edit_distance")
    refs = [
        "int f(int a){ return a * 2; }",
        "int f(int a){ return a + 1; }",  # the candidate's own meaning: RUBY's best
        "int f(int a){ int t = a; return t - 1; }",
    ]
    cand = "int f(int b){ return b + 1; }"
    e = RubyScorer("java").explain(refs, cand)
    assert e.reference_index == 1 and e.reference_count == 3
    assert e.result.grs == 1.0 and e.graph.similarity == 1.0
    assert ged.calls == 3  # one per reference, each with its evidence: none recomputed
    # the other tiers' evidence is against the same reference
    assert e.string.ref_length == len(e.ref_tokens)
    assert e.reference == refs[1]
