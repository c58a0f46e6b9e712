"""Within-group (within-task) and pooled ROC AUC of a score against a binary judgment:
"of a passing and a failing candidate of the same task, does the passing one score higher?"
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from .pair_scores import percentile_interval


@dataclass(frozen=True)
class GroupedAUC:
    """Within-group and pooled ROC AUC of a score against a binary judgment.

    Attributes
    ----------
    within : pairs (positive, negative) of the *same* group (task) only: the share where the
        positive item scores higher, ties counting 1/2, pooled over groups (sum of wins over
        the sum of pairs). None when no group has both a positive and a negative item.
    within_ci : percentile bootstrap interval of ``within``, resampling groups.
    pooled : every positive against every negative item (the usual ROC AUC).
    pooled_ci : percentile bootstrap interval of ``pooled``, resampling the same groups.
    n : items; positives : positive items; groups : groups.
    mixed_groups : groups with both a positive and a negative item (those ``within`` counts).
    within_pairs : the (positive, negative) pairs ``within`` counts.
    """

    within: float | None
    within_ci: tuple[float, float] | None
    pooled: float | None
    pooled_ci: tuple[float, float] | None
    n: int
    positives: int
    groups: int
    mixed_groups: int
    within_pairs: int


def _encoded(
    scores: Sequence[float], labels: Sequence[int | bool], groups: Sequence[Hashable]
) -> tuple[list[Hashable], np.ndarray, np.ndarray, np.ndarray]:
    """The groups in first-appearance order, each item's group index, scores and labels."""
    if not len(scores) == len(labels) == len(groups):
        raise ValueError("scores, labels and groups must have the same length")
    keys = list(dict.fromkeys(groups))
    index = {k: i for i, k in enumerate(keys)}
    g = np.array([index[k] for k in groups], dtype=np.int64)
    return keys, g, np.asarray(scores, dtype=float), np.asarray(labels, dtype=bool)


def group_win_matrix(
    scores: Sequence[float], labels: Sequence[int | bool], groups: Sequence[Hashable]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Hashable]]:
    """Pairwise wins between the positives of one group and the negatives of another.

    Parameters
    ----------
    scores : one score per item.
    labels : 1 (or True) for a positive item, 0 for a negative one.
    groups : one group key per item (the task).

    Returns
    -------
    ``(wins, positives, negatives, keys)``: ``wins[s, t]`` = over the positive items of
    group ``s`` and the negative items of group ``t``, the pairs where the positive scores
    higher, ties counting 1/2; ``positives[s]`` and ``negatives[s]`` count the items of
    group ``s``; ``keys`` are the groups in the matrices' order (first appearance).

    >>> w, p, q, k = group_win_matrix([0.9, 0.1, 0.5, 0.5], [1, 0, 1, 0], ["a", "a", "b", "b"])
    >>> w.tolist(), p.tolist(), q.tolist(), k
    ([[1.0, 1.0], [1.0, 0.5]], [1, 1], [1, 1], ['a', 'b'])
    """
    keys, g, s, y = _encoded(scores, labels, groups)
    n_groups = len(keys)
    wins = np.zeros((n_groups, n_groups))
    pos_s, pos_g = s[y], g[y]
    neg_s, neg_g = s[~y], g[~y]
    if pos_s.size and neg_s.size:
        # per positive item: wins against the negatives of each group (one row per positive)
        better = (pos_s[:, None] > neg_s[None, :]) + 0.5 * (pos_s[:, None] == neg_s[None, :])
        per_pos = np.zeros((pos_s.size, n_groups))
        for t in range(n_groups):
            cols = neg_g == t
            if cols.any():
                per_pos[:, t] = better[:, cols].sum(axis=1)
        np.add.at(wins, pos_g, per_pos)
    positives = np.bincount(pos_g, minlength=n_groups)
    negatives = np.bincount(neg_g, minlength=n_groups)
    return wins, positives, negatives, keys


def within_group_wins(
    scores: Sequence[float], labels: Sequence[int | bool], groups: Sequence[Hashable]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Hashable]]:
    """The diagonal of :func:`group_win_matrix` without the matrix: per group, the wins of
    its positives over its own negatives (ties 1/2), in time and memory linear in the items
    (up to a sort), where the matrix needs positives x negatives.

    Returns
    -------
    ``(wins, positives, negatives, keys)``, each per group in ``keys``' order (first
    appearance).

    >>> w, p, q, k = within_group_wins([0.9, 0.1, 0.5, 0.5], [1, 0, 1, 0], ["a", "a", "b", "b"])
    >>> w.tolist(), p.tolist(), q.tolist(), k
    ([1.0, 0.5], [1, 1], [1, 1], ['a', 'b'])
    """
    keys, g, s, y = _encoded(scores, labels, groups)
    wins = np.zeros(len(keys))
    order = np.argsort(g, kind="stable")
    bounds = np.searchsorted(g[order], np.arange(len(keys) + 1))
    for t in range(len(keys)):
        members = order[bounds[t]:bounds[t + 1]]
        pos = s[members[y[members]]]
        neg = np.sort(s[members[~y[members]]])
        if pos.size and neg.size:
            below = np.searchsorted(neg, pos, side="left")
            ties = np.searchsorted(neg, pos, side="right") - below
            wins[t] = float(below.sum()) + 0.5 * float(ties.sum())
    positives = np.bincount(g[y], minlength=len(keys))
    negatives = np.bincount(g[~y], minlength=len(keys))
    return wins, positives, negatives, keys


def grouped_auc(
    scores: Sequence[float],
    labels: Sequence[int | bool],
    groups: Sequence[Hashable],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    pooled: bool = True,
) -> GroupedAUC:
    """Within-group AUC (the headline for execution data) and pooled AUC, with intervals.

    The within-group AUC asks "of a passing and a failing candidate *of the same task*, does
    the passing one score higher?": only pairs inside a group count, ties 1/2, pooled over
    groups. The pooled AUC pairs every positive with every negative. Both intervals are
    percentile bootstraps that resample whole groups with replacement (a group drawn twice
    counts twice, its pairs with itself included; pairs across two copies of the same group
    count in the pooled AUC only), seeded.

    Parameters
    ----------
    scores, labels, groups : one score, 0/1 judgment and group key per item.
    resamples : bootstrap resamples (0: no intervals).
    seed : the bootstrap's seed.
    confidence : the intervals' level.
    pooled : also the pooled AUC and its interval, which need every positive against every
        negative (memory: positives x negatives); ``False`` leaves them ``None`` and costs
        about linear time and memory. The within-group numbers are the same either way.

    Returns
    -------
    A :class:`GroupedAUC`.

    >>> r = grouped_auc([0.9, 0.1, 0.5, 0.5], [1, 0, 1, 0], ["a", "a", "b", "b"], resamples=0)
    >>> r.within, r.pooled
    (0.75, 0.875)
    """
    if pooled:
        wins, pos, neg, keys = group_win_matrix(scores, labels, groups)
        diag = np.diag(wins).copy()
    else:
        diag, pos, neg, keys = within_group_wins(scores, labels, groups)
    within_pairs = pos * neg
    total_within = float(within_pairs.sum())
    pooled_pairs = float(pos.sum() * neg.sum()) if pooled else 0.0
    within = float(diag.sum()) / total_within if total_within else None
    pooled_auc = float(wins.sum()) / pooled_pairs if pooled_pairs else None
    within_ci = pooled_ci = None
    if resamples > 0 and keys:
        rng = np.random.default_rng(seed)
        n_groups = len(keys)
        within_stats = np.empty(resamples)
        pooled_stats = np.empty(resamples)
        block = max(1, 200_000 // max(1, n_groups))
        for start in range(0, resamples, block):
            rows = min(block, resamples - start)
            idx = rng.integers(0, n_groups, size=(rows, n_groups))
            weight = np.zeros((rows, n_groups))
            np.add.at(weight, (np.arange(rows)[:, None], idx), 1.0)
            w_within = weight @ diag
            p_within = weight @ within_pairs
            with np.errstate(invalid="ignore", divide="ignore"):
                within_stats[start:start + rows] = np.where(
                    p_within > 0, w_within / p_within, np.nan)
            if pooled:
                w_pooled = np.einsum("rs,st,rt->r", weight, wins, weight)
                p_pooled = (weight @ pos) * (weight @ neg)
                with np.errstate(invalid="ignore", divide="ignore"):
                    pooled_stats[start:start + rows] = np.where(
                        p_pooled > 0, w_pooled / p_pooled, np.nan)
        within_ci = percentile_interval(within_stats, confidence) if within is not None else None
        pooled_ci = (percentile_interval(pooled_stats, confidence) if pooled_auc is not None
                     else None)
    return GroupedAUC(
        within=within,
        within_ci=within_ci,
        pooled=pooled_auc,
        pooled_ci=pooled_ci,
        n=len(scores),
        positives=int(pos.sum()),
        groups=len(keys),
        mixed_groups=int(((pos > 0) & (neg > 0)).sum()),
        within_pairs=int(total_within),
    )
