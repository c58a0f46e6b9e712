"""Pieces the ``ruby-metric`` subcommands share: options, argument types, the scorer built
from them, the pairs read from them, and the output file."""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import itertools
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..io.formats import counted
from ..io.inputs import (
    STDIN,
    InputError,
    PairInput,
    display_name,
    iter_jsonl_records,
    key_hint,
)
from ..io.ngram_sets import load_ngram_file
from ..io.systems import SystemsInput
from ..io.units import UNITS, read_units
from ..scoring.code import Limits, canonical_language, default_tokenizer
from ..scoring.config import DEFAULT_SMOOTHING, ScorerConfig
from ..scoring.grs_cost import DEFAULT_GRS_BETA, check_beta
from ..scoring.metrics import METRICS, parse_metrics
from ..scoring.reference_cache import DEFAULT_REFERENCE_CACHE

if TYPE_CHECKING:
    import crystal

    from ..api.scorer import RubyScorer

logger = logging.getLogger(__name__)

LANG_HELP = "language of the code (java, cs, python, c, cpp, js)"

#: Help formatter of every command: the ``examples:`` epilog keeps its lines.
EXAMPLES_FORMATTER = argparse.RawDescriptionHelpFormatter

#: Exit status of bad usage or unreadable input (argparse's own).
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse's parser, with a usage error on one line (exit status 2, as argparse)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse's own usage errors already exit 2; keep its behaviour but one line only.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def with_examples(parser: argparse.ArgumentParser, examples: str) -> None:
    """Show ``examples`` (lines of commands) at the end of ``parser``'s ``-h``."""
    parser.epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples.splitlines())
    parser.formatter_class = EXAMPLES_FORMATTER


def metrics_arg(text: str) -> list[str]:
    """``--metrics``: a comma-separated subset of :data:`~ruby_metric.scoring.metrics.METRICS`, in
    the order given (``--score-only`` prints the first; reports use the table order)."""
    chosen = [m.strip().lower() for m in text.split(",") if m.strip()]
    try:
        parse_metrics(chosen)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return list(dict.fromkeys(chosen))


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
def output_file(
    path: str | None, *, whole: bool = False, append: bool = False
) -> Iterator[TextIO]:
    """Standard output, or ``path`` opened for writing (an error names the file).

    ``whole``: the output is written at the end in one piece (a table, JSON), so it is kept
    in memory and ``path`` is opened only when the block ends without an error: an
    interrupted or failed run leaves what ``path`` held. Whether ``path`` can be written is
    checked first, so a typo fails before the run. Streamed formats (JSONL, CSV) write
    ``path`` itself, line by line, so that an interrupted run keeps its lines; ``append``
    (streamed only) adds them after what ``path`` holds.
    """
    if path is None:
        yield sys.stdout
        return
    try:
        if not whole:
            with _opened_for_writing(path, "a" if append else "w") as handle:
                yield handle
            return
        check_writable(path)
        buffer = io.StringIO()
        yield buffer
        with _opened_for_writing(path) as handle:
            handle.write(buffer.getvalue())
    except OSError as exc:
        if exc.errno not in _FULL:
            raise
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None


#: Write errors that say the output's device is full or failing, not that a path is wrong.
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})

#: The options that name files a command writes; every other path it is given is read.
OUTPUT_OPTIONS = ("output", "html")


def refuse_output_over_input(args: argparse.Namespace) -> None:
    """An :class:`InputError` when a file the command would write is also one it reads
    (``score --jsonl x.jsonl -o x.jsonl``): writing would destroy the input, and a stream
    would read back what it wrote."""
    outputs = [(name, getattr(args, name, None)) for name in OUTPUT_OPTIONS]
    outputs = [(name, path) for name, path in outputs if isinstance(path, str) and path != "-"]
    if not outputs:
        return
    read: list[str] = []
    for name, value in vars(args).items():
        if name in OUTPUT_OPTIONS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item != "-" and Path(item).is_file():
                read.append(item)
    for name, path in outputs:
        if not Path(path).exists():
            continue
        for item in read:
            with contextlib.suppress(OSError):
                if os.path.samefile(path, item):
                    raise InputError(
                        f"--{name} {path} is also an input of this command ({item}): "
                        "writing it would destroy what is read"
                    )


def _opened_for_writing(path: str, mode: str = "w") -> TextIO:
    try:
        return open(path, mode, encoding="utf-8", newline="")  # noqa: SIM115 - the caller's
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def check_writable(path: str) -> None:
    """An :class:`InputError` now when ``path`` could not be opened for writing later
    (without creating it: a run that fails later leaves no empty file behind)."""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{path}: cannot write (Is a directory)")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise InputError(f"{path}: cannot write (Permission denied)")
        return
    parent = target.parent
    if not parent.is_dir():
        raise InputError(f"{path}: cannot write (No such directory: {parent})")
    if not os.access(parent, os.W_OK):
        raise InputError(f"{path}: cannot write (Permission denied)")


def add_pair_input(parser: argparse.ArgumentParser, *, several: bool = False) -> None:
    """``REFS HYPS`` (line-aligned files) or ``--jsonl FILE``, ``--strict`` and
    ``--allow-no-lang``: what :func:`pair_input` reads. With ``several``, ``REFS HYPS
    [HYPS ...]``: more than one HYPS are systems (``args.more``), and ``--labels FILE``."""
    parser.add_argument(
        "refs", nargs="?",
        help="references, one snippet per line ('-': stdin), or a folder of them (one file each)",
    )
    parser.add_argument(
        "hyps", nargs="?",
        help="candidates, one snippet per line ('-': stdin), or a folder of them, paired with "
        "REFS's files by relative path (with --source-lang: by path without extension)",
    )
    if several:
        parser.add_argument(
            "more", nargs="*", metavar="HYPS",
            help="more systems: each HYPS (a folder, or a line-aligned file) is one system, "
            "named by its folder's or file's name; pairs are matched across systems by id",
        )
        add_labels(parser)
    add_unit(parser)
    parser.add_argument(
        "--jsonl", metavar="FILE", help="read pairs from a JSONL file instead ('-': stdin)"
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="a pair that cannot be read (a missing or mistyped field, an unknown language) "
        "is an error (exit 2) "
        "instead of a result with reasons.input",
    )
    parser.add_argument(
        "--allow-no-lang",
        action="store_true",
        help="score a JSONL file whose pairs name no language without --lang (only STS, "
        "CrystalBLEU and BLEU then apply); without it that is an error",
    )


def add_labels(parser: argparse.ArgumentParser) -> None:
    """``--labels FILE``: the labels of positional input (folders, line-aligned files)."""
    parser.add_argument(
        "--labels",
        metavar="FILE",
        help="with REFS and HYPS (folders or files): a JSONL file of labels, one object per "
        "candidate with its 'id' (the candidate's relative path; a 0-based line for files), "
        "its label in --label-field and, with several systems, its system in --system-field "
        "(default model); joined to the pairs by system and id",
    )


def add_unit(parser: argparse.ArgumentParser) -> None:
    """``--unit line|file``: what one pair of two files is."""
    parser.add_argument(
        "--unit",
        choices=UNITS,
        help="two files: line (default) scores line K of REFS against line K of HYPS; file "
        "scores the two whole files as one pair (two programs). Two folders are always "
        "paired file by file",
    )


def add_quiet(parser: argparse.ArgumentParser) -> None:
    """``--quiet/-q``, the same in every command: nothing on stderr but errors."""
    parser.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="nothing on stderr but errors: no warnings, progress line or summary",
    )


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
            help=f"comma-separated subset of {','.join(METRICS)} (default: all); the table "
            "shows these columns only",
        )
    parser.add_argument("--ngrams", metavar="FILE", help="trivially shared n-grams for CrystalBLEU")
    parser.add_argument(
        "--tokenizer",
        help="token splitter: code (default; code-python for Python) or whitespace",
    )
    if smoothing:
        parser.add_argument(
            "--smoothing", default=DEFAULT_SMOOTHING,
            help=f"BLEU smoothing (default {DEFAULT_SMOOTHING})"
        )
    parser.add_argument(
        "--grs-beta",
        type=positive_float,
        default=DEFAULT_GRS_BETA,
        metavar="BETA",
        help=f"GRS recall weight (default {DEFAULT_GRS_BETA:g}: how much of the reference "
        "the candidate carries counts 4x; 1: the symmetric score, for clone detection)",
    )
    limits = Limits()
    for field, help_text in (  # the fields of LIMIT_OPTIONS
        ("max_chars", f"no parse (so no GRS or TRS) for a side longer than N characters "
         f"(default {limits.max_chars:,}); the reasons say so"),
        ("max_tokens", f"bound STS at N*N token comparisons a pair (default "
         f"{limits.max_tokens:,}: about 35 s for 3 MB a side); a larger pair gets STS only "
         "when nearly identical"),
    ):
        parser.add_argument(f"--{field.replace('_', '-')}", type=int_at_least(1),
                            default=getattr(limits, field), metavar="N", help=help_text)
    parser.add_argument(
        "--no-repair",
        dest="repair",
        action="store_false",
        help="structural tiers only on clean parses: no bounded repair of almost-code and "
        "no broken statement kept as text",
    )
    parser.add_argument(
        "--reference-cache",
        type=int_at_least(0),
        default=DEFAULT_REFERENCE_CACHE,
        metavar="CHARS",
        help="characters of reference text whose parses and graphs are kept for the next "
        f"pairs with the same reference, per process (default {DEFAULT_REFERENCE_CACHE:,}; "
        "0: off; the scores are the same)",
    )


def pairs_text(count: int) -> str:
    """``"1 pair"``, ``"2,000 pairs"``: a count of pairs for a message."""
    return counted(count, "pair")


def add_source_language(parser: argparse.ArgumentParser) -> None:
    """``--source-lang LANG``: score candidates against the program they translate."""
    parser.add_argument(
        "--source-lang",
        metavar="LANG",
        help="score against the source program in LANG instead of a reference: REFS holds "
        "the sources (JSONL: a 'source' field); GRS and TRS on language-neutral graphs and "
        "trees, STS and the BLEUs not comparable",
    )


def jsonl_side(args: argparse.Namespace) -> str:
    """The JSONL key candidates are scored against: ``source`` with ``--source-lang``."""
    return "source" if getattr(args, "source_lang", None) else "reference"


def add_workers(parser: argparse.ArgumentParser) -> None:
    """``--workers/-j N``: worker processes."""
    parser.add_argument(
        "--workers",
        "-j",
        type=int_at_least(1),
        default=1,
        metavar="N",
        help="processes that score (default 1: this one; never more than the chunks of "
        "64 pairs; output is identical for any N)",
    )


def scorer_from_args(args: argparse.Namespace) -> RubyScorer:
    """The :class:`~ruby_metric.api.scorer.RubyScorer` of :func:`add_scorer_options`' options
    (an option a command does not offer takes the scorer's default)."""
    from ..api.scorer import RubyScorer

    ngrams = ngram_file(args) if args.ngrams else None  # its errors first
    return RubyScorer.from_config(config_from_args(args), ngrams=ngrams)


#: :class:`~ruby_metric.scoring.config.ScorerConfig` fields set by an option a command may
#: not offer, and the ``args`` attribute of that option.
CONFIG_OPTIONS = {
    "metrics": "metrics",
    "smoothing": "smoothing",
    "grs_beta": "grs_beta",
    "repair": "repair",
    "source_language": "source_lang",
    "reference_cache": "reference_cache",
}


def config_from_args(args: argparse.Namespace) -> ScorerConfig:
    """The :class:`~ruby_metric.scoring.config.ScorerConfig` of :func:`add_scorer_options`'
    options; an option the command does not offer keeps the config's default.

    >>> config = config_from_args(argparse.Namespace(lang="cs", tokenizer=None, grs_beta=1.0))
    >>> config.language, config.grs_beta, config.smoothing
    ('csharp', 1.0, 'method1')
    """
    offered = {field: getattr(args, option) for field, option in CONFIG_OPTIONS.items()
               if hasattr(args, option)}
    return ScorerConfig(args.lang, tokenizer=args.tokenizer, limits=limits_from_args(args),
                        **offered)


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The :class:`~ruby_metric.scoring.code.Limits` of ``--max-chars`` and ``--max-tokens``
    (the others, and those a command does not offer, at their defaults)."""
    defaults = Limits()
    return Limits(**{field: getattr(args, field, getattr(defaults, field))
                     for field in LIMIT_OPTIONS})


#: The :class:`~ruby_metric.scoring.code.Limits` fields the command line sets.
LIMIT_OPTIONS = ("max_chars", "max_tokens")


def ngram_file(args: argparse.Namespace) -> crystal.NgramSet:
    """The set of ``--ngrams FILE``, checked against the run's ``--tokenizer`` and ``--lang``.

    Raises
    ------
    InputError : the set was counted with another tokenizer than the one the scores use
        (its n-grams could never match), or the file is missing or not an n-gram set.
    """
    try:
        ngram_set, built_for = load_ngram_file(args.ngrams)
        language = canonical_language(args.lang)
        built_for = canonical_language(built_for)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if args.tokenizer is None and language is None:
        return ngram_set  # each pair's language picks its tokenizer: the set fits some pairs
    tokenizer = args.tokenizer or default_tokenizer(language)
    if ngram_set.tokenizer != tokenizer:
        raise InputError(
            f"--ngrams {args.ngrams} was built with tokenizer {ngram_set.tokenizer!r} but the "
            f"scores use {tokenizer!r}; pass --tokenizer {ngram_set.tokenizer}, or build the set "
            f"with --tokenizer {tokenizer}"
        )
    if built_for is not None and language is not None and built_for != language:
        logger.warning(
            "--ngrams %s was built from %s code, but --lang is %s: its n-grams are not the "
            "trivially shared ones of %s (build a set from %s code: ruby-metric ngrams build)",
            args.ngrams, built_for, language, language, language,
        )
    return ngram_set


def positive_float(text: str) -> float:
    """An argparse type: a finite number above 0."""
    try:
        return check_beta(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None


def pair_input(
    args: argparse.Namespace, systems: SystemsInput | None = None
) -> tuple[Callable[[], Iterator[PairInput]], int | None]:
    """The pairs of :func:`add_pair_input`'s arguments (a function giving a fresh iterator per
    call, as :meth:`~ruby_metric.api.scorer.RubyScorer.stream` takes) and their number.

    ``systems``: the rows :func:`~ruby_metric.cli.systems.systems_input` read from REFS and
    HYPS (several systems, or labels): their pairs, in their order, are the pairs.

    Raises
    ------
    InputError : bad usage, an unreadable file, no pairs at all, a JSONL input that names no
        language without ``--lang`` or ``--allow-no-lang``, or (with ``--strict``) a pair that
        cannot be read.
    """
    if systems is not None and not args.jsonl:
        if not args.lang:
            raise InputError("--lang is required with REFS and HYPS (e.g. --lang java)")
        read = [row.pair for row in systems.rows]
        pairs, total = (lambda: iter(read)), len(read)
        name = systems.name
    elif systems is not None and args.jsonl == STDIN:
        # standard input was read once, for the systems: their rows' pairs are its pairs
        read = [row.pair for row in systems.rows]
        if not _has_language(args, read):
            _no_language(systems.name, {})
        pairs, total = (lambda: iter(read)), len(read)
        name = systems.name
    else:
        pairs, total = _pair_source(args)
        name = display_name(args.jsonl) if args.jsonl else f"{args.refs} / {args.hyps}"
        added = 0 if systems is None else sum(r.pair.missing is not None for r in systems.rows)
        if added:
            # the JSONL's pairs, with each system's missing translations where its rows are
            read, pairs = pairs, lambda: systems.with_missing(read())
            total = None if total is None else total + added
    strict = getattr(args, "strict", False)
    # One pass before scoring (JSONL parsing is cheap next to scoring): fail before any output
    # when nothing can be read, or, with --strict, when anything cannot.
    count = readable = 0
    first: str | None = None
    lines: dict[str, list[int]] = {}  # each id: the JSONL lines of its pairs
    for pair in pairs():
        count += 1
        if pair.line is not None:
            lines.setdefault(str(pair.id), []).append(pair.line)
        if pair.problem is None:
            readable += 1
        elif first is None:
            first = pair.problem
            if strict:
                raise InputError(f"{first} (--strict: every pair must be readable)")
    if not getattr(args, "system_field", None):  # else an id is once per system: checked there
        _warn_duplicate_ids(name, lines)
    if readable == 0:
        raise InputError(
            f"no pair could be read: {'the' if count == 1 else 'all'} {pairs_text(count)} of "
            f"{name} {'has' if count == 1 else 'have'} a problem (first: {first})"
        )
    if strict:
        return lambda: strict_pairs(pairs()), total
    return pairs, total


def _warn_duplicate_ids(name: str, lines: dict[str, list[int]]) -> None:
    """One warning naming the ids that more than one pair has (an explicit ``id`` equal to
    another's, or to another pair's 0-based position), with their lines."""
    clashes = [(pair_id, at) for pair_id, at in lines.items() if len(at) > 1]
    if not clashes:
        return
    shown = "; ".join(
        f"id {pair_id!r} in lines {', '.join(map(str, at[:5]))}{', ...' if len(at) > 5 else ''}"
        for pair_id, at in clashes[:3]
    )
    more = f" (and {len(clashes) - 3} more)" if len(clashes) > 3 else ""
    logger.warning(
        "%s: duplicate pair ids, which outputs and explain --pair cannot tell apart: %s%s",
        name, shown, more,
    )


def strict_pairs(pairs: Iterable[PairInput]) -> Iterator[PairInput]:
    """``pairs``, raising :class:`InputError` at the first one that cannot be read."""
    for pair in pairs:
        if pair.problem is not None:
            raise InputError(f"{pair.problem} (--strict)")
        yield pair


def _pair_source(args: argparse.Namespace) -> tuple[Callable[[], Iterator[PairInput]], int | None]:
    if args.jsonl:
        if args.refs or args.hyps:
            raise InputError("give either REFS HYPS or --jsonl FILE, not both")
        if getattr(args, "unit", None):
            raise InputError("--unit is for REFS and HYPS: each JSONL object is one pair")
        path = args.jsonl
        name = display_name(path)
        if path != "-" and Path(path).is_file():
            if next(_jsonl(args, path, warn=False), None) is None:
                raise InputError(f"no pairs to score: {name} has no JSON lines")
            unknown: dict[str, int] = {}
            read = _jsonl(args, path, warn=False, unknown_keys=unknown)
            if not _has_language(args, read):
                _no_language(name, unknown)
            reads = itertools.count()

            def pairs() -> Iterator[PairInput]:
                # the file may be read twice (n-gram sets, then scores): warn on the first
                return _jsonl(args, path, warn=next(reads) == 0)

            return pairs, _count_lines(path)
        # Standard input, a pipe or process substitution can be read only once: keep its pairs.
        unknown = {}
        kept = list(_jsonl(args, path, unknown_keys=unknown))
        if not kept:
            raise InputError(f"no pairs to score: {name} has no JSON lines")
        if not _has_language(args, kept):
            _no_language(name, unknown)
        return lambda: iter(kept), len(kept)
    if not (args.refs and args.hyps):
        raise InputError("give REFS and HYPS files, or --jsonl FILE ('-' reads stdin)")
    if not args.lang:
        raise InputError("--lang is required with REFS and HYPS (e.g. --lang java)")
    aligned = read_units(
        args.refs,
        args.hyps,
        unit=getattr(args, "unit", None),
        by_stem=bool(getattr(args, "source_lang", None)),
        strict=getattr(args, "strict", False),
    )
    if not aligned:
        raise InputError(
            f"no pairs to score: {display_name(args.refs)} and {display_name(args.hyps)} "
            "are empty"
        )
    return lambda: iter(aligned), len(aligned)


#: The options naming JSONL fields a command reads besides a pair's own keys.
FIELD_OPTIONS = ("system_field", "label_field", "group_field", "human_field")


def field_options(args: argparse.Namespace) -> list[str]:
    """The JSONL fields the options of ``args`` name (``--system-field model`` ...): known
    keys for this run, never warned about as unknown."""
    return [value for name in FIELD_OPTIONS if (value := getattr(args, name, None))]


def _jsonl(
    args: argparse.Namespace, path: str, **options: Any
) -> Iterator[PairInput]:
    """The pairs of a JSONL file, read against the side ``args`` asks for, with the fields
    its options name as known keys."""
    for pair, _ in iter_jsonl_records(
        path, fields=field_options(args), against=jsonl_side(args), **options
    ):
        yield pair


def _has_language(args: argparse.Namespace, pairs: Iterable[PairInput]) -> bool:
    """Whether the structure tiers can know a language: ``--lang``, ``--allow-no-lang``, or a
    ``language`` in some pair (read until the first one)."""
    if args.lang or getattr(args, "allow_no_lang", False):
        return True
    return any(pair.language for pair in pairs)


def _no_language(name: str, unknown_keys: dict[str, int]) -> None:
    """Fail: no pair names a language; ``unknown_keys`` (key: first line) may say why."""
    typos = "".join(
        f"; unknown key {key!r} in line {line}: did you mean 'language'?"
        for key, line in unknown_keys.items()
        if key_hint(key) == "language"
    )
    raise InputError(
        f"{name}: no pair has a 'language' and no --lang was given, so GRS and TRS could not "
        "apply (RUBY would be STS for every pair); pass --lang LANG, add \"language\" to the "
        f"pairs, or --allow-no-lang to score STS, CrystalBLEU and BLEU only{typos}"
    )


def _count_lines(path: str) -> int | None:
    try:
        with open(path, "rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return None  # reported, with the reason, when the file is read


def score_text(value: float | None) -> str:
    """A score in the one-line summaries on stderr: four decimals, ``-`` when undefined."""
    return "-" if value is None else f"{value:.4f}"


def explain_command(args: argparse.Namespace) -> str | None:
    """The ``explain`` command that shows one pair of this run's input, ``ID`` where the pair
    id goes (and ``SYSTEM`` its system, when ``--system-field`` split a JSONL into systems),
    with the options that change a score; ``None`` when the input was read from standard
    input (nothing to read it again from).

    >>> ns = argparse.Namespace(jsonl="p.jsonl", refs=None, hyps=None, lang="java",
    ...                         grs_beta=2.0, repair=True, tokenizer=None, ngrams=None)
    >>> explain_command(ns)
    'ruby-metric explain --jsonl p.jsonl --pair ID --lang java'
    >>> ns.system_field = "model"  # ``SYSTEM`` where the pair's system goes
    >>> explain_command(ns)
    'ruby-metric explain --jsonl p.jsonl --pair ID --system-field model --system SYSTEM --lang java'
    """
    import shlex

    jsonl = getattr(args, "jsonl", None)
    files = [jsonl] if jsonl else [getattr(args, "refs", None), getattr(args, "hyps", None)]
    if any(f is None or f == "-" for f in files):
        return None
    words = (["--jsonl", jsonl, "--pair", "ID"] if jsonl
             else ["--pair", "ID", *(str(f) for f in files)])
    if not jsonl and getattr(args, "more", None):
        words[-1] = "SYSTEM"  # several systems: the folder (or file) of the pair's system
    system_field = getattr(args, "system_field", None)
    if jsonl and system_field:
        # the systems' pairs share ids: the id alone names several
        words += ["--system-field", system_field, "--system", "SYSTEM"]
    options = [("--lang", getattr(args, "lang", None)),
               ("--source-lang", getattr(args, "source_lang", None)),
               ("--tokenizer", getattr(args, "tokenizer", None)),
               ("--ngrams", getattr(args, "ngrams", None))]
    beta = getattr(args, "grs_beta", DEFAULT_GRS_BETA)
    if beta != DEFAULT_GRS_BETA:
        options.append(("--grs-beta", f"{beta:g}"))
    for flag, value in options:
        if value:
            words += [flag, str(value)]
    if not getattr(args, "repair", True):
        words.append("--no-repair")
    return "ruby-metric explain " + " ".join(
        word if word in ("ID", "SYSTEM") else shlex.quote(str(word)) for word in words)


def corpus_line(summary: dict[str, Any], note: str = "") -> str:
    """The corpus scores on one line for stderr, from ``CorpusResult.summary()``: RUBY says
    how many pairs its mean is over when that is fewer than were read; ``note`` follows the
    number of pairs (what a resumed run skipped).

    >>> corpus_line({"pairs": 250, "ruby": 0.454, "crystalbleu": None, "bleu": 0.3,
    ...              "partial_means": {"ruby": "mean of 205 of 250"}})
    '250 pairs, RUBY 0.4540 (mean of 205 of 250), CrystalBLEU -, BLEU 0.3000'
    """
    partial = summary.get("partial_means", {}).get("ruby")
    ruby = score_text(summary["ruby"]) + (f" ({partial})" if partial else "")
    return (f"{pairs_text(summary['pairs'])}{note}, RUBY {ruby}, "
            f"CrystalBLEU {score_text(summary['crystalbleu'])}, "
            f"BLEU {score_text(summary['bleu'])}")
