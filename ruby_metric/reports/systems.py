"""Several systems on one report page: each system's corpus scores and labels side by side.

Built from one scored run over every system's pairs (:func:`system_summaries`), so all
systems share the scorer and its CrystalBLEU n-gram set; the corpus page shows the result as
one table, a row per system.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import crystal

from ..io.systems import SystemsInput
from ..meta.systems import system_corpora
from ..scoring.metrics import METRICS
from ..scoring.results import CorpusResult

__all__ = ["SystemSummary", "system_summaries"]


@dataclass(frozen=True)
class SystemSummary:
    """One system's row on the page.

    Attributes
    ----------
    name : the system (the value of the system field).
    pairs : its pairs; ``unreadable`` of them could not be read (and have no score).
    scores : metric -> corpus score (mean, or corpus-level for the BLEUs); ``None`` undefined.
    counts : metric -> pairs the metric is defined on.
    tiers : RUBY tier -> pairs that used it.
    labeled : pairs with a label; ``passed`` of them true (pass/fail labels) or ``None``
        for numeric grades, whose mean is ``label_mean``.
    """

    name: str
    pairs: int
    unreadable: int
    scores: dict[str, float | None]
    counts: dict[str, int]
    tiers: dict[str, int]
    labeled: int = 0
    passed: int | None = None
    label_mean: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every attribute."""
        return dict(self.__dict__)

    def label_text(self) -> str:
        """``"3/5 true"`` (pass/fail labels), ``"mean 2.5 of 4"`` (grades), ``-`` (none).

        >>> SystemSummary("m", 5, 0, {}, {}, {}, labeled=5, passed=3).label_text()
        '3/5 true'
        """
        if not self.labeled:
            return "-"
        if self.passed is not None:
            return f"{self.passed}/{self.labeled} true"
        return f"mean {self.label_mean:.3g} of {self.labeled}"


def _labels(values: Sequence[Any]) -> tuple[int, int | None, float | None]:
    given = [v for v in values if v is not None]
    if not given:
        return 0, None, None
    if all(isinstance(v, bool) for v in given):
        return len(given), sum(given), None
    return len(given), None, sum(float(v) for v in given) / len(given)


def system_summaries(
    systems: SystemsInput, corpus: CorpusResult, scoring: crystal.CrystalBLEU | None = None
) -> tuple[SystemSummary, ...]:
    """A :class:`SystemSummary` per system of ``systems``, in input order.

    Parameters
    ----------
    systems : the rows of the input, split by system.
    corpus : one result per row of ``systems``, in order, with the pairs kept.
    scoring : what scores summed CrystalBLEU/BLEU statistics (the scorer's smoothing).
    """
    out = []
    for name, sub in system_corpora(systems, corpus, scoring).items():
        labeled, passed, mean = _labels([systems.rows[i].label for i in systems.indices(name)])
        out.append(SystemSummary(
            name=name,
            pairs=len(sub.pairs),
            unreadable=sum("input" in p.reasons for p in sub.pairs),
            scores={m: sub.score(m) for m in METRICS},
            counts=dict(sub.counts),
            tiers=dict(sub.tiers),
            labeled=labeled,
            passed=passed,
            label_mean=mean,
        ))
    return tuple(out)
