"""Options and input of the commands that know systems and labels: ``--system-field``,
``--label-field``, and the rows they read (:func:`systems_input`)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from ..io.inputs import InputError
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
    "warn_missing",
]


def add_system_options(parser: argparse.ArgumentParser, *, label: bool = True) -> None:
    """``--system-field FIELD`` and (with ``label``) ``--label-field FIELD``."""
    parser.add_argument(
        "--system-field",
        metavar="FIELD",
        help="with --jsonl: the field naming each pair's system (e.g. model); every pair "
        "then needs an 'id', and pairs of different systems are matched by it",
    )
    if label:
        parser.add_argument(
            "--label-field",
            metavar="FIELD",
            help="with --jsonl: the field holding each pair's label (pass/fail as true/false, "
            "or a numeric grade), carried into every output",
        )


def systems_input(args: argparse.Namespace) -> SystemsInput | None:
    """The rows of the command's input with their systems, labels and groups, or ``None``
    when the command names none of ``--system-field``, ``--label-field``, ``--group-field``.

    The one place a command reads several systems: ``--jsonl FILE`` (split by
    ``--system-field``), or ``REFS`` and one line-aligned file per system
    (``args.systems``, for ``meta compare``).

    Raises
    ------
    InputError : a field option without ``--jsonl``, or what the readers raise.
    """
    system = getattr(args, "system_field", None)
    label = getattr(args, "label_field", None)
    group = getattr(args, "group_field", None)
    if getattr(args, "jsonl", None):
        if not (system or label or group):
            return None
        return read_jsonl_systems(
            args.jsonl, against=jsonl_side(args), system_field=system, label_field=label,
            group_field=group, warn=False,
        )
    named = [f"--{n}" for n, v in (("system-field", system), ("label-field", label)) if v]
    if named:
        raise InputError(f"{' and '.join(named)} read JSONL fields: give --jsonl FILE")
    systems = getattr(args, "systems", None)
    if systems:
        return read_aligned_systems(args.refs, systems)
    return None


def extra_fields(systems: SystemsInput | None) -> list[str]:
    """The system and label fields each result row carries (none without ``systems``)."""
    return [] if systems is None else systems.extra_fields


def row_extras(systems: SystemsInput | None, index: int) -> dict[str, Any]:
    """The ``index``-th row's system and label by their fields (``{}`` without ``systems``)."""
    return {} if systems is None else systems.extras(index)


def check_extra_names(systems: SystemsInput | None) -> None:
    """An :class:`InputError` when a system or label field has the name of a result key
    (``--label-field ruby``): its column would overwrite the score's."""
    taken = set(PairResult(id=0).to_dict()) | set(PairResult(id=0).to_record())
    for name in extra_fields(systems):
        if name in taken:
            raise InputError(
                f"field {name!r} is also a column of the results: name another field"
            )


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
