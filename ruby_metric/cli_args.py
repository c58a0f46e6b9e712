"""Pieces the ``ruby-metric`` subcommands share: options, argument types, the scorer built
from them, the pairs read from them, and the output file."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .grs_cost import DEFAULT_GRS_BETA, check_beta
from .inputs import InputError, PairInput, iter_jsonl, read_aligned
from .metrics import METRICS, parse_metrics

if TYPE_CHECKING:
    from .scorer import RubyScorer

LANG_HELP = "language of the code (java, cs, python, c, cpp, js)"


def metrics_arg(text: str) -> list[str]:
    """``--metrics``: a comma-separated subset of :data:`~ruby_metric.metrics.METRICS`."""
    try:
        return list(parse_metrics([m for m in text.split(",") if m.strip()]))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argument type accepting integers >= ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}: {value}")
        return value

    return parse


@contextlib.contextmanager
def output_file(path: str | None) -> Iterator[TextIO]:
    """Standard output, or ``path`` opened for writing (an error names the file)."""
    if path is None:
        yield sys.stdout
        return
    try:
        handle = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    with handle:
        yield handle


def add_pair_input(parser: argparse.ArgumentParser) -> None:
    """``REFS HYPS`` (line-aligned files) or ``--jsonl FILE``: what :func:`pair_input` reads."""
    parser.add_argument("refs", nargs="?", help="references, one snippet per line")
    parser.add_argument("hyps", nargs="?", help="candidates, one snippet per line")
    parser.add_argument("--jsonl", metavar="FILE", help="read pairs from a JSONL file instead")


def add_scorer_options(
    parser: argparse.ArgumentParser,
    *,
    lang_required: bool = False,
    metrics: bool = True,
    smoothing: bool = True,
) -> None:
    """The options :func:`scorer_from_args` builds a scorer from: ``--lang``, ``--metrics``,
    ``--ngrams``, ``--tokenizer`` and ``--smoothing`` (the last two optional per command)."""
    parser.add_argument("--lang", "-l", required=lang_required, help=LANG_HELP)
    if metrics:
        parser.add_argument(
            "--metrics",
            type=metrics_arg,
            default=list(METRICS),
            help=f"comma-separated subset of {','.join(METRICS)} (default: all)",
        )
    parser.add_argument("--ngrams", metavar="FILE", help="trivially shared n-grams for CrystalBLEU")
    parser.add_argument(
        "--tokenizer",
        help="token splitter: code (default; code-python for Python) or whitespace",
    )
    if smoothing:
        parser.add_argument(
            "--smoothing", default="method1", help="BLEU smoothing (default method1)"
        )
    parser.add_argument(
        "--grs-beta",
        type=positive_float,
        default=DEFAULT_GRS_BETA,
        metavar="BETA",
        help=f"GRS recall weight (default {DEFAULT_GRS_BETA:g}: how much of the reference "
        "the candidate carries counts 4x; 1: the symmetric score, for clone detection)",
    )
    parser.add_argument(
        "--no-repair",
        dest="repair",
        action="store_false",
        help="structural tiers only on clean parses: no bounded repair of almost-code and "
        "no broken statement kept as text",
    )


def add_workers(parser: argparse.ArgumentParser) -> None:
    """``--workers/-j N``: worker processes."""
    parser.add_argument("--workers", "-j", type=int_at_least(1), default=1, help="worker processes")


def scorer_from_args(args: argparse.Namespace) -> RubyScorer:
    """The :class:`~ruby_metric.scorer.RubyScorer` of :func:`add_scorer_options`' options
    (an option a command does not offer takes the scorer's default)."""
    from .scorer import RubyScorer

    return RubyScorer(
        language=args.lang,
        ngrams=args.ngrams,
        metrics=getattr(args, "metrics", None),
        tokenizer=args.tokenizer,
        smoothing=getattr(args, "smoothing", "method1"),
        grs_beta=getattr(args, "grs_beta", DEFAULT_GRS_BETA),
        repair=getattr(args, "repair", True),
    )


def positive_float(text: str) -> float:
    """An argparse type: a finite number above 0."""
    try:
        return check_beta(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None


def pair_input(args: argparse.Namespace) -> tuple[Callable[[], Iterator[PairInput]], int | None]:
    """The pairs of :func:`add_pair_input`'s arguments (a function giving a fresh iterator per
    call, as :meth:`~ruby_metric.scorer.RubyScorer.stream` takes) and their number.

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


def _count_lines(path: str) -> int | None:
    try:
        with open(path, "rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return None  # reported, with the reason, when the file is read


def score_text(value: float | None) -> str:
    """A score in the one-line summaries on stderr: four decimals, ``-`` when undefined."""
    return "-" if value is None else f"{value:.4f}"
