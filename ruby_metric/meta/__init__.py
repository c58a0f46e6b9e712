"""Meta-evaluation: how good is a code similarity metric, and is system A better than B?

* :mod:`.distinguishability`: intra-class over inter-class similarity (CrystalBLEU, 3.2),
  exact or sampled, with a bootstrap interval;
* :mod:`.classifier`: the threshold classifier of CrystalBLEU's table 3;
* :mod:`.correlation`: Pearson, Spearman, Kendall (and ROC AUC for binary judgments) with
  human or execution scores, with bootstrap intervals;
* :mod:`.significance`: paired approximate randomization, paired bootstrap and paired t-test
  between two systems, resampling cached per-pair statistics;
* :mod:`.grouped_auc`: the within-group (within-task) AUC beside the pooled one, with
  intervals that resample whole groups;
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
from .grouped_auc import GroupedAUC, grouped_auc
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
    "grouped_auc",
    "GroupedAUC",
    "scoring_metric",
]
