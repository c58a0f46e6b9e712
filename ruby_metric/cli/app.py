"""The ``ruby-metric`` program: its parser, the dispatch to each command, exit statuses.

Exit status: 0 on success, 2 on bad usage, unreadable input, no pairs or no readable pair
(one line on stderr naming the file and line), 1 when worker processes cannot start or on an
unexpected internal error, 130 on SIGINT (Ctrl-C) and 143 on SIGTERM (see
:mod:`ruby_metric.cli.signals`).
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Sequence

from ..version import __version__
from .args import (
    EXAMPLES_FORMATTER,
    EXIT_USAGE,
    Parser,
    refuse_output_over_input,
)
from .citation import BIBTEX
from .explain import add_explain_parser, run_explain
from .meta import add_meta_parser, run_meta
from .ngrams import add_ngrams_parser, run_ngrams
from .report import add_report_parser, run_report
from .runner import EXIT_BROKEN_PIPE, SIGNAL_STATUSES, log_to_stderr, run_command
from .score import add_score_parser, run_score
from .signals import SignalGuard, exit_at_once

logger = logging.getLogger("ruby_metric")


MAIN_EXAMPLES = """\
examples:
  ruby-metric score refs.cs hyps.cs --lang cs
  ruby-metric score refs.java - --lang java -b < hyps.java
  ruby-metric report refs.cs hyps.cs --lang cs -o report.html
  ruby-metric explain --pair 620 refs.cs hyps.cs --lang cs
  ruby-metric --cite
"""

def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ruby-metric`` (exposed for documentation and tests)."""
    parser = Parser(
        prog="ruby-metric",
        description="How close is predicted code to a reference? RUBY (graph, tree, string "
        "tiers), CrystalBLEU and BLEU.",
        epilog=MAIN_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    parser.add_argument("--version", action="version", version=f"ruby-metric {__version__}")
    parser.add_argument(
        "--cite",
        action="store_true",
        help="print BibTeX for the RUBY and CrystalBLEU papers and exit (alone: with a "
        "command it is an error)",
    )
    # required by hand in _main: --cite alone needs none
    sub = parser.add_subparsers(dest="command", parser_class=Parser)

    add_score_parser(sub)
    add_ngrams_parser(sub)
    add_explain_parser(sub)
    add_report_parser(sub)
    add_meta_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Run as the program (``argv`` taken from the command line), a run stopped by SIGINT or
    SIGTERM ends the process right after its clean-up (workers killed, output closed,
    standard streams flushed) with status 130 or 143, without Python's interpreter
    shutdown, which in CPython 3.11 may wait on a process pool's internal thread. A reader
    that goes away (``ruby-metric score ... | head``) ends the run the same way, quietly,
    with status 141 (128 + SIGPIPE, what a shell reports for a tool killed by it).
    """
    if argv is None:
        # Run as the program, this process is the command's own: what the imports made
        # lives as long as it does, so the cyclic collector need not traverse it again on
        # every full collection (one pass over the ~90,000 objects of numpy, scipy,
        # networkx and numba costs about as much as scoring 50 pairs). Called as a
        # function, the process is the caller's: left alone.
        gc.freeze()
    status = _main(argv)
    if argv is None and status in SIGNAL_STATUSES | {EXIT_BROKEN_PIPE}:
        exit_at_once(status)
    return status


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.cite and args.command is not None:
        parser.error(f"--cite takes no command (got {args.command!r}): run it alone")
    if args.command is None and not args.cite:
        parser.print_usage(sys.stderr)  # argparse's own usage line names every command
        parser.error(
            "the following arguments are required: command (ruby-metric -h explains each)"
        )
    log_to_stderr(getattr(args, "quiet", False))
    return run_command(lambda guard: _run(args, guard))


def _run(args: argparse.Namespace, guard: SignalGuard) -> int:
    if args.cite:  # print and exit, as --version does
        sys.stdout.write(BIBTEX)
        sys.stdout.flush()  # a reader gone (| head) is seen here, not at exit
        raise SystemExit(0)
    refuse_output_over_input(args)
    if args.command == "score":
        return run_score(args, guard)
    if args.command == "ngrams":
        return run_ngrams(args)
    if args.command == "explain":
        return run_explain(args)
    if args.command == "meta":
        return run_meta(args)
    if args.command == "report":
        return run_report(args, guard)
    parser = build_parser()
    parser.error(f"unknown command {args.command!r}")
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
