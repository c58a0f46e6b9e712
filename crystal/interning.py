"""Token sequences numbered once: each distinct token as a small integer, kept with its text.

Why: on a big pair, turning every token into an integer is most of the Python-side work of
both counting n-grams (the compiled counter, :mod:`crystal._fast`) and a token edit distance
(ruby-metric's STS). Done per pair by each of them, a 2 MB pair paid for it twice. Numbered
once per text instead, with the numbers kept beside the tokens (an
:class:`InternedTokens`), every later use costs only what the pair's distinct tokens cost:
:func:`joint_ids` puts the sides in one numbering by looking up each side's *distinct*
tokens, not each token, and the integers of each position follow from one array index.

A text's own numbering is its tokens in the order first seen, from 0. Only equality is ever
read from the numbers, so any numbering consistent within a call gives the same counts and
distances as the tokens themselves.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from itertools import count
from typing import Any, overload

import numpy as np

__all__ = ["InternedTokens", "joint_ids"]


class _Numbering(dict):
    """Token -> number, the next number for a token not seen yet."""

    __slots__ = ()

    def __missing__(self, token: Hashable) -> int:
        self[token] = new = len(self)
        return new


class InternedTokens(Sequence):
    """A token sequence (read-only) that numbers its distinct tokens on first use.

    It is a token sequence wherever :mod:`crystal` takes one; the compiled counter reads
    its numbers instead of numbering the tokens again. The tokens must not change while it
    is in use (the numbers are built once). Building the numbers changes nothing it is:
    it stays equal to its tokens and pickles as them alone.

    Parameters
    ----------
    tokens : the tokens (any hashable values), kept as given.

    Examples
    --------
    >>> side = InternedTokens(["a", "=", "a", ";"])
    >>> len(side), side[2], list(side) == ["a", "=", "a", ";"]
    (4, 'a', True)
    >>> side.numbered
    False
    >>> side.ids.tolist(), side.vocabulary, side.numbered
    ([0, 1, 0, 2], {'a': 0, '=': 1, ';': 2}, True)
    """

    __slots__ = ("tokens", "_numbered")

    def __init__(self, tokens: Sequence[Hashable]) -> None:
        self.tokens = tokens
        self._numbered: tuple[np.ndarray, dict[Hashable, int]] | None = None

    @classmethod
    def of(cls, tokens: Sequence[Hashable]) -> InternedTokens:
        """``tokens`` itself when it is an :class:`InternedTokens`, else a new one over it.

        >>> side = InternedTokens(["x"])
        >>> InternedTokens.of(side) is side, InternedTokens.of(["x"]) == side
        (True, True)
        """
        return tokens if isinstance(tokens, cls) else cls(tokens)

    def __len__(self) -> int:
        return len(self.tokens)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self.tokens[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.tokens)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, InternedTokens):
            other = other.tokens
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        mine = self.tokens
        return (mine == other if type(mine) is type(other)
                else list(mine) == list(other))

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which is unhashable

    def __repr__(self) -> str:
        return f"InternedTokens({self.tokens!r})"

    def __reduce__(self) -> tuple[type[InternedTokens], tuple[Sequence[Hashable]]]:
        # the tokens only: the numbers follow from them, and are built again where needed
        return InternedTokens, (self.tokens,)

    def _numbers(self) -> tuple[np.ndarray, dict[Hashable, int]]:
        numbered = self._numbered
        if numbered is None:
            # one pass: a token seen before is a dict lookup at C speed, a new one is numbered
            numbering = _Numbering()
            ids = np.fromiter(map(numbering.__getitem__, self.tokens), np.int64,
                              len(self.tokens))
            # one assignment: a thread reading it meanwhile sees none or both (two threads
            # may both build it; the numbers are the same)
            numbered = self._numbered = (ids, dict(numbering))
        return numbered

    @property
    def numbered(self) -> bool:
        """Whether the numbers are built (by an earlier use of this sequence)."""
        return self._numbered is not None

    @property
    def ids(self) -> np.ndarray:
        """Each position's token as its number (``int64``, first seen first, from 0)."""
        return self._numbers()[0]

    @property
    def vocabulary(self) -> dict[Hashable, int]:
        """Each distinct token's number, in the order first seen (do not modify)."""
        return self._numbers()[1]


def joint_ids(sides: Sequence[InternedTokens]) -> tuple[list[np.ndarray], dict[Hashable, int]]:
    """The sides' tokens in one numbering: first seen over the sides in order, from 0.

    The first side keeps its own numbers; each other side's distinct tokens are looked up
    (and the new ones numbered), so joining costs the distinct tokens, and each position's
    number is one array index away.

    Parameters
    ----------
    sides : at least one :class:`InternedTokens`.

    Returns
    -------
    (ids, vocabulary) : per side its numbers (``int64`` arrays), and every distinct token's
        number in the joint numbering (``len(vocabulary)`` numbers, ``0..len - 1``).

    Examples
    --------
    >>> (a, b), vocabulary = joint_ids([InternedTokens(["x", "=", "y"]),
    ...                                 InternedTokens(["z", "=", "x"])])
    >>> a.tolist(), b.tolist(), vocabulary
    ([0, 1, 2], [3, 1, 0], {'x': 0, '=': 1, 'y': 2, 'z': 3})
    """
    first = sides[0]
    out = [first.ids]
    joint = first.vocabulary
    copied = False
    for side in sides[1:]:
        if side is first:
            out.append(first.ids)
            continue
        own = side.vocabulary
        new = [token for token in own if token not in joint]
        if new:
            if not copied:  # a side's vocabulary is its own: the joint one is a copy
                joint, copied = dict(joint), True
            joint.update(zip(new, count(len(joint))))
        table = np.fromiter(map(joint.__getitem__, own), np.int64, len(own))
        out.append(table[side.ids])
    return out, joint
