"""Tokens of the I/O model (:mod:`graphs.neutral.io`): what a neutral label's tokens
read, print or assign. Pure functions on lists of strings."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphs.neutral import vocabulary
from graphs.neutral.tokens import (
    is_local,
    is_word,
    matching,
    opening,
    operand_end,
    render_tokens,
    split_label,
    top_level,
)

__all__ = [
    "IO_WORDS",
    "READS",
    "READ_WORDS",
    "assignment",
    "constructed",
    "conversion",
    "converted",
    "counter_step",
    "does_io",
    "find_sequence",
    "function_name",
    "indexes_only",
    "is_literal",
    "is_read",
    "is_sequence",
    "list_kind",
    "only_indexed",
    "read_spans",
    "scanf_reads",
    "split_at",
]

_IO = vocabulary.IO
#: the neutral tokens of each kind of read (``int``: ``read_int ( )``, ``line``: ``input ( )``)
READS = {kind: split_label(text) for kind, text in _IO["reads"].items()}
READ_WORDS = frozenset(toks[0] for toks in READS.values())
#: the words of the model's reads and prints
IO_WORDS = READ_WORDS | {"print", "write", "read_all", "token_again"}
_SCANF = re.compile(r"%(\*?)\d*(?:hh|h|ll|l|L|z|j|t)?([a-zA-Z\[])")
_WHITESPACE_SPLIT = frozenset({'" "', "/ \\ s + /", "/ \\ s /", "/ \\ s + / g"})


def function_name(toks: list[str]) -> str | None:
    """The name a function node's label ``def name`` gives, else ``None``.

    >>> function_name(["def", "next_int"]), function_name(["v0", "=", "1"])
    ('next_int', None)
    """
    return toks[1] if len(toks) > 1 and toks[0] == "def" and is_word(toks[1]) else None


def assignment(toks: Sequence[str]) -> tuple[str | None, list[str]]:
    """``name = rhs`` (or ``self.name = rhs``): the name and the right-hand side
    (``(None, [])`` for anything else).

    >>> assignment(["self", ".", "br", "=", "reader", "(", ")"])
    ('br', ['reader', '(', ')'])
    """
    eq = top_level(toks, "=")
    if len(eq) != 1 or eq[0] == len(toks) - 1:
        return None, []
    lhs = list(toks[:eq[0]])
    if lhs[:2] == ["self", "."]:
        lhs = lhs[2:]
    if len(lhs) != 1 or not is_word(lhs[0]):
        return None, []
    return lhs[0], list(toks[eq[0] + 1:])


def constructed(rhs: list[str]) -> bool:
    """Whether ``rhs`` is ``F(...)`` (a constructor call: the map has dropped ``new``),
    not a read or a known pure function of the vocabulary.

    >>> constructed(["scanner", "(", "system", ".", "in", ")"])
    True
    >>> constructed(["int", "(", "v0", ")"])
    False
    """
    return len(rhs) >= 3 and is_word(rhs[0]) and rhs[1] == "(" and matching(
        rhs, 1) == len(rhs) - 1 and rhs[0] not in vocabulary.PURE_CALLS \
        and rhs[0] not in IO_WORDS


def find_sequence(toks: Sequence[str], seq: Sequence[str]) -> int:
    """Where ``seq`` starts in ``toks`` (not as a member: ``x.system.in`` is no
    ``system.in``), or -1.

    >>> find_sequence(["scanner", "(", "system", ".", "in", ")"], ["system", ".", "in"])
    2
    """
    k = len(seq)
    for i in range(len(toks) - k + 1):
        if list(toks[i:i + k]) == list(seq) and (i == 0 or toks[i - 1] not in (".", "?.")):
            return i
    return -1


def is_sequence(toks: list[str], heads: list[list[str]], tail: list[str]) -> bool:
    """Whether ``toks`` is one of ``heads`` followed by ``tail``.

    >>> is_sequence(["sys", ".", "stdin", ".", "readline"], [["sys", ".", "stdin"]],
    ...             [".", "readline"])
    True
    """
    return any(toks == [*h, *tail] for h in heads)


def is_literal(toks: list[str]) -> bool:
    """Whether ``toks`` is one string literal, ``none`` or ``0`` (an initial value).

    >>> is_literal(['""']), is_literal(["input", "(", ")"])
    (True, False)
    """
    return len(toks) == 1 and (toks[0][:1] in "\"'" or toks[0] in ("none", "0"))


def is_read(toks: list[str]) -> bool:
    """Whether ``toks`` is one read of the model, or a line read converted to a number.

    >>> is_read(["read_int", "(", ")"]), is_read(["int", "(", "input", "(", ")", ")"])
    (True, True)
    """
    return any(toks == r for r in READS.values()) or (
        len(toks) > 3 and toks[1] == "(" and toks[-1] == ")"
        and toks[2:-1] == READS["line"] and toks[0] in ("int", "float"))


def conversion(word: str) -> str | None:
    """What a conversion named ``word`` makes of a token (``int``, ``float``,
    ``token``), or ``None``.

    >>> conversion("parse_int"), conversion("number"), conversion("len")
    ('int', 'float', None)
    """
    for kind, words in _IO["converters"].items():
        if word in words:
            return kind
    return None


def converted(toks: list[str], rules: list[str]) -> tuple[list[str], list[str]]:
    """``int(read_token())`` -> ``read_int()`` (``Integer.parseInt(st.nextToken())``,
    ``int(data[i])``); a token read made a string, stripped or trimmed stays a token.
    Returns the tokens and ``rules`` with one ``io:<kind> read`` per conversion.

    >>> converted(["v0", "=", "int", "(", "read_token", "(", ")", ")"], [])
    (['v0', '=', 'read_int', '(', ')'], ['io:int read'])
    """
    token = READS["token"]
    out = list(toks)
    i = 0
    while i < len(out):
        t = out[i]
        conv = conversion(t) if is_word(t) else None
        if conv and out[i + 1:i + 2] == ["("] and out[i + 2:i + 2 + len(token)] == token \
                and out[i + 2 + len(token):i + 3 + len(token)] == [")"] and not (
                i and out[i - 1] in (".", "?.")):
            out[i:i + 3 + len(token)] = READS[conv]
            rules = [*rules, f"io:{conv} read"]
            continue
        if out[i:i + len(token)] == token and out[i + len(token):i + len(token) + 4] in (
                [".", "strip", "(", ")"], [".", "trim", "(", ")"]):
            del out[i + len(token):i + len(token) + 4]
        i += 1
    return out, rules


def list_kind(rhs: list[str]) -> str | None:
    """What a list expression holds, read as a stream: ``int``/``float``/``token`` (the
    tokens of a line or of the input, converted by a ``map``), ``line`` (the input's
    lines), or ``None``.

    >>> from graphs.neutral.tokens import split_label
    >>> list_kind(split_label("input().split().map(int)"))
    'int'
    >>> list_kind(split_label("read_all().splitlines()")), list_kind(split_label("input()"))
    ('line', None)
    """
    toks = list(rhs)
    if toks[:2] == ["list", "("] and matching(toks, 1) == len(toks) - 1:
        toks = toks[2:-1]
    if toks[:5] == ["str", "(", "read_all", "(", ")"] and toks[5:6] == [")"]:
        toks = ["read_all", "(", ")", *toks[6:]]
    elem = "token"
    if toks[-1:] == [")"] and len(toks) > 5:
        start = opening(toks, len(toks) - 1)
        if start > 2 and toks[start - 2:start] == [".", "map"]:
            args = toks[start + 1:-1]
            words = [w for w in args if is_word(w)]
            conv = conversion(words[-1]) if words else None
            if conv is None and words:
                conv = next((c for w in words if (c := conversion(w))), None)
            if conv is None:
                return None
            elem = conv
            toks = toks[:start - 2]
    while toks[-4:] in ([".", "to_list", "(", ")"], [".", "to_array", "(", ")"]):
        toks = toks[:-4]
    if toks == READS["tokens"]:
        return elem
    if toks == READS["lines"]:
        return "line" if elem == "token" else None
    for base in (READS["line"], ["read_all", "(", ")"]):
        k = len(base)
        if toks[:k] != base:
            continue
        rest = toks[k:]
        while rest[:4] in ([".", "strip", "(", ")"], [".", "trim", "(", ")"]):
            rest = rest[4:]
        if rest[:3] == [".", "split", "("] and matching(rest, 2) == len(rest) - 1:
            arg = render_tokens(rest[3:-1]) if len(rest) > 4 else ""
            arg_toks = " ".join(rest[3:-1])
            if not arg or arg_toks in _WHITESPACE_SPLIT or arg == '" "':
                return elem
            if "\\n" in arg or "\\ n" in arg_toks:
                return "line" if base != READS["line"] and elem == "token" else None
        if rest == [".", "splitlines", "(", ")"] and base != READS["line"]:
            return "line" if elem == "token" else None
    return None


def only_indexed(toks: list[str], name: str) -> bool:
    """Whether every occurrence of ``name`` is read by index (``name[...]``, not written,
    not sliced).

    >>> only_indexed(["v1", "=", "v0", "[", "0", "]"], "v0")
    True
    >>> only_indexed(["v1", "=", "v0", "[", "1", ":", "]"], "v0")
    False
    """
    for k, t in enumerate(toks):
        if t != name or (k and toks[k - 1] in (".", "?.")):
            continue
        if toks[k + 1:k + 2] != ["["]:
            return False
        close = matching(toks, k + 1)
        if top_level(toks[k + 2:close], ":"):  # a slice is many tokens at once
            return False
        if close + 1 < len(toks) and toks[close + 1] in ("=", "+=", "-=", "++", "--"):
            return False
    return True


def counter_step(toks: list[str], c: str) -> bool:
    """Whether ``toks`` only sets or steps the counter ``c`` (``c = 0``, ``c += 1``,
    ``c++``, or past a list read at once: ``c += n``).

    >>> counter_step(["v1", "+=", "1"], "v1"), counter_step(["v1", "+=", "v2"], "v1")
    (True, True)
    >>> counter_step(["v1", "=", "v2"], "v1")
    False
    """
    return (len(toks) == 3 and toks[0] == c and toks[1] in ("=", "+=") and (
        toks[2].isdigit() or toks[1] == "+=" and is_local(toks[2]) and toks[2] != c)) \
        or toks in ([c, "++"], ["++", c])


def indexes_only(toks: list[str], c: str, name: str) -> bool:
    """Whether ``c`` occurs in ``toks`` only as the index of ``name`` (``name[c]``,
    ``name[c++]``, or where a comprehension starts reading: ``name[c + i]``).

    >>> indexes_only(["int", "(", "v0", "[", "v1", "]", ")"], "v1", "v0")
    True
    """
    for k, t in enumerate(toks):
        if t != c:
            continue
        if not (k >= 2 and toks[k - 2:k] == [name, "["] and (
                toks[k + 1:k + 2] == ["]"] or toks[k + 1:k + 3] == ["++", "]"] or (
                    toks[k + 1:k + 2] == ["+"] and is_local(toks[k + 2])
                    and toks[k + 3:k + 4] == ["]"]))):
            return False
    return True


def split_at(toks: list[str], sep: str) -> list[list[str]]:
    """``toks`` cut at each top-level ``sep`` into operands (``[]`` when a part is not one
    operand: ``a >> b`` at ``>>``, ``a, b`` at ``,``).

    >>> split_at(["v0", ">>", "v1", "[", "0", "]"], ">>")
    [['v0'], ['v1', '[', '0', ']']]
    """
    cuts = [-1, *top_level(toks, sep), len(toks)]
    parts = [toks[a + 1:b] for a, b in zip(cuts, cuts[1:], strict=False)]
    if any(not p or not operand_end(p, 0) or operand_end(p, 0)[-1] != len(p) for p in parts):
        return []
    return parts


def scanf_reads(args: list[str]) -> tuple[str, list[tuple[list[str], str]]] | None:
    """``scanf("%d %lf", &a, &b)``: one read per conversion, typed by it (the arguments
    ``args`` inside the call's parentheses); ``None`` when they do not pair up.

    >>> scanf_reads(['"%d %lf"', ",", "&", "v0", ",", "&", "v1"])
    ('io:scanf', [(['v0'], 'int'), (['v1'], 'float')])
    """
    commas = top_level(args, ",")
    if not commas or not args[0].startswith('"'):
        return None
    kinds = [_IO["scanf"].get(conv[-1]) for star, conv in _SCANF.findall(args[0])
             if not star and conv != "%"]
    targets = split_at([t for t in args[commas[0] + 1:]
                         if t != "&"], ",") if len(commas) else []
    if not targets or len(targets) != len(kinds) or None in kinds:
        return None
    return "io:scanf", [(t, k) for t, k in zip(targets, kinds, strict=True) if k]


def read_spans(toks: list[str]) -> list[tuple[int, int]]:
    """Where ``toks`` holds a read call (``read_int()``, ``input()``, ...), in order.

    >>> read_spans(["print", "(", "read_int", "(", ")", ")"])
    [(2, 5)]
    """
    spans = []
    for k, t in enumerate(toks):
        if t in READ_WORDS and toks[k + 1:k + 3] == ["(", ")"] and not (
                k and toks[k - 1] in (".", "?.")):
            spans.append((k, k + 3))
    return spans


def does_io(toks: list[str]) -> bool:
    """Whether ``toks`` calls a read or a print of the model.

    >>> does_io(["print", "(", "v0", ")"]), does_io(["v0", ".", "print", "(", ")"])
    (True, False)
    """
    return any(t in IO_WORDS and toks[k + 1:k + 2] == ["("] and not (
        k and toks[k - 1] in (".", "?.")) for k, t in enumerate(toks))
