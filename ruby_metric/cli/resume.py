"""``score --resume``: which pairs the output file holds already, and whether it was written
with the options of this run.

A JSONL line carries no signature, so the options are checked by their effect: the pair of
the file's last whole line is scored again with this run's options and must give that line
byte for byte (scores are deterministic). A file written with other options (``--grs-beta``,
``--metrics``, ``--source-lang``, ``--ngrams``...) is refused rather than given lines that
mean something else.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..api.scorer import RubyScorer
from ..io.formats import jsonl_line
from ..io.inputs import InputError, PairInput
from ..io.resume import ResumePoint, id_key, resume_key, resume_point
from ..io.systems import SystemsInput
from .args import pairs_text, score_text

__all__ = ["Resumed", "check_options", "file_ruby_lines", "resumed"]


@dataclass(frozen=True)
class Resumed:
    """What ``--resume`` leaves to score.

    Attributes
    ----------
    pairs : the pairs (every one: the skipped still count for an n-gram set built from the
        references).
    done : whether a pair is one the file holds already.
    skipped : how many pairs the file holds already.
    systems : the rows left to score (``None`` without systems).
    point : what the file holds.
    last : whether a pair is the one of the file's last whole line (``None``: no line).
    last_extras : that line's system and label columns.
    skipped_by_system : with systems, how many of each system's rows the file holds.
    """

    pairs: Callable[[], Iterator[PairInput]]
    done: Callable[[PairInput], bool]
    skipped: int
    systems: SystemsInput | None
    point: ResumePoint
    last: Callable[[PairInput], bool] | None = None
    last_extras: dict[str, Any] = field(default_factory=dict)
    skipped_by_system: dict[str, int] = field(default_factory=dict)


def resumed(
    args: argparse.Namespace,
    pairs: Callable[[], Iterator[PairInput]],
    systems: SystemsInput | None,
) -> Resumed:
    """``--resume``: the pairs ``--output`` holds already; an unfinished last line is cut off
    the file (its pair is scored again).

    Without systems a pair is matched by its id; when the input's ids repeat (the rows of
    several systems in one JSONL read without ``--system-field``) an id names no one pair,
    so the lines are matched by position, as a run writes them: the file's lines must then
    be the input's first pairs, in order. With systems, each line carries its system and a
    row is matched by (system, id): an id is once per system (the readers refuse a second).
    The rows left keep their order, so the system and label each line carries are its own.

    Raises
    ------
    InputError : ``--resume`` without ``-f jsonl -o FILE``, FILE is not a JSONL output of
        ``score``, (with several systems) a line of it names no system, its last line's pair
        is not one of the input, or (ids repeating) its lines are not the input's first pairs.
    """
    if args.format != "jsonl" or args.score_only or not args.output or args.output == "-":
        raise InputError("--resume needs -f jsonl -o FILE: it appends to the lines FILE holds")
    output = args.output
    system_field = systems.system_field if systems is not None else None
    point = resume_point(output, system_field=system_field)
    if point.dropped and not args.quiet:
        print(f"ruby-metric: {output}: dropped an unfinished last line "
              f"({point.dropped:,} bytes); its pair is scored again", file=sys.stderr)
    if systems is None:
        return _by_id_or_position(output, pairs, point)
    # the rows' own pairs, so that a pair is known by its row (two systems' pairs can be
    # equal in every field but their system, which the pair does not carry)
    keys = [resume_key(row.pair.id, row.system if system_field else None)
            for row in systems.rows]
    if len(set(keys)) < len(keys):  # labels without systems, ids repeating: by position
        _check_positions(output, point, keys)
        done = {id(row.pair) for row in systems.rows[:point.lines]}
    else:
        done = {id(row.pair) for row, key in zip(systems.rows, keys, strict=True)
                if key in point.ids}
    left = dataclasses.replace(
        systems, rows=tuple(row for row in systems.rows if id(row.pair) not in done))
    rows = [row.pair for row in systems.rows]
    by_system = Counter(str(row.system) for row in systems.rows if id(row.pair) in done)
    result = Resumed((lambda: iter(rows)), (lambda pair: id(pair) in done), len(done), left,
                     point, skipped_by_system=dict(by_system))
    if not point.lines:
        return result
    index = point.lines - 1 if len(set(keys)) < len(keys) else _index_of(output, point, keys)
    target = rows[index]
    return dataclasses.replace(result, last=lambda pair: pair is target,
                               last_extras=systems.extras(index))


def _by_id_or_position(
    output: str, pairs: Callable[[], Iterator[PairInput]], point: ResumePoint
) -> Resumed:
    """:func:`resumed` without systems."""
    keys, lines = [], []
    for pair in pairs():
        keys.append(id_key(pair.id))
        lines.append(pair.line)
    if len(set(keys)) == len(keys):
        written = sum(1 for key in keys if key in point.ids)
        result = Resumed(pairs, lambda pair: id_key(pair.id) in point.ids, written, None, point)
        if not point.lines:
            return result
        last = keys[_index_of(output, point, keys)]
        return dataclasses.replace(result, last=lambda pair: id_key(pair.id) == last)
    # ids repeat: position is what a run writes by, and a pair's JSONL line names its position
    _check_positions(output, point, keys)
    count = point.lines
    if None in lines[:count]:
        raise InputError(f"{output}: the input's ids repeat and its pairs name no line to "
                         "match them by: pass --system-field NAME, or write to a new file")
    first = set(lines[:count])
    last_line = lines[count - 1] if count else None
    return Resumed(pairs, lambda pair: pair.line in first, count, None, point,
                   None if last_line is None else (lambda pair: pair.line == last_line))


def _check_positions(output: str, point: ResumePoint, keys: list[str]) -> None:
    """An :class:`InputError` unless ``output``'s lines carry the keys of the input's first
    pairs in order (how lines are matched to pairs when the input's keys repeat)."""
    repeated = next(key for key, n in Counter(keys).items() if n > 1)
    why = (f"the input's ids repeat (id {repeated} is several pairs'), so --resume matches "
           f"{output}'s lines to the pairs by position")
    hint = "; for the rows of several systems, pass --system-field NAME"
    if point.lines > len(keys):
        raise InputError(f"{output}: {point.lines:,} lines, but {why} and the input has "
                         f"{len(keys):,} pairs{hint}")
    for number, (written_key, key) in enumerate(zip(point.keys, keys, strict=False), start=1):
        if written_key != key:
            raise InputError(f"{output}:{number}: id {written_key}, but pair {number} of the "
                             f"input has id {key}: {why}{hint}")


def _index_of(output: str, point: ResumePoint, keys: list[str]) -> int:
    """The position in the input of the pair of ``output``'s last whole line."""
    try:
        return keys.index(point.keys[-1])
    except ValueError:
        raise InputError(
            f"{output}:{point.lines}: pair {point.keys[-1]} is not a pair of the input: "
            "--resume needs the input the file was written from"
        ) from None


def check_options(scorer: RubyScorer, resume: Resumed, output: str) -> None:
    """Score the pair of ``output``'s last whole line again with ``scorer`` and refuse to
    append when its line differs from the one written: the file was written with other
    options, and appending would mix two kinds of scores in one file. Nothing to check in a
    file without whole lines.

    The pair is scored through :meth:`RubyScorer.stream` over every pair (all but it
    skipped), so an n-gram set built from the references is the one the whole run uses.

    Raises
    ------
    InputError : the line differs (the message names the file, the line and the pair id).

    Example
    -------
    >>> check_options(scorer, resumed(args, pairs, None), "scores.jsonl")  # doctest: +SKIP
    """
    if resume.last is None:
        return
    target = resume.last
    with _silenced():  # the run itself warns of the same things (an n-gram set built here)
        run = scorer.stream(resume.pairs, workers=1, skip=lambda pair: not target(pair))
        try:
            produced = [jsonl_line(result, resume.last_extras).encode("utf-8")
                        for result in run]
        finally:
            run.close()
    if produced != [resume.point.last]:
        number, pair_id = resume.point.lines, resume.point.keys[-1]
        raise InputError(
            f"{output}:{number}: pair {pair_id} scores differently with these options than "
            "the line written there: --resume needs the options the file was written with "
            "(--metrics, --grs-beta, --source-lang, --ngrams...), or write to a new file"
        )


@contextmanager
def _silenced() -> Iterator[None]:
    """Warnings below ERROR kept off the terminal's handlers for the while (errors pass)."""
    handlers = logging.getLogger().handlers

    def quiet(record: logging.LogRecord) -> bool:
        return record.levelno >= logging.ERROR

    for handler in handlers:
        handler.addFilter(quiet)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(quiet)


def file_ruby_lines(output: str, system_field: str | None) -> list[str]:
    """After a resumed run, the mean RUBY of every line ``output`` holds (each system's, then
    the whole file's), as lines for stderr: the corpus lines of the run cover only the pairs
    it scored. RUBY's corpus score is the mean of its pair scores, which the lines hold;
    corpus BLEU and CrystalBLEU come from summed n-gram counts that they do not.

    >>> file_ruby_lines("no-such-file.jsonl", None)
    []
    """
    try:
        with open(output, encoding="utf-8") as lines:
            rows = [json.loads(line) for line in lines if line.strip()]
    except (OSError, ValueError):
        return []
    groups: dict[str, list[Any]] = {}
    for row in rows:
        if system_field and system_field in row:
            groups.setdefault(str(row[system_field]), []).append(row.get("ruby"))
    groups[""] = [row.get("ruby") for row in rows]
    out = []
    for name, values in groups.items():
        scored = [v for v in values if v is not None]
        mean = sum(scored) / len(scored) if scored else None
        part = f" (mean of {len(scored):,} of {len(values):,})" \
            if scored and len(scored) < len(values) else ""
        out.append(f"{name + ': ' if name else ''}all of {output}: {pairs_text(len(values))}, "
                   f"RUBY {score_text(mean)}{part} (the mean of its lines; corpus CrystalBLEU "
                   "and BLEU need a run of every pair)")
    return out
