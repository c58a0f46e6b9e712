"""The ``ruby-metric`` command line: ``score`` and ``ngrams build``.

Exit status: 0 on success, 2 on bad usage, unreadable input or no pairs (one line on stderr
naming the file and line), 1 when worker processes cannot start or on an unexpected internal
error.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import crystal

from .cli_args import int_at_least, metrics_arg, output_file
from .cli_explain import add_explain_parser, run_explain
from .cli_report import add_report_parser, run_report
from .formats import FORMATS, PairWriter, write
from .inputs import InputError, PairInput, iter_jsonl, read_aligned
from .meta_cli import add_meta_parser, run_meta
from .progress import Progress
from .results import METRICS
from .scorer import RubyScorer
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
    score.add_argument("refs", nargs="?", help="references, one snippet per line")
    score.add_argument("hyps", nargs="?", help="candidates, one snippet per line")
    score.add_argument("--jsonl", metavar="FILE", help="read pairs from a JSONL file instead")
    score.add_argument("--lang", "-l", help="language of the code (java, cs, python, c, cpp, js)")
    score.add_argument(
        "--metrics",
        type=metrics_arg,
        default=list(METRICS),
        help=f"comma-separated subset of {','.join(METRICS)} (default: all)",
    )
    score.add_argument("--ngrams", metavar="FILE", help="trivially shared n-grams for CrystalBLEU")
    score.add_argument(
        "--tokenizer",
        help="token splitter: code (default; code-python for Python) or whitespace",
    )
    score.add_argument("--smoothing", default="method1", help="BLEU smoothing (default method1)")
    score.add_argument("--format", "-f", choices=FORMATS, default="table")
    score.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    score.add_argument("--workers", "-j", type=int_at_least(1), default=1, help="worker processes")
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
    pairs, total = _score_input(args)
    scorer = RubyScorer(
        language=args.lang,
        ngrams=args.ngrams,
        metrics=args.metrics,
        tokenizer=args.tokenizer,
        smoothing=args.smoothing,
    )
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
            f"ruby-metric: {summary['pairs']} pairs, RUBY {_num(summary['ruby'])}, "
            f"CrystalBLEU {_num(summary['crystalbleu'])}, BLEU {_num(summary['bleu'])} | "
            f"{summary['signature']}",
            file=sys.stderr,
        )
    return 0


def _score_input(
    args: argparse.Namespace,
) -> tuple[Callable[[], Iterator[PairInput]], int | None]:
    """The pairs to score (a function giving a fresh iterator per call) and their number.

    Raises
    ------
    InputError : bad usage, an unreadable file, or no pairs at all.
    """
    if args.jsonl:
        if args.refs or args.hyps:
            raise InputError("give either REFS HYPS or --jsonl FILE, not both")
        path = args.jsonl
        if Path(path).is_file():
            if next(iter_jsonl(path, warn=False), None) is None:
                raise InputError(f"no pairs to score: {path} has no JSON lines")
            reads = itertools.count()

            def pairs() -> Iterator[PairInput]:
                # the file may be read twice (n-gram sets, then scores): warn on the first
                return iter_jsonl(path, warn=next(reads) == 0)

            return pairs, _count_lines(path)
        # A pipe or process substitution can be read only once: keep its pairs.
        kept = list(iter_jsonl(path))
        if not kept:
            raise InputError(f"no pairs to score: {path} has no JSON lines")
        return lambda: iter(kept), len(kept)
    if not (args.refs and args.hyps):
        raise InputError("give REFS and HYPS files, or --jsonl FILE")
    if not args.lang:
        raise InputError("--lang is required with REFS and HYPS (e.g. --lang java)")
    aligned = read_aligned(args.refs, args.hyps)
    if not aligned:
        raise InputError(f"no pairs to score: {args.refs} and {args.hyps} are empty")
    return lambda: iter(aligned), len(aligned)


def score_input(
    args: argparse.Namespace,
) -> tuple[Callable[[], Iterator[PairInput]], int | None]:
    """The pairs of ``score``'s input arguments (``refs``, ``hyps``, ``jsonl``, ``lang``) and
    their number, read and checked as ``score`` does (for ``report``).

    Raises
    ------
    InputError : bad usage, an unreadable file, or no pairs at all.
    """
    return _score_input(args)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _count_lines(path: str) -> int | None:
    try:
        with open(path, "rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return None  # reported, with the reason, when the file is read


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
