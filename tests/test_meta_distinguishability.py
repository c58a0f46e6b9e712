"""Distinguishability and the threshold classifier, checked by hand on tiny classes."""

import math
from dataclasses import replace

import numpy as np
import pytest

import crystal
from ruby_metric import RubyScorer
from ruby_metric.meta import (
    distinguishability,
    distinguishability_from_scores,
    score_class_pairs,
    threshold_classifier,
)
from ruby_metric.scoring.results import CorpusResult, PairResult

# Two classes of two "programs" each. STS = 1 - token Levenshtein / longer length:
#   intra: (A0, A1) and (B0, B1) differ in one of three tokens: 2/3, both directions;
#   inter: only A0 ~ B1 share a token in place ("c"): 1/3 both ways, the other six are 0.
# intra mean 2/3, inter mean (2 * 1/3) / 8 = 1/12, d = 8.
CLASSES = [("A", "a b c"), ("A", "a b d"), ("B", "x y z"), ("B", "x y c")]


@pytest.fixture(scope="module")
def scorer():
    ngrams = crystal.build_ngram_set([text for _, text in CLASSES], k=3)
    return RubyScorer(language=None, metrics=["sts", "crystalbleu", "bleu"], ngrams=ngrams)


def test_exact_sts_distinguishability_by_hand(scorer):
    report = distinguishability(CLASSES, scorer, bootstrap=0)
    assert report.exact and (report.pairs_intra, report.pairs_inter) == (4, 8)
    assert (report.population_intra, report.population_inter) == (4, 8)
    sts = report["sts"]
    assert sts.intra == pytest.approx(2 / 3, abs=1e-12)
    assert sts.inter == pytest.approx(1 / 12, abs=1e-12)
    assert sts.d == pytest.approx(8.0, abs=1e-9)
    assert (sts.n_intra, sts.n_inter, sts.excluded_intra, sts.excluded_inter) == (4, 8, 0, 0)
    assert set(report) == {"sts", "crystalbleu", "bleu"}


def test_bleus_are_means_of_sentence_scores_and_corpus_variant(scorer):
    report = distinguishability(CLASSES, scorer, bootstrap=0)
    bleu = crystal.CrystalBLEU(smoothing="method1", epsilon=1e-4)
    texts = [t for _, t in CLASSES]
    tok = [crystal.tokenize(t) for t in texts]
    intra = [(0, 1), (1, 0), (2, 3), (3, 2)]
    inter = [(i, j) for i in range(4) for j in range(4) if i != j and (i, j) not in intra]
    means = [
        math.fsum(bleu.sentence_score([tok[i]], tok[j]) for i, j in group) / len(group)
        for group in (intra, inter)
    ]
    assert report["bleu"].intra == means[0] and report["bleu"].inter == means[1]
    corpus = [
        bleu.corpus_score([bleu.segment_stats([tok[i]], tok[j]) for i, j in g])
        for g in (intra, inter)
    ]
    assert report["bleu"].corpus_intra == corpus[0]
    assert report["bleu"].corpus_d == pytest.approx(corpus[0] / corpus[1], rel=1e-12)


def test_bootstrap_interval_is_seeded_and_contains_d():
    rng = np.random.default_rng(7)
    intra, inter = rng.uniform(0.4, 0.9, 300), rng.uniform(0.1, 0.5, 300)
    a = distinguishability_from_scores(intra, inter, bootstrap=500, seed=1)
    b = distinguishability_from_scores(intra, inter, bootstrap=500, seed=1)
    c = distinguishability_from_scores(intra, inter, bootstrap=500, seed=2)
    assert a.d_ci == b.d_ci and a.d_ci != c.d_ci
    assert a.d_ci[0] < a.d < a.d_ci[1]


def test_undefined_scores_are_excluded_and_counted():
    r = distinguishability_from_scores(
        [0.8, None, 0.6, float("nan")], [0.2, 0.4, None], bootstrap=0
    )
    assert (r.n_intra, r.excluded_intra, r.n_inter, r.excluded_inter) == (2, 2, 2, 1)
    assert r.intra == pytest.approx(0.7) and r.inter == pytest.approx(0.3)
    assert r.d == pytest.approx(0.7 / 0.3)
    assert distinguishability_from_scores([0.5], [0.0], bootstrap=10).d is None  # inter 0


class _FakeScorer:
    """Scores pairs by the programs' numbers; TRS undefined when 'broken' is involved."""

    metrics = ("trs", "sts")

    def score_corpus(self, refs, cands, ids=None, workers=1):
        pairs = []
        for pid, r, c in zip(ids, refs, cands, strict=True):
            broken = "broken" in (r, c)
            same = r[0] == c[0]
            pairs.append(
                PairResult(
                    id=pid,
                    trs=None if broken else (0.9 if same else 0.3),
                    sts=0.5 if same else 0.25,
                    reasons={"trs": "candidate: parse error at line 3, col 14"} if broken else {},
                )
            )
        return CorpusResult(
            pairs=tuple(pairs),
            crystalbleu=None,
            bleu=None,
            means={},
            counts={},
            tiers={},
            signature="fake",
        )


def test_report_counts_exclusions_and_groups_reasons():
    classes = [("x", "x1"), ("x", "x2"), ("x", "broken"), ("y", "y1"), ("y", "y2")]
    report = distinguishability(classes, _FakeScorer(), bootstrap=100, seed=0)
    trs = report["trs"]
    # "broken" (class x; its first letter is b, so it never matches) is in 2*2 intra and
    # 2*2 inter ordered pairs.
    assert (trs.excluded_intra, trs.excluded_inter) == (4, 4)
    assert trs.intra == pytest.approx(0.9) and trs.inter == pytest.approx(0.3)
    assert report["sts"].excluded_intra == 0
    assert report.reasons == {"trs": {"candidate: parse error at line #, col #": 8}}
    assert report.to_dict()["metrics"]["trs"]["d"] == pytest.approx(3.0)


class NotingScorer(_FakeScorer):
    """As :class:`_FakeScorer`, and TRS scored with a note when "kept" is involved."""

    def score_corpus(self, refs, cands, ids=None, workers=1):
        corpus = super().score_corpus(refs, cands, ids=ids, workers=workers)
        pairs = []
        for p, r, c in zip(corpus.pairs, refs, cands, strict=True):
            if "kept" in (r, c) and p.trs is not None:
                side = "reference" if r == "kept" else "candidate"
                note = f"{side}: 1 statement unparsed, kept as text (line 2)"
                p = replace(p, reasons={"trs": note})
            pairs.append(p)
        return replace(corpus, pairs=tuple(pairs))


NOTED_CLASSES = [
    ("x", "x1"), ("x", "x2"), ("x", "broken"), ("y", "y1"), ("y", "y2"), ("y", "kept")
]


def test_notes_on_scored_pairs_are_not_counted_as_undefined():
    report = distinguishability(NOTED_CLASSES, NotingScorer(), bootstrap=0, seed=0)
    trs = report["trs"]
    # "broken" is in 2 * 5 ordered pairs, TRS undefined there; "kept" in 10 more (2 of them
    # with "broken", which stay undefined), scored with a note: 8 notes, not exclusions
    assert trs.excluded_intra + trs.excluded_inter == 10
    assert report.reasons == {"trs": {"candidate: parse error at line #, col #": 10}}
    assert report.notes == {
        "trs": {
            "candidate: # statement unparsed, kept as text (line #)": 4,
            "reference: # statement unparsed, kept as text (line #)": 4,
        }
    }
    data = report.to_dict()
    assert data["reasons"] == report.reasons and data["notes"] == report.notes


def test_score_class_pairs_scores_each_pair_once(scorer):
    scored = score_class_pairs(CLASSES, scorer)
    assert len(scored.corpus) == 12
    intra, inter = scored.scores("sts")
    assert len(intra) == 4 and len(inter) == 8


def test_threshold_classifier_by_hand():
    pos = [0.9, 0.8, 0.7, 0.6]
    neg = [0.1, 0.2, 0.5, 0.65]
    train = np.array([1, 1, 0, 0, 1, 1, 0, 0], bool)
    r = threshold_classifier(pos, neg, train_mask=train)
    # threshold = (mean(0.9, 0.8) + mean(0.1, 0.2)) / 2 = 0.5; test: 0.7, 0.6 > 0.5 (TP),
    # 0.5 is not above it (TN), 0.65 is (FP).
    assert r.threshold == pytest.approx(0.5)
    assert (r.tp, r.fp, r.tn, r.fn) == (2, 1, 1, 0)
    assert r.accuracy == 0.75 and r.precision == pytest.approx(2 / 3) and r.recall == 1.0
    assert r.f1 == pytest.approx(0.8)


def test_threshold_classifier_seeded_split_and_errors():
    rng = np.random.default_rng(0)
    pos, neg = rng.uniform(0.3, 1, 40), rng.uniform(0, 0.7, 40)
    assert threshold_classifier(pos, neg, seed=5) == threshold_classifier(pos, neg, seed=5)
    r = threshold_classifier(pos, neg, seed=5)
    assert r.n_train == r.n_test == 40 and r.tp + r.fn == 20
    with pytest.raises(ValueError, match="both kinds"):
        threshold_classifier([0.5, None], [0.1, 0.2], train_mask=np.array([1, 0, 1, 0], bool))
