"""Reasons name the side that stops a tier: ``both:`` when reference and candidate fail alike."""

from ruby_metric import Limits, RubyScorer

SMALL = "int f(int a){return a+1;}"
BIGGER = "int f(int a){int b = a * 2; if (b > 3) { b = b - 1; } return b + 1;}"


def test_both_sides_too_long_say_both_with_each_size():
    scorer = RubyScorer("java", metrics=["grs", "trs"], limits=Limits(max_chars=20))
    r = scorer.score(SMALL, BIGGER)
    expected = (f"both: code longer than the limit (reference: {len(SMALL)} > 20 chars; "
                f"candidate: {len(BIGGER)} > 20 chars)")
    assert r.reasons == {"grs": expected, "trs": expected}
    # the same length on both sides: said once
    same = BIGGER.replace("b", "c")
    r = scorer.score(same, BIGGER)
    assert r.reasons["trs"] == f"both: code longer than the limit ({len(BIGGER)} > 20 chars)"


def test_both_sides_too_large_trees_and_graphs():
    scorer = RubyScorer("java", metrics=["grs", "trs"],
                        limits=Limits(max_ast_nodes=5, max_pdg_nodes=2))
    r = scorer.score(SMALL, BIGGER)
    assert r.reasons["trs"] == (
        "both: AST larger than the limit (reference: 13 > 5 nodes; candidate: 32 > 5 nodes)"
    )
    # the PDG build stops at the limit: only a lower bound is known
    assert r.reasons["grs"] == "both: PDG larger than the limit (more than 2 nodes)"


def test_only_the_candidate_fails_says_candidate():
    scorer = RubyScorer("java", metrics=["grs", "trs"],
                        limits=Limits(max_ast_nodes=20, max_pdg_nodes=3))
    r = scorer.score(SMALL, BIGGER)
    assert r.reasons["trs"] == "candidate: AST larger than the limit (32 > 20 nodes)"
    assert r.reasons["grs"] == "candidate: PDG larger than the limit (more than 3 nodes)"
    # different kinds of failure: the candidate's reason, as before
    r = RubyScorer("java", metrics=["trs"], limits=Limits(max_ast_nodes=5)).score(
        SMALL, "int f( {"
    )
    assert r.reasons["trs"].startswith("candidate: ")
