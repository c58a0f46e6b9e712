"""The tiered scorer: RUBY, its tiers, CrystalBLEU and BLEU for a pair or a corpus.

Batches run on :mod:`ruby_metric.batch.engine`; explanations are assembled by
:mod:`ruby_metric.api.explain` from what scoring produced.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import weakref
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import crystal

from ..batch.engine import ScoreStream
from ..batch.heartbeat import LongPair, Watch
from ..batch.pool import WorkerPool
from ..io.inputs import PairInput, checked_source, rereading
from ..io.ngram_sets import NgramSource, resolve_ngram_set
from ..scoring.code import Code, Limits, NotApplicable
from ..scoring.config import DEFAULT_EPSILON, DEFAULT_SMOOTHING, DEFAULT_VARIANT, ScorerConfig
from ..scoring.grs_cost import DEFAULT_GRS_BETA
from ..scoring.pair_scorer import UNKNOWN_LANGUAGE, PairScorer, Scored
from ..scoring.reference_cache import DEFAULT_REFERENCE_CACHE, ReferenceCache
from ..scoring.results import CorpusResult, PairResult
from ..scoring.tiers import GraphTier
from .columns import aligned_pairs
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
        smoothing: str = DEFAULT_SMOOTHING,
        epsilon: float = DEFAULT_EPSILON,
        variant: str = DEFAULT_VARIANT,
        limits: Limits | None = None,
        grs_beta: float = DEFAULT_GRS_BETA,
        repair: bool = True,
        source_language: str | None = None,
        call_table: CallTable | None = None,
        reference_cache: int = DEFAULT_REFERENCE_CACHE,
    ) -> None:
        config = ScorerConfig(
            language, metrics=metrics, tokenizer=tokenizer, smoothing=smoothing,
            epsilon=epsilon, variant=variant, limits=limits, grs_beta=grs_beta,
            repair=repair, source_language=source_language, call_table=call_table,
            reference_cache=reference_cache,
        )
        self._set_up(config, ngrams)

    @classmethod
    def from_config(cls, config: ScorerConfig, *, ngrams: NgramSource = None) -> RubyScorer:
        """The scorer of a :class:`~ruby_metric.scoring.config.ScorerConfig` (what the
        command line builds from its options) and an n-gram set, as ``ngrams`` of
        :class:`RubyScorer`.

        >>> from ruby_metric.scoring.config import ScorerConfig
        >>> RubyScorer.from_config(ScorerConfig("java", grs_beta=1)).signature() == (
        ...     RubyScorer("java", grs_beta=1).signature())
        True

        Raises ``TypeError`` when ``config`` is not a ``ScorerConfig`` (a language's name
        goes to ``RubyScorer(language)`` instead).
        """
        if not isinstance(config, ScorerConfig):
            raise TypeError(
                f"RubyScorer.from_config takes a ScorerConfig, not {type(config).__name__} "
                f"{config!r}: use ScorerConfig(...) or RubyScorer(...) with the options"
            )
        scorer = cls.__new__(cls)
        scorer._set_up(config, ngrams)
        return scorer

    def _set_up(self, config: ScorerConfig, ngrams: NgramSource) -> None:
        #: the options, checked (shared with the batch engine's pair scorer)
        self.config = config
        self._explicit_ngrams = ngrams is not None
        # across languages only structure compares: no n-grams
        self.ngram_set = (
            None if config.source_language is not None
            else resolve_ngram_set(ngrams, config.language, config.default_tokenizer)
        )
        given = self.ngram_set if self._explicit_ngrams else None
        #: what scores each pair, here and in worker processes
        self.pair_scorer = PairScorer(config, functools.partial(no_set_reason, given=given))
        given_for_pairs = (self._explicit_ngrams and self.ngram_set is not None
                           and self.language is None and self.tokenizer_choice is None)
        # A set given for a run whose pairs name their languages applies to the pairs
        # tokenized as it was counted (crystal_sets.fits): its own tokenizer, not "code".
        self._crystal = self._crystalbleu_for(
            self.ngram_set, self.ngram_set.tokenizer if given_for_pairs else None)
        self._pool: WorkerPool | None = None

    # -- the options (those of ``config``) ------------------------------------------------

    @property
    def language(self) -> str | None:
        """The candidates' canonical language."""
        return self.config.language

    @property
    def source_language(self) -> str | None:
        """The sources' canonical language, when scoring against the source."""
        return self.config.source_language

    @property
    def call_table(self) -> CallTable | None:
        """The call table of the neutral map (``None``: the default one)."""
        return self.config.call_table

    @property
    def repair(self) -> bool:
        """Whether almost-code gets the structural tiers."""
        return self.config.repair

    @property
    def grs_beta(self) -> float:
        """GRS's recall weight."""
        return self.config.grs_beta

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics reported, in table order."""
        return self.config.metrics

    @property
    def tokenizer_choice(self) -> str | None:
        """The tokenizer set explicitly (``None``: each language's default)."""
        return self.config.tokenizer

    @property
    def tokenizer(self) -> str:
        """The tokenizer of a pair in :attr:`language`."""
        return self.config.default_tokenizer

    @property
    def smoothing(self) -> str:
        """BLEU smoothing."""
        return self.config.smoothing

    @property
    def epsilon(self) -> float:
        """The smoothing's epsilon."""
        return self.config.epsilon

    @property
    def variant(self) -> str:
        """CrystalBLEU's variant."""
        return self.config.variant

    @property
    def limits(self) -> Limits:
        """Size limits per tier."""
        return self.config.limits

    @property
    def reference_cache(self) -> ReferenceCache:
        """The references' representations kept in this process (empty when pickled)."""
        return self.pair_scorer.reference_cache

    @property
    def bleu_metric(self) -> crystal.CrystalBLEU:
        """BLEU, with this scorer's smoothing (and what scores summed statistics)."""
        return self.pair_scorer.bleu_metric

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
        return RubyScorer.from_config(
            dataclasses.replace(self.config, language=language), ngrams=ngrams)

    def tokenizer_for(self, language: str | None) -> str:
        """The tokenizer of a pair in ``language`` (canonical): the one set explicitly, else
        that language's default (``"code-python"`` for Python, ``"code"`` otherwise).

        >>> s = RubyScorer("java")
        >>> s.tokenizer_for("java"), s.tokenizer_for("python")
        ('code', 'code-python')
        >>> RubyScorer("java", tokenizer="whitespace").tokenizer_for("python")
        'whitespace'
        """
        return self.config.tokenizer_for(language)

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
        return self.pair_scorer.score_detailed(
            reference, candidate, pair_id, language, cbleu, codes=codes, explain=explain)

    def _codes(
        self, reference: Reference, candidate: str, language: str | None
    ) -> tuple[list[Code], Code]:
        """Both sides as :class:`Code` (:meth:`PairScorer.codes
        <ruby_metric.scoring.pair_scorer.PairScorer.codes>`)."""
        return self.pair_scorer.codes(reference, candidate, language)

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
            graph_tier=next(t for t in self.pair_scorer.tiers if isinstance(t, GraphTier)),
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
        return ScoreStream(self.pair_scorer, cbleus, scored, workers, executor, keep_pairs, watch,
                           pools=self.worker_pool)

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
        # these passes read the pairs again to score them: that pass alone warns
        with rereading():
            languages = {self.pair_language(p) for p in pairs()}
        languages.discard(UNKNOWN_LANGUAGE)
        for lang in sorted(languages, key=str):
            if self._crystal is not None and lang == self.language:
                out[lang] = self._crystal
                continue
            tokenizer = self.tokenizer_for(lang)
            ngram_set = shipped_for(lang, tokenizer)
            if ngram_set is None:
                with rereading():  # the texts are read as the set counts them
                    texts = reference_texts(pairs(), lang, self.pair_language)
                    ngram_set = corpus_ngram_set(texts, lang, tokenizer)
            out[lang] = self._crystalbleu_for(ngram_set, tokenizer)
        return out

    def pair_language(self, pair: PairInput) -> str | None:
        """The canonical language a pair is scored in (its own, else the scorer's)."""
        return self.pair_scorer.language_of(pair.language)

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
        return self.pair_scorer.signature_of(ngram_sets, languages)


__all__ = ["RubyScorer", "Limits", "NotApplicable"]
