"""The tiered scorer: RUBY, its tiers, CrystalBLEU and BLEU for a pair or a corpus.

Batches run on :mod:`ruby_metric.batch.engine`; explanations are assembled by
:mod:`ruby_metric.api.explain` from what scoring produced.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import crystal

from ..batch.engine import UNKNOWN_LANGUAGE, Scored, ScoreStream
from ..batch.heartbeat import LongPair, Watch
from ..batch.pool import WorkerPool
from ..io.inputs import PairInput, checked_source
from ..io.ngram_sets import NgramSource, resolve_ngram_set
from ..scoring.code import Code, Limits, NotApplicable, canonical_language, default_tokenizer
from ..scoring.crosslang import (
    NOT_COMPARABLE,
    SOURCE_METRICS,
    NeutralGraphTier,
    NeutralTreeTier,
    mapping_reasons,
    neutral_report,
    signature_fields,
)
from ..scoring.grs_cost import DEFAULT_GRS_BETA, check_beta
from ..scoring.metrics import METRICS, parse_metrics
from ..scoring.reference_cache import DEFAULT_REFERENCE_CACHE, ReferenceCache
from ..scoring.results import CorpusResult, PairResult
from ..scoring.signature import signature
from ..scoring.tiers import TIER_ORDER, GraphTier, Tier, TierScore
from .columns import aligned_pairs, pair_references
from .crystal_sets import (
    AllLanguages,
    corpus_ngram_set,
    fits,
    no_set_reason,
    reference_texts,
    shipped_for,
)

if TYPE_CHECKING:
    from graphs.neutral import CallTable

    from .explain import Explanation

logger = logging.getLogger(__name__)

Reference = str | Sequence[str]

class RubyScorer:
    """Score candidates against references with RUBY, its tiers, CrystalBLEU and BLEU.

    Parameters
    ----------
    language : language of the code (``"java"``, ``"cs"``, ``"python"``, ...); structural
        tiers need it. ``None`` scores the language-agnostic metrics only (STS, BLEUs).
    ngrams : the trivially shared n-grams for CrystalBLEU: a path to a file written by
        ``ruby-metric ngrams build``, a :class:`crystal.NgramSet`, an iterable of n-gram
        tuples, or ``None`` for the set shipped for ``language``. Without any set, a set is
        built from the references being scored (the pair's in :meth:`score`, a language's
        in :meth:`score_corpus`; a warning is logged) when they hold at least 10 x k
        distinct n-grams (:mod:`ruby_metric.api.crystal_sets`); with fewer, CrystalBLEU is
        ``None`` with the reason.
    metrics : the subset of ``ruby, grs, trs, sts, crystalbleu, bleu`` to report (default all).
    tokenizer : the :mod:`crystal` tokenizer for STS and the BLEUs: ``"code"`` or
        ``"whitespace"`` for pre-tokenized data, for every pair. Default (``None``): each
        pair's language chooses (:meth:`tokenizer_for`): ``"code-python"``, which drops ``#``
        comments and tokenizes indentation, for Python, ``"code"`` for the others; so a
        Python pair gets the same numbers whether its language comes from the scorer or from
        the pair (``languages=``, a JSONL ``language``). :attr:`tokenizer` is the one for
        ``language``.
    smoothing, epsilon : BLEU smoothing (NLTK ``method0``..``method7`` or sacrebleu's
        ``exp``/``floor``/``add-k``); default NLTK method1 with epsilon 1e-4.
    variant : CrystalBLEU variant, ``"ignore"`` (the paper's main one) or ``"log-weight"``.
    limits : size limits per tier (:class:`Limits`).
    grs_beta : GRS's recall weight (default 2: a candidate is judged by how much of the
        reference's meaning it carries; 1: the symmetric score, for clone detection and
        other uses where neither side is the reference). Part of the signature.
    repair : give almost-code the structural tiers: a bounded repair (a few inserted tokens)
        or a broken statement kept as text (default ``True``; the reasons say what was
        done). ``False`` needs a clean parse as given. Part of the signature.
    source_language : score candidates (in ``language``) against the program they translate,
        in this language, instead of against a reference: :meth:`score_source` and
        :meth:`score_source_corpus`. GRS and TRS compare language-neutral PDGs and ASTs
        (:mod:`graphs.neutral`); STS, CrystalBLEU and BLEU are not comparable across
        languages and are reported as ``None`` with that reason. Part of the signature.
    call_table : with ``source_language``, the table of library calls the neutral map knows
        (default :meth:`graphs.neutral.CallTable.default`; extend it with
        ``CallTable.default().with_entries(...)``). Its digest is part of the signature.
    reference_cache : characters of reference text whose representations (tokens, parse,
        AST, PDG) are kept for later pairs with the same reference, in each process
        (:mod:`ruby_metric.scoring.reference_cache`); default 500,000, which holds the
        distinct references of the usual benchmark runs. ``0`` turns it off. A repeated
        reference (~20 samples per task, several systems against the same references) is
        then built once; the scores are the same either way, so it is not part of the
        signature.

    Examples
    --------
    >>> scorer = RubyScorer(language="java")
    >>> r = scorer.score("int f(int a){return a+1;}", "int f(int b){return b+1;}")
    >>> r.tier, r.grs, round(r.trs, 3), round(r.sts, 3)  # renaming a local: GRS forgives it
    ('graph', 1.0, 0.923, 0.846)
    """

    def __init__(
        self,
        language: str | None = None,
        *,
        ngrams: NgramSource = None,
        metrics: Iterable[str] | None = None,
        tokenizer: str | None = None,
        smoothing: str = "method1",
        epsilon: float = 1e-4,
        variant: str = "ignore",
        limits: Limits | None = None,
        grs_beta: float = DEFAULT_GRS_BETA,
        repair: bool = True,
        source_language: str | None = None,
        call_table: CallTable | None = None,
        reference_cache: int = DEFAULT_REFERENCE_CACHE,
    ) -> None:
        self.language = canonical_language(language)
        self.source_language = (
            None if source_language is None else canonical_language(source_language)
        )
        if self.source_language is not None and self.language is None:
            raise ValueError("source_language needs language: the candidates' language")
        self.call_table = call_table
        self.repair = bool(repair)
        #: the references' representations kept in this process (empty when pickled)
        self.reference_cache = ReferenceCache(reference_cache)
        self.grs_beta = check_beta(grs_beta)
        self.metrics = _check_metrics(metrics)
        #: the tokenizer set explicitly (``None``: each language's default)
        self.tokenizer_choice = tokenizer
        tokenizer = self.tokenizer_for(self.language)
        self.tokenizer = tokenizer
        crystal.tokenize("", tokenizer)  # fail now, not per pair, on an unknown tokenizer
        self.smoothing = smoothing
        self.epsilon = epsilon
        self.variant = variant
        self.limits = limits or Limits()
        self._explicit_ngrams = ngrams is not None
        if self.source_language is not None:
            # across languages only structure compares: no n-grams, no string tier
            self.ngram_set = None
            self._tiers: tuple[Tier, ...] = (
                NeutralGraphTier(self.limits, self.grs_beta, call_table),
                NeutralTreeTier(self.limits),
            )
        else:
            self.ngram_set = resolve_ngram_set(ngrams, self.language, tokenizer)
            self._tiers = tuple(
                GraphTier(self.limits, self.grs_beta) if tier is GraphTier
                else tier(self.limits)
                for tier in TIER_ORDER
            )
        self.bleu_metric = crystal.CrystalBLEU(
            None, smoothing=smoothing, epsilon=epsilon, tokenizer=tokenizer
        )
        given_for_pairs = (self._explicit_ngrams and self.ngram_set is not None
                           and self.language is None and self.tokenizer_choice is None)
        # A set given for a run whose pairs name their languages applies to the pairs
        # tokenized as it was counted (crystal_sets.fits): its own tokenizer, not "code".
        self._crystal = self._crystalbleu_for(
            self.ngram_set, self.ngram_set.tokenizer if given_for_pairs else None)
        self._pool: WorkerPool | None = None

    # -- worker processes -----------------------------------------------------------------

    def worker_pool(self, size: int) -> WorkerPool:
        """This scorer's pool of worker processes, of at least ``size`` workers.

        Started by the first run that needs it and kept for the next ones (a second
        ``score_corpus(..., workers=N)`` pays no start-up); closed by :meth:`close`, at the
        end of a ``with`` block, or when the scorer is garbage-collected or Python exits.
        """
        pool = self._pool
        if pool is None or not pool.started or pool.size < size:
            if pool is not None:
                pool.close()
            pool = self._pool = WorkerPool(size)
            weakref.finalize(self, pool.close)
        return pool

    def with_language(self, language: str | None, *, ngrams: NgramSource = None) -> RubyScorer:
        """A scorer with every setting of this one but the candidates' language and the
        n-gram set (metrics, smoothing, limits, beta, repair, source language, call table,
        and the tokenizer if one was set: else the new language's default, as the batch
        engine scores such a pair); what explains a pair that names its own language.

        Parameters
        ----------
        language : the other language.
        ngrams : its n-gram set (default: the one shipped for it, as for any scorer).

        >>> s = RubyScorer("java", grs_beta=1, repair=False).with_language("cs")
        >>> s.language, s.grs_beta, s.repair
        ('csharp', 1.0, False)
        """
        return RubyScorer(
            language,
            ngrams=ngrams,
            metrics=self.metrics,
            tokenizer=self.tokenizer_choice,
            smoothing=self.smoothing,
            epsilon=self.epsilon,
            variant=self.variant,
            limits=self.limits,
            grs_beta=self.grs_beta,
            repair=self.repair,
            source_language=self.source_language,
            call_table=self.call_table,
            reference_cache=self.reference_cache.max_chars,
        )

    def tokenizer_for(self, language: str | None) -> str:
        """The tokenizer of a pair in ``language`` (canonical): the one set explicitly, else
        that language's default (``"code-python"`` for Python, ``"code"`` otherwise).

        >>> s = RubyScorer("java")
        >>> s.tokenizer_for("java"), s.tokenizer_for("python")
        ('code', 'code-python')
        >>> RubyScorer("java", tokenizer="whitespace").tokenizer_for("python")
        'whitespace'
        """
        if self.tokenizer_choice is not None:
            return self.tokenizer_choice
        return default_tokenizer(language)

    def close(self) -> None:
        """Stop this scorer's worker processes, if any (it can still score afterwards)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __enter__(self) -> RubyScorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_pool"] = None  # workers are this process's, never sent anywhere
        return state

    def _crystalbleu_for(
        self, ngram_set: crystal.NgramSet | None, tokenizer: str | None = None
    ) -> crystal.CrystalBLEU | None:
        if ngram_set is None:
            return None
        return crystal.CrystalBLEU(
            ngram_set,
            variant=self.variant,
            smoothing=self.smoothing,
            epsilon=self.epsilon,
            tokenizer=self.tokenizer if tokenizer is None else tokenizer,
        )

    # -- one pair -------------------------------------------------------------------------

    def score(self, reference: Reference, candidate: str, *, id: Any = None) -> PairResult:  # noqa: A002
        """Score one pair.

        Parameters
        ----------
        reference : the reference code, or a list of references (each tier takes the best).
        candidate : the predicted code.
        id : an identifier carried into the result.

        Returns
        -------
        PairResult with ``ruby``, ``tier``, every computable tier, CrystalBLEU, BLEU and the
        reasons for what could not be computed.

        Raises
        ------
        TypeError : reference or candidate is not text.
        ValueError : the scorer scores against the source (``source_language``): use
            :meth:`score_source`.
        """
        self._check_mode("reference")
        codes = self._codes(reference, candidate, self.language)
        cbleu = self._pair_crystalbleu(codes[0])
        return self.score_detailed(reference, candidate, id, self.language, cbleu,
                                   codes=codes).result

    def score_source(self, source: str, candidate: str, *, id: Any = None) -> PairResult:  # noqa: A002
        """Score a translation against the program it translates, with no reference.

        Needs a scorer made with ``source_language`` (the source's language) and
        ``language`` (the candidate's). Each side's PDG and AST are built in its own
        language, mapped into one language-neutral vocabulary (keywords, operators,
        declarations without types, identifier style, common library calls: see
        :mod:`graphs.neutral`) and compared as within one language: GRS with the v3 cost
        model, the source as the reference, then TRS. STS, CrystalBLEU and BLEU are ``None``:
        lexical scores between two languages are not comparable.

        Parameters
        ----------
        source : the source program (a function, a class or a snippet).
        candidate : its translation.
        id : an identifier carried into the result.

        Returns
        -------
        PairResult with ``mode="source"``: ``ruby`` (GRS where it applies, else TRS), ``grs``,
        ``trs``, and reasons, including the share of labels the neutral map did not know.

        Raises
        ------
        TypeError : source or candidate is not text.
        ValueError : the scorer has no ``source_language``.

        Examples
        --------
        >>> scorer = RubyScorer(language="python", source_language="java")
        >>> java = "int total(int[] xs) { int s = 0; for (int x : xs) s += x; return s; }"
        >>> py = "def total(xs):\\n    s = 0\\n    for x in xs:\\n        s += x\\n    return s"
        >>> r = scorer.score_source(java, py)
        >>> r.mode, r.ruby, r.tier, r.bleu
        ('source', 1.0, 'graph', None)
        """
        self._check_mode("source")
        return self.score_detailed(source, candidate, id, self.language, None).result

    def _pair_crystalbleu(self, references: list[Code]) -> crystal.CrystalBLEU | None:
        """CrystalBLEU for one pair: the scorer's, else one built from the pair's references
        (their tokens, which the lexical tiers use too) when they are enough, as
        :meth:`score_corpus` does for a corpus of that one pair."""
        if self._crystal is not None:
            # a given set counted with another tokenizer than this pair's: none applies
            return self._crystal if fits(self._crystal, self.tokenizer_choice,
                                         self.language) else None
        if "crystalbleu" not in self.metrics or self.source_language is not None:
            return None
        built = corpus_ngram_set([code.tokens for code in references], self.language,
                                 self.tokenizer, quiet=True)
        return self._crystalbleu_for(built)

    def _check_mode(self, wanted: str) -> None:
        if wanted == "reference" and self.source_language is not None:
            raise ValueError(
                f"this scorer scores against the source (source_language="
                f"{self.source_language!r}): use score_source / score_source_corpus / "
                "explain_source, or make a scorer without source_language"
            )
        if wanted == "source" and self.source_language is None:
            raise ValueError(
                "scoring against the source needs the source's language: "
                "RubyScorer(language=..., source_language=...)"
            )

    def score_detailed(
        self,
        reference: Reference,
        candidate: str,
        pair_id: Any,
        language: str | None,
        cbleu: crystal.CrystalBLEU | None,
        codes: tuple[list[Code], Code] | None = None,
        explain: bool = False,
    ) -> Scored:
        """One pair with everything the batch engine and :meth:`explain` need.

        :meth:`score` is this with the scorer's language and CrystalBLEU; the batch engine
        (:mod:`ruby_metric.batch.engine`) passes each pair's own language and the CrystalBLEU
        of its n-gram set, and keeps the returned segment statistics for the corpus BLEUs.

        Returns
        -------
        Scored : the :class:`PairResult` (``.result``), the tiers' outcomes and the BLEU
            segment statistics.
        """
        refs, cand = codes if codes is not None else self._codes(reference, candidate, language)
        values: dict[str, Any] = {}
        reasons: dict[str, str] = {}
        outcomes: dict[str, TierScore] = {}

        wanted = set(self.metrics)
        # one text on both sides (one shared Code): what stops a tier stops it on both
        same_text = all(ref is cand for ref in refs)
        for tier in self._tiers:
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
        if self.source_language is not None:
            self._note_source(reasons, refs[0], cand)
        else:
            ref_tokens = [code.tokens for code in refs]
            if "crystalbleu" in wanted:
                if cbleu is None:
                    reasons["crystalbleu"] = no_set_reason(
                        language,
                        self.tokenizer_for(language),
                        self.ngram_set if self._explicit_ngrams else None,
                    )
                elif "bleu" in wanted:
                    # one count for both: bleu_metric has cbleu's orders (same smoothing, max_n)
                    cb_stats, bleu_stats = cbleu.segment_stats_with_bleu(ref_tokens, cand.tokens)
                else:
                    cb_stats = cbleu.segment_stats(ref_tokens, cand.tokens)
                if cb_stats is not None:
                    values["crystalbleu"] = cbleu.score_stats(cb_stats)
            if "bleu" in wanted:
                if bleu_stats is None:
                    bleu_stats = self.bleu_metric.segment_stats(ref_tokens, cand.tokens)
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
            mode="reference" if self.source_language is None else "source",
        )
        return Scored(result, cb_stats, bleu_stats, outcomes if explain else None)

    def _note_source(self, reasons: dict[str, str], source: Code, cand: Code) -> None:
        """Scored against a source: the lexical metrics are not comparable, and GRS's reason
        says what the neutral map did not know."""
        for metric in self.metrics:
            if metric not in SOURCE_METRICS:
                reasons[metric] = NOT_COMPARABLE
        if "grs" not in self.metrics:
            return  # no graph asked for: none is built just for the map's report
        graph_tier = self._tiers[0]
        assert isinstance(graph_tier, NeutralGraphTier)
        notes = mapping_reasons(*(neutral_report(graph_tier, side) for side in (source, cand)))
        if notes:
            reasons["grs"] = "; ".join([reasons["grs"], *notes] if "grs" in reasons else notes)

    def _codes(
        self, reference: Reference, candidate: str, language: str | None
    ) -> tuple[list[Code], Code]:
        """Both sides as :class:`Code`, so a caller can score and then reuse the parses.

        References come from the scorer's :class:`ReferenceCache` (built once per process
        while kept); a candidate is built for its pair, unless it is one of the references.
        """
        references = pair_references(reference, candidate)
        tokenizer = self.tokenizer_for(language)
        cache, limits, repair = self.reference_cache, self.limits, self.repair
        if self.source_language is not None:
            # a source is in its own language: never shared with the candidate's Code
            source_tokenizer = self.tokenizer_for(self.source_language)
            return [
                cache.code(text, self.source_language, source_tokenizer, limits, repair)
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

    def explain(self, reference: Reference, candidate: str) -> Explanation:
        """Score one pair and say why: the edits behind every tier's number.

        Parameters
        ----------
        reference : the reference code, or a list of references (the explanation is against
            the one that gave the best RUBY).
        candidate : the predicted code.

        Returns
        -------
        Explanation with the :class:`PairResult` (``.result``), the token edits (STS), the
        AST edit mapping (TRS), the PDG node mapping (GRS) and CrystalBLEU's matched n-grams;
        ``.to_text()``, ``.to_dict()`` and :func:`ruby_metric.pages.pair_page.write_html` render it.

        Raises
        ------
        TypeError : reference or candidate is not text.
        """
        self._check_mode("reference")
        return self._explain(reference, candidate)

    def explain_source(self, source: str, candidate: str) -> Explanation:
        """:meth:`score_source` with the why: the neutral labels and the mapping behind them.

        The explanation has GRS's node mapping on the neutral PDGs, TRS's AST edits on the
        neutral ASTs and, per side, each PDG label's neutral form, its own text, the rules
        of the map that produced it and the share of labels the map did not know
        (``.mapping``).

        Raises
        ------
        TypeError : source or candidate is not text.
        ValueError : the scorer has no ``source_language``.
        """
        self._check_mode("source")
        return self._explain(source, candidate)

    def _explain(self, reference: Reference, candidate: str) -> Explanation:
        from .explain import assemble_explanation

        refs, cand = self._codes(reference, candidate, self.language)
        cbleu = self._pair_crystalbleu(refs)
        scored = self.score_detailed(
            reference,
            candidate,
            None,
            self.language,
            cbleu,
            codes=(refs, cand),
            explain=True,
        )
        return assemble_explanation(
            scored.result,
            references=refs,
            candidate=cand,
            outcomes=scored.outcomes or {},
            graph_tier=next(t for t in self._tiers if isinstance(t, GraphTier)),
            metrics=self.metrics,
            language=self.language,
            tokenizer=self.tokenizer,
            ngram_set=cbleu.ngrams if cbleu is not None else None,
            max_n=self.bleu_metric.max_n,
            variant=self.variant,
            source_language=self.source_language,
        )

    # -- a corpus -------------------------------------------------------------------------

    def score_corpus(
        self,
        references: Iterable[Reference],
        candidates: Iterable[str],
        *,
        ids: Iterable[Any] | None = None,
        languages: Iterable[str | None] | None = None,
        workers: int = 1,
        executor: Executor | None = None,
    ) -> CorpusResult:
        """Score aligned references and candidates.

        Parameters
        ----------
        references : one reference (or list of references) per pair: any iterable (a list,
            a generator, a pandas Series...).
        candidates : one candidate per pair, any iterable.
        ids : optional identifiers, one per pair. Default: the index of ``candidates`` (or
            of ``references``) when it is a pandas Series, else 0-based positions. Pairs are
            made by position: two Series whose indexes differ are an error (pandas would
            pair them by label), unless ``ids`` is given.
        languages : optional language per pair (``None`` entries use the scorer's language).
        workers : processes that score (1: this one). A pool is kept by the scorer for
            later calls (see :meth:`worker_pool`) and never has more workers than there are
            chunks of 64 pairs.
        executor : any :class:`concurrent.futures.Executor` to run chunks of pairs on (for
            example a Dask cluster's ``client.get_executor()``); overrides ``workers``.

        Returns
        -------
        CorpusResult with per-pair results in input order, corpus-level CrystalBLEU and BLEU
        (statistics summed over pairs), means of the other metrics and tier counts.

        A pair that cannot be read (not text) gets a result with ``reasons["input"]``; the
        others are scored as usual.

        Raises
        ------
        TypeError : an argument is not iterable.
        ValueError : the iterables have different lengths, or two pandas Series have
            different indexes (and no ``ids`` is given).
        """
        self._check_mode("reference")
        return self._score_aligned(references, candidates, ids, languages, workers, executor)

    def score_source_corpus(
        self,
        sources: Iterable[str],
        candidates: Iterable[str],
        *,
        ids: Iterable[Any] | None = None,
        languages: Iterable[str | None] | None = None,
        workers: int = 1,
        executor: Executor | None = None,
    ) -> CorpusResult:
        """Score aligned translations against their source programs (see :meth:`score_source`).

        Parameters and results are those of :meth:`score_corpus`, with ``sources`` in place
        of ``references`` (``languages``: the candidates' languages, when they differ). The
        corpus signature says ``mode:source``; CrystalBLEU and BLEU are ``None``.

        Raises
        ------
        TypeError : an argument is not iterable.
        ValueError : the iterables have different lengths, or the scorer has no
            ``source_language``.
        """
        self._check_mode("source")
        return self._score_aligned(sources, candidates, ids, languages, workers, executor)

    def _score_aligned(
        self,
        references: Iterable[Reference],
        candidates: Iterable[str],
        ids: Iterable[Any] | None,
        languages: Iterable[str | None] | None,
        workers: int,
        executor: Executor | None,
    ) -> CorpusResult:
        pairs = aligned_pairs(references, candidates, ids, languages)
        return self.score_pairs(pairs, workers=workers, executor=executor)

    def score_pairs(
        self,
        pairs: Sequence[PairInput],
        *,
        workers: int = 1,
        executor: Executor | None = None,
    ) -> CorpusResult:
        """Score :class:`~ruby_metric.io.inputs.PairInput` records (as read from files).

        Like :meth:`score_corpus`; a record with a ``problem`` gets a result whose
        ``reasons["input"]`` is that problem.
        """
        run = self.stream(lambda: pairs, workers=workers, executor=executor, keep_pairs=True)
        for _ in run:
            pass
        return run.corpus()

    def stream(
        self,
        pairs: Callable[[], Iterable[PairInput]],
        *,
        workers: int = 1,
        executor: Executor | None = None,
        keep_pairs: bool = False,
        skip: Callable[[PairInput], bool] | None = None,
        heartbeat: Callable[[LongPair], None] | None = None,
        heartbeat_every: float = 10.0,
    ) -> ScoreStream:
        """Score a stream of pairs in constant memory, yielding results in input order.

        Parameters
        ----------
        pairs : a function returning a fresh iterable of pairs each time it is called. It is
            called once to score; and once more before that only when some language has no
            n-gram set (shipped or given), to build one from that language's references.
        workers, executor : as in :meth:`score_corpus`.
        keep_pairs : also keep every result for :meth:`ScoreStream.corpus` (not constant
            memory).
        skip : pairs for which this is true are not scored (resuming a run: those already
            written); they still count for an n-gram set built from the references, so each
            pair's CrystalBLEU is the one a run of every pair gives.
        heartbeat : called with a :class:`~ruby_metric.batch.heartbeat.LongPair` (ids,
            characters, seconds) every ``heartbeat_every`` seconds while one pair (on a
            worker process: one chunk of pairs) is still being scored, from another thread;
            what a long pair shows so that the run does not look hung.

        Returns
        -------
        ScoreStream: iterate it for :class:`PairResult` objects; afterwards ``.corpus()``
        gives the corpus aggregates.

        Examples
        --------
        >>> from ruby_metric.io.inputs import iter_jsonl
        >>> run = RubyScorer("java").stream(lambda: iter_jsonl("pairs.jsonl"))  # doctest: +SKIP
        >>> for result in run: ...                                               # doctest: +SKIP
        >>> run.corpus().summary()                                               # doctest: +SKIP
        """
        pairs = checked_source(pairs)
        cbleus = self._crystalbleu_by_language(pairs)
        scored = pairs() if skip is None else (p for p in pairs() if not skip(p))
        watch = None if heartbeat is None else Watch(heartbeat, heartbeat_every)
        return ScoreStream(self, cbleus, scored, workers, executor, keep_pairs, watch)

    def _crystalbleu_by_language(
        self, pairs: Callable[[], Iterable[PairInput]]
    ) -> dict[str | None, crystal.CrystalBLEU | None]:
        """CrystalBLEU per language: the scorer's set, a shipped one, or one built here.

        Languages are canonicalized; a pair with an unknown language is left for
        :func:`_score_chunk` to report.
        """
        out: dict[str | None, crystal.CrystalBLEU | None] = {}
        if "crystalbleu" not in self.metrics or self.source_language is not None:
            return out
        if self._crystal is not None and self._explicit_ngrams:
            return AllLanguages(self._crystal, self.tokenizer_choice)
        languages = {self.pair_language(p) for p in pairs()}
        languages.discard(UNKNOWN_LANGUAGE)
        for lang in sorted(languages, key=str):
            if self._crystal is not None and lang == self.language:
                out[lang] = self._crystal
                continue
            tokenizer = self.tokenizer_for(lang)
            ngram_set = shipped_for(lang, tokenizer)
            if ngram_set is None:
                texts = reference_texts(pairs(), lang, self.pair_language)
                ngram_set = corpus_ngram_set(texts, lang, tokenizer)
            out[lang] = self._crystalbleu_for(ngram_set, tokenizer)
        return out

    def pair_language(self, pair: PairInput) -> str | None:
        """The canonical language a pair is scored in (its own, else the scorer's)."""
        try:
            return canonical_language(pair.language or self.language)
        except ValueError:
            return UNKNOWN_LANGUAGE

    # -- reproducibility ------------------------------------------------------------------

    def signature(self) -> str:
        """A sacrebleu-style signature naming everything that determines the scores."""
        return self.signature_of({self.language: self.ngram_set} if self.ngram_set else {})

    def signature_of(
        self,
        ngram_sets: dict[str | None, crystal.NgramSet],
        languages: set[str | None] | None = None,
    ) -> str:
        """The signature for these n-gram sets; ``languages``: those of the pairs actually
        scored, when known (the batch engine's corpus signature: it names the tokenizer of
        each when they differ, ``tok:java=code+python=code-python``)."""
        return signature(
            language=self.language,
            languages=sorted(languages, key=str) if languages else None,
            tokenizer=self.tokenizer,
            tokenizers={lang: self.tokenizer_for(lang) for lang in languages} if languages
            else None,
            ngram_sets=ngram_sets,
            variant=self.variant,
            smoothing=self.smoothing,
            epsilon=self.epsilon,
            grs_beta=self.grs_beta,
            repair=self.repair,
            source=None if self.source_language is None else (
                self.source_language, signature_fields(self.source_language, self.call_table)
            ),
        )


def _check_metrics(metrics: Iterable[str] | None) -> tuple[str, ...]:
    return METRICS if metrics is None else parse_metrics(tuple(metrics))


__all__ = ["RubyScorer", "Limits", "NotApplicable"]
