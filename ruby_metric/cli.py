"""The ``ruby-metric`` command line: ``score`` and ``ngrams build``.

Exit status: 0 on success, 2 on bad usage, unreadable input or no pairs (one line on stderr
naming the file and line), 1 when worker processes cannot start or on an unexpected internal
error.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import crystal

from .cli_args import (
    add_pair_input,
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
from .formats import FORMATS, PairWriter, write
from .inputs import InputError
from .meta_cli import add_meta_parser, run_meta
from .progress import Progress
from .signature import ngram_set_id
from .version import __version__
from .worker import WorkerStartError

logger = logging.getLogger("ruby_metric")

EXIT_USAGE = 2


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
    )
    parser.add_argument("--version", action="version", version=f"ruby-metric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = sub.add_parser(
        "score",
        help="score candidates against references",
        description="Score line-aligned REFS and HYPS files (one snippet per line), or a JSONL "
        'file of {"reference", "candidate", "language"?, "id"?} objects. A pair without an id '
        "gets its 0-based position (blank JSONL lines are not pairs).",
    )
    add_pair_input(score)
    add_scorer_options(score)
    score.add_argument("--format", "-f", choices=FORMATS, default="table")
    score.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    add_workers(score)
    score.add_argument("--quiet", "-q", action="store_true", help="no warnings on stderr")

    ngrams = sub.add_parser("ngrams", help="trivially shared n-gram sets")
    ngrams_sub = ngrams.add_subparsers(dest="ngrams_command", required=True, parser_class=_Parser)
    build = ngrams_sub.add_parser(
        "build",
        help="build the k most frequent n-grams of a corpus",
        description="Build the top-k n-grams (all orders ranked together) of a corpus of code: "
        "files, folders, or one-snippet-per-line files.",
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
    build.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")

    add_explain_parser(sub)
    add_report_parser(sub)
    add_meta_parser(sub)
    return parser


def _cmd_score(args: argparse.Namespace) -> int:
    pairs, total = pair_input(args)
    scorer = scorer_from_args(args)
    # JSONL and CSV stream one line per pair as it is scored (constant memory, and an
    # interrupted run leaves valid lines); JSON and the table need every pair first.
    streaming = args.format in ("jsonl", "csv")
    run = scorer.stream(pairs, workers=args.workers, keep_pairs=not streaming)
    progress = Progress(total, enabled=False if args.quiet else None)
    with output_file(args.output) as out:
        try:
            if streaming:
                writer = PairWriter(out, args.format)
                for result in run:
                    writer.write(result)
                    progress.update(run.count)
            else:
                for _ in run:
                    progress.update(run.count)
        finally:
            progress.close()
        corpus = run.corpus()
        if not streaming:
            write(corpus, out, args.format)
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
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.ERROR if getattr(args, "quiet", False) else logging.WARNING,
        format="ruby-metric: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        if args.command == "score":
            return _cmd_score(args)
        if args.command == "ngrams":
            return _cmd_ngrams_build(args)
        if args.command == "explain":
            return run_explain(args)
        if args.command == "meta":
            return run_meta(args)
        if args.command == "report":
            return run_report(args)
    except (InputError, ValueError) as exc:
        print(f"ruby-metric: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except WorkerStartError as exc:
        print(f"ruby-metric: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ruby-metric: interrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command!r}")
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
