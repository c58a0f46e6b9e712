"""``ruby-metric meta correlate``: each metric against judgments (a human score, an execution
verdict), pooled and per system, with the within-group AUC like for like.

The judgment is the field ``--human-field`` (or ``--label-field``, the same thing by the name
the other commands use) names. A pair that cannot be read (a null reference, say) is what it
is in ``score``: a result with ``reasons.input``, counted as unreadable and named in the
output, its judgment left out of every correlation (with ``--strict``, an error).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..io.formats import counted
from ..io.inputs import InputError, display_name
from ..io.systems import SystemsInput, read_jsonl_systems
from ..scoring.metrics import label
from ..scoring.results import CorpusResult
from .args import jsonl_side, output_file, pairs_text, scorer_from_args
from .meta_compare import format_table
from .systems import systems_input

if TYPE_CHECKING:
    from ..meta.correlation import WithinGroupAUC

__all__ = ["judged_rows", "judgment_field", "run_correlate"]


def judgment_field(args: argparse.Namespace) -> str:
    """The field holding the judgments: ``--human-field`` or ``--label-field``.

    Raises
    ------
    InputError : neither is given, or both, naming different fields.
    """
    human, label_field = args.human_field, getattr(args, "label_field", None)
    if human and label_field and human != label_field:
        raise InputError(
            f"--human-field {human} and --label-field {label_field} name different fields: "
            "give one"
        )
    if not (human or label_field):
        raise InputError("meta correlate needs the judgment field: --label-field FIELD "
                         "(or --human-field FIELD)")
    return human or label_field


def judged_rows(
    path: str,
    field: str,
    *,
    against: str = "reference",
    system_field: str | None = None,
    group_field: str | None = None,
    warn: bool = True,
    strict: bool = False,
) -> SystemsInput:
    """The rows of a judged JSONL file; every pair must carry its judgment ``field``.

    A system's missing translation (an id another system has: its warning names it) has no
    judgment to correlate with: it is left out, as an unlabelled folder pair is.

    Raises
    ------
    InputError : a pair without its judgment (or with a judgment that is not a number or
        true/false), and what :func:`~ruby_metric.io.systems.read_jsonl_systems` raises
        (``strict``: an id a system lacks).
    """
    rows = read_jsonl_systems(
        path, against=against, system_field=system_field, label_field=field,
        group_field=group_field, warn=warn, strict=strict,
    )
    for row in rows.rows:
        if row.label is None and row.pair.missing is None:
            raise InputError(f"{display_name(path)}:{row.pair.line}: missing {field!r}")
    return dataclasses.replace(rows, rows=tuple(r for r in rows.rows if r.label is not None))


def _f(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(ci: Sequence[float] | None, digits: int = 3) -> str:
    return "-" if not ci else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _section(
    args: argparse.Namespace,
    rows: SystemsInput,
    corpus: CorpusResult,
    indices: list[int],
    metrics: Sequence[str],
) -> dict[str, Any]:
    """The correlations (and within-group AUCs) over the rows at ``indices``."""
    from ..meta import correlate_metrics, within_group_like_for_like  # scipy: only when used

    readable = [i for i in indices if "input" not in corpus.pairs[i].reasons]
    human = [float(rows.rows[i].label) for i in readable]  # type: ignore[arg-type]
    scores = {m: [getattr(corpus.pairs[i], m) for i in readable] for m in metrics}
    options = {"bootstrap": args.bootstrap, "seed": args.seed, "confidence": args.confidence}
    results = correlate_metrics(scores, human, **options) if readable else {}
    section: dict[str, Any] = {"pairs": len(indices), "unreadable": len(indices) - len(readable),
                               "results": results,
                               "constant": human[0] if len(set(human)) == 1 else None}
    if args.group_field:
        groups = [rows.rows[i].group_key for i in readable]
        within, left = within_group_like_for_like(scores, human, groups, **options)
        section.update(within=within, undefined_left_out=left, groups=len(set(groups)))
    return section


def _judged_input(args: argparse.Namespace, field: str) -> SystemsInput:
    """The judged rows of ``--jsonl FILE``, or of REFS and a folder (or line-aligned file)
    per system with ``--labels FILE``: a pair without its label is left out (the join's
    warning named it).

    Raises
    ------
    InputError : both kinds of input, or neither; no pair with a label; and what the
        readers raise.
    """
    if args.jsonl:
        if args.refs or args.systems:
            raise InputError("give either REFS SYSTEM... or --jsonl FILE, not both")
        return judged_rows(
            args.jsonl, field, against=jsonl_side(args), system_field=args.system_field,
            group_field=args.group_field, strict=args.strict,
        )
    if not (args.refs and args.systems and args.labels):
        raise InputError("meta correlate reads --jsonl FILE, or REFS SYSTEM... with "
                         "--labels FILE")
    args.label_field = field  # --human-field names the labels' field too
    rows = systems_input(args)
    assert rows is not None  # systems and labels are given
    judged = tuple(r for r in rows.rows if r.label is not None)
    if not judged:
        raise InputError(f"{args.labels}: no label matches a pair of {rows.name}")
    return dataclasses.replace(rows, rows=judged)


def run_correlate(args: argparse.Namespace) -> int:
    """Run ``meta correlate``; returns the exit status (0).

    Raises
    ------
    InputError : unreadable or malformed input, no readable pair, or (``--strict``) one.
    """
    field = judgment_field(args)
    rows = _judged_input(args, field)
    # folders name their groups and systems themselves (the group defaults to the id):
    # what the tables and JSON call them is what was read
    args.group_field = rows.group_field
    args.system_field = rows.system_field or ("system" if rows.systems else None)
    if args.group_field:
        other = next((r for r in rows.rows if r.label not in (0.0, 1.0)), None)
        if other is not None:
            where = f"{rows.name}:{other.pair.line}" if args.jsonl else \
                f"{rows.name}: pair {other.pair.id}"
            raise InputError(
                f"{where}: --group-field needs a binary "
                f"human field (0/1 or true/false), but {field!r} is {other.label:g}"
            )
    problems = [r.pair for r in rows.rows if r.pair.problem is not None]
    if problems and (args.strict or len(problems) == len(rows.rows)):
        first = problems[0].problem
        if args.strict:
            raise InputError(f"{first} (--strict: every pair must be readable)")
        raise InputError(
            f"no pair could be read: all {pairs_text(len(problems))} of "
            f"{rows.name} have a problem (first: {first})"
        )
    scorer = scorer_from_args(args)
    try:
        corpus = scorer.score_pairs([r.pair for r in rows.rows], workers=args.workers)
    finally:
        scorer.close()
    metrics = list(scorer.metrics)
    pooled = _section(args, rows, corpus, list(range(len(rows.rows))), metrics)
    systems = {s: _section(args, rows, corpus, rows.indices(s), metrics) for s in rows.systems}
    unreadable = [p for p in corpus.pairs if "input" in p.reasons]
    with output_file(args.output, whole=True) as out:
        if args.format == "json":
            data = _json_section(args, field, pooled)
            data["unreadable_ids"] = [p.id for p in unreadable]
            data["signature"] = corpus.signature
            if systems:
                data["system_field"] = args.system_field
                data["systems"] = {s: _json_section(args, field, v) for s, v in systems.items()}
            out.write(json.dumps(data, ensure_ascii=False, allow_nan=False, indent=2) + "\n")
            return 0
        _write_section(out, args, field, pooled, "")
        for name, section in systems.items():
            _write_section(out, args, field, section, f"{args.system_field} {name}: ")
        if unreadable:
            first = unreadable[0]
            out.write(
                f"\nunreadable, left out of every correlation: {pairs_text(len(unreadable))} "
                f"(first: pair {first.id}: {first.reasons['input']})\n"
            )
        out.write(f"signature: {corpus.signature}\n")
    return 0


def _json_section(args: argparse.Namespace, field: str, section: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "pairs": section["pairs"],
        "unreadable": section["unreadable"],
        "human_field": field,
    }
    if args.group_field:
        data["group_field"] = args.group_field
        data["groups"] = section["groups"]
        data["within_group_left_out_undefined"] = section["undefined_left_out"]
    data.update(bootstrap=args.bootstrap, confidence=args.confidence, seed=args.seed)
    metrics = {m: r.to_dict() for m, r in section["results"].items()}
    for m, w in section.get("within", {}).items():
        metrics[m]["within_group"] = w.to_dict()
    data["metrics"] = metrics
    return data


def _write_section(
    out: TextIO, args: argparse.Namespace, field: str, section: dict[str, Any], title: str
) -> None:
    """One correlation table (and within-group table) of :func:`run_correlate`."""
    results = section["results"]
    readable = section["pairs"] - section["unreadable"]
    head = "" if not title else "\n"
    out.write(
        f"{head}{title}correlation with {field!r} over {pairs_text(readable)}"
        + (f" ({section['unreadable']} unreadable left out)" if section["unreadable"] else "")
        + f" ({args.bootstrap} bootstrap resamples, seed {args.seed})\n\n"
    )
    if section["constant"] is not None and readable > 1:
        # a table of dashes would look like a failure of the metrics, not of the sample
        out.write(f"none: every pair's {field!r} is {section['constant']:g}, and a score "
                  "correlates with no constant\n")
        return
    binary = any(r.auc is not None for r in results.values())
    header = ["metric", "n", "pearson", "CI", "spearman", "CI", "kendall", "CI"]
    if binary:
        header += ["AUC", "CI"]
    rows = []
    for name, r in results.items():
        row = [label(name), str(r.n), _f(r.pearson.value), _ci(r.pearson.ci),
               _f(r.spearman.value), _ci(r.spearman.ci), _f(r.kendall.value), _ci(r.kendall.ci)]
        if binary:
            row += [_f(r.auc.value), _ci(r.auc.ci)] if r.auc else ["-", "-"]
        rows.append(row)
    out.write(format_table(header, rows) + "\n")
    if args.group_field:
        _write_within_group(out, args, field, section)


def _write_within_group(
    out: TextIO, args: argparse.Namespace, field: str, section: dict[str, Any]
) -> None:
    """The within-group table and what it left out: every metric over the same candidates."""
    within: dict[str, WithinGroupAUC] = section["within"]
    head = f"\nwithin-group AUC by {args.group_field!r} ({counted(section['groups'], 'group')}): "
    if not any(w.groups for w in within.values()):
        out.write(head + f"none: no group has both a {field!r} 1 and a 0 here\n")
        return
    out.write(head + f"{field!r} 1 vs 0 in the same group, ties 1/2; its CI resamples groups\n\n")
    header = ["metric", "within AUC", "CI", "pooled AUC", "n", "groups", "pairs"]
    rows = [
        [label(name), _f(w.value), _ci(w.ci), _f(w.pooled), str(w.n), str(w.groups),
         str(w.pairs)]
        for name, w in within.items()
    ]
    out.write(format_table(header, rows) + "\n")
    out.write("n: candidates in groups with both outcomes (both AUCs are over these, the same "
              "for every metric); pairs: (1, 0) pairs of one group\n")
    if section["undefined_left_out"]:
        out.write(
            f"left out: {counted(section['undefined_left_out'], 'candidate')} where some "
            "metric is undefined (every metric is judged on the same candidates)\n"
        )
    first = next((w for w in within.values() if w.n or w.left_out_items), None)
    if first is not None and first.left_out_groups:
        out.write(
            f"left out: {counted(first.left_out_groups, 'group')} "
            f"({counted(first.left_out_items, 'candidate')}) with one outcome only "
            "(no within-group pair)\n"
        )
