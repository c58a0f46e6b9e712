"""What the idiom tests share: GRS of two snippets, one scorer per language."""

from __future__ import annotations

from ruby_metric import RubyScorer

_SCORERS: dict[str, RubyScorer] = {}


def grs(a: str, b: str, language: str) -> float:
    """GRS of candidate ``b`` against reference ``a``; it must apply."""
    scorer = _SCORERS.setdefault(language, RubyScorer(language=language, metrics=["grs"]))
    value = scorer.score(a, b).grs
    assert value is not None, (a, b)
    return value
