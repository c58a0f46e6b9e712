"""Validity: does a higher score mean a closer meaning? (SPEC section 8, items 1 and 2.)

**Mutation benchmark.** From real references (CodeXGLUE Java and C# methods, HumanEval-X in
Python, Java, C++ and JavaScript, and the hand-written snippets of
:mod:`.validity_snippets` in Python, C, C++, C# and JavaScript), every operator of
:mod:`.mutations` makes at most one candidate: semantics-preserving *variants* and
semantics-changing *mutants*. Each candidate is scored against its reference with
:class:`ruby_metric.RubyScorer`. For every tier, the **mutation AUC** is the share of
(variant, mutant) pairs *of the same reference* where the variant scores higher (ties count
one half), pooled over references; 1.0 is perfect, 0.5 is chance. Also: the share of
mutants scoring exactly 1.0 (a metric that cannot see the change at all), per-language
AUCs, and per operator the share of (variant, mutant) pairs where the mutant scores at
least as high as the variant (which mutants each tier misses). Intervals are percentile
bootstraps over references (fixed seed).

Meaning is checked where it can be: HumanEval-X Python and JavaScript candidates are run
against the problem's tests in a subprocess with a timeout (:class:`ExecutionChecker`,
results cached in a JSON file); only variants that pass and mutants that fail are kept. For
the other references the mutation operators are designed not to preserve meaning (see
:mod:`.mutations`).

**Judged development sets** (``judged_dev``): Spearman with CoNaLa human grades and ROC AUC
against HumanEval-Python execution, for every tier, BLEU and a chrF baseline
(:func:`chrf`). Each tier is reported on the pairs where it applies (with their count), and
with a missing tier falling back to the next lower one (GRS -> TRS -> STS), as RUBY does.

This module runs the mutation benchmark (:func:`run_mutation_benchmark`) and re-exports the
parts, which live in :mod:`.validity_data` (references, candidates), :mod:`.execution`
(execution checks), :mod:`.validity_scoring` (scoring), :mod:`.validity_stats` (AUC,
bootstrap, per-tier and per-operator summaries), :mod:`.chrf_baseline` (chrF) and
:mod:`.judged` (the judged development sets).

>>> mutation_auc([([0.9, 0.8], [0.85, 0.5])])
0.75
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .chrf_baseline import chrf
from .execution import ExecutionChecker, ExecutionStats, filter_by_execution
from .judged import (
    FALLBACK,
    JudgedResult,
    judged_validity,
    load_conala,
    load_humaneval_judged,
    score_judged,
    with_fallback,
)
from .validity_data import (
    Candidate,
    Reference,
    default_datasets,
    generate_candidates,
    load_references,
)
from .validity_scoring import TIERS, ScoredCandidate, score_candidates
from .validity_stats import (
    TierValidity,
    auc_counts,
    bootstrap_ratio,
    evaluate_mutations,
    mutation_auc,
    operator_failures,
)

__all__ = [
    "TIERS",
    "FALLBACK",
    "Reference",
    "Candidate",
    "ScoredCandidate",
    "TierValidity",
    "JudgedResult",
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
    "chrf",
    "load_conala",
    "load_humaneval_judged",
    "score_judged",
    "judged_validity",
    "with_fallback",
    "default_datasets",
    "ExecutionStats",
    "run_mutation_benchmark",
]


@dataclass
class MutationReport:
    """Everything the mutation benchmark measured."""

    references: int
    references_by_language: dict[str, int]
    variants: int
    mutants: int
    candidates_by_operator: dict[str, int]
    tiers: dict[str, TierValidity]
    operators: dict[str, dict[str, tuple[float | None, int]]]
    execution: dict[str, dict[str, int]]
    variants_at_one: dict[str, float | None]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["tiers"] = {k: asdict(v) for k, v in self.tiers.items()}
        return out


def run_mutation_benchmark(
    n_refs: int | None = 2000,
    *,
    seed: int = 0,
    datasets: Path | None = None,
    checker: ExecutionChecker | None = None,
    resamples: int = 1000,
    workers: int = 1,
) -> tuple[MutationReport, list[ScoredCandidate]]:
    """Load references, make candidates, check them by execution, score, and summarize."""
    refs = load_references(n_refs, seed=seed, datasets=datasets)
    candidates = [c for r in refs for c in generate_candidates(r, seed=seed)]
    stats = ExecutionStats()
    if checker is not None:
        candidates, stats = filter_by_execution(refs, candidates, checker)
    scored = score_candidates(refs, candidates, workers=workers)
    variants_at_one = {}
    for tier in TIERS:
        vals = [s.scores[tier] for s in scored if s.preserving and s.scores[tier] is not None]
        variants_at_one[tier] = (sum(1 for v in vals if v == 1.0) / len(vals)) if vals else None
    report = MutationReport(
        references=len(refs),
        references_by_language=dict(sorted(Counter(r.language for r in refs).items())),
        variants=sum(1 for c in candidates if c.preserving),
        mutants=sum(1 for c in candidates if not c.preserving),
        candidates_by_operator=dict(Counter(c.operator for c in candidates)),
        tiers=evaluate_mutations(scored, resamples=resamples, seed=seed),
        operators=operator_failures(scored),
        execution=stats.to_dict(),
        variants_at_one=variants_at_one,
    )
    return report, scored

