"""Label text of PDG nodes: tokens joined with canonical spacing, variables renamed.

A label is built from the tree-sitter leaves of a statement (for compound statements, of
its header), so whitespace and line breaks in the source never matter: ``IsSimilar(`` and
``IsSimilar (`` give the same label. Spacing follows a fixed rule set, close to how people
write C-family code: ``if (v0 > 0)``, ``v1.add(v2)``, ``v0[v1 + 1]``, ``List<String> v0``,
``v0++``, ``!v1``. Variable occurrences stay symbolic until the names are known (locals are
renamed by order of first definition, which is only known once the whole function has been
read); :func:`render` substitutes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import add

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

__all__ = [
    "TokenBuffer",
    "label_costs",
    "label_size",
    "label_tokens",
    "local_name",
    "render",
]

# Tokens of a rendered label: strings and chars, words, then operators longest first.
LABEL_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|\w+|>>>=|<<=|>>=|\*\*=|//=|->|::|\?\.|'
    r'\+\+|--|[-+*/%&|^]=|<<|>>|==|!=|<=|>=|&&|\|\||//|\*\*|\S'
)

# A space is never put before these ...
_GLUE_BEFORE = frozenset({")", "]", ",", ";", ".", "::", "->", "?.", "?.["})
# ... nor after these.
_GLUE_AFTER = frozenset({"(", "[", ".", "::", "->", "?.", "!", "~", "@", "?.["})
# Operators that are prefix-unary when they are the first child of a unary node.
_PREFIX_OPS = frozenset({"++", "--", "-", "+", "*", "&", "!", "~", "^", "...", "**"})
_POSTFIX_OPS = frozenset({"++", "--", "!", "..."})
# Node types of unary operations across the grammars.
UNARY_TYPES = frozenset({"update_expression", "unary_expression", "prefix_unary_expression",
                         "postfix_unary_expression", "pointer_expression", "unary_operator",
                         "not_operator", "spread_element", "rest_pattern", "list_splat_pattern",
                         "dictionary_splat_pattern", "list_splat", "dictionary_splat",
                         "spread_parameter", "splat_pattern"})
# Nodes whose tokens are written without spaces (Python slices: v0[1:-1], v0[::-1]).
TIGHT_TYPES = frozenset({"slice"})
# Nodes whose ":" sticks to what precedes it (v0: str, {k: 1}, name: v0).
COLON_TYPES = frozenset({"typed_parameter", "typed_default_parameter", "pair", "pair_pattern",
                         "lambda", "name_colon", "keyword_pattern", "argument"})
# Glue hints of :meth:`TokenBuffer.punct`.
PREFIX, POSTFIX, TIGHT, STICKY = 1, 2, 3, 4
# Tokens dropped from the end of a label: statement terminators and Python's header colon.
_TRAILING = frozenset({";", ":"})


@dataclass(slots=True)
class TokenBuffer:
    """Tokens of one label with the separator ("" or " ") that precedes each.

    ``toks`` holds strings, or ints standing for variable occurrences (an index into the
    caller's reference list) that :func:`render` replaces by names.

    Examples
    --------
    >>> from graphs.flow.labels import TokenBuffer, render
    >>> buf = TokenBuffer()
    >>> for t in ("if", "("):
    ...     buf.punct(t)
    >>> buf.variable(0); buf.punct(">"); buf.word("0"); buf.punct(")")
    >>> render(buf.seps, buf.toks, lambda i: "v0")
    'if (v0 > 0)'
    """

    seps: list[str] = field(default_factory=list)
    toks: list[str | int] = field(default_factory=list)
    _glue_next: bool = True  # the first token has no separator
    _prev_wordlike: bool = False
    _prev_type: bool = False
    _prev_tok: str = ""
    # word/variable/punct run once per token of every label: they append to seps/toks
    # directly rather than through a shared helper, which costs a call per token.

    def word(self, text: str, in_type: bool = False) -> None:
        """Append an identifier, literal or other word-like token."""
        prev = self._prev_tok
        glue = self._glue_next or (in_type and self._prev_type and prev != "," and not (
            prev[-1:].isalnum() or prev[-1:] == "_"))
        self.seps.append("" if glue else " ")
        self.toks.append(text)
        self._glue_next = False
        self._prev_wordlike = True
        self._prev_type = in_type
        self._prev_tok = text

    def variable(self, ref: int) -> None:
        """Append a variable occurrence (resolved to a name by :func:`render`)."""
        self.seps.append("" if self._glue_next else " ")
        self.toks.append(ref)
        self._glue_next = False
        self._prev_wordlike = True
        self._prev_type = False
        self._prev_tok = "v"

    def punct(self, text: str, in_type: bool = False, hint: int = 0) -> None:
        """Append a keyword or punctuation token.

        ``hint`` is :data:`PREFIX` for the operator of a prefix unary node, :data:`POSTFIX`
        for an operator after the operand of a unary node (``i++``), :data:`TIGHT` for a
        token written without spaces around it, :data:`STICKY` for a token without a space
        before it, 0 otherwise.
        """
        if self._glue_next or text in _GLUE_BEFORE or (
                hint == POSTFIX and text in _POSTFIX_OPS) or hint in (TIGHT, STICKY):
            glue = True
        elif text in ("(", "["):
            glue = self._prev_wordlike or self._prev_tok in (")", "]")
        elif in_type and self._prev_type and self._prev_tok != ",":
            # inside a type: List<String>, int[], Map<K, V>
            glue = not (text[:1].isalnum() and self._prev_tok[-1:].isalnum())
        else:
            glue = False
        self.seps.append("" if glue else " ")
        self.toks.append(text)
        self._glue_next = text in _GLUE_AFTER or hint == TIGHT or (
            hint == PREFIX and text in _PREFIX_OPS)
        # keywords are not word-like ("if (" keeps its space); ")", "]" and types end operands
        self._prev_wordlike = in_type or text in (")", "]")
        self._prev_type = in_type
        self._prev_tok = text

    def strip_trailing(self) -> None:
        """Drop trailing ``;`` and ``:`` tokens."""
        while self.toks and isinstance(self.toks[-1], str) and self.toks[-1] in _TRAILING:
            self.toks.pop()
            self.seps.pop()


def render(seps: Sequence[str], toks: Sequence[str | int], name: Callable[[int], str]) -> str:
    """Join tokens into a label, asking ``name`` for each variable occurrence.

    Parameters
    ----------
    seps, toks : sequence
        As in :class:`TokenBuffer`.
    name : callable
        Maps a variable occurrence (int) to its label text.

    Returns
    -------
    str

    Examples
    --------
    >>> from graphs.flow.labels import render
    >>> render(["", " ", " "], [0, "=", "1"], lambda i: "v0")
    'v0 = 1'
    """
    # (runs per token of every label: the concatenations in C through map, an exact type
    # test; seps and toks always have the same length)
    return "".join(map(add, seps, [t if t.__class__ is str else name(t) for t in toks]))


#: The name a PDG gives a local declared by a statement: ``v`` + 3 hex digits of its
#: declaration's digest, ``_2``, ``_3``... past a name taken (graphs.pdg.naming.digest_name).
NAMED_LOCAL = r"v[0-9a-f]{3}(?:_\d+)?"
#: Any name a PDG gives a local (a regular expression): a named local, a parameter by
#: position (:func:`local_name`: ``v0``, ``v1``...), or a name bound by a lambda or a
#: comprehension by its place (``b0``, ``b1``...).
LOCAL_NAME = rf"{NAMED_LOCAL}|v\d+|b\d+"


def local_name(index: int) -> str:
    """Normalized name of the ``index``-th local variable (by first definition).

    Examples
    --------
    >>> from graphs.flow.labels import local_name
    >>> local_name(3)
    'v3'
    """
    return f"v{index}"


def label_tokens(label: str) -> list[str]:
    """The tokens of a rendered label (literals, words, operators, punctuation).

    Examples
    --------
    >>> from graphs.flow.labels import label_tokens
    >>> label_tokens('v0 += f("a b", v1[2])')
    ['v0', '+=', 'f', '(', '"a b"', ',', 'v1', '[', '2', ']', ')']
    """
    return LABEL_TOKEN.findall(label)


def label_size(label: str) -> int:
    """Number of tokens of a rendered label (as :func:`label_tokens` splits it), remembered
    for short labels.

    Examples
    --------
    >>> from graphs.flow.labels import label_size
    >>> label_size('v0 += f("a b", v1[2])')
    11
    """
    return len(_tokens_of(label))


#: Labels up to this long are remembered by :func:`_tokens_of` and
#: :func:`graphs.canon.rewrites.canonical_label` (4096 of each at most): a few MB at worst, while
#: a generated file's huge statements are not kept alive.
CACHED_LABEL_CHARS = 256


def _tokens_of(label: str) -> tuple[str, ...]:
    # label_tokens for label_costs, remembered: the two graphs of a pair share most labels
    # (and a corpus repeats "return v0" and the like), and the regex is most of the cost.
    if len(label) > CACHED_LABEL_CHARS:
        return tuple(LABEL_TOKEN.findall(label))
    return _cached_tokens(label)


@lru_cache(maxsize=4096)
def _cached_tokens(label: str) -> tuple[str, ...]:
    return tuple(LABEL_TOKEN.findall(label))


def label_costs(labels1: Sequence, labels2: Sequence) -> np.ndarray:
    """Graded substitution costs between PDG labels: normalized token edit distance.

    ``cost[i, j] = Levenshtein(tokens(labels1[i]), tokens(labels2[j])) / max(len, len)``,
    in [0, 1] and 0 for equal labels: changing one token of a five-token statement costs
    0.2, a wholly different statement 1. The ``node_subst_cost`` GRS gives
    :func:`graphs.ged.graph_edit_distance`.

    Parameters
    ----------
    labels1, labels2 : sequence of str
        Labels (anything else is compared by its ``str``).

    Returns
    -------
    numpy.ndarray of shape (len(labels1), len(labels2))

    Examples
    --------
    >>> from graphs.flow.labels import label_costs
    >>> label_costs(["v0 = 1", "return v0"], ["v0 = 2"]).tolist()
    [[0.3333333333333333], [1.0]]
    """
    toks1 = [_tokens_of(str(lab)) for lab in labels1]
    toks2 = [_tokens_of(str(lab)) for lab in labels2]
    return process.cdist(toks1, toks2, scorer=Levenshtein.normalized_distance,
                         dtype=np.float64)
