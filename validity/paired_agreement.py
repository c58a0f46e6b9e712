"""Is one scoring of a judged set in better agreement with the judgments than another?

Two scorings of the same items (RUBY with and without repair, say) are compared on the
statistic the set reports (the within-task and pooled AUC of execution verdicts, or the
Spearman correlation with grades) by a paired bootstrap: each resample draws the same
tasks (AUC) or items (Spearman) for both scorings, so the interval is that of the
*difference*, much narrower than the two intervals side by side when most items score the
same either way.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from scipy import stats

from ruby_metric.meta.grouped_auc import group_win_matrix
from ruby_metric.meta.pair_scores import check_confidence, percentile_interval
from ruby_metric.meta.sampling import BLOCK_ELEMENTS

__all__ = ["PairedDifference", "paired_auc_difference", "paired_spearman_difference"]


@dataclass(frozen=True)
class PairedDifference:
    """One statistic under two scorings of the same items, and their paired difference.

    Attributes
    ----------
    statistic : ``"within"`` (within-task AUC), ``"pooled"`` (AUC) or ``"spearman"``.
    a, b : the statistic under scoring A and scoring B.
    difference : ``b - a``.
    ci : percentile bootstrap interval of the difference (``None`` without resamples).
    p : the share of resamples where the difference has the opposite sign of the observed
        one or is zero (Koehn's paired bootstrap; 1.0 when the observed difference is 0).
    n : items; resamples : bootstrap resamples.
    """

    statistic: str
    a: float
    b: float
    difference: float
    ci: tuple[float, float] | None
    p: float | None
    n: int
    resamples: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def _koehn(differences: np.ndarray, observed: float) -> float:
    finite = differences[np.isfinite(differences)]
    if observed == 0 or not finite.size:
        return 1.0
    return float(np.mean(np.sign(finite) != np.sign(observed)))


def paired_auc_difference(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    labels: Sequence[int | bool],
    groups: Sequence[Hashable],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, PairedDifference]:
    """Within-task and pooled AUC under two scorings, with the paired bootstrap of their
    differences (whole tasks resampled, the same draws for both, as
    :func:`~ruby_metric.meta.grouped_auc.grouped_auc` does for one).

    Parameters
    ----------
    scores_a, scores_b : the two scorings, one score per item each.
    labels, groups : the 0/1 verdict and the task of each item.
    resamples, seed, confidence : the bootstrap.

    Returns
    -------
    ``{"within": ..., "pooled": ...}`` (:class:`PairedDifference` each).

    >>> d = paired_auc_difference([0.1, 0.9, 0.5, 0.5], [0.9, 0.1, 0.6, 0.5], [1, 0, 1, 0],
    ...                           ["a", "a", "b", "b"], resamples=0)
    >>> d["within"].a, d["within"].b, d["within"].difference
    (0.25, 1.0, 0.75)
    """
    check_confidence(confidence)
    wins_a, pos, neg, keys = group_win_matrix(scores_a, labels, groups)
    wins_b, _, _, _ = group_win_matrix(scores_b, labels, groups)
    pairs_within = pos * neg
    diag_a, diag_b = np.diag(wins_a).copy(), np.diag(wins_b).copy()

    def within(weight: np.ndarray, diag: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return (weight @ diag) / (weight @ pairs_within)

    def pooled(weight: np.ndarray, wins: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return (np.einsum("rs,st,rt->r", weight, wins, weight)
                    / ((weight @ pos) * (weight @ neg)))

    one = np.ones((1, len(keys)))
    observed = {"within": (within(one, diag_a)[0], within(one, diag_b)[0]),
                "pooled": (pooled(one, wins_a)[0], pooled(one, wins_b)[0])}
    samples = {name: np.empty(resamples) for name in observed}
    if resamples > 0 and keys:
        rng = np.random.default_rng(seed)
        n_groups = len(keys)
        block = max(1, 200_000 // n_groups)
        for start in range(0, resamples, block):
            rows = min(block, resamples - start)
            idx = rng.integers(0, n_groups, size=(rows, n_groups))
            weight = np.zeros((rows, n_groups))
            np.add.at(weight, (np.arange(rows)[:, None], idx), 1.0)
            part = slice(start, start + rows)
            samples["within"][part] = within(weight, diag_b) - within(weight, diag_a)
            samples["pooled"][part] = pooled(weight, wins_b) - pooled(weight, wins_a)
    out = {}
    for name, (a, b) in observed.items():
        diff = float(b - a)
        out[name] = PairedDifference(
            name, float(a), float(b), diff,
            percentile_interval(samples[name], confidence) if resamples > 0 else None,
            _koehn(samples[name], diff) if resamples > 0 else None, len(labels), resamples)
    return out


def _rowwise_spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    rx = stats.rankdata(x, axis=1)
    ry = stats.rankdata(y, axis=1)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (rx * ry).sum(axis=1) / np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))


def paired_spearman_difference(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    grades: Sequence[float],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> PairedDifference:
    """Spearman correlation with the grades under two scorings, with the paired bootstrap
    of the difference (the same items drawn for both).

    >>> d = paired_spearman_difference([0.1, 0.5, 0.4, 0.9], [0.1, 0.4, 0.5, 0.9],
    ...                                [1, 2, 3, 4], resamples=0)
    >>> d.a, d.b, d.difference
    (0.8, 1.0, 0.2)
    """
    check_confidence(confidence)
    x = np.asarray(scores_a, dtype=float)
    z = np.asarray(scores_b, dtype=float)
    y = np.asarray(grades, dtype=float)
    a = float(_rowwise_spearman(x[None, :], y[None, :])[0])
    b = float(_rowwise_spearman(z[None, :], y[None, :])[0])
    diff = round(b - a, 12)
    samples = np.empty(resamples)
    if resamples > 0:
        n = len(y)
        rng = np.random.default_rng(seed)
        block = max(1, BLOCK_ELEMENTS // max(1, n))
        for start in range(0, resamples, block):
            rows = min(block, resamples - start)
            idx = rng.integers(0, n, size=(rows, n))
            samples[start:start + rows] = (_rowwise_spearman(z[idx], y[idx])
                                           - _rowwise_spearman(x[idx], y[idx]))
    return PairedDifference(
        "spearman", round(a, 12), round(b, 12), diff,
        percentile_interval(samples, confidence) if resamples > 0 else None,
        _koehn(samples, diff) if resamples > 0 else None, len(y), resamples)
