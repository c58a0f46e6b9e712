"""The validity benchmark of ruby-metric: does a higher score mean a closer meaning?

Part of the repository, not of the installed package (the wheel ships ``crystal``,
``graphs`` and ``ruby_metric`` only): run it from a checkout, with
``python benchmarks/validity.py``. It uses ``ruby_metric`` like any user would, and nothing
in the product imports it.

* :mod:`.mutations`: meaning-preserving variants and meaning-changing mutants of real code;
* :mod:`.data` (references and candidates), :mod:`.snippets` (hand-written references),
  :mod:`.execution` (running HumanEval-X candidates against their tests),
  :mod:`.scoring` (every tier of every candidate), :mod:`.stats` (mutation AUC, bootstrap,
  per-operator orders), :mod:`.benchmark` (the run);
* :mod:`.judged` (CoNaLa grades and HumanEval execution, like for like),
  :mod:`.chrf_baseline`, :mod:`.paired_agreement` (two scorings' agreement compared),
  :mod:`.coverage` (which tier RUBY uses, with and without repair).

>>> mutation_auc([([0.9, 0.8], [0.85, 0.5])])
0.75
"""

from .benchmark import (
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
