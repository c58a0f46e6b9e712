"""ruby_metric: RUBY and CrystalBLEU code similarity, tiered and explained.

>>> from ruby_metric import RubyScorer
>>> scorer = RubyScorer(language="java")
>>> result = scorer.score("int f(){return 1;}", "int f(){return 1;}")
>>> result.ruby, result.tier
(1.0, 'graph')
"""

from .api.explain import Explanation  # noqa: E402
from .api.scorer import RubyScorer  # noqa: E402
from .scoring.code import Limits  # noqa: E402
from .scoring.metrics import METRICS  # noqa: E402
from .scoring.results import CorpusResult, PairResult  # noqa: E402
from .version import __version__  # noqa: E402

__all__ = [
    "RubyScorer",
    "PairResult",
    "CorpusResult",
    "Explanation",
    "Limits",
    "METRICS",
    "__version__",
]
