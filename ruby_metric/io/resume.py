"""Resuming a run into its own JSONL output: the ids already written, and the file cut back
to its last whole line.

``ruby-metric score ... -f jsonl -o scores.jsonl --resume`` reads what an earlier run wrote
to ``scores.jsonl`` (one :meth:`PairResult.to_dict
<ruby_metric.scoring.results.PairResult.to_dict>` object a line), skips the pairs whose ids
are there, and appends the others. A last line without its newline (a run killed while the
line was being written) is dropped and its pair scored again. A file whose lines are not
such objects is refused, so that ``--resume`` never appends scores to some other file.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .inputs import InputError

__all__ = ["ResumePoint", "id_key", "resume_key", "resume_point"]

#: Keys every line that ``score -f jsonl`` writes has.
_RESULT_KEYS = frozenset({"id", "ruby", "tier", "reasons"})


@dataclass(frozen=True)
class ResumePoint:
    """What an earlier run left in a JSONL output.

    Attributes
    ----------
    ids : :func:`id_key` of every pair written whole (with several systems,
        :func:`resume_key` of its system and id).
    lines : how many whole lines the file holds.
    dropped : bytes of a last, unfinished line removed from the file (0 if none).
    keys : the same keys line by line, in the file's order (to match lines to pairs by
        position when the input's ids repeat).
    last : the last whole line as written, without its newline (``b""`` if none): what
        re-scoring its pair with the options of the resuming run must reproduce.
    """

    ids: frozenset[str]
    lines: int
    dropped: int
    keys: tuple[str, ...] = ()
    last: bytes = b""


def id_key(pair_id: Any) -> str:
    """How a pair id is matched against the ids of a JSONL output: its JSON text, so that
    the id ``3`` read back from the file matches the pair id ``3`` and not ``"3"``.

    >>> id_key(3), id_key("src/Foo.py")
    ('3', '"src/Foo.py"')
    """
    return json.dumps(pair_id, ensure_ascii=False, sort_keys=True)


def resume_key(pair_id: Any, system: Any = None) -> str:
    """How a pair of several systems is matched against the lines of a JSONL output: its
    system and its id (:func:`id_key` of the two), since an id is once per system; without
    a system, :func:`id_key` of the id alone.

    >>> resume_key("a.py", "coder-l"), resume_key(3)
    ('["coder-l", "a.py"]', '3')
    """
    return id_key(pair_id) if system is None else id_key([system, pair_id])


def resume_point(path: str | Path, *, system_field: str | None = None) -> ResumePoint:
    """Read the ids ``path`` already holds and cut an unfinished last line off it.

    A missing or empty file holds nothing (the run starts from the first pair).

    >>> resume_point("no-such-file.jsonl")
    ResumePoint(ids=frozenset(), lines=0, dropped=0, keys=(), last=b'')

    Parameters
    ----------
    path : the JSONL output of an earlier run.
    system_field : the field naming each line's system when the run has several systems:
        the ids are then :func:`resume_key` of (system, id), and a line without the field
        is an error (it was written by a run without these systems).

    Raises
    ------
    InputError : ``path`` cannot be read or written, or a whole line of it is not a result
        line of ``ruby-metric score -f jsonl`` (the message names the line), or (with
        ``system_field``) names no system.
    """
    target = Path(path)
    if not target.exists():
        return ResumePoint(frozenset(), 0, 0)
    try:
        data = target.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    whole = data.rfind(b"\n") + 1  # bytes up to the end of the last whole line
    keys: list[str] = []
    lines = data[:whole].split(b"\n")[:-1]
    for number, raw in enumerate(lines, start=1):
        obj = _result(path, number, raw)
        if system_field is None:
            keys.append(id_key(obj["id"]))
            continue
        if system_field not in obj:
            raise InputError(
                f"{path}:{number}: no {system_field!r}: a run with several systems matches "
                "the lines to its pairs by system and id, and this line names no system (it "
                "was written by another run): write to a new file"
            )
        keys.append(resume_key(obj["id"], obj[system_field]))
    dropped = len(data) - whole
    if dropped and not data[whole:].startswith(b'{"id": '):
        # every line written starts so: anything else is not a line of ours cut short
        raise InputError(
            f"{path}:{len(lines) + 1}: not a line of ruby-metric score -f jsonl output, so "
            "--resume will not append to this file"
        )
    if dropped:
        try:
            os.truncate(target, whole)
        except OSError as exc:
            raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    return ResumePoint(frozenset(keys), len(lines), dropped, tuple(keys),
                       lines[-1] if lines else b"")


def _result(path: str | Path, number: int, raw: bytes) -> dict[str, Any]:
    """One whole line of a JSONL output; an :class:`InputError` if the line is not one
    that ``score -f jsonl`` writes."""
    not_ours = (f"{path}:{number}: not a line of ruby-metric score -f jsonl output, so "
                "--resume will not append to this file")
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"{not_ours} (not JSON)") from None
    if not isinstance(obj, dict) or not obj.keys() >= _RESULT_KEYS:
        keys = ", ".join(sorted(_RESULT_KEYS))
        raise InputError(f"{not_ours} (expected an object with {keys})")
    return obj
