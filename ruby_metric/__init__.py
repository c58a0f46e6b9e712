"""ruby_metric: RUBY and CrystalBLEU code similarity, tiered and explained.

>>> from ruby_metric import RubyScorer
>>> scorer = RubyScorer(language="java")
>>> result = scorer.score("int f(){return 1;}", "int f(){return 1;}")
>>> result.ruby, result.tier
(1.0, 'graph')
"""

from .code import Limits  # noqa: E402
from .explain import Explanation  # noqa: E402
from .metrics import METRICS  # noqa: E402
from .results import CorpusResult, PairResult  # noqa: E402
from .scorer import RubyScorer  # noqa: E402
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
