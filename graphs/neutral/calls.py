"""The library call table: common calls of each language and their neutral form.

A :class:`CallTable` is immutable. The default one (:meth:`CallTable.default`) holds the
rows of :data:`graphs.neutral.vocabulary.CALLS`; :meth:`CallTable.with_entries` gives a new
table with more rows (they take precedence over the existing ones on the same text), so a
project can teach the map its own library without touching anyone else's table::

    from graphs.neutral import CallEntry, CallTable

    table = CallTable.default().with_entries(
        CallEntry("log", "print($*)", {"java": ("LOG.info($*)",), "python": ("log($*)",)}))

Patterns
--------
A pattern is code in the language's own spelling, with ``$0``, ``$1``, ... for one operand
(a receiver, an argument) and ``$*`` for the rest of an argument list (possibly empty).
The neutral form uses the same placeholders: ``$0.size()`` -> ``len($0)``. Patterns are
matched on the tokens of a label after the same normalisation the label gets (identifiers
folded to lower snake case, literals in the neutral spelling, keywords mapped), so
``Console.WriteLine`` and ``console.write_line`` are one pattern. A placeholder that
starts a pattern is a postfix chain (``a.b[i].size()``: the receiver is ``a.b[i]``); one
inside is whatever stands between the literal tokens around it, brackets balanced; one that
ends a pattern is an operand (``$0 ** $1``). A placeholder used twice must bind equal
tokens (``sort($0.begin(), $0.end())``). Longer patterns are tried first.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from types import MappingProxyType
from typing import Any

from graphs.neutral import vocabulary
from graphs.neutral.tokens import (
    fold_identifier,
    is_word,
    neutral_literal,
    operand_end,
    split_label,
)

__all__ = ["CallEntry", "CallTable", "prepare_tokens"]

_PLACEHOLDER = re.compile(r"(\$\d+|\$\*)")
_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_LIT, _ARG = 0, 1
_DELIMS_LEFT = frozenset({"(", "[", ",", ":", "{"})
_DELIMS_RIGHT = frozenset({")", "]", ",", ":", "}"})
#: rewrites of one label: enough for calls nested four deep
_MAX_PASSES = 6


def prepare_tokens(toks: Iterable[str], language: str | None) -> list[str]:
    """Literals in the neutral spelling, identifiers folded, then the language's keywords
    mapped (:data:`~graphs.neutral.vocabulary.KEYWORDS`; ``None``: no keyword map). A C#
    verbatim identifier (``@readonly``, ``@object``: a Java name that is a C# keyword) is
    the identifier, never the keyword.

    >>> prepare_tokens(["@", "readonly", "=", "v0"], "csharp")
    ['readonly', '=', 'v0']
    """
    keywords = vocabulary.KEYWORDS.get(language, {}) if language else {}
    verbatim = language == "csharp"
    name = False
    out = []
    for t in toks:
        if verbatim and t == "@":
            name = True
            continue
        t = fold_identifier(t) if is_word(t) else neutral_literal(t)
        if not (name and is_word(t)):
            t = keywords.get(t, t)
        name = False
        if t:
            out.append(t)
    return out


def _pattern_items(text: str, language: str | None) -> tuple[tuple[int, str], ...]:
    items: list[tuple[int, str]] = []
    for part in _PLACEHOLDER.split(text):
        if not part:
            continue
        if _PLACEHOLDER.fullmatch(part):
            items.append((_ARG, part[1:]))
        else:
            items.extend((_LIT, t) for t in prepare_tokens(split_label(part), language))
    for a, b in zip(items, items[1:], strict=False):
        if a[0] == _ARG and b[0] == _ARG:
            raise ValueError(f"pattern {text!r}: two placeholders in a row")
    return tuple(items)


@dataclass(frozen=True)
class CallEntry:
    """One row of the call table.

    Attributes
    ----------
    kind : what the call does, shown in explanations (``"length"``, ``"print"``).
    neutral : the neutral form, with the patterns' placeholders (``"len($0)"``).
    patterns : language name -> patterns in that language (a tuple, or one string).
    """

    kind: str
    neutral: str
    patterns: Mapping[str, tuple[str, ...]]

    def __reduce__(self) -> tuple[type, tuple[str, str, dict[str, tuple[str, ...]]]]:
        # the read-only patterns view does not pickle; a scorer sent to workers carries rows
        return (CallEntry, (self.kind, self.neutral, dict(self.patterns)))

    def __post_init__(self) -> None:
        pats = {str(lang): (p,) if isinstance(p, str) else tuple(p)
                for lang, p in dict(self.patterns).items()}
        object.__setattr__(self, "patterns", MappingProxyType(pats))
        neutral_args = set(_PLACEHOLDER.findall(self.neutral))
        for lang, texts in pats.items():
            for text in texts:
                missing = neutral_args - set(_PLACEHOLDER.findall(text))
                if missing:
                    raise ValueError(f"call table {self.kind!r}, {lang} pattern {text!r}: "
                                     f"no {', '.join(sorted(missing))} for the neutral form")
                _pattern_items(text, lang)  # raises on a malformed pattern

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> CallEntry:
        """An entry from a row ``{"kind", "neutral", "patterns"}`` of
        :data:`~graphs.neutral.vocabulary.CALLS`."""
        return cls(row["kind"], row["neutral"], row["patterns"])

    def __hash__(self) -> int:
        return hash((self.kind, self.neutral, tuple(sorted(self.patterns.items()))))


@dataclass(frozen=True)
class _Compiled:
    kind: str
    items: tuple[tuple[int, str], ...]
    neutral: tuple[tuple[int, str], ...]
    key: str  # a literal token every match contains
    identity: bool  # the pattern is the neutral form: matched (known) but not rewritten
    leading: bool  # starts with a placeholder


class CallTable:
    """An immutable table of library calls and their neutral forms (see the module doc).

    Parameters
    ----------
    entries : the rows, most specific first on equal pattern length (later
        :meth:`with_entries` rows come before the defaults).

    Examples
    --------
    >>> table = CallTable.default()
    >>> table.rewrite(["v0", ".", "size", "(", ")", "+", "1"], "java")
    (['len', '(', 'v0', ')', '+', '1'], ('length',))
    """

    __slots__ = ("__dict__", "_entries", "_hash")

    def __init__(self, entries: Iterable[CallEntry | Mapping[str, Any]] = ()) -> None:
        self._entries = tuple(e if isinstance(e, CallEntry) else CallEntry.from_row(e)
                              for e in entries)
        self._hash = hash(self._entries)

    @classmethod
    def default(cls) -> CallTable:
        """The table of :data:`graphs.neutral.vocabulary.CALLS` (one shared instance)."""
        return _default_table()

    @property
    def entries(self) -> tuple[CallEntry, ...]:
        """The rows, in precedence order."""
        return self._entries

    def with_entries(self, *entries: CallEntry | Mapping[str, Any]) -> CallTable:
        """A new table with ``entries`` added before this table's rows (they win ties)."""
        return CallTable((*entries, *self._entries))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CallTable) and other._entries == self._entries

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"CallTable({len(self._entries)} entries)"

    @cached_property
    def digest(self) -> str:
        """A short, stable id of the table's rows (for signatures: a result scored with
        another table is another measurement).

        >>> len(CallTable.default().digest)
        10
        """
        text = json.dumps([[e.kind, e.neutral, sorted(e.patterns.items())]
                           for e in self._entries], sort_keys=True)
        return hashlib.sha1(text.encode()).hexdigest()[:10]

    def languages(self) -> tuple[str, ...]:
        """Languages with at least one pattern."""
        return tuple(sorted({lang for e in self._entries for lang in e.patterns}))

    @cached_property
    def _by_language(self) -> dict[str, tuple[_Compiled, ...]]:
        out: dict[str, list[_Compiled]] = {}
        for entry in self._entries:
            neutral = _pattern_items(entry.neutral, None)
            for lang, texts in entry.patterns.items():
                for text in texts:
                    items = _pattern_items(text, lang)
                    lits = [v for k, v in items if k == _LIT]
                    if not lits:
                        raise ValueError(f"pattern {text!r} has no literal token")
                    words = [v for v in lits if is_word(v)]
                    key = words[-1] if words else lits[0]
                    out.setdefault(lang, []).append(_Compiled(
                        entry.kind, items, neutral, key, items == neutral,
                        items[0][0] == _ARG))
        # longest patterns first (stable: table order on ties)
        return {lang: tuple(sorted(c, key=lambda p: -sum(k == _LIT for k, _ in p.items)))
                for lang, c in out.items()}

    @cached_property
    def _index(self) -> dict[str, dict[str, tuple[int, ...]]]:
        # per language: key token -> positions of the patterns that need it
        index: dict[str, dict[str, list[int]]] = {}
        for lang, patterns in self._by_language.items():
            keys = index.setdefault(lang, {})
            for i, pat in enumerate(patterns):
                keys.setdefault(pat.key, []).append(i)
        return {lang: {k: tuple(v) for k, v in keys.items()} for lang, keys in index.items()}

    @cached_property
    def neutral_words(self) -> frozenset[str]:
        """Every word of the neutral forms (what the map knows)."""
        return frozenset(v for e in self._entries
                         for k, v in _pattern_items(e.neutral, None) if k == _LIT and is_word(v))

    def rewrite(self, toks: Sequence[str], language: str) -> tuple[list[str], tuple[str, ...]]:
        """Rewrite the known calls of ``toks`` (prepared tokens of a label, see
        :func:`prepare_tokens`) into their neutral forms.

        Returns
        -------
        (tokens, kinds) : the rewritten tokens and the kinds of the entries used, in order
            (an entry whose pattern is already the neutral form counts as used).
        """
        compiled = self._by_language.get(language, ())
        keys = self._index.get(language, {})
        out = list(toks)
        used: list[str] = []
        seen_identity: set[int] = set()
        for _ in range(_MAX_PASSES):
            changed = False
            wanted = sorted({i for t in set(out) for i in keys.get(t, ())})
            present = set(out)
            for index in wanted:
                pat = compiled[index]
                if pat.key not in present:
                    continue
                new, hits = _apply(pat, out)
                if not hits:
                    continue
                if pat.identity:
                    if index not in seen_identity:
                        seen_identity.add(index)
                        used.extend([pat.kind] * hits)
                    continue
                used.extend([pat.kind] * hits)
                out = new
                present = set(out)
                changed = True
            if not changed:
                break
        return out, tuple(used)


@cache
def _default_table() -> CallTable:
    # a constant, built once
    return CallTable(vocabulary.CALLS)


def _apply(pat: _Compiled, toks: list[str]) -> tuple[list[str], int]:
    """Every non-overlapping match of ``pat`` in ``toks``, left to right, replaced."""
    out: list[str] = []
    i = 0
    n = len(toks)
    hits = 0
    first = pat.items[0]
    while i < n:
        prev = toks[i - 1] if i else ""
        if prev not in (".", "?.") and (
                pat.leading or toks[i] == first[1]):
            binds: dict[str, list[str]] = {}
            end = _match(pat.items, toks, i, 0, binds)
            if end is not None and end > i:
                out.extend(_substitute(pat.neutral, binds))
                hits += 1
                i = end
                continue
        out.append(toks[i])
        i += 1
    return (out if hits else toks), hits


def _match(items: tuple[tuple[int, str], ...], toks: list[str], i: int, pi: int,
           binds: dict[str, list[str]]) -> int | None:
    n = len(toks)
    while pi < len(items):
        kind, val = items[pi]
        if kind == _LIT:
            if i < n and toks[i] == val:
                i += 1
                pi += 1
                continue
            return None
        bound = binds.get(val)
        if bound is not None:  # a placeholder seen before: the same tokens again
            k = len(bound)
            if toks[i:i + k] == bound:
                i += k
                pi += 1
                continue
            return None
        last = pi + 1 == len(items)
        if pi == 0 or (last and val != "*"):
            for end in reversed(operand_end(toks, i, unary=pi > 0)):
                binds[val] = toks[i:end]
                r = _match(items, toks, end, pi + 1, binds)
                if r is not None:
                    return r
            binds.pop(val, None)
            return None
        if last:  # $* at the end: the rest of the enclosing region
            depth = 0
            j = i
            while j < n:
                t = toks[j]
                if t in _OPEN:
                    depth += 1
                elif t in _CLOSE:
                    depth -= 1
                    if depth < 0:
                        break
                elif depth == 0 and t == ",":
                    break
                j += 1
            binds[val] = toks[i:j]
            return j
        lit = items[pi + 1][1]
        depth = 0
        j = i
        while j < n:
            t = toks[j]
            if depth == 0 and t == lit and (j > i or val == "*"):
                binds[val] = toks[i:j]
                r = _match(items, toks, j, pi + 1, binds)
                if r is not None:
                    return r
            if t in _OPEN:
                depth += 1
            elif t in _CLOSE:
                depth -= 1
                if depth < 0:
                    break
            j += 1
        binds.pop(val, None)
        return None
    return i


def _simple(toks: list[str]) -> bool:
    if len(toks) <= 1:
        return True
    ends = operand_end(toks, 0)
    return bool(ends) and ends[-1] == len(toks)


def _substitute(template: tuple[tuple[int, str], ...], binds: dict[str, list[str]]
                ) -> list[str]:
    out: list[str] = []
    for k, (kind, val) in enumerate(template):
        if kind == _LIT:
            out.append(val)
            continue
        got = binds.get(val, [])
        left = template[k - 1][1] if k else ""
        right = template[k + 1][1] if k + 1 < len(template) else ""
        if not _simple(got) and not (left in _DELIMS_LEFT and right in _DELIMS_RIGHT):
            out.extend(["(", *got, ")"])
        else:
            out.extend(got)
    return out
