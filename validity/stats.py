"""Statistics of the mutation benchmark: pooled variant-above-mutant AUC, bootstrap
intervals over references, per-tier summaries (:class:`TierValidity`) and per-operator
failure rates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ruby_metric.meta.pair_scores import percentile_interval

from .mutations import OPERATORS
from .scoring import TIERS, ScoredCandidate


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
