"""Distinguishability (CrystalBLEU, section 3.2): intra-class over inter-class similarity.

Given programs in equivalence classes (say, accepted solutions grouped by problem), a good
similarity metric scores two programs of the same class higher than two of different
classes. Eghbali & Pradel define

    d = m(Pairs_intra) / m(Pairs_inter)

and, because the pair populations grow quadratically, approximate it by sampling N intra-
and N inter-class pairs (N = 1000 by default). Here:

* a pair is an ordered ``(reference, candidate)`` pair of two different programs; ``m`` of a
  set of pairs is the *mean* of the per-pair (sentence-level) scores, so every metric is
  treated alike (the paper's definition states the reference side as the rest of the class,
  ``C_i \\ {c_a}``; its sampled variant, which we follow, samples program pairs);
* when both populations together hold at most ``2 * N`` pairs, all of them are scored
  (exact distinguishability); otherwise ``min(N, population)`` of each are sampled uniformly
  without replacement with a seeded generator;
* for CrystalBLEU and BLEU the corpus-level variant (statistics summed over the pairs, the
  way BLEU scores a corpus) is reported too, as ``corpus_d``;
* pairs where a metric is undefined (a tier that does not apply) are left out for that
  metric and counted; the reasons are tallied, apart from the notes on pairs the metric did
  score (a statement kept as text, say), which are tallied as notes;
* a percentile bootstrap interval for d resamples the scored intra and inter pairs
  (independently, with replacement): nothing is scored again.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..scoring.results import CorpusResult
from .classifier import ClassifierResult, threshold_classifier
from .pair_scores import (
    BLEU_METRICS,
    MetricMapping,
    as_float_array,
    check_confidence,
    finite_or_none,
    pair_scores,
    pair_stats,
    percentile_interval,
    scoring_metric,
)
from .sampling import BLOCK_ELEMENTS, ClassPairs, bootstrap_counts, class_pairs, rng_for
from .stacked import StackedStats

__all__ = [
    "DistinguishabilityResult",
    "DistinguishabilityReport",
    "ScoredClassPairs",
    "distinguishability",
    "distinguishability_from_scores",
    "score_class_pairs",
]


@dataclass(frozen=True)
class DistinguishabilityResult:
    """Distinguishability of one metric.

    Attributes
    ----------
    metric : the metric's name.
    d : intra / inter (None when the inter mean is 0 or a side has no defined score).
    intra, inter : mean score of the intra- and inter-class pairs where the metric is defined.
    d_ci : percentile bootstrap interval of d at ``confidence`` (None without bootstrap).
    n_intra, n_inter : pairs with a defined score.
    excluded_intra, excluded_inter : pairs left out because the metric is undefined there.
    corpus_intra, corpus_inter, corpus_d : CrystalBLEU and BLEU only: corpus-level scores
        of the intra and inter pairs (summed statistics) and their ratio.
    classifier : the threshold classifier (CrystalBLEU table 3) on the same pairs, or None.
    confidence, bootstrap : the interval's level and number of resamples.
    """

    metric: str
    d: float | None
    intra: float | None
    inter: float | None
    d_ci: tuple[float, float] | None
    n_intra: int
    n_inter: int
    excluded_intra: int = 0
    excluded_inter: int = 0
    corpus_intra: float | None = None
    corpus_inter: float | None = None
    corpus_d: float | None = None
    classifier: ClassifierResult | None = None
    confidence: float = 0.95
    bootstrap: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``d``, ``intra``, ``inter``, ``d_ci``, counts, classifier)."""
        out: dict[str, Any] = {
            "d": self.d,
            "intra": self.intra,
            "inter": self.inter,
            "d_ci": list(self.d_ci) if self.d_ci else None,
            "n_intra": self.n_intra,
            "n_inter": self.n_inter,
            "excluded_intra": self.excluded_intra,
            "excluded_inter": self.excluded_inter,
        }
        if self.metric in BLEU_METRICS:
            out.update(
                corpus_intra=self.corpus_intra,
                corpus_inter=self.corpus_inter,
                corpus_d=self.corpus_d,
            )
        out["classifier"] = self.classifier.to_dict() if self.classifier else None
        return out


@dataclass(frozen=True)
class ScoredClassPairs:
    """The sampled pairs and their scores: intra pairs first, then inter pairs.

    Attributes
    ----------
    pairs : the :class:`~ruby_metric.meta.sampling.ClassPairs` that were scored.
    corpus : the scorer's result over ``[*pairs.intra, *pairs.inter]`` in that order.
    seconds : wall-clock time of the scoring.
    """

    pairs: ClassPairs
    corpus: CorpusResult
    seconds: float

    @property
    def n_intra(self) -> int:
        """Number of intra-class pairs (the first ones in ``corpus``)."""
        return len(self.pairs.intra)

    def scores(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """Per-pair scores of ``metric`` as (intra, inter) float arrays, NaN where undefined."""
        values = pair_scores(self.corpus, metric)
        return values[: self.n_intra], values[self.n_intra :]


@dataclass(frozen=True)
class DistinguishabilityReport(MetricMapping[DistinguishabilityResult]):
    """Distinguishability of every metric, with how the pairs were drawn and scored.

    Behaves as a read-only ``dict`` from metric name to :class:`DistinguishabilityResult`.

    Attributes
    ----------
    metrics : metric name -> result.
    exact : True when all ordered pairs were scored (no sampling).
    programs, classes : size of the input.
    population_intra, population_inter : how many ordered pairs of each kind exist.
    pairs_intra, pairs_inter : how many were scored.
    seed, pairs_requested : the sampling's seed and N.
    seconds : wall-clock time spent scoring the pairs.
    signature : the scorer's reproducibility signature.
    reasons : per metric, why it was undefined on how many pairs (numbers in the reasons
        replaced by ``#`` so that, e.g., size-limit reasons group together); only pairs the
        metric has no value on count (``excluded_intra + excluded_inter`` of them).
    notes : per metric, the same tally of the notes on pairs the metric *did* score (a
        ``PairResult.reasons`` entry where the metric has a value, e.g. a statement kept as
        text); those pairs are not excluded.
    """

    metrics: dict[str, DistinguishabilityResult]
    exact: bool
    programs: int
    classes: int
    population_intra: int
    population_inter: int
    pairs_intra: int
    pairs_inter: int
    seed: int | None
    pairs_requested: int
    seconds: float
    signature: str
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)
    notes: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict; ``metrics`` maps names to result dicts."""
        return {
            "exact": self.exact,
            "programs": self.programs,
            "classes": self.classes,
            "population": {"intra": self.population_intra, "inter": self.population_inter},
            "pairs": {"intra": self.pairs_intra, "inter": self.pairs_inter},
            "pairs_requested": self.pairs_requested,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "signature": self.signature,
            "metrics": self.metrics_dict(),
            "reasons": self.reasons,
            "notes": self.notes,
        }


def _mean(values: np.ndarray) -> float | None:
    # fsum: the mean does not depend on the order the pairs were scored in.
    return math.fsum(values.tolist()) / len(values) if len(values) else None


def _ratio(num: float | None, den: float | None) -> float | None:
    if num is None or den is None or den == 0:
        return None
    return num / den


def _bootstrap_means(values: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """Mean of the defined values of each bootstrap resample (NaN if none is defined).

    Resamples are drawn over *all* pairs, defined or not, so that with one seed every metric
    is resampled with the same draws.
    """
    n = len(values)
    defined = np.isfinite(values)
    x = np.where(defined, values, 0.0)
    out = np.empty(samples)
    block = max(1, BLOCK_ELEMENTS // max(n, 1))
    for start in range(0, samples, block):
        rows = min(block, samples - start)
        w = bootstrap_counts(rng, rows, n)
        weight = w @ defined.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + rows] = (w @ x) / weight
    return out


def distinguishability_from_scores(
    intra_scores: Sequence[float | None] | np.ndarray,
    inter_scores: Sequence[float | None] | np.ndarray,
    *,
    bootstrap: int = 1000,
    seed: int | np.random.Generator | None = 0,
    confidence: float = 0.95,
    metric: str = "",
) -> DistinguishabilityResult:
    """Distinguishability of already computed per-pair scores.

    Parameters
    ----------
    intra_scores, inter_scores : one score per intra-/inter-class pair; ``None`` or NaN
        where the metric is undefined (left out and counted).
    bootstrap : resamples for the interval of d (0: no interval).
    seed : seed of the resampling.
    confidence : level of the interval (default 0.95).
    metric : the name to put in the result.

    Returns
    -------
    DistinguishabilityResult (without corpus-level scores or classifier).

    Examples
    --------
    >>> r = distinguishability_from_scores([0.8, 0.6, None], [0.2, 0.4], bootstrap=0)
    >>> r.intra, r.inter, round(r.d, 6), r.excluded_intra
    (0.7, 0.30000000000000004, 2.333333, 1)
    """
    check_confidence(confidence)
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, got {bootstrap}")
    intra = as_float_array(intra_scores)
    inter = as_float_array(inter_scores)
    intra_ok, inter_ok = intra[np.isfinite(intra)], inter[np.isfinite(inter)]
    mean_intra, mean_inter = _mean(intra_ok), _mean(inter_ok)
    d = _ratio(mean_intra, mean_inter)
    d_ci = None
    if bootstrap and len(intra_ok) and len(inter_ok):
        rng = rng_for(seed, 2)
        num = _bootstrap_means(intra, bootstrap, rng)
        den = _bootstrap_means(inter, bootstrap, rng)
        with np.errstate(invalid="ignore", divide="ignore"):
            d_ci = percentile_interval(num / den, confidence)
    return DistinguishabilityResult(
        metric=metric,
        d=finite_or_none(d),
        intra=mean_intra,
        inter=mean_inter,
        d_ci=d_ci,
        n_intra=len(intra_ok),
        n_inter=len(inter_ok),
        excluded_intra=len(intra) - len(intra_ok),
        excluded_inter=len(inter) - len(inter_ok),
        confidence=confidence,
        bootstrap=bootstrap,
    )


def _split_classes(
    classes: Sequence[tuple[Hashable, str]],
) -> tuple[list[Hashable], list[str]]:
    labels, codes = [], []
    for i, item in enumerate(classes):
        try:
            label, code = item
        except (TypeError, ValueError):
            raise ValueError(f"item {i}: expected a (class, code) pair") from None
        if not isinstance(code, str):
            raise TypeError(f"item {i}: code must be a string, not {type(code).__name__}")
        hash(label)  # an unhashable label fails here with Python's own message
        labels.append(label)
        codes.append(code)
    return labels, codes


def score_class_pairs(
    classes: Sequence[tuple[Hashable, str]],
    scorer: Any,
    pairs: int = 1000,
    seed: int | np.random.Generator | None = 0,
    *,
    workers: int = 1,
) -> ScoredClassPairs:
    """Draw the intra/inter-class pairs and score them all in one scorer pass.

    Parameters
    ----------
    classes : ``(class label, code)`` per program.
    scorer : a :class:`~ruby_metric.RubyScorer`; its ``metrics`` decide what is computed.
    pairs : N (see :func:`~ruby_metric.meta.sampling.class_pairs`).
    seed : sampling seed.
    workers : worker processes for the scoring.

    Returns
    -------
    ScoredClassPairs
    """
    labels, codes = _split_classes(classes)
    drawn = class_pairs(labels, pairs, seed)
    index = np.concatenate([drawn.intra, drawn.inter])
    refs = [codes[i] for i in index[:, 0]]
    cands = [codes[j] for j in index[:, 1]]
    ids = [f"{int(i)}->{int(j)}" for i, j in index]
    start = time.perf_counter()
    corpus = scorer.score_corpus(refs, cands, ids=ids, workers=workers)
    return ScoredClassPairs(drawn, corpus, time.perf_counter() - start)


def _reason_counts(
    corpus: CorpusResult, metrics: Sequence[str]
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """Per metric, the tallied reasons of the pairs where it has no value, and the tallied
    notes of the pairs where it has one (numbers replaced by ``#``)."""
    undefined: dict[str, dict[str, int]] = {}
    notes: dict[str, dict[str, int]] = {}
    for metric in metrics:
        scores = pair_scores(corpus, metric)
        why: Counter[str] = Counter()
        noted: Counter[str] = Counter()
        for pair, score in zip(corpus.pairs, scores, strict=True):
            if metric in pair.reasons:
                tally = noted if np.isfinite(score) else why
                tally[re.sub(r"\d+", "#", pair.reasons[metric])] += 1
        if why:
            undefined[metric] = dict(why.most_common())
        if noted:
            notes[metric] = dict(noted.most_common())
    return undefined, notes


def distinguishability(
    classes: Sequence[tuple[Hashable, str]],
    scorer: Any,
    pairs: int = 1000,
    seed: int | None = 0,
    *,
    bootstrap: int = 1000,
    confidence: float = 0.95,
    train_fraction: float | None = 0.5,
    workers: int = 1,
) -> DistinguishabilityReport:
    """Distinguishability of each of the scorer's metrics on programs grouped in classes.

    Parameters
    ----------
    classes : ``(class label, code)`` per program; programs of a class are equivalent.
    scorer : a :class:`~ruby_metric.RubyScorer`; every metric it computes is reported.
    pairs : N: exact when all ordered pairs number at most 2N, else N intra and N inter
        pairs sampled uniformly (default 1000, the paper's).
    seed : seeds the sampling, the bootstrap and the classifier's train/test split
        (``None``: fresh entropy, not reproducible).
    bootstrap : resamples for the interval of d (0: none).
    confidence : level of the interval.
    train_fraction : share of pairs for the threshold classifier's training split (None: no
        classifier).
    workers : worker processes for the scoring.

    Returns
    -------
    DistinguishabilityReport, a mapping from metric name to :class:`DistinguishabilityResult`.

    Raises
    ------
    ValueError : fewer than two classes, or no class with two programs.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> programs = [("sum", "int s = a + b;"), ("sum", "int s = b + a;"),
    ...             ("max", "int m = a > b ? a : b;"), ("max", "int m = Math.max(a, b);")]
    >>> scorer = RubyScorer(language="java", metrics=["sts"])
    >>> report = distinguishability(programs, scorer, bootstrap=0)
    >>> report.exact, report.pairs_intra, report.pairs_inter
    (True, 4, 8)
    >>> round(report["sts"].d, 3)
    1.464
    """
    scored = score_class_pairs(classes, scorer, pairs, seed, workers=workers)
    corpus, drawn = scored.corpus, scored.pairs
    metrics = list(scorer.metrics)
    n_intra = len(drawn.intra)
    results: dict[str, DistinguishabilityResult] = {}
    reasons, notes = _reason_counts(corpus, metrics)
    for metric in metrics:
        intra, inter = scored.scores(metric)
        result = distinguishability_from_scores(
            intra, inter, bootstrap=bootstrap, seed=seed, confidence=confidence, metric=metric
        )
        extra: dict[str, Any] = {}
        if metric in BLEU_METRICS:
            stats = pair_stats(corpus, metric)
            if stats and all(s is not None for s in stats):
                stacked = StackedStats.from_stats(stats)
                scoring = scoring_metric(scorer)
                ci = float(stacked.subset(np.arange(n_intra)).scores(scoring, np.ones(n_intra))[0])
                n_inter = len(stats) - n_intra
                ce = float(
                    stacked.subset(np.arange(n_intra, len(stats))).scores(
                        scoring, np.ones(n_inter)
                    )[0]
                )
                extra.update(corpus_intra=ci, corpus_inter=ce, corpus_d=_ratio(ci, ce))
        if train_fraction is not None:
            try:
                extra["classifier"] = threshold_classifier(
                    intra, inter, train_fraction=train_fraction, seed=seed
                )
            except ValueError:
                extra["classifier"] = None  # too few defined pairs to train and test
        results[metric] = replace(result, **extra)
    return DistinguishabilityReport(
        metrics=results,
        exact=drawn.exact,
        programs=len(classes),
        classes=len({label for label, _ in classes}),
        population_intra=drawn.population_intra,
        population_inter=drawn.population_inter,
        pairs_intra=n_intra,
        pairs_inter=len(drawn.inter),
        seed=seed,
        pairs_requested=pairs,
        seconds=scored.seconds,
        signature=corpus.signature,
        reasons=reasons,
        notes=notes,
    )
