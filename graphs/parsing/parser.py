"""Parse code snippets with tree-sitter, trying the language's natural contexts.

Code to evaluate is rarely a whole file: CodeXGLUE lines are methods without their class,
generated code is often a few statements or one expression. :func:`parse` tries the text as
given, then inside each wrapper of the language (class body, method or function body,
expression; see :mod:`graphs.lang.languages`) until one parse is *clean*: no ``ERROR`` and no
``MISSING`` node anywhere, and no token of the snippet merged into the wrapper's scaffolding.
Positions are always reported in the original snippet (1-based line and column, columns in
characters), whatever wrapper was used.

Nothing here recurses over the syntax tree: 5,000 nesting levels are fine.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np
import tree_sitter

from graphs.lang.languages import AS_GIVEN, Language, Wrapper, get_language, get_parser
from graphs.lang.syntax import leaves, walk

__all__ = ["ParsedCode", "own_wrapper", "parse", "parse_as"]

EMPTY_CODE = "empty code"


class SourceIndex:
    """Maps byte offsets of the parsed text back to the original snippet.

    The parsed text is ``prefix + body + suffix`` where ``body`` is the original text, with
    ``indent`` inserted at the start of every line for indented wrappers. Each copied run of
    original bytes is a *segment*; offsets that fall into inserted text are clamped to the
    nearest original offset after them.
    """

    __slots__ = ("_w_starts", "_o_starts", "_lengths", "source", "_ascii", "_char_bytes",
                 "_line_starts", "_row_offset", "_indent", "_ascii_lines", "verbatim",
                 "_plain")

    def __init__(self, source: str, segments: list[tuple[int, int, int]],
                 row_offset: int | None = 0, indent: int = 0) -> None:
        self.source = source
        self._w_starts = [s[0] for s in segments]
        self._o_starts = [s[1] for s in segments]
        self._lengths = [s[2] for s in segments]
        # the snippet is one unmodified run of the parsed text: node text is a plain slice
        self.verbatim = len(segments) == 1
        self._ascii = source.isascii()
        # ASCII snippet in one run at this offset of the parsed text: a character index is
        # the clamped byte offset (the common case; the PDG asks for thousands of ranges)
        self._plain = self._w_starts[0] if self.verbatim and self._ascii else None
        # byte offset of each code point, then len(utf-8): a list, as bisect on it beats
        # numpy's searchsorted for one offset at a time
        self._char_bytes: list[int] | None = None
        self._line_starts: list[int] | None = None
        # snippet line k is row k + row_offset of the parsed text, shifted right by
        # `indent` bytes (None: prefix does not end a line, no shortcut)
        self._row_offset = row_offset
        self._indent = indent
        self._ascii_lines: list[int] | None = None

    def original_byte(self, offset: int) -> int:
        """Byte offset in the original (utf-8) text for a byte offset in the parsed text."""
        k = bisect.bisect_right(self._w_starts, offset) - 1
        if k < 0:
            return 0
        inside = offset - self._w_starts[k]
        if inside < self._lengths[k]:
            return self._o_starts[k] + inside
        return self._o_starts[k] + self._lengths[k]

    def char_index(self, original_byte: int) -> int:
        """Character index in the original ``str`` for a byte offset in its utf-8 form."""
        if self._ascii:
            return min(original_byte, len(self.source))
        if self._char_bytes is None:
            # utf-8 length of each code point (lone surrogates, kept by "surrogatepass", take 3)
            cps = np.frombuffer(self.source.encode("utf-32-le", "surrogatepass"), np.uint32)
            widths = 1 + (cps >= 0x80) + (cps >= 0x800) + (cps >= 0x10000)
            starts = np.zeros(len(cps) + 1, np.int64)
            np.cumsum(widths, out=starts[1:])
            self._char_bytes = starts.tolist()
        return bisect.bisect_right(self._char_bytes, original_byte) - 1

    def char_range(self, start: int, end: int) -> tuple[int, int]:
        """Character range in the original ``str`` of a byte range of the parsed text."""
        w0 = self._plain
        if w0 is not None:
            n = len(self.source)
            start -= w0
            end -= w0
            return (0 if start < 0 else start if start < n else n,
                    0 if end < 0 else end if end < n else n)
        return (self.char_index(self.original_byte(start)),
                self.char_index(self.original_byte(end)))

    def line_col(self, char_index: int) -> tuple[int, int]:
        """1-based (line, column) of a character index; columns count characters."""
        if self._line_starts is None:
            starts = [0]
            find = self.source.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        line = bisect.bisect_right(self._line_starts, char_index)
        return line, char_index - self._line_starts[line - 1] + 1

    def position(self, offset: int) -> tuple[int, int]:
        return self.line_col(self.char_index(self.original_byte(offset)))

    def point_position(self, offset: int, row: int, column: int) -> tuple[int, int]:
        """Like :meth:`position`, given tree-sitter's (row, byte column) too: on ASCII lines
        that is a subtraction, much cheaper than mapping the offset."""
        if self._row_offset is not None:
            if self._ascii_lines is None:
                # length of each ASCII line, -1 for lines with multi-byte characters
                self._ascii_lines = [len(t) if t.isascii() else -1
                                     for t in self.source.split("\n")]
            line = row - self._row_offset
            col = column - self._indent
            if 0 <= line < len(self._ascii_lines) and 0 <= col <= self._ascii_lines[line]:
                return line + 1, col + 1
        return self.position(offset)

    def text(self, parsed_text: bytes, start: int, end: int) -> str:
        """Original text between two byte offsets of the parsed text."""
        if self.verbatim:
            try:
                return parsed_text[start:end].decode("utf-8", "surrogatepass")
            except UnicodeDecodeError:  # a boundary inside malformed input; map instead
                pass
        return self.source[self.char_index(self.original_byte(start)):
                           self.char_index(self.original_byte(end))]


@dataclass(frozen=True)
class ParsedCode:
    """The result of :func:`parse`: a tree-sitter tree and where the snippet sits in it.

    Attributes
    ----------
    language : str
        Canonical language name.
    source : str
        The original snippet.
    text : bytes
        The utf-8 text actually parsed: the snippet inside its wrapper.
    tree : tree_sitter.Tree
        The parse of ``text``.
    nodes : tuple of tree_sitter.Node
        The snippet's top-level named nodes, in order, inside the wrapper's container (for
        ``wrapper == "none"``: the root's named children). Comments are included where the
        grammar attaches them to the container. For a parse that is not clean, the nodes of
        the best attempt (possibly empty).
    wrapper : str
        Name of the context that gave the parse (``"none"`` = as given).
    error : str or None
        ``None`` for a clean parse; else ``"parse error at line L, col C"``,
        ``"missing ';' at line L, col C"`` or ``"empty code"``, positions in ``source``.
    span : tuple of int
        Byte range of the snippet inside ``text``.
    index : SourceIndex
        Maps offsets of the parsed ``text`` (wrapper included) back to ``source``; the
        positions and node texts above are read through it.
    """

    language: str
    source: str
    text: bytes = field(repr=False)
    tree: tree_sitter.Tree = field(compare=False, repr=False)
    nodes: tuple[tree_sitter.Node, ...] = field(compare=False, repr=False)
    wrapper: str
    error: str | None
    span: tuple[int, int] = field(repr=False)
    index: SourceIndex = field(compare=False, repr=False)
    # A failed search's attempt in each wrapper (by name), so that the parse in one given
    # wrapper (:func:`parse_as`) is not parsed again; None for a clean parse.
    attempts: dict[str, _Attempt] | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """True when the parse is clean (``error is None``)."""
        return self.error is None

    def position(self, node: tree_sitter.Node) -> tuple[int, int]:
        """1-based (line, column) of ``node``'s start in the original snippet.

        Parameters
        ----------
        node : tree_sitter.Node
            A node of ``self.tree``.

        Returns
        -------
        tuple of int
            Line and column (in characters). Nodes in wrapper text are clamped to the
            nearest snippet position.

        Examples
        --------
        >>> from graphs import parse
        >>> p = parse("int f() {\\n  return 1;\\n}", "java")
        >>> p.position(p.nodes[0].child_by_field_name("body").named_children[0])
        (2, 3)
        """
        point = node.start_point
        return self.index.point_position(node.start_byte, point[0], point[1])

    def text_position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) in the original snippet of a byte offset into ``text``."""
        return self.index.position(offset)

    def source_range(self, node: tree_sitter.Node) -> tuple[int, int]:
        """Character range ``[start, end)`` of ``node`` in ``source``."""
        return self.index.char_range(node.start_byte, node.end_byte)

    def node_text(self, node: tree_sitter.Node) -> str:
        """The original source text of ``node`` (without any wrapper indentation).

        Examples
        --------
        >>> from graphs import parse
        >>> p = parse("x = 1 + 2", "python")
        >>> p.node_text(p.nodes[0])
        'x = 1 + 2'
        """
        return self.index.text(self.text, node.start_byte, node.end_byte)


@dataclass
class _Attempt:
    wrapper: Wrapper
    text: bytes
    tree: tree_sitter.Tree
    nodes: tuple[tree_sitter.Node, ...]
    span: tuple[int, int]
    index: SourceIndex
    error: str | None = None
    # Ranking of failed attempts: errors inside the snippet beat errors in wrapper text,
    # then the later error wins (that context got further before failing).
    rank: tuple[bool, int] = (False, -1)


def _wrap(code: str, original: bytes, wrapper: Wrapper) -> tuple[bytes, tuple[int, int], list]:
    """Build the text to parse, the snippet's byte span in it, and the offset segments."""
    if not (wrapper.prefix or wrapper.suffix or wrapper.indent):
        return original, (0, len(original)), [(0, 0, len(original))]
    prefix = wrapper.prefix.encode()
    suffix = wrapper.suffix.encode()
    if not wrapper.indent:
        text = prefix + original + suffix
        return text, (len(prefix), len(prefix) + len(original)), [(len(prefix), 0,
                                                                   len(original))]
    indent = wrapper.indent.encode()
    parts = [prefix]
    segments = []
    w_off, o_off = len(prefix), 0
    lines = original.split(b"\n")
    for k, line in enumerate(lines):
        chunk = line if k == len(lines) - 1 else line + b"\n"
        parts.append(indent)
        parts.append(chunk)
        segments.append((w_off + len(indent), o_off, len(chunk)))
        w_off += len(indent) + len(chunk)
        o_off += len(chunk)
    parts.append(suffix)
    return b"".join(parts), (len(prefix), w_off), segments


def _python_indentation(root: tree_sitter.Node) -> tuple[int, str] | None:
    """The first statement indented unlike the statements before it in its block, as
    ``(byte offset, message)``; None when every block is consistently indented.

    tree-sitter-python recovers from an unexpected indent without an ERROR node (it reads
    ``def f():\n    pass\nx = 1\n    return x`` as four top-level statements), so such
    code would otherwise count as a clean parse, and get a PDG of a structure Python
    rejects (IndentationError).
    """
    stack = [root]
    while stack:
        node = stack.pop()
        kids = node.named_children
        if node.type in ("module", "block"):
            column = None
            row = node.parent.start_point.row if node.parent is not None else -1
            for kid in kids:
                if kid.type == "comment":
                    continue
                start = kid.start_point
                if start.row > row:  # first on its line
                    if column is None:
                        column = start.column
                    elif start.column != column:
                        return kid.start_byte, "indentation does not match the block"
                row = kid.end_point.row
        stack.extend(reversed(kids))
    return None


def _first_error(root: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first ERROR or MISSING node in document order, descending only into subtrees
    that contain one."""
    return next((node for node in walk(root, _has_error)
                 if node.is_error or node.is_missing or _hidden_missing(node)), None)


def _has_error(node: tree_sitter.Node) -> bool:
    return node.has_error


def _hidden_missing(node: tree_sitter.Node) -> bool:
    """A missing token under a visible name: a leaf that has an error without being an
    ERROR or MISSING node itself (C#'s ``identifier`` aliases a hidden token; when that
    token is missing, only its alias shows)."""
    return node.has_error and not node.child_count and not node.is_error


def _locate(root: tree_sitter.Node, lang: Language, wrapper: Wrapper,
            span: tuple[int, int]) -> tuple[tuple[tree_sitter.Node, ...], int | None]:
    """Find the snippet's top-level nodes; return them and the offset of a *leak* (a token of
    the snippet that became part of the wrapper's scaffolding), or None."""
    if not wrapper.path:
        nodes: list[tree_sitter.Node] = []
        for child in root.named_children:
            if child.type in lang.transparent_types:
                nodes.extend(child.named_children)
            else:
                nodes.append(child)
        return tuple(nodes), None
    lo, hi = span
    node = root
    last = len(wrapper.path) - 1
    for depth, node_type in enumerate(wrapper.path):
        # One pass over the children: the next step is the first named child of the type
        # (scaffolding starts before the snippet; only the container, a Python block, which
        # begins at the first statement, may start inside it); any other child that
        # overlaps the snippet, extras aside, is a leak.
        nxt = None
        leak = None
        for child in node.children:
            if (nxt is None and child.is_named and child.type == node_type
                    and (depth == last or child.start_byte < lo)):
                nxt = child
            elif (leak is None and not child.is_extra and child.start_byte < hi
                  and child.end_byte > lo):
                leak = child.start_byte
        if nxt is None:
            return (), lo
        if leak is not None:
            return (), leak
        node = nxt
    nodes = []
    for child in node.children:
        start, end = child.start_byte, child.end_byte
        # outside the snippet, or the snippet's own punctuation (C++ `public:`; a snippet
        # token closing the container early would leave later tokens in an ancestor,
        # caught above)
        if start >= hi or end <= lo or not child.is_named:
            continue
        if not child.is_extra and (start < lo or end > hi):
            return tuple(nodes), max(start, lo)
        nodes.append(child)
    return tuple(nodes), None


def _attempt(parser: tree_sitter.Parser, lang: Language, code: str, original: bytes,
             wrapper: Wrapper) -> _Attempt:
    text, span, segments = _wrap(code, original, wrapper)
    tree = parser.parse(text)
    root = tree.root_node
    nodes, leak = _locate(root, lang, wrapper, span)
    prefix = wrapper.prefix
    row_offset = prefix.count("\n") if not prefix or prefix.endswith("\n") else None
    index = SourceIndex(code, segments, row_offset, len(wrapper.indent.encode()))
    attempt = _Attempt(wrapper, text, tree, nodes, span, index)
    if root.has_error:
        bad = _first_error(root) or root
        offset = bad.start_byte
        if bad.is_missing or _hidden_missing(bad):
            what = bad.type if bad.is_named else f"'{bad.type}'"
            message = f"missing {what}"
        else:
            message = "parse error"
    elif leak is not None:
        offset, message = leak, "parse error"
    else:
        bad_indent = _python_indentation(root) if lang.name == "python" else None
        if bad_indent is None:
            return attempt
        offset, message = bad_indent
    line, col = index.position(offset)
    attempt.error = f"{message} at line {line}, col {col}"
    attempt.rank = (span[0] <= offset <= span[1], index.original_byte(offset))
    return attempt


def _preferred_member(attempt: _Attempt) -> bool:
    """Whether a clean ``prefer_if`` attempt is what the ordered search would return: its
    first top-level node is one of the wrapper's ``prefer_types`` and has a body."""
    nodes = attempt.nodes
    return (bool(nodes) and nodes[0].type in attempt.wrapper.prefer_types
            and nodes[0].child_by_field_name("body") is not None)


def _error_in_body(attempt: _Attempt) -> bool:
    """Whether a failed attempt read the snippet as a member (its first top-level node one
    of the wrapper's ``prefer_types`` or ``defer_if`` types, a method or a local function,
    with a body) and its first error lies past the body's first token: then, for a snippet
    that ``prefer_if`` took for a member, its text up to the body is a member's header."""
    nodes = attempt.nodes
    if not nodes:
        return False
    kind = nodes[0].type
    if kind not in attempt.wrapper.prefer_types and kind not in attempt.wrapper.defer_if:
        return False
    body = nodes[0].child_by_field_name("body")
    return body is not None and attempt.rank > (True, attempt.index.original_byte(
        body.start_byte))


def _result(lang: Language, code: str, attempt: _Attempt,
            attempts: dict[str, _Attempt] | None = None) -> ParsedCode:
    return ParsedCode(lang.name, code, attempt.text, attempt.tree, attempt.nodes,
                      attempt.wrapper.name, attempt.error, attempt.span, attempt.index,
                      attempts)


def _forced(lang: Language, code: str, attempt: _Attempt) -> ParsedCode:
    """What ``parse(code, wrapper=attempt.wrapper.name)`` returns, from its one attempt."""
    error = attempt.error
    if error is not None and attempt.rank == (True, 0):
        error = _bracket_problem(attempt) or error
    return ParsedCode(lang.name, code, attempt.text, attempt.tree, attempt.nodes,
                      attempt.wrapper.name, error, attempt.span, attempt.index)


def own_wrapper(parsed: ParsedCode) -> str:
    """The wrapper an edit of ``parsed``'s text (a repair, blanked stray closers) is parsed
    in: the member wrapper when the snippet starts like a member (``Wrapper.prefer_if``),
    else the one its parse was read in. A failed parse's own wrapper does not say what a
    broken member is: a method cut short reads furthest as given (a C# local function),
    where a constructor cannot stand at all.

    >>> own_wrapper(parse("public int F(int a) { return a;", "cs"))
    'class_body'
    >>> own_wrapper(parse("x = f(a;", "cs"))
    'none'
    """
    preferred = get_language(parsed.language).preferred_wrapper(parsed.source)
    return preferred.name if preferred is not None else parsed.wrapper


def parse_as(parsed: ParsedCode, wrapper: str) -> ParsedCode:
    """``parse(parsed.source, parsed.language, wrapper=wrapper)``, reusing the attempt the
    search behind ``parsed`` already made in that wrapper (a failed parse tried them all).

    >>> p = parse("int x = ;", "java")
    >>> parse_as(p, "method_body") == parse("int x = ;", "java", wrapper="method_body")
    True
    """
    attempt = parsed.attempts.get(wrapper) if parsed.attempts else None
    if attempt is None:
        return parse(parsed.source, parsed.language, wrapper=wrapper)
    return _forced(get_language(parsed.language), parsed.source, attempt)


def parse(code: str, language: str, *, wrapper: str | None = None) -> ParsedCode:
    """Parse a code snippet, trying the language's wrappers until the parse is clean.

    The text is parsed as given, then inside each wrapper of the language in order (see
    :data:`graphs.lang.languages` entries: e.g. Java ``none, class_body, method_body,
    expression``). The first clean parse wins. If none is clean, the result carries the
    attempt whose first error is furthest into the snippet (errors in wrapper text count
    last) and that error. (A snippet that starts like a Java or C# method or constructor
    header is parsed in the class body first, which gives that same result with one parse
    instead of two; see ``Wrapper.prefer_if``.)

    Parameters
    ----------
    code : str
        The snippet: a file, a class, a method, statements or an expression.
    language : str
        Language name or alias (``"java"``, ``"cs"``, ``"py"``, ...).
    wrapper : str, optional
        Force one context (``"none"``, ``"class_body"``, ...) instead of trying them all.

    Returns
    -------
    ParsedCode
        Never raises for any ``str``: failures are reported in ``error`` (``ok`` is False).
        Empty or whitespace-only code gives ``error == "empty code"`` and no nodes.

    Raises
    ------
    UnknownLanguageError
        If ``language`` is not registered.

    Examples
    --------
    >>> from graphs import parse
    >>> p = parse("public int size() { return n; }", "csharp")
    >>> p.ok, p.wrapper, p.nodes[0].type
    (True, 'class_body', 'method_declaration')
    >>> parse("int x = ;", "java").error
    'parse error at line 1, col 7'
    """
    lang = get_language(language)
    if not isinstance(code, str):
        raise TypeError(f"code must be str, not {type(code).__name__}")
    parser = get_parser(lang.name)
    original = code.encode("utf-8", "surrogatepass")
    if not code.strip():
        attempt = _attempt(parser, lang, code, original, AS_GIVEN)
        attempt.error, attempt.nodes = EMPTY_CODE, ()
        return _result(lang, code, attempt)
    wrappers = lang.wrappers if wrapper is None else (lang.wrapper(wrapper),)
    early: _Attempt | None = None
    broken_body = False
    preferred = lang.preferred_wrapper(code) if wrapper is None else None
    if preferred is not None:
        # the snippet looks like a member: its wrapper first (see Wrapper.prefer_if)
        early = _attempt(parser, lang, code, original, preferred)
        if early.error is None and _preferred_member(early):
            return _result(lang, code, early)
        broken_body = early.error is not None and _error_in_body(early)
    best: _Attempt | None = None
    deferred: _Attempt | None = None
    tried: dict[str, _Attempt] = {}
    for w in wrappers:
        if early is not None and early.wrapper is w:
            attempt = early  # parsed above already; same text, same tree
        elif broken_body and w.member_free:
            continue  # its first error would come sooner (see Wrapper.member_free)
        else:
            attempt = _attempt(parser, lang, code, original, w)
        tried[w.name] = attempt
        if attempt.error is None:
            if wrapper is None and any(n.type in w.defer_if for n in attempt.nodes):
                deferred = deferred or attempt
                continue
            return _result(lang, code, attempt)
        if best is None or attempt.rank > best.rank:
            best = attempt
        # only a snippet whose start the member pattern took for a member's header: a
        # class body also reads `new Foo() { A = 1 }` (C#) or `new T() { ... }` (Java) as a
        # member, which are expressions
        broken_body = broken_body or (early is not None and _error_in_body(attempt))
    if deferred is not None:
        return _result(lang, code, deferred)
    assert best is not None
    if best.rank == (True, 0):
        # tree-sitter often blames the very first token when brackets do not balance,
        # which tells a reader nothing; name the bracket instead.
        best.error = _bracket_problem(best) or best.error
    return _result(lang, code, best, tried if wrapper is None else None)


_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {close: open_ for open_, close in _OPENERS.items()}


def _bracket_problem(attempt: _Attempt) -> str | None:
    """The first bracket that does not match in the snippet's tokens, as an error message."""
    lo, hi = attempt.span
    opened: list[tree_sitter.Node] = []
    for node in leaves(attempt.tree.root_node, lo, hi):
        kind = node.type
        if kind in _OPENERS:
            opened.append(node)
        elif kind in _CLOSERS:
            if opened and opened[-1].type == _CLOSERS[kind]:
                opened.pop()
            else:
                line, col = attempt.index.position(node.start_byte)
                return f"unmatched '{kind}' at line {line}, col {col}"
    if opened:
        line, col = attempt.index.position(opened[-1].start_byte)
        return f"'{opened[-1].type}' at line {line}, col {col} is never closed"
    return None
