"""Statistics of the mutation benchmark: pooled variant-above-mutant AUC, bootstrap
intervals over references, per-tier summaries (:class:`TierValidity`) and per-operator
failure rates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .mutations import OPERATORS
from .pair_scores import percentile_interval
from .validity_scoring import TIERS, ScoredCandidate


def auc_counts(variants: Sequence[float], mutants: Sequence[float]) -> tuple[float, int]:
    """(wins, pairs): variant-above-mutant pairs (ties count 1/2) and the number of pairs.

    >>> auc_counts([0.9, 0.8], [0.85, 0.5])
    (3.0, 4)
    >>> auc_counts([0.5], [0.5])
    (0.5, 1)
    """
    v = np.asarray(variants, dtype=float)[:, None]
    m = np.asarray(mutants, dtype=float)[None, :]
    if v.size == 0 or m.size == 0:
        return 0.0, 0
    wins = float((v > m).sum() + 0.5 * (v == m).sum())
    return wins, int(v.size * m.size)


def mutation_auc(groups: Iterable[tuple[Sequence[float], Sequence[float]]]) -> float | None:
    """Pooled pairwise AUC over references: ``groups`` holds (variant scores, mutant scores).

    None when no reference has both a variant and a mutant.
    """
    wins = pairs = 0.0
    for v, m in groups:
        w, p = auc_counts(v, m)
        wins += w
        pairs += p
    return wins / pairs if pairs else None


def bootstrap_ratio(
    numerators: Sequence[float],
    denominators: Sequence[float],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile interval of ``sum(num) / sum(den)`` resampling the units with replacement.

    The units are references (one numerator and denominator each); the same ``seed`` and
    number of units resample the same units.
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    n = len(num)
    if n == 0 or resamples <= 0:
        return None
    rng = np.random.default_rng(seed)
    stats = np.empty(resamples)
    block = max(1, 2_000_000 // n)
    for start in range(0, resamples, block):
        rows = min(block, resamples - start)
        idx = rng.integers(0, n, size=(rows, n))
        d = den[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            stats[start:start + rows] = np.where(d > 0, num[idx].sum(axis=1) / d, np.nan)
    return percentile_interval(stats, confidence)


@dataclass(frozen=True)
class TierValidity:
    """Mutation-benchmark numbers of one tier.

    Attributes
    ----------
    tier : the score's name.
    auc, auc_ci : pooled pairwise variant-above-mutant AUC and its bootstrap interval.
    mutants_at_one, mutants_at_one_ci : share of mutants scoring exactly 1.0.
    references : references with both a variant and a mutant where the tier applies.
    pairs : (variant, mutant) pairs counted.
    excluded : candidates where the tier does not apply (left out).
    by_language : language -> (AUC, pairs).
    """

    tier: str
    auc: float | None
    auc_ci: tuple[float, float] | None
    mutants_at_one: float | None
    mutants_at_one_ci: tuple[float, float] | None
    references: int
    pairs: int
    excluded: int
    by_language: dict[str, tuple[float | None, int]]


def evaluate_mutations(
    scored: Sequence[ScoredCandidate],
    *,
    tiers: Sequence[str] = TIERS,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, TierValidity]:
    """Per tier: mutation AUC, mutants at 1.0, bootstrap intervals, per-language AUC."""
    out = {}
    for tier in tiers:
        groups: dict[str, tuple[list[float], list[float]]] = {}
        lang_of: dict[str, str] = {}
        excluded = 0
        for s in scored:
            value = s.scores.get(tier)
            if value is None:
                excluded += 1
                continue
            group = groups.setdefault(s.ref_id, ([], []))
            group[0 if s.preserving else 1].append(value)
            lang_of[s.ref_id] = s.language
        refs = sorted(k for k, (v, m) in groups.items() if v and m)
        counts = [auc_counts(*groups[k]) for k in refs]
        wins = [c[0] for c in counts]
        pairs = [c[1] for c in counts]
        mut_refs = sorted(k for k, (_, m) in groups.items() if m)
        at_one = [sum(1 for x in groups[k][1] if x == 1.0) for k in mut_refs]
        n_mut = [len(groups[k][1]) for k in mut_refs]
        by_lang: dict[str, tuple[float | None, int]] = {}
        for lang in sorted(set(lang_of.values())):
            sel = [i for i, k in enumerate(refs) if lang_of[k] == lang]
            p = sum(pairs[i] for i in sel)
            by_lang[lang] = (sum(wins[i] for i in sel) / p if p else None, p)
        total_pairs = sum(pairs)
        out[tier] = TierValidity(
            tier=tier,
            auc=sum(wins) / total_pairs if total_pairs else None,
            auc_ci=bootstrap_ratio(wins, pairs, resamples=resamples, seed=seed),
            mutants_at_one=sum(at_one) / sum(n_mut) if sum(n_mut) else None,
            mutants_at_one_ci=bootstrap_ratio(at_one, n_mut, resamples=resamples, seed=seed),
            references=len(refs),
            pairs=total_pairs,
            excluded=excluded,
            by_language=by_lang,
        )
    return out


@dataclass(frozen=True)
class OperatorOrder:
    """How one tier orders the (variant, mutant) pairs one operator takes part in.

    Attributes
    ----------
    kind : ``"variant"`` (semantics-preserving operator) or ``"mutant"``.
    pairs : (variant, mutant) pairs of the same reference with this operator on one side.
    right : share ordered right (the variant scores strictly higher).
    tied : share of ties (equal scores).
    reversed : share where the mutant scores strictly higher.
    wrong : share *not* ordered right (``tied + reversed``: the mutant scores at least as
        high), the figure the acceptance bar "ordered wrongly" uses.
    """

    kind: str
    pairs: int
    right: float | None
    tied: float | None
    reversed: float | None

    @property
    def wrong(self) -> float | None:
        """Share not ordered right (ties count as wrong)."""
        return None if self.right is None else 1.0 - self.right


def operator_orders(
    scored: Sequence[ScoredCandidate], *, tiers: Sequence[str] = TIERS
) -> dict[str, dict[str, OperatorOrder]]:
    """Per operator and tier: the shares of its pairs ordered right, tied and reversed.

    Every (variant, mutant) pair of the same reference where the tier applies to both counts
    once for the variant's operator and once for the mutant's. Operators are picked up by
    name from the candidates (any operator, also one added later), in the order of
    :data:`OPERATORS`, unknown names last.

    Parameters
    ----------
    scored : the scored candidates.
    tiers : the tiers to summarize.

    Returns
    -------
    operator name -> tier -> :class:`OperatorOrder`.
    """
    out: dict[str, dict[str, OperatorOrder]] = {}
    kinds: dict[str, str] = {}
    for s in scored:
        kinds.setdefault(s.operator, "variant" if s.preserving else "mutant")
    for tier in tiers:
        groups: dict[str, tuple[list[ScoredCandidate], list[ScoredCandidate]]] = {}
        for s in scored:
            if s.scores.get(tier) is not None:
                groups.setdefault(s.ref_id, ([], []))[0 if s.preserving else 1].append(s)
        right: Counter = Counter()
        tied: Counter = Counter()
        total: Counter = Counter()
        for variants, mutants in groups.values():
            for v in variants:
                for m in mutants:
                    vs, ms = v.scores[tier], m.scores[tier]
                    for op in (v.operator, m.operator):
                        total[op] += 1
                        right[op] += int(vs > ms)  # type: ignore[operator]
                        tied[op] += int(vs == ms)
        for op in total:
            n = total[op]
            out.setdefault(op, {})[tier] = OperatorOrder(
                kinds[op], n, right[op] / n, tied[op] / n, (n - right[op] - tied[op]) / n)
    order = {op.name: i for i, op in enumerate(OPERATORS)}
    return dict(sorted(out.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def operator_failures(
    scored: Sequence[ScoredCandidate], *, tiers: Sequence[str] = TIERS
) -> dict[str, dict[str, tuple[float | None, int]]]:
    """Per operator and tier: how often the tier gets it wrong.

    For a mutant operator: the share of (variant, mutant) pairs of the same reference where
    the mutant scores at least as high as the variant (``>=``). For a variant operator: the
    share of its (variant, mutant) pairs where the variant scores at most as high as the
    mutant (``<=``). Each value comes with the number of pairs (see :func:`operator_orders`
    for the split into ties and reversals).

    Parameters
    ----------
    scored : the scored candidates.
    tiers : the tiers to summarize.

    Returns
    -------
    operator name -> tier -> (share ordered wrongly, pairs).
    """
    return {op: {t: (o.wrong, o.pairs) for t, o in per_tier.items()}
            for op, per_tier in operator_orders(scored, tiers=tiers).items()}


# ------------------------------------------------------------------ grouped (within-task) AUC


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
