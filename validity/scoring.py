"""Scoring benchmark candidates against their references with every tier, one
:class:`ruby_metric.RubyScorer` per language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import crystal
from ruby_metric.api.scorer import RubyScorer
from ruby_metric.scoring.metrics import METRICS

from .data import Candidate, Reference

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


def scorer_options(grs_beta: float | None = None,
                   metrics: Sequence[str] | None = None,
                   repair: bool | None = None) -> dict[str, Any]:
    """Keyword arguments for :class:`RubyScorer` that are passed only when given.

    Parameters
    ----------
    grs_beta : GRS's recall weight beta; ``None`` leaves the scorer's default (and works with
        a scorer that has no such option).
    metrics : the metrics to compute; ``None`` computes every metric.
    repair : the scorer's ``repair`` option; ``None`` leaves its default (on).

    Returns
    -------
    The keyword arguments, without the options left at ``None``.

    >>> scorer_options(repair=False)
    {'repair': False}
    """
    opts: dict[str, Any] = {}
    if repair is not None:
        opts["repair"] = repair
    if grs_beta is not None:
        opts["grs_beta"] = grs_beta
    if metrics is not None:
        opts["metrics"] = tuple(metrics)
    return opts


def scorer_for(language: str, references: Iterable[str], *, grs_beta: float | None = None,
               metrics: Sequence[str] | None = None, repair: bool | None = None
               ) -> RubyScorer:
    """A scorer for ``language``; without a shipped n-gram set, one built from references.

    Parameters
    ----------
    language : the code's language.
    references : the texts to build CrystalBLEU's n-gram set from when the language has no
        shipped set (consumed only then).
    grs_beta : passed to :class:`RubyScorer` as ``grs_beta`` only when not ``None``.
    metrics : the metrics to compute (default: all).
    repair : the scorer's ``repair`` option (``None``: its default, on).

    Returns
    -------
    The scorer.

    Raises
    ------
    TypeError : ``grs_beta`` is given but this :class:`RubyScorer` has no such option.
    """
    opts = scorer_options(grs_beta, metrics, repair)
    try:
        scorer = RubyScorer(language=language, **opts)
    except TypeError as exc:
        if "grs_beta" in opts and "grs_beta" in str(exc):
            raise TypeError("this RubyScorer has no grs_beta option (it comes with the GRS "
                            "v3 cost model); leave grs_beta unset") from exc
        raise
    if scorer.ngram_set is None and (metrics is None or "crystalbleu" in metrics):
        unique = sorted(set(references))
        ngrams = crystal.build_ngram_set(unique, tokenizer=scorer.tokenizer)
        scorer = RubyScorer(language=language, ngrams=ngrams, **opts)
    return scorer


def score_candidates(
    refs: Sequence[Reference], candidates: Sequence[Candidate], *, workers: int = 1,
    grs_beta: float | None = None, metrics: Sequence[str] | None = None,
    repair: bool | None = None,
) -> list[ScoredCandidate]:
    """Score every candidate against its reference, one scorer per language.

    CrystalBLEU uses the shipped n-gram set of the language (Java, C#) or one built from the
    benchmark's references of that language.

    Parameters
    ----------
    refs : the references (each candidate names its own by ``ref_id``).
    candidates : the candidates to score.
    workers : scoring worker processes.
    grs_beta : GRS's beta, passed to the scorer only when given.
    metrics : the metrics to compute (default: every tier); the others are ``None``.
    repair : the scorer's ``repair`` option (``None``: its default, on).

    Returns
    -------
    One :class:`ScoredCandidate` per candidate, in input order.
    """
    by_id = {r.id: r for r in refs}
    by_lang: dict[str, list[int]] = defaultdict(list)
    for i, cand in enumerate(candidates):
        by_lang[by_id[cand.ref_id].language].append(i)
    out: list[ScoredCandidate | None] = [None] * len(candidates)
    for lang in sorted(by_lang):
        idx = by_lang[lang]
        scorer = scorer_for(lang, (r.code for r in refs if r.language == lang),
                            grs_beta=grs_beta, metrics=metrics, repair=repair)
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
                {t: getattr(pair, t, None) for t in TIERS},
            )
    return [s for s in out if s is not None]



@dataclass(frozen=True)
class ChanceLevel:
    """The mean score of unrelated pairs of one source: what a score says by chance.

    Attributes
    ----------
    source : the references' source (``codexglue-csharp``, ``humaneval-python``, ...).
    language : their language.
    pairs : the pairs scored.
    means : metric -> mean score over the pairs where it applies (``None``: nowhere).
    applicable : metric -> the pairs where it applies.
    """

    source: str
    language: str
    pairs: int
    means: dict[str, float | None]
    applicable: dict[str, int]


def chance_level(
    source: str,
    pairs: Sequence[tuple[Reference, Reference]],
    *,
    workers: int = 1,
    grs_beta: float | None = None,
) -> ChanceLevel:
    """Score each reference against an unrelated one and average every metric.

    Parameters
    ----------
    source : the source's name (for the report).
    pairs : ``(reference, unrelated other)`` pairs of one language
        (:func:`.validity_data.unrelated_pairs`); the other plays the candidate.
    workers : scoring worker processes.
    grs_beta : GRS's beta, passed to the scorer only when given.

    Returns
    -------
    A :class:`ChanceLevel`: each metric's mean over the pairs where it applies (sentence
    scores for BLEU and CrystalBLEU).
    """
    language = pairs[0][0].language if pairs else ""
    if not pairs:
        return ChanceLevel(source, language, 0, dict.fromkeys(TIERS), dict.fromkeys(TIERS, 0))
    scorer = scorer_for(language, (r.code for r, _ in pairs), grs_beta=grs_beta)
    corpus = scorer.score_corpus([r.code for r, _ in pairs], [o.code for _, o in pairs],
                                 workers=workers)
    means: dict[str, float | None] = {}
    applicable: dict[str, int] = {}
    for t in TIERS:
        vals = [v for v in (getattr(p, t) for p in corpus.pairs) if v is not None]
        means[t] = sum(vals) / len(vals) if vals else None
        applicable[t] = len(vals)
    return ChanceLevel(source, language, len(pairs), means, applicable)
