"""Validity: does a higher score mean a closer meaning? (SPEC section 8, items 1 and 2.)

**Mutation benchmark.** From real references (CodeXGLUE Java and C# methods, HumanEval-X in
Python, Java, C++ and JavaScript, and the hand-written snippets of
:mod:`.snippets` in Python, C, C++, C# and JavaScript), every operator of
:mod:`.mutations` makes at most one candidate: semantics-preserving *variants* and
semantics-changing *mutants*. Each candidate is scored against its reference with
:class:`ruby_metric.RubyScorer`. For every tier, the **mutation AUC** is the share of
(variant, mutant) pairs *of the same reference* where the variant scores higher (ties count
one half), pooled over references; 1.0 is perfect, 0.5 is chance. Also: the share of
mutants scoring exactly 1.0 (a metric that cannot see the change at all), per-language
AUCs, and per operator the shares of its (variant, mutant) pairs ordered right, tied and
reversed (which mutants each tier misses, which variants it penalizes). Intervals are
percentile bootstraps over references (fixed seed). GRS's beta can be set
(``grs_beta``), and the GRS numbers recomputed at other betas beside (``also_betas``).

Meaning is checked where it can be: HumanEval-X Python and JavaScript candidates are run
against the problem's tests in a subprocess with a timeout (:class:`ExecutionChecker`,
results cached in a JSON file); only variants that pass and mutants that fail are kept. For
the other references the mutation operators are designed not to preserve meaning (see
:mod:`.mutations`).

**Judged development sets** (``judged_dev``, :mod:`.judged`): Spearman with CoNaLa human
grades and the within-task (and pooled) ROC AUC against HumanEval-Python execution, for
every tier, BLEU, CrystalBLEU and a chrF baseline (:func:`chrf`), always like for like:
every score on the items where GRS applies, and every score on all items with a missing
tier falling back to the next lower one (GRS -> TRS -> STS), as RUBY does.

This module runs the mutation benchmark (:func:`run_mutation_benchmark`) and re-exports the
parts, which live in :mod:`.data` (references, candidates), :mod:`.execution`
(execution checks), :mod:`.scoring` (scoring), :mod:`.stats` (AUC,
bootstrap, per-tier and per-operator summaries), :mod:`.chrf_baseline` (chrF) and
:mod:`.judged` (the judged development sets).

>>> mutation_auc([([0.9, 0.8], [0.85, 0.5])])
0.75
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ruby_metric.meta.grouped_auc import GroupedAUC, group_win_matrix, grouped_auc

from .chrf_baseline import chrf
from .data import (
    Candidate,
    Reference,
    dataset_references,
    default_datasets,
    derangement,
    generate_candidates,
    load_references,
    unrelated_pairs,
)
from .execution import ExecutionChecker, ExecutionStats, filter_by_execution
from .judged import (
    FALLBACK,
    JUDGED_METRICS,
    VIEWS,
    JudgedItem,
    JudgedView,
    MetricAgreement,
    judged_validity,
    judged_view,
    like_for_like,
    load_conala,
    load_humaneval_judged,
    reindent_first_line,
    score_judged,
    with_fallback,
)
from .scoring import (
    TIERS,
    ChanceLevel,
    ScoredCandidate,
    chance_level,
    score_candidates,
    scorer_for,
)
from .stats import (
    OperatorOrder,
    TierValidity,
    auc_counts,
    bootstrap_ratio,
    evaluate_mutations,
    mutation_auc,
    operator_failures,
    operator_orders,
)

__all__ = [
    "TIERS",
    "FALLBACK",
    "Reference",
    "Candidate",
    "ScoredCandidate",
    "TierValidity",
    "OperatorOrder",
    "GroupedAUC",
    "JudgedItem",
    "JudgedView",
    "MetricAgreement",
    "JUDGED_METRICS",
    "VIEWS",
    "MutationReport",
    "ExecutionChecker",
    "load_references",
    "generate_candidates",
    "filter_by_execution",
    "score_candidates",
    "mutation_auc",
    "auc_counts",
    "bootstrap_ratio",
    "evaluate_mutations",
    "operator_failures",
    "operator_orders",
    "group_win_matrix",
    "grouped_auc",
    "scorer_for",
    "chrf",
    "load_conala",
    "load_humaneval_judged",
    "score_judged",
    "judged_validity",
    "judged_view",
    "like_for_like",
    "reindent_first_line",
    "with_fallback",
    "default_datasets",
    "dataset_references",
    "derangement",
    "unrelated_pairs",
    "ChanceLevel",
    "chance_level",
    "ExecutionStats",
    "run_mutation_benchmark",
]


@dataclass
class MutationReport:
    """Everything the mutation benchmark measured.

    Attributes
    ----------
    references, references_by_language : references used.
    variants, mutants, candidates_by_operator : candidates kept (after execution checks).
    tiers : tier -> :class:`TierValidity` (AUC, mutants at 1.0, per language).
    operators : operator -> tier -> :class:`OperatorOrder`.
    execution : the execution checks' counts.
    variants_at_one : tier -> share of variants scoring exactly 1.0.
    grs_beta : the beta GRS was scored with (``None``: the scorer's default).
    other_betas : beta -> GRS's numbers at that beta (``{"tier": TierValidity, "operators":
        operator -> OperatorOrder}``), when asked for.
    """

    references: int
    references_by_language: dict[str, int]
    variants: int
    mutants: int
    candidates_by_operator: dict[str, int]
    tiers: dict[str, TierValidity]
    operators: dict[str, dict[str, OperatorOrder]]
    execution: dict[str, dict[str, int]]
    variants_at_one: dict[str, float | None]
    grs_beta: float | None = None
    other_betas: dict[float, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, every number included (an operator's ``wrong`` share too)."""

        def orders(ops: dict[str, dict[str, OperatorOrder]]) -> dict[str, Any]:
            return {op: {t: {**asdict(o), "wrong": o.wrong} for t, o in per.items()}
                    for op, per in ops.items()}

        out = asdict(self)
        out["tiers"] = {k: asdict(v) for k, v in self.tiers.items()}
        out["operators"] = orders(self.operators)
        out["other_betas"] = {
            str(b): {"tier": asdict(v["tier"]), "operators": orders(v["operators"])}
            for b, v in self.other_betas.items()}
        return out


def run_mutation_benchmark(
    n_refs: int | None = 2000,
    *,
    seed: int = 0,
    datasets: Path | None = None,
    checker: ExecutionChecker | None = None,
    resamples: int = 1000,
    workers: int = 1,
    grs_beta: float | None = None,
    also_betas: Sequence[float] = (),
    repair: bool | None = None,
) -> tuple[MutationReport, list[ScoredCandidate]]:
    """Load references, make candidates, check them by execution, score, and summarize.

    Parameters
    ----------
    n_refs : references (``None``: all).
    seed : selection, operator and bootstrap seed.
    datasets : the shared datasets folder (default :func:`default_datasets`).
    checker : runs HumanEval-X tests to keep passing variants and failing mutants.
    resamples : bootstrap resamples.
    workers : scoring worker processes.
    grs_beta : GRS's beta, passed to the scorer only when given.
    also_betas : betas at which GRS alone is scored again (same candidates), reported in
        :attr:`MutationReport.other_betas`.
    repair : the scorer's ``repair`` option (``None``: its default, on).

    Returns
    -------
    ``(report, scored candidates)``.
    """
    refs = load_references(n_refs, seed=seed, datasets=datasets)
    candidates = [c for r in refs for c in generate_candidates(r, seed=seed)]
    stats = ExecutionStats()
    if checker is not None:
        candidates, stats = filter_by_execution(refs, candidates, checker)
    scored = score_candidates(refs, candidates, workers=workers, grs_beta=grs_beta,
                              repair=repair)
    variants_at_one = {}
    for tier in TIERS:
        vals = [s.scores[tier] for s in scored if s.preserving and s.scores[tier] is not None]
        variants_at_one[tier] = (sum(1 for v in vals if v == 1.0) / len(vals)) if vals else None
    other: dict[float, dict[str, Any]] = {}
    for beta in also_betas:
        at_beta = score_candidates(refs, candidates, workers=workers, grs_beta=beta,
                                   metrics=("grs",), repair=repair)
        other[beta] = {
            "tier": evaluate_mutations(at_beta, tiers=("grs",), resamples=resamples,
                                       seed=seed)["grs"],
            "operators": operator_orders(at_beta, tiers=("grs",)),
        }
    report = MutationReport(
        references=len(refs),
        references_by_language=dict(sorted(Counter(r.language for r in refs).items())),
        variants=sum(1 for c in candidates if c.preserving),
        mutants=sum(1 for c in candidates if not c.preserving),
        candidates_by_operator=dict(Counter(c.operator for c in candidates)),
        tiers=evaluate_mutations(scored, resamples=resamples, seed=seed),
        operators=operator_orders(scored),
        execution=stats.to_dict(),
        variants_at_one=variants_at_one,
        grs_beta=grs_beta,
        other_betas=other,
    )
    return report, scored
