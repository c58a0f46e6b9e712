"""Which trivially shared n-grams CrystalBLEU ignores for each language of a run.

A set given explicitly applies to every pair tokenized as it was counted; otherwise each
language gets the set shipped for it and its tokenizer.
"""

from __future__ import annotations

from typing import Any

import crystal

from ..io.ngram_sets import resolve_ngram_set
from ..scoring.code import canonical_language, default_tokenizer

__all__ = ["AllLanguages", "no_set_reason", "shipped_for"]


class AllLanguages(dict):
    """The same CrystalBLEU for every language (an n-gram set given explicitly) whose pairs
    are tokenized as the set was counted; ``None`` for the others (Python's default
    tokenizer is not the others')."""

    def __init__(self, metric: crystal.CrystalBLEU, tokenizer_choice: str | None) -> None:
        super().__init__({None: metric})
        self.metric = metric
        self.tokenizer_choice = tokenizer_choice

    def get(self, key: Any, default: Any = None) -> crystal.CrystalBLEU | None:  # noqa: ARG002
        tokenizer = self.tokenizer_choice or default_tokenizer(key)
        return self.metric if tokenizer == self.metric.tokenizer else None


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
    return "no trivially shared n-gram set for this language"
