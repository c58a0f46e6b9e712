"""Integer or true division: which quotient a C-family ``a / b`` is, by a small local typing.

The neutral vocabulary has two quotients, as Python (its model) spells them: ``//`` is
integer division, ``/`` true division. Python writes which one it means; JavaScript has no
integer type (its ``/`` is true division, ``Math.floor(a / b)`` its integer division: see
the call table). Java, C#, C and C++ write both as ``/``: the operands' types decide. This
module decides them by a typing small enough to explain:

- **declared types** of parameters and locals (``int``, ``long``, ``char`` ... integer;
  ``float``, ``double``, ``decimal`` floating; an array or a ``vector``/``List`` of them
  holds that element type; ``var``/``auto`` takes its initializer's type);
- **literals** (``2`` integer; ``2.0``, ``2f``, ``1e3`` floating);
- **casts** (``(double) a`` floating, ``(int) x`` integer);
- **sizes and positions** are integers (``.length``, ``.size()``, ``.Count``, ``strlen``,
  ``indexOf``), **mathematical functions** floating (``Math.sqrt``, ``pow``, ``floor``: in
  these languages they return a double);
- **arithmetic**: integer with integer is integer; anything with a floating operand is
  floating.

A quotient of two integers is integer division, one with a floating operand true division.
When a type is not known (a field, a call the rules do not know) the quotient keeps the
reading the map had before it knew types, integer division: a C-family ``/`` between
values of unknown type was always read as the integer quotient, so unknowns do not move.

The rules (:func:`declared`, :func:`literal`, :func:`member`, :func:`call`,
:func:`arithmetic`, :func:`quotient`) are shared by the PDG labels
(:func:`typed_divisions`, over tokens) and the tree tier (:mod:`graphs.neutral.trees`,
over AST nodes), so both tiers read a division the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphs.neutral.tokens import (
    is_local,
    is_word,
    matching,
    opening,
    render_tokens,
    split_label,
    top_level,
)

__all__ = [
    "TYPED_LANGUAGES",
    "Numeric",
    "arithmetic",
    "call",
    "compound_quotient",
    "declared",
    "element",
    "literal",
    "member",
    "quotient",
    "true_quotients",
    "typed_divisions",
]

#: Languages whose ``/`` is integer or true division by the operands' types.
TYPED_LANGUAGES = frozenset({"java", "csharp", "c", "cpp"})

INT = "int"
FLOAT = "float"

_INTEGRAL = frozenset({"int", "long", "short", "byte", "char", "integer", "character",
                       "size_t", "ssize_t", "uint", "ulong", "ushort", "sbyte", "int8_t",
                       "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                       "uint64_t", "biginteger", "atomicinteger"})
_FLOATING = frozenset({"float", "double", "decimal",})
#: words a numeric type may carry that say nothing about integer or floating
_QUALIFIERS = frozenset({"const", "static", "final", "unsigned", "signed", "std",
                         "volatile", "register", "readonly", "constexpr", "mutable"})
#: containers whose element is indexed like an array's (``v[i]``, ``list.get(i)``)
_CONTAINERS = frozenset({"vector", "list", "arraylist", "linkedlist", "array", "deque"})
#: types taken from the initializer
_IMPLICIT = frozenset({"var", "auto"})

#: members and functions whose value is an integer: sizes, positions, integer parsing
_INT_RESULTS = frozenset({"length", "size", "count", "strlen", "indexof", "lastindexof",
                          "compareto", "parseint", "parselong", "nextint", "nextlong",
                          "atoi", "atol", "charat", "intvalue", "longvalue", "toint32",
                          "toint64", "bitcount"})
#: functions whose value is floating in Java, C#, C and C++ (their floor and ceil too)
_FLOAT_RESULTS = frozenset({"sqrt", "pow", "exp", "log", "log10", "log2", "sin", "cos",
                            "tan", "asin", "acos", "atan", "atan2", "hypot", "cbrt", "floor",
                            "ceil", "random", "parsedouble", "parsefloat", "nextdouble",
                            "nextfloat", "atof", "doublevalue", "floatvalue", "todouble",
                            "fabs", "fmod", "nextgaussian"})
#: functions whose value has their arguments' type
_SAME_AS_ARGUMENTS = frozenset({"abs", "max", "min"})
#: functions that give an element of the container they are called on
_ELEMENT_OF = frozenset({"get", "at", "front", "back", "peek", "pop", "poll", "first",
                         "last", "elementat"})

_INT_LITERAL = re.compile(r"(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|\d[\d_]*)[lLuU]*\Z")
_FLOAT_LITERAL = re.compile(
    r"(?:(?:\d[\d_]*\.[\d_]*|\.\d[\d_]*)(?:[eE][-+]?\d+)?|\d[\d_]*[eE][-+]?\d+)[fFdDmM]?\Z"
    r"|\d[\d_]*[fFdDmM]\Z")


@dataclass(frozen=True)
class Numeric:
    """A value's numeric type, as far as the rules know it.

    Attributes
    ----------
    kind : ``"int"`` or ``"float"`` (of the value, or of an array's elements).
    dims : how many indexings reach a number (0: a number; 1: an array or vector of them).
    """

    kind: str
    dims: int = 0


# ------------------------------------------------------------------------------ the rules


def declared(words: Sequence[str], dims: int = 0) -> Numeric | None:
    """The type a declaration's type words give (``None``: not a known number type).

    >>> declared(["int"]), declared(["vector", "double"]), declared(["String"])
    (Numeric(kind='int', dims=0), Numeric(kind='float', dims=1), None)
    """
    numbers = set()
    for w in words:
        low = w.lower()
        if low in _CONTAINERS:
            dims += 1
        elif low in _FLOATING or low in _INTEGRAL:
            numbers.add(low in _FLOATING)
        elif low not in _QUALIFIERS:
            return None
    if not numbers:
        return None
    # `long double` is floating: `long` only qualifies it
    kind = FLOAT if True in numbers else INT
    return Numeric(kind, dims)


def literal(text: str) -> Numeric | None:
    """The type of a literal: ``2``, ``0x1F``, ``10L``, ``'a'`` integer; ``2.0``, ``2f``,
    ``1e3`` floating; anything else ``None``.

    >>> literal("2"), literal("1e3"), literal('"2"')
    (Numeric(kind='int', dims=0), Numeric(kind='float', dims=0), None)
    """
    if _INT_LITERAL.match(text):
        return Numeric(INT)
    if _FLOAT_LITERAL.match(text):
        return Numeric(FLOAT)
    if len(text) >= 3 and text[0] == "'" and text[-1] == "'":
        return Numeric(INT)  # a char is an integer in these languages
    return None


def element(of: Numeric | None) -> Numeric | None:
    """The type of an element of ``of`` (``xs[i]``)."""
    if of is None or of.dims == 0:
        return None
    return Numeric(of.kind, of.dims - 1)


def member(name: str) -> Numeric | None:
    """The type of a field read ``x.name`` (not called): a size is an integer."""
    return Numeric(INT) if name.lower() in ("length", "size", "count") else None


def call(name: str, receiver: Numeric | None, arguments: Sequence[Numeric | None]
         ) -> Numeric | None:
    """The type of a call of ``name`` (on ``receiver``, a method's object, when there is
    one) with arguments of the given types.

    >>> call("sqrt", None, [Numeric("int")]), call("max", None, [Numeric("int")] * 2)
    (Numeric(kind='float', dims=0), Numeric(kind='int', dims=0))
    """
    low = name.lower()
    if low in _INT_RESULTS:
        return Numeric(INT)
    if low in _FLOAT_RESULTS:
        return Numeric(FLOAT)
    if low in _SAME_AS_ARGUMENTS and arguments:
        return arithmetic(arguments)
    if low in _ELEMENT_OF:
        return element(receiver)
    return None


def arithmetic(operands: Sequence[Numeric | None]) -> Numeric | None:
    """The type of ``+ - * / %`` over operands: floating if one is, integer if all are."""
    numbers = [o for o in operands if o is not None and o.dims == 0]
    if any(o.kind == FLOAT for o in numbers):
        return Numeric(FLOAT)
    if len(numbers) == len(operands) and numbers:
        return Numeric(INT)
    return None


def quotient(left: Numeric | None, right: Numeric | None) -> str:
    """Which division ``left / right`` is: ``"true"`` (a floating operand), ``"integer"``
    (two integers) or ``"unknown"`` (read as integer division, see the module doc)."""
    kind = arithmetic([left, right])
    if kind is None:
        return "unknown"
    return "true" if kind.kind == FLOAT else "integer"


#: the neutral operator of each reading
OPERATOR = {"true": "/", "integer": "//", "unknown": "//"}

# ------------------------------------------------------------------- over label tokens

_PREFIX = frozenset({"-", "+", "~", "++", "--"})
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%"})
_MULTIPLICATIVE = frozenset({"*", "/", "%"})
_MEMBER = frozenset({".", "->", "?.", "::"})
_TYPE_PUNCTUATION = frozenset({"*", "&", "[", "]", "<", ">", ",", "::", "."})


def _type_words(toks: Sequence[str]) -> tuple[list[str], int] | None:
    """The words and array depth of a type written as tokens (``double``, ``int[]``,
    ``vector<int>``, ``unsigned long``); ``None`` when the tokens are no type."""
    words = [t for t in toks if is_word(t)]
    if not words or any(not (is_word(t) and not is_local(t)) and t not in _TYPE_PUNCTUATION
                        for t in toks):
        return None
    return words, toks.count("[") + toks.count("*")


def _cast(toks: Sequence[str], open_: int) -> tuple[Numeric | None, int] | None:
    """A cast ``(T)`` at ``open_`` followed by an operand: its type and the index after
    ``)``; ``None`` when the group is no cast."""
    close = matching(toks, open_)
    if close + 1 >= len(toks):
        return None
    nxt = toks[close + 1]
    if not (is_word(nxt) or nxt[:1].isdigit() or nxt in ("(", "-", "+", "~", "!")
            or nxt[:1] in "\"'"):
        return None
    typed = _type_words(toks[open_ + 1:close])
    if typed is None:
        return None
    words, dims = typed
    return declared(words, dims), close + 1


def expression_type(toks: Sequence[str], env: Mapping[str, Numeric | None]
                    ) -> Numeric | None:
    """The type of an expression written as tokens (arithmetic of unary operands)."""
    if not toks:
        return None
    parts: list[Sequence[str]] = []
    start = 0
    depth = 0
    for j, t in enumerate(toks):
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and t in _ARITHMETIC and j > start and _ends_operand(toks[j - 1]):
            parts.append(toks[start:j])
            start = j + 1
    parts.append(toks[start:])
    if len(parts) > 1:
        return arithmetic([expression_type(p, env) for p in parts])
    return _unary_type(toks, env)


def _ends_operand(t: str) -> bool:
    return is_word(t) or t[:1].isdigit() or t in (")", "]", "++", "--") or t[:1] in "\"'"


def _unary_type(toks: Sequence[str], env: Mapping[str, Numeric | None]) -> Numeric | None:
    k = 0
    while k < len(toks) and toks[k] in _PREFIX:
        k += 1
    toks = toks[k:]
    if not toks:
        return None
    if toks[0] == "(":
        cast = _cast(toks, 0)
        if cast is not None:
            return cast[0]
        close = matching(toks, 0)
        current = expression_type(toks[1:close], env)
        return _postfix(toks, close + 1, current, "", env)
    if len(toks) == 1 and not is_word(toks[0]):
        return literal(toks[0])
    if not is_word(toks[0]):
        return None
    return _postfix(toks, 1, env.get(toks[0]), toks[0], env)


def _postfix(toks: Sequence[str], k: int, current: Numeric | None, name: str,
             env: Mapping[str, Numeric | None]) -> Numeric | None:
    """The type after the postfix chain from ``k``: indexings, member reads, calls."""
    receiver: Numeric | None = None
    n = len(toks)
    while k < n:
        t = toks[k]
        if t == "(":
            close = matching(toks, k)
            inner = toks[k + 1:close]
            cuts = [-1, *top_level(inner, ","), len(inner)]
            args = [expression_type(inner[a + 1:b], env) for a, b in zip(cuts, cuts[1:],
                                                                          strict=False)
                    ] if inner else []
            current = call(name, receiver, args) if name else None
            name = ""
            k = close + 1
        elif t == "[":
            current = element(current)
            name = ""
            k = matching(toks, k) + 1
        elif t in _MEMBER and k + 1 < n and is_word(toks[k + 1]):
            receiver = current
            name = toks[k + 1]
            current = member(name)
            k += 2
        elif t in ("++", "--"):
            k += 1
        else:
            return None
    return current


def _left_start(toks: Sequence[str], end: int) -> int | None:
    """Where the left operand of a multiplicative operator after ``end`` starts: a chain
    of unary operands joined by ``* / %`` (they bind left to right)."""
    start = _unary_start(toks, end)
    while start is not None and start >= 2 and toks[start - 1] in _MULTIPLICATIVE:
        start = _unary_start(toks, start - 2)
    return start


def _unary_start(toks: Sequence[str], end: int) -> int | None:
    """Where the unary operand ending at ``end`` (inclusive) starts."""
    k = end
    while k >= 0:
        t = toks[k]
        if t in (")", "]"):
            o = opening(toks, k)
            before = toks[o - 1] if o > 0 else ""
            if is_word(before) and before not in _KEYWORDS_BEFORE_GROUP or \
                    before in (")", "]") and _cast_before(toks, o) is None:
                k = o - 1
                continue
            start = o
        elif is_word(t) or t[:1].isdigit() or t[:1] in "\"'":
            start = k
        else:
            return None
        if start >= 2 and toks[start - 1] in _MEMBER:
            k = start - 2
            continue
        break
    else:
        return None
    while True:
        cast = _cast_before(toks, start)
        if cast is not None:
            start = cast
            continue
        if start >= 1 and toks[start - 1] in ("-", "+", "~") and (
                start == 1 or not _ends_operand(toks[start - 2])):
            start -= 1
            continue
        return start


_KEYWORDS_BEFORE_GROUP = frozenset({"return", "if", "while", "for", "switch", "case",
                                    "throw", "new", "sizeof", "and", "or", "not", "in"})


def _cast_before(toks: Sequence[str], start: int) -> int | None:
    """The start of a cast group ``(T)`` that ends right before ``start``, if any."""
    if start < 1 or toks[start - 1] != ")":
        return None
    o = opening(toks, start - 1)
    if _type_words(toks[o + 1:start - 1]) is None:
        return None
    if o > 0 and (is_word(toks[o - 1]) and toks[o - 1] not in _KEYWORDS_BEFORE_GROUP
                  or toks[o - 1] in (")", "]")):
        return None  # a call's arguments, not a cast
    return o


def _right_end(toks: Sequence[str], start: int) -> int:
    """Where the unary operand starting at ``start`` ends (exclusive)."""
    n = len(toks)
    k = start
    while k < n and toks[k] in _PREFIX:
        k += 1
    while k < n and toks[k] == "(":
        cast = _cast(toks, k)
        if cast is None:
            break
        k = cast[1]
        while k < n and toks[k] in _PREFIX:
            k += 1
    if k >= n:
        return n
    k = matching(toks, k) + 1 if toks[k] == "(" else k + 1
    while k < n:
        t = toks[k]
        if t in ("(", "["):
            k = matching(toks, k) + 1
        elif t in _MEMBER and k + 1 < n and is_word(toks[k + 1]):
            k += 2
        elif t in ("++", "--"):
            k += 1
        else:
            break
    return min(k, n)


def declarations(label: str, kind: str) -> list[tuple[str, list[str], int, list[str]]]:
    """The names a PDG label declares with their type: ``(name, type words, array depth,
    initializer tokens)`` per declarator (``int v0``, ``double[] v1``, ``int v2 = 0, v3[4]``,
    ``for (int v1 : v0)``); empty when the label declares nothing typed."""
    toks = split_label(label)
    if kind == "foreach":
        if len(toks) > 2 and toks[1] == "(":
            toks = toks[2:matching(toks, 1)]
        colon = top_level(toks, frozenset({":", "in"}))
        toks = toks[:colon[0]] if colon else []
    elif kind not in ("param", "declaration"):
        return []
    start = next((i for i, t in enumerate(toks) if is_local(t)), None)
    if start is None:
        return []
    typed = _type_words([t for t in toks[:start] if t not in ("&", "&&")])
    if typed is None:
        return []
    words, dims = typed
    out = []
    rest = toks[start:]
    cuts = [-1, *top_level(rest, ","), len(rest)]
    for a, b in zip(cuts, cuts[1:], strict=False):
        part = [t for t in rest[a + 1:b] if t not in ("&", "&&")]
        extra = 0
        while part and part[0] == "*":
            part = part[1:]
            extra += 1
        if not part or not is_local(part[0]):
            continue
        eq = top_level(part, "=")
        head = part[:eq[0]] if eq else part
        init = part[eq[0] + 1:] if eq else []
        out.append((part[0], words, dims + extra + head.count("["), init))
    return out


def typed_divisions(labels: Mapping[int, str], kinds: Mapping[int, str], language: str
                    ) -> dict[int, tuple[str, tuple[str, ...]]]:
    """The PDG labels whose divisions the types decide, rewritten: an integer division's
    ``/`` (and ``/=``) is ``//`` (``//=``); a true division's stays.

    Parameters
    ----------
    labels : the PDG's labels by node (as :func:`graphs.build_pdg` makes them: types kept).
    kinds : the nodes' kinds.
    language : the language (nothing is done outside :data:`TYPED_LANGUAGES`).

    Returns
    -------
    dict : per node with a division, its new label and the rules applied
        (``division:integer``, ``division:true``, ``division:unknown``: read as integer).

    Examples
    --------
    >>> typed_divisions({0: "int v1", 1: "return v1 / 2.0 + 7 / v1"},
    ...                 {0: "param", 1: "return"}, "java")
    {1: ('return v1 / 2.0 + 7 // v1', ('division:true', 'division:integer'))}
    """
    if language not in TYPED_LANGUAGES:
        return {}
    env = _environment(labels, kinds)
    out: dict[int, tuple[str, tuple[str, ...]]] = {}
    for n in sorted(labels):
        label = labels[n]
        if "/" not in label:
            continue
        toks = _numbers(split_label(label))
        rules: list[str] = []
        for i, t in enumerate(toks):
            if t not in ("/", "/=") or i == 0:
                continue
            if t == "/":
                start = _left_start(toks, i - 1)
                left = expression_type(toks[start:i], env) if start is not None else None
            else:
                start = _left_start(toks, i - 1)
                left = env.get(toks[i - 1]) if start == i - 1 else expression_type(
                    toks[start:i], env) if start is not None else None
            right = expression_type(toks[i + 1:_right_end(toks, i + 1)], env)
            reading = quotient(left, right)
            rules.append(f"division:{reading}")
            if OPERATOR[reading] == "//":
                toks[i] = "//" if t == "/" else "//="
        if rules:
            out[n] = (render_tokens(toks), tuple(dict.fromkeys(rules)))
    return out


def _numbers(toks: list[str]) -> list[str]:
    """Label tokens with each number one token (the label splitter cuts ``2.0`` into
    ``2 . 0`` and ``1.5e-3`` into ``1 . 5e - 3``)."""
    out: list[str] = []
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t[:1].isdigit() and i + 2 < n and toks[i + 1] == "." and toks[i + 2][:1].isdigit():
            t = t + "." + toks[i + 2]
            i += 2
        elif t.isdigit() and i + 1 < n and toks[i + 1] == "." and (
                i + 2 == n or not is_word(toks[i + 2])):
            t = t + "."  # `1. / 3`: no member follows a number
            i += 1
        if t[:1].isdigit() and t[-1] in "eE" and i + 2 < n and toks[i + 1] in ("-", "+") \
                and toks[i + 2][:1].isdigit():
            t = t + toks[i + 1] + toks[i + 2]
            i += 2
        out.append(t)
        i += 1
    return out


def _environment(labels: Mapping[int, str], kinds: Mapping[int, str]
                 ) -> dict[str, Numeric | None]:
    """Each declared name's type; a name declared twice with different types (two
    functions' ``v0``) is unknown. ``var``/``auto`` takes its initializer's type."""
    env: dict[str, Numeric | None] = {}
    for n in sorted(labels):
        for name, words, dims, init in declarations(labels[n], kinds.get(n, "")):
            if any(w.lower() in _IMPLICIT for w in words):
                typed = expression_type(_numbers(init), env) if init else None
            else:
                typed = declared(words, dims)
            env[name] = typed if name not in env or env[name] == typed else None
    return env


# ------------------------------------------------------------------- neutral labels

_ONE = frozenset({"1.0", "1."})


def true_quotients(toks: list[str]) -> list[str]:
    """A true quotient needs no conversion to floating: ``float(a) / b`` and ``1.0 * a / b``
    are ``a / b`` in the neutral vocabulary, whose ``/`` is true division (the languages
    with integer types write the conversion to ask for it; Python and JavaScript do not).

    >>> true_quotients(["return", "float", "(", "a", ")", "/", "b"])
    ['return', 'a', '/', 'b']
    >>> true_quotients(["x", "=", "1.0", "*", "a", "/", "b"])
    ['x', '=', 'a', '/', 'b']
    """
    if "/" not in toks:
        return toks
    out: list[str] = []
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t == "float" and i + 1 < n and toks[i + 1] == "(" and \
                (not out or out[-1] not in _MEMBER):
            close = matching(toks, i + 1)
            inner = toks[i + 2:close]
            if inner and inner[0][:1] not in "\"'" and (
                    close + 1 < n and toks[close + 1] == "/" or out and out[-1] == "/"):
                out.extend(true_quotients(inner) if len(inner) > 1 else inner)
                i = close + 1
                continue
        if t in _ONE and i + 2 < n and toks[i + 1] == "*" and (
                not out or not _ends_operand(out[-1])):
            end = _right_end(toks, i + 2)
            if end < n and toks[end] == "/":
                i += 2
                continue
        out.append(t)
        i += 1
    return out


def compound_quotient(toks: list[str]) -> list[str]:
    """``x = x // y`` is ``x //= y`` when ``y`` is one operand: each language's PDG writes
    ``x = x / y`` as ``x /= y``, but an integer division the call table made
    (JavaScript's ``x = Math.floor(x / y)``, Python's ``x = int(x / y)``) comes after it.

    >>> compound_quotient(["v0", "=", "v0", "//", "v1"])
    ['v0', '//=', 'v1']
    >>> compound_quotient(["v0", "=", "v0", "//", "v1", "+", "1"])
    ['v0', '=', 'v0', '//', 'v1', '+', '1']
    """
    if len(toks) < 5 or toks[1] != "=" or toks[3] != "//" or toks[0] != toks[2] or \
            not is_word(toks[0]) or _right_end(toks, 4) != len(toks):
        return toks
    return [toks[0], "//=", *toks[4:]]
