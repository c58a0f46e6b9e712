"""Is system A really better than system B? Paired significance tests on one test set.

Three tests, all paired (both systems translate the same inputs against the same references):

approximate randomization (Riezler & Maxwell 2005)
    Under the null hypothesis the two systems are interchangeable, so swapping a pair's A and
    B outputs (each pair independently, with probability 1/2) gives an equally likely
    outcome. Statistic: ``|score(A') - score(B')|``; two-sided
    ``p = (#{trials with statistic >= observed} + 1) / (trials + 1)``.
paired bootstrap (Koehn 2004)
    Resample the pairs with replacement, score both systems on each resample; ``p`` is the
    share of resamples in which the observed winner does not win (difference of the
    opposite sign or zero; 1.0 when the systems tie on the full set). Also a percentile
    interval of the difference. A ``p`` of 0 means none of the B resamples: read ``< 1/B``.
paired t-test
    ``scipy.stats.ttest_rel`` on per-pair scores (sentence-level CrystalBLEU/BLEU for the
    BLEUs). Two-sided. When every per-pair difference is the same, scipy has no answer
    (zero variance): p is 1.0 if they are all zero, else 0.0.

Corpus scores follow the metric: CrystalBLEU and BLEU are corpus-level (statistics summed
over the pairs, resampled as sums of the cached per-pair statistics, so no resample parses,
tokenizes or counts again); RUBY, GRS, TRS and STS are means over the pairs. A pair where a
metric is undefined for either system is left out of that metric's tests (and counted).
A test on fewer pairs than :func:`minimum_pairs` asks is not applicable: its p-value is
``None`` and :attr:`ComparisonResult.not_applicable` says why.
The random draws are shared by every metric: one seed, one set of swaps and resamples.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

import crystal

from ..io.formats import counted
from ..scoring.metrics import METRICS
from ..scoring.results import CorpusResult
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
from .sampling import BLOCK_ELEMENTS, bootstrap_counts, rng_for
from .stacked import StackedStats

# scipy.stats is imported by the functions that use it: it takes about 0.7 s, and every
# `ruby-metric` command imports this module (the CLI's parser includes the meta commands).

__all__ = [
    "ComparisonResult",
    "ComparisonReport",
    "BootstrapTest",
    "approximate_randomization",
    "paired_bootstrap",
    "paired_ttest",
    "compare_results",
    "compare_systems",
    "minimum_pairs",
    "TESTS",
]

#: The three tests, as named in :attr:`ComparisonResult.not_applicable`.
TESTS = ("randomization", "bootstrap", "ttest")

#: Statistics within this of the observed one count as "at least as large": a trial that
#: reproduces the observed split must count even when matrix products round differently.
_TIE = 1e-12


def minimum_pairs(test: str, confidence: float = 0.95) -> int:
    """Fewest pairs on which ``test`` (one of :data:`TESTS`) says anything about the data.

    - ``"randomization"``: 2. With one pair, a swap only flips the sign of the difference,
      so every trial's ``|A - B|`` equals the observed one and p = 1 whatever the scores.
    - ``"ttest"``: 2. It has n - 1 degrees of freedom; one pair leaves no variance.
    - ``"bootstrap"``: the least n >= 2 with ``n ** -n < (1 - confidence) / 2`` (4 at 95%).
      A resample repeating one of the n pairs n times has probability ``n ** -n``; while that
      outweighs a tail of the interval, the interval's ends are single pairs' differences
      (the range of the data, not an interval) and the p-value is decided by which pairs
      favour whom. The extreme is n = 1: the only possible resample is the data itself, so
      p is 0 whenever the systems differ, "< 1/B" from one pair.

    Examples
    --------
    >>> [minimum_pairs(t) for t in TESTS], minimum_pairs("bootstrap", 0.999)
    ([2, 4, 2], 5)
    """
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {', '.join(TESTS)}")
    check_confidence(confidence)  # 1 or more leaves no tail: no n would do
    if test != "bootstrap":
        return 2
    tail = (1 - confidence) / 2
    n = 2
    while float(n) ** -n >= tail:
        n += 1
    return n


def _not_applicable(n: int, confidence: float) -> dict[str, str]:
    """Per test that ``n`` pairs are too few for, why (empty when every test applies)."""
    why = {
        "randomization": "swapping one pair only flips the sign of A - B, so p = 1 always",
        "bootstrap": "the only resample is the pair itself"
        if n == 1
        else "resamples repeating one pair outweigh the interval's tails",
        "ttest": "one pair has no variance",
    }
    out = {}
    for test in TESTS:
        need = minimum_pairs(test, confidence)
        if n < need:
            out[test] = f"{counted(n, 'pair')}, needs {need}: {why[test]}"
    return out


class _SystemScore(Protocol):
    def __call__(self, from_a: np.ndarray, from_b: np.ndarray) -> np.ndarray:
        """Score of pseudo-systems taking pair i from A with weight ``from_a[:, i]`` and
        from B with weight ``from_b[:, i]``; one score per row."""


class _MeanScore:
    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a, self.b = a, b

    def __call__(self, from_a: np.ndarray, from_b: np.ndarray) -> np.ndarray:
        weight = from_a.sum(axis=1) + from_b.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (from_a @ self.a + from_b @ self.b) / weight


class _CorpusScore:
    def __init__(self, a: StackedStats, b: StackedStats, metric: crystal.CrystalBLEU) -> None:
        self.a, self.b, self.metric = a, b, metric

    def __call__(self, from_a: np.ndarray, from_b: np.ndarray) -> np.ndarray:
        summed = self.a.sums(from_a) + self.b.sums(from_b)
        return self.a.score_rows(self.metric, summed)


@dataclass(frozen=True)
class BootstrapTest:
    """Paired bootstrap outcome: Koehn's p-value and an interval of ``score(A) - score(B)``."""

    p_value: float
    difference_ci: tuple[float, float] | None
    samples: int


@dataclass(frozen=True)
class ComparisonResult:
    """One metric's comparison of system A with system B.

    Attributes
    ----------
    metric : the metric's name.
    level : ``"corpus"`` (CrystalBLEU/BLEU from summed statistics) or ``"mean"``.
    score_a, score_b : the systems' scores on the pairs used.
    difference : ``score_a - score_b``.
    n, excluded : pairs used; pairs left out (metric undefined for A or B).
    p_value_randomization : approximate randomization, two-sided.
    p_value_bootstrap : Koehn's paired bootstrap p-value.
    difference_ci : bootstrap percentile interval of the difference.
    p_value_ttest, t_statistic : paired t-test on per-pair scores.
    trials, bootstrap, confidence : the tests' settings.
    bootstrap_samples : the resamples ``p_value_bootstrap`` is a share of (those where both
        systems have a score); a ``p_value_bootstrap`` of 0 means ``< 1 / bootstrap_samples``.
    not_applicable : test name (``"randomization"``, ``"bootstrap"``, ``"ttest"``) -> why it
        was not run on so few pairs (see :func:`minimum_pairs`); its p-value is ``None``.
    """

    metric: str
    level: str
    score_a: float | None
    score_b: float | None
    difference: float | None
    n: int
    excluded: int
    p_value_randomization: float | None
    p_value_bootstrap: float | None
    difference_ci: tuple[float, float] | None
    p_value_ttest: float | None
    t_statistic: float | None
    trials: int
    bootstrap: int
    confidence: float
    bootstrap_samples: int = 0
    not_applicable: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with ``score_a``, ``score_b``, ``difference`` and the p-values.

        ``trials`` and ``bootstrap_samples`` are the counts behind the resampling p-values
        (``p_value_bootstrap`` 0 reads ``< 1 / bootstrap_samples``); ``not_applicable``
        names the tests left out for too few pairs, with why.
        """
        return {
            "level": self.level,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "difference": self.difference,
            "n": self.n,
            "excluded": self.excluded,
            "p_value_randomization": self.p_value_randomization,
            "p_value_bootstrap": self.p_value_bootstrap,
            "difference_ci": list(self.difference_ci) if self.difference_ci else None,
            "p_value_ttest": self.p_value_ttest,
            "t_statistic": self.t_statistic,
            "trials": self.trials,
            "bootstrap_samples": self.bootstrap_samples,
            "not_applicable": dict(self.not_applicable),
        }


@dataclass(frozen=True)
class ComparisonReport(MetricMapping[ComparisonResult]):
    """Every metric's comparison; a read-only ``dict`` from metric name to result.

    Attributes
    ----------
    metrics : metric name -> :class:`ComparisonResult`.
    pairs : number of aligned pairs.
    seed, trials, bootstrap, confidence : the tests' settings.
    seconds : time spent on the tests (scoring excluded).
    signature : the scorer's reproducibility signature.
    """

    metrics: dict[str, ComparisonResult]
    pairs: int
    seed: int | None
    trials: int
    bootstrap: int
    confidence: float
    seconds: float
    signature: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "seed": self.seed,
            "trials": self.trials,
            "bootstrap": self.bootstrap,
            "confidence": self.confidence,
            "signature": self.signature,
            "metrics": self.metrics_dict(),
        }


# --------------------------------------------------------------------------- engines


def _block_rows(n: int) -> int:
    return max(1, BLOCK_ELEMENTS // max(n, 1))


def _randomization_counts(
    scores: Mapping[str, _SystemScore],
    keep: Mapping[str, np.ndarray],
    observed: Mapping[str, float],
    n: int,
    trials: int,
    rng: np.random.Generator,
) -> dict[str, int]:
    """Per metric, how many random swaps give a statistic at least the observed one."""
    hits = dict.fromkeys(scores, 0)
    block = _block_rows(n)
    for start in range(0, trials, block):
        rows = min(block, trials - start)
        swap = (rng.random((rows, n)) < 0.5).astype(float)  # same swaps for every metric
        for name, score in scores.items():
            s = swap[:, keep[name]]
            stat = np.abs(score(1.0 - s, s) - score(s, 1.0 - s))
            hits[name] += int(np.sum(stat >= observed[name] - _TIE))
    return hits


def _bootstrap_differences(
    scores: Mapping[str, _SystemScore],
    keep: Mapping[str, np.ndarray],
    n: int,
    samples: int,
    rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    """Per metric, ``score(A*) - score(B*)`` on each bootstrap resample of the pairs."""
    out = {name: np.empty(samples) for name in scores}
    block = _block_rows(n)
    for start in range(0, samples, block):
        rows = min(block, samples - start)
        counts = bootstrap_counts(rng, rows, n).astype(float)  # same resamples for all
        for name, score in scores.items():
            w = counts[:, keep[name]]
            zero = np.zeros_like(w)
            out[name][start : start + rows] = score(w, zero) - score(zero, w)
    return out


def _koehn_p(differences: np.ndarray, observed: float) -> float:
    finite = differences[np.isfinite(differences)]
    if observed == 0 or finite.size == 0:
        return 1.0
    not_better = finite <= 0 if observed > 0 else finite >= 0
    return float(np.mean(not_better))


def _finite_count(differences: np.ndarray) -> int:
    return int(np.isfinite(differences).sum())


def paired_ttest(
    scores_a: Sequence[float] | np.ndarray, scores_b: Sequence[float] | np.ndarray
) -> tuple[float | None, float | None]:
    """Two-sided paired t-test (``scipy.stats.ttest_rel``): ``(t, p)``.

    Pairs with a NaN/None on either side are dropped. Fewer than two pairs: ``(None, None)``.
    All differences equal (zero variance, where scipy returns NaN): ``(None, 1.0)`` when they
    are all zero, ``(None, 0.0)`` otherwise.

    Examples
    --------
    >>> t, p = paired_ttest([0.5, 0.6, 0.7], [0.4, 0.6, 0.5])
    >>> round(t, 4), round(p, 4)
    (1.7321, 0.2254)
    """
    from scipy import stats
    a, b = as_float_array(scores_a), as_float_array(scores_b)
    if a.shape != b.shape:
        raise ValueError(f"{a.size} scores for A but {b.size} for B")
    ok = np.isfinite(a) & np.isfinite(b)
    a, b = a[ok], b[ok]
    if len(a) < 2:
        return None, None
    diff = a - b
    if np.all(diff == diff[0]):
        return None, 1.0 if diff[0] == 0 else 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.ttest_rel(a, b)
    return finite_or_none(res.statistic), finite_or_none(res.pvalue)


def approximate_randomization(
    scores_a: Sequence[float] | np.ndarray,
    scores_b: Sequence[float] | np.ndarray,
    *,
    trials: int = 10000,
    seed: int | np.random.Generator | None = 0,
) -> float:
    """Approximate randomization p-value for the difference of two systems' mean scores.

    Parameters
    ----------
    scores_a, scores_b : per-pair scores of the two systems (NaN/None pairs dropped).
    trials : random swap patterns (default 10000).
    seed : seed of the swaps.

    Returns
    -------
    float: ``(#{|mean(A') - mean(B')| >= |mean(A) - mean(B)|} + 1) / (trials + 1)``.

    Examples
    --------
    >>> approximate_randomization([1, 1, 1, 1], [1, 1, 1, 1], trials=99)
    1.0
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    score, n, difference = _paired_means(scores_a, scores_b)
    observed = abs(difference)
    keep = {"m": np.arange(n)}
    hits = _randomization_counts({"m": score}, keep, {"m": observed}, n, trials, rng_for(seed, 5))
    return (hits["m"] + 1) / (trials + 1)


def _paired_means(
    scores_a: Sequence[float] | np.ndarray, scores_b: Sequence[float] | np.ndarray
) -> tuple[_MeanScore, int, float]:
    """The mean-score statistic over the pairs both systems scored, their number, and the
    observed ``mean(A) - mean(B)``."""
    a, b = as_float_array(scores_a), as_float_array(scores_b)
    if a.shape != b.shape:
        raise ValueError(f"{a.size} scores for A but {b.size} for B")
    ok = np.isfinite(a) & np.isfinite(b)
    if not ok.any():
        raise ValueError("no pair has a score for both systems")
    score = _MeanScore(a[ok], b[ok])
    n = int(ok.sum())
    ones, zeros = np.ones((1, n)), np.zeros((1, n))
    return score, n, float(score(ones, zeros)[0] - score(zeros, ones)[0])


def paired_bootstrap(
    scores_a: Sequence[float] | np.ndarray,
    scores_b: Sequence[float] | np.ndarray,
    *,
    samples: int = 1000,
    seed: int | np.random.Generator | None = 0,
    confidence: float = 0.95,
) -> BootstrapTest:
    """Koehn's paired bootstrap on mean per-pair scores.

    Parameters
    ----------
    scores_a, scores_b : per-pair scores of the two systems (NaN/None pairs dropped).
    samples : bootstrap resamples (default 1000).
    seed : seed of the resampling.
    confidence : level of the interval of the difference.

    Returns
    -------
    BootstrapTest: the share of resamples where the observed winner does not win, and a
    percentile interval of ``mean(A) - mean(B)``.

    Examples
    --------
    >>> paired_bootstrap([0.9, 0.8, 0.7], [0.1, 0.2, 0.3], samples=200).p_value
    0.0
    """
    check_confidence(confidence)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    score, n, observed = _paired_means(scores_a, scores_b)
    diffs = _bootstrap_differences({"m": score}, {"m": np.arange(n)}, n, samples, rng_for(seed, 6))[
        "m"
    ]
    return BootstrapTest(_koehn_p(diffs, observed), percentile_interval(diffs, confidence), samples)


# --------------------------------------------------------------------------- corpora


def compare_results(
    corpus_a: CorpusResult,
    corpus_b: CorpusResult,
    *,
    metrics: Sequence[str] | None = None,
    scoring: crystal.CrystalBLEU | None = None,
    trials: int = 10000,
    bootstrap: int = 1000,
    seed: int | None = 0,
    confidence: float = 0.95,
) -> ComparisonReport:
    """Compare two systems already scored on the same pairs (same references, same order).

    Parameters
    ----------
    corpus_a, corpus_b : results of ``scorer.score_corpus(references, system)`` for each
        system, with the same scorer.
    metrics : which metrics to test (default: every metric defined somewhere in A or B).
    scoring : the metric that scores summed CrystalBLEU/BLEU statistics (default: NLTK
        method1 with epsilon 1e-4, the scorer's default; pass
        ``ruby_metric.meta.scoring_metric(scorer)`` for another smoothing).
    trials : approximate randomization trials (0: skip that test).
    bootstrap : paired bootstrap resamples (0: skip that test).
    seed : seed for the swaps and resamples (shared by all metrics).
    confidence : level of the bootstrap interval of the difference.

    Returns
    -------
    ComparisonReport

    Raises
    ------
    ValueError : the corpora have different numbers of pairs.
    """
    check_confidence(confidence)
    if len(corpus_a) != len(corpus_b):
        raise ValueError(f"system A has {len(corpus_a)} pairs but system B has {len(corpus_b)}")
    if trials < 0 or bootstrap < 0:
        raise ValueError("trials and bootstrap must be >= 0")
    start = time.perf_counter()
    scoring = scoring or scoring_metric(None)
    n = len(corpus_a)
    if metrics is None:
        metrics = [
            m
            for m in METRICS
            if corpus_a.counts.get(m) or corpus_b.counts.get(m)
        ]
    scores: dict[str, _SystemScore] = {}
    keep: dict[str, np.ndarray] = {}
    per_pair: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    levels: dict[str, str] = {}
    for metric in metrics:
        a, b = pair_scores(corpus_a, metric), pair_scores(corpus_b, metric)
        per_pair[metric] = (a, b)
        if metric in BLEU_METRICS:
            sa, sb = pair_stats(corpus_a, metric), pair_stats(corpus_b, metric)
            pairs = zip(sa, sb, strict=True)
            ok = np.array([x is not None and y is not None for x, y in pairs], dtype=bool)
            idx = np.flatnonzero(ok)
            if len(idx):
                scores[metric] = _CorpusScore(
                    StackedStats.from_stats([sa[i] for i in idx]),
                    StackedStats.from_stats([sb[i] for i in idx]),
                    scoring,
                )
            levels[metric] = "corpus"
        else:
            idx = np.flatnonzero(np.isfinite(a) & np.isfinite(b))
            if len(idx):
                scores[metric] = _MeanScore(a[idx], b[idx])
            levels[metric] = "mean"
        keep[metric] = idx

    observed_a: dict[str, float] = {}
    observed_b: dict[str, float] = {}
    for name, score in scores.items():
        k = len(keep[name])
        ones, zeros = np.ones((1, k)), np.zeros((1, k))
        observed_a[name] = float(score(ones, zeros)[0])
        observed_b[name] = float(score(zeros, ones)[0])
    observed = {m: observed_a[m] - observed_b[m] for m in scores}

    p_ar: dict[str, float] = {}
    if trials and scores:
        hits = _randomization_counts(
            scores, keep, {m: abs(d) for m, d in observed.items()}, n, trials, rng_for(seed, 5)
        )
        p_ar = {m: (h + 1) / (trials + 1) for m, h in hits.items()}
    boot: dict[str, np.ndarray] = {}
    if bootstrap and scores:
        boot = _bootstrap_differences(scores, keep, n, bootstrap, rng_for(seed, 6))

    results: dict[str, ComparisonResult] = {}
    for metric in metrics:
        a, b = per_pair[metric]
        idx = keep[metric]
        # no pair at all: no score and no test, nothing to explain beyond n = 0
        skip = _not_applicable(len(idx), confidence) if len(idx) else {}
        t_stat, p_t = paired_ttest(a[idx], b[idx]) if len(idx) else (None, None)
        has_boot = metric in scores and bool(boot) and "bootstrap" not in skip
        results[metric] = ComparisonResult(
            metric=metric,
            level=levels[metric],
            score_a=observed_a.get(metric),
            score_b=observed_b.get(metric),
            difference=observed.get(metric),
            n=len(idx),
            excluded=n - len(idx),
            p_value_randomization=None if "randomization" in skip else p_ar.get(metric),
            p_value_bootstrap=_koehn_p(boot[metric], observed[metric]) if has_boot else None,
            difference_ci=percentile_interval(boot[metric], confidence) if has_boot else None,
            p_value_ttest=p_t,
            t_statistic=t_stat,
            trials=trials,
            bootstrap=bootstrap,
            confidence=confidence,
            bootstrap_samples=_finite_count(boot[metric]) if has_boot else 0,
            not_applicable=skip,
        )
    return ComparisonReport(
        metrics=results,
        pairs=n,
        seed=seed,
        trials=trials,
        bootstrap=bootstrap,
        confidence=confidence,
        seconds=time.perf_counter() - start,
        signature=corpus_a.signature,
    )


def compare_systems(
    scorer: Any,
    references: Sequence[str | Sequence[str]],
    system_a: Sequence[str],
    system_b: Sequence[str],
    *,
    trials: int = 10000,
    bootstrap: int = 1000,
    seed: int | None = 0,
    confidence: float = 0.95,
    workers: int = 1,
) -> ComparisonReport:
    """Score two systems against the same references and test their difference.

    Parameters
    ----------
    scorer : a :class:`~ruby_metric.RubyScorer`; its metrics are the ones compared.
    references : one reference (or list of references) per input.
    system_a, system_b : each system's output per input, aligned with ``references``.
    trials : approximate randomization trials (default 10000).
    bootstrap : paired bootstrap resamples (default 1000).
    seed : seed of all random draws.
    confidence : level of the bootstrap interval of the difference.
    workers : worker processes for the scoring.

    Returns
    -------
    ComparisonReport: per metric, both scores, the difference and three p-values.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> scorer = RubyScorer(language="java", metrics=["sts", "bleu"])
    >>> refs = ["int a = b + c;", "return x * y;", "f(1, 2);", "int s = 0;"]
    >>> report = compare_systems(scorer, refs, refs, ["int a;", "x;", "f();", "s;"],
    ...                          trials=999, bootstrap=200)
    >>> report["sts"].difference > 0, report["bleu"].level
    (True, 'corpus')
    """
    if not len(references) == len(system_a) == len(system_b):
        raise ValueError(
            f"{len(references)} references, {len(system_a)} outputs of A, "
            f"{len(system_b)} outputs of B: they must be aligned"
        )
    corpus_a = scorer.score_corpus(references, system_a, workers=workers)
    corpus_b = scorer.score_corpus(references, system_b, workers=workers)
    return compare_results(
        corpus_a,
        corpus_b,
        metrics=list(scorer.metrics),
        scoring=scoring_metric(scorer),
        trials=trials,
        bootstrap=bootstrap,
        seed=seed,
        confidence=confidence,
    )
