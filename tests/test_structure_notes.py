"""The corpus summary counts the sides repair and containment changed, whichever side."""

from ruby_metric import RubyScorer
from ruby_metric.scoring.structure_notes import side_changes, structure_summary


def test_several_references_and_both_sides_are_counted():
    reasons = {"grs": 'reference 2: repaired (appended "}")',
               "trs": "both: 1 statement unparsed, kept as text (line 1, col 3)"}
    assert side_changes(reasons) == ({"reference"}, {"candidate", "reference"})


def test_a_repaired_source_is_counted_in_the_corpus_summary():
    scorer = RubyScorer(language="cs", source_language="java")
    corpus = scorer.score_source_corpus(
        ["public int f(int a) { return g(a; }", "int f() { return 1; }"],
        ["public int F(int a) { return G(a); }", "int f() { return 1;"])
    structure = corpus.to_dict()["corpus"]["structure"]
    assert structure == {"repaired": {"candidate": 1, "source": 1}}
    assert structure_summary(structure) == "repaired: 1 candidate, 1 source"
