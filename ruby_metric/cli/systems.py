"""Options and input of the commands that know systems and labels: ``--system-field``,
``--label-field``, and the rows they read (:func:`systems_input`)."""

from __future__ import annotations

import argparse
import dataclasses
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..io.inputs import InputError
from ..io.system_folders import join_labels, read_folder_systems, system_names
from ..io.systems import SystemsInput, read_aligned_systems, read_jsonl_systems
from ..scoring.results import PairResult
from .args import jsonl_side

logger = logging.getLogger(__name__)

__all__ = [
    "add_system_options",
    "systems_input",
    "row_extras",
    "extra_fields",
    "check_extra_names",
    "check_field_names",
    "warn_missing",
]


def add_system_options(parser: argparse.ArgumentParser, *, label: bool = True) -> None:
    """``--system-field FIELD`` and (with ``label``) ``--label-field FIELD``."""
    parser.add_argument(
        "--system-field",
        metavar="FIELD",
        help="with --jsonl: the field naming each pair's system (e.g. model); every pair "
        "then needs an 'id', and pairs of different systems are matched by it. With "
        "folders: the field of --labels naming the system (default model)",
    )
    if label:
        parser.add_argument(
            "--label-field",
            metavar="FIELD",
            help="with --jsonl (or --labels): the field holding each pair's label (pass/fail "
            "as true/false, or a numeric grade), carried into every JSONL, CSV and JSON row "
            "and the report",
        )


def systems_input(args: argparse.Namespace) -> SystemsInput | None:
    """The rows of the command's input with their systems, labels and groups, or ``None``
    when the input is one system with none of ``--system-field``, ``--label-field``,
    ``--group-field``, ``--labels``.

    The one place a command reads several systems: ``--jsonl FILE`` (split by
    ``--system-field``); or REFS and a folder per system (each paired with REFS file by
    file, named by its folder's name); or REFS and a line-aligned file per system. The
    systems are ``args.systems`` (``meta``) or HYPS and more HYPS (``args.more``: ``score``,
    ``report``). ``--labels FILE`` joins labels to the pairs of positional input by
    (system, id) (:func:`~ruby_metric.io.system_folders.join_labels`).

    Raises
    ------
    InputError : a field option without ``--jsonl`` or ``--labels``, ``--labels`` with
        ``--jsonl`` or without a label field, and what the readers raise.
    """
    system = getattr(args, "system_field", None)
    label = getattr(args, "label_field", None)
    group = getattr(args, "group_field", None)
    labels = getattr(args, "labels", None)
    if getattr(args, "jsonl", None):
        if labels:
            raise InputError("--labels is for REFS and HYPS: with --jsonl each pair's label "
                             "is a field of its object (--label-field)")
        if not (system or label or group):
            return None
        return read_jsonl_systems(
            args.jsonl, against=jsonl_side(args), system_field=system, label_field=label,
            group_field=group, warn=False, strict=getattr(args, "strict", False),
        )
    if labels and not label:
        raise InputError(f"--labels {labels}: name the field holding each label with "
                         "--label-field FIELD (e.g. passed)")
    paths = _system_paths(args)
    # with several systems given as paths, --system-field names the column of their names
    named = [f"--{n}" for n, v in (("system-field", system if len(paths) < 2 else None),
                                   ("label-field", label), ("group-field", group)) if v]
    if named and not labels:
        raise InputError(f"{' and '.join(named)} read JSONL fields: give --jsonl FILE, or "
                         "--labels FILE with REFS and HYPS")
    if not paths:
        return None
    if args.refs is None:
        raise InputError("give REFS before the systems")
    if any(Path(p).is_dir() for p in (args.refs, *paths)):
        _check_folders(args.refs, paths)
        rows = read_folder_systems(
            args.refs, paths, by_stem=bool(getattr(args, "source_lang", None)),
            strict=getattr(args, "strict", False), system_field=system or "model",
        )
    else:
        rows = read_aligned_systems(args.refs, paths)
        if len(paths) > 1 and (system or getattr(args, "more", None)):
            # score and report print a block per system, headed by the field naming it
            rows = dataclasses.replace(rows, system_field=system or "model")
    if labels:
        rows = join_labels(
            rows, labels, label_field=label, system_field=system or "model",
            group_field=group, solo_name=system_names(paths)[0],
            strict=getattr(args, "strict", False),
        )
    return rows


def _system_paths(args: argparse.Namespace) -> list[str]:
    """The positional systems: ``meta``'s SYSTEMs; ``score``'s and ``report``'s HYPS when
    more than one is given, or one with ``--labels``."""
    if getattr(args, "systems", None):
        return list(args.systems)
    more = getattr(args, "more", None) or []
    if getattr(args, "hyps", None) and (more or getattr(args, "labels", None)):
        if getattr(args, "unit", None) == "file":
            raise InputError("--unit file scores two files as one pair: give folders for "
                             "several systems or labels")
        return [args.hyps, *more]
    return []


def _check_folders(refs: str, systems: list[str]) -> None:
    """Folders are paired with folders: REFS and every system a folder."""
    files = [p for p in (refs, *systems) if not Path(p).is_dir()]
    if files:
        raise InputError(
            f"{', '.join(files)}: not a folder, but other inputs are: give REFS and every "
            "system as folders (paired file by file) or all as line-aligned files"
        )


def extra_fields(systems: SystemsInput | None) -> list[str]:
    """The system and label fields each result row carries (none without ``systems``)."""
    return [] if systems is None else systems.extra_fields


def row_extras(systems: SystemsInput | None, index: int) -> dict[str, Any]:
    """The ``index``-th row's system and label by their fields (``{}`` without ``systems``)."""
    return {} if systems is None else systems.extras(index)


def check_field_names(names: Iterable[str | None]) -> None:
    """An :class:`InputError` when a system or label field has the name of a result key
    (``--label-field ruby``): its column would overwrite the score's. ``None``s are skipped,
    so ``score`` checks the fields its options name before any input is read."""
    taken = set(PairResult(id=0).to_dict()) | set(PairResult(id=0).to_record())
    for name in filter(None, names):
        if name in taken:
            raise InputError(
                f"field {name!r} is also a column of the results: name another field"
            )


def check_extra_names(systems: SystemsInput | None) -> None:
    """:func:`check_field_names` of the fields ``systems``' rows carry."""
    check_field_names(extra_fields(systems))


def warn_missing(systems: SystemsInput) -> None:
    """One warning naming, per system, the ids another system has and it has not."""
    missing = systems.missing()
    if not missing:
        return
    shown = "; ".join(
        f"{s} lacks {len(ids)} ({', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''})"
        for s, ids in missing.items()
    )
    logger.warning(
        "%s: not every system has every id, so each comparison uses the ids both of its "
        "systems have: %s", systems.name, shown,
    )
