"""Scoring: BLEU from :class:`~crystal.SegmentStats` (a segment's, or a corpus's summed).

:func:`bleu_from_stats` applies the brevity penalty, any smoothing (NLTK's methods 0-7,
sacrebleu's exp, floor and add-k) and the order weights to statistics counted by
:mod:`crystal.counting`; the smoothing formulas themselves are in :mod:`crystal.smoothing`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from operator import mul, truediv

from crystal.smoothing import (
    SACREBLEU_METHODS,
    check_smoothing,
    nltk_precisions,
    sacrebleu_precisions,
)
from crystal.stats import SegmentStats

__all__ = ["bleu_from_stats", "brevity_penalty"]
# Also public, for crystal.compat and crystal.crystalbleu rather than users:
# DEFAULT_WEIGHTS, bleu_from_counts, weighted_log_sum.

Weights = Sequence[float]
#: BLEU-4's uniform weights; :func:`crystal.sentence_bleu` and :func:`~crystal.corpus_bleu`
#: reweigh short hypotheses only when given exactly these.
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


def brevity_penalty(closest_ref_len: float, hyp_len: float) -> float:
    """BLEU's brevity penalty (NLTK's definition; 0.0 for an empty hypothesis).

    Parameters
    ----------
    closest_ref_len : number
        Closest reference length (summed over a corpus).
    hyp_len : number
        Hypothesis length (summed over a corpus).

    Returns
    -------
    float

    Examples
    --------
    >>> from crystal.scoring import brevity_penalty
    >>> round(brevity_penalty(28, 12), 6)
    0.263597
    """
    if hyp_len > closest_ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - closest_ref_len / hyp_len)


def _sum_stats(stats: SegmentStats | Iterable[SegmentStats]) -> SegmentStats | None:
    if isinstance(stats, SegmentStats):
        return stats
    total = None
    for s in stats:
        total = s if total is None else total + s
    return total


def bleu_from_stats(
    stats: SegmentStats | Iterable[SegmentStats],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing: str = "method1",
    *,
    epsilon: float = 1e-4,
    alpha: float = 5.0,
    k: float = 5.0,
    smooth_value: float | None = None,
    auto_reweigh: bool = False,
    effective_order: bool = True,
) -> float:
    """BLEU of a segment, or of a corpus from the sum of its segments' statistics.

    Parameters
    ----------
    stats : SegmentStats or iterable of SegmentStats
        Summed when several (corpus BLEU: micro-averaged precisions).
    weights : sequence of float, optional (default uniform over 4 orders)
        One weight per order; the statistics need at least that many orders.
    smoothing : str, optional (default "method1")
        ``"method0"`` .. ``"method7"`` (NLTK's) or ``"exp"``, ``"floor"``, ``"add-k"``
        (sacrebleu's). Method 5 and 7 need statistics of ``len(weights) + 1`` orders.
    epsilon : float, optional (default 1e-4, as the CrystalBLEU authors)
        Method 1's count for zero matches. (NLTK's default is 0.1.)
    alpha, k : float, optional (default 5, 5)
        Method 6's alpha and method 4's k (NLTK's defaults).
    smooth_value : float, optional
        sacrebleu's floor (default 0.1) or add-k's k (default 1).
    auto_reweigh : bool, optional (default False)
        NLTK's option: with default weights and fewer than 4 hypothesis tokens, use uniform
        weights over ``hyp_len`` orders.
    effective_order : bool, optional (default True)
        sacrebleu methods only: leave out orders the hypothesis has no n-grams of (as
        sacrebleu's sentence BLEU), renormalizing the weights; if False such orders make the
        score 0.

    Returns
    -------
    float
        In [0, 1] except that NLTK's method 5 can exceed 1. 0.0 when no unigram matches
        (after ignoring), or when the statistics are empty.

    Examples
    --------
    >>> from crystal import bleu_from_stats, segment_stats
    >>> s = segment_stats([["a", "b", "c", "d"]], ["a", "b", "c", "e"])
    >>> round(bleu_from_stats(s), 4)
    0.0707
    >>> round(bleu_from_stats(s, weights=(0.5, 0.5)), 4)
    0.7071
    """
    total = _sum_stats(stats)
    if total is None:
        return 0.0
    check_smoothing(smoothing)
    if total.max_n < len(weights):
        raise ValueError(
            f"weights need {len(weights)} orders but the statistics have {total.max_n}"
        )
    return bleu_from_counts(
        total.matches,
        total.denominators,
        total.totals,
        total.hyp_len,
        total.ref_len,
        weights,
        smoothing,
        epsilon=epsilon,
        alpha=alpha,
        k=k,
        smooth_value=smooth_value,
        auto_reweigh=auto_reweigh,
        effective_order=effective_order,
    )


def bleu_from_counts(
    matches: Sequence[float],
    dens: Sequence[float],
    totals: Sequence[float],
    hyp_len: float,
    ref_len: float,
    weights: Weights,
    smoothing: str,
    *,
    epsilon: float = 1e-4,
    alpha: float = 5.0,
    k: float = 5.0,
    smooth_value: float | None = None,
    auto_reweigh: bool = False,
    effective_order: bool = True,
) -> float:
    """bleu_from_stats on unpacked statistics (the sentence-level fast path)."""
    n = len(weights)
    if n == 0 or matches[0] == 0:
        return 0.0
    if auto_reweigh and hyp_len < 4 and tuple(weights) == DEFAULT_WEIGHTS:
        weights = (1 / hyp_len,) * int(hyp_len)
    bp = brevity_penalty(ref_len, hyp_len)
    if smoothing == "method1":
        if 0 in matches[:n]:
            p = [
                (m + epsilon) / d if m == 0 else m / d
                for m, d in zip(matches[:n], dens, strict=False)
            ]
        else:
            p = list(map(truediv, matches[:n], dens))
    elif smoothing in SACREBLEU_METHODS:
        p = sacrebleu_precisions(smoothing, matches[:n], totals[:n], value=smooth_value)
        used = [(w, q) for w, q in zip(weights, p, strict=False) if q is not None]
        weight_used = math.fsum(w for w, _ in used)
        if (len(used) < len(p) and not effective_order) or weight_used == 0:
            return 0.0
        if any(q == 0 for _, q in used):
            return 0.0
        scale = math.fsum(weights[: len(p)]) / weight_used
        return bp * math.exp(math.fsum(scale * w * math.log(q) for w, q in used))  # type: ignore[arg-type]
    else:
        if smoothing in ("method5", "method7") and len(matches) <= n:
            raise ValueError(
                f"smoothing {smoothing} needs statistics of {n + 1} orders "
                f"(count with max_n={n + 1}), got {len(matches)}"
            )

        def next_precision() -> float:
            return matches[n] / dens[n]

        p = nltk_precisions(
            smoothing,
            matches[:n],
            dens[:n],
            hyp_len=hyp_len,
            epsilon=epsilon,
            alpha=alpha,
            k=k,
            next_precision=next_precision,
            hyp_ngrams=totals[:n],
        )
    return bp * math.exp(weighted_log_sum(weights, p))


def weighted_log_sum(weights: Sequence[float], p: Sequence[float]) -> float:
    """fsum of w * log(p) over the orders, skipping zero precisions as NLTK does."""
    if min(p) > 0:
        # All in C: this runs once per sentence score.
        return math.fsum(map(mul, weights, map(math.log, p)))
    return math.fsum([w * math.log(q) for w, q in zip(weights, p, strict=False) if q > 0])
