"""What unrelated code scores: the chance level of every metric, per language, as measured.

No tier starts at 0: two unrelated programs in one language share keywords, punctuation and
shapes. ``benchmarks/chance.py`` measures it (each reference of a set against another
reference of the same set, a seeded derangement); the table here is its output for version
0.5.2 at the default settings (beta 2, the default tokenizers), the figures the README
states. Pages draw it on their histograms, so a score is read against what nothing in common
gives, not against 0.

A chance level holds for reference mode at those settings; scored against a source (two
languages) none has been measured, and :func:`chance_level` gives ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CHANCE_LEVELS", "ChanceSource", "chance_level"]


@dataclass(frozen=True)
class ChanceSource:
    """The mean scores of one set of unrelated pairs.

    Attributes
    ----------
    name : the set, e.g. ``"CodeXGLUE Java methods"``.
    language : its canonical language.
    pairs : how many unrelated pairs were scored.
    means : metric -> its mean over the pairs where it applies.
    """

    name: str
    language: str
    pairs: int
    means: dict[str, float]


def _source(name: str, language: str, pairs: int, *means: float) -> ChanceSource:
    metrics = ("ruby", "grs", "trs", "sts", "crystalbleu", "bleu")
    return ChanceSource(name, language, pairs, dict(zip(metrics, means, strict=True)))


#: ``python benchmarks/chance.py`` at version 0.5.2, beta 2 (RUBY, GRS, TRS, STS,
#: CrystalBLEU, BLEU).
CHANCE_LEVELS: tuple[ChanceSource, ...] = (
    _source("CodeXGLUE Java methods", "java", 997, 0.404, 0.404, 0.460, 0.279, 0.000, 0.058),
    _source("CodeXGLUE C# methods", "csharp", 995, 0.390, 0.390, 0.435, 0.251, 0.002, 0.063),
    _source("HumanEval-X Python", "python", 164, 0.381, 0.381, 0.394, 0.183, 0.001, 0.030),
    _source("HumanEval-X Java", "java", 164, 0.379, 0.379, 0.503, 0.322, 0.194, 0.214),
    _source("HumanEval-X C++", "cpp", 164, 0.425, 0.428, 0.474, 0.314, 0.000, 0.210),
    _source("HumanEval-X JavaScript", "javascript", 164, 0.356, 0.356, 0.389, 0.205, 0.002,
            0.060),
)


def chance_level(language: str | None, metric: str) -> tuple[float, tuple[str, ...]] | None:
    """The chance level of ``metric`` for code in ``language``, and the sets it was
    measured on; ``None`` when none was measured (or no single language is given).

    Where several sets of one language were measured, the highest of their levels: a score
    below it is not above what some unrelated code of that language scores.

    >>> chance_level("java", "ruby")
    (0.404, ('CodeXGLUE Java methods', 'HumanEval-X Java'))
    >>> chance_level("c", "ruby") is None, chance_level(None, "ruby") is None
    (True, True)
    """
    sources = [s for s in CHANCE_LEVELS if s.language == language and metric in s.means]
    if not sources:
        return None
    return max(s.means[metric] for s in sources), tuple(s.name for s in sources)
