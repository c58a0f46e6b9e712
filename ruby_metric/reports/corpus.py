"""A whole evaluation at a glance: one self-contained HTML page for a scored corpus.

The page (``ruby-metric report``, :func:`report`, :func:`corpus_html`; drawn by
:mod:`ruby_metric.pages.corpus_page`) holds

- the corpus summary: every metric's corpus score (the numbers of ``score --format json``),
  how many pairs each tier scored, and the signature;
- a histogram per metric with its mean marked (and, for the BLEUs, the corpus-level score);
- why the higher tiers did not apply, grouped by kind (parse error, empty code, too large,
  no statements, ...) with counts and an example each;
- RUBY against BLEU and CrystalBLEU, one point per pair (a 2-D binned density beyond a few
  thousand pairs), so the pairs where they disagree stand out, and a table of the largest
  disagreements;
- the N lowest-scoring pairs, each in a collapsible ``<details>`` with both snippets and the
  evidence of ``ruby-metric explain`` (the explain builder and the pair page's sections).

It is built from the stream of results in one pass: only binned counts, a bounded sample of
points and the N worst pairs' text are kept, so 100,000 pairs give a page of the same size as
1,000 (the worst pairs' explanations dominate it). Like the pair page it has no script and a
Content-Security-Policy that forbids fetching anything, and it is a pure function of its
input: the same corpus gives a byte-identical page (no timestamp).
"""

from __future__ import annotations

import heapq
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..io.inputs import PairInput
from ..io.systems import SystemsInput
from ..meta.pair_scores import scoring_metric
from ..pages.corpus_page import DISAGREEMENTS, HIST_BINS, render_report
from ..pages.html_text import write_page
from ..pages.page_parts import GRID_BINS, MAX_POINTS
from ..pages.plots import bin_index
from ..scoring.code import canonical_language
from ..scoring.metrics import CORPUS_METRICS, METRICS, TIER_METRICS
from ..scoring.missing import missing_of
from ..scoring.results import CorpusResult, PairResult
from .reasons import reason_kind
from .systems import SystemSummary, system_summaries

if TYPE_CHECKING:
    from ..api.explain import Explanation
    from ..api.scorer import Reference, RubyScorer
    from ..batch.heartbeat import LongPair

__all__ = [
    "CorpusReport",
    "Histogram",
    "ReasonGroup",
    "ReportBuilder",
    "Scatter",
    "WorstPair",
    "corpus_html",
    "reason_kind",
    "report",
    "report_stream",
]

logger = logging.getLogger(__name__)


#: What the reasons section groups: the structural tiers, then problems with a whole pair.
_REASON_METRICS = tuple(TIER_METRICS.values())

# -- the report's records ---------------------------------------------------------------------


@dataclass(frozen=True)
class Histogram:
    """One metric's distribution over the pairs where it is defined.

    Attributes
    ----------
    metric : the metric.
    counts : pairs per bin, :data:`HIST_BINS` equal bins of [0, 1] (1.0 in the last).
    n : pairs where the metric is defined.
    ones : pairs scoring exactly 1.0.
    mean : the mean over those pairs (for RUBY and the tiers, the corpus score).
    corpus : the corpus-level score for CrystalBLEU and BLEU (``None`` for the others).
    """

    metric: str
    counts: tuple[int, ...]
    n: int
    ones: int
    mean: float | None
    corpus: float | None = None


@dataclass(frozen=True)
class Scatter:
    """RUBY (y) against another metric (x), per pair.

    Attributes
    ----------
    x, y : the metrics.
    n : pairs where both are defined.
    points : ``(id, x, y, tier)`` per pair, in input order, when ``n`` is at most
        :data:`MAX_POINTS`; else ``None`` and the page draws ``grid``.
    grid : ``grid[i][j]`` = pairs with x in bin ``i`` and y in bin ``j`` of :data:`GRID_BINS`.
    """

    x: str
    y: str
    n: int
    points: tuple[tuple[Any, float, float, str | None], ...] | None
    grid: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class ReasonGroup:
    """Pairs whose higher tiers did not apply, for one kind of reason.

    Attributes
    ----------
    kind : from :func:`reason_kind`, or ``"unreadable pair"`` / ``"worker crash"`` for pairs
        that could not be scored at all.
    pairs : how many pairs have at least one reason of this kind.
    by_metric : metric -> pairs where that metric is n/a for this kind.
    by_side : ``"candidate"``, ``"reference"``, ``"both"``, ``"pair"`` -> pairs with a
        reason of this kind on that side.
    example_id, example_metric, example_reason : the first such pair in input order.
    """

    kind: str
    pairs: int
    by_metric: dict[str, int]
    by_side: dict[str, int]
    example_id: Any
    example_metric: str
    example_reason: str


@dataclass(frozen=True)
class WorstPair:
    """One of the lowest-scoring pairs, with its text and its explanation.

    Attributes
    ----------
    rank : 1 for the lowest score.
    index : the pair's 0-based position in the input.
    result : its scores.
    reference, candidate : its text (a list when it has several references).
    explanation : the evidence of ``ruby-metric explain``, or ``None`` (``note`` says why).
    note : why there is no explanation.
    language : the pair's own language (JSONL ``language``), ``None`` for the scorer's.
    extra : the pair's system and label, by the fields that named them (``{"model": "m",
        "passed": False}``); shown as columns of the table.
    """

    rank: int
    index: int
    result: PairResult
    reference: str | list[str] | None
    candidate: str | None
    explanation: Explanation | None = field(default=None, repr=False)
    note: str | None = None
    language: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CorpusReport:
    """Everything the corpus page shows; :meth:`to_html` renders it.

    Attributes
    ----------
    corpus : the corpus aggregates (the numbers of ``score --format json``).
    histograms : one per metric scored.
    scatters : RUBY against BLEU and against CrystalBLEU.
    reasons : why the higher tiers did not apply, most frequent kind first.
    worst : the lowest-scoring pairs by ``worst_by``, lowest first.
    worst_by : the metric the worst pairs are ranked by.
    disagreements : the pairs where RUBY and BLEU differ most, largest difference first.
    title : the page's title.
    language : the scorer's language.
    disagreement_pairs : the inputs (texts) of ``disagreements``, in the same order (``None``
        where the text was not given).
    disagreement_indices : the 0-based input positions of ``disagreements``, in order.
    disagreement_extra : the system and label of each of ``disagreements`` (as
        :attr:`WorstPair.extra`; empty without systems).
    systems : one :class:`~ruby_metric.reports.systems.SystemSummary` per system, side by
        side on the page (empty for one system).
    system_field : the field that named the systems.
    extra_fields : the columns of :attr:`WorstPair.extra` (system and label fields).
    source_language : the sources' language when the candidates were scored against their
        sources (the page then names that side "source"), else ``None``.
    explain_command : the command that explains one pair of this input in the terminal,
        ``ID`` where the pair's id goes (e.g. ``ruby-metric explain --jsonl pairs.jsonl
        --pair ID --lang java``); ``None`` when the input is not a file (the page names
        both input forms).
    """

    corpus: CorpusResult
    histograms: tuple[Histogram, ...]
    scatters: tuple[Scatter, ...]
    reasons: tuple[ReasonGroup, ...]
    worst: tuple[WorstPair, ...]
    worst_by: str | None
    disagreements: tuple[PairResult, ...]
    title: str = "RUBY corpus report"
    language: str | None = None
    disagreement_pairs: tuple[PairInput | None, ...] = ()
    disagreement_indices: tuple[int, ...] = ()
    disagreement_extra: tuple[dict[str, Any], ...] = ()
    systems: tuple[SystemSummary, ...] = ()
    system_field: str | None = None
    extra_fields: tuple[str, ...] = ()
    source_language: str | None = None
    explain_command: str | None = None

    def to_html(self) -> str:
        """The self-contained HTML page (see the module docstring); byte-identical for equal
        reports."""
        return render_report(self)

    def write_html(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_html` to ``path`` (UTF-8, ``\\n`` line ends).

        Raises
        ------
        OSError : the file cannot be written.
        """
        write_page(path, self.to_html())


# -- building it from a stream ----------------------------------------------------------------


class _Mean:
    """A compensated running sum (Neumaier): a plotted mean that does not drift."""

    def __init__(self) -> None:
        self.total = 0.0
        self.compensation = 0.0
        self.n = 0

    def add(self, x: float) -> None:
        t = self.total + x
        if abs(self.total) >= abs(x):
            self.compensation += (self.total - t) + x
        else:
            self.compensation += (x - t) + self.total
        self.total = t
        self.n += 1

    def value(self) -> float | None:
        return (self.total + self.compensation) / self.n if self.n else None


@dataclass
class _ScatterAcc:
    x: str
    y: str
    max_points: int
    grid_bins: int
    n: int = 0
    points: list[tuple[Any, float, float, str | None]] | None = field(default_factory=list)
    grid: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.grid = [[0] * self.grid_bins for _ in range(self.grid_bins)]

    def add(self, result: PairResult) -> None:
        xv, yv = getattr(result, self.x), getattr(result, self.y)
        if xv is None or yv is None:
            return
        self.n += 1
        self.grid[bin_index(xv, self.grid_bins)][bin_index(yv, self.grid_bins)] += 1
        if self.points is not None:
            if len(self.points) < self.max_points:
                self.points.append((result.id, xv, yv, result.tier))
            else:
                self.points = None  # too many to draw one by one: the grid takes over

    def done(self) -> Scatter:
        return Scatter(
            x=self.x,
            y=self.y,
            n=self.n,
            points=tuple(self.points) if self.points is not None else None,
            grid=tuple(tuple(col) for col in self.grid),
        )


@dataclass
class _ReasonAcc:
    pairs: int = 0
    by_metric: dict[str, int] = field(default_factory=dict)
    by_side: dict[str, int] = field(default_factory=dict)
    example: tuple[Any, str, str] | None = None


class ReportBuilder:
    """The report's aggregates, folded in one pair at a time (bounded memory).

    Parameters
    ----------
    metrics : the metrics scored (those get a histogram).
    worst : how many lowest-scoring pairs to keep (with their text).
    worst_by : the metric to rank them by (default RUBY, else the first metric scored).
    max_points : scatters with more pairs than this become 2-D densities.

    Examples
    --------
    >>> from ruby_metric.scoring.results import PairResult
    >>> b = ReportBuilder(worst=1)
    >>> b.add(PairResult(id="a", ruby=0.5, tier="tree", trs=0.5, bleu=0.2))
    >>> b.add(PairResult(id="b", ruby=0.9, tier="tree", trs=0.9, bleu=0.8))
    >>> [w.result.id for w in b.worst_pairs()]
    ['a']
    """

    def __init__(
        self,
        *,
        metrics: Sequence[str] = METRICS,
        worst: int = 20,
        worst_by: str | None = None,
        max_points: int = MAX_POINTS,
    ) -> None:
        if worst < 0:
            raise ValueError(f"worst must be >= 0, not {worst}")
        self.metrics = tuple(m for m in METRICS if m in metrics)
        if worst_by is None:
            worst_by = "ruby" if "ruby" in self.metrics else (self.metrics or (None,))[0]
        elif worst_by not in self.metrics:
            raise ValueError(f"cannot rank pairs by {worst_by!r}: it is not among the metrics")
        self.worst_by = worst_by
        self.worst = worst
        self._bins = {m: [0] * HIST_BINS for m in self.metrics}
        self._ones = dict.fromkeys(self.metrics, 0)
        self._means = {m: _Mean() for m in self.metrics}
        self._scatters = [
            _ScatterAcc(x, "ruby", max_points, GRID_BINS)
            for x in ("bleu", "crystalbleu")
            if "ruby" in self.metrics and x in self.metrics
        ]
        self._reasons: dict[str, _ReasonAcc] = {}
        # max-heap by (score, index) through negated keys: the root is the least bad kept
        self._heap: list[tuple[float, int, int, PairResult, PairInput | None]] = []
        # min-heap: smallest gap on top; the pair's input is kept for its text
        self._gaps: list[tuple[float, int, PairResult, PairInput | None]] = []
        self._languages: set[str | None] = set()  # the pairs' own languages (JSONL field)
        self.n = 0

    def add(self, result: PairResult, pair: PairInput | None = None) -> None:
        """Fold one pair's result in; ``pair`` (its input) is kept only if it is among the
        worst so far."""
        index = self.n
        self.n += 1
        if pair is not None and pair.problem is None:
            self._languages.add(pair.language)
        for metric in self.metrics:
            value = getattr(result, metric)
            if value is None:
                continue
            self._bins[metric][bin_index(value, HIST_BINS)] += 1
            self._means[metric].add(value)
            if value == 1.0:
                self._ones[metric] += 1
        for scatter in self._scatters:
            scatter.add(result)
        self._add_reasons(result)
        score = getattr(result, self.worst_by) if self.worst_by else None
        if score is not None and self.worst:
            item = (-score, -index, index, result, pair)
            if len(self._heap) < self.worst:
                heapq.heappush(self._heap, item)
            elif score < -self._heap[0][0]:  # ties keep the earlier pair
                heapq.heapreplace(self._heap, item)
        if result.ruby is not None and result.bleu is not None and result.ruby != result.bleu:
            gap = (abs(result.ruby - result.bleu), -index, result, pair)
            if len(self._gaps) < DISAGREEMENTS:
                heapq.heappush(self._gaps, gap)
            elif gap[0] > self._gaps[0][0]:
                heapq.heapreplace(self._gaps, gap)

    def _add_reasons(self, result: PairResult) -> None:
        reasons = result.reasons
        found: dict[str, tuple[str, str]] = {}  # kind -> (metric, reason) of this pair
        kinds_metrics: set[tuple[str, str]] = set()
        if "input" in reasons or "error" in reasons:
            key = "input" if "input" in reasons else "error"
            kind = "unreadable pair" if key == "input" else "worker crash"
            found[kind] = (key, reasons[key])
            kinds_metrics.add((kind, key))
            sides = {(kind, "pair")}
        else:
            sides: set[tuple[str, str]] = set()
            missing = missing_of(result)  # its tiers score 0 for want of a candidate: counted
            for metric in _REASON_METRICS:
                reason = reasons.get(metric)
                if (reason is None or reason == "not requested"
                        or (getattr(result, metric, None) is not None and reason != missing)):
                    continue  # a tier that applied (its reason says what was repaired)
                kind, side = reason_kind(reason)
                found.setdefault(kind, (metric, reason))
                kinds_metrics.add((kind, metric))
                sides.add((kind, side))
        for kind, (metric, reason) in found.items():
            acc = self._reasons.setdefault(kind, _ReasonAcc())
            acc.pairs += 1
            if acc.example is None:
                acc.example = (result.id, metric, reason)
        for kind, metric in kinds_metrics:
            by = self._reasons[kind].by_metric
            by[metric] = by.get(metric, 0) + 1
        for kind, side in sides:
            by = self._reasons[kind].by_side
            by[side] = by.get(side, 0) + 1

    def worst_pairs(self) -> list[WorstPair]:
        """The kept pairs, lowest score first (ties: input order), not yet explained."""
        kept = sorted(self._heap, key=lambda item: (-item[0], item[2]))
        return [
            WorstPair(
                rank=rank,
                index=index,
                result=result,
                reference=pair.reference if pair is not None else None,
                candidate=pair.candidate if pair is not None else None,
                language=pair.language if pair is not None else None,
            )
            for rank, (_, _, index, result, pair) in enumerate(kept, start=1)
        ]

    def finish(
        self,
        corpus: CorpusResult,
        *,
        explain: Callable[[WorstPair], Explanation] | None = None,
        title: str | None = None,
        language: str | None = None,
        source_language: str | None = None,
        explain_command: str | None = None,
    ) -> CorpusReport:
        """The :class:`CorpusReport`.

        Parameters
        ----------
        corpus : the corpus aggregates of the same pairs.
        explain : explains one worst pair (raising ``ValueError``/``TypeError`` leaves it
            unexplained with a note); ``None`` shows the pairs without explanations.
        title : the page's title.
        language : the scorer's language, shown in the header; without one, the pairs'
            own language when they all name the same.
        source_language, explain_command : as in :class:`CorpusReport`.
        """
        if language is None and len(self._languages) == 1:
            try:
                language = canonical_language(next(iter(self._languages)))
            except ValueError:  # a language the registry does not know: none to name
                language = None
        histograms = []
        for metric in self.metrics:
            mean = self._means[metric]
            histograms.append(
                Histogram(
                    metric=metric,
                    counts=tuple(self._bins[metric]),
                    n=mean.n,
                    ones=self._ones[metric],
                    # RUBY and the tiers: exactly the corpus's mean, as score reports it
                    mean=corpus.means.get(metric, mean.value())
                    if metric not in CORPUS_METRICS
                    else mean.value(),
                    corpus=getattr(corpus, metric) if metric in CORPUS_METRICS else None,
                )
            )
        worst = []
        for item in self.worst_pairs():
            missing = missing_of(item.result)
            if missing is not None:  # nothing to explain: that of "" would read as the pair's
                item = replace(item, note=missing)
            elif explain is not None and item.candidate is not None:
                try:
                    item = replace(item, explanation=explain(item))
                except (TypeError, ValueError) as exc:
                    logger.warning("pair %r: not explained (%s)", item.result.id, exc)
                    item = replace(item, note=f"not explained: {exc}")
            elif item.candidate is None:
                item = replace(item, note="the pair's text was not given")
            worst.append(item)
        reasons = sorted(
            (
                ReasonGroup(
                    kind=kind,
                    pairs=acc.pairs,
                    by_metric=dict(acc.by_metric),
                    by_side=dict(sorted(acc.by_side.items())),
                    example_id=acc.example[0],
                    example_metric=acc.example[1],
                    example_reason=acc.example[2],
                )
                for kind, acc in self._reasons.items()
                if acc.example is not None
            ),
            key=lambda g: (-g.pairs, g.kind),
        )
        gaps = sorted(self._gaps, key=lambda g: (-g[0], -g[1]))
        return CorpusReport(
            corpus=corpus,
            histograms=tuple(histograms),
            scatters=tuple(s.done() for s in self._scatters),
            reasons=tuple(reasons),
            worst=tuple(worst),
            worst_by=self.worst_by,
            disagreements=tuple(g[2] for g in gaps),
            title=title or "RUBY corpus report",
            language=language,
            disagreement_pairs=tuple(g[3] for g in gaps),
            disagreement_indices=tuple(-g[1] for g in gaps),
            source_language=source_language,
            explain_command=explain_command,
        )


# -- entry points -----------------------------------------------------------------------------


def report_stream(
    scorer: RubyScorer,
    pairs: Callable[[], Iterable[PairInput]],
    *,
    workers: int = 1,
    executor: Any = None,
    worst: int = 20,
    worst_by: str | None = None,
    title: str | None = None,
    progress: Callable[[int], None] | None = None,
    systems: SystemsInput | None = None,
    explain_command: str | None = None,
    heartbeat: Callable[[LongPair], None] | None = None,
) -> CorpusReport:
    """Score a stream of pairs and build the corpus report, in bounded memory.

    Parameters
    ----------
    scorer : the configured scorer.
    pairs : a function giving a fresh iterable of the pairs each call (as
        :meth:`RubyScorer.stream <ruby_metric.api.scorer.RubyScorer.stream>` takes); it is
        called once more than the scorer needs, to pair each result with its text.
    workers, executor : as for :meth:`RubyScorer.score_corpus`.
    worst : how many lowest-scoring pairs to show with their explanation (default 20).
    worst_by : rank them by this metric (default RUBY).
    title : the page's title.
    progress : called with the number of pairs scored so far, after each pair.
    systems : the pairs' rows with their systems and labels (one per pair, in order): the
        page then has a row per system side by side, and the worst pairs' table a column
        for the system and the label (the per-system scores keep every result in memory).
    explain_command : the command that explains one pair of this input, ``ID`` for its id
        (the page's hints give it); ``None`` for input that is not a file.
    heartbeat : called while a pair runs long (as :meth:`RubyScorer.stream
        <ruby_metric.api.scorer.RubyScorer.stream>` takes it).

    Returns
    -------
    CorpusReport: ``.to_html()`` is the page; ``.corpus`` the same aggregates as
    ``scorer.score_corpus``.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> from ruby_metric.io.inputs import PairInput
    >>> data = [PairInput(0, "int x = 1;", "int x = 2;"), PairInput(1, "f(a);", "f(a);")]
    >>> rep = report_stream(RubyScorer("java"), lambda: iter(data), worst=1)
    >>> rep.corpus.summary()["pairs"], rep.worst[0].result.id
    (2, 0)
    """
    builder = ReportBuilder(metrics=scorer.metrics, worst=worst, worst_by=worst_by)
    split = systems is not None and bool(systems.system_field)
    run = scorer.stream(pairs, workers=workers, executor=executor, keep_pairs=split,
                        heartbeat=heartbeat)
    inputs = iter(pairs())
    for result in run:
        # results come in input order, one per pair: the next input is this result's
        builder.add(result, next(inputs, None))
        if progress is not None:
            progress(run.count)
    corpus = run.corpus()
    # The worst pairs are explained with the n-gram set each language was scored with
    # (shipped, given, or built from this corpus's references), which only the run knows.
    rep = builder.finish(
        corpus,
        explain=_explainer(scorer, run.ngram_set_for),
        title=title,
        language=scorer.language,
        source_language=scorer.source_language,
        explain_command=explain_command,
    )
    if systems is None:
        return rep
    return replace(
        rep,
        worst=tuple(replace(w, extra=systems.extras(w.index)) for w in rep.worst),
        disagreement_extra=tuple(systems.extras(i) for i in rep.disagreement_indices),
        systems=system_summaries(systems, corpus, scoring_metric(scorer)) if split else (),
        system_field=systems.system_field,
        extra_fields=tuple(systems.extra_fields),
    )


def report(
    scorer: RubyScorer,
    references: Sequence[Reference],
    candidates: Sequence[str],
    *,
    ids: Sequence[Any] | None = None,
    languages: Sequence[str | None] | None = None,
    workers: int = 1,
    worst: int = 20,
    worst_by: str | None = None,
    title: str | None = None,
) -> CorpusReport:
    """Score aligned references and candidates and build the corpus report.

    Parameters
    ----------
    scorer : the configured scorer.
    references, candidates, ids, languages, workers : as for
        :meth:`RubyScorer.score_corpus <ruby_metric.api.scorer.RubyScorer.score_corpus>`.
    worst, worst_by, title : as for :func:`report_stream`.

    Returns
    -------
    CorpusReport

    Raises
    ------
    ValueError : the sequences have different lengths.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> rep = report(RubyScorer("java"), ["int x = 1;"], ["int x = 2;"])
    >>> page = rep.to_html()
    >>> page.startswith("<!DOCTYPE html>"), "int x = 2;" in page
    (True, True)
    """
    n = len(references)
    for name, seq in (("candidates", candidates), ("ids", ids), ("languages", languages)):
        if seq is not None and len(seq) != n:
            raise ValueError(f"{n} references but {len(seq)} {name}")
    pair_ids = list(ids) if ids is not None else list(range(n))
    langs = list(languages) if languages is not None else [None] * n
    data = [
        PairInput(i, r, c, lang)
        for i, r, c, lang in zip(pair_ids, references, candidates, langs, strict=True)
    ]
    return report_stream(
        scorer,
        lambda: iter(data),
        workers=workers,
        worst=worst,
        worst_by=worst_by,
        title=title,
    )


def corpus_html(
    corpus: CorpusResult,
    references: Sequence[Reference] | None = None,
    candidates: Sequence[str] | None = None,
    *,
    scorer: RubyScorer | None = None,
    worst: int = 20,
    title: str | None = None,
) -> str:
    """The corpus page of an already scored :class:`CorpusResult` (its pairs kept).

    Parameters
    ----------
    corpus : from ``scorer.score_corpus(...)``.
    references, candidates : the texts scored, aligned with ``corpus.pairs``; without them
        the worst pairs are listed by id and score only.
    scorer : the scorer that produced ``corpus``; with it (and the texts) the worst pairs
        carry their explanation.
    worst : how many lowest-scoring pairs to show.
    title : the page's title.

    Returns
    -------
    str: the HTML page.

    Raises
    ------
    ValueError : the texts are not aligned with the pairs.
    """
    n = len(corpus.pairs)
    if (references is None) != (candidates is None):
        raise ValueError("give both references and candidates, or neither")
    if references is not None and (len(references) != n or len(candidates or ()) != n):
        raise ValueError(
            f"{n} pairs but {len(references)} references and {len(candidates or ())} candidates"
        )
    metrics = scorer.metrics if scorer is not None else _metrics_of(corpus)
    builder = ReportBuilder(metrics=metrics, worst=worst)
    for i, result in enumerate(corpus.pairs):
        pair = None
        if references is not None and candidates is not None:
            pair = PairInput(result.id, references[i], candidates[i])
        builder.add(result, pair)
    explain = _explainer(scorer, None) if scorer is not None else None
    language = scorer.language if scorer is not None else None
    source_language = scorer.source_language if scorer is not None else None
    return builder.finish(corpus, explain=explain, title=title, language=language,
                          source_language=source_language).to_html()


def _metrics_of(corpus: CorpusResult) -> tuple[str, ...]:
    """The metrics a corpus carries: those defined for some pair (or scored at corpus level)."""
    return tuple(
        m
        for m in METRICS
        if corpus.counts.get(m) or (m in CORPUS_METRICS and getattr(corpus, m) is not None)
    )


def _explainer(
    scorer: RubyScorer, ngram_set_for: Callable[[str | None], Any] | None
) -> Callable[[WorstPair], Explanation]:
    """Explains a worst pair with the scorer's settings, in the pair's own language and with
    the n-gram set the run scored that language with."""
    scorers: dict[str | None, RubyScorer] = {}

    def explain(item: WorstPair) -> Explanation:
        language = scorer.language
        if item.language:
            # a JSONL pair may name its own language: explain it in that one
            language = canonical_language(item.language)
        if language not in scorers:
            ngram_set = ngram_set_for(language) if ngram_set_for is not None else None
            if language == scorer.language and (ngram_set is None or ngram_set is scorer.ngram_set):
                scorers[language] = scorer
            else:
                scorers[language] = scorer.with_language(language, ngrams=ngram_set)
        chosen = scorers[language]
        if chosen.source_language is not None:  # scored against the source: explain so
            assert isinstance(item.reference, str)
            return chosen.explain_source(item.reference, item.candidate)
        return chosen.explain(item.reference, item.candidate)

    return explain
