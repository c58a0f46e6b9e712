"""Clipped n-gram counts of orders up to 4, compiled with numba (private).

Why: in CPython, building, hashing and intersecting one tuple per n-gram costs ~100 ns, which
caps a pure-Python sentence BLEU at ~2x NLTK. Here tokens become small integer ids, and one
compiled call counts the n-grams of each order in a small hash table and the clipped matches
from it: a handful of Python steps per pair instead of hundreds. Counts are integers, so the
results are exactly those of the reference implementation in :mod:`crystal.counting` (which
the tests check on random and real data).

Encoding: ids 0..2 are reserved, real tokens get ids from 3 up. The hypothesis's distinct
n-grams of each order are numbered as they first occur, and an n-gram is known by its
(n-1)-gram prefix's number and its last token: the n-gram at position i gets the code
``(number(n-1-gram at i) + 1) << 32 | id(token i+n-1)`` (a unigram's code is its id), so a
code never depends on how many tokens there are: a pair of any size and any vocabulary is
counted here (ids below 2**32, numbers below 2**31). Only the hypothesis's n-grams enter
the tables; a reference's n-gram whose prefix the hypothesis lacks cannot match, so it is
dropped at once and its longer n-grams with it. The ignored n-grams are kept in a table of
their own prefixes, coded the same way from their slots, which each hypothesis position
follows one order at a time.

The id table is shared by all calls with the same ignore set, grows with the vocabulary
seen, and is reset to the ignore set's own tokens when it would pass :data:`LIMIT` entries; a
pair too big for it (more tokens than fit beside the ignore set's) gets ids of its own for
the call, as many as its distinct tokens: joined from its sides' own numberings
(:mod:`crystal.interning`; joining costs the distinct tokens) when each side is an
:class:`~crystal.interning.InternedTokens` whose numbers another use of the text built
(ruby-metric's STS), so a text is not numbered again; else from one pass over the tokens.
Shared ids are assigned under a lock, so concurrent calls are safe. Ids only ever need to be
consistent within one call, so neither resets nor own tables ever change a result.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from itertools import chain

import numba
import numpy as np

from crystal.interning import InternedTokens, joint_ids

#: Entries of the shared id table before it is reset (memory bound, not a size limit).
LIMIT = 1 << 15
FIRST_ID = 3
MAX_ORDER = 4
#: Tokens a call may have (hypothesis and references): n-gram numbers stay below 2**31.
MAX_TOKENS = 1 << 28
_NO_SPANS = np.zeros((0, 2), dtype=np.int64)


class _Vocab(dict):
    """Token -> id, assigning the next free id to unseen tokens."""

    __slots__ = ()

    def __missing__(self, token: object) -> int:
        self[token] = new = len(self) + FIRST_ID
        return new


class FastCounter:
    """Clipped n-gram statistics of orders 1..4 for one ignore set.

    Parameters
    ----------
    ignore : frozenset or None
        N-grams (tuples) to drop from the hypothesis counts. Elements that are not tuples of
        1..4 tokens can never equal an n-gram counted here and are skipped.
    """

    def __init__(self, ignore: frozenset | None) -> None:
        grams = [g for g in ignore or () if isinstance(g, tuple) and 1 <= len(g) <= MAX_ORDER]
        base = _Vocab()
        # one row per ignored n-gram: its tokens' ids, zero-padded to MAX_ORDER
        rows = np.zeros((len(grams), MAX_ORDER), dtype=np.int64)
        for row, gram in enumerate(grams):
            rows[row, : len(gram)] = [base[token] for token in gram]
        self._ignored = _trie(rows, np.array([len(g) for g in grams], dtype=np.int64))
        self._base = dict(base)
        self._vocab = _Vocab(self._base)
        self._lock = threading.Lock()

    def counts(
        self,
        references: Sequence[Sequence[object]],
        hypothesis: Sequence[object],
        max_n: int,
        *,
        exact: bool = False,
    ) -> tuple[list[int], list[int]] | None:
        """Clipped matches and hypothesis totals per order, or None if this path cannot help.

        Parameters
        ----------
        references : sequence of token sequences (at least one)
        hypothesis : token sequence
        max_n : int
            1..4.
        exact : bool
            The hypothesis equals one of the references: every n-gram it has is matched,
            so only the hypothesis is encoded (half the work for a pair that is an exact
            match, the commonest pair in model outputs).

        Returns
        -------
        (matches, totals) or None
            Lists of ``max_n`` ints: clipped matches (max over references) and the number of
            hypothesis n-grams not ignored. None only for a pair of :data:`MAX_TOKENS` tokens
            or more.

        Examples
        --------
        >>> FastCounter(frozenset({("(",)})).counts([["f", "(", "x"]], ["f", "(", "y"], 2)
        ([1, 1], [2, 2])
        """
        both = self.counts_with_plain(references, hypothesis, max_n, exact=exact, plain=False)
        return None if both is None else both[0]

    def counts_with_plain(
        self,
        references: Sequence[Sequence[object]],
        hypothesis: Sequence[object],
        max_n: int,
        *,
        exact: bool = False,
        plain: bool = True,
    ) -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]] | None] | None:
        """:meth:`counts`, and with ``plain`` also the counts with nothing ignored (BLEU's
        beside CrystalBLEU's), from one encoding of the pair; None as for :meth:`counts`.
        """
        lh = len(hypothesis)
        size = lh
        if not exact:
            for ref in references:
                size += len(ref)
        if size >= MAX_TOKENS:
            return None
        sides = (hypothesis,) if exact else (hypothesis, *references)
        if len(self._base) + size + FIRST_ID >= LIMIT:
            # more tokens than the shared table may hold: ids of this call's own (the ignore
            # set's keep theirs), as many as the pair has distinct tokens; from the sides'
            # numbers when an earlier use of each text built them (STS), which costs the
            # distinct tokens, else one pass over the tokens (as cheap as numbering them)
            if all(type(side) is InternedTokens and side.numbered for side in sides):
                ids = self._own_ids(sides)  # type: ignore[arg-type]
            else:
                ids = _encode(_Vocab(self._base).__getitem__, sides, size)
        else:
            with self._lock:
                if len(self._vocab) + size + FIRST_ID >= LIMIT:
                    self._vocab = _Vocab(self._base)
                ids = _encode(self._vocab.__getitem__, sides, size)
        spans = []
        pos = lh
        for ref in sides[1:]:
            spans.append((pos, pos + len(ref)))
            pos += len(ref)
        out = _clipped_counts(
            ids,
            lh,
            np.array(spans, dtype=np.int64) if spans else _NO_SPANS,
            self._ignored,
            max_n,
            exact,
        ).tolist()
        return (out[0], out[1]), ((out[2], out[3]) if plain else None)

    def _own_ids(self, sides: tuple[InternedTokens, ...]) -> np.ndarray:
        """The ids of ``sides``' tokens, one after the other, numbered for this call from
        the sides' own numbers: the ignore set's tokens keep theirs, every other token is
        numbered after them in the order first seen (as many ids as the pair has distinct
        tokens)."""
        numbers, joint = joint_ids(sides)
        base = self._base
        offset = len(base) + FIRST_ID
        table = np.arange(offset, offset + len(joint), dtype=np.int64)
        # whichever is smaller is walked: the pair's distinct tokens or the ignore set's
        if len(joint) <= len(base):
            for token, number in joint.items():
                kept = base.get(token)
                if kept is not None:
                    table[number] = kept
        else:
            for token, kept in base.items():
                number = joint.get(token)
                if number is not None:
                    table[number] = kept
        return table[numbers[0] if len(numbers) == 1 else np.concatenate(numbers)]


def _encode(
    get: Callable[[object], int], sides: tuple[Sequence[object], ...], size: int
) -> np.ndarray:
    """The ids of ``sides``' tokens, one after the other."""
    return np.fromiter(chain.from_iterable([map(get, side) for side in sides]), np.int64, size)


# Positions for which a table with room for all of them is allocated at once (see
# _clipped_counts).
_SMALL = 4096

# The low 32 bits of an int64 (a table's count in the current reference).
_LOW = (1 << 32) - 1

# Fibonacci hashing: the multiplication by 2**64 / golden ratio (wrapping in int64) mixes
# every bit of the code into the middle bits taken as the slot.
_GOLDEN = -7046029254386353131


@numba.njit(cache=True, nogil=True, inline="always")
def _slot(table: np.ndarray, code: int) -> int:  # pragma: no cover - compiled
    """Where ``code`` is in column 0 of ``table`` (open addressing, linear probing; the
    number of rows is a power of two), or the empty row (0) where it would go. A slot's
    other columns hold what is counted of its code, in the same cache line: on a big pair,
    where the table outgrows the caches, that is one memory access per n-gram, not three."""
    mask = len(table) - 1
    s = ((code * _GOLDEN) >> 32) & mask
    while table[s, 0] != 0 and table[s, 0] != code:
        s = (s + 1) & mask
    return s


@numba.njit(cache=True, nogil=True)
def _table_size(count: int) -> int:  # pragma: no cover - compiled
    """A power of two at least twice ``count``: the tables stay at most half full, so
    every probe sequence is short and ends."""
    size = 16
    while size < 2 * count:
        size *= 2
    return size


@numba.njit(cache=True, nogil=True, inline="always")
def _code(rank: np.ndarray, ids: np.ndarray, i: int, n: int) -> int:  # pragma: no cover
    """The code of the n-gram at ``i`` (see the module documentation); ``rank[i]`` holds the
    number (or slot) of the (n-1)-gram at ``i``, valid and not negative, when ``n > 1``."""
    if n == 1:
        return ids[i]
    return ((rank[i] + 1) << 32) | ids[i + n - 1]


@numba.njit(cache=True, nogil=True)
def _trie(rows: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The ignored n-grams (row ``g``: the ids of n-gram ``g``, ``lengths[g]`` of them) as a
    hash table of their prefixes, each coded as in :func:`_code` from its own prefix's slot
    (one table for every order: a slot is a node, so a code names its order too); column 1
    is 1 where an ignored n-gram ends."""
    table = np.zeros((_table_size(max(1, lengths.sum())), 2), dtype=np.int64)
    for g in range(len(lengths)):
        parent = -1
        for j in range(lengths[g]):
            code = rows[g, 0] if j == 0 else ((parent + 1) << 32) | rows[g, j]
            parent = _slot(table, code)
            table[parent, 0] = code
        table[parent, 1] = 1
    return table


@numba.njit(cache=True, nogil=True)
def _grown(table: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """``table`` rehashed into twice as many rows (its rows move, their content stays)."""
    grown = np.zeros((2 * len(table), table.shape[1]), dtype=np.int64)
    for s in range(len(table)):
        if table[s, 0] != 0:
            grown[_slot(grown, table[s, 0])] = table[s]
    return grown


@numba.njit(cache=True, nogil=True)
def _clipped_counts(
    ids: np.ndarray,
    lh: int,
    spans: np.ndarray,
    ignored: np.ndarray,
    max_n: int,
    exact: bool,
) -> np.ndarray:  # pragma: no cover - compiled
    """Rows: clipped matches and totals with the ignored n-grams dropped, then the same with
    nothing dropped; one column per order. The hypothesis is ``ids[:lh]``, reference ``r``
    is ``ids[spans[r, 0]:spans[r, 1]]``; ``ignored`` is the ignored n-grams' table from
    :func:`_trie`.

    Per order, the hypothesis n-grams are counted in a hash table (about twice as fast as
    sorting them and merging sorted runs) that grows with them, so it stays as small as
    their variety allows (a big pair's unigrams fit in a cache); each reference's n-grams
    found in it are counted beside them, and their maximum over references clips the
    matches. Each hypothesis position follows its n-grams down the ignored table too, one
    order at a time."""
    out = np.zeros((4, max_n), dtype=np.int64)
    # per position, the number of its n-gram of the current order, in order of first
    # occurrence in the hypothesis (-1: not in the hypothesis)
    rank = np.empty(len(ids), dtype=np.int64)
    # per hypothesis position, its n-gram's slot in the ignored table (-1: no ignored n-gram
    # starts with it)
    node = np.empty(lh, dtype=np.int64)
    touched = np.empty(lh, dtype=np.int64)  # the slots the current reference counted in
    distinct = 0  # the previous order's distinct n-grams
    for n in range(1, max_n + 1):
        # per slot: a distinct hypothesis code (0: empty), its number times 2 plus 1 if it
        # is ignored, its occurrences in the hypothesis, and its occurrences in any one
        # reference at most (high 32 bits) beside those in the current reference (low 32
        # bits, 0 between references; counts stay below MAX_TOKENS). Four columns: a row is
        # 32 bytes, so with numba's 32-byte aligned arrays a slot never straddles two cache
        # lines (five took two lines for half the slots: on a big pair, whose tables outgrow
        # the caches, a second memory access for them). Room for every position when that
        # is a small table (8,192 rows at most: 256 KB, in a core's cache), so a short pair
        # never regrows; else as many as the previous order's distinct n-grams, to grow.
        positions = max(0, lh - n + 1)
        table = np.zeros(
            (_table_size(min(positions, max(distinct, _SMALL))), 4), dtype=np.int64
        )
        distinct = 0
        for i in range(lh - n + 1):
            code = _code(rank, ids, i, n)
            s = _slot(table, code)
            if table[s, 0] == 0:
                if 2 * (distinct + 1) > len(table):
                    table = _grown(table)
                    s = _slot(table, code)
                table[s, 0] = code
                if n == 1 or node[i] >= 0:
                    t = _slot(ignored, _code(node, ids, i, n))
                    node[i] = t if ignored[t, 0] != 0 else -1
                table[s, 1] = 2 * distinct + (node[i] >= 0 and ignored[node[i], 1] == 1)
                distinct += 1
            elif n == 1 or node[i] >= 0:
                t = _slot(ignored, _code(node, ids, i, n))
                node[i] = t if ignored[t, 0] != 0 else -1
            table[s, 2] += 1
            rank[i] = table[s, 1] >> 1
        for r in range(spans.shape[0]):
            # only the slots this reference touched are folded and reset: many short
            # references against a long hypothesis would otherwise each scan the table
            nt = 0
            for i in range(spans[r, 0], spans[r, 1] - n + 1):
                if n > 1 and rank[i] < 0:
                    continue  # its prefix is not in the hypothesis: neither is it
                s = _slot(table, _code(rank, ids, i, n))
                if table[s, 0] == 0:
                    rank[i] = -1
                    continue
                rank[i] = table[s, 1] >> 1
                if table[s, 3] & _LOW == 0:
                    touched[nt] = s
                    nt += 1
                table[s, 3] += 1
            for t in range(nt):
                s = touched[t]
                both = table[s, 3]
                table[s, 3] = max(both >> 32, both & _LOW) << 32
        for s in range(len(table)):
            if table[s, 0] == 0:
                continue
            matched = table[s, 2] if exact else min(table[s, 2], table[s, 3] >> 32)
            out[2, n - 1] += matched
            out[3, n - 1] += table[s, 2]
            if table[s, 1] & 1 == 0:
                out[0, n - 1] += matched
                out[1, n - 1] += table[s, 2]
    return out
