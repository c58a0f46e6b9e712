"""One pair scored under a :class:`~ruby_metric.scoring.config.ScorerConfig`: the tiers in
order, RUBY from the first that applies, CrystalBLEU and BLEU with their segment statistics.

A :class:`PairScorer` is what the batch engine (:mod:`ruby_metric.batch.engine`) runs, in
this process or pickled to worker processes; :class:`~ruby_metric.api.scorer.RubyScorer` is
the front a user calls, over one of these. Pickled, it carries its configuration and its
tiers, never a parse: its :class:`~ruby_metric.scoring.reference_cache.ReferenceCache`
arrives empty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import crystal

from .code import Code, canonical_language
from .config import ScorerConfig
from .crosslang import (
    NOT_COMPARABLE,
    SOURCE_METRICS,
    NeutralGraphTier,
    NeutralTreeTier,
    mapping_reasons,
    neutral_report,
    signature_fields,
)
from .reference_cache import ReferenceCache
from .results import PairResult
from .signature import signature
from .tiers import TIER_ORDER, GraphTier, Tier, TierScore

__all__ = ["UNKNOWN_LANGUAGE", "NoSetReason", "PairScorer", "Scored", "pair_references"]

#: Marks a pair whose language is not in the registry (it is reported per pair).
UNKNOWN_LANGUAGE = "\0unknown"

#: Why a pair in a language (canonical), tokenized with a tokenizer, has no CrystalBLEU: what
#: the owner of the n-gram sets says (:func:`ruby_metric.api.crystal_sets.no_set_reason`).
NoSetReason = Callable[[str | None, str], str]


@dataclass(frozen=True)
class Scored:
    """A pair's result plus the BLEU statistics the corpus scores are summed from, and
    (scored for an explanation) each tier's outcome with its evidence."""

    result: PairResult
    crystalbleu_stats: Any
    bleu_stats: Any
    outcomes: dict[str, TierScore] | None = None
    #: per side that does not parse as code (``"reference"`` for any of several, or
    #: ``"source"``; ``"candidate"``), why (:meth:`Code.unparsed`), when a structural tier
    #: ran: what the run's language check counts, read from the parses, not from reasons
    unparsed: dict[str, str] = field(default_factory=dict)


def pair_references(reference: Any, candidate: Any) -> list[str]:
    """The references of one pair as a list, after checking that both sides are text.

    Raises
    ------
    TypeError : the candidate is not a string, or the reference is neither a string nor a
        non-empty list (or tuple) of strings.

    >>> pair_references("int f();", "int g();")
    ['int f();']
    >>> pair_references(["a", "b"], "c")
    ['a', 'b']
    """
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a string, not {type(candidate).__name__}")
    references = [reference] if isinstance(reference, str) else reference
    if not isinstance(references, (list, tuple)) or not references:
        raise TypeError("reference must be a string or a non-empty list of strings")
    for ref in references:
        if not isinstance(ref, str):
            raise TypeError(f"reference must be a string, not {type(ref).__name__}")
    return list(references)


class PairScorer:
    """Scores pairs under one configuration; picklable (what worker processes receive).

    Parameters
    ----------
    config : the scorer's options.
    no_set_reason : says why a pair has no CrystalBLEU (the n-gram sets are its caller's:
        this scorer is handed each pair's CrystalBLEU, or ``None``). A picklable callable,
        such as a module-level function or a :func:`functools.partial` of one.

    Examples
    --------
    >>> scorer = PairScorer(ScorerConfig("java"), lambda language, tokenizer: "no set")
    >>> scored = scorer.score_detailed("int a = 1;", "int a = 1;", 7, "java", None)
    >>> scored.result.id, scored.result.ruby, scored.result.reasons["crystalbleu"]
    (7, 1.0, 'no set')
    """

    def __init__(self, config: ScorerConfig, no_set_reason: NoSetReason) -> None:
        self.config = config
        self.no_set_reason = no_set_reason
        #: the references' representations kept in this process (empty when pickled)
        self.reference_cache = ReferenceCache(config.reference_cache)
        limits, beta = config.limits, config.grs_beta
        if config.source_language is not None:
            # across languages only structure compares: no n-grams, no string tier
            self.tiers: tuple[Tier, ...] = (
                NeutralGraphTier(limits, beta, config.call_table),
                NeutralTreeTier(limits),
            )
        else:
            self.tiers = tuple(
                GraphTier(limits, beta) if tier is GraphTier else tier(limits)
                for tier in TIER_ORDER
            )
        #: scores BLEU, and any summed statistics (the smoothing is all that scoring them needs)
        self.bleu_metric = crystal.CrystalBLEU(
            None, smoothing=config.smoothing, epsilon=config.epsilon,
            tokenizer=config.default_tokenizer,
        )

    def language_of(self, requested: str | None) -> str | None:
        """The canonical language a pair asking for ``requested`` (its own language, or
        ``None``) is scored in: its own, else the scorer's; :data:`UNKNOWN_LANGUAGE` when
        that is not a language of the registry."""
        try:
            return canonical_language(requested or self.config.language)
        except ValueError:
            return UNKNOWN_LANGUAGE

    def codes(
        self, reference: str | Sequence[str], candidate: str, language: str | None
    ) -> tuple[list[Code], Code]:
        """Both sides as :class:`Code`, so a caller can score and then reuse the parses.

        References come from the :class:`ReferenceCache` (built once per process while
        kept); a candidate is built for its pair, unless it is one of the references.
        """
        config = self.config
        references = pair_references(reference, candidate)
        tokenizer = config.tokenizer_for(language)
        cache, limits, repair = self.reference_cache, config.limits, config.repair
        if config.source_language is not None:
            # a source is in its own language: never shared with the candidate's Code
            source_tokenizer = config.tokenizer_for(config.source_language)
            return [
                cache.code(text, config.source_language, source_tokenizer, limits, repair)
                for text in references
            ], Code(candidate, language, tokenizer, limits, repair)
        # One Code per distinct text: an exact match (over half the pairs of CodeXGLUE model
        # outputs) shares the reference's tokens, parse and graphs instead of rebuilding them.
        codes: dict[str, Code] = {}
        for text in references:
            if text not in codes:
                codes[text] = cache.code(text, language, tokenizer, limits, repair)
        cand = codes.get(candidate) or Code(candidate, language, tokenizer, limits, repair)
        return [codes[text] for text in references], cand

    def score_detailed(
        self,
        reference: str | Sequence[str],
        candidate: str,
        pair_id: Any,
        language: str | None,
        cbleu: crystal.CrystalBLEU | None,
        codes: tuple[list[Code], Code] | None = None,
        explain: bool = False,
    ) -> Scored:
        """One pair in ``language`` (canonical), with ``cbleu`` its CrystalBLEU (``None``:
        none applies, and the reason says why); ``codes``: both sides already built
        (:meth:`codes`); ``explain``: keep each tier's evidence.

        Returns
        -------
        Scored : the :class:`PairResult` (``.result``), the tiers' outcomes and the BLEU
            segment statistics.
        """
        config = self.config
        refs, cand = codes if codes is not None else self.codes(reference, candidate, language)
        values: dict[str, Any] = {}
        reasons: dict[str, str] = {}
        outcomes: dict[str, TierScore] = {}

        wanted = set(config.metrics)
        # one text on both sides (one shared Code): what stops a tier stops it on both
        same_text = all(ref is cand for ref in refs)
        for tier in self.tiers:
            if tier.metric in wanted or ("ruby" in wanted and "tier" not in values):
                outcome = tier.score(refs, cand, explain=explain)
                outcomes[tier.name] = outcome
                values[tier.metric] = outcome.value
                if outcome.value is None:
                    reason = outcome.reason or "not applicable"
                    if same_text and reason.startswith("candidate: "):
                        reason = "both: " + reason.removeprefix("candidate: ")
                    reasons[tier.metric] = reason
                else:
                    if outcome.note:  # repaired, or a statement kept as text
                        reasons[tier.metric] = outcome.note
                    if "tier" not in values:
                        values["tier"] = tier.name
                        values["ruby"] = outcome.value
        if "ruby" in wanted and "tier" not in values:
            reasons["ruby"] = "no tier applies"
        cb_stats = bleu_stats = None
        if config.source_language is not None:
            self._note_source(reasons, refs[0], cand)
        else:
            # the sides as STS read them: a big pair's numbers, if STS built them, are reused
            ref_tokens = [code.interned for code in refs]
            cand_tokens = cand.interned
            if "crystalbleu" in wanted:
                if cbleu is None:
                    reasons["crystalbleu"] = self.no_set_reason(
                        language, config.tokenizer_for(language))
                elif "bleu" in wanted:
                    # one count for both: bleu_metric has cbleu's orders (same smoothing, max_n)
                    cb_stats, bleu_stats = cbleu.segment_stats_with_bleu(ref_tokens, cand_tokens)
                else:
                    cb_stats = cbleu.segment_stats(ref_tokens, cand_tokens)
                if cb_stats is not None:
                    values["crystalbleu"] = cbleu.score_stats(cb_stats)
            if "bleu" in wanted:
                if bleu_stats is None:
                    bleu_stats = self.bleu_metric.segment_stats(ref_tokens, cand_tokens)
                values["bleu"] = self.bleu_metric.score_stats(bleu_stats)

        result = PairResult(
            id=pair_id,
            ruby=values.get("ruby") if "ruby" in wanted else None,
            tier=values.get("tier") if "ruby" in wanted else None,
            grs=values.get("grs"),
            trs=values.get("trs"),
            sts=values.get("sts"),
            crystalbleu=values.get("crystalbleu"),
            bleu=values.get("bleu"),
            reasons=reasons,
            mode="reference" if config.source_language is None else "source",
        )
        unparsed: dict[str, str] = {}
        if outcomes.keys() & {"graph", "tree"}:  # the sides were parsed: say which failed
            side = "reference" if config.source_language is None else "source"
            for name, code in [*((side, ref) for ref in refs), ("candidate", cand)]:
                why = None if name in unparsed else code.unparsed()
                if why is not None:
                    unparsed[name] = why
        return Scored(result, cb_stats, bleu_stats, outcomes if explain else None, unparsed)

    def _note_source(self, reasons: dict[str, str], source: Code, cand: Code) -> None:
        """Scored against a source: the lexical metrics are not comparable, and GRS's reason
        says what the neutral map did not know."""
        for metric in self.config.metrics:
            if metric not in SOURCE_METRICS:
                reasons[metric] = NOT_COMPARABLE
        if "grs" not in self.config.metrics:
            return  # no graph asked for: none is built just for the map's report
        graph_tier = self.tiers[0]
        assert isinstance(graph_tier, NeutralGraphTier)
        notes = mapping_reasons(*(neutral_report(graph_tier, side) for side in (source, cand)))
        if notes:
            reasons["grs"] = "; ".join([reasons["grs"], *notes] if "grs" in reasons else notes)

    def signature_of(
        self,
        ngram_sets: dict[str | None, crystal.NgramSet],
        languages: set[str | None] | None = None,
    ) -> str:
        """The signature for these n-gram sets; ``languages``: those of the pairs actually
        scored, when known (the batch engine's corpus signature: it names the tokenizer of
        each when they differ, ``tok:java=code+python=code-python``). The n-gram sets are
        named only when CrystalBLEU is scored (``ngrams:none`` otherwise): no other number
        depends on them, and the command line loads none then."""
        config = self.config
        if "crystalbleu" not in config.metrics:
            ngram_sets = {}
        return signature(
            language=config.language,
            languages=sorted(languages, key=str) if languages else None,
            tokenizer=config.default_tokenizer,
            tokenizers={lang: config.tokenizer_for(lang) for lang in languages} if languages
            else None,
            ngram_sets=ngram_sets,
            variant=config.variant,
            smoothing=config.smoothing,
            epsilon=config.epsilon,
            grs_beta=config.grs_beta,
            repair=config.repair,
            source=None if config.source_language is None else (
                config.source_language,
                signature_fields(config.source_language, config.call_table),
            ),
        )
