"""Neutral labels: one PDG label of one language in the shared vocabulary.

:func:`neutral_label` rewrites the label of a PDG node (as :func:`graphs.build_pdg` makes
it: locals already ``v0``, ``v3fa``, whitespace canonical) in this order:

1. generic type arguments go (``List<String>`` -> ``List``);
2. literals in the neutral spelling (``'a'`` -> ``"a"``, ``1.0f`` -> ``1.0``);
3. identifiers folded to lower snake case (``hasCloseElements`` -> ``has_close_elements``);
4. keywords and operators mapped (``&&`` -> ``and``, ``null`` -> ``none``,
   :data:`~graphs.neutral.vocabulary.KEYWORDS`);
5. the statement's form by node kind: a function entry is ``def name(_, _)`` (no types);
   a parameter its name; a declaration its declarators without type (``int x = 0`` ->
   ``v = 0``; without an initializer it is no node, except C++ containers and strings,
   which hold their default value); ``if (c)`` is ``if c``; every foreach is
   ``for x in xs``;
6. Python's ``a if c else b`` is ``c ? a : b``;
7. the call table (:class:`~graphs.neutral.CallTable`);
8. casts ``(double) x`` are ``float(x)``, constructor calls lose ``new``;
9. a true quotient needs no conversion: ``float(a) / b`` and ``1.0 * a / b`` are ``a / b``
   (the neutral ``/`` is true division, ``//`` integer division); ``x = x // y`` is
   ``x //= y``, as each PDG writes ``x = x / y``.

Each label comes with what was used and which words the map did not know
(:class:`LabelMapping`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from graphs.neutral import vocabulary
from graphs.neutral.calls import CallTable, prepare_tokens
from graphs.neutral.division import compound_quotient, true_quotients
from graphs.neutral.tokens import (
    NOT_OPERANDS,
    is_local,
    is_word,
    matching,
    opening,
    opens_group,
    operand_end,
    render_tokens,
    split_label,
    top_level,
)

__all__ = ["LabelMapping", "neutral_label"]

# `List<String>`, `Map<K, List<V>>`: a `<` glued to a word opens type arguments (labels
# write a comparison with spaces around `<`)
_GENERIC = re.compile(r"(?<=[\w\]])<(?:[^<>()=;]|<(?:[^<>()=;]|<[^<>()=;]*>)*>)*>")
_TYPE_TOKENS = frozenset({"<", ">", "[", "]", "*", "&", "&&", ",", ".", "?", "(", ")"})
_HEADERS = frozenset({"if", "while", "switch", "do", "for"})
_FOREACH_SEPARATORS = frozenset({":", "in", "of"})
# what may precede the value of a Python conditional expression
_COND_LEFT = frozenset({"(", "[", "{", ",", "=", "return", ":", "yield", "lambda", "+=", "-=",
                        "*=", "/=", "%=", "and", "or", "not", "?"})
_COND_RIGHT = frozenset({",", "for", ":", ")", "]", "}"})
_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")


@dataclass(frozen=True)
class LabelMapping:
    """One label and its neutral form.

    Attributes
    ----------
    source : the label as the language's PDG has it.
    label : the neutral label; ``None`` when the node is no statement in the neutral
        graph (a declaration without initializer).
    rules : what was applied, in order: ``"keyword"``, ``"identifier"``, ``"literal"``,
        ``"generic"``, ``"signature"``, ``"declaration"``, ``"foreach"``, ``"header"``,
        ``"conditional"``, ``"cast"``, ``"true quotient"``, ``"call:<kind>"`` (a call table
        entry); :func:`graphs.neutral.neutral_pdg` adds ``"division:integer"``,
        ``"division:true"`` and ``"division:unknown"`` (read as integer) for the C family's
        ``/`` by type.
    unknown : names called that no table knows (library calls the map cannot translate;
        the program's own functions are told apart by :func:`graphs.neutral.neutral_pdg`),
        in order of appearance.
    """

    source: str
    label: str | None
    rules: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


def neutral_label(label: str, kind: str, language: str,
                  table: CallTable | None = None) -> LabelMapping:
    """The neutral form of one PDG label (see the module doc).

    Parameters
    ----------
    label : the node's ``label``.
    kind : the node's ``kind`` (``entry``, ``param``, ``declaration``, ``if``, ...).
    language : the canonical language name (``java``, ``csharp``, ``cpp``, ``c``,
        ``javascript``, ``python``).
    table : the call table (default :meth:`CallTable.default`).

    Examples
    --------
    >>> neutral_label("boolean hasCloseElements(List<Double>, double)", "entry", "java").label
    'def has_close_elements(_, _)'
    >>> neutral_label("int vffe = v0.size()", "declaration", "java").label
    'vffe = len(v0)'
    >>> neutral_label("if (!v1.isEmpty() && v0 != null)", "if", "java").label
    'if not len(v1) == 0 and v0 != none'
    """
    return _neutral_label(label, kind, language, table or CallTable.default())


@lru_cache(maxsize=16384)
def _neutral_label(label: str, kind: str, language: str, table: CallTable) -> LabelMapping:
    rules: list[str] = []
    text = label
    if "<" in text and language != "python":
        stripped = _GENERIC.sub("", text)
        if stripped != text:
            rules.append("generic")
            text = stripped
    raw = split_label(text)
    toks = prepare_tokens(raw, language)
    if toks != raw:
        rules.append("vocabulary")
    formed = _statement_form(toks, kind, language)
    if formed is None:
        return LabelMapping(label, None, (*rules, "declaration"), ())
    toks, form = formed
    if form:
        rules.append(form)
    if language == "python" and "if" in toks[1:]:
        converted = _python_conditionals(toks)
        if converted != toks:
            toks = converted
            rules.append("conditional")
    if language == "python" and "lambda" in toks:
        toks = _python_lambdas(toks)
        rules.append("lambda")
    toks, calls = table.rewrite(toks, language)
    rules.extend(f"call:{c}" for c in dict.fromkeys(calls))
    if toks[:1] == ["assert"]:
        toks = _assertion(toks)
    accessors = vocabulary.ACCESSORS.get(language)
    if accessors:
        props = _properties(toks, accessors)
        if props != toks:
            toks = props
            rules.append("accessor")
    types = vocabulary.TYPES.get(language, {})
    if language != "python":
        cast = _casts(toks, types)
        if cast != toks:
            toks = cast
            rules.append("cast")
    quotients = true_quotients(toks)
    if quotients != toks:
        toks = quotients
        rules.append("true quotient")
    if "//" in toks:
        folded = compound_quotient(toks)
        if folded != toks:
            toks = folded
            rules.append("compound quotient")
    tidy = _without_zero_offsets(toks)
    if tidy != toks:
        toks = tidy
        rules.append("arithmetic")
    bare = _without_redundant_parentheses(toks)
    if bare != toks:
        toks = bare
        rules.append("parentheses")
    dropped = vocabulary.DROPPED_AFTER_CALLS
    if dropped.intersection(toks):
        toks = [t for t in toks if t not in dropped]
    unknown = _unknown(toks, table, language)
    return LabelMapping(label, render_tokens(toks) if toks else "", tuple(rules), unknown)


# ------------------------------------------------------------------------ statement forms


def _statement_form(toks: list[str], kind: str, language: str
                    ) -> tuple[list[str], str] | None:
    if not toks:
        return toks, ""
    if kind == "entry":
        return _signature(toks)
    if kind == "function":
        name = [t for t in toks[1:] if is_word(t)]
        return ["def", *name[-1:]], "signature"
    if kind == "param":
        return _parameter(toks), "declaration"
    if kind == "foreach":
        return _foreach(toks), "foreach"
    if kind == "declaration" or (language == "python" and len(toks) > 2 and toks[1] == ":"):
        return _declaration(toks, language)
    if toks[0] in _HEADERS and len(toks) > 2 and toks[1] == "(" and matching(
            toks, 1) == len(toks) - 1:
        return [toks[0], *toks[2:-1]], "header"
    return toks, ""


def _signature(toks: list[str]) -> tuple[list[str], str]:
    opens = top_level(toks, "(")
    if not opens:
        return toks, ""
    start = opens[0]
    name = next((t for t in reversed(toks[:start]) if is_word(t)), "_")
    close = matching(toks, start)
    inner = toks[start + 1:close]
    count = len(top_level(inner, ",")) + 1 if inner else 0
    params: list[str] = []
    for i in range(count):
        params.extend([",", "_"] if i else ["_"])
    return ["def", name, "(", *params, ")"], "signature"


def _parameter(toks: list[str]) -> list[str]:
    local = next((i for i, t in enumerate(toks) if is_local(t)), None)
    if local is None:
        return toks
    eq = top_level(toks[local:], "=")
    default = toks[local + eq[0]:] if eq else []
    return [toks[local], *default]


def _foreach(toks: list[str]) -> list[str]:
    body = toks[1:]
    if body and body[0] == "(" and matching(body, 0) == len(body) - 1:
        body = body[1:-1]
    seps = top_level(body, _FOREACH_SEPARATORS)
    if not seps:
        return toks
    left, right = body[:seps[0]], body[seps[0] + 1:]
    names = [t for t in left if is_local(t) or t == ","]
    while names and names[-1] == ",":
        names.pop()
    return ["for", *(names or left), "in", *right]


def _declaration(toks: list[str], language: str) -> tuple[list[str], str] | None:
    # the type is everything before the first declared name
    start = None
    for i, t in enumerate(toks):
        if is_local(t) or (t in ("[", "{", "(") and i + 1 < len(toks) and is_local(toks[i + 1])):
            start = i
            break
        if not (is_word(t) or t in _TYPE_TOKENS):
            return toks, ""
    if start is None:
        return toks, ""
    type_words = [t for t in toks[:start] if is_word(t)]
    rest = toks[start:]
    if language == "python" and len(rest) > 1 and rest[1] == ":":
        eq = top_level(rest, "=")
        rest = [rest[0], *rest[eq[0]:]] if eq else [rest[0]]
    defaults = vocabulary.DEFAULT_VALUES.get(language, {})
    default = next((defaults[w] for w in reversed(type_words) if w in defaults), None)
    out: list[str] = []
    cuts = [-1, *top_level(rest, ","), len(rest)]
    for a, b in zip(cuts, cuts[1:], strict=False):
        part = rest[a + 1:b]
        part = [t for t in part if t not in ("*", "&")] if part[:1] in (["*"], ["&"]) else part
        if not part:
            continue
        if top_level(part, "="):
            item = part
        elif len(part) > 1 and part[1] in ("(", "{"):  # C++ `string s("x")`, `T v{...}`
            item = [part[0], "=", *part[1:]]
        elif default is not None:
            item = [part[0], "=", default]
        else:
            continue
        out.extend([",", *item] if out else item)
    if not out:
        return None
    return out, "declaration"


# --------------------------------------------------------------------------- expressions


def _assertion(toks: list[str]) -> list[str]:
    """``assert (c) : (m)`` -> ``assert c : m``: a statement keyword's condition and its
    message need no parentheses (as ``if c``)."""
    body = toks[1:]
    colons = top_level(body, ":")
    parts = [body[:colons[0]], body[colons[0] + 1:]] if len(colons) == 1 else [body]
    out = ["assert"]
    for k, part in enumerate(parts):
        if len(part) > 2 and part[0] == "(" and matching(part, 0) == len(part) - 1:
            part = part[1:-1]
        out.extend([":", *part] if k else part)
    return out


def _python_conditionals(toks: list[str]) -> list[str]:
    """``a if c else b`` -> ``c ? a : b``, innermost-left first, until none is left."""
    for _ in range(8):
        done = _one_conditional(toks)
        if done is None:
            return toks
        toks = done
    return toks


def _one_conditional(toks: list[str]) -> list[str] | None:
    n = len(toks)
    for p in range(1, n):
        if toks[p] != "if":
            continue
        # the value: back to the region's start or a delimiter at this depth
        a = p - 1
        while a >= 0:
            t = toks[a]
            if t in _CLOSE:
                a = opening(toks, a) - 1
                continue
            if t in _OPEN or t in _COND_LEFT:
                break
            a -= 1
        a += 1
        if a >= p:
            continue
        # the `else` at this depth, then the alternative up to a delimiter
        e = _forward(toks, p + 1, frozenset({"else"}))
        if e is None or toks[e] != "else":
            continue
        b = _forward(toks, e + 1, _COND_RIGHT)
        b = n if b is None else b
        if b <= e + 1:
            continue
        return [*toks[:a], *toks[p + 1:e], "?", *toks[a:p], ":", *toks[e + 1:b], *toks[b:]]
    return None


def _forward(toks: list[str], i: int, stop: frozenset[str]) -> int | None:
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if depth == 0 and t in stop:
            return j
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
            if depth < 0:
                return j
    return None


def _casts(toks: list[str], types: dict[str, str]) -> list[str]:
    """``(double) x`` -> ``float(x)``; a C++ functional cast ``double(x)`` -> ``float(x)``."""
    out: list[str] = []
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t == "(" and opens_group(out):
            close = matching(toks, i)
            inner = toks[i + 1:close]
            words = [w for w in inner if is_word(w)]
            if inner and words and all(is_word(w) or w in ("*", "&", "[", "]") for w in inner) \
                    and words[-1] in types and close + 1 < n:
                ends = operand_end(toks, close + 1, unary=True)
                if ends:
                    target = types[words[-1]]
                    operand = toks[close + 1:ends[-1]]
                    out.extend([target, "(", *operand, ")"] if target else operand)
                    i = ends[-1]
                    continue
        elif t in types and types[t] and t != types[t] and i + 1 < n and toks[i + 1] == "(" \
                and (not out or out[-1] not in (".", "?.")):
            out.append(types[t])
            i += 1
            continue
        out.append(t)
        i += 1
    return out


def _properties(toks: list[str], accessors: Mapping[str, str]) -> list[str]:
    """``x.get_foo()`` -> ``x.foo``; a statement ``x.set_foo(v)`` -> ``x.foo = v``."""
    getters = tuple(p + "_" for p, role in accessors.items() if role == "getter")
    setters = tuple(p + "_" for p, role in accessors.items() if role == "setter")
    n = len(toks)
    # a whole statement that calls a setter with one argument
    if n >= 4 and toks[-1] == ")" and setters:
        for i in range(n - 2):
            t = toks[i]
            if t.startswith(setters) and len(t) > 4 and toks[i + 1] == "(" and \
                    matching(toks, i + 1) == n - 1 and (i == 0 or toks[i - 1] == ".") and \
                    not top_level(toks[i + 2:-1], ","):
                head = toks[:i]
                ends = operand_end(toks, 0) if head else [0]
                if head and (not ends or ends[-1] < i - 1):
                    break
                return [*head, t[4:], "=", *toks[i + 2:-1]]
    out: list[str] = []
    i = 0
    while i < n:
        t = toks[i]
        if getters and t.startswith(getters) and len(t) > 4 and i + 2 < n and \
                toks[i + 1] == "(" and toks[i + 2] == ")" and (i == 0 or toks[i - 1] != "def"):
            out.append(t[4:])
            i += 3
            continue
        out.append(t)
        i += 1
    return out


def _python_lambdas(toks: list[str]) -> list[str]:
    """``lambda a, b: e`` -> ``(a, b) => e`` (JavaScript's, Java's and C#'s arrow)."""
    out = list(toks)
    for _ in range(8):
        if "lambda" not in out:
            break
        p = out.index("lambda")
        colon = _forward(out, p + 1, frozenset({":"}))
        if colon is None or out[colon] != ":":
            break
        params = out[p + 1:colon]
        head = params if len(params) == 1 else ["(", *params, ")"]
        out = [*out[:p], *head, "=>", *out[colon + 1:]]
    return out


def _without_zero_offsets(toks: list[str]) -> list[str]:
    """``[0 : 0 + n]`` -> ``[0 : n]``: a zero added first is no term (a call table form
    such as ``$0[$1:$1 + $2]`` leaves one when ``$1`` is 0)."""
    if "0" not in toks:
        return toks
    out: list[str] = []
    i = 0
    n = len(toks)
    while i < n:
        if toks[i] == "0" and i + 2 < n and toks[i + 1] == "+" and (
                not out or out[-1] in _DELIMITERS):
            i += 2
            continue
        out.append(toks[i])
        i += 1
    return out


# keywords written like a call: `catch (e)`, `switch (x)`, `function (x)`
_NOT_CALLS = frozenset({"catch", "function", "switch", "with", "except", "assert", "sizeof",
                        "while", "elif", "print"})
_DELIMITERS = frozenset({"(", "[", ",", ":", "=", "return"})


def _without_redundant_parentheses(toks: list[str]) -> list[str]:
    """``(f(x)) < y`` -> ``f(x) < y``: parentheses around one operand (not a call's, a
    cast's or a tuple's) go."""
    if "(" not in toks:
        return toks
    out: list[str] = []
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t == "(" and opens_group(out):
            close = matching(toks, i)
            inner = toks[i + 1:close]
            ends = operand_end(inner, 0)
            if inner and ends and ends[-1] == len(inner) and not (
                    close + 1 < n and (is_word(toks[close + 1]) or toks[close + 1] == "(")):
                out.extend(_without_redundant_parentheses(inner))
                i = close + 1
                continue
        out.append(t)
        i += 1
    return out


def _known_words(table: CallTable, language: str) -> frozenset[str]:
    return _KNOWN_CACHE(table, language)


@lru_cache(maxsize=64)
def _KNOWN_CACHE(table: CallTable, language: str) -> frozenset[str]:  # noqa: N802
    words = set(table.neutral_words)
    words.update(v for v in vocabulary.KEYWORDS.get(language, {}).values() if v)
    words.update(v for v in vocabulary.TYPES.get(language, {}).values() if v)
    words.update(("def", "range", "self", "len", "print"))
    return frozenset(words)


def _unknown(toks: Sequence[str], table: CallTable, language: str) -> tuple[str, ...]:
    known = _known_words(table, language)
    out = []
    n = len(toks)
    for i, t in enumerate(toks):
        if not is_word(t) or is_local(t) or t in known or t in NOT_OPERANDS \
                or t in _NOT_CALLS:
            continue
        if i + 1 < n and toks[i + 1] == "(":
            out.append(t)
    return tuple(out)
