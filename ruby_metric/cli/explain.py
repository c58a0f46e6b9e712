"""``ruby-metric explain``: one pair, every tier, and why (wired into :mod:`ruby_metric.cli.app`).

Each side is given either as a file holding exactly one snippet (the whole file content:
unlike ``score``'s line-per-snippet files, a method over many lines stays one snippet) or
as a string (``--ref-text``, ``--hyp-text``). ``-`` reads a side from standard input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..api.explain import Explanation
from ..io.inputs import (
    InputError,
    PairInput,
    display_name,
    iter_jsonl_records,
    read_text,
    split_lines,
)
from ..io.systems import read_jsonl_systems
from ..io.units import read_units
from ..pages.html_text import write_page
from .args import (
    EXAMPLES_FORMATTER,
    add_quiet,
    add_scorer_options,
    add_source_language,
    int_at_least,
    jsonl_side,
    pairs_text,
    scorer_from_args,
)

__all__ = ["add_explain_parser", "run_explain"]

EXPLAIN_FORMATS = ("text", "json")

EXPLAIN_EXAMPLES = """\
examples:
  ruby-metric explain ref.cs hyp.cs --lang cs
  ruby-metric explain ref.cs hyp.cs --lang cs --html pair.html
  ruby-metric explain --ref-text 'int f(){return 1;}' --hyp-text 'int f(){return 2;}' -l java
  ruby-metric explain --pair 620 refs.cs hyps.cs --lang cs     # pair 620 of a corpus
  ruby-metric explain --pair 7 --jsonl pairs.jsonl --lang java  # the pair whose id is 7
  ruby-metric explain --pair sum --jsonl runs.jsonl -l python --system-field model --system m1
  ruby-metric explain --pair util/Foo.py src/ out/ -l python --source-lang java  # folders
--pair takes the id that score, report and their outputs show: 0-based (line 621 of the
files is pair 620), a JSONL pair's own "id", or with two folders the candidate's relative
path. When several systems' pairs share an id (one JSONL with a "model" field), name the
system: --system-field model --system NAME.
"""


def add_explain_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``explain`` subcommand to the subparsers ``sub`` of the main parser."""
    explain = sub.add_parser(
        "explain",
        help="explain one pair: every tier's number and the edits behind it",
        description="Explain one pair: RUBY and each tier with why the others do not apply, "
        "the token edits (STS), AST renames/insertions/deletions (TRS), the PDG node mapping "
        "(GRS: every node pair with its normalized labels, weights and graded cost, unrelated "
        "statements replaced, unmatched control (true/false), data and effect edges, and the "
        "score's formula with its numbers) and CrystalBLEU's matched n-grams. REF and "
        "HYP are files holding one snippet each (the whole file); or give the code with "
        "--ref-text/--hyp-text. '-' reads standard input. With --pair N, REF and HYP are "
        "line-aligned corpus files or two folders (as score takes) and pair N of them is "
        "explained.",
        epilog=EXPLAIN_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    explain.add_argument("ref", nargs="?", metavar="REF", help="file with the reference")
    explain.add_argument("hyp", nargs="?", metavar="HYP", help="file with the candidate")
    explain.add_argument(
        "--pair",
        metavar="ID",
        help="explain the pair with this id in a corpus: REF and HYP are line-aligned files "
        "(0-based ids, as in score's and report's output), or give --jsonl FILE",
    )
    explain.add_argument("--jsonl", metavar="FILE", help="with --pair: a JSONL file of pairs")
    explain.add_argument(
        "--system-field",
        metavar="FIELD",
        help="with --pair and --jsonl: the field naming each pair's system (e.g. model); "
        "--system NAME then picks that system's pair with the id",
    )
    explain.add_argument(
        "--system", metavar="NAME", help="with --system-field: the system whose pair to explain"
    )
    explain.add_argument("--ref-text", metavar="CODE", help="the reference as a string")
    explain.add_argument("--hyp-text", metavar="CODE", help="the candidate as a string")
    add_scorer_options(explain, metrics=False, smoothing=False)
    add_source_language(explain)
    explain.add_argument("--format", "-f", choices=EXPLAIN_FORMATS, default="text")
    explain.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    explain.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page")
    explain.add_argument(
        "--max-items",
        type=int_at_least(0),
        default=10,
        metavar="N",
        help="longest list the text report shows in full (default 10; GRS's node table, "
        "whose totals the score is computed from, is always whole)",
    )
    add_quiet(explain)
    return explain


def _corpus_pair(args: argparse.Namespace) -> tuple[PairInput, list[PairInput]]:
    """Pair ``--pair`` of a corpus (a missing translation too: a file a system's folder
    lacks, an id a system of the JSONL lacks), and the corpus's pairs (read once: standard
    input cannot be read again)."""
    if args.ref_text is not None or args.hyp_text is not None:
        raise InputError("--pair takes corpus files, not --ref-text/--hyp-text")
    if (args.system_field is None) != (args.system is None):
        raise InputError("--system-field FIELD and --system NAME go together: they name the "
                         "system whose pair to explain")
    if args.jsonl:
        if args.ref or args.hyp:
            raise InputError("give either REFS HYPS or --jsonl FILE with --pair, not both")
        name = display_name(args.jsonl)
        if args.system_field:
            # as score reads it: an id the system lacks is its missing translation
            systems = read_jsonl_systems(args.jsonl, against=jsonl_side(args),
                                         system_field=args.system_field, warn=False)
            pairs = [row.pair for row in systems.rows]
            searched = [row.pair for row in systems.rows if row.system == args.system]
            if not searched:
                raise InputError(f"{name}: no pair has {args.system_field} {args.system!r}")
        else:
            pairs = searched = [pair for pair, _ in iter_jsonl_records(
                args.jsonl, against=jsonl_side(args))]
    else:
        if args.system_field:
            raise InputError("--system-field and --system pick among the pairs of --jsonl FILE")
        if not (args.ref and args.hyp):
            raise InputError("--pair N needs REFS and HYPS files or folders (or --jsonl FILE)")
        pairs = searched = read_units(args.ref, args.hyp, by_stem=bool(args.source_lang))
        name = f"{display_name(args.ref)} / {display_name(args.hyp)}"
    found = [pair for pair in searched if str(pair.id) == args.pair]
    if len(found) > 1:
        # several systems' pairs of one task share it: explaining the first would show
        # another system's candidate than the one asked about, with nothing to say so
        lines = ", ".join(str(pair.line) for pair in found[:5]) + (", ..." if len(found) > 5
                                                                  else "")
        raise InputError(
            f"{name}: {len(found):,} pairs have id {args.pair} (lines {lines}): name the "
            "system whose pair to explain with --system-field FIELD --system NAME"
        )
    if found:
        pair = found[0]
        if pair.problem is not None:
            raise InputError(f"pair {args.pair}: {pair.problem}")
        return pair, pairs
    count = len(searched)
    ids = [str(pair.id) for pair in searched[:4]]  # the first few, to name them
    # every id is the pair's 0-based position
    positional = all(pair.id == n and not isinstance(pair.id, bool)
                      for n, pair in enumerate(searched))
    if count == 0:
        known = "no pairs"
    elif positional:
        known = f"{pairs_text(count)}: ids 0 to {count - 1}, the 0-based positions"
    else:
        more = ", ..." if count > len(ids) else ""
        known = f"{pairs_text(count)}, ids {', '.join(ids)}{more}"
    raise InputError(f"{name}: no pair with id {args.pair} ({known})")


def _sides(args: argparse.Namespace) -> tuple[str, str]:
    """The reference and candidate texts, from files, strings or standard input."""
    files = [p for p in (args.ref, args.hyp) if p is not None]
    wanted = (args.ref_text is None) + (args.hyp_text is None)
    if len(files) != wanted:
        raise InputError(
            "give the reference and the candidate once each: REF and HYP files, or "
            "--ref-text/--hyp-text (e.g. explain ref.java --hyp-text 'int x = 1;')"
        )
    if files.count("-") > 1:
        raise InputError("only one side can be read from standard input ('-')")
    queue = list(files)
    ref = args.ref_text if args.ref_text is not None else _read(queue.pop(0))
    hyp = args.hyp_text if args.hyp_text is not None else _read(queue.pop(0))
    return ref, hyp


def _note_if_corpus_files(reference: str, candidate: str) -> None:
    """Say so when REF and HYP could be line-aligned corpus files: the same number of lines,
    above one, as ``score`` reads them (an empty line is a pair there: an empty candidate),
    none of them indented (a snippet over several lines nearly always is). Each file is
    still one snippet, but ``--pair`` may be what was meant."""
    lines = [split_lines(text) for text in (reference, candidate)]
    count = len(lines[0])
    indented = any(line[:1].isspace() for side in lines for line in side)
    if count == len(lines[1]) > 1 and not indented:
        print(
            f"ruby-metric: note: explaining each file as one snippet (both have {count} "
            "lines); pass --pair K to explain pair K (line K+1) of line-aligned files",
            file=sys.stderr,
        )


def _read(path: str) -> str:
    return sys.stdin.read() if path == "-" else read_text(path)


def _write(path: str, text: str) -> None:
    try:
        write_page(path, text)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def run_explain(args: argparse.Namespace) -> int:
    """Run ``explain``; raises :class:`~ruby_metric.io.inputs.InputError` on bad input (exit 2)."""
    import json

    from ..pages.pair_page import render_html

    language = args.lang
    corpus: list[PairInput] | None = None
    missing: str | None = None
    if args.pair is not None:
        pair, corpus = _corpus_pair(args)
        reference, candidate, missing = pair.reference, pair.candidate, pair.missing
        language = pair.language or args.lang  # a pair's own language wins, as when scored
    elif args.jsonl:
        raise InputError("--jsonl is for --pair N (explain one pair of a corpus)")
    elif args.system_field or args.system:
        raise InputError("--system-field and --system are for --pair ID --jsonl FILE")
    else:
        if any(Path(p).is_dir() for p in (args.ref, args.hyp) if p is not None):
            raise InputError(
                "REF and HYP are folders: pass --pair ID to explain one pair of them (the "
                "candidate's path relative to its folder, as score shows it)"
            )
        reference, candidate = _sides(args)
        if not args.quiet and args.ref_text is None and args.hyp_text is None:
            _note_if_corpus_files(reference, candidate)
    if not language:
        raise InputError("--lang is required (e.g. --lang java)")
    args.lang = language
    scorer = scorer_from_args(args)
    if corpus is not None and not args.ngrams:
        # the n-gram set `score` would use on this corpus (built from its references when
        # the language ships none), so that the pair's CrystalBLEU is the one score gave
        ngram_set = scorer.stream(lambda: iter(corpus)).ngram_set_for(scorer.language)
        if ngram_set is not None:
            scorer = scorer.with_language(scorer.language, ngrams=ngram_set)
    explain = scorer.explain_source if args.source_lang else scorer.explain
    explanation: Explanation = explain(reference, candidate)
    if missing is not None:  # scored as in a run: 0 for want of a candidate, not as "" is
        explanation = explanation.as_missing(missing)
    if args.format == "json":
        report = json.dumps(explanation.to_dict(), ensure_ascii=False, allow_nan=False, indent=2)
        report += "\n"
    else:
        report = explanation.to_text(max_items=args.max_items)
    if args.html:
        _write(args.html, render_html(explanation))
    if args.output:
        _write(args.output, report)
    else:
        sys.stdout.write(report)
    return 0
