"""Small helpers shared by the meta-evaluation modules."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

import crystal

from ..scoring.metrics import CORPUS_METRICS
from ..scoring.results import CorpusResult

#: Metrics whose corpus score is computed from summed statistics, not a mean.
BLEU_METRICS = CORPUS_METRICS


def as_float_array(values: Sequence[float | None] | np.ndarray) -> np.ndarray:
    """Scores as a float array, ``None`` (metric undefined for a pair) as NaN."""
    return np.array([np.nan if v is None else float(v) for v in values], dtype=float)


def pair_scores(corpus: CorpusResult, metric: str) -> np.ndarray:
    """One metric's per-pair scores of a scored corpus, NaN where undefined."""
    return as_float_array([getattr(p, metric) for p in corpus.pairs])


def pair_stats(corpus: CorpusResult, metric: str) -> list[Any]:
    """Cached per-pair SegmentStats of a BLEU metric (``None`` where not computed)."""
    stats = corpus.crystalbleu_stats if metric == "crystalbleu" else corpus.bleu_stats
    return list(stats) if stats else [None] * len(corpus.pairs)


def scoring_metric(scorer: Any) -> crystal.CrystalBLEU:
    """A metric that scores summed statistics exactly as ``scorer``'s corpus scores do.

    Scoring statistics needs only the smoothing (the n-gram set acted when counting).
    """
    return crystal.CrystalBLEU(
        None,
        smoothing=getattr(scorer, "smoothing", "method1"),
        epsilon=getattr(scorer, "epsilon", 1e-4),
        tokenizer=getattr(scorer, "tokenizer", "code"),
    )


def percentile_interval(
    samples: np.ndarray, confidence: float = 0.95
) -> tuple[float, float] | None:
    """The central ``confidence`` percentile interval of finite samples (None if none)."""
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return None
    tail = 50.0 * (1.0 - confidence)
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return float(low), float(high)


def finite_or_none(value: float | None) -> float | None:
    """A float, or None for None, NaN and infinities (JSON has no NaN)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


R = TypeVar("R")


class MetricMapping(Mapping[str, R]):
    """A report that reads as a ``dict`` from metric name to that metric's result.

    Subclasses are dataclasses with a ``metrics: dict[str, R]`` field; this gives them the
    read-only mapping methods and :meth:`metrics_dict` for their ``to_dict``.
    """

    metrics: dict[str, R]

    def __getitem__(self, metric: str) -> R:
        return self.metrics[metric]

    def __iter__(self) -> Iterator[str]:
        return iter(self.metrics)

    def __len__(self) -> int:
        return len(self.metrics)

    def metrics_dict(self) -> dict[str, Any]:
        """Metric name -> the result's ``to_dict()``, in report order."""
        return {name: r.to_dict() for name, r in self.metrics.items()}  # type: ignore[attr-defined]
