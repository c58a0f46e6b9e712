"""What one pair is when the input is files: a line, a whole file, or each file of two folders.

Line-aligned files (one snippet per line, the CodeXGLUE convention) are read by
:func:`~ruby_metric.io.inputs.read_aligned`. Whole programs are not one line: two files are
one pair (:func:`read_file_pair`), and two folders are paired file by file by relative path
(:func:`read_folders`), or, scoring translations against their sources, by relative path
without its extension (``Foo.java`` with ``Foo.py``). Either gives
:class:`~ruby_metric.io.inputs.PairInput` records whose ids are the candidates' relative
paths, as :meth:`RubyScorer.score_pairs <ruby_metric.api.scorer.RubyScorer.score_pairs>` and
:meth:`~ruby_metric.api.scorer.RubyScorer.stream` take them.

:func:`program_pieces` says when line-aligned input looks like programs cut into lines,
which scores every line of two programs as a pair of its own.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .formats import counted
from .inputs import (
    STDIN,
    InputError,
    PairInput,
    display_name,
    read_aligned,
    read_text,
    split_lines,
    strip_bom,
)
from .natural_order import natural_key, natural_sorted

logger = logging.getLogger(__name__)

__all__ = [
    "FolderPairing",
    "check_paired",
    "folder_pairs",
    "matched_pairs",
    "pair_folders",
    "program_pieces",
    "read_file_pair",
    "read_folders",
    "read_units",
    "warn_if_program_pieces",
    "warn_unmatched",
]

#: The units a pair can be: a line of two line-aligned files, or a whole file.
UNITS = ("line", "file")

#: How many unmatched files a message names before it says "and N more".
_NAMED = 5


@dataclass(frozen=True)
class FolderPairing:
    """Two folders' files matched by key (relative path, or relative path without its
    extension when ``by_stem``).

    Attributes
    ----------
    matched : ``(id, reference file, candidate file)`` per key both folders have, in
        natural order of id (:func:`~ruby_metric.io.natural_order.natural_key`); the id is
        the candidate's path relative to its folder, with ``/``.
    only_references : relative paths of the reference folder's files without a candidate.
    only_candidates : relative paths of the candidate folder's files without a reference.
    unanswered : ``(key, id, reference file)`` per reference without a candidate: the id
        its candidate would have (the reference's path; by stem, the key with the extension
        every candidate of the folder has, or the bare key when they differ).
    """

    matched: tuple[tuple[str, Path, Path], ...]
    only_references: tuple[str, ...]
    only_candidates: tuple[str, ...]
    unanswered: tuple[tuple[str, str, Path], ...] = ()

    @property
    def no_candidates(self) -> bool:
        """Whether the candidates' folder has no file at all (a model that wrote nothing),
        as against files none of which pairs with a reference (a pairing mistake)."""
        return not self.matched and not self.only_candidates

    def unmatched_message(
        self, references: str | Path, candidates: str | Path, *, fates: bool = True
    ) -> str | None:
        """One sentence naming the files without a counterpart (a few of each side) and
        (``fates``) what becomes of them, or ``None`` when every file has one."""
        if self.no_candidates and self.only_references:
            count = counted(len(self.only_references), "file")
            return (f"{candidates} has no files: " + (
                f"each of the {count} of {references} scored as a missing translation, 0"
                if fates else f"the {count} of {references} have no counterpart there"))
        parts = []
        for files, folder, other, fate in (
            (self.only_references, references, candidates,
             "each scored as a missing translation, 0"),
            (self.only_candidates, candidates, references, "left out"),
        ):
            if files:
                shown = ", ".join(files[:_NAMED])
                more = f" and {len(files) - _NAMED:,} more" if len(files) > _NAMED else ""
                parts.append(
                    f"{counted(len(files), 'file')} of {folder} with no counterpart in "
                    f"{other} ({shown}{more})" + (f": {fate}" if fates else "")
                )
        return "; ".join(parts) if parts else None


def _files(folder: Path) -> list[PurePosixPath]:
    """The files under ``folder`` (recursively), relative to it, skipping hidden files and
    folders (``.git``, ``.DS_Store``): they are never programs of a benchmark."""
    found = []
    for path in folder.rglob("*"):
        relative = PurePosixPath(path.relative_to(folder).as_posix())
        if any(part.startswith(".") for part in relative.parts) or not path.is_file():
            continue
        found.append(relative)
    return natural_sorted(found)


def _keyed(folder: Path, by_stem: bool) -> dict[str, PurePosixPath]:
    """``folder``'s files by pairing key; two files with one key are an error."""
    keyed: dict[str, PurePosixPath] = {}
    for relative in _files(folder):
        key = str(relative.with_suffix("")) if by_stem else str(relative)
        if key in keyed:
            raise InputError(
                f"{folder}: {keyed[key]} and {relative} both pair with {key!r} (files are "
                "paired by path without extension when scoring against sources)"
            )
        keyed[key] = relative
    return keyed


def _folder(path: str | Path) -> Path:
    folder = Path(path)
    if not folder.is_dir():
        raise InputError(f"{path}: no such folder")
    return folder


def pair_folders(
    references: str | Path, candidates: str | Path, *, by_stem: bool = False
) -> FolderPairing:
    """Match the files of two folders.

    Parameters
    ----------
    references : the folder of references (or of sources).
    candidates : the folder of candidates.
    by_stem : match by relative path without the last extension (``src/Foo.java`` with
        ``src/Foo.py``), for translations scored against their sources; default: by the
        whole relative path.

    Returns
    -------
    FolderPairing : the matched files, sorted by id, and the files of each side without a
        counterpart.

    Raises
    ------
    InputError : a path is not a folder, or (``by_stem``) two files of a folder differ only
        in their extension.

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("src/A.java", "src/B.java", "out/A.py", "out/C.py"):
    ...     (root / name).parent.mkdir(exist_ok=True); _ = (root / name).write_text("x")
    >>> p = pair_folders(root / "src", root / "out", by_stem=True)
    >>> [m[0] for m in p.matched], p.only_references, p.only_candidates
    (['A.py'], ('B.java',), ('C.py',))
    >>> [(key, pair_id) for key, pair_id, _ in p.unanswered]
    [('B', 'B.py')]
    """
    ref_folder, cand_folder = _folder(references), _folder(candidates)
    refs = _keyed(ref_folder, by_stem)
    cands = _keyed(cand_folder, by_stem)
    matched = sorted(
        ((str(cands[key]), ref_folder / refs[key], cand_folder / cands[key])
         for key in refs.keys() & cands.keys()),
        key=lambda m: natural_key(m[0]),
    )
    # by stem, a missing candidate's id takes the extension its folder's candidates share
    suffixes = {path.suffix for path in cands.values()}
    suffix = next(iter(suffixes)) if by_stem and len(suffixes) == 1 else ""
    unanswered = tuple(
        (key, str(refs[key]) if not by_stem else key + suffix, ref_folder / refs[key])
        for key in natural_sorted(refs.keys() - cands.keys())
    )
    return FolderPairing(
        matched=tuple(matched),
        only_references=tuple(str(refs[k]) for k in natural_sorted(refs.keys() - cands.keys())),
        only_candidates=tuple(str(cands[k]) for k in natural_sorted(cands.keys() - refs.keys())),
        unanswered=unanswered,
    )


def read_folders(
    references: str | Path,
    candidates: str | Path,
    *,
    by_stem: bool = False,
    strict: bool = False,
    language: str | None = None,
) -> list[PairInput]:
    """The pairs of two folders: one whole file per side, ids the candidates' relative paths.

    Files are matched as :func:`pair_folders` does. A reference without a candidate is a
    missing translation: it stays a pair, with no candidate (``PairInput.missing``), which
    scores 0 on every tier; a candidate without a reference has nothing to be scored
    against and is left out. Both are named in one warning (``strict``: an
    :class:`InputError`). Each file is read as :func:`~ruby_metric.io.inputs.read_text`
    reads it (UTF-8, a bad byte replaced with a warning, a leading byte-order mark dropped
    and counted).

    Parameters
    ----------
    references : the folder of references, or of sources (then pass ``by_stem=True``).
    candidates : the folder of candidates.
    by_stem : match ``Foo.java`` with ``Foo.py`` (translations against their sources).
    strict : a file without a counterpart is an error instead of a warning.
    language : the pairs' language (``None``: the scorer's).

    Returns
    -------
    list of PairInput, in natural order of id (``2/x.py`` before ``10/x.py``):
    ``scorer.score_pairs(read_folders(...))``, or ``scorer.stream(lambda: iter(pairs))``.

    Raises
    ------
    InputError : a path is not a folder, ``references`` has no file, ``candidates`` has
        files and none pairs with a reference (:func:`check_paired`; with no file at all,
        each reference is a missing translation, with one warning), or (``strict``) some file
        has no counterpart.

    Examples
    --------
    >>> from ruby_metric import RubyScorer
    >>> pairs = read_folders("java_src", "python_out", by_stem=True)  # doctest: +SKIP
    >>> corpus = RubyScorer("python", source_language="java").score_pairs(pairs)  # doctest: +SKIP
    >>> [p.id for p in corpus.pairs]  # doctest: +SKIP
    ['Main.py', 'util/Strings.py']
    """
    pairing = pair_folders(references, candidates, by_stem=by_stem)
    check_paired(pairing, references, candidates, by_stem=by_stem)
    warn_unmatched(pairing, references, candidates, strict=strict)
    return folder_pairs(pairing, candidates, language=language)


def check_paired(
    pairing: FolderPairing, references: str | Path, candidates: str | Path, *, by_stem: bool
) -> None:
    """An :class:`InputError` when nothing can be scored: ``references`` has no file, or
    ``candidates`` has files and none pairs with a reference (a pairing mistake: another
    extension, another layout). A candidates' folder with no file at all is no error: it is
    a model that wrote nothing, each of its pairs a missing translation (0)."""
    if not pairing.matched and not pairing.only_references:
        raise InputError(f"no pairs to score: {references} has no files")
    if not pairing.matched and not pairing.no_candidates:
        raise InputError(
            f"no pairs to score: no file of {candidates} has a counterpart in {references}"
            + (" (paired by path without extension)" if by_stem else " (paired by path)")
        )


def warn_unmatched(
    pairing: FolderPairing, references: str | Path, candidates: str | Path, *, strict: bool
) -> None:
    """One warning naming the files of ``pairing`` without a counterpart and what becomes
    of them; with ``strict`` an :class:`InputError` instead."""
    if strict:
        message = pairing.unmatched_message(references, candidates, fates=False)
        if message is not None:
            raise InputError(f"{message} (--strict: every file must have a counterpart)")
    message = pairing.unmatched_message(references, candidates)
    if message is not None:
        logger.warning("%s", message)


def folder_pairs(
    pairing: FolderPairing,
    candidates: str | Path,
    *,
    language: str | None = None,
    ids: Mapping[str, str] | None = None,
) -> list[PairInput]:
    """Every pair of a :func:`pair_folders` matching, in natural order of id: the matched
    files read (:func:`matched_pairs`), and per reference without a candidate a pair with
    no candidate, ``missing`` ``"missing from CANDIDATES"`` (it scores 0 on every tier).

    ``ids``: key -> the id the other folders' candidates of that key have, so that the
    missing candidate of several systems' folders has their id (by stem, ``Foo`` is
    ``Foo.py`` there).

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("r/10.py", "r/2.py", "c/10.py"):
    ...     (root / name).parent.mkdir(exist_ok=True); _ = (root / name).write_text(name)
    >>> pairs = folder_pairs(pair_folders(root / "r", root / "c"), "c")
    >>> [(p.id, p.candidate, p.missing) for p in pairs]
    [('2.py', '', 'missing from c'), ('10.py', 'c/10.py', None)]
    """
    pairs = matched_pairs(pairing, language=language)
    missing = f"missing from {display_name(candidates)}"
    for key, pair_id, ref_path in pairing.unanswered:
        reference, boms = strip_bom(read_text(ref_path))
        pairs.append(PairInput((ids or {}).get(key, pair_id), reference, "", language,
                               boms=boms, missing=missing))
    return sorted(pairs, key=lambda pair: natural_key(pair.id))


def matched_pairs(pairing: FolderPairing, *, language: str | None = None) -> list[PairInput]:
    """The pairs of :func:`pair_folders`'s matched files, read as :func:`read_folders`
    reads them (no pair for a file without a counterpart: :func:`folder_pairs` adds the
    missing candidates).

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("r/A.py", "c/A.py"):
    ...     (root / name).parent.mkdir(exist_ok=True); _ = (root / name).write_text(name)
    >>> pairs = matched_pairs(pair_folders(root / "r", root / "c"))
    >>> [(p.id, p.reference, p.candidate) for p in pairs]
    [('A.py', 'r/A.py', 'c/A.py')]
    """
    pairs = []
    for pair_id, ref_path, cand_path in pairing.matched:
        reference, ref_boms = strip_bom(read_text(ref_path))
        candidate, cand_boms = strip_bom(read_text(cand_path))
        pairs.append(PairInput(pair_id, reference, candidate, language, boms=ref_boms + cand_boms))
    return pairs


def read_file_pair(
    reference: str | Path, candidate: str | Path, *, language: str | None = None
) -> PairInput:
    """Two files as one pair (the whole of each); its id is the candidate's path as given.

    Either path may be ``-`` (standard input), not both.

    Raises
    ------
    InputError : a file cannot be read, or both are standard input.
    """
    if str(reference) == "-" and str(candidate) == "-":
        raise InputError("only one of REFS and HYPS can be read from standard input ('-')")
    ref, ref_boms = strip_bom(read_text(reference))
    cand, cand_boms = strip_bom(read_text(candidate))
    return PairInput(display_name(candidate), ref, cand, language, boms=ref_boms + cand_boms)


#: A line that only closes a block: nothing a snippet of its own ever is.
_CLOSING = re.compile(r"\s*[})\]]+\s*[;,)]*\s*")
#: A first line that opens a program: what follows it belongs to the same program.
_OPENING = re.compile(r"\s*(import|package|#\s*include|using|from\s+\S+\s+import)\b")
#: A line that opens a block it does not close (``for x in xs:``, ``if (c) {``): a snippet
#: of its own never ends there.
_BLOCK_OPENER = re.compile(r".*[:{]\s*")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_body(lines: list[str]) -> int | None:
    """The 1-based number of the first line indented deeper than the line before it, when
    that line opens a block: the block's body, cut from its header into a line of its own
    (the only sign a Python program with no import and no brackets gives)."""
    for n in range(1, len(lines)):
        above, line = lines[n - 1], lines[n]
        if (line.strip() and above.strip() and _BLOCK_OPENER.fullmatch(above)
                and _indent(line) > _indent(above)):
            return n + 1
    return None


def program_pieces(path: str | Path, lines: list[str]) -> str | None:
    """Why the lines of a line-aligned file look like one program cut into lines, or
    ``None``.

    A line that is only closing brackets (``}``, ``});``) closes a block opened on an
    earlier line; a first line ``import``/``package``/``#include``/``using`` with more
    lines after it is a program's header; a line indented under a line that ends by opening
    a block (``:`` or ``{``) is that block's body. A corpus of one snippet per line has none
    of these.

    >>> program_pieces("a.java", ["import java.util.*;", "class A {", "}"])
    "a.java: line 1 starts with 'import' and line 3 is only a closing bracket"
    >>> program_pieces("a.java", ["int f() { return 1; }", "int g() { return 2; }"]) is None
    True
    """
    signs = []
    if len(lines) > 1 and _OPENING.match(lines[0]):
        word = _OPENING.match(lines[0]).group(1).split()[0]
        signs.append(f"line 1 starts with {word!r}")
    closing = next((n for n, line in enumerate(lines, 1) if _CLOSING.fullmatch(line)), None)
    if closing is not None:
        signs.append(f"line {closing} is only a closing bracket")
    body = _block_body(lines) if not signs else None  # the weakest sign: only when alone
    if body is not None:
        signs.append(f"line {body} is indented under the block line {body - 1} opens")
    return f"{display_name(path)}: {' and '.join(signs)}" if signs else None


def warn_if_program_pieces(
    references: str | Path, candidates: str | Path, pairs: list[PairInput]
) -> None:
    """One warning when either side of line-aligned pairs looks like a program cut into
    lines (:func:`program_pieces`), naming ``--unit file``."""
    sides = ((references, [p.reference for p in pairs]), (candidates, [p.candidate for p in pairs]))
    for path, lines in sides:
        why = program_pieces(path, lines)
        if why is not None:
            logger.warning(
                "each line is scored as a pair of its own, but these look like whole programs "
                "(%s): pass --unit file to score each file as one program, or give two folders",
                why,
            )
            return


def read_units(
    references: str | Path,
    candidates: str | Path,
    *,
    unit: str | None = None,
    by_stem: bool = False,
    strict: bool = False,
) -> list[PairInput]:
    """The pairs of two paths, by what they are: two folders (:func:`read_folders`), two
    files as one pair (``unit="file"``, :func:`read_file_pair`), or two line-aligned files
    (the default for files, with the :func:`warn_if_program_pieces` check).

    Parameters
    ----------
    references, candidates : two folders, or two files (``-``: standard input).
    unit : ``"line"`` or ``"file"`` for two files (default ``"line"``); two folders are
        always paired file by file.
    by_stem : folders: match files by path without extension (against sources).
    strict : folders: a file without a counterpart is an error.

    Raises
    ------
    InputError : one path is a folder and the other is not (or does not exist),
        ``unit="line"`` with folders,
        or what the reader raises.
    """
    if unit is not None and unit not in UNITS:
        raise InputError(f"--unit must be one of {', '.join(UNITS)}, not {unit!r}")
    folders = [Path(p).is_dir() for p in (references, candidates)]
    if any(folders):
        if not all(folders):
            folder, other = (references, candidates) if folders[0] else (candidates, references)
            if str(other) != STDIN and not Path(other).exists():
                raise InputError(f"{other}: no such file or folder")
            raise InputError(
                f"{folder} is a folder but {display_name(other)} is not: give two folders "
                "(paired file by file) or two files"
            )
        if unit == "line":
            raise InputError("--unit line reads two line-aligned files; two folders are "
                             "paired file by file")
        return read_folders(references, candidates, by_stem=by_stem, strict=strict)
    if unit == "file":
        return [read_file_pair(references, candidates)]
    try:
        pairs = read_aligned(references, candidates)
    except InputError as exc:
        raise InputError(f"{exc}{_whole_programs_hint(references, candidates)}") from None
    warn_if_program_pieces(references, candidates, pairs)
    return pairs


def _whole_programs_hint(references: str | Path, candidates: str | Path) -> str:
    """``--unit file`` as the way out when two files of different lengths look like whole
    programs: two programs rarely have the same number of lines, so line alignment is what
    fails first on them."""
    for path in (references, candidates):
        if str(path) == "-":
            continue  # standard input, already read
        try:
            why = program_pieces(path, split_lines(read_text(path)))
        except InputError:
            return ""  # unreadable: the error says so already
        if why is not None:
            return (f"; they look like whole programs ({why}): pass --unit file to score the "
                    "two files as one pair")
    return ""
