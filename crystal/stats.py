"""BLEU's sufficient statistics: :class:`SegmentStats`, one segment's counts (or a corpus's sum).

Statistics first, scores second (as sacrebleu does): :mod:`crystal.counting` counts a
hypothesis against its references once into a :class:`SegmentStats`; statistics add up for a
corpus; :mod:`crystal.scoring` turns a segment's or a corpus's statistics into a score with any
smoothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SegmentStats"]


@dataclass(frozen=True)
class SegmentStats:
    """Sufficient statistics of one segment (or, summed, of a corpus) for BLEU.

    Parameters
    ----------
    hyp_len : int
        Number of hypothesis tokens.
    ref_len : int
        Length of the reference closest in length to the hypothesis (NLTK's rule: the
        shortest among the closest).
    matches : tuple of float
        Per order 1..max_n: clipped n-gram matches (weighted counts in the log-weight
        variant; whole numbers otherwise).
    totals : tuple of float
        Per order: hypothesis n-grams counted (after ignoring or weighting).
    zero_totals : tuple of int, optional
        Per order: number of segments whose total is 0. NLTK counts such a segment's
        denominator as 1, so ``denominators = totals + zero_totals``. Derived from
        ``totals`` when omitted.
    segments : int, optional (default 1)
        Number of segments summed.
    exact : int, optional (default 0)
        Number of segments whose hypothesis equals one of its references token for token.

    Examples
    --------
    >>> from crystal import segment_stats
    >>> s = segment_stats([["a", "b", "c"]], ["a", "b", "d"], max_n=2)
    >>> s.matches, s.totals
    ((2.0, 1.0), (3.0, 2.0))
    >>> (s + s).matches, sum([s, s]).segments
    ((4.0, 2.0), 2)
    """

    hyp_len: int
    ref_len: int
    matches: tuple[float, ...]
    totals: tuple[float, ...]
    zero_totals: tuple[int, ...] | None = None
    segments: int = 1
    exact: int = 0

    def __post_init__(self) -> None:
        if len(self.matches) != len(self.totals):
            raise ValueError("matches and totals must have one value per order")
        if self.zero_totals is None:
            object.__setattr__(self, "zero_totals", tuple(int(t == 0) for t in self.totals))
        elif len(self.zero_totals) != len(self.totals):
            raise ValueError("zero_totals must have one value per order")

    @property
    def max_n(self) -> int:
        """Number of orders counted."""
        return len(self.matches)

    @property
    def denominators(self) -> tuple[float, ...]:
        """NLTK's precision denominators: totals, with each empty segment counted as 1."""
        return tuple(t + z for t, z in zip(self.totals, self.zero_totals, strict=False))  # type: ignore[arg-type]

    def __add__(self, other: SegmentStats) -> SegmentStats:
        if not isinstance(other, SegmentStats):
            return NotImplemented
        if other.max_n != self.max_n:
            raise ValueError(f"cannot add statistics of {self.max_n} and {other.max_n} orders")
        return SegmentStats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            tuple(a + b for a, b in zip(self.matches, other.matches, strict=False)),
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=False)),
            tuple(a + b for a, b in zip(self.zero_totals, other.zero_totals, strict=False)),  # type: ignore[arg-type]
            self.segments + other.segments,
            self.exact + other.exact,
        )

    def __radd__(self, other: object) -> SegmentStats:
        # sum() starts from 0.
        if other == 0:
            return self
        return NotImplemented

    def as_dict(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dict."""
        return {
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "zero_totals": list(self.zero_totals),  # type: ignore[arg-type]
            "segments": self.segments,
            "exact": self.exact,
        }
