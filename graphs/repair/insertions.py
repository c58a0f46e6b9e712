"""Bounded repair of almost-code: a few inserted tokens that make a broken snippet parse.

Model output is often almost-code (SPEC section 3, "Tolerant structure"): a statement missing
its ``)``, a method cut off before its closing braces, a Python body whose first line lost
its indentation, a K&R C ``main()`` without a return type. :func:`repair` tries, smallest
edit first, these insertions and nothing else:

- ``missing``: insert what tree-sitter marks MISSING (an anonymous token such as ``)`` or
  ``;``);
- ``brackets``: append the closing brackets the text lacks (after a ``;`` in the C family
  when the text stops mid-statement);
- ``indent``: indent a Python line that sits left of the block around it like that block
  (a body's first line at column 0 too, as a completion model writes it);
- ``implicit_int``: an ``int`` before a C function header that has no return type.

Never a deletion: the candidate's own text is a subsequence of the repaired one. Every
repair is checked by re-parsing, and at most ``max_attempts`` re-parses are spent on a text,
so a hostile input costs a bounded number of parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from graphs.lang.syntax import walk
from graphs.parsing.parser import ParsedCode, own_wrapper, parse

__all__ = ["MAX_INSERTED_TOKENS", "MAX_REPAIR_ATTEMPTS", "Insertion", "Repair",
           "closing_brackets", "open_string", "repair", "repair_candidates"]

#: Re-parses :func:`repair` spends on one text at most.
MAX_REPAIR_ATTEMPTS = 6
#: Tokens one repair may insert at most ("a few tokens").
MAX_INSERTED_TOKENS = 6

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_OPENERS.values())
_C_FAMILY = frozenset({"java", "cs", "c", "cpp", "javascript"})
_C_KEYWORDS = frozenset({"if", "while", "for", "switch", "return", "sizeof", "do", "else",
                         "case", "goto", "typedef", "struct", "union", "enum"})
_C_HEADER = re.compile(r"^([A-Za-z_]\w*)[ \t]*\([^;{}]*\)[ \t]*(?:\{|$)", re.MULTILINE)


@dataclass(frozen=True)
class Insertion:
    """One candidate repair: text inserted at character offsets of the original.

    Attributes
    ----------
    kind : ``"missing"``, ``"brackets"``, ``"indent"`` or ``"implicit_int"``.
    inserts : ``(offset, text)`` pairs, offsets in characters of the original text.
    description : what a reader is told, e.g. ``'appended "}"'``.
    tokens : the inserted code tokens (whitespace excluded), what the repair costs.
    """

    kind: str
    inserts: tuple[tuple[int, str], ...]
    description: str
    tokens: tuple[str, ...]

    def apply(self, text: str) -> str:
        """The text with every insertion made (later offsets first, so none shifts another).

        >>> Insertion("brackets", ((5, "}"),), 'appended "}"', ("}",)).apply("f(){x")
        'f(){x}'
        """
        out = text
        for offset, piece in sorted(self.inserts, key=lambda x: x[0], reverse=True):
            out = out[:offset] + piece + out[offset:]
        return out


@dataclass(frozen=True)
class Repair:
    """A repaired text with its clean parse.

    Attributes
    ----------
    text : the repaired text: the original with ``edits`` applied one after another.
    parsed : its clean parse.
    edits : the insertions that made it parse (one, or two in a row).
    """

    text: str
    parsed: ParsedCode
    edits: tuple[Insertion, ...]

    @property
    def description(self) -> str:
        """What was done, e.g. ``'appended "}"'``."""
        return "; ".join(e.description for e in self.edits)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of the insertions, in order (``("missing", "brackets")``)."""
        return tuple(e.kind for e in self.edits)

    @property
    def tokens(self) -> tuple[str, ...]:
        """Every inserted code token, in order of the edits."""
        return tuple(t for e in self.edits for t in e.tokens)


def _snippet_leaves(parsed: ParsedCode) -> list[tree_sitter.Node]:
    """The leaves of ``parsed``'s tree inside the snippet, in order, MISSING nodes included."""
    lo, hi = parsed.span

    def reaches(node: tree_sitter.Node) -> bool:  # [lo, hi], both ends included
        return node.end_byte >= lo and node.start_byte <= hi

    return [node for node in walk(parsed.tree.root_node, reaches)
            if not node.child_count and lo <= node.start_byte <= hi]


def closing_brackets(parsed: ParsedCode, *, skip_unmatched: bool = False,
                     leaves: list[tree_sitter.Node] | None = None) -> str | None:
    """The closers that balance the snippet's brackets, innermost first; ``None`` when a
    closer has no opener (appending cannot fix that; with ``skip_unmatched`` such a closer
    is passed over) or nothing is open. ``leaves``: the snippet's leaves, when the caller
    has them already.

    >>> from graphs import parse
    >>> closing_brackets(parse("void f() { if (a) { g(", "java"))
    ')}}'
    """
    opened: list[str] = []
    for leaf in _snippet_leaves(parsed) if leaves is None else leaves:
        if leaf.is_missing:
            continue
        kind = leaf.type
        if kind in _OPENERS:
            opened.append(kind)
        elif kind in _CLOSERS:
            if not opened or _OPENERS[opened[-1]] != kind:
                if skip_unmatched:
                    continue
                return None
            opened.pop()
    if not opened:
        return None
    return "".join(_OPENERS[k] for k in reversed(opened))


def _missing(parsed: ParsedCode, leaves: list[tree_sitter.Node]) -> Insertion | None:
    inserts = []
    tokens = []
    where = []
    for leaf in leaves:
        if not leaf.is_missing:
            continue
        if leaf.is_named or not leaf.type.strip():
            return None  # an identifier or expression: not a token we can invent
        offset = parsed.source_range(leaf)[0]
        token = leaf.type
        piece = f" {token} " if token[-1:].isalnum() else token
        inserts.append((offset, piece))
        tokens.append(token)
        line, col = parsed.position(leaf)
        where.append(f'"{token}" at line {line}, col {col}')
    if not inserts or len(tokens) > MAX_INSERTED_TOKENS:
        return None
    if all(offset >= len(parsed.source.rstrip()) for offset, _ in inserts):
        description = f'appended "{"".join(p.strip() for _, p in inserts)}"'
    else:
        description = "inserted " + " and ".join(where)
    return Insertion("missing", tuple(inserts), description, tuple(tokens))


def open_string(text: str) -> str | None:
    """The quote of a string literal a C-family text ends inside (cut off mid-string), or
    ``None``. A lexical scan: ``//`` and ``/* */`` comments, ``"..."`` and ``'...'`` with
    backslash escapes, C# ``@"..."`` with doubled quotes.

    >>> open_string('b.Append("x'), open_string('s = "a";')
    ('"', None)
    """
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'":
            verbatim = c == '"' and i > 0 and text[i - 1] == "@"
            j = i + 1
            while j < n:
                if text[j] == "\\" and not verbatim:
                    j += 2
                    continue
                if text[j] == c:
                    if verbatim and text.startswith(c * 2, j):
                        j += 2
                        continue
                    break
                if text[j] == "\n" and not verbatim:
                    break  # an unterminated literal ends at the line's end
                j += 1
            if j >= n:
                return c
            i = j + 1
        else:
            i += 1
    return None


def _brackets(parsed: ParsedCode, leaves: list[tree_sitter.Node]) -> list[Insertion]:
    closers = closing_brackets(parsed, leaves=leaves)
    text = parsed.source
    quote = open_string(text) if parsed.language in _C_FAMILY else None
    if quote is not None:
        # cut off inside a string literal: close it, then the brackets
        closers = quote + (closing_brackets(parsed, skip_unmatched=True, leaves=leaves) or "")
    if not closers or len(closers) > MAX_INSERTED_TOKENS:
        return []
    end = len(text)
    out = [Insertion("brackets", ((end, closers),), f'appended "{closers}"', tuple(closers))]
    tail = text.rstrip()[-1:]
    brace = closers.find("}")
    if (parsed.language in _C_FAMILY and (quote is not None or tail not in (";", "{", "}", ""))
            and brace >= 0 and len(closers) < MAX_INSERTED_TOKENS):
        # cut off mid-statement: end the statement, then the blocks
        ended = closers[:brace] + ";" + closers[brace:]
        out.append(Insertion("brackets", ((end, ended),), f'appended "{ended}"',
                             tuple(ended)))
    return out


def _indent_width(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _indent(parsed: ParsedCode) -> Insertion | None:
    """Indent the first Python line that sits left of the lines around it: like the line
    before it, or, after a block header, like the line after it (4 spaces deeper if none);
    or a body's first line at column 0 like the block the lines after it return to
    (:func:`_first_line_indent`).
    """
    if parsed.language != "python":
        return None
    lines = parsed.source.split("\n")
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    strings = _string_ranges(parsed)
    first = _first_line_indent(lines, [i for i in nonblank if not any(
        lo < starts[i] < hi for lo, hi in strings)])
    if first is not None:
        return Insertion("indent", ((starts[nonblank[0]], first),),
                         f"re-indented line {nonblank[0] + 1}", ())
    for k in range(1, len(nonblank)):
        i = nonblank[k]
        line = lines[i]
        if any(lo < starts[i] < hi for lo, hi in strings):
            continue  # a line of a multi-line string (a docstring) is not code
        prev = lines[nonblank[k - 1]]
        width = _indent_width(line)
        prev_width = _indent_width(prev)
        nxt = lines[nonblank[k + 1]] if k + 1 < len(nonblank) else None
        next_width = -1 if nxt is None else _indent_width(nxt)
        if prev.split("#")[0].rstrip().endswith(":"):
            # a block's first line: as deep as the next line, if that is deeper
            pad = nxt[:next_width] if nxt is not None and next_width > prev_width else (
                prev[:prev_width] + "    ")
            fits = width <= prev_width
        else:
            pad = prev[:prev_width]
            fits = width < prev_width and next_width > width
        if fits and pad.startswith(line[:width]):
            return Insertion("indent", ((starts[i], pad[width:]),),
                             f"re-indented line {i + 1}", ())
    return None


def _first_line_indent(lines: list[str], code: list[int]) -> str | None:
    """The indentation for a first line at column 0 that belongs with the lines after it,
    or ``None``.

    A completion model continues a prompt that ended with a body's indentation, so the
    body it writes starts at column 0 and its other lines are indented
    (``"x = 1\\n    return x"``). The first line goes to the block the later lines come
    back to, the shallowest of them, unless it is a block header those lines are all the
    body of (``"def f():\\n    return 1"`` at column 0 is how code is written).

    Parameters
    ----------
    lines : the text's lines.
    code : the indexes of its non-blank lines outside multi-line strings.
    """
    if len(code) < 2 or lines[code[0]] != lines[code[0]].lstrip(" \t"):
        return None
    shallowest = min((lines[i] for i in code[1:]), key=_indent_width)
    width = _indent_width(shallowest)
    opens_block = lines[code[0]].split("#")[0].rstrip().endswith(":")
    if width == 0 or (opens_block and width >= _indent_width(lines[code[1]])):
        return None
    return shallowest[:width]


def _string_ranges(parsed: ParsedCode) -> list[tuple[int, int]]:
    """Character ranges of the multi-line string literals of a parse."""
    def multiline(node: tree_sitter.Node) -> bool:
        return node.start_point.row != node.end_point.row

    return [parsed.source_range(node) for node in walk(
        parsed.tree.root_node, lambda n: multiline(n) and n.type != "string")
        if multiline(node) and node.type == "string"]


def _implicit_int(parsed: ParsedCode) -> Insertion | None:
    """``int `` before each C function header without a return type (K&R ``main()``)."""
    if parsed.language != "c":
        return None
    inserts = []
    where = []
    for match in _C_HEADER.finditer(parsed.source):
        if match.group(1) in _C_KEYWORDS:
            continue
        inserts.append((match.start(), "int "))
        line = parsed.source.count("\n", 0, match.start()) + 1
        where.append(f"line {line}")
        if len(inserts) == MAX_INSERTED_TOKENS:
            break
    if not inserts:
        return None
    return Insertion("implicit_int", tuple(inserts), "implicit int at " + ", ".join(where),
                     ("int",) * len(inserts))


def repair_candidates(parsed: ParsedCode) -> list[Insertion]:
    """The repairs worth trying on a failed parse, smallest edit first (fewest inserted
    tokens; ties in the order missing, brackets, indent, implicit int).

    Parameters
    ----------
    parsed : a parse that is not clean (:func:`graphs.parse`'s best attempt).

    Returns
    -------
    The candidate insertions; empty for a clean parse or empty code.

    Examples
    --------
    >>> from graphs import parse
    >>> [c.description for c in repair_candidates(parse("int f() { return g(1; }", "java"))]
    ['inserted ")" at line 1, col 21']
    """
    if parsed.ok or not parsed.source.strip():
        return []
    found: list[Insertion] = []
    leaves = _snippet_leaves(parsed)  # one walk for both
    missing = _missing(parsed, leaves)
    if missing is not None:
        found.append(missing)
    found.extend(_brackets(parsed, leaves))
    for make in (_indent, _implicit_int):
        candidate = make(parsed)
        if candidate is not None:
            found.append(candidate)
    order = {"missing": 0, "brackets": 1, "indent": 2, "implicit_int": 3}
    found.sort(key=lambda c: (len(c.tokens), order[c.kind]))
    return found


def repair(parsed: ParsedCode, *, max_attempts: int = MAX_REPAIR_ATTEMPTS) -> Repair | None:
    """Make a broken snippet parse by inserting a few tokens, or say it cannot be done.

    Each candidate of :func:`repair_candidates` is applied and re-parsed, smallest first;
    the first clean parse wins. After a candidate that still fails, the candidates of its
    own parse are tried too (a missing ``)`` and then a missing ``}``), within the same
    budget of ``max_attempts`` re-parses and :data:`MAX_INSERTED_TOKENS` tokens in all.
    Each edited text is parsed in the snippet's own wrapper
    (:func:`graphs.parsing.parser.own_wrapper`): an edit of a few tokens does not change what the
    snippet is.

    Parameters
    ----------
    parsed : the failed parse of the snippet.
    max_attempts : re-parses to spend at most.

    Returns
    -------
    The :class:`Repair` (text, clean parse, what was inserted), or ``None``.

    Examples
    --------
    >>> from graphs import parse
    >>> r = repair(parse("int f() { return 1;", "java"))
    >>> r.text, r.description
    ('int f() { return 1;}', 'appended "}"')
    """
    if parsed.ok:
        return None
    language, wrapper = parsed.language, own_wrapper(parsed)
    queue: list[tuple[Insertion, tuple[str, Insertion] | None]] = [
        (c, None) for c in repair_candidates(parsed)]
    attempts = 0
    while queue and attempts < max_attempts:
        edit, base = queue.pop(0)
        source = parsed.source if base is None else base[0]
        text = edit.apply(source)
        attempts += 1
        again = parse(text, language, wrapper=wrapper)
        edits = (edit,) if base is None else (base[1], edit)
        if again.ok:
            return Repair(text, again, edits)
        if base is None:
            # one more step from here, still a few tokens in all
            queue.extend((c, (text, edit)) for c in repair_candidates(again)
                         if len(c.tokens) + len(edit.tokens) <= MAX_INSERTED_TOKENS)
    return None
