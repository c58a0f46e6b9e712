"""Reading pairs from files: line-aligned snippet files and JSONL, with errors that say where.

Files are decoded as UTF-8; bytes that are not valid UTF-8 become U+FFFD (the replacement
character) and a warning names the file and the first line affected, so a stray byte never
stops a run but never passes unnoticed either. Only ``\\n`` (with an optional ``\\r``) ends
a line: other Unicode line separators are part of the code.

A UTF-8 byte-order mark (U+FEFF, which Visual Studio writes at the start of C# files) is
never code: one at the start of a file or of a line is dropped, and counted in
:attr:`PairInput.boms` so the CLI's summary can say how many were removed.

The path ``-`` means standard input (read once).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import itertools
import json
import logging
import math
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from ..scoring.code import canonical_language
from .formats import counted

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: The keys a JSONL pair object may have; any other key is reported (one warning per file
#: names them all).
#: ``source`` takes the place of ``reference`` when scoring against the source program.
JSONL_KEYS: tuple[str, ...] = ("reference", "candidate", "language", "id", "source")

#: The byte-order mark, as decoded text.
BOM = "\ufeff"

#: The path that means standard input.
STDIN = "-"


class InputError(ValueError):
    """Input that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class PairInput:
    """One pair as read from a file. ``problem`` is set when the pair itself is malformed;
    ``missing`` when it has no candidate at all (a reference whose file is missing from a
    system's folder, ``"missing from systems/coder-s"``, or a JSONL line whose ``candidate``
    is ``null``): a missing translation is a failed one, scored 0
    (:func:`ruby_metric.scoring.missing.missing_result`), never left out."""

    id: Any
    reference: Any
    candidate: Any
    language: str | None = None
    problem: str | None = None
    boms: int = 0  # byte-order marks dropped from this pair's texts
    line: int | None = None  # the 1-based line of the JSONL file it was read from
    missing: str | None = None  # why there is no candidate (then ``candidate`` is "")


def no_output(candidate: Any) -> bool:
    """Whether a candidate is a model's lack of output: ``None``, or a float NaN (what
    pandas puts in a column where a value is missing).

    >>> no_output(None), no_output(float("nan")), no_output(""), no_output(3)
    (True, True, False, False)
    """
    return candidate is None or (isinstance(candidate, float) and math.isnan(candidate))


def checked_pairs(pairs: Iterable[Any]) -> Iterator[PairInput]:
    """``pairs``, raising a :class:`TypeError` that names the position of the first item that
    is not a :class:`PairInput` (what ``RubyScorer.stream`` takes; plain tuples go to
    ``score_corpus``).

    >>> next(checked_pairs([("int f();", "int f();")]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: pair 0 is a tuple, not a PairInput: stream() takes PairInput(...) items ...
    """
    for position, pair in enumerate(pairs):
        if not isinstance(pair, PairInput):
            raise TypeError(
                f"pair {position} is a {type(pair).__name__}, not a PairInput: stream() takes "
                "PairInput(id, reference, candidate, language) items (as iter_jsonl and "
                "read_aligned make); score_corpus(references, candidates) takes plain texts"
            )
        yield pair


def checked_source(pairs: Callable[[], Iterable[Any]]) -> Callable[[], Iterator[PairInput]]:
    """A pair source (a function giving a fresh iterable each call) whose items are checked
    by :func:`checked_pairs`.

    Raises
    ------
    TypeError : ``pairs`` is not callable (a list or generator given as it is).
    """
    if not callable(pairs):
        raise TypeError(
            f"stream() takes a function returning the pairs (e.g. lambda: iter_jsonl(path)), "
            f"not a {type(pairs).__name__}: it reads them twice when it builds an n-gram set"
        )
    return lambda: checked_pairs(pairs())


@contextlib.contextmanager
def rereading() -> Iterator[None]:
    """Within it, this thread's reads of pairs log no warnings (unknown keys, invalid
    UTF-8): a pass over pairs that another pass reads again, such as the one finding their
    languages before they are scored, so that each file is warned about once, by the pass
    that scores it. Other threads' reads still warn.

    >>> with rereading():
    ...     logger.warning("not shown")
    """
    thread = threading.get_ident()

    def other_thread(record: logging.LogRecord) -> bool:
        return record.thread != thread

    logger.addFilter(other_thread)
    try:
        yield
    finally:
        logger.removeFilter(other_thread)


def display_name(path: str | Path) -> str:
    """How messages name ``path``: ``<stdin>`` for ``-``."""
    return "<stdin>" if str(path) == STDIN else str(path)


def strip_bom(text: str) -> tuple[str, int]:
    """``text`` without a leading byte-order mark, and how many were dropped (0 or 1)."""
    return (text[1:], 1) if text.startswith(BOM) else (text, 0)


def read_text(path: str | Path) -> str:
    """The file's text, decoded as UTF-8 with replacement (see the module docstring)."""
    with _opened(path) as handle:
        data = _read_or_fail(path, handle.read)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        bad = []
        for number, raw in enumerate(data.split(b"\n"), start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                bad.append(number)
        _warn_utf8(path, bad)
        return data.decode("utf-8", errors="replace")


def _warn_utf8(path: str | Path, lines: list[int]) -> None:
    """One warning naming the (1-based) lines of ``path`` with invalid UTF-8, a few of them."""
    also = ""
    if len(lines) > 1:
        shown = ", ".join(map(str, lines[1:6]))
        more = f" and {len(lines) - 6:,} more" if len(lines) > 6 else ""
        also = f" (also line{'s' if len(lines) > 2 else ''} {shown}{more})"
    logger.warning(
        "%s:%d: invalid UTF-8, replaced with U+FFFD%s", display_name(path), lines[0], also
    )


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only (dropping a ``\\r`` before it); a final newline ends the last line."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]



def jsonl_objects(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` per non-blank line of a JSONL file of objects (a file of
    classes, of labels); a line that is not a JSON object is an :class:`InputError` naming
    the file and line.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write('{"id": 1}\\n\\n{"id": 2}\\n')
    >>> list(jsonl_objects(f.name))
    [(1, {'id': 1}), (3, {'id': 2})]
    >>> os.remove(f.name)
    """
    for number, line in enumerate(split_lines(read_text(path)), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}:{number}: invalid JSON ({exc.msg}, col {exc.colno})"
            ) from None
        if not isinstance(obj, dict):
            raise InputError(f"{path}:{number}: expected a JSON object")
        yield number, obj

def read_aligned(references: str | Path, candidates: str | Path) -> list[PairInput]:
    """Pairs from two line-aligned files (one snippet per line, the CodeXGLUE convention).

    Either path may be ``-`` (standard input). A byte-order mark at the start of a line is
    dropped and counted in the pair's ``boms``.

    Raises
    ------
    InputError : a file is unreadable, or the files have different numbers of lines.
    """
    if str(references) == STDIN and str(candidates) == STDIN:
        raise InputError("only one of REFS and HYPS can be read from standard input ('-')")
    refs = split_lines(read_text(references))
    cands = split_lines(read_text(candidates))
    if len(refs) != len(cands):
        # a stray blank line at the end is the usual cause, and invisible in an editor
        longer, name = (refs, references) if len(refs) > len(cands) else (cands, candidates)
        empty = len(longer) - len(list(itertools.dropwhile(
            lambda line: line == "", reversed(longer))))
        hint = (f" (the last line of {display_name(name)} is empty)" if empty == 1 else
                f" (the last {empty} lines of {display_name(name)} are empty)" if empty else "")
        raise InputError(
            f"{display_name(references)} has {counted(len(refs), 'line')} but "
            f"{display_name(candidates)} has {len(cands):,}: the files must be line-aligned"
            f"{hint}"
        )
    pairs = []
    for i, (ref, cand) in enumerate(zip(refs, cands, strict=True)):
        ref, ref_boms = strip_bom(ref)
        cand, cand_boms = strip_bom(cand)
        pairs.append(PairInput(i, ref, cand, boms=ref_boms + cand_boms))
    return pairs


def iter_jsonl(
    path: str | Path,
    *,
    warn: bool = True,
    against: str = "reference",
    unknown_keys: dict[str, int] | None = None,
) -> Iterator[PairInput]:
    """Pairs from a JSONL file of ``{"reference", "candidate", "language"?, "id"?}`` objects.

    The file is read line by line (constant memory). A line that is not JSON stops the read
    with an :class:`InputError` naming the line; an object with missing or mistyped fields
    (or a ``language`` no grammar is registered for) becomes a :class:`PairInput` with a
    ``problem``, so one bad pair is reported without losing the others. Blank lines are
    skipped (they are not pairs); a missing ``id`` defaults to the pair's 0-based position
    in the file, as for line-aligned files. A ``"candidate": null`` is a model that gave
    no output: a missing translation (``missing`` set, scored 0, one warning when the read
    ends), not a malformed pair.

    Keys other than :data:`JSONL_KEYS` (``lang`` for ``language``, say) are ignored with one
    warning when the read ends, naming each with the line where it first appears and the
    closest known key.

    Parameters
    ----------
    path : the file.
    warn : log warnings (unknown keys, invalid UTF-8); pass ``False`` on a second read of a
        file already warned about.
    against : ``"reference"``, or ``"source"`` when candidates are scored against the program
        they translate: then each object has a ``source`` instead of a ``reference`` (read
        into :attr:`PairInput.reference`), and an object with the other key is a problem.
    unknown_keys : if given, filled as the file is read with each key other than
        :data:`JSONL_KEYS` and the (1-based) line where it first appears, warned or not.

    ``path`` may be ``-`` (standard input). A byte-order mark before a line's JSON, or at the
    start of a reference or candidate, is dropped and counted in the pair's ``boms``.
    """
    for pair, _ in iter_jsonl_records(
        path, warn=warn, against=against, unknown_keys=unknown_keys
    ):
        yield pair


def iter_jsonl_records(
    path: str | Path,
    *,
    fields: Iterable[str] = (),
    warn: bool = True,
    against: str = "reference",
    unknown_keys: dict[str, int] | None = None,
) -> Iterator[tuple[PairInput, dict[str, Any]]]:
    """:func:`iter_jsonl`'s pairs, each with the values of the other ``fields`` it names.

    The ``fields`` (a system, a label, a group: say ``model``, ``passed``, ``task``) are
    known keys for this read, so they are not warned about as unknown; each pair comes with
    ``{field: value}`` for those of them its object has (an absent field is absent, a JSON
    ``null`` is ``None``). Everything else is as in :func:`iter_jsonl`.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write('{"id": "a", "reference": "x", "candidate": "y", "model": "m1"}\\n')
    >>> [(pair.id, extra) for pair, extra in iter_jsonl_records(f.name, fields=["model"])]
    [('a', {'model': 'm1'})]
    >>> os.remove(f.name)
    """
    bad_utf8: list[int] = []  # warned about once, when the read ends
    unknown: dict[str, int] = {} if unknown_keys is None else unknown_keys
    nulls: list[int] = []  # lines whose candidate is null (no output): warned about once
    try:
        for pair, extra in _jsonl_pairs(path, against, unknown, bad_utf8, tuple(fields)):
            if pair.missing is not None:
                nulls.append(pair.line or 0)
            yield pair, extra
    finally:
        if unknown and warn:
            _warn_unknown_keys(path, unknown)
        if bad_utf8 and warn:
            _warn_utf8(path, bad_utf8)
        if nulls and warn:
            logger.warning(
                "%s: %s a null candidate (no output): each scored as a missing translation, "
                "0 (first: line %d)", display_name(path),
                "1 line has" if len(nulls) == 1 else f"{len(nulls):,} lines have", nulls[0])


def _jsonl_pairs(
    path: str | Path,
    against: str,
    unknown: dict[str, int],
    bad_utf8: list[int],
    fields: tuple[str, ...] = (),
) -> Iterator[tuple[PairInput, dict[str, Any]]]:
    """:func:`iter_jsonl_records`' pairs with their ``fields``, noting the lines with invalid
    UTF-8 in ``bad_utf8`` and each unknown key (neither a pair's key nor one of ``fields``)
    with the line where it first appears in ``unknown``."""
    position = 0
    for number, raw in enumerate(_open_lines(path), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            bad_utf8.append(number)
            line = raw.decode("utf-8", errors="replace")
        line, line_boms = strip_bom(line)
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            message = f"{display_name(path)}:{number}: invalid JSON ({exc.msg}, col {exc.colno})"
            raise InputError(message) from None
        if isinstance(obj, dict):
            for key in obj:
                if key not in JSONL_KEYS and key not in fields:
                    unknown.setdefault(key, number)
        pair = _pair_from_object(obj, display_name(path), number, position, line_boms, against)
        extra = {k: obj[k] for k in fields if k in obj} if isinstance(obj, dict) else {}
        yield pair, extra
        position += 1


#: Keys other tools use for the same fields: named in the warning's hint.
_KEY_ALIASES = {
    "hyp": "candidate", "hypothesis": "candidate", "pred": "candidate",
    "prediction": "candidate", "output": "candidate", "generated": "candidate",
    "candidate_code": "candidate",
    "ref": "reference", "refs": "reference", "references": "reference", "gold": "reference",
    "target": "reference", "reference_code": "reference", "lang": "language",
    "language_id": "language", "src": "source", "source_code": "source", "idx": "id",
    "index": "id",
}


def key_hint(key: str) -> str | None:
    """The known JSONL key an unknown ``key`` most likely stands for (another tool's name
    for it, another case, a typo), or ``None``.

    >>> key_hint("lang"), key_hint("candidates"), key_hint("ID"), key_hint("refrence")
    ('language', 'candidate', 'id', 'reference')
    >>> key_hint("bleu"), key_hint("score"), key_hint("task")
    (None, None, None)
    """
    lower = key.lower()
    if lower in JSONL_KEYS:
        return lower
    alias = _KEY_ALIASES.get(lower)
    if alias:
        return alias
    close = difflib.get_close_matches(lower, JSONL_KEYS, n=1, cutoff=0.75)
    return close[0] if close else None


def _warn_unknown_keys(path: str | Path, unknown: dict[str, int]) -> None:
    """The keys other than :data:`JSONL_KEYS`, each with the line where it first appears.

    Those that look like one of them (:func:`key_hint`: ``lang``, ``hyp``, a typo) are one
    warning with the key each likely stands for: the pairs miss what the file meant them to
    have. The others are data a benchmark keeps beside its pairs (a model, a verdict, a
    task), which other options and commands read (``--system-field``, ``--label-field``,
    ``meta correlate --group-field``): one info line, no warning.
    """
    hinted, other = [], []
    for key, number in sorted(unknown.items(), key=lambda item: item[1]):
        known = key_hint(key)
        if known:
            hinted.append(f"{key!r} (line {number}; did you mean {known!r}?)")
        else:
            other.append(f"{key!r} (line {number})")
    if hinted:
        logger.warning(
            "%s: unknown key%s %s ignored (known keys: %s)",
            display_name(path),
            "" if len(hinted) == 1 else "s",
            ", ".join(hinted),
            ", ".join(JSONL_KEYS),
        )
    if other:
        logger.info(
            "%s: key%s %s not read (--system-field, --label-field and --group-field name "
            "such fields)",
            display_name(path),
            "" if len(other) == 1 else "s",
            ", ".join(other),
        )


def _open_lines(path: str | Path) -> Iterator[bytes]:
    """The file's lines as bytes, without their line ends; errors name the file."""
    with _opened(path) as handle:
        for raw in handle:
            yield raw.rstrip(b"\n").removesuffix(b"\r")


@contextlib.contextmanager
def _opened(path: str | Path) -> Iterator[BinaryIO]:
    """The file opened for binary reading; failure to open is an :class:`InputError`.

    ``-`` is standard input (left open: it is not ours to close).
    """
    if str(path) == STDIN:
        stdin = getattr(sys.stdin, "buffer", None)
        yield stdin if stdin is not None else io.BytesIO(sys.stdin.read().encode("utf-8"))
        return
    handle = _read_or_fail(path, lambda: open(path, "rb"))  # noqa: SIM115 - closed below
    with handle:
        yield handle


def _read_or_fail(path: str | Path, action: Callable[[], T]) -> T:
    try:
        return action()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None


#: The hint for a pair object that has the other side's key instead of the one wanted.
_WRONG_SIDE = {
    "reference": " (it has a 'source': to score against the source program, name its "
    "language with --source-lang)",
    "source": " (it has a 'reference', but this run scores against the source program)",
}


def _pair_from_object(
    obj: Any, path: str | Path, number: int, position: int, boms: int = 0,
    against: str = "reference",
) -> PairInput:
    where = f"{path}:{number}"
    if not isinstance(obj, dict):
        return PairInput(position, None, None, problem=f"{where}: expected a JSON object",
                         line=number)
    if against not in _WRONG_SIDE:
        raise ValueError(f"against must be 'reference' or 'source', not {against!r}")
    other = "source" if against == "reference" else "reference"
    pair_id = obj.get("id", position)
    problems = []
    reference = obj.get(against)
    if against not in obj:
        problems.append(f"missing '{against}'" + (_WRONG_SIDE[against] if other in obj else ""))
    elif reference is None:  # a missing reference, not a malformed one: say so plainly
        problems.append(f"'{against}' is null (nothing to score the candidate against)")
    elif not (
        isinstance(reference, str)
        or (
            isinstance(reference, list) and reference and all(isinstance(r, str) for r in reference)
        )
    ):
        problems.append(f"'{against}' must be a string or a non-empty list of strings")
    candidate = obj.get("candidate")
    missing = None
    if "candidate" not in obj:
        problems.append("missing 'candidate'")
    elif no_output(candidate):
        # a model that gave no output (a failed call, a refusal) wrote a failed translation:
        # scored 0 like a missing file, never left out of the model's mean
        missing, candidate = f"no output (null at {where})", ""
    elif not isinstance(candidate, str):
        problems.append("'candidate' must be a string")
    language = obj.get("language")
    if language is not None and not isinstance(language, str):
        problems.append("'language' must be a string")
        language = None
    elif language:
        try:
            canonical_language(language)
        except ValueError as exc:  # no grammar: the pair cannot be scored as that language
            problems.append(str(exc))
    problem = f"{where}: {'; '.join(problems)}" if problems else None
    if problem is None:
        candidate, cand_boms = strip_bom(candidate)
        if isinstance(reference, str):
            reference, ref_boms = strip_bom(reference)
        else:
            stripped = [strip_bom(r) for r in reference]
            reference = [text for text, _ in stripped]
            ref_boms = sum(n for _, n in stripped)
        boms += cand_boms + ref_boms
    return PairInput(pair_id, reference, candidate, language, problem, boms, line=number,
                     missing=missing if problem is None else None)
