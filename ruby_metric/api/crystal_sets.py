"""Which trivially shared n-grams CrystalBLEU ignores for each language of a run.

A set given explicitly applies to every pair tokenized as it was counted; otherwise each
language gets the set shipped for it and its tokenizer; otherwise a set built from the
references being scored, when they are enough for one (:func:`build_from_references`);
otherwise CrystalBLEU does not apply and the reason says how to get it
(:func:`no_set_reason`).

Why a rule for "enough": CrystalBLEU ignores the k most frequent n-grams of a *large* corpus
of the language, those every program shares (``) ;``, ``public void``). Counted on a few
references, the k most frequent are most of what those references contain: one reference
of 59 distinct n-grams has every one of them "trivially shared" with k = 500, so any
candidate scores 0.0 by construction, a number that means nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import crystal

from ..io.formats import counted
from ..io.inputs import PairInput
from ..io.ngram_sets import resolve_ngram_set, shipped_ngram_set
from ..scoring.code import canonical_language, default_tokenizer

logger = logging.getLogger(__name__)

__all__ = [
    "CORPUS_K",
    "MIN_DISTINCT_PER_K",
    "AllLanguages",
    "ReferenceNgrams",
    "build_from_references",
    "corpus_ngram_set",
    "fits",
    "no_set_reason",
    "reference_texts",
    "shipped_for",
]

#: Size of a set built from the references being scored (the paper's k).
CORPUS_K = 500

#: A set is built from the references being scored only when they hold at least
#: ``MIN_DISTINCT_PER_K * k`` distinct n-grams (5,000 for k = 500), so that the k ignored
#: are at most a tenth of them. On the CodeXGLUE C# references that takes about 50 methods,
#: and from there the share of n-gram occurrences the k most frequent cover has settled
#: near its large-corpus value (0.49 at 50 references, 0.46 at 1,000), while below it the
#: set is most of the corpus (0.86 of the occurrences at 5 references, all of them at 1).
MIN_DISTINCT_PER_K = 10


def fits(metric: crystal.CrystalBLEU, tokenizer_choice: str | None,
         language: str | None) -> bool:
    """Whether ``metric``'s n-grams can match a pair in ``language``: the pair is tokenized
    (with ``tokenizer_choice``, else its language's default) as the set was counted."""
    return (tokenizer_choice or default_tokenizer(language)) == metric.tokenizer


class AllLanguages(dict):
    """The same CrystalBLEU for every language (an n-gram set given explicitly) whose pairs
    are tokenized as the set was counted (:func:`fits`); ``None`` for the others (Python's
    default tokenizer is not the others')."""

    def __init__(self, metric: crystal.CrystalBLEU, tokenizer_choice: str | None) -> None:
        super().__init__({None: metric})
        self.metric = metric
        self.tokenizer_choice = tokenizer_choice

    def get(self, key: Any, default: Any = None) -> crystal.CrystalBLEU | None:  # noqa: ARG002
        return self.metric if fits(self.metric, self.tokenizer_choice, key) else None


def shipped_for(language: str | None, tokenizer: str) -> crystal.NgramSet | None:
    """The set shipped for ``language`` counted with ``tokenizer``; ``None`` when there is
    none (or the language is not in the registry)."""
    try:
        return resolve_ngram_set(None, canonical_language(language), tokenizer)
    except ValueError:
        return None


def no_set_reason(
    language: str | None, tokenizer: str, given: crystal.NgramSet | None = None
) -> str:
    """Why a pair in ``language``, tokenized with ``tokenizer``, has no CrystalBLEU.

    Parameters
    ----------
    language : the pair's canonical language.
    tokenizer : the tokenizer its pair is scored with.
    given : the n-gram set given explicitly, if any (counted with another tokenizer).
    """
    if given is not None:
        return (
            f"the n-gram set given was counted with the {given.tokenizer} tokenizer, but "
            f"{language or 'these'} pairs are tokenized with {tokenizer}: pass "
            f"tokenizer={given.tokenizer!r} (--tokenizer {given.tokenizer}) or a set counted "
            f"with {tokenizer}"
        )
    return (
        f"{_missing(language, tokenizer)}, and the references being scored are too few to "
        f"build one (fewer than {MIN_DISTINCT_PER_K} x k = {MIN_DISTINCT_PER_K * CORPUS_K} "
        f"distinct n-grams); {_how(language)}"
    )


@dataclass(frozen=True)
class ReferenceNgrams:
    """What the references being scored gave: a set (``None`` when they are too few), how
    many references and how many distinct n-grams (counted up to the threshold)."""

    ngram_set: crystal.NgramSet | None
    references: int
    distinct: int

    @property
    def needed(self) -> int:
        """Distinct n-grams a set needs: ``MIN_DISTINCT_PER_K * k``."""
        return MIN_DISTINCT_PER_K * CORPUS_K


def build_from_references(texts: Iterable[str | Sequence[str]], tokenizer: str
                          ) -> ReferenceNgrams:
    """The k = :data:`CORPUS_K` most frequent n-grams of ``texts`` (code, or its tokens by
    ``tokenizer`` already) when they hold at least ``MIN_DISTINCT_PER_K * k`` distinct
    n-grams, else no set.

    One count: the ``MIN_DISTINCT_PER_K * k`` most frequent are ranked, and their first k
    are exactly what :func:`crystal.build_ngram_set` with k gives (same ranking and hash).

    >>> built = build_from_references(["x = 1", "y = 2"], "code")
    >>> built.ngram_set is None, built.references, built.distinct
    (True, 2, 11)
    """
    wide = crystal.build_ngram_set(texts, k=MIN_DISTINCT_PER_K * CORPUS_K, tokenizer=tokenizer)
    if len(wide) < MIN_DISTINCT_PER_K * CORPUS_K:
        return ReferenceNgrams(None, wide.corpus_size, len(wide))
    top = crystal.NgramSet(
        dict(islice(wide.counts.items(), CORPUS_K)),
        tokenizer=wide.tokenizer,
        k=CORPUS_K,
        max_n=wide.max_n,
        corpus_size=wide.corpus_size,
    )
    return ReferenceNgrams(top, wide.corpus_size, len(wide))


def corpus_ngram_set(
    texts: Iterable[str | Sequence[str]], language: str | None, tokenizer: str, *,
    quiet: bool = False
) -> crystal.NgramSet | None:
    """:func:`build_from_references` for a run's references in ``language`` (code, or its
    tokens), logging a warning that says what was done: a set built, or none and why (unless
    ``quiet``: one pair's result carries the reason)."""
    built = build_from_references(texts, tokenizer)
    one = built.references == 1
    references = counted(built.references, "reference")
    if built.ngram_set is not None:
        logger.warning(
            "%s: built one from the %s being scored (k=%d); pass ngrams= "
            "(--ngrams FILE) for CrystalBLEU scores comparable across corpora",
            _missing(language, tokenizer), references, CORPUS_K,
        )
    elif not quiet and built.references:  # no readable pair in this language: nothing to say
        logger.warning(
            "%s, and the %s being scored %s %d distinct n-grams, too few to "
            "take their %d most frequent as trivially shared (that needs %d: %d x k): "
            "CrystalBLEU is not reported for these pairs; %s",
            _missing(language, tokenizer), references, "holds" if one else "hold",
            built.distinct, CORPUS_K, built.needed, MIN_DISTINCT_PER_K, _how(language),
        )
    return built.ngram_set


def reference_texts(pairs: Iterable[PairInput], language: str | None,
                    language_of: Callable[[PairInput], str | None]) -> Iterator[str]:
    """The reference texts of the readable pairs whose language (``language_of``) is
    ``language``: what a set built for that language counts."""
    for pair in pairs:
        if pair.problem is None and language_of(pair) == language:
            refs = [pair.reference] if isinstance(pair.reference, str) else pair.reference or []
            yield from (text for text in refs if isinstance(text, str))


def _missing(language: str | None, tokenizer: str) -> str:
    """``no n-gram set for LANGUAGE with the TOKENIZER tokenizer``, saying when one is
    shipped for another tokenizer."""
    named = language or "code without a language"
    text = f"no n-gram set for {named} with the {tokenizer} tokenizer"
    others = [
        name for name in crystal.available_tokenizers()
        if name != tokenizer and language is not None
        and shipped_ngram_set(language, name) is not None
    ]
    if others:
        text += f" (the one shipped for {language} is for the {' and '.join(others)} tokenizer)"
    return text


def _how(language: str | None) -> str:
    return (
        "pass ngrams= (--ngrams FILE) with a set built from a large corpus of "
        f"{language + ' code' if language else 'code in their language'} "
        "(ruby-metric ngrams build)"
    )
