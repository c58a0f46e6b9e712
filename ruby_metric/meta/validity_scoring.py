"""Scoring benchmark candidates against their references with every tier, one
:class:`ruby_metric.RubyScorer` per language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import crystal

from ..metrics import METRICS
from ..scorer import RubyScorer
from .validity_data import Candidate, Reference

#: The scores compared, RUBY first.
TIERS: tuple[str, ...] = METRICS


@dataclass(frozen=True)
class ScoredCandidate:
    """A candidate's scores against its reference (``None`` where a tier does not apply)."""

    ref_id: str
    language: str
    source: str
    operator: str
    preserving: bool
    scores: dict[str, float | None]


def _scorer_for(language: str, references: Iterable[str]) -> RubyScorer:
    """A scorer for ``language``; without a shipped n-gram set, one built from references."""
    scorer = RubyScorer(language=language)
    if scorer.ngram_set is None:
        unique = sorted(set(references))
        ngrams = crystal.build_ngram_set(unique, tokenizer=scorer.tokenizer)
        scorer = RubyScorer(language=language, ngrams=ngrams)
    return scorer


def score_candidates(
    refs: Sequence[Reference], candidates: Sequence[Candidate], *, workers: int = 1
) -> list[ScoredCandidate]:
    """Score every candidate against its reference, one scorer per language.

    CrystalBLEU uses the shipped n-gram set of the language (Java, C#) or one built from the
    benchmark's references of that language.
    """
    by_id = {r.id: r for r in refs}
    by_lang: dict[str, list[int]] = defaultdict(list)
    for i, cand in enumerate(candidates):
        by_lang[by_id[cand.ref_id].language].append(i)
    out: list[ScoredCandidate | None] = [None] * len(candidates)
    for lang in sorted(by_lang):
        idx = by_lang[lang]
        scorer = _scorer_for(lang, (r.code for r in refs if r.language == lang))
        corpus = scorer.score_corpus(
            [by_id[candidates[i].ref_id].code for i in idx],
            [candidates[i].code for i in idx],
            workers=workers,
        )
        for i, pair in zip(idx, corpus.pairs, strict=True):
            cand = candidates[i]
            ref = by_id[cand.ref_id]
            out[i] = ScoredCandidate(
                cand.ref_id, lang, ref.source, cand.operator, cand.preserving,
                {t: getattr(pair, t) for t in TIERS},
            )
    return [s for s in out if s is not None]

