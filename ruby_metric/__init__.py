"""ruby_metric: RUBY and CrystalBLEU code similarity, tiered and explained.

>>> from ruby_metric import RubyScorer
>>> scorer = RubyScorer(language="java")
>>> result = scorer.score("int f(){return 1;}", "int f(){return 1;}")
>>> result.ruby, result.tier
(1.0, 'graph')

The names below are imported when first used (PEP 562), not when the package is: importing
``ruby_metric.cli`` then costs nothing before the command line has installed its signal
handling, so a Ctrl-C while numpy, scipy and numba load stops it cleanly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    from .api.explain import Explanation
    from .api.scorer import RubyScorer
    from .io.units import read_folders
    from .scoring.code import Limits
    from .scoring.config import ScorerConfig
    from .scoring.metrics import METRICS
    from .scoring.results import CorpusResult, PairResult

__all__ = [
    "RubyScorer",
    "PairResult",
    "CorpusResult",
    "Explanation",
    "Limits",
    "ScorerConfig",
    "METRICS",
    "read_folders",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """The public names of :data:`__all__`, imported on first use."""
    if name == "RubyScorer":
        from .api.scorer import RubyScorer as value
    elif name == "Explanation":
        from .api.explain import Explanation as value
    elif name == "Limits":
        from .scoring.code import Limits as value
    elif name == "ScorerConfig":
        from .scoring.config import ScorerConfig as value
    elif name == "read_folders":
        from .io.units import read_folders as value
    elif name == "METRICS":
        from .scoring.metrics import METRICS as value
    elif name == "CorpusResult":
        from .scoring.results import CorpusResult as value
    elif name == "PairResult":
        from .scoring.results import PairResult as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
