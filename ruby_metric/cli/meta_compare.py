"""``ruby-metric meta compare`` with more than two systems, or with ``--jsonl``: every pair of
systems tested on every id (a missing one scores 0), p-values adjusted for the number of
comparisons.

:mod:`ruby_metric.cli.meta` hands the command here (:func:`run_many`) when the systems come
from one JSONL split by ``--system-field``, as folders, or as three or more line-aligned
files; two line-aligned files keep the A-vs-B table of :mod:`~ruby_metric.cli.meta`. With
``--html`` and two systems (of a JSONL, or two folders) the A-vs-B page is drawn from the
same comparison as the table, on the ids both systems have.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import crystal

from ..io.formats import counted
from ..io.inputs import InputError
from ..io.systems import SystemsInput, shown_names
from ..meta.pair_scores import scoring_metric
from ..meta.sample_size import small_sample_warning
from ..meta.significance import ComparisonReport
from ..meta.systems import MultiComparison, compare_many, subset_corpus
from ..pages.compare_page import not_applicable_notes, p_value_text
from ..reports.compare import compare_page
from ..reports.systems import system_summaries
from ..scoring.metrics import label
from ..scoring.results import CorpusResult
from .args import check_writable, output_file, scorer_from_args
from .systems import systems_input, warn_missing

if TYPE_CHECKING:
    from ..api.scorer import RubyScorer

logger = logging.getLogger(__name__)

__all__ = ["run_many", "write_many", "format_table", "warn_small_samples"]


def warn_small_samples(comparisons: list[tuple[str, ComparisonReport]]) -> None:
    """One warning (before the tables) naming the comparisons on too few pairs for any
    difference to be significant, their p-values adjusted for all of them
    (:func:`~ruby_metric.meta.sample_size.small_sample_warning`)."""
    few = small_sample_warning(comparisons, adjusted_for=len(comparisons))
    if few is not None:
        logger.warning("%s", few)


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell: the first left-aligned, the others right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [header, *rows]
    )


def _f(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _adjusted_bootstrap(value: float | None, samples: int, comparisons: int) -> str:
    """An adjusted bootstrap p-value; 0 (no resample against the winner) is a bound: below
    ``comparisons / samples``, as the raw one is below ``1 / samples``."""
    if value == 0 and samples:
        return f"< {comparisons / samples:.2g}"
    return _f(value)


def _systems(args: argparse.Namespace) -> SystemsInput:
    """The systems of a ``meta compare`` run: ``--jsonl`` with ``--system-field``, or REFS
    and line-aligned files."""
    if args.jsonl:
        if args.refs or args.systems:
            raise InputError("give either REFS SYSTEM... or --jsonl FILE, not both")
        if not args.system_field:
            raise InputError(
                "meta compare --jsonl needs --system-field FIELD: the field naming each "
                "pair's system (e.g. model)"
            )
    systems = systems_input(args)
    if systems is None or len(systems.systems) < 2:
        found = ", ".join(systems.systems) if systems is not None else "none"
        raise InputError(f"meta compare needs at least two systems (found: {found})")
    return systems


def run_many(args: argparse.Namespace) -> int:
    """Run ``meta compare`` over every pair of systems; returns the exit status (0).

    Raises
    ------
    InputError : no ``--system-field`` with ``--jsonl``, fewer than two systems, two systems
        with no id in common, or what reading the input raises.
    """
    html = getattr(args, "html", None)
    if html:
        check_writable(html)  # now, not after scoring every system
    systems = _systems(args)
    if html and len(systems.systems) != 2:
        raise InputError(
            f"--html draws one A-vs-B page: {systems.name} has "
            f"{counted(len(systems.systems), 'system')} ({shown_names(systems.systems)}); "
            "give two (or leave out --html for every pair's table)"
        )
    if args.jsonl or not Path(args.refs).is_dir():
        # (system folders: the files a folder lacks were named when it was paired with REFS)
        warn_missing(systems)
    scorer = scorer_from_args(args)
    scoring = scoring_metric(scorer)
    try:
        corpus = scorer.score_pairs([row.pair for row in systems.rows], workers=args.workers)
        try:
            many = compare_many(
                systems, corpus, metrics=list(scorer.metrics), scoring=scoring,
                trials=args.trials, bootstrap=args.bootstrap, seed=args.seed,
                confidence=args.confidence,
            )
        except ValueError as exc:
            raise InputError(f"{systems.name}: {exc}") from None
    finally:
        scorer.close()
    warn_small_samples([(f"{c.a} vs {c.b}", c.report) for c in many.comparisons])
    if html:
        _write_page(html, systems, corpus, many, scorer, args.top)
    with output_file(args.output, whole=True) as out:
        write_many(many, systems, corpus, scoring, args, out)
    return 0


def _write_page(
    path: str,
    systems: SystemsInput,
    corpus: CorpusResult,
    many: MultiComparison,
    scorer: RubyScorer,
    top: int,
) -> None:
    """The A-vs-B page of two systems (``--html``): the comparison the table shows, on the
    ids both systems have, with each pair's source or reference and both candidates (a
    missing translation shown as missing)."""
    (comparison,) = many.comparisons
    shared = systems.shared(comparison.a, comparison.b)
    scoring = scoring_metric(scorer)
    rows = [[x for x, _ in shared], [y for _, y in shared]]
    page = compare_page(
        comparison.report,
        *(subset_corpus(corpus, side, scoring) for side in rows),
        [systems.rows[x].pair.reference for x in rows[0]],
        *([systems.rows[i].pair.candidate for i in side] for side in rows),
        names=(comparison.a, comparison.b), top=top, language=scorer.language,
        source_language=scorer.source_language,
    )
    try:
        page.write_html(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def write_many(
    many: MultiComparison,
    systems: SystemsInput,
    corpus: CorpusResult,
    scoring: crystal.CrystalBLEU,
    args: argparse.Namespace,
    out: TextIO,
) -> None:
    """The table (or with ``-f json`` the JSON) of a :class:`MultiComparison`; ``corpus``
    holds the results of every row of ``systems`` (scored with ``scoring``'s smoothing)."""
    summaries = {s.name: s for s in system_summaries(systems, corpus, scoring)}
    if args.format == "json":
        data: dict[str, Any] = many.to_dict()
        data["system_field"] = systems.system_field
        for name, summary in data["systems"].items():
            summary["unreadable"] = summaries[name].unreadable
            if systems.label_field:
                summary["labels"] = summaries[name].label_text()
        data.update(trials=args.trials, bootstrap=args.bootstrap, seed=args.seed,
                    confidence=args.confidence)
        out.write(json.dumps(data, ensure_ascii=False, allow_nan=False, indent=2) + "\n")
        return
    count = len(many.comparisons)
    out.write(
        f"{counted(len(many.systems), 'system')}"
        + (f" (by {systems.system_field!r})" if systems.system_field else "")
        + f", every pair compared on every id (one a system lacks scores 0 there): "
        f"{counted(count, 'comparison')}; "
        f"'adj' p-values adjusted for {count} (Holm); {args.trials} randomization trials, "
        f"{args.bootstrap} bootstrap resamples, seed {args.seed}\n\n"
    )
    metrics = list(many.comparisons[0].report.metrics)
    header = ["system", "pairs", "unreadable", *[label(m) for m in metrics]]
    if systems.label_field:
        header.append(systems.label_field)
    rows = []
    for name, summary in summaries.items():
        row = [name, str(summary.pairs), str(summary.unreadable)]
        row += [_f(summary.scores[m]) for m in metrics]
        if systems.label_field:
            row.append(summary.label_text())
        rows.append(row)
    out.write(format_table(header, rows) + "\n")
    level = f"{round(args.confidence * 100)}% CI"
    for comparison in many.comparisons:
        report = comparison.report
        out.write(
            f"\nA = {comparison.a}, B = {comparison.b}: "
            f"{counted(report.pairs, 'paired id')}\n"
        )
        header = ["metric", "A", "B", "A-B", level, "p rand", "adj", "p boot", "adj",
                  "p t", "adj", "n"]
        table = []
        for metric, r in report.items():
            adj = comparison.adjusted.get(metric, {})
            table.append([
                label(metric), _f(r.score_a), _f(r.score_b), _f(r.difference),
                "-" if not r.difference_ci else
                f"[{r.difference_ci[0]:.4f}, {r.difference_ci[1]:.4f}]",
                p_value_text(r.p_value_randomization, resamples=r.trials, plus_one=True),
                _f(adj.get("randomization")),
                p_value_text(r.p_value_bootstrap, resamples=r.bootstrap_samples),
                _adjusted_bootstrap(adj.get("bootstrap"), r.bootstrap_samples, count),
                p_value_text(r.p_value_ttest), _f(adj.get("ttest")), str(r.n),
            ])
        out.write(format_table(header, table) + "\n")
        for note in not_applicable_notes(report):
            out.write(note + "\n")
    for name, ids in many.missing.items():
        shown = ", ".join(ids[:10]) + (", ..." if len(ids) > 10 else "")
        out.write(f"\n{name} has no pair for {counted(len(ids), 'id')}: {shown}")
    if many.missing:
        out.write("\n")
    signature = next(iter(many.corpora.values())).signature
    out.write(f"signature: {signature}\n")
