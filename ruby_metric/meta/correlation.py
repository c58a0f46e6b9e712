"""Agreement of a metric with human (or execution) judgments: correlations and ROC AUC.

Pearson, Spearman and Kendall (tau-b) are scipy's; their percentile bootstrap intervals
resample the judged pairs with replacement. When the judgments are binary (0/1 or
false/true: say, "passes the tests"), the ROC AUC of the metric as a detector of the
positive pairs is reported too, computed from ranks (Mann-Whitney), ties counted half.
Given a group per pair (the task a candidate solves), the within-group AUC is reported
beside it (:class:`WithinGroupAUC`): only a positive and a negative pair *of the same
group* are compared, with :func:`.grouped_auc.grouped_auc`.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .grouped_auc import grouped_auc
from .pair_scores import as_float_array, check_confidence, finite_or_none, percentile_interval
from .sampling import BLOCK_ELEMENTS, rng_for

# scipy.stats is imported by the functions that use it: it takes about 0.7 s, and every
# `ruby-metric` command imports this module (the CLI's parser includes the meta commands).

__all__ = [
    "Estimate",
    "CorrelationResult",
    "WithinGroupAUC",
    "correlate",
    "within_group_auc",
    "within_group_like_for_like",
    "correlate_metrics",
    "roc_auc",
    "is_binary",
]


@dataclass(frozen=True)
class Estimate:
    """A statistic with its bootstrap interval and, for correlations, scipy's p-value.

    ``value`` is None when undefined (constant input, fewer than two pairs).
    """

    value: float | None
    ci: tuple[float, float] | None = None
    p_value: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "ci": list(self.ci) if self.ci else None,
            "p_value": self.p_value,
        }


@dataclass(frozen=True)
class WithinGroupAUC:
    """ROC AUC inside groups: of a positive and a negative pair of the *same* group (say, a
    passing and a failing candidate of one task), how often the positive scores higher.

    Pooled over groups: the wins (ties count 1/2) of every group over all its
    (positive, negative) pairs. A group with only positive or only negative pairs has no such
    pair and is left out.

    Attributes
    ----------
    value : the within-group AUC; None when no group has both a positive and a negative.
    ci : its percentile bootstrap interval, resampling whole groups (None without resamples).
    n : judged pairs counted: those (with a metric score) in groups with both outcomes.
    groups : groups with both outcomes.
    pairs : (positive, negative) pairs of the same group that ``value`` is the share of.
    left_out_groups : groups with one outcome only (no pair to compare).
    left_out_items : judged pairs in those groups.
    pooled : the ROC AUC over the same ``n`` pairs, every positive against every negative
        whatever its group: the number to set ``value`` beside, like for like.
    """

    value: float | None
    ci: tuple[float, float] | None
    n: int
    groups: int
    pairs: int
    left_out_groups: int
    left_out_items: int
    pooled: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``auc``, ``auc_ci`` and the counts."""
        return {
            "auc": self.value,
            "auc_ci": list(self.ci) if self.ci else None,
            "n": self.n,
            "groups": self.groups,
            "pairs": self.pairs,
            "left_out_groups": self.left_out_groups,
            "left_out_items": self.left_out_items,
            "pooled_auc": self.pooled,
        }


@dataclass(frozen=True)
class CorrelationResult:
    """How one metric agrees with the judgments.

    Attributes
    ----------
    metric : the metric's name.
    n : pairs with both a metric score and a judgment.
    excluded : pairs left out because the metric is undefined there.
    pearson, spearman, kendall : :class:`Estimate` s (Kendall's tau-b).
    auc : ROC AUC when the judgments are binary, else None (pooled: every positive pair
        against every negative one).
    bootstrap, confidence : resamples and level of the intervals.
    within_group : the within-group AUC (:class:`WithinGroupAUC`) when groups were given,
        else None.
    """

    metric: str
    n: int
    excluded: int
    pearson: Estimate
    spearman: Estimate
    kendall: Estimate
    auc: Estimate | None
    bootstrap: int
    confidence: float
    within_group: WithinGroupAUC | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``pearson``, ``spearman``, ``kendall`` (and ``auc``) with their CIs;
        ``within_group`` (:meth:`WithinGroupAUC.to_dict`) when groups were given."""
        out: dict[str, Any] = {"n": self.n, "excluded": self.excluded}
        for name in ("pearson", "spearman", "kendall"):
            est: Estimate = getattr(self, name)
            out[name] = est.value
            out[f"{name}_ci"] = list(est.ci) if est.ci else None
            out[f"{name}_p_value"] = est.p_value
        if self.auc is not None:
            out["auc"] = self.auc.value
            out["auc_ci"] = list(self.auc.ci) if self.auc.ci else None
        if self.within_group is not None:
            out["within_group"] = self.within_group.to_dict()
        return out


def is_binary(values: Sequence[Any] | np.ndarray) -> bool:
    """True when every judgment is 0 or 1 (False and True count as 0 and 1).

    Examples
    --------
    >>> is_binary([0, 1, 1.0, True]), is_binary([0, 0.5, 1])
    (True, False)
    """
    arr = np.asarray(values, dtype=float)
    return arr.size > 0 and bool(np.all((arr == 0) | (arr == 1)))


def roc_auc(scores: Sequence[float] | np.ndarray, labels: Sequence[Any] | np.ndarray) -> float:
    """Area under the ROC curve of ``scores`` detecting ``labels == 1``; ties count half.

    Equal to the probability that a random positive scores above a random negative (plus
    half the probability of a tie): the Mann-Whitney U of the positives over n1 * n0,
    computed from average ranks.

    Parameters
    ----------
    scores : one score per item (finite).
    labels : 0/1 or False/True per item.

    Returns
    -------
    float in [0, 1].

    Raises
    ------
    ValueError : lengths differ, or only one label occurs.

    Examples
    --------
    >>> roc_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    0.75
    """
    from scipy import stats
    x = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"{x.size} scores but {y.size} labels")
    positive = y == 1
    n1 = int(positive.sum())
    n0 = len(y) - n1
    if n1 == 0 or n0 == 0:
        raise ValueError("ROC AUC needs both positive and negative labels")
    ranks = stats.rankdata(x)  # average ranks: a tie contributes half a win
    return float((ranks[positive].sum() - n1 * (n1 + 1) / 2.0) / (n1 * n0))


def within_group_auc(
    metric_scores: Sequence[float | None] | np.ndarray,
    human_scores: Sequence[float | bool] | np.ndarray,
    groups: Sequence[Hashable],
    *,
    bootstrap: int = 1000,
    seed: int | np.random.Generator | None = 0,
    confidence: float = 0.95,
) -> WithinGroupAUC:
    """ROC AUC over the (positive, negative) pairs of the same group only, ties counting 1/2.

    The score of :func:`.grouped_auc.grouped_auc` on the pairs where the metric is
    defined, with the groups that have one outcome only counted apart (they give no pair).

    Parameters
    ----------
    metric_scores : the metric's score per judged pair; ``None``/NaN where undefined (left
        out).
    human_scores : the binary judgment per judged pair (0/1 or False/True).
    groups : the group per judged pair (say, the task id): any hashable value.
    bootstrap : resamples of the interval, which draws whole groups (0: no interval).
    seed : the resampling's seed.
    confidence : the interval's level.

    Returns
    -------
    WithinGroupAUC

    Raises
    ------
    ValueError : the lengths differ, or a judgment is not 0 or 1.

    Examples
    --------
    >>> r = within_group_auc([0.9, 0.1, 0.5, 0.5, 0.7], [1, 0, 1, 0, 1], "aabbc", bootstrap=0)
    >>> r.value, r.n, r.groups, r.pairs, r.left_out_groups, r.left_out_items
    (0.75, 4, 2, 2, 1, 1)
    """
    check_confidence(confidence)
    x = as_float_array(metric_scores)
    y = np.asarray(human_scores, dtype=float)
    keys = list(groups)
    if not x.shape == y.shape == (len(keys),):
        raise ValueError(f"{x.size} metric scores, {y.size} judgments and {len(keys)} groups")
    if y.size and not is_binary(y):
        raise ValueError(
            "the within-group AUC needs binary judgments (0/1 or false/true), "
            f"got {np.unique(y[(y != 0) & (y != 1)])[0]:g}"
        )
    defined = np.isfinite(x)
    kept = [k for k, d in zip(keys, defined, strict=True) if d]
    scores, labels = x[defined], y[defined].astype(int)
    size = Counter(kept)
    positive = Counter(k for k, label in zip(kept, labels, strict=True) if label)
    one_outcome = {k for k in size if positive[k] in (0, size[k])}
    left_out = sum(size[k] for k in one_outcome)
    g = grouped_auc(
        scores, labels, kept, resamples=bootstrap, seed=seed, confidence=confidence,
        pooled=False,
    )
    mixed = np.array([k not in one_outcome for k in kept], dtype=bool)
    same_items = labels[mixed]
    pooled = (roc_auc(scores[mixed], same_items)
              if 0 < same_items.sum() < same_items.size else None)
    return WithinGroupAUC(
        value=g.within,
        ci=g.within_ci,
        n=g.n - left_out,
        groups=g.mixed_groups,
        pairs=g.within_pairs,
        left_out_groups=len(one_outcome),
        left_out_items=left_out,
        pooled=pooled,
    )


def _rowwise_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (xc * yc).sum(axis=1) / np.sqrt((xc * xc).sum(axis=1) * (yc * yc).sum(axis=1))


def _rowwise_kendall(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of each row of ``x`` with the same row of ``y``, as
    ``scipy.stats.kendalltau`` computes it (NaN where a row is constant).

    From the signs of every pair's differences: concordant minus discordant pairs is the sum
    of their products, and the pairs not tied in x (in y) the count of nonzero signs; the
    same integers scipy counts, in the same division, so the same float. One scipy call per
    bootstrap resample cost 1.6 ms whatever n (22 s for 15 pairs); the pairwise signs take
    n * n memory a row, so a large n keeps scipy's O(n log n) count.
    """
    from scipy import stats
    rows, n = x.shape
    if n * n > BLOCK_ELEMENTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.array([stats.kendalltau(a, b)[0] for a, b in zip(x, y, strict=True)])
    upper = np.triu_indices(n, 1)
    out = np.empty(rows)
    step = max(1, BLOCK_ELEMENTS // (n * n))
    for start in range(0, rows, step):
        xs, ys = x[start:start + step], y[start:start + step]
        sx = np.sign(xs[:, :, None] - xs[:, None, :])[:, upper[0], upper[1]].astype(np.int64)
        sy = np.sign(ys[:, :, None] - ys[:, None, :])[:, upper[0], upper[1]].astype(np.int64)
        con_minus_dis = (sx * sy).sum(axis=1)
        untied_x, untied_y = (sx != 0).sum(axis=1), (sy != 0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = con_minus_dis / np.sqrt(untied_x) / np.sqrt(untied_y)
        tau[(untied_x == 0) | (untied_y == 0)] = np.nan
        out[start:start + step] = np.clip(tau, -1.0, 1.0)
    return out


def _rowwise_auc(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    from scipy import stats
    ranks = stats.rankdata(x, axis=1)
    n1 = y.sum(axis=1)
    n0 = y.shape[1] - n1
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((ranks * y).sum(axis=1) - n1 * (n1 + 1) / 2.0) / (n1 * n0)


def _scipy(fn: Any, x: np.ndarray, y: np.ndarray) -> tuple[float | None, float | None]:
    if len(x) < 2:
        return None, None
    with warnings.catch_warnings():
        # Constant input: scipy warns and returns NaN; we report None instead.
        warnings.simplefilter("ignore")
        res = fn(x, y)
    return finite_or_none(res[0]), finite_or_none(res[1])


def correlate(
    metric_scores: Sequence[float | None] | np.ndarray,
    human_scores: Sequence[float | bool] | np.ndarray,
    *,
    bootstrap: int = 1000,
    seed: int | np.random.Generator | None = 0,
    confidence: float = 0.95,
    metric: str = "",
    binary: bool | None = None,
    groups: Sequence[Hashable] | None = None,
) -> CorrelationResult:
    """Pearson, Spearman, Kendall (and ROC AUC for binary judgments) with bootstrap CIs.

    Parameters
    ----------
    metric_scores : the metric's score per pair; ``None``/NaN where undefined (left out).
    human_scores : the judgment per pair (numbers, or booleans).
    bootstrap : resamples for the percentile intervals (0: no intervals).
    seed : seed of the resampling; the same seed resamples the same pairs for every metric
        given the same number of pairs.
    confidence : level of the intervals (default 0.95).
    metric : name to put in the result.
    binary : force (True) or suppress (False) the ROC AUC; default: when every judgment
        is 0 or 1.
    groups : the group per pair (say, the task a candidate solves): adds the within-group
        AUC (:func:`within_group_auc`, its interval resampling groups) as ``within_group``;
        the judgments must then be binary.

    Returns
    -------
    CorrelationResult

    Raises
    ------
    ValueError : the sequences differ in length, a judgment is not finite, or ``groups``
        is given and a judgment is not 0 or 1.

    Examples
    --------
    >>> r = correlate([0.1, 0.5, 0.4, 0.9], [1, 3, 2, 4], bootstrap=0)
    >>> r.spearman.value, r.kendall.value
    (1.0, 1.0)
    """
    from scipy import stats
    check_confidence(confidence)
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, got {bootstrap}")
    x_all = as_float_array(metric_scores)
    y_all = np.asarray(human_scores, dtype=float)
    if x_all.shape != y_all.shape:
        raise ValueError(f"{x_all.size} metric scores but {y_all.size} judgments")
    if not np.all(np.isfinite(y_all)):
        raise ValueError("every judgment must be a finite number")
    within = None
    if groups is not None:
        within = within_group_auc(
            x_all, y_all, groups, bootstrap=bootstrap, seed=seed, confidence=confidence
        )
    if binary is None:
        binary = is_binary(y_all)
    defined = np.isfinite(x_all)
    x, y = x_all[defined], y_all[defined]
    n = len(x)

    pearson = _scipy(stats.pearsonr, x, y)
    spearman = _scipy(stats.spearmanr, x, y)
    kendall = _scipy(stats.kendalltau, x, y)
    auc_value = None
    if binary and n and 0 < y.sum() < n:
        auc_value = roc_auc(x, y)

    cis: dict[str, tuple[float, float] | None] = dict.fromkeys(
        ("pearson", "spearman", "kendall", "auc")
    )
    if bootstrap and n >= 2:
        samples = {name: np.empty(bootstrap) for name in cis}
        rng = rng_for(seed, 4)
        block = max(1, BLOCK_ELEMENTS // n)
        for start in range(0, bootstrap, block):
            rows = min(block, bootstrap - start)
            idx = rng.integers(0, n, size=(rows, n))
            xs, ys = x[idx], y[idx]
            part = slice(start, start + rows)
            samples["pearson"][part] = _rowwise_pearson(xs, ys)
            samples["spearman"][part] = _rowwise_pearson(
                stats.rankdata(xs, axis=1), stats.rankdata(ys, axis=1)
            )
            samples["kendall"][part] = _rowwise_kendall(xs, ys)
            if auc_value is not None:
                samples["auc"][part] = _rowwise_auc(xs, ys)
        for name in cis:
            if name != "auc" or auc_value is not None:
                cis[name] = percentile_interval(samples[name], confidence)

    return CorrelationResult(
        metric=metric,
        n=n,
        excluded=int((~defined).sum()),
        pearson=Estimate(pearson[0], cis["pearson"], pearson[1]),
        spearman=Estimate(spearman[0], cis["spearman"], spearman[1]),
        kendall=Estimate(kendall[0], cis["kendall"], kendall[1]),
        auc=Estimate(auc_value, cis["auc"]) if auc_value is not None else None,
        bootstrap=bootstrap,
        confidence=confidence,
        within_group=within,
    )


def within_group_like_for_like(
    metric_scores: Mapping[str, Sequence[float | None]],
    human_scores: Sequence[float | bool] | np.ndarray,
    groups: Sequence[Hashable],
    **options: Any,
) -> tuple[dict[str, WithinGroupAUC], int]:
    """Every metric's :func:`within_group_auc` over the *same* candidates, like for like.

    A tier that is undefined on a candidate (GRS where the program did not parse, say) would
    otherwise be judged on an easier or harder subset than the others. Only the candidates
    where every metric that is defined somewhere is defined count (a metric undefined on
    every candidate, such as BLEU against a source, does not narrow the set).

    Parameters
    ----------
    metric_scores : ``{metric: score per candidate}``, ``None``/NaN where undefined.
    human_scores, groups : as for :func:`within_group_auc`.
    **options : ``bootstrap``, ``seed``, ``confidence`` of :func:`within_group_auc`.

    Returns
    -------
    ``({metric: WithinGroupAUC}, left out)``: left out counts the candidates some metric is
    defined on but not every one (a candidate no metric is defined on is not counted).

    >>> out, left = within_group_like_for_like(
    ...     {"a": [0.9, 0.1, 0.8, 0.2], "b": [0.9, 0.1, None, 0.2]}, [1, 0, 1, 0], "xxyy",
    ...     bootstrap=0)
    >>> out["a"].n, out["b"].n, left
    (2, 2, 1)
    """
    arrays = {m: as_float_array(v) for m, v in metric_scores.items()}
    defined = [np.isfinite(a) for a in arrays.values() if np.isfinite(a).any()]
    size = len(list(groups))
    common = np.logical_and.reduce(defined) if defined else np.zeros(size, dtype=bool)
    some = np.logical_or.reduce(defined) if defined else np.zeros(size, dtype=bool)
    out = {
        m: within_group_auc(np.where(common, a, np.nan), human_scores, groups, **options)
        for m, a in arrays.items()
    }
    return out, int((some & ~common).sum())


def correlate_metrics(
    metric_scores: Mapping[str, Sequence[float | None]],
    human_scores: Sequence[float | bool] | np.ndarray,
    *,
    groups: Sequence[Hashable] | None = None,
    **options: Any,
) -> dict[str, CorrelationResult]:
    """:func:`correlate` for each metric of ``{name: per-pair scores}``, same options.

    With one seed, every metric's intervals come from the same resampled pairs (when the
    metrics are defined on the same pairs), and with ``groups`` from the same resampled
    groups.

    Parameters
    ----------
    metric_scores : ``{metric name: score per judged pair}``, ``None``/NaN where undefined.
    human_scores : the judgment per judged pair (numbers, or booleans).
    groups : the group per judged pair, e.g. the task id of each candidate. With it each
        result's ``within_group`` holds the within-group AUC (:class:`WithinGroupAUC`):
        over the (positive, negative) pairs of the same group only, ties counting 1/2,
        pooled over groups; groups with one outcome only give no pair and are counted in
        ``left_out_groups`` / ``left_out_items``. Needs binary judgments (0/1, false/true).
    **options : ``bootstrap``, ``seed``, ``confidence``, ``binary`` of :func:`correlate`.

    Returns
    -------
    ``{metric name: CorrelationResult}`` in the order of ``metric_scores``; the pooled ROC
    AUC is each result's ``auc``, the within-group one its ``within_group``.

    Raises
    ------
    ValueError : lengths differ, a judgment is not finite, or ``groups`` is given and a
        judgment is not 0 or 1.

    Examples
    --------
    Two tasks: in ``a`` the passing candidate wins; in ``b`` it ties (1/2). Across tasks the
    passing 0.5 of ``b`` also beats the failing 0.1 of ``a``, which only the pooled AUC counts:

    >>> out = correlate_metrics({"bleu": [0.9, 0.1, 0.5, 0.5]}, [1, 0, 1, 0],
    ...                         groups=["a", "a", "b", "b"], bootstrap=0)
    >>> r = out["bleu"]
    >>> r.within_group.value, r.auc.value, r.within_group.pairs
    (0.75, 0.875, 2)
    """
    return {
        name: correlate(values, human_scores, metric=name, groups=groups, **options)
        for name, values in metric_scores.items()
    }
