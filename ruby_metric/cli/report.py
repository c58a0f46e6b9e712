"""``ruby-metric report``: score a corpus and write its one-page HTML report.

Takes the same input as ``score`` (line-aligned REFS HYPS with ``--lang``, or ``--jsonl``)
and the same scoring options; reads and errors the same way (exit status 2 with a one-line
reason naming the file and line), draws the same progress line, and writes the page of
:mod:`ruby_metric.reports.corpus` to ``--output``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from ..io.inputs import InputError
from ..pages.html_text import write_page
from ..scoring.metrics import METRICS
from .args import (
    EXAMPLES_FORMATTER,
    add_pair_input,
    add_quiet,
    add_scorer_options,
    add_source_language,
    add_workers,
    check_writable,
    corpus_line,
    explain_command,
    int_at_least,
    pair_input,
    scorer_from_args,
)
from .progress import Progress
from .signals import SignalGuard
from .systems import add_system_options, systems_input

__all__ = ["add_report_parser", "compare_with_html", "run_report"]

REPORT_EXAMPLES = """\
examples:
  ruby-metric report refs.cs hyps.cs --lang cs -o report.html
  ruby-metric report --jsonl pairs.jsonl -l java -o report.html --worst 50 -j 2
  ruby-metric report --jsonl out.jsonl -l python --system-field model --label-field passed \
      -o systems.html                             # the systems side by side, labels shown
  ruby-metric report sources/ sys/a sys/b -l python --source-lang java \
      --labels labels.jsonl --label-field passed -o systems.html   # a folder per system
  model | ruby-metric report refs.java - -l java -o report.html   # candidates on stdin
then open one pair of the page (the page gives the command for its input):
  ruby-metric explain --pair 620 refs.cs hyps.cs --lang cs     # line-aligned: 0-based ids
  ruby-metric explain --jsonl pairs.jsonl --pair ID -l java    # JSONL: its ids
"""


def add_report_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``report`` subcommand to the subparsers ``sub`` of the main parser."""
    rep = sub.add_parser(
        "report",
        help="score a corpus and write a one-page HTML report with plots",
        description="Score line-aligned REFS and HYPS files, two folders (or --jsonl FILE, as "
        "score does) "
        "and write one self-contained HTML page: the corpus summary and signature, tier "
        "usage, a histogram per metric, why the higher tiers did not apply, RUBY against "
        "BLEU and CrystalBLEU per pair, and the N lowest-scoring pairs with their "
        "explanation. No script, nothing fetched: it opens offline and prints.",
        epilog=REPORT_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    add_pair_input(rep, several=True)
    add_scorer_options(rep)
    add_source_language(rep)
    add_system_options(rep)
    rep.add_argument("--output", "-o", required=True, metavar="FILE", help="the HTML page to write")
    rep.add_argument(
        "--worst",
        type=int_at_least(0),
        default=20,
        metavar="N",
        help="show the N lowest-scoring pairs with their explanation (default 20)",
    )
    rep.add_argument(
        "--worst-by",
        choices=METRICS,
        help="rank the worst pairs by this metric (default ruby)",
    )
    rep.add_argument("--title", help="the page's title (default: RUBY corpus report)")
    add_workers(rep)
    add_quiet(rep)
    return rep


def run_report(args: argparse.Namespace, guard: SignalGuard | None = None) -> int:
    """Run ``report``; raises :class:`~ruby_metric.io.inputs.InputError` on bad input (exit 2).

    ``guard``: the run's signal handling; a stop waits for the page to be written whole.
    """
    from ..reports.corpus import report_stream

    if args.worst_by and args.worst_by not in args.metrics:
        raise InputError(f"--worst-by {args.worst_by}: not among --metrics")
    systems = systems_input(args)
    pairs, total = pair_input(args, systems)
    # Fail on an unwritable output now, not after scoring the whole corpus.
    check_writable(args.output)
    scorer = scorer_from_args(args)
    progress = Progress(total, enabled=False if args.quiet else None)
    try:
        rep = report_stream(
            scorer,
            pairs,
            workers=args.workers,
            worst=args.worst,
            worst_by=args.worst_by,
            title=args.title,
            progress=progress.update,
            systems=systems,
            explain_command=explain_command(args),
            heartbeat=None if args.quiet else progress.heartbeat,
        )
    finally:
        progress.close()
        scorer.close()
    page = rep.to_html()
    try:
        with guard.held() if guard is not None else contextlib.nullcontext():
            write_page(args.output, page)  # a stop waits for the page to be whole
    except OSError as exc:
        raise InputError(f"{args.output}: cannot write ({exc.strerror or exc})") from None
    if not args.quiet:
        s = rep.corpus.summary()
        print(
            f"ruby-metric: wrote {args.output} ({len(page.encode('utf-8')):,} bytes): "
            f"{corpus_line(s)}",
            file=sys.stderr,
        )
    return 0


def compare_with_html(
    args: argparse.Namespace,
    scorer: Any,
    references: list[str],
    system_a: list[str],
    system_b: list[str],
) -> Any:
    """``meta compare ... --html FILE``: the comparison, plus its page written to FILE.

    Returns the :class:`~ruby_metric.meta.ComparisonReport` (the same numbers as without
    ``--html``), so the command prints its table or JSON as usual. Draws a progress line
    while both systems are scored.

    Raises
    ------
    InputError : FILE cannot be written.
    """
    from ..reports.compare import compare_report

    check_writable(args.html)
    progress = Progress(2 * len(references), enabled=False if args.quiet else None)
    try:
        page = compare_report(
            scorer,
            references,
            system_a,
            system_b,
            names=(args.sys_a, args.sys_b),
            trials=args.trials,
            bootstrap=args.bootstrap,
            seed=args.seed,
            confidence=args.confidence,
            workers=args.workers,
            top=args.top,
            progress=progress.update,
        )
    finally:
        progress.close()
    try:
        page.write_html(args.html)
    except OSError as exc:
        raise InputError(f"{args.html}: cannot write ({exc.strerror or exc})") from None
    return page.comparison
