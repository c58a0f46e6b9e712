"""Whether a paired comparison has enough pairs for any difference to be significant.

On ``n`` paired items, the null hypothesis of a paired test ("the two systems are
interchangeable") makes each of the ``2**n`` ways of swapping A's and B's outputs item by
item equally likely. The observed assignment and its mirror (every item swapped) always give
the observed ``|A - B|``, so the exact randomization test cannot give a p-value below
``2 / 2**n`` (:func:`significance_floor`); approximate randomization estimates that test,
and the bootstrap resamples the same ``n`` items. On 5 pairs that floor is 0.0625: nothing
can be significant at 0.05, however large the difference. The bootstrap and the t-test can
print smaller p-values on so few pairs, but those come from their assumptions (normal
differences; resamples standing for the population), not from the data.

Holm's adjustment for ``m`` comparisons multiplies the smallest p-value of the family by
``m``, so with several systems the floor of an adjusted p-value is ``m`` times as high.
:func:`small_sample_warning` names the comparisons whose floor is above ``1 - confidence``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..scoring.metrics import label
from .significance import ComparisonReport

__all__ = ["significance_floor", "fewest_pairs_for_significance", "small_sample_warning"]


def significance_floor(n: int, comparisons: int = 1) -> float:
    """The smallest p-value a paired test can justify on ``n`` pairs: ``2 / 2**n`` (the
    observed assignment and its mirror among the ``2**n`` equally likely swaps), times the
    ``comparisons`` Holm adjusts for, at most 1.

    >>> significance_floor(5), significance_floor(6), significance_floor(6, comparisons=3)
    (0.0625, 0.03125, 0.09375)
    >>> significance_floor(1), significance_floor(0)
    (1.0, 1.0)
    """
    if n < 1:
        return 1.0
    return min(1.0, comparisons * math.ldexp(2.0, -n))  # ldexp: no overflow for large n


def fewest_pairs_for_significance(confidence: float = 0.95, comparisons: int = 1) -> int:
    """The fewest pairs on which a difference can be significant at ``1 - confidence``
    (the floor of :func:`significance_floor` at most that level).

    >>> fewest_pairs_for_significance(), fewest_pairs_for_significance(0.99)
    (6, 8)
    >>> fewest_pairs_for_significance(comparisons=3)
    7
    """
    alpha = 1 - confidence
    if not 0 < alpha < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    n = 1
    while significance_floor(n, comparisons) > alpha:
        n += 1
    return n


def _smallest_n(report: ComparisonReport) -> tuple[int, list[str]]:
    """The fewest pairs any metric of ``report`` was tested on, and those metrics (the
    pairs where a metric is undefined for A or B are left out of its tests)."""
    tested = {m: r.n for m, r in report.items() if r.n > 0}
    if not tested:
        return 0, []
    n = min(tested.values())
    return n, [m for m, k in tested.items() if k == n]


def small_sample_warning(
    comparisons: Sequence[tuple[str, ComparisonReport]], *, adjusted_for: int = 1
) -> str | None:
    """One warning naming the comparisons too small for any difference to be significant
    at ``1 - confidence``, or ``None`` when every one can be.

    Parameters
    ----------
    comparisons : ``(name, report)`` per comparison (``"coder-l vs coder-s"``); the level
        is each report's ``1 - confidence``.
    adjusted_for : how many comparisons the p-values are adjusted for (Holm), 1 for one
        comparison. The smallest adjusted p-value of the family is that many times the
        smallest raw one, which is at least the floor of the comparison with most pairs.

    >>> from ruby_metric.meta.significance import ComparisonResult
    >>> def report(n):
    ...     result = ComparisonResult("ruby", "mean", 0.9, 0.5, 0.4, n, 0, 0.06, 0.0,
    ...                               (0.1, 0.6), 0.01, 5.0, 10000, 1000, 0.95)
    ...     return ComparisonReport({"ruby": result}, n, 0, 10000, 1000, 0.95, 0.0)
    >>> small_sample_warning([("a vs b", report(6))]) is None
    True
    >>> print(small_sample_warning([("a vs b", report(5))]))  # doctest: +NORMALIZE_WHITESPACE
    too few pairs for a difference to be significant at 0.05: on n paired items no paired
    test can justify a p-value below 2/2^n (of the 2^n equally likely ways to swap the two
    systems' outputs item by item, the observed one and its mirror always match the
    observed difference), so it takes 6 pairs: a vs b on 5 pairs (p >= 0.0625); smaller
    bootstrap or t-test p-values on so few pairs come from the tests' assumptions, not
    from the data
    """
    if not comparisons:
        return None
    confidence = comparisons[0][1].confidence
    alpha = 1 - confidence
    smallest = {name: _smallest_n(report) for name, report in comparisons}
    most = max(n for n, _ in smallest.values())
    # Holm: every adjusted p is at least its raw p, and at least m times the family's
    # smallest raw p, which is at least the floor of the comparison with the most pairs
    family = significance_floor(most, adjusted_for)
    short = []
    for name, report in comparisons:
        n, metrics = smallest[name]
        if n == 0:
            continue  # nothing tested: the table says so
        floor = max(significance_floor(n), family)
        if floor <= alpha:
            continue
        on = "" if n == report.pairs else f"{', '.join(label(m) for m in metrics)} "
        short.append(f"{name} {on}on {n:,} pairs (p >= {floor:.3g})")
    if not short:
        return None
    need = fewest_pairs_for_significance(confidence, adjusted_for)
    holm = (f", and Holm multiplies the smallest of {adjusted_for} comparisons' p-values by "
            f"{adjusted_for}" if adjusted_for > 1 else "")
    return (
        f"too few pairs for a difference to be significant at {alpha:.3g}: on n paired items "
        "no paired test can justify a p-value below 2/2^n (of the 2^n equally likely ways to "
        "swap the two systems' outputs item by item, the observed one and its mirror always "
        f"match the observed difference){holm}, so it takes {need:,} pairs: "
        + "; ".join(short)
        + "; smaller bootstrap or t-test p-values on so few pairs come from the tests' "
        "assumptions, not from the data"
    )
