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
    and ``//=`` are operators (floor division) and ``/*`` is not a comment.

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
    "tokenize",
    "token_spans",
    "register_tokenizer",
    "get_tokenizer",
    "available_tokenizers",
    "Tokenizer",
]

Tokenizer = Callable[[str], list[str]]

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
# Anything else that is not whitespace or a C0 control character: one token per character.
_OTHER = r"[^\s\x00-\x08\x0e-\x1f\x7f]"


def _build(comment: str, operators: tuple[str, ...]) -> re.Pattern[str]:
    token = "|".join(
        (_TRIPLE, _VERBATIM, _DQ, _SQ, _NUMBER, _IDENT, _operator_pattern(operators), _OTHER)
    )
    # Comments match the outer alternative and yield an empty group, which is filtered out.
    return re.compile(r"(?:" + comment + r")|(" + token + r")")


_C_COMMENTS = r"//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)"
_HASH_COMMENTS = r"#[^\n]*"

_CODE_RE = _build(_C_COMMENTS, _OPERATORS)
_PY_RE = _build(_HASH_COMMENTS, _OPERATORS + _PY_OPERATORS)


def _lexer(pattern: re.Pattern[str]) -> Tokenizer:
    findall = pattern.findall

    def lex(text: str) -> list[str]:
        tokens = findall(text)
        # Empty strings are the dropped comments; filter(None, ...) keeps the loop in C.
        return list(filter(None, tokens))

    return lex


def _code(text: str) -> list[str]:
    return _code_lex(text)


def _code_python(text: str) -> list[str]:
    return _py_lex(text)


def _whitespace(text: str) -> list[str]:
    return text.split()


_code_lex = _lexer(_CODE_RE)
_py_lex = _lexer(_PY_RE)

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
    "code-python": _PY_RE,
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
        ``text[start:end]`` is the token. The built-in tokenizers give exact spans (from the
        lexer itself, so a token's twin inside a comment is never picked); for other
        tokenizers each token is searched for after the previous one, and a token that does
        not occur there as is (a tokenizer that rewrites text) gets ``None``.

    Examples
    --------
    >>> from crystal.tokenize import token_spans
    >>> token_spans("f (x) // x")
    [(0, 1), (2, 3), (3, 4), (4, 5)]
    """
    if not isinstance(text, str):
        raise TypeError(f"token_spans() needs a str, got {type(text).__name__}")
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
