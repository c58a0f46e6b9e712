"""Tokens of neutral labels: splitting, identifier folding, literals, operand extents and
rendering. Pure functions on lists of strings."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from graphs.flow.labels import LOCAL_NAME, label_tokens

__all__ = [
    "fold_identifier",
    "is_local",
    "is_word",
    "label_weight",
    "matching",
    "opening",
    "opens_group",
    "neutral_literal",
    "operand_end",
    "render_tokens",
    "split_label",
    "top_level",
]

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
#: Names the PDG gives locals (graphs.flow.labels.LOCAL_NAME)
_LOCAL = re.compile(rf"(?:{LOCAL_NAME})\Z")
_NUMBER = re.compile(r"(\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?)[lLfFdDmMuU]*\Z")
# merged back after label_tokens: JavaScript's strict comparisons, arrows, spreads
_MERGE = {("==", "="): "===", ("!=", "="): "!==", ("=", ">"): "=>", (">>", ">"): ">>>"}
_OPEN = {"(": ")", "[": "]", "{": "}"}
#: Words that never start an operand (statement keywords and word operators).
NOT_OPERANDS = frozenset({
    "return", "if", "while", "for", "in", "and", "or", "not", "else", "case", "switch",
    "raise", "yield", "def", "lambda", "do", "of", "is", "throw", "delete", "typeof",
    "await", "goto", "break", "continue", "new", "instanceof", "assert"})
_CLOSE = frozenset(_OPEN.values())


@lru_cache(maxsize=8192)
def fold_identifier(name: str) -> str:
    """An identifier in lower snake case, whatever its style.

    >>> fold_identifier("hasCloseElements"), fold_identifier("has_close_elements")
    ('has_close_elements', 'has_close_elements')
    >>> fold_identifier("HTTPServer"), fold_identifier("MAX_VALUE"), fold_identifier("_")
    ('http_server', 'max_value', '_')
    """
    parts = [p for p in _CAMEL.sub("_", name).split("_") if p]
    return "_".join(p.lower() for p in parts) or name


def label_weight(label: str) -> int:
    """What a neutral label weighs: its tokens, a name counted by its words (at least 1).

    The neutral vocabulary reads every identifier as the words its style joins
    (``hasCloseElements`` = ``has_close_elements``: has, close, elements), so a name
    weighs as many words as it says; a keyword, an operator, a literal and a local's
    canonical name (``v0``, ``vd9d``) weigh one each.

    >>> label_weight("def has_close_elements(_, _)"), label_weight("return vd9d + 1")
    (9, 4)
    """
    return _label_weight(label)


@lru_cache(maxsize=16384)
def _label_weight(label: str) -> int:
    total = 0
    for t in label_tokens(label):
        if t[:1].isalpha() and t.isidentifier() and not is_local(t):
            total += max(1, sum(1 for part in t.split("_") if part))
        else:
            total += 1
    return max(1, total)


def is_word(token: str) -> bool:
    """Whether ``token`` is an identifier or keyword."""
    return token.isidentifier()


def is_local(token: str) -> bool:
    """Whether ``token`` is a name the PDG gave a local (``v0``, ``v3fa``, ``b0``)."""
    return _LOCAL.match(token) is not None


def neutral_literal(token: str) -> str:
    """A literal in the neutral spelling: strings and characters in double quotes, numbers
    without type suffixes (``1.0f`` -> ``1.0``, ``10L`` -> ``10``); anything else as is.

    >>> neutral_literal("'a'"), neutral_literal('"a"'), neutral_literal("10L")
    ('"a"', '"a"', '10')
    """
    first = token[:1]
    if first == "'" and len(token) >= 2 and token.endswith("'"):
        body = token[1:-1].replace("\\'", "'").replace('"', '\\"')
        return f'"{body}"'
    if first.isdigit() and not token.startswith(("0x", "0X", "0b", "0B")):
        m = _NUMBER.match(token)
        if m:
            return m.group(1).replace("_", "")
    return token


def split_label(label: str) -> list[str]:
    """The tokens of a rendered PDG label (:func:`graphs.flow.labels.label_tokens`), with
    ``===``, ``!==``, ``=>`` and ``...`` as one token each (a new list: callers may change
    it)."""
    return list(_split(label))


@lru_cache(maxsize=16384)
def _split(label: str) -> tuple[str, ...]:
    # remembered: the neutral map reads each label several times (rules, names, effects)
    toks = label_tokens(label)
    out: list[str] = []
    for t in toks:
        if out:
            merged = _MERGE.get((out[-1], t))
            if merged is not None:
                out[-1] = merged
                continue
            if t == "." and len(out) >= 2 and out[-1] == "." and out[-2] == ".":
                out[-2:] = ["..."]
                continue
        out.append(t)
    return tuple(out)


def matching(toks: Sequence[str], i: int) -> int:
    """Index of the bracket closing the one at ``i`` (``len(toks)`` when unclosed)."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(toks)


def opening(toks: Sequence[str], close: int) -> int:
    """Index of the bracket opening the one at ``close`` (0 when unopened): :func:`matching`
    backwards."""
    depth = 0
    for j in range(close, -1, -1):
        t = toks[j]
        if t in _CLOSE:
            depth += 1
        elif t in _OPEN:
            depth -= 1
            if depth == 0:
                return j
    return 0


def opens_group(before: Sequence[str]) -> bool:
    """Whether a ``(`` after the tokens ``before`` groups an operand rather than opening a
    call's arguments: nothing, a keyword or an operator before it, not a name or a
    closing bracket. A member named like a keyword is a name (``Optional.of(x)``,
    ``s.in(x)``: calls).

    >>> opens_group(["return"]), opens_group(["optional", ".", "of"]), opens_group(["f"])
    (True, False, False)
    """
    if not before:
        return True
    last = before[-1]
    if last in NOT_OPERANDS and len(before) > 1 and before[-2] in (".", "?."):
        return False
    return last in NOT_OPERANDS or not (is_word(last) or last in (")", "]"))


def operand_end(toks: Sequence[str], i: int, *, unary: bool = False) -> list[int]:
    """The ends (exclusive) of the postfix chains that start at ``i``, shortest first:
    a name, literal or bracketed group, then any ``.name``, call or index.

    ``[]`` when no operand starts at ``i``. With ``unary``, prefix ``-``, ``+``, ``not``,
    ``~`` may come first.

    >>> operand_end(["a", ".", "b", "(", ")", "+", "1"], 0)
    [1, 3, 5]
    """
    n = len(toks)
    j = i
    if unary:
        while j < n and toks[j] in ("-", "+", "not", "~", "!"):
            j += 1
    if j >= n:
        return []
    t = toks[j]
    if t in _OPEN:
        j = matching(toks, j) + 1
    elif (is_word(t) and t not in NOT_OPERANDS) or t[:1].isdigit() or t[:1] in "\"'`":
        j += 1
    else:
        return []
    ends = [min(j, n)]
    while j < n:
        t = toks[j]
        if t in (".", "?.") and j + 1 < n and is_word(toks[j + 1]):
            j += 2
        elif t in ("(", "["):
            j = matching(toks, j) + 1
        else:
            break
        ends.append(min(j, n))
    return ends


def top_level(toks: Sequence[str], wanted: str | frozenset[str] | set[str]) -> list[int]:
    """Positions of ``wanted`` outside any bracket."""
    want = {wanted} if isinstance(wanted, str) else wanted
    depth = 0
    out = []
    for j, t in enumerate(toks):
        if depth == 0 and t in want:
            out.append(j)
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
    return out


_NO_SPACE_BEFORE = frozenset({")", "]", "}", ",", ".", "?.", ";"})
_NO_SPACE_AFTER = frozenset({"(", "[", "{", ".", "?."})


def render_tokens(toks: Sequence[str]) -> str:
    """Tokens joined with one fixed spacing rule (neutral labels of both languages are
    rendered alike, so equal tokens give equal labels).

    >>> render_tokens(["if", "len", "(", "v0", ")", ">", "0"])
    'if len(v0) > 0'
    >>> render_tokens(["v0", ".", "in", "(", "v1", ")"])  # a member, not the keyword
    'v0.in(v1)'
    """
    out: list[str] = []
    prev = ""
    before = ""  # the token before prev
    for t in toks:
        unary = prev in ("-", "+") and (not before or before in _OPERAND_ENDS_NOT)
        if not out or t in _NO_SPACE_BEFORE or prev in _NO_SPACE_AFTER or unary or (
                t in ("(", "[") and (is_word(prev) or prev in (")", "]"))
                and (prev not in _SPACED_KEYWORDS or before in (".", "?."))):
            out.append(t)
        else:
            out.append(" " + t)
        before, prev = prev, t
    return "".join(out)


# after these a `-` or `+` is a sign, not an operator
_OPERAND_ENDS_NOT = frozenset({"(", "[", "{", ",", "=", ":", "?", "return", "and", "or", "not",
                               "<", ">", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%",
                               "+=", "-=", "*=", "/=", "//", "//=", "in", "=>", "if",
                               "while", "case"})


_SPACED_KEYWORDS = frozenset({"if", "while", "for", "return", "and", "or", "not", "in",
                              "switch", "case", "raise", "else"})
