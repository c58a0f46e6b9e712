"""Several systems scored in one run: each system's corpus, and every pair of systems tested.

Every system is scored with the same scorer in one run (one CrystalBLEU n-gram set for all),
then split: :func:`system_corpora` gives each system's :class:`CorpusResult`, and
:func:`compare_many` tests every pair of systems on every id (an id a system lacks scores 0
there), with the paired approximate randomization, paired bootstrap and paired t-test of
:mod:`~ruby_metric.meta.significance`.

Testing k systems pairwise is k(k-1)/2 tests per metric: at p < 0.05 each, some "significant"
difference turns up by chance alone. The p-values are therefore also given adjusted with
Holm's step-down method (Holm 1979), which keeps the chance of any false "significant" among
the family of comparisons of one metric and one test at the nominal level, with no
assumption on how the tests depend on each other, and never rejects less than Bonferroni.
(sacrebleu's ``--paired-bs``/``--paired-ar`` compare each system with a baseline only and
leave the p-values unadjusted; comparing every pair needs the adjustment all the more.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import crystal

from ..io.systems import SystemsInput
from ..scoring.metrics import METRICS
from ..scoring.results import CorpusResult, aggregate
from .pair_scores import BLEU_METRICS, pair_stats, scoring_metric
from .significance import TESTS, ComparisonReport, compare_results

__all__ = [
    "SystemComparison",
    "MultiComparison",
    "holm",
    "subset_corpus",
    "system_corpora",
    "compare_many",
]

#: The p-value field of :class:`~ruby_metric.meta.significance.ComparisonResult` per test.
P_FIELDS = {
    "randomization": "p_value_randomization",
    "bootstrap": "p_value_bootstrap",
    "ttest": "p_value_ttest",
}


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of a family of p-values (``None``: no test, left out).

    The i-th smallest of m p-values is multiplied by m - i + 1 (i from 1), capped at 1, and
    an adjusted p-value is never below the one before it in that order.

    >>> holm([0.01, 0.04, 0.03, None])
    [0.03, 0.06, 0.06, None]
    """
    order = sorted((i for i, p in enumerate(p_values) if p is not None), key=lambda i: p_values[i])
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(order) - rank) * float(p_values[i])))  # type: ignore[arg-type]
        out[i] = running
    return out


def subset_corpus(
    corpus: CorpusResult, indices: Sequence[int], scoring: crystal.CrystalBLEU | None = None
) -> CorpusResult:
    """The corpus of some of ``corpus``'s pairs, in the order of ``indices``.

    Means are over those pairs; CrystalBLEU and BLEU are recomputed from their summed
    statistics (with ``scoring``, default the scorer's default smoothing), as the corpus
    scores of a run over those pairs alone would be.

    Parameters
    ----------
    corpus : a scored corpus that kept its pairs.
    indices : positions in ``corpus.pairs``.
    scoring : what scores summed statistics (:func:`~ruby_metric.meta.scoring_metric`).
    """
    scoring = scoring or scoring_metric(None)
    pairs = [corpus.pairs[i] for i in indices]
    stats = {m: [pair_stats(corpus, m)[i] for i in indices] for m in BLEU_METRICS}
    totals = {}
    for metric, values in stats.items():
        kept = [s for s in values if s is not None]
        original = getattr(corpus, metric)
        totals[metric] = scoring.corpus_score(kept) if kept and original is not None else None
    return aggregate(
        pairs,
        crystalbleu=totals["crystalbleu"],
        bleu=totals["bleu"],
        signature=corpus.signature,
        crystalbleu_stats=stats["crystalbleu"],
        bleu_stats=stats["bleu"],
    )


def system_corpora(
    systems: SystemsInput, corpus: CorpusResult, scoring: crystal.CrystalBLEU | None = None
) -> dict[str, CorpusResult]:
    """Each system's corpus: ``corpus`` holds one result per row of ``systems``, in order."""
    if len(corpus.pairs) != len(systems.rows):
        raise ValueError(f"{len(corpus.pairs)} results for {len(systems.rows)} pairs")
    return {s: subset_corpus(corpus, systems.indices(s), scoring) for s in systems.systems}


@dataclass(frozen=True)
class SystemComparison:
    """System ``a`` against system ``b`` on the ids both have.

    Attributes
    ----------
    a, b : the systems (``a`` the one that comes first in the input).
    report : the tests (:class:`~ruby_metric.meta.significance.ComparisonReport`), A = ``a``.
    adjusted : metric -> test -> the p-value adjusted for the number of comparisons (Holm).
    """

    a: str
    b: str
    report: ComparisonReport
    adjusted: dict[str, dict[str, float | None]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the systems, the shared pairs, and per metric the tests with the
        adjusted p-values beside the raw ones (``p_value_<test>_adjusted``)."""
        metrics = self.report.metrics_dict()
        for metric, tests in self.adjusted.items():
            for test, value in tests.items():
                metrics[metric][f"{P_FIELDS[test]}_adjusted"] = value
        return {"a": self.a, "b": self.b, "pairs": self.report.pairs, "metrics": metrics}


@dataclass(frozen=True)
class MultiComparison:
    """Every pair of systems compared (see the module docstring).

    Attributes
    ----------
    systems : the systems, in input order.
    corpora : each system's corpus over all its pairs.
    comparisons : one :class:`SystemComparison` per pair of systems.
    missing : each system lacking ids another has -> those ids (each comparison is on the
        ids both of its systems have; these are the ones it could not use).
    correction : how the p-values were adjusted (``"holm"``).
    """

    systems: list[str]
    corpora: dict[str, CorpusResult]
    comparisons: list[SystemComparison]
    missing: dict[str, list[str]]
    correction: str = "holm"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: per system its corpus summary, and the comparisons."""
        return {
            "systems": {
                s: {k: v for k, v in c.summary().items() if k != "signature"}
                for s, c in self.corpora.items()
            },
            "missing_ids": self.missing,
            "correction": self.correction,
            "comparisons": [c.to_dict() for c in self.comparisons],
            "signature": next(iter(self.corpora.values())).signature if self.corpora else "",
        }


def compare_many(
    systems: SystemsInput,
    corpus: CorpusResult,
    *,
    metrics: Sequence[str] | None = None,
    scoring: crystal.CrystalBLEU | None = None,
    trials: int = 10000,
    bootstrap: int = 1000,
    seed: int | None = 0,
    confidence: float = 0.95,
) -> MultiComparison:
    """Test every pair of systems on their shared ids, p-values adjusted per metric and test.

    Parameters
    ----------
    systems : the input's rows (:func:`~ruby_metric.io.systems.read_jsonl_systems`).
    corpus : one scored result per row of ``systems``, in order, with its pairs kept.
    metrics, scoring, trials, bootstrap, seed, confidence : as in
        :func:`~ruby_metric.meta.significance.compare_results` (one seed: every comparison
        draws the same swaps and resamples for the same number of pairs).

    Returns
    -------
    MultiComparison

    Raises
    ------
    ValueError : fewer than two systems, or two systems with no id in common.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> from ruby_metric.io.inputs import PairInput
    >>> from ruby_metric.io.systems import SystemRow, SystemsInput
    >>> refs = ["int a = b + c;", "return x * y;", "f(1, 2);", "int s = 0;"]
    >>> rows = [SystemRow(PairInput(i, r, c), s) for s, outs in
    ...         (("good", refs), ("bad", ["a;", "x;", "f();", "s;"])) for i, (r, c)
    ...         in enumerate(zip(refs, outs))]
    >>> scorer = RubyScorer(language="java", metrics=["sts"])
    >>> corpus = scorer.score_pairs([r.pair for r in rows])
    >>> many = compare_many(SystemsInput(tuple(rows), "x"), corpus, trials=99, bootstrap=0)
    >>> (many.comparisons[0].a, many.comparisons[0].b, many.comparisons[0].report.pairs)
    ('good', 'bad', 4)
    """
    names = systems.systems
    if len(names) < 2:
        raise ValueError(f"needs at least two systems, got {len(names)}")
    scoring = scoring or scoring_metric(None)
    if metrics is None:  # one list for every comparison, so each family has one test each
        metrics = [m for m in METRICS if corpus.counts.get(m)]
    corpora = system_corpora(systems, corpus, scoring)
    reports: list[tuple[str, str, ComparisonReport]] = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            shared = systems.shared(a, b)
            if not shared:
                raise ValueError(
                    f"systems {a!r} and {b!r} have no pair id in common: nothing to compare"
                )
            report = compare_results(
                subset_corpus(corpus, [x for x, _ in shared], scoring),
                subset_corpus(corpus, [y for _, y in shared], scoring),
                metrics=metrics, scoring=scoring, trials=trials, bootstrap=bootstrap,
                seed=seed, confidence=confidence,
            )
            reports.append((a, b, report))
    adjusted: list[dict[str, dict[str, float | None]]] = [{} for _ in reports]
    for metric in metrics:
        for test in TESTS:
            raw = [getattr(r.metrics[metric], P_FIELDS[test]) for _, _, r in reports]
            for k, value in enumerate(holm(raw)):
                adjusted[k].setdefault(metric, {})[test] = value
    comparisons = [
        SystemComparison(a, b, report, adj)
        for (a, b, report), adj in zip(reports, adjusted, strict=True)
    ]
    return MultiComparison(names, corpora, comparisons, systems.missing())
