"""Several systems as folders, and labels joined to their pairs from a file of their own.

A translation benchmark laid out as files has a folder of references (or of sources) and a
folder of candidates per model: ``references/Foo.py``, ``systems/coder-l/Foo.py``, ...
:func:`read_folder_systems` pairs each system folder with the references as
:func:`~ruby_metric.io.units.pair_folders` does (by relative path, against sources by path
without extension) and names each system by its folder's name. The ids are the
candidates' relative paths, so the pairs of different systems match by id.

Labels (an execution verdict, a grade) then come from a JSONL file of their own, one object
per candidate: ``{"model": "coder-l", "id": "Foo.py", "passed": true}``.
:func:`join_labels` joins them to the pairs by (system, id).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from .formats import counted
from .inputs import InputError, display_name, jsonl_objects
from .natural_order import natural_sorted
from .systems import SystemRow, SystemsInput, check_group, check_label, shown_names
from .units import check_paired, folder_pairs, pair_folders

logger = logging.getLogger(__name__)

__all__ = ["system_names", "read_folder_systems", "join_labels"]

#: The group of a pair whose labels name no group field: its id (for folders, the file,
#: which is the task: every system translates the same files).
ID_GROUP = "id"


def system_names(paths: Sequence[str | Path]) -> list[str]:
    """Each system's name: its folder's (or file's) name, or the path as given where two
    names clash (``a/model`` and ``b/model``).

    Raises
    ------
    InputError : one path given twice.

    >>> system_names(["out/coder-l", "out/coder-m/"])
    ['coder-l', 'coder-m']
    >>> system_names(["run1/model", "run2/model"])
    ['run1/model', 'run2/model']
    """
    given = [str(p).rstrip("/") or str(p) for p in paths]
    twice = sorted({g for g in given if given.count(g) > 1})
    if twice:
        raise InputError(f"{', '.join(twice)}: the same system given twice")
    names = [Path(g).name or Path(g).resolve().name for g in given]
    names = [
        Path(g).resolve().name if n in (".", "..") else n
        for g, n in zip(given, names, strict=True)
    ]
    return [g if names.count(n) > 1 else n for g, n in zip(given, names, strict=True)]


def read_folder_systems(
    references: str | Path,
    systems: Sequence[str | Path],
    *,
    by_stem: bool = False,
    strict: bool = False,
    system_field: str | None = "model",
) -> SystemsInput:
    """One folder of candidates per system against one folder of references (or sources).

    Each system's files are paired with the references' as
    :func:`~ruby_metric.io.units.read_folders` pairs them: a reference whose file a system
    lacks is that system's missing translation, a pair with no candidate that scores 0 on
    every tier (``PairInput.missing``), so every system is scored on every reference; a
    system's file without a reference is left out. The files of every system without a
    counterpart are named in one warning (``strict``: an :class:`InputError`).

    Parameters
    ----------
    references : the folder of references, or of sources (then ``by_stem=True``).
    systems : a folder per system; each is named by :func:`system_names`.
    by_stem : match ``Foo.java`` with ``Foo.py`` (translations against their sources).
    strict : a file without a counterpart is an error.
    system_field : the name of the column naming each row's system when there are several
        (``SystemsInput.system_field``); one folder is one unnamed system.

    Returns
    -------
    SystemsInput : the systems in the order given, each one's pairs in natural order of id
        (the candidate's relative path; ``2/x.py`` before ``10/x.py``); ``rows[i].system``
        is the system's name (``None`` for one folder).

    Raises
    ------
    InputError : a path that is not a folder, a system whose files none pairs with a
        reference (a system with no file at all is a missing translation per reference, in
        the one warning), no reference, a system given twice, or (``strict``) a file without
        a counterpart.

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("refs/A.py", "refs/B.py", "s1/A.py", "s1/B.py", "s2/A.py"):
    ...     (root / name).parent.mkdir(exist_ok=True); _ = (root / name).write_text("x = 1")
    >>> rows = read_folder_systems(root / "refs", [root / "s1", root / "s2"])
    >>> [(r.system, r.pair.id, r.pair.missing is None) for r in rows.rows]
    [('s1', 'A.py', True), ('s1', 'B.py', True), ('s2', 'A.py', True), ('s2', 'B.py', False)]
    """
    names = system_names(systems)
    several = len(names) > 1
    pairings = [pair_folders(references, path, by_stem=by_stem) for path in systems]
    for path, name, pairing in zip(systems, names, pairings, strict=True):
        try:
            check_paired(pairing, references, path, by_stem=by_stem)
        except InputError as exc:
            raise InputError(f"system {name}: {exc}") from None
    unmatched = [m for path, pairing in zip(systems, pairings, strict=True)
                 if (m := pairing.unmatched_message(references, path, fates=not strict))]
    if unmatched:
        text = "; ".join(unmatched)
        if strict:
            raise InputError(f"{text} (--strict: every file must have a counterpart)")
        logger.warning("%s", text)
    # a file missing from one system gets the id the others' candidates of its key have
    # (by stem, Foo is Foo.py there), so that the systems are compared on the same ids
    known: dict[str, str] = {}
    for pairing in pairings:
        for pair_id, _, _ in pairing.matched:
            known.setdefault(str(PurePosixPath(pair_id).with_suffix("")) if by_stem
                             else pair_id, pair_id)
    rows: list[SystemRow] = []
    for path, name, pairing in zip(systems, names, pairings, strict=True):
        rows.extend(SystemRow(p, name if several else None)
                    for p in folder_pairs(pairing, path, ids=known))
    name = f"{display_name(references)} / " + (
        counted(len(names), "system") if several else display_name(systems[0]))
    return SystemsInput(tuple(rows), name, system_field if several else None)


def join_labels(
    systems: SystemsInput,
    path: str | Path,
    *,
    label_field: str,
    system_field: str = "model",
    group_field: str | None = None,
    solo_name: str | None = None,
    strict: bool = False,
) -> SystemsInput:
    """``systems`` with each pair's label (and group) from a JSONL file of labels, joined by
    (system, id).

    Each object names its pair's ``id`` (the candidate's relative path for folders, the
    0-based line for line-aligned files), its label in ``label_field`` (true/false, a number
    or null), its system in ``system_field`` (needed with several systems; with one, an
    object that names a system other than ``solo_name`` names no pair) and, with
    ``group_field``, its group. A label whose pair is absent and a pair without a label are
    named in one warning (``strict``: an :class:`InputError`); such a pair has the label
    ``None``.

    Without ``group_field`` and with several systems, a pair's group is its id: every system
    answers the same tasks, one file (or line) each, so the within-group AUC compares the
    systems' candidates for one task; ``group_field`` of the result is then ``"id"``.

    Returns
    -------
    SystemsInput : the same rows with ``label`` and ``group`` set, ``label_field`` and
        ``group_field`` named.

    Raises
    ------
    InputError : a line that is not a JSON object, an object without ``id`` (or, with
        several systems, without its system; with ``group_field``, without its group), a
        label that is not true/false or a number, one (system, id) labelled twice, or
        (``strict``) labels and pairs that do not match.
    """
    several = len(systems.systems) > 1
    name = display_name(path)
    labels: dict[tuple[str | None, str], tuple[int, Any, Any]] = {}
    rows = list(jsonl_objects(path))
    if not rows:
        raise InputError(f"{path}: no labels")
    if not any(label_field in obj for _, obj in rows):
        fields = sorted({key for _, obj in rows for key in obj})
        raise InputError(f"{path}: no line has the label field {label_field!r}; "
                         f"its fields: {', '.join(fields)}")
    for number, obj in rows:
        where = f"{name}:{number}"
        if "id" not in obj or not isinstance(obj["id"], (str, int)) or isinstance(obj["id"], bool):
            raise InputError(f"{where}: every label needs an 'id' (a string or an integer): "
                             "the pair it labels")
        system = obj.get(system_field)
        if system is None and several:
            raise InputError(f"{where}: missing {system_field!r}: with several systems each "
                             "label names its system (--system-field names the field)")
        system = solo_name if system is None else str(system)
        label = check_label(obj.get(label_field), where, label_field)
        group = None
        if group_field:
            if group_field not in obj:
                raise InputError(f"{where}: missing {group_field!r}")
            group = check_group(obj[group_field], where, group_field)
        key = (system, str(obj["id"]))
        if key in labels:
            raise InputError(f"{where}: {'/'.join(filter(None, key))} is labelled twice "
                             f"(also line {labels[key][0]})")
        labels[key] = (number, label, group)
    rows, unlabelled = [], []
    for row in systems.rows:
        # one system is named solo_name whatever its rows carry (a line-aligned file's
        # rows carry its path as given)
        system = row.system if several else solo_name
        key = (system, str(row.pair.id))
        found = labels.pop(key, None)
        if found is None:
            unlabelled.append("/".join(filter(None, key)))
            label, group = None, None
        else:
            _, label, group = found
        if group_field is None and several:
            group = str(row.pair.id)
        rows.append(dataclasses.replace(row, label=label, group=group))
    problems = []
    if labels:
        verb = "names" if len(labels) == 1 else "name"
        named = natural_sorted("/".join(filter(None, key)) for key in labels)
        problems.append(f"{counted(len(labels), 'label')} of {name} {verb} no pair "
                        f"({shown_names(named)})")
    if unlabelled:
        verb = "has" if len(unlabelled) == 1 else "have"
        problems.append(f"{counted(len(unlabelled), 'pair')} of {systems.name} {verb} no label "
                        f"in {name} ({shown_names(unlabelled)})")
    if problems:
        text = "; ".join(problems) + " (labels are joined to pairs by system and id)"
        if strict:
            raise InputError(f"{text} (--strict: every pair needs its label)")
        logger.warning("%s", text)
    return dataclasses.replace(
        systems, rows=tuple(rows), label_field=label_field,
        group_field=group_field or (ID_GROUP if several else None),
    )
