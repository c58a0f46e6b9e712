"""``ruby-metric meta ...``: distinguishability, correlation with judgments, system comparison.

Wired into :mod:`ruby_metric.cli.app` by :func:`add_meta_parser` (builds the ``meta`` subcommand
and its three children) and :func:`run_meta` (runs a parsed ``meta`` command, returns the
exit status). Input problems raise :class:`~ruby_metric.io.inputs.InputError` with a one-line
message naming the file and line; the main CLI turns it into exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..io.formats import counted
from ..io.inputs import InputError, PairInput, jsonl_objects, read_text, split_lines
from ..pages.compare_page import not_applicable_notes, p_value_text
from ..scoring.metrics import label
from .args import (
    Parser,
    add_labels,
    add_quiet,
    add_scorer_options,
    add_source_language,
    add_workers,
    int_at_least,
    output_file,
    pairs_text,
    scorer_from_args,
    with_examples,
)
from .meta_compare import format_table, run_many, warn_small_samples
from .meta_correlate import judged_rows, run_correlate
from .runner import log_to_stderr, run_command
from .systems import add_system_options

__all__ = [
    "add_meta_parser",
    "run_meta",
    "read_classes",
    "read_judged_pairs",
]

META_FORMATS = ("table", "json")



# --------------------------------------------------------------------------- arguments


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive): {value}")
    return value


def _common(parser: argparse.ArgumentParser, *, seed_help: str) -> None:
    add_scorer_options(parser, lang_required=True)
    parser.add_argument("--seed", type=int, default=0, help=seed_help)
    parser.add_argument(
        "--confidence", type=_fraction, default=0.95, help="level of the intervals (0.95)"
    )
    parser.add_argument("--format", "-f", choices=META_FORMATS, default="table")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    add_workers(parser)
    add_quiet(parser)


def add_meta_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``meta`` with ``distinguishability``, ``correlate`` and ``compare`` to a CLI.

    Parameters
    ----------
    subparsers : the object returned by ``parser.add_subparsers(dest="command", ...)``.

    Returns
    -------
    The ``meta`` parser.
    """
    meta = subparsers.add_parser(
        "meta",
        help="meta-evaluation: distinguishability, correlation, significance",
        description="Evaluate the metrics themselves: distinguishability on classes of "
        "equivalent programs, correlation with human judgments, and significance of the "
        "difference between two systems.",
    )
    sub = meta.add_subparsers(dest="meta_command", required=True, parser_class=type(meta))

    dist = sub.add_parser(
        "distinguishability",
        help="intra-class over inter-class similarity (CrystalBLEU section 3.2)",
        description="Distinguishability d = mean intra-class / mean inter-class similarity of "
        "ordered program pairs, exact when there are at most 2N pairs, else N of each sampled; "
        "with a bootstrap interval and the threshold classifier of CrystalBLEU's table 3.",
    )
    dist.add_argument(
        "--classes",
        required=True,
        metavar="FILE",
        help='JSONL with {"class": ..., "code": "..."} per program',
    )
    dist.add_argument("--class-field", default="class", help="field naming the class (class)")
    dist.add_argument("--code-field", default="code", help="field holding the code (code)")
    dist.add_argument(
        "--pairs", "-N", type=int_at_least(1), default=1000, help="N intra and N inter (1000)"
    )
    dist.add_argument(
        "--bootstrap", type=int_at_least(0), default=1000, help="resamples for d's CI (1000)"
    )
    dist.add_argument(
        "--train-fraction",
        type=_fraction,
        default=0.5,
        help="training share for the threshold classifier (0.5)",
    )
    dist.add_argument("--no-classifier", action="store_true", help="skip the threshold classifier")
    _common(dist, seed_help="seed of the sampling, bootstrap and split (0)")

    corr = sub.add_parser(
        "correlate",
        help="correlation of each metric with human or execution scores",
        description="Pearson, Spearman and Kendall correlation (with bootstrap intervals) of "
        "each metric with a judgment field; ROC AUC too when the judgments are 0/1. With "
        "--group-field (say, the task id of HumanEval completions) and 0/1 judgments, also "
        "the within-group AUC: of a passing and a failing candidate of the same group, how "
        "often the passing one scores higher (ties 1/2), pooled over groups.",
    )
    corr.add_argument(
        "refs", nargs="?", help="a folder of references (with --source-lang: of sources), or "
        "a line-aligned file of them; the judgments then come from --labels"
    )
    corr.add_argument(
        "systems", nargs="*", metavar="SYSTEM",
        help="a folder (or a line-aligned file) of candidates per system, paired with REFS",
    )
    corr.add_argument(
        "--jsonl",
        metavar="FILE",
        help='JSONL with {"reference", "candidate", <human field>, "language"?, "id"?}',
    )
    add_labels(corr)
    corr.add_argument(
        "--human-field", metavar="NAME", help="field holding the judgment (or --label-field)"
    )
    add_system_options(corr)
    add_source_language(corr)
    corr.add_argument(
        "--strict",
        action="store_true",
        help="a pair that cannot be read (a null reference, say) is an error instead of "
        "being counted as unreadable and left out of the correlations",
    )
    corr.add_argument(
        "--group-field",
        metavar="NAME",
        help="field naming each candidate's group (e.g. task_id): adds the within-group AUC, "
        "which compares only a passing and a failing candidate of the same group; needs a 0/1 "
        "human field; groups with one outcome only are left out (the output says how many)",
    )
    corr.add_argument(
        "--bootstrap", type=int_at_least(0), default=1000, help="resamples for the CIs (1000)"
    )
    _common(corr, seed_help="seed of the bootstrap (0)")

    comp = sub.add_parser(
        "compare",
        help="is system A better than system B? (paired significance tests)",
        description="Score two systems' outputs against the same references and test the "
        "difference: paired approximate randomization, paired bootstrap, paired t-test.",
    )
    comp.add_argument(
        "refs", nargs="?", help="references (with --source-lang: sources), one snippet per line"
    )
    comp.add_argument(
        "systems",
        nargs="*",
        metavar="SYSTEM",
        help="each system's outputs, line-aligned with REFS (two: A vs B; more: every pair, "
        "p-values adjusted for the number of comparisons), or a folder of its files when REFS "
        "is a folder (paired by relative path, named by the folder)",
    )
    comp.add_argument(
        "--jsonl",
        metavar="FILE",
        help="read every system's pairs from one JSONL file instead, split by --system-field "
        "and matched by 'id'",
    )
    add_system_options(comp)
    add_labels(comp)
    add_source_language(comp)
    comp.add_argument(
        "--trials",
        type=int_at_least(1),
        default=10000,
        help="approximate randomization trials (10000)",
    )
    comp.add_argument(
        "--bootstrap", type=int_at_least(1), default=1000, help="paired bootstrap resamples"
    )
    comp.add_argument(
        "--html",
        metavar="FILE",
        help="also write an HTML page: A vs B per pair, the tests, the pairs that differ most "
        "(two systems: two files, two folders, or a JSONL of two systems)",
    )
    comp.add_argument(
        "--top",
        type=int_at_least(0),
        default=20,
        metavar="N",
        help="with --html: show the N pairs that differ most (default 20)",
    )
    _common(comp, seed_help="seed of the swaps and resamples (0)")
    with_examples(
        meta,
        "ruby-metric meta distinguishability --classes classes.jsonl --lang java\n"
        "ruby-metric meta correlate --jsonl judged.jsonl --lang python --human-field score\n"
        "ruby-metric meta compare refs.cs a.cs b.cs --lang cs --html compare.html",
    )
    with_examples(
        dist,
        "ruby-metric meta distinguishability --classes classes.jsonl --lang java\n"
        "ruby-metric meta distinguishability --classes progs.jsonl -l cs --class-field task",
    )
    with_examples(
        corr,
        "ruby-metric meta correlate --jsonl judged.jsonl -l python --human-field score\n"
        "ruby-metric meta correlate --jsonl judged.jsonl -l java --human-field ok -f json\n"
        "ruby-metric meta correlate --jsonl he.jsonl -l python --human-field passed "
        "--group-field task_id\n"
        "ruby-metric meta correlate refs/ sys/a sys/b -l python --labels labels.jsonl "
        "--label-field passed",
    )
    with_examples(
        comp,
        "ruby-metric meta compare refs.cs a.cs b.cs --lang cs\n"
        "ruby-metric meta compare refs.cs a.cs b.cs -l cs --html compare.html -j 2\n"
        "ruby-metric meta compare refs.cs a.cs b.cs c.cs -l cs          # every pair, Holm\n"
        "ruby-metric meta compare --jsonl out.jsonl -l python --source-lang java "
        "--system-field model\n"
        "ruby-metric meta compare refs/ sys/a sys/b sys/c -l python       # folders",
    )
    return meta


# --------------------------------------------------------------------------- inputs


def read_classes(
    path: str | Path, class_field: str = "class", code_field: str = "code"
) -> list[tuple[Any, str]]:
    """``(class, code)`` per line of a JSONL file of ``{"class": ..., "code": "..."}``.

    Raises
    ------
    InputError : unreadable file, a line that is not a JSON object, a missing field, a class
        that is not a string/number/boolean, or code that is not a string.
    """
    out = []
    for number, obj in jsonl_objects(path):
        for name, option in ((class_field, "--class-field"), (code_field, "--code-field")):
            if name not in obj:
                others = ", ".join(repr(key) for key in obj if key != code_field)
                hint = f" (its keys: {others}; {option} names another)" if others else ""
                raise InputError(f"{path}:{number}: missing {name!r}{hint}")
        label, code = obj[class_field], obj[code_field]
        if not isinstance(label, (str, int, float, bool)):
            raise InputError(f"{path}:{number}: {class_field!r} must be a string or a number")
        if not isinstance(code, str):
            raise InputError(f"{path}:{number}: {code_field!r} must be a string")
        out.append((label, code))
    if not out:
        raise InputError(f"{path}: no programs")
    return out


def read_judged_pairs(path: str | Path, human_field: str) -> tuple[list[PairInput], list[float]]:
    """Pairs and their judgments from a JSONL file; every line must be complete.

    Raises
    ------
    InputError : a line without its judgment, or a pair that cannot be read (``meta
        correlate`` instead counts that one as unreadable, reports it and goes on).
    """
    rows = judged_rows(str(path), human_field)
    for row in rows.rows:
        if row.pair.problem is not None:
            raise InputError(row.pair.problem)
    return [r.pair for r in rows.rows], [float(r.label) for r in rows.rows]  # type: ignore[arg-type]


def _read_lines(path: str) -> list[str]:
    return split_lines(read_text(path))


# --------------------------------------------------------------------------- output


def _f(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(ci: Sequence[float] | None, digits: int = 3) -> str:
    return "-" if not ci else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _tally(counts: dict[str, int], shown: int = 3) -> str:
    """``"4 pairs: 2 x why; 1 x other; 1 more (-f json lists all)"``: the total, then the
    commonest reasons."""
    total = sum(counts.values())
    items = list(counts.items())
    text = "; ".join(f"{count} x {why}" for why, count in items[:shown])
    rest = sum(count for _, count in items[shown:])
    return f"{pairs_text(total)}: {text}" + (f"; {rest} more (-f json lists all)" if rest else "")


def _dump(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False, allow_nan=False, indent=2) + "\n")


def _name(metric: str) -> str:
    return label(metric)


# --------------------------------------------------------------------------- commands


def _cmd_distinguishability(args: argparse.Namespace) -> int:
    from ..meta import distinguishability

    classes = read_classes(args.classes, args.class_field, args.code_field)
    if len({label for label, _ in classes}) < 2:
        raise InputError(f"{args.classes}: needs programs of at least two classes")
    report = distinguishability(
        classes,
        scorer_from_args(args),
        pairs=args.pairs,
        seed=args.seed,
        bootstrap=args.bootstrap,
        confidence=args.confidence,
        train_fraction=None if args.no_classifier else args.train_fraction,
        workers=args.workers,
    )
    with output_file(args.output, whole=True) as out:
        if args.format == "json":
            _dump(report.to_dict(), out)
            return 0
        how = "all" if report.exact else "sampled"
        out.write(
            f"distinguishability: {report.programs} programs in {report.classes} classes; "
            f"{how} {report.pairs_intra} intra + {report.pairs_inter} inter ordered pairs "
            f"(of {report.population_intra} + {report.population_inter}), seed {report.seed}, "
            f"scored in {report.seconds:.1f} s\n\n"
        )
        level = f"{round(args.confidence * 100)}% CI"
        header = ["metric", "intra", "inter", "d", level, "n intra", "n inter", "excluded"]
        classifier = not args.no_classifier
        if classifier:
            header += ["threshold", "acc", "prec", "rec", "F1"]
        rows = []
        for name, r in report.items():
            row = [
                _name(name),
                _f(r.intra),
                _f(r.inter),
                _f(r.d, 3),
                _ci(r.d_ci),
                str(r.n_intra),
                str(r.n_inter),
                str(r.excluded_intra + r.excluded_inter),
            ]
            if classifier:
                c = r.classifier
                row += (
                    [
                        _f(c.threshold),
                        _f(c.accuracy, 3),
                        _f(c.precision, 3),
                        _f(c.recall, 3),
                        _f(c.f1, 3),
                    ]
                    if c
                    else ["-"] * 5
                )
            rows.append(row)
        out.write(format_table(header, rows) + "\n")
        corpus = [(n, r) for n, r in report.items() if r.corpus_d is not None]
        if corpus:
            out.write(
                "\ncorpus-level (summed statistics): "
                + ", ".join(
                    f"{_name(n)} {r.corpus_intra:.4f} / {r.corpus_inter:.4f} = {r.corpus_d:.3f}"
                    for n, r in corpus
                )
                + "\n"
            )
        for metric, reasons in report.reasons.items():
            out.write(f"{_name(metric)} undefined on {_tally(reasons)}\n")
        for metric, notes in report.notes.items():
            out.write(f"{_name(metric)} notes (scored, not excluded) on {_tally(notes)}\n")
        out.write(f"signature: {report.signature}\n")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from ..meta import compare_systems

    if args.jsonl or len(args.systems) != 2 or args.labels or any(
        Path(p).is_dir() for p in (args.refs, *args.systems) if p
    ):
        if not args.jsonl and not args.refs:
            raise InputError("give REFS SYSTEM SYSTEM... or --jsonl FILE --system-field FIELD")
        return run_many(args)
    args.sys_a, args.sys_b = args.systems
    refs, sys_a, sys_b = (_read_lines(p) for p in (args.refs, args.sys_a, args.sys_b))
    for path, lines in ((args.sys_a, sys_a), (args.sys_b, sys_b)):
        if len(lines) != len(refs):
            raise InputError(
                f"{args.refs} has {counted(len(refs), 'line')} but {path} has "
                f"{len(lines):,}: "
                "the files must be line-aligned"
            )
    if not refs:
        raise InputError(f"{args.refs}: no lines")
    if getattr(args, "html", None):
        from .report import compare_with_html

        report = compare_with_html(args, scorer_from_args(args), refs, sys_a, sys_b)
    else:
        report = compare_systems(
            scorer_from_args(args),
            refs,
            sys_a,
            sys_b,
            trials=args.trials,
            bootstrap=args.bootstrap,
            seed=args.seed,
            confidence=args.confidence,
            workers=args.workers,
        )
    warn_small_samples([(f"{args.sys_a} vs {args.sys_b}", report)])
    with output_file(args.output, whole=True) as out:
        if args.format == "json":
            data = report.to_dict()
            data["system_a"], data["system_b"] = args.sys_a, args.sys_b
            _dump(data, out)
            return 0
        out.write(
            f"A = {args.sys_a}\nB = {args.sys_b}\n{pairs_text(report.pairs)}; "
            f"{report.trials} randomization trials, {report.bootstrap} bootstrap resamples, "
            f"seed {report.seed}\n\n"
        )
        level = f"{round(args.confidence * 100)}% CI"
        header = ["metric", "level", "A", "B", "A-B", level, "p rand", "p boot", "p t", "n"]
        rows = [
            [
                _name(name),
                r.level,
                _f(r.score_a),
                _f(r.score_b),
                _f(r.difference),
                _ci(r.difference_ci, 4),
                p_value_text(r.p_value_randomization, resamples=r.trials, plus_one=True),
                p_value_text(r.p_value_bootstrap, resamples=r.bootstrap_samples),
                p_value_text(r.p_value_ttest),
                # the means are over the pairs both systems have the metric for: say so
                f"{r.n:,}" if r.n >= report.pairs else f"{r.n:,} of {report.pairs:,}",
            ]
            for name, r in report.items()
        ]
        out.write(format_table(header, rows) + "\n")
        for note in not_applicable_notes(report):
            out.write(note + "\n")
        out.write(f"signature: {report.signature}\n")
    return 0


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "distinguishability": _cmd_distinguishability,
    "correlate": run_correlate,
    "compare": _cmd_compare,
}


def run_meta(args: argparse.Namespace) -> int:
    """Run a parsed ``ruby-metric meta ...`` command; returns the exit status (0).

    Raises
    ------
    InputError : unreadable or malformed input (the CLI exits with status 2).
    """
    return _COMMANDS[args.meta_command](args)


def main(argv: Sequence[str] | None = None) -> int:
    """``ruby-metric meta`` on its own: ``python -m ruby_metric.cli.meta compare ...``.

    Same parser, logging and exit statuses as the wired-in subcommand (2 on unreadable input,
    130 / 143 on SIGINT / SIGTERM: :func:`ruby_metric.cli.runner.run_command`).
    """
    parser = Parser(prog="ruby-metric")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    add_meta_parser(sub)
    args = parser.parse_args(["meta", *(sys.argv[1:] if argv is None else argv)])
    log_to_stderr(args.quiet)
    return run_command(lambda _guard: run_meta(args))


if __name__ == "__main__":
    sys.exit(main())
