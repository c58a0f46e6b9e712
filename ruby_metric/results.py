"""Result records: one pair's scores, and a corpus of them with its aggregates."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Every score a pair can carry, in report order.
METRICS: tuple[str, ...] = ("ruby", "grs", "trs", "sts", "crystalbleu", "bleu")

#: The structural tiers in RUBY's order of preference, with the metric each one reports.
TIER_METRICS: dict[str, str] = {"graph": "grs", "tree": "trs", "string": "sts"}


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

    def to_dict(self) -> dict[str, Any]:
        """The pair as a plain, JSON-ready dict with a fixed key order."""
        return {
            "id": self.id,
            "ruby": self.ruby,
            "tier": self.tier,
            "grs": self.grs,
            "trs": self.trs,
            "sts": self.sts,
            "crystalbleu": self.crystalbleu,
            "bleu": self.bleu,
            "reasons": dict(sorted(self.reasons.items())),
        }


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
        return {
            "pairs": len(self.pairs),
            "ruby": self.means.get("ruby"),
            "grs": self.means.get("grs"),
            "trs": self.means.get("trs"),
            "sts": self.means.get("sts"),
            "crystalbleu": self.crystalbleu,
            "bleu": self.bleu,
            "counts": dict(self.counts),
            "tiers": dict(self.tiers),
            "signature": self.signature,
        }

    def to_dict(self) -> dict[str, Any]:
        """``{"corpus": summary, "pairs": [...]}``, the shape of ``--format json``."""
        return {"corpus": self.summary(), "pairs": [p.to_dict() for p in self.pairs]}

    def to_records(self) -> list[dict[str, Any]]:
        """Flat per-pair records, one column per field, for ``pandas.DataFrame(records)``.

        Reasons become ``reason_<metric>`` columns.
        """
        records = []
        for pair in self.pairs:
            row = pair.to_dict()
            reasons = row.pop("reasons")
            for metric in METRICS:
                row[f"reason_{metric}"] = reasons.get(metric)
            records.append(row)
        return records


def aggregate(
    pairs: Sequence[PairResult],
    *,
    crystalbleu: float | None,
    bleu: float | None,
    signature: str,
    crystalbleu_stats: Sequence[Any] = (),
    bleu_stats: Sequence[Any] = (),
) -> CorpusResult:
    """Build a :class:`CorpusResult` from per-pair results and corpus-level BLEU scores."""
    means: dict[str, float | None] = {}
    counts: dict[str, int] = {}
    for metric in METRICS:
        values = [getattr(p, metric) for p in pairs if getattr(p, metric) is not None]
        counts[metric] = len(values)
        if metric in ("crystalbleu", "bleu"):
            continue
        # fsum keeps the mean independent of summation order, so chunked or parallel runs agree.
        means[metric] = math.fsum(values) / len(values) if values else None
    tiers = {tier: 0 for tier in TIER_METRICS}
    for p in pairs:
        if p.tier is not None:
            tiers[p.tier] += 1
    return CorpusResult(
        pairs=tuple(pairs),
        crystalbleu=crystalbleu,
        bleu=bleu,
        means=means,
        counts=counts,
        tiers=tiers,
        signature=signature,
        crystalbleu_stats=tuple(crystalbleu_stats),
        bleu_stats=tuple(bleu_stats),
    )
