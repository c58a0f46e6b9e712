"""Per-pair BLEU statistics stacked into one matrix, so resampled corpus scores are sums.

A corpus BLEU is a function of the *sum* of its segments' :class:`crystal.SegmentStats`.
Stacking every pair's statistics as a row of a float matrix once turns the corpus
statistics of any resample (bootstrap counts, randomization swaps) into a weights-by-matrix
product: no parse, no tokenization, no n-gram counting again. Each summed row is then scored
by the metric's own :meth:`crystal.CrystalBLEU.score_stats`, so a resample that happens to
equal the original corpus gets *exactly* the number :meth:`~crystal.CrystalBLEU.corpus_score`
gives: the statistics are whole numbers, which float64 adds exactly in any order (the
log-weight variant's real-valued counts agree to rounding only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import crystal

__all__ = ["StackedStats"]


@dataclass(frozen=True)
class StackedStats:
    """The statistics of n segments as an (n, 3 + 3 * orders + 1) float matrix.

    Columns: hyp_len, ref_len, segments, exact, matches (orders), totals (orders),
    zero_totals (orders).

    Examples
    --------
    >>> m = crystal.CrystalBLEU()
    >>> stats = [m.segment_stats([list("abcd")], list("abce")), m.segment_stats([["x"]], ["x"])]
    >>> stacked = StackedStats.from_stats(stats)
    >>> float(stacked.scores(m, np.ones((1, 2)))[0]) == m.corpus_score(stats)
    True
    """

    matrix: np.ndarray
    orders: int

    @classmethod
    def from_stats(cls, stats: Sequence[crystal.SegmentStats]) -> StackedStats:
        """Stack segment statistics (all with the same number of orders)."""
        if not stats:
            return cls(np.zeros((0, 4)), 0)
        orders = stats[0].max_n
        rows = []
        for s in stats:
            if s.max_n != orders:
                raise ValueError(f"statistics of {s.max_n} and {orders} orders cannot be stacked")
            rows.append(
                (s.hyp_len, s.ref_len, s.segments, s.exact, *s.matches, *s.totals, *s.zero_totals)
            )
        return cls(np.asarray(rows, dtype=np.float64), orders)

    def __len__(self) -> int:
        return self.matrix.shape[0]

    def subset(self, index: np.ndarray) -> StackedStats:
        """The rows at ``index`` (an int or bool array)."""
        return StackedStats(self.matrix[index], self.orders)

    def sums(self, weights: np.ndarray) -> np.ndarray:
        """Weighted sums of the rows: ``weights`` (rows, n) or (n,) -> (rows, columns)."""
        return np.atleast_2d(weights) @ self.matrix

    def to_stats(self, row: np.ndarray) -> crystal.SegmentStats:
        """One summed row back as :class:`crystal.SegmentStats`."""
        k = self.orders
        return crystal.SegmentStats(
            hyp_len=int(round(row[0])),
            ref_len=int(round(row[1])),
            matches=tuple(float(x) for x in row[4 : 4 + k]),
            totals=tuple(float(x) for x in row[4 + k : 4 + 2 * k]),
            zero_totals=tuple(int(round(x)) for x in row[4 + 2 * k : 4 + 3 * k]),
            segments=int(round(row[2])),
            exact=int(round(row[3])),
        )

    def score_rows(self, metric: crystal.CrystalBLEU, summed: np.ndarray) -> np.ndarray:
        """Corpus scores of already summed rows (as returned by :meth:`sums`)."""
        return np.array([metric.score_stats(self.to_stats(row)) for row in summed], dtype=float)

    def scores(self, metric: crystal.CrystalBLEU, weights: np.ndarray) -> np.ndarray:
        """Corpus score of each weighted resample: ``weights`` (rows, n) -> (rows,).

        ``metric`` supplies the smoothing: any :class:`crystal.CrystalBLEU` with the same
        smoothing and epsilon as the one that produced the statistics scores them the same
        (the n-gram set only matters when counting).
        """
        return self.score_rows(metric, self.sums(weights))
