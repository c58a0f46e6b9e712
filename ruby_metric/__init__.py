"""ruby_metric: RUBY and CrystalBLEU code similarity, tiered and explained.

>>> from ruby_metric import RubyScorer
>>> scorer = RubyScorer(language="java")
>>> result = scorer.score("int f(){return 1;}", "int f(){return 1;}")
>>> result.ruby, result.tier
(1.0, 'graph')
"""

__version__ = "0.2.0"

from .code import Limits  # noqa: E402
from .explain import Explanation  # noqa: E402
from .results import METRICS, CorpusResult, PairResult  # noqa: E402
from .scorer import RubyScorer  # noqa: E402

__all__ = [
    "RubyScorer",
    "PairResult",
    "CorpusResult",
    "Explanation",
    "Limits",
    "METRICS",
    "__version__",
]
