"""Reading code corpora: files, folders, and one-snippet-per-line files.

Rules (what :func:`read_corpus` yields)
---------------------------------------
* A **folder** is walked recursively in sorted order (so the order is the same on every
  machine). Hidden entries (names starting with ``.``) are skipped. Only files whose last
  suffix is a code extension (:data:`CODE_EXTENSIONS`, e.g. ``.java``, ``.cs``, ``.py``) are
  read.
* A **file** named explicitly is always read, whatever its extension.
* Each file is one snippet, unless it is a **line-per-snippet** file: then every non-blank
  line is one snippet (the CodeXGLUE convention). With ``per_line=None`` (the default) a file
  is line-per-snippet when any of its suffixes is in :data:`LINE_SUFFIXES` (``.txt``,
  ``.output``, ``.gold``, ``.tok``), e.g. ``train.java-cs.txt.cs``, ``corpus.txt``,
  ``java-cs-model1.output``. ``per_line=True`` or ``False`` forces one mode for all files.
* Lines are split on ``\\n`` only (a trailing ``\\r`` is removed), never on form feeds or
  Unicode line separators, which may occur inside code. Blank lines are skipped.
* Bytes are decoded as UTF-8 (a leading byte-order mark is dropped); invalid bytes become
  U+FFFD (``errors="replace"``), so one bad byte never stops a corpus build.
* A path that does not exist or cannot be read raises :class:`CorpusError` (an ``OSError``)
  naming the path.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = ["read_corpus", "CorpusError", "CODE_EXTENSIONS", "LINE_SUFFIXES"]

CODE_EXTENSIONS: frozenset[str] = frozenset(
    {
        ".java", ".cs", ".py", ".pyi", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh",
        ".hxx", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".go", ".rs", ".kt", ".kts",
        ".scala", ".swift", ".rb", ".php", ".m", ".mm", ".vb", ".fs", ".lua", ".pl", ".r",
        ".jl", ".dart", ".groovy", ".sh", ".sql",
    }
)  # fmt: skip
"""Extensions of the files read when walking a folder (compared in lower case)."""

LINE_SUFFIXES: frozenset[str] = frozenset({".txt", ".output", ".gold", ".tok"})
"""Suffixes that make a file line-per-snippet when ``per_line`` is None."""


class CorpusError(OSError):
    """A corpus path is missing or unreadable. The message names the path."""


def _is_line_file(path: Path) -> bool:
    return any(suffix.lower() in LINE_SUFFIXES for suffix in path.suffixes)


def _walk(folder: Path) -> Iterator[Path]:
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as exc:
        reason = exc.strerror or exc
        raise CorpusError(f"cannot read corpus folder {str(folder)!r}: {reason}") from exc
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        if entry.is_dir():
            yield from _walk(path)
        elif entry.is_file() and path.suffix.lower() in CODE_EXTENSIONS:
            yield path


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or exc
        raise CorpusError(f"cannot read corpus file {str(path)!r}: {reason}") from exc
    return data.decode("utf-8-sig", errors="replace")


def _snippets(path: Path, per_line: bool | None) -> Iterator[str]:
    text = _read_text(path)
    if per_line if per_line is not None else _is_line_file(path):
        for line in text.split("\n"):
            line = line.removesuffix("\r")
            if line.strip():
                yield line
    elif text.strip():
        yield text


def read_corpus(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    per_line: bool | None = None,
) -> Iterator[str]:
    """Yield code snippets from files and folders, lazily.

    Parameters
    ----------
    paths : path or iterable of paths
        Files and folders. See the module documentation for the rules.
    per_line : bool or None, optional (default None)
        True: every file is line-per-snippet. False: every file is one snippet.
        None: decide per file from its suffixes (:data:`LINE_SUFFIXES`).

    Yields
    ------
    str
        One snippet (a line or a whole file), never blank.

    Raises
    ------
    CorpusError
        When a path does not exist or cannot be read (raised when the iterator reaches it).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from crystal import read_corpus
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "train.txt").write_text("int a = 1;\\n\\nint b = 2;\\n")
    >>> _ = (d / "A.java").write_text("class A {}\\n")
    >>> list(read_corpus(d / "train.txt"))
    ['int a = 1;', 'int b = 2;']
    >>> list(read_corpus(d))  # folders read code files only
    ['class A {}\\n']
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    for item in paths:
        path = Path(item)
        if path.is_dir():
            for file in _walk(path):
                yield from _snippets(file, per_line)
        elif path.exists():
            yield from _snippets(path, per_line)
        else:
            raise CorpusError(f"corpus path {str(path)!r} does not exist")
