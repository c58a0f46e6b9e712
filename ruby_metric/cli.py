"""The ``ruby-metric`` command line: ``score`` and ``ngrams build``.

Exit status: 0 on success, 2 on bad usage, unreadable input, no pairs or no readable pair
(one line on stderr naming the file and line), 1 when worker processes cannot start or on an
unexpected internal error, 130 on SIGINT (Ctrl-C) and 143 on SIGTERM (see
:mod:`ruby_metric.cli_signals`).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import crystal

from .citation import BIBTEX
from .cli_args import (
    EXAMPLES_FORMATTER,
    add_pair_input,
    add_quiet,
    add_scorer_options,
    add_workers,
    int_at_least,
    output_file,
    pair_input,
    score_text,
    scorer_from_args,
)
from .cli_explain import add_explain_parser, run_explain
from .cli_report import add_report_parser, run_report
from .cli_signals import STOP_SIGNALS, SignalGuard, Stopped, stop_on_signals
from .formats import FORMATS, PairWriter, write
from .inputs import InputError
from .meta_cli import add_meta_parser, run_meta
from .progress import Progress
from .signature import ngram_set_id
from .version import __version__
from .worker import WorkerStartError

logger = logging.getLogger("ruby_metric")

EXIT_USAGE = 2

FORMAT_HELP = (
    "table (default): every pair, then the corpus scores; json: one object with 'corpus' "
    "and 'pairs'; jsonl and csv: one line per pair, written as it is scored"
)

MAIN_EXAMPLES = """\
examples:
  ruby-metric score refs.cs hyps.cs --lang cs
  ruby-metric score refs.java - --lang java -b < hyps.java
  ruby-metric report refs.cs hyps.cs --lang cs -o report.html
  ruby-metric explain --pair 620 refs.cs hyps.cs --lang cs
  ruby-metric --cite
"""

SCORE_EXAMPLES = """\
examples:
  ruby-metric score refs.cs hyps.cs --lang cs                 # table: every pair + corpus
  ruby-metric score refs.cs hyps.cs --lang cs -b              # the corpus RUBY alone
  ruby-metric score refs.cs hyps.cs -l cs --metrics bleu -b   # the corpus BLEU alone
  model | ruby-metric score refs.cs - -l cs -f jsonl          # candidates from stdin
  ruby-metric score --jsonl pairs.jsonl -l java -f jsonl -o scores.jsonl -j 2
  cat pairs.jsonl | ruby-metric score --jsonl - --lang java --strict

exit status: 0 ok; 2 bad usage or input (nothing readable, or with --strict anything
unreadable); 1 workers cannot start; 130 Ctrl-C; 143 SIGTERM (written lines stay whole)
"""

NGRAMS_EXAMPLES = """\
examples:
  ruby-metric ngrams build train/ --lang java -k 500 -o java-ngrams.json
  ruby-metric ngrams build train.java-cs.txt.cs --per-line -o cs-ngrams.json
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse's own usage errors already exit 2; keep its behaviour but one line only.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ruby-metric`` (exposed for documentation and tests)."""
    parser = _Parser(
        prog="ruby-metric",
        description="How close is predicted code to a reference? RUBY (graph, tree, string "
        "tiers), CrystalBLEU and BLEU.",
        epilog=MAIN_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    parser.add_argument("--version", action="version", version=f"ruby-metric {__version__}")
    parser.add_argument(
        "--cite",
        action="version",
        version=BIBTEX.rstrip("\n"),
        help="print BibTeX for the RUBY and CrystalBLEU papers and exit",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = sub.add_parser(
        "score",
        help="score candidates against references",
        description="Score line-aligned REFS and HYPS files (one snippet per line), or a JSONL "
        'file of {"reference", "candidate", "language"?, "id"?} objects. A pair without an id '
        "gets its 0-based position (blank JSONL lines are not pairs). '-' reads standard "
        "input.",
        epilog=SCORE_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    add_pair_input(score)
    add_scorer_options(score)
    score.add_argument("--format", "-f", choices=FORMATS, default="table", help=FORMAT_HELP)
    score.add_argument(
        "--score-only",
        "-b",
        action="store_true",
        help="print only the corpus score of the first of --metrics (RUBY by default), as "
        "one number (- when undefined)",
    )
    score.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    add_workers(score)
    add_quiet(score)

    ngrams = sub.add_parser(
        "ngrams",
        help="trivially shared n-gram sets",
        description="Trivially shared n-gram sets for CrystalBLEU.",
        epilog=NGRAMS_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    ngrams_sub = ngrams.add_subparsers(dest="ngrams_command", required=True, parser_class=_Parser)
    build = ngrams_sub.add_parser(
        "build",
        help="build the k most frequent n-grams of a corpus",
        description="Build the top-k n-grams (all orders ranked together) of a corpus of code: "
        "files, folders, or one-snippet-per-line files.",
        epilog=NGRAMS_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    build.add_argument("corpus", nargs="+", help="files or folders of code")
    build.add_argument("--lang", "-l", help="language: inside folders, read only its files")
    lines = build.add_mutually_exclusive_group()
    lines.add_argument(
        "--per-line",
        dest="per_line",
        action="store_const",
        const=True,
        help="every file holds one snippet per line (default: .txt/.output/.gold files do)",
    )
    lines.add_argument(
        "--whole-files",
        dest="per_line",
        action="store_const",
        const=False,
        help="every file is one snippet",
    )
    build.add_argument("-k", type=int_at_least(1), default=500, help="number of n-grams (500)")
    build.add_argument("--max-n", type=int_at_least(1), default=4, help="largest n (4)")
    build.add_argument(
        "--tokenizer",
        help="token splitter: code (default; code-python with --lang python, as the scorer)",
    )
    build.add_argument("--output", "-o", required=True, metavar="FILE", help="the JSON file")
    add_quiet(build)

    add_explain_parser(sub)
    add_report_parser(sub)
    add_meta_parser(sub)
    return parser


def _cmd_score(args: argparse.Namespace, guard: SignalGuard) -> int:
    pairs, total = pair_input(args)
    scorer = scorer_from_args(args)
    # JSONL and CSV stream one line per pair as it is scored (constant memory, and an
    # interrupted run leaves valid lines); JSON and the table need every pair first.
    streaming = args.format in ("jsonl", "csv") and not args.score_only
    run = scorer.stream(pairs, workers=args.workers, keep_pairs=not streaming)
    progress = Progress(total, enabled=False if args.quiet else None)
    try:
        with output_file(args.output) as out:
            try:
                if streaming:
                    writer = PairWriter(out, args.format)
                    for result in run:
                        with guard.held():  # a line is written whole or not at all
                            writer.write(result)
                        progress.update(run.count)
                else:
                    for _ in run:
                        progress.update(run.count)
            finally:
                progress.close()
            corpus = run.corpus()
            with guard.held():
                if args.score_only:
                    first = args.metrics[0] if getattr(args, "metrics", None) else "ruby"
                    out.write(f"{score_text(corpus.score(first))}\n")
                elif not streaming:
                    write(corpus, out, args.format, getattr(args, "metrics", None))
    finally:
        run.close()
        scorer.close()
    if run.boms and not args.quiet:
        print(f"ruby-metric: dropped {run.boms} UTF-8 byte-order mark(s)", file=sys.stderr)
    if streaming and not args.quiet:
        summary = corpus.summary()
        print(
            f"ruby-metric: {summary['pairs']} pairs, RUBY {score_text(summary['ruby'])}, "
            f"CrystalBLEU {score_text(summary['crystalbleu'])}, "
            f"BLEU {score_text(summary['bleu'])} | {summary['signature']}",
            file=sys.stderr,
        )
    return 0


def _cmd_ngrams_build(args: argparse.Namespace) -> int:
    extensions = None
    tokenizer = args.tokenizer
    if args.lang:
        import graphs

        language = graphs.get_language(args.lang)
        extensions = language.extensions
        if tokenizer is None and language.name == "python":
            tokenizer = "code-python"  # the scorer's default for Python: the sets must match
    paths: list[Path] = []
    for item in map(Path, args.corpus):
        if not item.exists():
            raise InputError(f"{item}: no such file or folder")
        if item.is_dir() and extensions is not None:
            # Inside a folder, only the language's own files: a Java corpus folder often holds
            # build scripts and resources whose n-grams are not Java's.
            paths.extend(
                p for p in sorted(item.rglob("*")) if p.is_file() and p.suffix.lower() in extensions
            )
        else:
            paths.append(item)
    snippets = crystal.read_corpus(paths, per_line=args.per_line)
    try:
        ngram_set = crystal.build_ngram_set(
            snippets, k=args.k, max_n=args.max_n, tokenizer=tokenizer or "code"
        )
    except OSError as exc:
        raise InputError(str(exc)) from None
    try:
        ngram_set.save(args.output)
    except OSError as exc:
        raise InputError(f"{args.output}: cannot write ({exc.strerror or exc})") from None
    if not args.quiet:
        print(
            f"wrote {len(ngram_set.counts)} n-grams ({ngram_set_id(ngram_set)}, "
            f"from {ngram_set.corpus_size} snippets) to {args.output}",
            file=sys.stderr,
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Run as the program (``argv`` taken from the command line), a run stopped by SIGINT or
    SIGTERM ends the process right after its clean-up (workers killed, output closed,
    standard streams flushed) with status 130 or 143, without Python's interpreter
    shutdown, which in CPython 3.11 may wait on a process pool's internal thread.
    """
    status = _main(argv)
    if argv is None and status in _SIGNAL_STATUSES:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(status)
    return status


#: The exit statuses of a run stopped by a signal: 128 + SIGINT, 128 + SIGTERM.
_SIGNAL_STATUSES = frozenset(128 + sig for sig in STOP_SIGNALS)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.ERROR if getattr(args, "quiet", False) else logging.WARNING,
        format="ruby-metric: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    with stop_on_signals() as guard:
        try:
            return _run(args, guard)
        except (InputError, ValueError) as exc:
            print(f"ruby-metric: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except WorkerStartError as exc:
            print(f"ruby-metric: error: {exc}", file=sys.stderr)
            return 1
        except Stopped as exc:
            print(f"ruby-metric: stopped by {exc}", file=sys.stderr)
            return exc.exit_status
        except KeyboardInterrupt:
            print("ruby-metric: interrupted", file=sys.stderr)
            return 130


def _run(args: argparse.Namespace, guard: SignalGuard) -> int:
    if args.command == "score":
        return _cmd_score(args, guard)
    if args.command == "ngrams":
        return _cmd_ngrams_build(args)
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
