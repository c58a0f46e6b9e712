"""Reading several systems' outputs, with labels and groups, matched across systems by id.

A translation benchmark ships one JSONL with a field naming the system (``"model"``), an
execution verdict or a grade per candidate (``"passed"``) and the task it solves
(``"task"``); or one line-aligned file per system. :func:`read_jsonl_systems` and
:func:`read_aligned_systems` read either into :class:`SystemsInput`: one
:class:`SystemRow` per pair, in file order, with its system, label and group.

Systems are compared pair by pair *by id*, never by position in the file: in one JSONL
every pair of a split file must name its ``id``, and one id may appear once per system.
Line-aligned files have no ids; their pairs are matched by line (id = 0-based line).

An id some systems of a JSONL have and one lacks is that system's missing translation, as a
file missing from a system's folder is (:mod:`ruby_metric.scoring.missing`): a pair with no
candidate that scores 0, never left out, so a system is not rewarded for skipping inputs.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .formats import counted
from .inputs import InputError, PairInput, display_name, iter_jsonl_records, read_aligned
from .natural_order import natural_key, natural_sorted

logger = logging.getLogger(__name__)

__all__ = [
    "SystemRow",
    "SystemsInput",
    "read_jsonl_systems",
    "read_aligned_systems",
    "check_label",
    "check_group",
    "fill_missing",
    "shown_names",
]

#: How many names (files, labels, system/id) a message gives before it says "and N more".
_NAMED = 5


@dataclass(frozen=True)
class SystemRow:
    """One pair as read, with what it belongs to.

    Attributes
    ----------
    pair : the pair (its ``problem`` set when it cannot be scored: a null reference, say).
    system : the system that wrote the candidate (``None`` when the input is one system).
    label : the pair's label (``True``/``False`` or a number), ``None`` when it has none.
    group : the pair's group (say, its task), ``None`` without a group field.
    """

    pair: PairInput
    system: str | None = None
    label: bool | float | None = None
    group: Any = None

    @property
    def group_key(self) -> Hashable:
        """The group with its JSON type: ``true``, ``1`` and ``"1"`` are different groups."""
        return (type(self.group).__name__, self.group)


@dataclass(frozen=True)
class SystemsInput:
    """The rows of one input, and the fields that named systems, labels and groups.

    Attributes
    ----------
    rows : every pair in file order (blank lines are not pairs).
    name : how messages name the input (a file, or ``REFS / HYPS``).
    system_field, label_field, group_field : the fields read (``None``: not asked for).
    """

    rows: tuple[SystemRow, ...]
    name: str
    system_field: str | None = None
    label_field: str | None = None
    group_field: str | None = None

    @property
    def systems(self) -> list[str]:
        """The systems in the order they first appear (``[]`` for one unnamed system)."""
        return list(dict.fromkeys(r.system for r in self.rows if r.system is not None))

    def indices(self, system: str | None) -> list[int]:
        """Positions in :attr:`rows` of ``system``'s pairs, in file order."""
        return [i for i, r in enumerate(self.rows) if r.system == system]

    def ids(self, system: str | None) -> dict[str, int]:
        """``system``'s pair ids (as text) -> position in :attr:`rows`."""
        return {str(self.rows[i].pair.id): i for i in self.indices(system)}

    def missing(self) -> dict[str, list[str]]:
        """Each system that lacks some id another system has -> those ids, in natural order
        (:func:`~ruby_metric.io.natural_order.natural_key`)."""
        ids = {s: set(self.ids(s)) for s in self.systems}
        union = set().union(*ids.values()) if ids else set()
        return {s: natural_sorted(union - have) for s, have in ids.items() if union - have}

    def with_missing(self, read: Iterable[PairInput]) -> Iterator[PairInput]:
        """The pairs of :attr:`rows`: each missing translation's own (``pair.missing``), and
        for every other row the next pair of ``read`` (the same file read again, say, with
        the warnings of a first read), so that the i-th pair is the i-th row's.

        >>> rows = SystemsInput((SystemRow(PairInput("a", "x", "y"), "m1"),
        ...                      SystemRow(PairInput("a", "x", "", missing="gone"), "m2")), "f")
        >>> [(p.id, p.candidate) for p in rows.with_missing([PairInput("a", "x", "y")])]
        [('a', 'y'), ('a', '')]
        """
        others = iter(read)
        for row in self.rows:
            yield row.pair if row.pair.missing is not None else next(others)

    @property
    def extra_fields(self) -> list[str]:
        """The columns a result row carries besides its scores: the system and label fields."""
        return [f for f in (self.system_field, self.label_field) if f]

    def extras(self, index: int) -> dict[str, Any]:
        """``{system field: system, label field: label}`` of the ``index``-th row."""
        row = self.rows[index]
        out: dict[str, Any] = {}
        if self.system_field:
            out[self.system_field] = row.system
        if self.label_field:
            out[self.label_field] = row.label
        return out

    def shared(self, a: str, b: str) -> list[tuple[int, int]]:
        """``(row of a, row of b)`` for every id both systems have, in natural order of id
        (``2`` before ``10``; :func:`~ruby_metric.io.natural_order.natural_key`): the pairs
        a test draws from do not depend on the order of the file's lines."""
        ids_a, ids_b = self.ids(a), self.ids(b)
        return [(ids_a[k], ids_b[k]) for k in natural_sorted(ids_a.keys() & ids_b.keys())]


def check_label(value: Any, where: str, field: str) -> bool | float | None:
    """A label as read: ``True``/``False``, a finite number, or ``None`` (JSON null).

    Raises
    ------
    InputError : anything else (a string, a list, NaN), naming ``where`` and the field.

    >>> check_label(True, "f:1", "passed"), check_label(3, "f:1", "grade")
    (True, 3.0)
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    raise InputError(f"{where}: {field!r} must be a number or true/false, not {value!r}")


def check_group(value: Any, where: str, field: str) -> Any:
    """A group as read: a string or a finite number (``where`` and ``field`` name it in the
    error).

    >>> check_group("sum_numbers", "f:1", "task")
    'sum_numbers'
    """
    if isinstance(value, (str, int, bool)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    raise InputError(f"{where}: {field!r} must be a string or a finite number")


def read_jsonl_systems(
    path: str | Path,
    *,
    against: str = "reference",
    system_field: str | None = None,
    label_field: str | None = None,
    group_field: str | None = None,
    warn: bool = True,
    strict: bool = False,
) -> SystemsInput:
    """The pairs of a JSONL file, split into systems by ``system_field`` when given.

    With ``system_field``, an id that some systems have and a system lacks is that system's
    missing translation (:func:`fill_missing`): every system is scored on every id.

    Parameters
    ----------
    path : the JSONL file (``-``: standard input).
    against : ``"reference"`` or ``"source"`` (see :func:`~ruby_metric.io.inputs.iter_jsonl`).
    system_field : the field naming each pair's system (``model``); every pair must have it
        and an ``id``, and an id may appear once per system.
    label_field : the field holding each pair's label (pass/fail or a grade); a pair without
        it has the label ``None``.
    group_field : the field naming each pair's group (the task); every pair must have it.
    warn : warn about unknown keys and invalid UTF-8 (these fields are known keys).
    strict : an id a system lacks is an error, not a missing translation.

    Returns
    -------
    SystemsInput : the rows in file order, with each missing translation placed as
        :func:`fill_missing` places it.

    Raises
    ------
    InputError : a line that is not JSON, a pair without its system, id or group, a label
        that is not true/false or a number, an id twice in one system, no pairs at all, or
        (``strict``) an id a system lacks.
    """
    fields = [f for f in (system_field, label_field, group_field, "id") if f]
    name = display_name(path)
    rows: list[SystemRow] = []
    seen: dict[tuple[str | None, str], int] = {}
    labelled = False  # whether any line has label_field (null or not): else a misspelt field
    for pair, extra in iter_jsonl_records(path, fields=fields, warn=warn, against=against):
        where = f"{name}:{pair.line}"
        labelled = labelled or (label_field is not None and label_field in extra)
        system = label = group = None
        if system_field:
            if system_field not in extra:
                raise InputError(f"{where}: missing {system_field!r}")
            system = extra[system_field]
            if not isinstance(system, (str, int)) or isinstance(system, bool):
                raise InputError(f"{where}: {system_field!r} must be a string or an integer")
            system = str(system)
            if "id" not in extra:
                raise InputError(
                    f"{where}: no 'id': pairs of different systems are matched by id, so "
                    "with --system-field every pair needs one"
                )
        if label_field:
            label = check_label(extra.get(label_field), where, label_field)
        if group_field:
            if group_field not in extra:
                raise InputError(f"{where}: missing {group_field!r}")
            group = check_group(extra[group_field], where, group_field)
        key = (system, str(pair.id))
        if system_field and key in seen:
            raise InputError(
                f"{where}: id {pair.id!r} appears twice for {system_field} {system!r} "
                f"(also line {seen[key]}): its pairs cannot be matched across systems"
            )
        seen[key] = pair.line or 0
        rows.append(SystemRow(pair, system, label, group))
    if not rows:
        raise InputError(f"{name}: no pairs")
    if label_field and not labelled:
        raise InputError(f"{name}: no line has the label field {label_field!r}")
    read = SystemsInput(tuple(rows), name, system_field, label_field, group_field)
    return fill_missing(read, strict=strict) if system_field else read


def fill_missing(systems: SystemsInput, *, strict: bool = False) -> SystemsInput:
    """``systems`` with a missing translation for every id a system lacks and another has.

    The missing pair has the id, the reference (or source), the language and the group of
    the first row of that id in input order (the first readable one, if any is), no
    candidate, no label, and ``missing`` ``"missing from the JSONL for FIELD SYSTEM"`` (it
    scores 0 on every tier). It goes where a system folder would put it, each system's pairs
    being in natural order of id there: before the first of its system's rows whose id comes
    after it in natural order (:func:`~ruby_metric.io.natural_order.natural_key`), or after
    its system's last row. One warning names how many there are and the first few (and any
    id whose rows disagree on the reference: the first is used); ``strict`` makes it an
    :class:`InputError`.

    >>> rows = SystemsInput((SystemRow(PairInput("a", "x", "y"), "m1"),
    ...                      SystemRow(PairInput("b", "z", "w"), "m1"),
    ...                      SystemRow(PairInput("b", "z", "v"), "m2")), "f", "model")
    >>> [(r.system, r.pair.id, r.pair.reference, r.pair.missing)
    ...  for r in fill_missing(rows).rows]  # doctest: +NORMALIZE_WHITESPACE
    [('m1', 'a', 'x', None), ('m1', 'b', 'z', None),
     ('m2', 'a', 'x', 'missing from the JSONL for model m2'), ('m2', 'b', 'z', None)]
    """
    lacking = systems.missing()
    if not lacking:
        return systems
    by_id: dict[str, list[SystemRow]] = {}
    for row in systems.rows:
        by_id.setdefault(str(row.pair.id), []).append(row)
    field = systems.system_field or "system"
    named = [f"{system}/{pair_id}" for system, ids in lacking.items() for pair_id in ids]
    text = (f"{systems.name}: {counted(len(named), 'id')} another system has "
            f"{'is' if len(named) == 1 else 'are'} missing from a system "
            f"({field}/id: {shown_names(named)})")
    disagree = natural_sorted(
        pair_id for pair_id in {i for ids in lacking.values() for i in ids}
        if len({r.pair.reference for r in by_id[pair_id] if r.pair.problem is None}) > 1
    )
    if disagree:
        text += (f"; the systems' rows of {counted(len(disagree), 'id')} disagree on the "
                 f"reference ({shown_names(disagree)}): the first row's is used")
    if strict:
        raise InputError(f"{text} (--strict: every system needs every id)")
    logger.warning("%s: each scored as a missing translation, 0", text)
    keyed = [((i, 0, natural_key("")), row) for i, row in enumerate(systems.rows)]
    for system, ids in lacking.items():
        own = [(i, natural_key(systems.rows[i].pair.id)) for i in systems.indices(system)]
        for pair_id in ids:
            key = natural_key(pair_id)
            at = next(((i, -1) for i, k in own if k > key), (own[-1][0], 1))
            keyed.append(((*at, key), _missing_row(by_id[pair_id], system, field)))
    keyed.sort(key=lambda item: item[0])
    return dataclasses.replace(systems, rows=tuple(row for _, row in keyed))


def _missing_row(rows: list[SystemRow], system: str, field: str) -> SystemRow:
    """``system``'s missing translation of the id of ``rows`` (other systems' rows, in input
    order), from the first readable one of them (or the first)."""
    donor = next((r for r in rows if r.pair.problem is None), rows[0])
    pair = dataclasses.replace(donor.pair, candidate="", boms=0, line=None,
                               missing=f"missing from the JSONL for {field} {system}")
    return SystemRow(pair, system, None, donor.group)


def shown_names(items: Sequence[str]) -> str:
    """The first few of ``items`` for a message, and how many more there are.

    >>> shown_names(["a", "b"]), shown_names([str(i) for i in range(7)])
    ('a, b', '0, 1, 2, 3, 4 and 2 more')
    """
    more = f" and {len(items) - _NAMED:,} more" if len(items) > _NAMED else ""
    return ", ".join(items[:_NAMED]) + more


def read_aligned_systems(references: str | Path, systems: Sequence[str | Path]) -> SystemsInput:
    """Line-aligned files, one per system, against one file of references (or sources).

    There are no ids: pairs are matched by line, so every file must have as many lines as
    ``references``. Each system is named by its path.

    Raises
    ------
    InputError : an unreadable file, files of different lengths, a system given twice, or
        empty files.
    """
    names = [display_name(s) for s in systems]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"{', '.join(twice)}: the same system given twice")
    rows: list[SystemRow] = []
    for path, system in zip(systems, names, strict=True):
        rows.extend(SystemRow(pair, system) for pair in read_aligned(references, path))
    if not rows:
        raise InputError(f"no pairs: {display_name(references)} is empty")
    name = f"{display_name(references)} / {counted(len(names), 'system')}"
    return SystemsInput(tuple(rows), name)
