"""BLEU's public API under its original import path: re-exports of the modules that implement it.

Statistics first, scores second (as sacrebleu does), each step in its own module:

* :mod:`crystal.stats`: :class:`SegmentStats`, the sufficient statistics of a segment or,
  summed, of a corpus;
* :mod:`crystal.counting`: :func:`segment_stats` and :func:`segment_stats_with_plain` count
  one hypothesis against its references once (and :func:`closest_ref_length`);
* :mod:`crystal.scoring`: :func:`bleu_from_stats` turns statistics into a score with any
  smoothing (and :func:`brevity_penalty`);
* :mod:`crystal.compat`: :func:`sentence_bleu` and :func:`corpus_bleu`, drop-ins for
  ``crystalbleu``'s and NLTK's functions (their deviations are listed there).

Everything that was public here before the split still imports from here. The private
helpers that lived here, and the ``crystal`` names this module merely imported, still resolve
too, with a :class:`DeprecationWarning` naming their home.
"""

from __future__ import annotations

import importlib
import warnings

from crystal.compat import corpus_bleu, sentence_bleu
from crystal.counting import closest_ref_length, segment_stats
from crystal.scoring import bleu_from_stats, brevity_penalty
from crystal.stats import SegmentStats

__all__ = [
    "SegmentStats",
    "segment_stats",
    "bleu_from_stats",
    "brevity_penalty",
    "closest_ref_length",
    "sentence_bleu",
    "corpus_bleu",
]

# Public here before the split but never in __all__: still importable, still not star-exported
# (the redundant aliases mark them as re-exports).
from crystal.counting import Tokens as Tokens  # noqa: E402
from crystal.counting import logger as logger  # noqa: E402
from crystal.counting import segment_stats_with_plain as segment_stats_with_plain  # noqa: E402
from crystal.scoring import Weights as Weights  # noqa: E402

# Name -> module it lives in now, for names reachable here before the split that are not part
# of this module's API: code written against the old single module (tests, notebooks that
# poke at the counter caches) keeps working, and is told where to look.
_MOVED: dict[str, str] = {
    **dict.fromkeys(
        (
            "_COUNTERS",
            "_COUNTERS_LOCK",
            "_MAX_COUNTERS",
            "_new_counter",
            "_IGNORE_CACHE",
            "_MAX_IGNORE_CACHE",
            "_ignore_set",
            "_convert_ignore",
            "_hashable",
            "_python_counts",
            "_counts",
            "_as_tokens",
            "_segment",
        ),
        "crystal.counting",
    ),
    **dict.fromkeys(
        ("_DEFAULT_WEIGHTS", "_sum_stats", "_bleu", "_weighted_log_sum"), "crystal.scoring"
    ),
    **dict.fromkeys(
        (
            "_NltkFraction",
            "_SMOOTHING_MODULES",
            "_NLTK_PARAMS",
            "_resolve_smoothing",
            "_normalize_weights",
            "_nltk_bleu",
        ),
        "crystal.compat",
    ),
    **dict.fromkeys(("FastCounter", "MAX_ORDER"), "crystal._fast"),
    **dict.fromkeys(
        (
            "NLTK_METHODS",
            "SACREBLEU_METHODS",
            "check_smoothing",
            "nltk_precisions",
            "sacrebleu_precisions",
        ),
        "crystal.smoothing",
    ),
}


# Old name -> its name in its new home, for the helpers other crystal modules came to share
# (made public there, so that no module imports another's private name).
_RENAMED: dict[str, str] = {
    "_ignore_set": "ignore_set",
    "_python_counts": "python_match_counts",
    "_counts": "match_counts",
    "_as_tokens": "as_tokens",
    "_segment": "prepare_segment",
    "_DEFAULT_WEIGHTS": "DEFAULT_WEIGHTS",
    "_bleu": "bleu_from_counts",
    "_weighted_log_sum": "weighted_log_sum",
}


def __getattr__(name: str) -> object:
    """Resolve a name that moved out of this module, with a DeprecationWarning."""
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    new = _RENAMED.get(name, name)
    warnings.warn(
        f"crystal.bleu.{name} moved to {home}.{new}; import it from there",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(home), new)
