"""chrF, the character n-gram F-score (Popović 2015), as sacrebleu computes it by default.

Whitespace is removed, character n-grams of orders 1..6 are counted on each side, and the
precision and recall of each order (clipped matches over the hypothesis's and the
reference's n-grams) are averaged over the orders *both* sides have; the score is the
F-beta of the two averages (beta = 2: recall weighs four times precision). This is
sacrebleu's ``CHRF()`` (``char_order=6, word_order=0, beta=2, eps_smoothing=False``), to
the last bits of a float, scaled to [0, 1] instead of [0, 100].

:func:`chrf_matrix` scores every pair of two lists of short strings at once, and
:func:`chrf_statistics` gives the two averages it is made of (what GRS needs for the labels
of two graphs): the n-grams of every distinct string are counted in one compiled pass, and
the pairs are matched by a compiled merge of sorted integer keys.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

__all__ = ["CHRF_ORDER", "PACKED_CHARS", "ChrfStatistics", "chrf_matrix", "chrf_statistics",
           "sentence_chrf"]

#: The highest character n-gram order (sacrebleu's default ``char_order``).
CHRF_ORDER = 6

# A character n-gram of order n <= 6 packs into one int64 key when every code point is below
# 2**10 (Latin, Greek, Cyrillic and all of ASCII): n in the top bits, 10 bits a character.
_CHAR_BITS = 10
_ORDER_SHIFT = 60
#: Strings whose code points are all below this are counted by the compiled path; a pair of
#: strings that both hold one at or above it is counted the plain way (same numbers, slower).
PACKED_CHARS = 1 << _CHAR_BITS


def sentence_chrf(hypothesis: str, reference: str, *, beta: float = 2.0) -> float:
    """chrF of one hypothesis against one reference, in [0, 1].

    Parameters
    ----------
    hypothesis, reference : str
        Any text; whitespace is ignored.
    beta : float, default 2.0
        Weight of recall against precision (sacrebleu's default 2).

    Returns
    -------
    float
        sacrebleu's ``CHRF(beta=beta).sentence_score(hypothesis, [reference]).score / 100``;
        0.0 when no order has n-grams on both sides.

    Examples
    --------
    >>> from crystal.chrf import sentence_chrf
    >>> sentence_chrf("return v0", "return  v0")
    1.0
    >>> round(sentence_chrf("v0 = 2", "v0 = 1"), 4)
    0.4792
    """
    return float(chrf_matrix([reference], [hypothesis], beta=beta)[0, 0])


def chrf_matrix(
    references: Sequence[str], hypotheses: Sequence[str], *, beta: float = 2.0
) -> np.ndarray:
    """chrF of every hypothesis against every reference.

    Parameters
    ----------
    references : sequence of str
        Row ``i`` of the result scores against ``references[i]``.
    hypotheses : sequence of str
        Column ``j`` scores ``hypotheses[j]``.
    beta : float, default 2.0
        Weight of recall against precision. With ``beta = 1`` the matrix of
        ``chrf_matrix(b, a)`` is the transpose of ``chrf_matrix(a, b)``.

    Returns
    -------
    numpy.ndarray of shape (len(references), len(hypotheses)), float64 in [0, 1]

    Examples
    --------
    >>> from crystal.chrf import chrf_matrix
    >>> chrf_matrix(["abc", "xyz"], ["abc"]).tolist()
    [[1.0], [0.0]]
    """
    if not beta > 0 or not np.isfinite(beta):
        raise ValueError(f"chrF beta must be a positive number, got {beta!r}")
    stats = chrf_statistics(references, hypotheses)
    return stats.f_score(beta)


@dataclass(frozen=True)
class ChrfStatistics:
    """The averaged character n-gram precision and recall of every hypothesis against
    every reference (what chrF is the F-score of).

    Attributes
    ----------
    precision : ``precision[i, j]``, the clipped matches of ``hypotheses[j]``'s n-grams
        over its n-gram count, averaged over the orders both sides have (0 when none).
    recall : ``recall[i, j]``, the same matches over ``references[i]``'s n-gram count.
    """

    precision: np.ndarray
    recall: np.ndarray

    def f_score(self, beta: float = 2.0) -> np.ndarray:
        """chrF at ``beta``: ``(1 + beta^2) P R / (beta^2 P + R)``, 0 where ``P + R = 0``
        (sacrebleu's arithmetic, step for step, so the same floats as its scores / 100)."""
        factor = float(beta) ** 2
        p, r = self.precision, self.recall
        with np.errstate(divide="ignore", invalid="ignore"):
            score = (1 + factor) * p * r
            score /= factor * p + r
        return np.where(p + r == 0.0, 0.0, score)


def chrf_statistics(references: Sequence[str], hypotheses: Sequence[str]) -> ChrfStatistics:
    """Averaged character n-gram precision and recall of every hypothesis against every
    reference (sacrebleu's chrF statistics: whitespace removed, orders 1..6, each order's
    clipped matches over each side's n-grams, averaged over the orders both sides have).

    Parameters
    ----------
    references : sequence of str
        Row ``i`` of each matrix is against ``references[i]``.
    hypotheses : sequence of str
        Column ``j`` is ``hypotheses[j]``.

    Returns
    -------
    ChrfStatistics with two float64 matrices of shape (len(references), len(hypotheses)).

    Examples
    --------
    >>> from crystal.chrf import chrf_statistics
    >>> stats = chrf_statistics(["ab"], ["abc"])
    >>> float(stats.recall[0, 0]), round(float(stats.precision[0, 0]), 4)  # (2/2 + 1/1) / 2
    (1.0, 0.5833)
    """
    refs = [str(t) for t in references]
    hyps = [str(t) for t in hypotheses]
    precision = np.zeros((len(refs), len(hyps)), dtype=np.float64)
    recall = np.zeros((len(refs), len(hyps)), dtype=np.float64)
    if not refs or not hyps:
        return ChrfStatistics(precision, recall)
    distinct = list(dict.fromkeys(refs + hyps))
    index = {text: i for i, text in enumerate(distinct)}
    keys, counts, ptr, lengths, wide = _profiles(distinct)
    rows = np.array([index[t] for t in refs], dtype=np.int64)
    cols = np.array([index[t] for t in hyps], dtype=np.int64)
    _chrf_pairs(keys, counts, ptr, lengths, rows, cols, CHRF_ORDER, precision, recall)
    if wide.any():
        # Two strings that both have characters beyond the packed range may share n-grams
        # holding them: such pairs are counted the plain way.
        for i, r in enumerate(refs):
            if wide[index[r]]:
                for j, h in enumerate(hyps):
                    if wide[index[h]]:
                        precision[i, j], recall[i, j] = _averages_counted(
                            _counters(h), _counters(r))
    return ChrfStatistics(precision, recall)


def _profiles(texts: list[str]) -> tuple[np.ndarray, ...]:
    """The character n-gram profiles of ``texts``, whitespace removed, in one compiled
    pass: sorted unique keys and their counts (text ``i``'s at ``ptr[i]:ptr[i + 1]``),
    each text's length in characters, and whether it has a character beyond the packed
    range. One call for all the labels of a pair: per string, the calls and arrays cost
    more than the counting."""
    stripped = ["".join(text.split()) for text in texts]  # sacrebleu's whitespace removal
    starts = np.zeros(len(stripped) + 1, dtype=np.int64)
    np.cumsum([len(text) for text in stripped], out=starts[1:])
    # one code unit per character: len() of a str counts code points, as UTF-32 does
    joined = "".join(stripped).encode("utf-32-le", "surrogatepass")
    codes = np.frombuffer(joined, dtype=np.uint32).astype(np.int64)
    keys, counts, ptr, wide = _profile_table(codes, starts, CHRF_ORDER)
    return keys, counts, ptr, np.diff(starts), wide


@numba.njit(cache=True, nogil=True)
def _profile_table(codes, starts, order):  # pragma: no cover - compiled
    """Per segment ``codes[starts[s]:starts[s + 1]]``: its sorted unique n-gram keys
    ``(n << 60) | packed characters`` (n = 1..order) and how often each occurs, all
    segments' concatenated (segment ``s`` at ``ptr[s]:ptr[s + 1]``); n-grams holding a
    character beyond the packed range are left out, and ``wide[s]`` says the segment has
    one."""
    m = starts.shape[0] - 1
    total = 0
    longest = 0
    for s in range(m):
        length = starts[s + 1] - starts[s]
        grams = 0
        for n in range(1, order + 1):
            if length >= n:
                grams += length - n + 1
        total += grams
        if grams > longest:
            longest = grams
    keys = np.empty(total, dtype=np.int64)
    counts = np.empty(total, dtype=np.int64)
    ptr = np.zeros(m + 1, dtype=np.int64)
    wide = np.zeros(m, dtype=np.bool_)
    scratch = np.empty(longest, dtype=np.int64)
    limit = np.int64(1) << _CHAR_BITS
    out = 0
    for s in range(m):
        lo = starts[s]
        length = starts[s + 1] - lo
        for i in range(lo, lo + length):
            if codes[i] >= limit:
                wide[s] = True
        k = 0
        for n in range(1, order + 1):
            for start in range(lo, lo + length - n + 1):
                key = np.int64(n) << _ORDER_SHIFT
                fits = True
                for j in range(n):
                    c = codes[start + j]
                    if c >= limit:
                        fits = False
                        break
                    key |= c << (_CHAR_BITS * (n - 1 - j))
                if fits:
                    scratch[k] = key
                    k += 1
        grams = scratch[:k]
        grams.sort()
        first = out
        for i in range(k):
            if out > first and keys[out - 1] == grams[i]:
                counts[out - 1] += 1
            else:
                keys[out] = grams[i]
                counts[out] = 1
                out += 1
        ptr[s + 1] = out
    return keys[:out].copy(), counts[:out].copy(), ptr, wide


@lru_cache(maxsize=256)
def _counters(text: str) -> list[Counter]:
    """Character n-gram counts per order of a text, whitespace removed (the unpacked path;
    remembered: the strings that need it recur across the pairs of a graph)."""
    text = "".join(text.split())
    return [
        Counter(text[i : i + n] for i in range(len(text) - n + 1))
        for n in range(1, CHRF_ORDER + 1)
    ]


def _averages_counted(hyp: list[Counter], ref: list[Counter]) -> tuple[float, float]:
    """Averaged precision and recall from per-order counters, sacrebleu's arithmetic."""
    avg_prec = avg_rec = 0.0
    effective = 0
    for h, r in zip(hyp, ref, strict=True):
        n_hyp, n_ref = sum(h.values()), sum(r.values())
        if n_hyp > 0 and n_ref > 0:
            match = sum((h & r).values())
            avg_prec += match / n_hyp
            avg_rec += match / n_ref
            effective += 1
    if effective == 0:
        return 0.0, 0.0
    return avg_prec / effective, avg_rec / effective


@numba.njit(cache=True, nogil=True)
def _chrf_pairs(keys, counts, ptr, lengths, rows, cols, order, precision,
                recall):  # pragma: no cover - compiled
    """``precision[a, b]``, ``recall[a, b]``: the averaged statistics of packed profile
    ``cols[b]`` (hypothesis) against ``rows[a]`` (reference), by merging their sorted keys;
    entries with a -1 index are left alone."""
    matches = np.zeros(order + 1, dtype=np.int64)
    for a in range(rows.shape[0]):
        r = rows[a]
        if r < 0:
            continue
        for b in range(cols.shape[0]):
            h = cols[b]
            if h < 0:
                continue
            for n in range(order + 1):
                matches[n] = 0
            i = ptr[r]
            j = ptr[h]
            i_end = ptr[r + 1]
            j_end = ptr[h + 1]
            while i < i_end and j < j_end:
                ki = keys[i]
                kj = keys[j]
                if ki == kj:
                    ci = counts[i]
                    cj = counts[j]
                    matches[ki >> _ORDER_SHIFT] += ci if ci < cj else cj
                    i += 1
                    j += 1
                elif ki < kj:
                    i += 1
                else:
                    j += 1
            avg_prec = 0.0
            avg_rec = 0.0
            effective = 0
            for n in range(1, order + 1):
                n_hyp = lengths[h] - n + 1
                n_ref = lengths[r] - n + 1
                if n_hyp > 0 and n_ref > 0:
                    avg_prec += matches[n] / n_hyp
                    avg_rec += matches[n] / n_ref
                    effective += 1
            if effective > 0:
                precision[a, b] = avg_prec / effective
                recall[a, b] = avg_rec / effective
