"""A whole evaluation at a glance: one self-contained HTML page for a scored corpus.

The page (``ruby-metric report``, :func:`report`, :meth:`CorpusResult.to_html
<ruby_metric.results.CorpusResult.to_html>`) holds

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
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from . import __version__
from .explain import METRIC_NAMES
from .html_report import PAGE_CSS, escape_html, render_pair_sections
from .inputs import PairInput
from .results import METRICS, TIER_METRICS, CorpusResult, PairResult
from .svg_plots import Mark, Point, bin_index, density_svg, histogram_svg, scatter_svg

if TYPE_CHECKING:
    from .explain import Explanation
    from .scorer import Reference, RubyScorer

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

#: Bins of each histogram over [0, 1].
HIST_BINS = 20
#: Beyond this many pairs a scatter is drawn as a 2-D binned density instead of points.
MAX_POINTS = 3000
#: Cells per axis of a density grid.
GRID_BINS = 30
#: Rows of the table of pairs where RUBY and BLEU disagree most.
DISAGREEMENTS = 10

#: Metrics whose corpus score is computed from summed statistics, not a mean of pair scores.
_CORPUS_LEVEL = ("crystalbleu", "bleu")
#: What the reasons section groups: the structural tiers, then problems with a whole pair.
_REASON_METRICS = ("grs", "trs", "sts")

# Reason texts -> kinds, first match wins. The texts come from graphs.parse and the tiers.
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("empty code", re.compile(r"empty code")),
    (
        "parse error",
        re.compile(r"parse error|missing .* at line|unmatched '|is never closed|no clean parse"),
    ),
    ("too large", re.compile(r"larger than the limit|longer than the limit|token edits between")),
    ("no statements", re.compile(r"no statements")),
    ("no language", re.compile(r"no language given")),
)
_SIDE = re.compile(r"^(candidate|reference(?: \d+)?|both): ")


def reason_kind(reason: str) -> tuple[str, str]:
    """The kind of a "not applicable" reason and the side it is on.

    Parameters
    ----------
    reason : a pair's reason text, as in :attr:`PairResult.reasons`.

    Returns
    -------
    ``(kind, side)``: kind is ``"parse error"``, ``"empty code"``, ``"too large"``,
    ``"no statements"``, ``"no language"`` or ``"other"``; side is ``"candidate"``,
    ``"reference"``, ``"both"`` or ``"pair"`` (a limit on the pair, not on one side).

    Examples
    --------
    >>> reason_kind("candidate: parse error at line 3, col 14")
    ('parse error', 'candidate')
    >>> reason_kind("reference 2: no statements")
    ('no statements', 'reference')
    """
    match = _SIDE.match(reason)
    side = "pair"
    if match:
        side = "reference" if match.group(1).startswith("reference") else match.group(1)
    for kind, pattern in _KINDS:
        if pattern.search(reason):
            return kind, side
    return "other", side


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
    """

    rank: int
    index: int
    result: PairResult
    reference: str | list[str] | None
    candidate: str | None
    explanation: Explanation | None = field(default=None, repr=False)
    note: str | None = None
    language: str | None = None


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
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(self.to_html())


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
    >>> from ruby_metric.results import PairResult
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
        self._gaps: list[tuple[float, int, PairResult]] = []  # min-heap: smallest gap on top
        self.n = 0

    def add(self, result: PairResult, pair: PairInput | None = None) -> None:
        """Fold one pair's result in; ``pair`` (its input) is kept only if it is among the
        worst so far."""
        index = self.n
        self.n += 1
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
            gap = (abs(result.ruby - result.bleu), -index, result)
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
            for metric in _REASON_METRICS:
                reason = reasons.get(metric)
                if reason is None or reason == "not requested":
                    continue
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
    ) -> CorpusReport:
        """The :class:`CorpusReport`.

        Parameters
        ----------
        corpus : the corpus aggregates of the same pairs.
        explain : explains one worst pair (raising ``ValueError``/``TypeError`` leaves it
            unexplained with a note); ``None`` shows the pairs without explanations.
        title : the page's title.
        language : the scorer's language, shown in the header.
        """
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
                    if metric not in _CORPUS_LEVEL
                    else mean.value(),
                    corpus=getattr(corpus, metric) if metric in _CORPUS_LEVEL else None,
                )
            )
        worst = []
        for item in self.worst_pairs():
            if explain is not None and item.candidate is not None:
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
) -> CorpusReport:
    """Score a stream of pairs and build the corpus report, in bounded memory.

    Parameters
    ----------
    scorer : the configured scorer.
    pairs : a function giving a fresh iterable of the pairs each call (as
        :meth:`RubyScorer.stream <ruby_metric.scorer.RubyScorer.stream>` takes); it is
        called once more than the scorer needs, to pair each result with its text.
    workers, executor : as for :meth:`RubyScorer.score_corpus`.
    worst : how many lowest-scoring pairs to show with their explanation (default 20).
    worst_by : rank them by this metric (default RUBY).
    title : the page's title.
    progress : called with the number of pairs scored so far, after each pair.

    Returns
    -------
    CorpusReport: ``.to_html()`` is the page; ``.corpus`` the same aggregates as
    ``scorer.score_corpus``.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> from ruby_metric.inputs import PairInput
    >>> data = [PairInput(0, "int x = 1;", "int x = 2;"), PairInput(1, "f(a);", "f(a);")]
    >>> rep = report_stream(RubyScorer("java"), lambda: iter(data), worst=1)
    >>> rep.corpus.summary()["pairs"], rep.worst[0].result.id
    (2, 0)
    """
    builder = ReportBuilder(metrics=scorer.metrics, worst=worst, worst_by=worst_by)
    run = scorer.stream(pairs, workers=workers, executor=executor, keep_pairs=False)
    inputs = iter(pairs())
    for result in run:
        # results come in input order, one per pair: the next input is this result's
        builder.add(result, next(inputs, None))
        if progress is not None:
            progress(run.count)
    corpus = run.corpus()
    # The worst pairs are explained with the n-gram set each language was scored with
    # (shipped, given, or built from this corpus's references), which only the run knows.
    return builder.finish(
        corpus,
        explain=_explainer(scorer, getattr(run, "_cbleus", None)),
        title=title,
        language=scorer.language,
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
        :meth:`RubyScorer.score_corpus <ruby_metric.scorer.RubyScorer.score_corpus>`.
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
    return builder.finish(corpus, explain=explain, title=title, language=language).to_html()


def _metrics_of(corpus: CorpusResult) -> tuple[str, ...]:
    """The metrics a corpus carries: those defined for some pair (or scored at corpus level)."""
    return tuple(
        m
        for m in METRICS
        if corpus.counts.get(m) or (m in _CORPUS_LEVEL and getattr(corpus, m) is not None)
    )


def _explainer(
    scorer: RubyScorer, cbleus: dict[str | None, Any] | None
) -> Callable[[WorstPair], Explanation]:
    """Explains a worst pair with the scorer's settings, in the pair's own language and with
    the n-gram set the run scored that language with."""
    scorers: dict[str | None, RubyScorer] = {}

    def explain(item: WorstPair) -> Explanation:
        language = scorer.language
        if item.language:
            # a JSONL pair may name its own language: explain it in that one
            import graphs

            language = graphs.get_language(item.language).name
        if language not in scorers:
            metric = (cbleus or {}).get(language)
            ngram_set = metric.ngrams if metric is not None else None
            if language == scorer.language and (ngram_set is None or ngram_set is scorer.ngram_set):
                scorers[language] = scorer
            else:
                from .scorer import RubyScorer

                scorers[language] = RubyScorer(
                    language,
                    ngrams=ngram_set,
                    metrics=scorer.metrics,
                    tokenizer=scorer.tokenizer,
                    smoothing=scorer.smoothing,
                    epsilon=scorer.epsilon,
                    variant=scorer.variant,
                    limits=scorer.limits,
                )
        return scorers[language].explain(item.reference, item.candidate)

    return explain


# -- the page ---------------------------------------------------------------------------------

REPORT_CSS = """
nav.toc { margin: 6px 0 0; font-size: 13px; }
nav.toc a { margin-right: 14px; color: #1f5fbf; text-decoration: none; }
table.summary { width: auto; min-width: 520px; }
table.summary td.num, table td.num { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; text-align: right; }
.sig { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #374151;
  word-break: break-all; }
.plots { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 6px;
  padding: 8px 10px; }
figcaption { font-size: 12.5px; color: #374151; max-width: 400px; }
figcaption b { color: #111827; }
svg.plot { display: block; max-width: 100%; height: auto; }
svg.plot text { font: 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  fill: #374151; }
svg.plot .frame { fill: #fff; stroke: #d1d5db; }
svg.plot .bar { fill: #5b8def; }
svg.plot .tickline { stroke: #9ca3af; }
svg.plot line.mark-mean { stroke: #7c3aed; stroke-width: 2; }
svg.plot line.mark-corpus { stroke: #b45309; stroke-width: 2; stroke-dasharray: 5 3; }
svg.plot text.mark-mean { fill: #7c3aed; font-weight: 600; }
svg.plot text.mark-corpus { fill: #b45309; font-weight: 600; }
svg.plot .diag { stroke: #9ca3af; stroke-dasharray: 4 3; }
svg.plot .pt { fill-opacity: 0.55; stroke: none; }
svg.plot .pt-graph, .sw-graph { fill: #7c3aed; background: #7c3aed; }
svg.plot .pt-tree, .sw-tree { fill: #2e7d32; background: #2e7d32; }
svg.plot .pt-string, .sw-string { fill: #d9822b; background: #d9822b; }
svg.plot .pt-a { fill: #1f5fbf; }
svg.plot .cell { fill: #5b21b6; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 5px;
  margin: 0 4px 0 10px; vertical-align: middle; }
.tierbar { display: flex; height: 18px; max-width: 620px; border-radius: 3px; overflow: hidden;
  background: #eceff3; margin: 6px 0; }
.tierbar div { height: 100%; }
details.pair > summary { font-weight: 500; }
details.pair > summary b { font-weight: 700; }
details.pair h2 { font-size: 14px; margin: 14px 0 6px; }
.pair-body { margin-top: 8px; }
@media print {
  body { background: #fff; padding: 0; }
  nav.toc { display: none; }
  figure, .panel, details, tr { break-inside: avoid; }
}
"""

_TIER_LABELS = {"graph": "graph (GRS)", "tree": "tree (TRS)", "string": "string (STS)"}


def _esc(text: object) -> str:
    return escape_html(text)


def format_score(value: float | None) -> str:
    """A score to 4 decimals, ``n/a`` for ``None``."""
    return "n/a" if value is None else f"{value:.4f}"


def score_cell(value: float | None, *, extra_class: str = "") -> str:
    """A table cell showing a score to 4 decimals, its exact value in ``data-value``.

    >>> score_cell(0.5), score_cell(None)
    ('<td class="num" data-value="0.5">0.5000</td>', '<td class="num">n/a</td>')
    """
    # data-value carries the exact number (repr round-trips), the text 4 decimals
    exact = "" if value is None else f' data-value="{value!r}"'
    cls = f"num {extra_class}" if extra_class else "num"
    return f'<td class="{cls}"{exact}>{format_score(value)}</td>'


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def page_head(title: str) -> str:
    """The start of a report page up to ``<body>``: charset, the no-fetch CSP, the styles.

    >>> page_head("x").startswith("<!DOCTYPE html>")
    True
    """
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        # Nothing may be fetched or run: the page is one file, whatever the code in it says.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_esc(title)}</title>\n<style>{PAGE_CSS}{REPORT_CSS}</style>\n</head>\n<body>\n"
    )


def render_report(rep: CorpusReport) -> str:
    """The HTML page of a :class:`CorpusReport` (pure: equal reports, equal bytes)."""
    summary = rep.corpus.summary()
    meta = [f"{summary['pairs']:,} pairs", f"language: {rep.language or 'per pair'}"]
    sections = [("summary", "Summary"), ("histograms", "Distributions")]
    sections.append(("reasons", "Why tiers did not apply"))
    if rep.scatters:
        sections.append(("scatter", "RUBY vs BLEU"))
    sections.append(("worst", "Lowest-scoring pairs"))
    toc = "".join(f'<a href="#{key}">{_esc(name)}</a>' for key, name in sections)
    parts = [
        page_head(rep.title),
        f"<header>\n<h1>{_esc(rep.title)}</h1>\n",
        f'<p class="meta">{_esc(" · ".join(meta))}</p>\n',
        f'<nav class="toc">{toc}</nav>\n</header>\n',
        _summary_section(rep),
        _histogram_section(rep),
        _reasons_section(rep),
        _scatter_section(rep) if rep.scatters else "",
        _worst_section(rep),
        f"<footer>ruby-metric {_esc(__version__)}</footer>\n</body>\n</html>\n",
    ]
    return "".join(parts)


def _summary_section(rep: CorpusReport) -> str:
    s = rep.corpus.summary()
    n = s["pairs"]
    rows = []
    for metric in METRICS:
        if metric not in {h.metric for h in rep.histograms}:
            continue
        how = "corpus-level (summed statistics)" if metric in _CORPUS_LEVEL else "mean over pairs"
        defined = s["counts"].get(metric, 0)
        rows.append(
            f'<tr id="sum-{metric}"><td><b>{METRIC_NAMES[metric]}</b></td>'
            f"{score_cell(s.get(metric))}<td>{how}</td>"
            f'<td class="num" data-value="{defined}">{defined:,}</td>'
            f'<td class="num">{_pct(defined, n)}</td></tr>'
        )
    table = (
        '<table class="summary"><tr><th>metric</th><th>score</th><th>how</th>'
        f"<th>pairs defined</th><th>share</th></tr>{''.join(rows)}</table>\n"
    )
    tiers = s["tiers"]
    used = sum(tiers.values())
    colors = {"graph": "#7c3aed", "tree": "#2e7d32", "string": "#d9822b"}
    bar = "".join(
        f'<div style="width:{100 * tiers.get(t, 0) / used:.2f}%;background:{colors[t]}" '
        f'title="{_esc(_TIER_LABELS[t])}: {tiers.get(t, 0):,}"></div>'
        for t in TIER_METRICS
        if used and tiers.get(t, 0)
    )
    tier_rows = "".join(
        f'<tr id="tier-{t}"><td><span class="swatch sw-{t}"></span>{_esc(_TIER_LABELS[t])}</td>'
        f'<td class="num" data-value="{tiers.get(t, 0)}">{tiers.get(t, 0):,}</td>'
        f'<td class="num">{_pct(tiers.get(t, 0), n)}</td></tr>'
        for t in TIER_METRICS
    )
    unscored = n - used
    if "ruby" in s["counts"] or used:
        tier_rows += (
            f'<tr id="tier-none"><td>no RUBY (pair unreadable or not requested)</td>'
            f'<td class="num" data-value="{unscored}">{unscored:,}</td>'
            f'<td class="num">{_pct(unscored, n)}</td></tr>'
        )
    return (
        '<section id="summary">\n<h2>Corpus summary</h2>\n'
        + table
        + "<h3>Tier RUBY used</h3>\n"
        + f'<div class="tierbar">{bar}</div>\n'
        + '<table class="summary"><tr><th>tier</th><th>pairs</th><th>share</th></tr>'
        + f"{tier_rows}</table>\n"
        + '<p class="meta">signature: <span class="sig" id="signature">'
        + f"{_esc(s['signature'])}</span></p>\n</section>\n"
    )


def _histogram_section(rep: CorpusReport) -> str:
    figures = []
    n = rep.corpus.summary()["pairs"]
    for h in rep.histograms:
        name = METRIC_NAMES[h.metric]
        marks = []
        if h.mean is not None:
            label = "mean of pairs" if h.metric in _CORPUS_LEVEL else "mean"
            marks.append(Mark(h.mean, f"{label} {h.mean:.4f}"))
        if h.corpus is not None:
            marks.append(Mark(h.corpus, f"corpus {h.corpus:.4f}", "corpus"))
        svg = histogram_svg(h.counts, marks=marks, x_label=name, title=f"{name} histogram")
        caption = f"<b>{name}</b>: defined for {h.n:,} of {n:,} pairs"
        if h.n:
            caption += f"; {h.ones:,} score exactly 1.0"
        if h.corpus is not None:
            caption += "; dashed: the corpus-level score"
        figures.append(
            f'<figure id="hist-{h.metric}">{svg}<figcaption>{caption}</figcaption></figure>\n'
        )
    return (
        '<section id="histograms">\n<h2>Distributions</h2>\n'
        f'<p class="note">{HIST_BINS} bins of width {1 / HIST_BINS:g}; the last holds 1.0. '
        "Hover a bar for its count.</p>\n"
        f'<div class="plots">\n{"".join(figures)}</div>\n</section>\n'
    )


def _reasons_section(rep: CorpusReport) -> str:
    head = '<section id="reasons">\n<h2>Why the higher tiers did not apply</h2>\n'
    if not rep.reasons:
        return head + '<p class="note">Every tier applied to every pair.</p>\n</section>\n'
    metric_cols = [
        m
        for m in (*_REASON_METRICS, "input", "error")
        if any(m in g.by_metric for g in rep.reasons)
    ]
    names = {**METRIC_NAMES, "input": "unreadable", "error": "crashed"}
    header = "".join(f"<th>{_esc(names[m])} n/a</th>" for m in metric_cols)
    rows = []
    for g in rep.reasons:
        cells = "".join(
            f'<td class="num" data-value="{g.by_metric.get(m, 0)}">{g.by_metric.get(m, 0):,}</td>'
            for m in metric_cols
        )
        sides = ", ".join(f"{side} {count:,}" for side, count in g.by_side.items())
        slug = re.sub(r"[^a-z0-9]+", "-", g.kind)
        rows.append(
            f'<tr id="reason-{slug}"><td><b>{_esc(g.kind)}</b></td>'
            f'<td class="num" data-value="{g.pairs}">{g.pairs:,}</td>{cells}'
            f"<td>{_esc(sides)}</td><td>pair <code>{_esc(g.example_id)}</code>, "
            f"{_esc(names.get(g.example_metric, g.example_metric))}: "
            f"<code>{_esc(g.example_reason)}</code></td></tr>"
        )
    return (
        head + '<p class="note">A pair counts once per kind; GRS, TRS and STS columns count the '
        "pairs where that tier is n/a for this kind of reason. Sides: pairs with such a reason "
        "on the candidate, the reference, both (one text on both sides), or the pair as a "
        "whole (a limit on the pair, an unreadable pair).</p>\n"
        + f"<table><tr><th>kind</th><th>pairs</th>{header}<th>sides</th><th>example</th></tr>"
        + "".join(rows)
        + "</table>\n</section>\n"
    )


def _scatter_section(rep: CorpusReport) -> str:
    figures = []
    for sc in rep.scatters:
        xn, yn = METRIC_NAMES[sc.x], METRIC_NAMES[sc.y]
        if sc.points is not None:
            points = [
                Point(x, y, tier or "", f"pair {pid}: {yn} {y:.4f}, {xn} {x:.4f} ({tier})")
                for pid, x, y, tier in sc.points
            ]
            svg = scatter_svg(points, x_label=xn, y_label=yn, title=f"{yn} against {xn}")
            how = "one point per pair, coloured by the tier RUBY used; hover for the pair"
        else:
            svg = density_svg(sc.grid, x_label=xn, y_label=yn, title=f"{yn} against {xn}")
            how = (
                f"{len(sc.grid)}\u00d7{len(sc.grid)} bins, darker = more pairs (log scale); "
                "hover a cell for its count"
            )
        figures.append(
            f'<figure id="scatter-{sc.x}">{svg}<figcaption><b>{yn} against {xn}</b>: '
            f"{sc.n:,} pairs; {how}. Far from the dashed diagonal: the two disagree."
            "</figcaption></figure>\n"
        )
    legend = "".join(
        f'<span class="swatch sw-{t}"></span>{_esc(_TIER_LABELS[t])}' for t in TIER_METRICS
    )
    rows = "".join(
        f"<tr><td><code>{_esc(p.id)}</code></td>{score_cell(p.ruby)}"
        f"<td>{_esc(p.tier or '')}</td>{score_cell(p.bleu)}{score_cell(p.crystalbleu)}"
        f"{score_cell(None if p.ruby is None or p.bleu is None else p.ruby - p.bleu)}</tr>"
        for p in rep.disagreements
    )
    table = ""
    if rows:
        table = (
            f"<h3>Largest disagreements between RUBY and BLEU ({len(rep.disagreements)})</h3>\n"
            '<table id="disagreements"><tr><th>pair</th><th>RUBY</th><th>tier</th>'
            f"<th>BLEU</th><th>CrystalBLEU</th><th>RUBY \u2212 BLEU</th></tr>{rows}</table>\n"
        )
    return (
        '<section id="scatter">\n<h2>RUBY against BLEU and CrystalBLEU</h2>\n'
        f'<p class="legend">{legend}</p>\n'
        f'<div class="plots">\n{"".join(figures)}</div>\n{table}</section>\n'
    )


def _worst_section(rep: CorpusReport) -> str:
    by = METRIC_NAMES.get(rep.worst_by or "", rep.worst_by or "")
    head = (
        f'<section id="worst">\n<h2>The {len(rep.worst)} lowest-scoring pairs by {_esc(by)}</h2>\n'
    )
    if not rep.worst:
        return head + '<p class="note">No pair has a score to rank by.</p>\n</section>\n'
    items = []
    for w in rep.worst:
        r = w.result
        scores = " · ".join(
            f"{METRIC_NAMES[m]} {format_score(getattr(r, m))}"
            for m in METRICS
            if m != rep.worst_by and getattr(r, m) is not None
        )
        tier = f" ({r.tier})" if r.tier and rep.worst_by == "ruby" else ""
        summary = (
            f"#{w.rank} · pair <code>{_esc(r.id)}</code> · <b>{_esc(by)} "
            f"{format_score(getattr(r, rep.worst_by or 'ruby'))}</b>{_esc(tier)} · {_esc(scores)}"
        )
        if w.explanation is not None:
            body = render_pair_sections(w.explanation, id_prefix=f"w{w.rank}-")
        else:
            body = _plain_pair(w)
        items.append(
            f'<details class="pair" id="worst-{w.rank}"><summary>{summary}</summary>'
            f'<div class="pair-body">{body}</div></details>\n'
        )
    return (
        head + '<p class="note">Click a pair to open its explanation: both snippets with the token '
        "edits, the program dependence graphs and every tier's evidence, as "
        "<code>ruby-metric explain</code> shows it.</p>\n" + "".join(items) + "</section>\n"
    )


def _plain_pair(w: WorstPair) -> str:
    """A pair without its explanation: its reasons and its text, escaped."""
    reasons = "".join(
        f"<li>{_esc(METRIC_NAMES.get(k, k))}: {_esc(v)}</li>"
        for k, v in sorted(w.result.reasons.items())
    )
    out = f'<p class="note">{_esc(w.note or "")}</p>'
    if reasons:
        out += f"<ul>{reasons}</ul>"
    if w.candidate is not None:
        refs = w.reference if isinstance(w.reference, list) else [w.reference]
        panels = "".join(
            f'<div class="panel"><h3>Reference{f" {i + 1}" if len(refs) > 1 else ""}</h3>'
            f'<pre class="src">{_esc(ref)}</pre></div>'
            for i, ref in enumerate(refs)
        )
        out += (
            f'<div class="cols">{panels}<div class="panel"><h3>Candidate</h3>'
            f'<pre class="src">{_esc(w.candidate)}</pre></div></div>'
        )
    return out
