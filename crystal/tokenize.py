"""Code tokenizers and a small registry of named tokenizers.

Built-in tokenizers
-------------------
``"code"`` (the default)
    A language-agnostic lexer for C-family code (Java, C#, C, C++, JavaScript, ...) that
    also copes with Python. One compiled regular expression, one pass. Tokens are:

    * identifiers (Unicode letters, digits, ``_`` and ``$``);
    * numbers, one token each: ``42``, ``0x1F``, ``0b1010``, ``1_000``, ``1.5f``, ``1e-5``,
      ``100L``, ``.5``, ``3.14159m``;
    * string and character literals, one token each, escapes included: ``"a\\"b"``,
      ``'x'``, C# verbatim and interpolated strings ``@"C:\\dir"``, ``$"{x}"``, ``$@"..."``,
      Python triple-quoted strings ``\"\"\"...\"\"\"`` and prefixed strings ``r"..."``,
      ``b'...'``, ``f"..."``, C/C++ ``L"..."`` and ``u8"..."``;
    * multi-character operators, longest first: ``>>>= <<= >>= ... >>> -> => == != <= >=
      && || << >> ++ -- += -= *= /= %= &= |= ^= :: ?? ?. **`` and a few more;
    * any other non-space character as a one-character token (``{``, ``;``, ``#``, emoji...).

    Comments ``// ...`` and ``/* ... */`` are dropped. ``#`` is kept as a punctuation token,
    because it starts a comment only in some languages (Python, shell) and is code in others
    (``#include``, ``#region``); use ``"code-python"`` to drop ``#`` comments instead.

    Broken code never raises and is lexed in linear time: an unterminated string or
    character literal runs to the end of its line (a triple-quoted or verbatim string, and a
    ``/*`` comment, to the end of the text, as in a compiler), and control characters such
    as NUL are treated as whitespace. Whitespace never matters, so ``IsSimilar(`` and
    ``IsSimilar (`` tokenize alike.

``"code-python"``
    The same lexer for Python and shell-like code: ``#`` starts a line comment, while ``//``
    and ``//=`` are operators (floor division) and ``/*`` is not a comment. A backslash
    that ends a line (an explicit line joining) is dropped, as in Python's own tokenizer.

    Indentation is code in Python, so this tokenizer also emits the layout tokens
    :data:`INDENT` (``"<INDENT>"``) and :data:`DEDENT` (``"<DEDENT>"``): moving ``return t``
    into or out of a ``for`` body changes the tokens. They cannot collide with a code token,
    since the lexer splits the text ``<INDENT>`` into ``<``, ``INDENT``, ``>``. The rules are
    Python's (the ``tokenize`` module's), made total:

    * Indentation is measured at the start of *logical* lines only. Lines inside brackets
      (implicit joining), lines after a backslash continuation, blank lines, comment-only
      lines and the lines inside a triple-quoted string do not change it.
    * A tab advances the column to the next multiple of 8 and a form feed resets it to 0,
      as in CPython; any other whitespace counts one column. Lines end at ``\\n`` (so
      ``\\r\\n`` works too).
    * A deeper line opens a level (one ``INDENT``); a shallower line closes, with one
      ``DEDENT`` each, the levels deeper than it. Where CPython would fail ("unindent does
      not match any outer indentation level"), the line belongs to the nearest enclosing
      level, the deepest one not deeper than it. At the end of the text every open level is
      closed, so ``INDENT`` and ``DEDENT`` always balance.
    * Indentation is relative to the first logical line: a snippet cut out of a class (a
      uniformly indented method) tokenizes exactly as its dedented form. A later line
      shallower than every open level lowers the base level, without tokens.
    * Brackets never raise either: an unmatched closer is ignored, and an unclosed opener
      joins the rest of the text into one logical line (where CPython would fail at the end
      of the file).

    It stays linear: the one regex pass (which also reports line breaks) plus one loop over
    its matches. In :func:`token_spans`, an ``INDENT`` spans the whitespace that indents its
    line and a ``DEDENT`` is the empty span just before the first token of its line (at the
    end of the text for the final ``DEDENT`` tokens): the only spans that are not their
    token's text.

``"whitespace"``
    ``str.split()``: for pre-tokenized data such as CodeXGLUE's or Concode's.

More tokenizers can be added by name with :func:`register_tokenizer`. The registry is a
module-level dictionary (the only mutable state of this module); built-in names cannot be
replaced.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

__all__ = [
    "INDENT",
    "DEDENT",
    "tokenize",
    "token_spans",
    "register_tokenizer",
    "get_tokenizer",
    "available_tokenizers",
    "Tokenizer",
]

Tokenizer = Callable[[str], list[str]]

INDENT = "<INDENT>"
"""Layout token of ``"code-python"``: the next logical line is indented one level deeper."""
DEDENT = "<DEDENT>"
"""Layout token of ``"code-python"``: one indentation level ends."""

# Longest operators first: the regex alternation takes the first alternative that matches.
_OPERATORS = (
    ">>>=", "<<=", ">>=", "**=", "??=", "...", ">>>", "===", "!==", "<=>", "->*",
    "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "::", "??", "?.", "**", ":=", "..", ".*",
)  # fmt: skip

_PY_OPERATORS = ("//=", "//")


def _operator_pattern(operators: tuple[str, ...]) -> str:
    ops = sorted(set(operators), key=lambda op: (-len(op), op))
    return "|".join(re.escape(op) for op in ops)


# Pieces of the lexer. Each string body is "unrolled" ([^"\\\n]*(?:\\.[^"\\\n]*)*) so that
# matching is linear and never backtracks catastrophically, whatever the input.
_STR_PREFIX = r"(?:[rRbBuUfFL]|u8){0,2}"
_TRIPLE = _STR_PREFIX + r'"""[\s\S]*?(?:"""|\Z)|' + _STR_PREFIX + r"'''[\s\S]*?(?:'''|\Z)"
_VERBATIM = r'(?:\$@|@\$?)"[^"]*(?:""[^"]*)*"?'
_DQ = r"(?:" + _STR_PREFIX + r'|\$)"[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"?'
_SQ = _STR_PREFIX + r"'[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*'?"
_NUMBER = (
    r"0[xXbBoO][0-9a-zA-Z_]+"  # hex, binary, octal, with suffixes such as UL
    r"|(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?\w*"
)
_IDENT = r"(?:[^\W\d]|\$)[\w$]*"
# Whitespace and C0 control characters: never part of a token outside a literal or comment.
_SKIPPED = r"\s\x00-\x08\x0e-\x1f\x7f"
# Anything else: one token per character.
_OTHER = r"[^" + _SKIPPED + r"]"

# Shortcuts tried before the full alternation above, for speed only: the regex engine tries
# the alternatives in order at every token, and identifiers and punctuation, the commonest
# tokens, would otherwise come after the four string alternatives. Each shortcut matches
# exactly what the full alternation would at the same position:
# - these brackets and separators start no other alternative;
_PUNCTUATION = r"[(){}\[\];,]"
# - an identifier starts no number, and it can start a string only as the string's prefix,
#   the whole identifier then being followed by a quote (or `$` by `@"`), excluded here (the
#   lookahead also makes the match the whole identifier: Python 3.10's `re` has no atomic
#   groups);
_PLAIN_IDENT = _IDENT + r"(?![\w$\"'@])"
# - a character that starts no string, number or identifier starts an operator or is one.
_PLAIN_OPERATOR = r"(?=[^\w$\"'@.])(?:{operators}|" + _OTHER + r")"


def _build(
    comment: str,
    operators: tuple[str, ...],
    extra: tuple[str, ...] = (),
    skipped: str = "[" + _SKIPPED + "]",
) -> re.Pattern[str]:
    ops = _operator_pattern(operators)
    token = "|".join(
        (
            *extra,
            _PUNCTUATION,
            _PLAIN_IDENT,
            _PLAIN_OPERATOR.format(operators=ops),
            _TRIPLE,
            _VERBATIM,
            _DQ,
            _SQ,
            _NUMBER,
            _IDENT,
            ops,
            _OTHER,
        )
    )
    # Comments match the outer alternative and yield an empty group, which is filtered out.
    # The `skipped` characters before a token are consumed in the same match (no failed
    # attempt at each of them, which made up a sixth of the lexing time); `\Z` ends the text
    # after them with an empty match. Nothing backtracks into the run: what follows it always
    # matches (`_OTHER` takes any character that is not skipped).
    return re.compile(
        r"(?:" + skipped + r")*(?:(?:" + comment + r")|(" + token + r")|\Z)"
    )


_C_COMMENTS = r"//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)"
_HASH_COMMENTS = r"#[^\n]*"
# Python drops a backslash-newline (explicit line joining), newline included, so the line
# after it continues the logical line.
_PY_DROPPED = _HASH_COMMENTS + r"|\\\r?\n"
# A line break with the next line's indentation: a pseudo-token of the Python lexer only,
# never returned (no real token starts with whitespace).
_PY_NEWLINE = r"\n[^\S\n]*"

_CODE_RE = _build(_C_COMMENTS, _OPERATORS)
# a line break is a (pseudo-)token of the Python lexer, never skipped
_PY_RE = _build(_PY_DROPPED, _OPERATORS + _PY_OPERATORS, (_PY_NEWLINE,),
                r"[^\S\n]|[\x00-\x08\x0e-\x1f\x7f]")
_LEADING_SPACE = re.compile(r"[^\S\n]*")
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def _lexer(pattern: re.Pattern[str]) -> Tokenizer:
    findall = pattern.findall

    def lex(text: str) -> list[str]:
        tokens = findall(text)
        # Empty strings are the dropped comments; filter(None, ...) keeps the loop in C.
        return list(filter(None, tokens))

    return lex


def _code(text: str) -> list[str]:
    return _code_lex(text)


def _column(indent: str) -> int:
    """The column after ``indent`` (whitespace): CPython's tab stops of 8, form feed to 0."""
    if "\t" not in indent and "\f" not in indent:
        return len(indent)
    col = 0
    for ch in indent:
        if ch == "\t":
            col = (col // 8 + 1) * 8
        elif ch == "\f":
            col = 0
        else:
            col += 1
    return col


def _python_layout(text: str, with_spans: bool) -> tuple[list[str], list[tuple[int, int]]]:
    """Tokens of ``"code-python"`` (layout tokens included) and, if asked, their spans.

    One loop over the regex matches serves both :func:`tokenize` (``findall``: no match
    objects) and :func:`token_spans` (``finditer``), so the two always agree.
    """
    if with_spans:
        matches = list(_PY_RE.finditer(text))
        items = [m.group(1) or "" for m in matches]
    else:
        matches = []
        items = _PY_RE.findall(text)
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    append = tokens.append
    brackets = _BRACKETS.get
    # The indentation of the line now starting (None inside a logical line) and where it
    # starts; the text's first line has no newline before it.
    indent: str | None = _LEADING_SPACE.match(text).group()  # type: ignore[union-attr]
    indent_at = 0
    levels: list[int] = []  # the open levels' columns; levels[0] is the base
    depth = 0  # bracket nesting
    for i, item in enumerate(items):
        if not item:  # a comment or a backslash continuation
            continue
        if item[0] == "\n":
            if depth == 0:  # otherwise an implicit line joining
                indent = item[1:]
                if with_spans:
                    indent_at = matches[i].start(1) + 1
            continue
        if indent is not None:  # the first token of a logical line
            col = _column(indent)
            if not levels:
                levels.append(col)
            elif col > levels[-1]:
                levels.append(col)
                append(INDENT)
                if with_spans:
                    spans.append((indent_at, indent_at + len(indent)))
            elif col < levels[-1]:
                at = matches[i].start(1) if with_spans else 0
                while len(levels) > 1 and col < levels[-1]:
                    levels.pop()
                    append(DEDENT)
                    if with_spans:
                        spans.append((at, at))
                if col < levels[0]:
                    levels[0] = col  # shallower than the first line: a lower base
            indent = None
        append(item)
        if with_spans:
            spans.append(matches[i].span(1))
        step = brackets(item)
        if step is not None:
            depth = max(0, depth + step)
    closing = max(0, len(levels) - 1)
    tokens.extend([DEDENT] * closing)
    if with_spans:
        spans.extend([(len(text), len(text))] * closing)
    return tokens, spans


def _code_python(text: str) -> list[str]:
    return _python_layout(text, False)[0]


def _whitespace(text: str) -> list[str]:
    return text.split()


_code_lex = _lexer(_CODE_RE)

_BUILTINS: dict[str, Tokenizer] = {
    "code": _code,
    "code-python": _code_python,
    "whitespace": _whitespace,
}
_REGISTRY: dict[str, Tokenizer] = dict(_BUILTINS)
_REGISTRY_LOCK = threading.Lock()


def register_tokenizer(name: str, fn: Tokenizer, *, replace: bool = False) -> None:
    """Register a tokenizer under ``name`` so that ``tokenize(text, name)`` can use it.

    Parameters
    ----------
    name : str
        The tokenizer's name, recorded in n-gram set files and reproducibility signatures.
    fn : callable
        A function ``str -> list[str]``. It should never raise and must be deterministic.
    replace : bool, optional (default False)
        Allow replacing a tokenizer registered earlier under the same name. Built-in names
        (``"code"``, ``"code-python"``, ``"whitespace"``) can never be replaced.

    Raises
    ------
    ValueError
        If ``name`` is empty, is a built-in name, or is taken and ``replace`` is False.
    TypeError
        If ``fn`` is not callable.

    Examples
    --------
    >>> from crystal import register_tokenizer, tokenize
    >>> register_tokenizer("chars", lambda text: [c for c in text if not c.isspace()])
    >>> tokenize("a b", "chars")
    ['a', 'b']
    """
    if not isinstance(name, str) or not name:
        raise ValueError("tokenizer name must be a non-empty string")
    if not callable(fn):
        raise TypeError(f"tokenizer {name!r} must be callable, got {type(fn).__name__}")
    with _REGISTRY_LOCK:
        if name in _BUILTINS:
            raise ValueError(f"tokenizer {name!r} is built in and cannot be replaced")
        if name in _REGISTRY and not replace:
            raise ValueError(f"tokenizer {name!r} is already registered (pass replace=True)")
        _REGISTRY[name] = fn


def get_tokenizer(name: str) -> Tokenizer:
    """Return the tokenizer function registered under ``name``.

    Parameters
    ----------
    name : str
        A built-in name (``"code"``, ``"code-python"``, ``"whitespace"``) or one registered
        with :func:`register_tokenizer`.

    Returns
    -------
    callable
        A function ``str -> list[str]``.

    Raises
    ------
    ValueError
        If no tokenizer has that name; the message lists the available names.

    Examples
    --------
    >>> from crystal.tokenize import get_tokenizer
    >>> get_tokenizer("whitespace")("a  b")
    ['a', 'b']
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(available_tokenizers())
        raise ValueError(f"unknown tokenizer {name!r} (available: {known})") from None


def available_tokenizers() -> tuple[str, ...]:
    """Names of all registered tokenizers, sorted.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> from crystal.tokenize import available_tokenizers
    >>> {"code", "whitespace"} <= set(available_tokenizers())
    True
    """
    return tuple(sorted(_REGISTRY))


def tokenize(text: str, tokenizer: str | Tokenizer = "code") -> list[str]:
    """Split code into tokens.

    Parameters
    ----------
    text : str
        Any text: whole files, snippets, broken code. Never raises on content.
    tokenizer : str or callable, optional (default "code")
        A registered tokenizer name (see the module documentation for the built-ins) or a
        function ``str -> list[str]``.

    Returns
    -------
    list of str
        The tokens, comments dropped (for the code lexers).

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        If ``tokenizer`` names no registered tokenizer.

    Examples
    --------
    >>> from crystal import tokenize
    >>> tokenize('if (x >= 0x1F) s += "a b"; // note')
    ['if', '(', 'x', '>=', '0x1F', ')', 's', '+=', '"a b"', ';']
    >>> tokenize("IsSimilar (a)") == tokenize("IsSimilar(a)")
    True
    >>> tokenize("a  b", "whitespace")
    ['a', 'b']
    """
    if not isinstance(text, str):
        raise TypeError(f"tokenize() needs a str, got {type(text).__name__}")
    fn = tokenizer if callable(tokenizer) else get_tokenizer(tokenizer)
    return fn(text)


_SPAN_PATTERNS: dict[str, re.Pattern[str]] = {
    "code": _CODE_RE,
    "whitespace": re.compile(r"\S+"),
}


def token_spans(text: str, tokenizer: str | Tokenizer = "code") -> list[tuple[int, int] | None]:
    """Where each token of :func:`tokenize` sits in ``text``, for highlighting.

    Parameters
    ----------
    text : str
    tokenizer : str or callable, optional (default "code")
        As for :func:`tokenize`.

    Returns
    -------
    list of (int, int) or None
        One ``(start, end)`` character range per token, in token order, so that
        ``text[start:end]`` is the token, except for the layout tokens of ``"code-python"``:
        an ``INDENT`` spans its line's indentation, a ``DEDENT`` is an empty span (see the
        module documentation). Spans never overlap and never go backwards. The built-in
        tokenizers give exact spans (from the
        lexer itself, so a token's twin inside a comment is never picked); for other
        tokenizers each token is searched for after the previous one, and a token that does
        not occur there as is (a tokenizer that rewrites text) gets ``None``.

    Examples
    --------
    >>> from crystal.tokenize import token_spans
    >>> token_spans("f (x) // x")
    [(0, 1), (2, 3), (3, 4), (4, 5)]
    >>> token_spans("if a:\\n    b", "code-python")  # if a : INDENT b DEDENT
    [(0, 2), (3, 4), (4, 5), (6, 10), (10, 11), (11, 11)]
    """
    if not isinstance(text, str):
        raise TypeError(f"token_spans() needs a str, got {type(text).__name__}")
    if tokenizer == "code-python":
        return list(_python_layout(text, True)[1])
    pattern = None if callable(tokenizer) else _SPAN_PATTERNS.get(tokenizer)
    if pattern is not None:
        if tokenizer == "whitespace":
            return [m.span() for m in pattern.finditer(text)]
        return [m.span(1) for m in pattern.finditer(text) if m.group(1)]
    spans: list[tuple[int, int] | None] = []
    cursor = 0
    for token in tokenize(text, tokenizer):
        start = text.find(token, cursor) if token else -1
        if start < 0:
            spans.append(None)
            continue
        spans.append((start, start + len(token)))
        cursor = start + len(token)
    return spans
