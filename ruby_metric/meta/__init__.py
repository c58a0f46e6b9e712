"""Meta-evaluation: how good is a code similarity metric, and is system A better than B?

* :mod:`.distinguishability`: intra-class over inter-class similarity (CrystalBLEU, 3.2),
  exact or sampled, with a bootstrap interval;
* :mod:`.classifier`: the threshold classifier of CrystalBLEU's table 3;
* :mod:`.correlation`: Pearson, Spearman, Kendall (and ROC AUC for binary judgments) with
  human or execution scores, with bootstrap intervals;
* :mod:`.significance`: paired approximate randomization, paired bootstrap and paired t-test
  between two systems, resampling cached per-pair statistics;
* :mod:`.validity` (with :mod:`.mutations`): the validity benchmark: semantics-preserving
  variants vs semantics-changing mutants of real code (mutation AUC per tier), and agreement
  with judged development sets (CoNaLa grades, HumanEval execution), with a chrF baseline;
  its parts are :mod:`.validity_data`, :mod:`.execution`, :mod:`.validity_scoring`,
  :mod:`.validity_stats`, :mod:`.chrf_baseline` and :mod:`.judged`;
* :mod:`.sampling` and :mod:`.stacked`: the seeded draws and the vectorized corpus sums
  they share.

>>> from ruby_metric import RubyScorer
>>> from ruby_metric.meta import compare_systems, correlate, distinguishability
"""

from .classifier import ClassifierResult, threshold_classifier
from .correlation import (
    CorrelationResult,
    Estimate,
    WithinGroupAUC,
    correlate,
    correlate_metrics,
    is_binary,
    roc_auc,
    within_group_auc,
    within_group_like_for_like,
)
from .distinguishability import (
    DistinguishabilityReport,
    DistinguishabilityResult,
    ScoredClassPairs,
    distinguishability,
    distinguishability_from_scores,
    score_class_pairs,
)
from .pair_scores import scoring_metric
from .sampling import ClassPairs, class_pairs
from .significance import (
    TESTS,
    BootstrapTest,
    ComparisonReport,
    ComparisonResult,
    approximate_randomization,
    compare_results,
    compare_systems,
    minimum_pairs,
    paired_bootstrap,
    paired_ttest,
)
from .stacked import StackedStats
from .validity import (
    ExecutionChecker,
    MutationReport,
    TierValidity,
    chrf,
    evaluate_mutations,
    generate_candidates,
    load_references,
    mutation_auc,
    run_mutation_benchmark,
)

__all__ = [
    "distinguishability",
    "distinguishability_from_scores",
    "score_class_pairs",
    "DistinguishabilityReport",
    "DistinguishabilityResult",
    "ScoredClassPairs",
    "threshold_classifier",
    "ClassifierResult",
    "correlate",
    "correlate_metrics",
    "roc_auc",
    "is_binary",
    "within_group_auc",
    "within_group_like_for_like",
    "WithinGroupAUC",
    "CorrelationResult",
    "Estimate",
    "compare_systems",
    "compare_results",
    "approximate_randomization",
    "paired_bootstrap",
    "paired_ttest",
    "minimum_pairs",
    "TESTS",
    "ComparisonReport",
    "ComparisonResult",
    "BootstrapTest",
    "class_pairs",
    "ClassPairs",
    "StackedStats",
    "scoring_metric",
    "run_mutation_benchmark",
    "load_references",
    "generate_candidates",
    "evaluate_mutations",
    "mutation_auc",
    "chrf",
    "ExecutionChecker",
    "MutationReport",
    "TierValidity",
]
