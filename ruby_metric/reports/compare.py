"""Model against model on one page: ``ruby-metric meta compare ... --html FILE``.

The page holds

- the significance table of :func:`ruby_metric.meta.compare_results` (both systems' scores,
  the difference with its bootstrap interval, and the three p-values), with the winner of
  each metric marked where the difference is significant;
- per metric, system A's score against system B's for every pair (a 2-D binned density
  beyond a few thousand pairs): points above the diagonal are pairs B does better;
- the pairs where the two systems differ most (by RUBY unless told otherwise), each in a
  collapsible ``<details>`` with the reference and both candidates and their scores.

Like the corpus report it has no script, fetches nothing and is a pure function of its
input (byte-identical for the same systems, references and seed).
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..io.inputs import PairInput
from ..pages.compare_page import render_compare
from ..pages.html_text import write_page
from ..scoring.results import CorpusResult, PairResult

if TYPE_CHECKING:
    from ..api.scorer import Reference, RubyScorer
    from ..meta.significance import ComparisonReport

__all__ = ["ComparePage", "DifferingPair", "compare_page", "compare_report"]


@dataclass(frozen=True)
class DifferingPair:
    """A pair the two systems score far apart.

    Attributes
    ----------
    rank : 1 for the largest difference.
    index : 0-based position in the input.
    reference : the reference text (a list when there are several).
    candidate_a, candidate_b : each system's output.
    result_a, result_b : each output's scores.
    """

    rank: int
    index: int
    reference: Reference
    candidate_a: str
    candidate_b: str
    result_a: PairResult
    result_b: PairResult


@dataclass(frozen=True)
class ComparePage:
    """Everything the comparison page shows; :meth:`to_html` renders it.

    Attributes
    ----------
    comparison : the significance tests.
    corpus_a, corpus_b : each system's corpus aggregates (pairs kept).
    names : how the page names the systems (e.g. their file names).
    differing : the pairs where the systems differ most, largest first.
    differ_by : the metric ``differing`` is ranked by.
    title : the page's title.
    language : the candidates' language (``None``: each pair's own).
    source_language : the sources' language when the candidates were scored against their
        sources (the header says so, the pairs show the source), else ``None``.
    """

    comparison: ComparisonReport
    corpus_a: CorpusResult = field(repr=False)
    corpus_b: CorpusResult = field(repr=False)
    names: tuple[str, str]
    differing: tuple[DifferingPair, ...]
    differ_by: str | None
    title: str = "System comparison"
    language: str | None = None
    source_language: str | None = None

    def to_html(self) -> str:
        """The self-contained HTML page (byte-identical for equal input)."""
        return render_compare(self)

    def write_html(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_html` to ``path`` (UTF-8).

        Raises
        ------
        OSError : the file cannot be written.
        """
        write_page(path, self.to_html())


def compare_report(
    scorer: RubyScorer,
    references: Sequence[Reference],
    system_a: Sequence[str],
    system_b: Sequence[str],
    *,
    names: tuple[str, str] = ("A", "B"),
    ids: Sequence[Any] | None = None,
    trials: int = 10000,
    bootstrap: int = 1000,
    seed: int | None = 0,
    confidence: float = 0.95,
    workers: int = 1,
    top: int = 20,
    differ_by: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> ComparePage:
    """Score two systems on the same references, test their difference, build the page.

    The tests are those of :func:`ruby_metric.meta.compare_systems` with the same
    arguments, so the numbers equal ``meta compare --format json``'s.

    Parameters
    ----------
    scorer : the configured scorer; its metrics are compared.
    references, system_a, system_b : aligned: one reference (or list) and two outputs per
        input.
    names : the systems' names on the page.
    ids : the pairs' ids (a JSONL's ``id``, a file's path), aligned with ``references``;
        the page names pairs by them. Default: 0-based positions.
    trials, bootstrap, seed, confidence, workers : as for ``compare_systems``.
    top : how many of the most differing pairs to show (default 20).
    differ_by : rank them by this metric (default RUBY, else the first metric).
    progress : called with the number of pairs scored so far (both systems: up to 2n).

    Returns
    -------
    ComparePage

    Raises
    ------
    ValueError : the sequences are not aligned, or ``differ_by`` is not scored.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> page = compare_report(RubyScorer("java", metrics=["ruby", "bleu"]),
    ...     ["int x = 1;", "f(a);"], ["int x = 1;", "g(b);"], ["int y = 2;", "f(a);"],
    ...     trials=99, bootstrap=50, top=1)
    >>> page.differing[0].index, page.comparison["ruby"].n
    (1, 2)
    >>> compare_report(RubyScorer("java", metrics=["ruby"]), ["f(a);"], ["g(b);"], ["f(a);"],
    ...     ids=["tasks/7.java"], trials=9, bootstrap=5, top=1).differing[0].result_a.id
    'tasks/7.java'

    """
    from ..meta import compare_results, scoring_metric

    if not len(references) == len(system_a) == len(system_b):
        raise ValueError(
            f"{len(references)} references, {len(system_a)} outputs of A, "
            f"{len(system_b)} outputs of B: they must be aligned"
        )
    if ids is not None and len(ids) != len(references):
        raise ValueError(f"{len(references)} references but {len(ids)} ids")
    pair_ids = list(ids) if ids is not None else list(range(len(references)))
    metrics = list(scorer.metrics)
    if differ_by is None:
        differ_by = "ruby" if "ruby" in metrics else metrics[0]
    elif differ_by not in metrics:
        raise ValueError(f"cannot rank pairs by {differ_by!r}: it is not among the metrics")
    done = 0

    def scored(system: Sequence[str]) -> CorpusResult:
        nonlocal done
        data = [
            PairInput(pid, ref, cand)
            for pid, ref, cand in zip(pair_ids, references, system, strict=True)
        ]
        run = scorer.stream(lambda: data, workers=workers, keep_pairs=True)
        start = done
        for _ in run:
            if progress is not None:
                progress(start + run.count)
        done = start + run.count
        return run.corpus()

    corpus_a = scored(system_a)
    corpus_b = scored(system_b)
    comparison = compare_results(
        corpus_a,
        corpus_b,
        metrics=metrics,
        scoring=scoring_metric(scorer),
        trials=trials,
        bootstrap=bootstrap,
        seed=seed,
        confidence=confidence,
    )
    return compare_page(
        comparison, corpus_a, corpus_b, references, system_a, system_b, names=names,
        top=top, differ_by=differ_by, language=scorer.language,
        source_language=scorer.source_language,
    )


def compare_page(
    comparison: ComparisonReport,
    corpus_a: CorpusResult,
    corpus_b: CorpusResult,
    references: Sequence[Reference],
    system_a: Sequence[str],
    system_b: Sequence[str],
    *,
    names: tuple[str, str] = ("A", "B"),
    top: int = 20,
    differ_by: str | None = None,
    language: str | None = None,
    source_language: str | None = None,
) -> ComparePage:
    """The page of two systems already scored and tested: the ``top`` pairs whose
    ``differ_by`` differs most picked, largest first (ties: the earlier pair).

    Parameters
    ----------
    comparison : the tests of ``corpus_a`` against ``corpus_b``.
    corpus_a, corpus_b : each system's results, with their pairs, aligned with each other
        and with ``references``, ``system_a`` and ``system_b`` (the texts shown).
    names, top : as for :func:`compare_report`.
    differ_by : rank the pairs by this metric of the comparison (default RUBY, else its
        first metric).
    language, source_language : as in :class:`ComparePage`.

    Returns
    -------
    ComparePage

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> from ruby_metric.meta import compare_results
    >>> scorer = RubyScorer("java", metrics=["ruby"])
    >>> a = scorer.score_corpus(["f(a);"], ["g(b);"])
    >>> b = scorer.score_corpus(["f(a);"], ["f(a);"])
    >>> page = compare_page(compare_results(a, b, trials=9, bootstrap=5), a, b, ["f(a);"],
    ...                     ["g(b);"], ["f(a);"], top=1)
    >>> page.differing[0].candidate_a, page.language
    ('g(b);', None)
    """
    if differ_by is None:
        differ_by = "ruby" if "ruby" in comparison.metrics else next(iter(comparison.metrics))
    gaps: list[tuple[float, int]] = []
    for i, (ra, rb) in enumerate(zip(corpus_a.pairs, corpus_b.pairs, strict=True)):
        a, b = getattr(ra, differ_by), getattr(rb, differ_by)
        if a is None or b is None or a == b or top <= 0:
            continue
        item = (abs(a - b), -i)  # min-heap root: smallest gap, latest pair among ties
        if len(gaps) < top:
            heapq.heappush(gaps, item)
        elif item > gaps[0]:
            heapq.heapreplace(gaps, item)
    ranked = sorted(gaps, key=lambda g: (-g[0], -g[1]))
    differing = tuple(
        DifferingPair(
            rank=rank,
            index=-neg,
            reference=references[-neg],
            candidate_a=system_a[-neg],
            candidate_b=system_b[-neg],
            result_a=corpus_a.pairs[-neg],
            result_b=corpus_b.pairs[-neg],
        )
        for rank, (_, neg) in enumerate(ranked, start=1)
    )
    return ComparePage(
        comparison=comparison,
        corpus_a=corpus_a,
        corpus_b=corpus_b,
        names=names,
        differing=differing,
        differ_by=differ_by,
        language=language,
        source_language=source_language,
    )
