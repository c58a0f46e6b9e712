"""Result records: one pair's scores, and a corpus of them with its aggregates."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .metrics import MEAN_METRICS, METRICS, REASON_KEYS, TIER_METRICS, metric_info
from .structure_notes import side_changes

__all__ = [
    "METRICS",
    "REASON_KEYS",
    "TIER_METRICS",
    "CorpusAccumulator",
    "CorpusResult",
    "PairResult",
    "aggregate",
    "mean_of",
]


def mean_of(defined: int, pairs: int) -> str:
    """How many pairs a mean is over, saying so when that is fewer than were read: a mean
    that leaves pairs out (a candidate with no score, a tier that did not apply) must not
    pass for the corpus's.

    >>> mean_of(250, 250), mean_of(205, 250)
    ('mean of 250', 'mean of 205 of 250')
    """
    if defined >= pairs:
        return f"mean of {defined:,}"
    return f"mean of {defined:,} of {pairs:,}"


@dataclass(frozen=True)
class PairResult:
    """The scores of one (reference, candidate) pair.

    Attributes
    ----------
    id : the pair's identifier (from the input, or its 0-based position).
    ruby : the RUBY score, equal to the score of the tier named by ``tier``; ``None`` only
        when RUBY was not requested or the pair could not be read at all.
    tier : ``"graph"``, ``"tree"`` or ``"string"``: the tier RUBY used.
    grs, trs, sts : graph, tree and string similarity, ``None`` when a tier does not apply.
    crystalbleu, bleu : sentence-level CrystalBLEU and BLEU.
    reasons : for each metric that is ``None`` (or that RUBY skipped), why, e.g.
        ``{"grs": "candidate: parse error at line 1, col 38"}``.
    mode : ``"reference"`` (scored against a reference in the candidate's language) or
        ``"source"`` (against the program it translates, in another language: GRS, TRS
        and RUBY only; see :meth:`~ruby_metric.api.scorer.RubyScorer.score_source`). Only
        ``"source"`` shows in :meth:`to_dict`, as a ``mode`` key.
    """

    id: Any
    ruby: float | None = None
    tier: str | None = None
    grs: float | None = None
    trs: float | None = None
    sts: float | None = None
    crystalbleu: float | None = None
    bleu: float | None = None
    reasons: dict[str, str] = field(default_factory=dict)
    mode: str = "reference"

    def to_dict(self) -> dict[str, Any]:
        """The pair as a plain, JSON-ready dict with a fixed key order."""
        row: dict[str, Any] = {"id": self.id}
        if self.mode != "reference":
            row["mode"] = self.mode
        for metric in METRICS:
            row[metric] = getattr(self, metric)
            if metric == "ruby":
                row["tier"] = self.tier
        row["reasons"] = dict(sorted(self.reasons.items()))
        return row

    def to_record(self) -> dict[str, Any]:
        """A flat record: the scores, plus one ``reason_<metric>`` column per metric (the same
        columns in either mode: scored against a source, the lexical metrics' reasons say
        they are not comparable)."""
        row = self.to_dict()
        row.pop("mode", None)
        reasons = row.pop("reasons")
        for key in REASON_KEYS:
            row[f"reason_{key}"] = reasons.get(key)
        return row


@dataclass(frozen=True)
class CorpusResult:
    """Per-pair results in input order, plus corpus aggregates.

    Attributes
    ----------
    pairs : the :class:`PairResult` of every pair, in input order.
    crystalbleu, bleu : corpus-level scores (statistics summed over pairs, as BLEU defines).
    means : for ``ruby``, ``grs``, ``trs`` and ``sts``, the mean over the pairs where the metric
        is defined (``None`` when it is defined nowhere).
    counts : for each metric, the number of pairs where it is defined.
    tiers : how many pairs RUBY scored with each tier.
    signature : the reproducibility signature of the scorer that produced the results.
    structure : sides repaired / with statements kept as text, ``{"repaired": {"candidate":
        n, "reference": n}, "contained": {...}}`` (empty when nothing was done).
    n_pairs : the number of pairs scored (``len(pairs)`` unless the pairs were streamed
        without being kept); ``summary()["pairs"]`` reports it. A mean over fewer pairs
        than that is named in ``summary()["partial_means"]`` (``{"ruby": "mean of 205 of
        250"}``, see :func:`mean_of`).
    crystalbleu_stats, bleu_stats : each pair's cached :class:`crystal.SegmentStats` (``None``
        where not computed), in pair order, so resampling (bootstrap, significance tests)
        recomputes corpus BLEU scores by summing, without re-tokenizing anything.
    """

    pairs: tuple[PairResult, ...]
    crystalbleu: float | None
    bleu: float | None
    means: dict[str, float | None]
    counts: dict[str, int]
    tiers: dict[str, int]
    signature: str
    n_pairs: int | None = None
    structure: dict[str, dict[str, int]] = field(default_factory=dict)
    crystalbleu_stats: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    bleu_stats: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[PairResult]:
        return iter(self.pairs)

    @property
    def ruby(self) -> float | None:
        """Mean RUBY over the corpus."""
        return self.means.get("ruby")

    def summary(self) -> dict[str, Any]:
        """The corpus aggregates as a JSON-ready dict."""
        out: dict[str, Any] = {"pairs": len(self.pairs) if self.n_pairs is None else self.n_pairs}
        for metric in METRICS:
            out[metric] = self.score(metric)
        out.update({
            "counts": dict(self.counts),
            "tiers": dict(self.tiers),
            "signature": self.signature,
        })
        if self.structure:
            out["structure"] = {k: dict(v) for k, v in self.structure.items()}
        partial = {metric: mean_of(self.counts.get(metric, 0), out["pairs"])
                   for metric in MEAN_METRICS
                   if 0 < self.counts.get(metric, 0) < out["pairs"]}
        if partial:
            out["partial_means"] = partial
        return out

    def score(self, metric: str) -> float | None:
        """The corpus score of ``metric``: the mean of its pair scores, or for the BLEUs the
        score of the summed statistics (see :data:`~ruby_metric.scoring.metrics.METRIC_TABLE`).

        >>> from ruby_metric import RubyScorer
        >>> corpus = RubyScorer().score_corpus(["a b c"], ["a b d"])
        >>> corpus.score("sts") == corpus.means["sts"]
        True
        """
        if metric_info(metric).aggregate == "mean":
            return self.means.get(metric)
        return getattr(self, metric)

    def to_dict(self) -> dict[str, Any]:
        """``{"corpus": summary, "pairs": [...]}``, the shape of ``--format json``."""
        return {"corpus": self.summary(), "pairs": [p.to_dict() for p in self.pairs]}

    def to_records(self) -> list[dict[str, Any]]:
        """Flat per-pair records, one column per field, for ``pandas.DataFrame(records)``.

        Reasons become ``reason_<metric>`` columns.
        """
        return [pair.to_record() for pair in self.pairs]


class CorpusAccumulator:
    """Corpus aggregates built one pair at a time, so a stream of any length needs constant
    memory (unless ``keep_pairs``).

    Parameters
    ----------
    keep_pairs : keep every :class:`PairResult` (and its statistics) for the final result.
    """

    def __init__(self, *, keep_pairs: bool = True) -> None:
        self.keep_pairs = keep_pairs
        self._pairs: list[PairResult] = []
        self._cb_stats: list[Any] = []
        self._bleu_stats: list[Any] = []
        self._sums: dict[str, _ExactSum] = {m: _ExactSum() for m in MEAN_METRICS}
        self._counts: dict[str, int] = dict.fromkeys(METRICS, 0)
        self._tiers: dict[str, int] = dict.fromkeys(TIER_METRICS, 0)
        self._cb_total: Any = None
        self._bleu_total: Any = None
        self._structure: dict[str, dict[str, int]] = {}
        self.n = 0

    def add(self, pair: PairResult, crystalbleu_stats: Any = None, bleu_stats: Any = None) -> None:
        """Fold one pair into the aggregates."""
        self.n += 1
        for metric in METRICS:
            value = getattr(pair, metric)
            if value is not None:
                self._counts[metric] += 1
                if metric in self._sums:
                    self._sums[metric].add(value)
        if pair.tier is not None:
            self._tiers[pair.tier] += 1
        if pair.reasons:
            for what, sides in zip(("repaired", "contained"), side_changes(pair.reasons),
                                   strict=True):
                for side in sorted(sides):
                    per = self._structure.setdefault(what, {})
                    per[side] = per.get(side, 0) + 1
        self._cb_total = _add(self._cb_total, crystalbleu_stats)
        self._bleu_total = _add(self._bleu_total, bleu_stats)
        if self.keep_pairs:
            self._pairs.append(pair)
            self._cb_stats.append(crystalbleu_stats)
            self._bleu_stats.append(bleu_stats)

    @property
    def crystalbleu_total(self) -> Any:
        """The summed CrystalBLEU statistics so far (``None`` when none)."""
        return self._cb_total

    @property
    def bleu_total(self) -> Any:
        """The summed BLEU statistics so far (``None`` when none)."""
        return self._bleu_total

    def result(
        self, *, crystalbleu: float | None, bleu: float | None, signature: str
    ) -> CorpusResult:
        """The :class:`CorpusResult` (with no pairs when ``keep_pairs`` is false)."""
        means = {
            metric: (total.value() / self._counts[metric] if self._counts[metric] else None)
            for metric, total in self._sums.items()
        }
        return CorpusResult(
            pairs=tuple(self._pairs),
            crystalbleu=crystalbleu,
            bleu=bleu,
            means=means,
            counts=dict(self._counts),
            tiers=dict(self._tiers),
            signature=signature,
            n_pairs=self.n,
            structure={k: dict(v) for k, v in self._structure.items()},
            crystalbleu_stats=tuple(self._cb_stats),
            bleu_stats=tuple(self._bleu_stats),
        )


def _add(total: Any, stats: Any) -> Any:
    if stats is None:
        return total
    return stats if total is None else total + stats


class _ExactSum:
    """An exactly rounded running sum (Shewchuk's partials, as in :func:`math.fsum`).

    Means must not depend on how a run was chunked across workers; an exact sum makes the
    result independent of summation order.
    """

    def __init__(self) -> None:
        self._partials: list[float] = []

    def add(self, x: float) -> None:
        partials = self._partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def value(self) -> float:
        return math.fsum(self._partials)


def aggregate(
    pairs: Iterable[PairResult],
    *,
    crystalbleu: float | None,
    bleu: float | None,
    signature: str,
    crystalbleu_stats: Iterable[Any] | None = None,
    bleu_stats: Iterable[Any] | None = None,
) -> CorpusResult:
    """A :class:`CorpusResult` from finished per-pair results and corpus BLEU scores."""
    acc = CorpusAccumulator(keep_pairs=True)
    pairs = list(pairs)
    cb = list(crystalbleu_stats) if crystalbleu_stats is not None else [None] * len(pairs)
    bl = list(bleu_stats) if bleu_stats is not None else [None] * len(pairs)
    for pair, cb_stats, bleu_stat in zip(pairs, cb, bl, strict=True):
        acc.add(pair, cb_stats, bleu_stat)
    return acc.result(crystalbleu=crystalbleu, bleu=bleu, signature=signature)
