"""Paired significance tests and the vectorized corpus BLEU they resample."""

import itertools

import numpy as np
import pytest
from scipy import stats

import crystal
from ruby_metric import RubyScorer
from ruby_metric.meta import (
    TESTS,
    StackedStats,
    approximate_randomization,
    compare_results,
    compare_systems,
    minimum_pairs,
    paired_bootstrap,
    paired_ttest,
)

VOCAB = ["a", "b", "c", "d", "e", "f", "g", "h", "(", ")", "{", "}", ";", "=", "+", "x", "y", "z"]


def random_tokens(rng, n):
    return [VOCAB[i] for i in rng.integers(0, len(VOCAB), n)]


@pytest.fixture(scope="module")
def segments():
    rng = np.random.default_rng(3)
    refs = [random_tokens(rng, int(rng.integers(1, 30))) for _ in range(40)]
    hyps = [r[: max(0, len(r) - int(rng.integers(0, 4)))] + random_tokens(rng, 3) for r in refs]
    hyps[5] = list(refs[5])  # an exact match
    hyps[6] = []  # an empty hypothesis
    return refs, hyps


@pytest.mark.parametrize("smoothing", ["method1", "method3", "method5", "floor"])
def test_vectorized_corpus_bleu_equals_corpus_score_exactly(segments, smoothing):
    refs, hyps = segments
    ngrams = crystal.build_ngram_set([" ".join(r) for r in refs], k=12, tokenizer="whitespace")
    for metric in (
        crystal.CrystalBLEU(ngrams, smoothing=smoothing, tokenizer="whitespace"),
        crystal.CrystalBLEU(None, smoothing=smoothing),
    ):
        stats_ = [metric.segment_stats([r], h) for r, h in zip(refs, hyps, strict=True)]
        stacked = StackedStats.from_stats(stats_)
        rng = np.random.default_rng(0)
        rows = []
        subsets = [np.arange(40), rng.integers(0, 40, 40), rng.integers(0, 40, 7), [5], [6, 5]]
        for idx in subsets:
            rows.append(np.bincount(idx, minlength=40))
        got = stacked.scores(metric, np.array(rows, float))
        for value, idx in zip(got, subsets, strict=True):
            assert value == metric.corpus_score([stats_[i] for i in idx])


def test_log_weight_variant_agrees_to_rounding(segments):
    refs, hyps = segments
    ngrams = crystal.build_ngram_set([" ".join(r) for r in refs], k=12, tokenizer="whitespace")
    metric = crystal.CrystalBLEU(ngrams, variant="log-weight", tokenizer="whitespace")
    stats_ = [metric.segment_stats([r], h) for r, h in zip(refs, hyps, strict=True)]
    got = StackedStats.from_stats(stats_).scores(metric, np.ones((1, 40)))[0]
    assert got == pytest.approx(metric.corpus_score(stats_), rel=1e-12)


def test_ttest_equals_scipy():
    rng = np.random.default_rng(1)
    a, b = rng.uniform(0, 1, 30), rng.uniform(0, 1, 30)
    t, p = paired_ttest(a, b)
    ref = stats.ttest_rel(a, b)
    assert t == ref.statistic and p == ref.pvalue
    assert paired_ttest([0.5, 0.5], [0.5, 0.5]) == (None, 1.0)
    assert paired_ttest([0.6, 0.7], [0.5, 0.6]) == (None, 0.0)
    assert paired_ttest([0.6], [0.5]) == (None, None)


def test_approximate_randomization_matches_the_exact_permutation_test():
    a = np.array([0.9, 0.7, 0.65, 0.4, 0.8, 0.5])
    b = np.array([0.6, 0.75, 0.5, 0.35, 0.5, 0.55])
    observed = abs(a.mean() - b.mean())
    stats_ = [
        abs(np.where(s, b, a).mean() - np.where(s, a, b).mean())
        for s in itertools.product([False, True], repeat=6)
    ]
    exact = np.mean(np.array(stats_) >= observed - 1e-12)
    p = approximate_randomization(a, b, trials=20000, seed=0)
    assert p == pytest.approx(exact, abs=0.01)


def test_randomization_and_bootstrap_are_seeded():
    rng = np.random.default_rng(2)
    a = rng.uniform(0, 1, 50)
    b = a + rng.normal(0.03, 0.2, 50)
    p1 = approximate_randomization(a, b, trials=999, seed=1)
    assert p1 == approximate_randomization(a, b, trials=999, seed=1)
    assert any(approximate_randomization(a, b, trials=999, seed=s) != p1 for s in (2, 3, 4))
    b1 = paired_bootstrap(a, b, samples=500, seed=1)
    assert b1 == paired_bootstrap(a, b, samples=500, seed=1)
    assert any(paired_bootstrap(a, b, samples=500, seed=s) != b1 for s in (2, 3, 4))
    assert 0 < p1 < 1 and 0 < b1.p_value < 1


def test_clear_and_null_differences():
    a = np.linspace(0.5, 0.9, 30)
    assert approximate_randomization(a, a, trials=200) == 1.0
    assert paired_bootstrap(a, a, samples=200).p_value == 1.0
    assert approximate_randomization(a, a - 0.3, trials=999) == pytest.approx(1 / 1000)
    boot = paired_bootstrap(a, a - 0.3, samples=300)
    assert boot.p_value == 0.0 and boot.difference_ci == pytest.approx((0.3, 0.3))


REFS = [
    "int total = 0 ; for ( int i = 0 ; i < n ; i ++ ) total += a [ i ] ;",
    "return x . equals ( y ) ;",
    "if ( list == null ) throw new IllegalArgumentException ( ) ;",
    "String s = name . trim ( ) . toLowerCase ( ) ;",
    "count = count + 1 ;",
    "Map < String , Integer > m = new HashMap < > ( ) ;",
    "while ( it . hasNext ( ) ) { sum += it . next ( ) ; }",
    "System . out . println ( result ) ;",
]
GOOD = [r.replace("total", "sum").replace("count", "n") for r in REFS]
BAD = ["( ) ; { } = 0 ;", "return ;", "if ( ) ;", "s = ;", "= 1 ;", "new ( ) ;", "{ } ;", ";"]


@pytest.fixture(scope="module")
def scorer():
    ngrams = crystal.build_ngram_set(REFS + BAD, k=10)
    return RubyScorer(language=None, metrics=["sts", "crystalbleu", "bleu"], ngrams=ngrams)


def test_compare_systems_scores_like_the_scorer(scorer):
    report = compare_systems(scorer, REFS, GOOD, BAD, trials=999, bootstrap=300, seed=0)
    corpus_good = scorer.score_corpus(REFS, GOOD)
    corpus_bad = scorer.score_corpus(REFS, BAD)
    assert report["bleu"].score_a == corpus_good.bleu and report["bleu"].score_b == corpus_bad.bleu
    assert report["crystalbleu"].score_a == corpus_good.crystalbleu
    assert report["sts"].score_a == pytest.approx(corpus_good.means["sts"], abs=1e-12)
    assert report["bleu"].level == "corpus" and report["sts"].level == "mean"
    for metric in ("sts", "crystalbleu", "bleu"):
        r = report[metric]
        assert r.difference > 0 and r.n == 8 and r.excluded == 0
        assert r.p_value_randomization < 0.05 and r.p_value_bootstrap < 0.05
    # The t-test runs on sentence-level scores.
    good = [p.bleu for p in corpus_good.pairs]
    bad = [p.bleu for p in corpus_bad.pairs]
    assert report["bleu"].p_value_ttest == stats.ttest_rel(good, bad).pvalue
    again = compare_systems(scorer, REFS, GOOD, BAD, trials=999, bootstrap=300, seed=0)
    assert again.to_dict() == report.to_dict()


def test_compare_identical_systems_is_not_significant(scorer):
    report = compare_systems(scorer, REFS, GOOD, GOOD, trials=99, bootstrap=50)
    for r in report.values():
        assert r.difference == 0 and r.p_value_randomization == 1.0
        assert r.p_value_bootstrap == 1.0 and r.p_value_ttest == 1.0


def test_compare_results_excludes_pairs_undefined_for_either_system(scorer):
    from dataclasses import replace

    a = scorer.score_corpus(REFS, GOOD)
    b = scorer.score_corpus(REFS, BAD)
    pairs = list(b.pairs)
    pairs[2] = replace(pairs[2], sts=None)
    b = replace(b, pairs=tuple(pairs))
    r = compare_results(a, b, metrics=["sts"], trials=99, bootstrap=50)["sts"]
    assert (r.n, r.excluded) == (7, 1)
    keep = [i for i in range(8) if i != 2]
    assert r.score_a == pytest.approx(np.mean([a.pairs[i].sts for i in keep]), abs=1e-12)
    with pytest.raises(ValueError, match="pairs"):
        compare_results(a, scorer.score_corpus(REFS[:3], GOOD[:3]))


def test_minimum_pairs_follow_each_tests_principle():
    # randomization and t-test: 2; bootstrap: the least n with n**-n below the CI's tail
    assert [minimum_pairs(t) for t in TESTS] == [2, 4, 2]
    assert minimum_pairs("bootstrap", 0.9) == 3 and minimum_pairs("bootstrap", 0.999) == 5
    with pytest.raises(ValueError, match="unknown test"):
        minimum_pairs("sign")


def test_one_pair_is_too_few_for_any_test(scorer):
    a, b = scorer.score_corpus(REFS[:1], GOOD[:1]), scorer.score_corpus(REFS[:1], BAD[:1])
    r = compare_results(a, b, metrics=["sts", "bleu"], trials=99, bootstrap=50)
    for metric in ("sts", "bleu"):
        assert r[metric].n == 1 and r[metric].difference > 0
        assert r[metric].p_value_randomization is None
        assert r[metric].p_value_bootstrap is None and r[metric].difference_ci is None
        assert r[metric].p_value_ttest is None and r[metric].bootstrap_samples == 0
        assert r[metric].not_applicable == {
            "randomization": "1 pair, needs 2: swapping one pair only flips the sign of "
            "A - B, so p = 1 always",
            "bootstrap": "1 pair, needs 4: the only resample is the pair itself",
            "ttest": "1 pair, needs 2: one pair has no variance",
        }
    data = r["sts"].to_dict()
    assert data["p_value_bootstrap"] is None and set(data["not_applicable"]) == set(TESTS)


def test_three_pairs_run_randomization_and_ttest_but_not_the_bootstrap(scorer):
    a, b = scorer.score_corpus(REFS[:3], GOOD[:3]), scorer.score_corpus(REFS[:3], BAD[:3])
    r = compare_results(a, b, metrics=["sts"], trials=999, bootstrap=100)["sts"]
    # all three pairs favour A: the exact randomization p is 2 / 2**3
    assert r.p_value_randomization == pytest.approx(0.25, abs=0.04)
    assert r.p_value_ttest is not None and r.p_value_bootstrap is None
    assert list(r.not_applicable) == ["bootstrap"]
    assert r.not_applicable["bootstrap"].startswith("3 pairs, needs 4: resamples repeating")
    full = compare_results(
        scorer.score_corpus(REFS, GOOD), scorer.score_corpus(REFS, BAD), metrics=["sts"],
        trials=99, bootstrap=100,
    )["sts"]
    # every pair favours A: 0 of the 100 resamples, which the JSON lets a reader see
    assert full.p_value_bootstrap == 0.0 and full.not_applicable == {}
    assert full.to_dict()["bootstrap_samples"] == 100 and full.to_dict()["trials"] == 99


@pytest.mark.parametrize("confidence", [1.0, 0.0, 1.5, float("nan")])
def test_minimum_pairs_rejects_a_confidence_outside_0_1(confidence):
    # a confidence of 1 leaves no tail: the search for n would never end
    with pytest.raises(ValueError, match="confidence must be in"):
        minimum_pairs("bootstrap", confidence)
