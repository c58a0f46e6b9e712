"""A scorer's options, checked once: what :class:`~ruby_metric.api.scorer.RubyScorer`, the
batch engine and the command line share.

:class:`ScorerConfig` holds every setting that decides how one pair is scored (the n-gram
set aside: it is resolved per language by the scorer). The Python API builds one from its
keyword arguments, the command line from its options, and the pair scorer
(:mod:`ruby_metric.scoring.pair_scorer`) scores with it in every process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import crystal

from .code import Limits, canonical_language, default_tokenizer
from .grs_cost import DEFAULT_GRS_BETA, check_beta
from .metrics import METRICS, parse_metrics
from .reference_cache import DEFAULT_REFERENCE_CACHE, check_max_chars

if TYPE_CHECKING:
    from graphs.neutral import CallTable

__all__ = ["DEFAULT_EPSILON", "DEFAULT_SMOOTHING", "DEFAULT_VARIANT", "ScorerConfig"]

#: BLEU smoothing by default: NLTK's method1 (epsilon :data:`DEFAULT_EPSILON`).
DEFAULT_SMOOTHING = "method1"
DEFAULT_EPSILON = 1e-4
#: CrystalBLEU's variant by default: the paper's main one.
DEFAULT_VARIANT = "ignore"


@dataclass(frozen=True)
class ScorerConfig:
    """How a scorer scores: each option of :class:`~ruby_metric.api.scorer.RubyScorer` but
    the n-gram set, checked and made canonical when made.

    Attributes
    ----------
    language : the candidates' canonical language (``None``: the language-agnostic metrics
        only, unless a pair names its own).
    metrics : the metrics reported, in :data:`~ruby_metric.scoring.metrics.METRICS` order
        (any iterable of names is accepted; ``None``: all).
    tokenizer : the tokenizer set explicitly (``None``: each pair's language chooses,
        :meth:`tokenizer_for`).
    smoothing, epsilon : BLEU smoothing.
    variant : CrystalBLEU's variant.
    limits : size limits per tier (``None``: the defaults).
    grs_beta : GRS's recall weight.
    repair : whether almost-code gets the structural tiers.
    source_language : score against the source in this language (canonical).
    call_table : with ``source_language``, the library calls the neutral map knows.
    reference_cache : characters of reference text whose parses are kept per process.

    Raises
    ------
    ValueError : an unknown language, metric or tokenizer, a ``source_language`` without
        ``language``, a ``grs_beta`` that is not a positive number, or a negative
        ``reference_cache`` (checked in that order, as the scorer always did).

    >>> config = ScorerConfig("Java", metrics=["bleu", "ruby"], grs_beta=1)
    >>> config.language, config.metrics, config.grs_beta, config.tokenizer_for("python")
    ('java', ('ruby', 'bleu'), 1.0, 'code-python')
    """

    language: str | None = None
    metrics: tuple[str, ...] = METRICS
    tokenizer: str | None = None
    smoothing: str = DEFAULT_SMOOTHING
    epsilon: float = DEFAULT_EPSILON
    variant: str = DEFAULT_VARIANT
    limits: Limits = field(default_factory=Limits)
    grs_beta: float = DEFAULT_GRS_BETA
    repair: bool = True
    source_language: str | None = None
    call_table: CallTable | None = None
    reference_cache: int = DEFAULT_REFERENCE_CACHE

    def __post_init__(self) -> None:
        language = canonical_language(self.language)
        source = None if self.source_language is None else canonical_language(self.source_language)
        if source is not None and language is None:
            raise ValueError("source_language needs language: the candidates' language")
        check_max_chars(self.reference_cache)
        checked = {
            "language": language,
            "source_language": source,
            "repair": bool(self.repair),
            "grs_beta": check_beta(self.grs_beta),
            "metrics": METRICS if self.metrics is None else parse_metrics(tuple(self.metrics)),
            "limits": self.limits or Limits(),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)  # frozen: set once, here
        # fail now, not per pair, on an unknown tokenizer
        crystal.tokenize("", self.tokenizer_for(language))

    def tokenizer_for(self, language: str | None) -> str:
        """The tokenizer of a pair in ``language`` (canonical): the one set explicitly, else
        that language's default (``"code-python"`` for Python, ``"code"`` otherwise).

        >>> ScorerConfig().tokenizer_for("python"), ScorerConfig(tokenizer="code").tokenizer_for(
        ...     "python")
        ('code-python', 'code')
        """
        if self.tokenizer is not None:
            return self.tokenizer
        return default_tokenizer(language)

    @property
    def default_tokenizer(self) -> str:
        """The tokenizer of a pair in the scorer's own language."""
        return self.tokenizer_for(self.language)

