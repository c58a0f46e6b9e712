"""Counting: one hypothesis against its references, into BLEU's :class:`~crystal.SegmentStats`.

Counting has two exact implementations: a compiled one for orders up to 4
(:mod:`crystal._fast`, about 7x NLTK's speed on CodeXGLUE methods, for pairs and ignore sets
of any size and vocabulary), and a pure-Python one, the reference, which also serves
real-valued n-gram weights (the log-weight variant) and orders above 4.

The ignore set is encoded once per distinct set and cached (16 sets at most): pass a
``frozenset`` or an :class:`~crystal.NgramSet`; other containers (set, dict, list) are
copied into a frozenset on every call, which costs a few microseconds for k = 500.
"""

from __future__ import annotations

import logging
import math
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from crystal._fast import MAX_ORDER, FastCounter
from crystal.interning import InternedTokens
from crystal.ngrams import clip_counts, ngrams
from crystal.stats import SegmentStats

__all__ = [
    "segment_stats",
    "segment_stats_with_plain",
    "closest_ref_length",
]
# Also public, for crystal.compat and crystal.crystalbleu rather than users: as_tokens,
# ignore_set, match_counts, python_match_counts, prepare_segment.

# Named after the module this code came from, not __name__: users filter and tune this
# logger (the "no tuples in the ignore set" warning) by the name it has always had.
logger = logging.getLogger("crystal.bleu")

Tokens = Sequence[Any]


def closest_ref_length(references: Iterable[Tokens], hyp_len: int) -> int:
    """Length of the reference closest in length to the hypothesis (ties: the shortest).

    Parameters
    ----------
    references : iterable of token sequences (at least one)
    hyp_len : int

    Returns
    -------
    int

    Examples
    --------
    >>> from crystal.counting import closest_ref_length
    >>> closest_ref_length([["a"] * 13, ["a"] * 11], 12)
    11
    """
    lengths = [len(ref) for ref in references]
    if len(lengths) == 1:
        return lengths[0]
    if not lengths:
        raise ValueError("a hypothesis needs at least one reference")
    return min(lengths, key=lambda r: (abs(r - hyp_len), r))


# Fast counters, one per ignore set. Looked up without a lock (a dict read is atomic);
# created and evicted (oldest first) under it.
_COUNTERS: dict[frozenset | None, FastCounter] = {}
_COUNTERS_LOCK = threading.Lock()
_MAX_COUNTERS = 16


def _new_counter(ignore: frozenset | None) -> FastCounter:
    counter = FastCounter(ignore)
    if ignore and not any(isinstance(g, tuple) for g in ignore):
        logger.warning(
            "the ignore set has %d entries but no tuples: nothing will be ignored "
            "(n-grams are tuples of tokens, e.g. ('(', ')'))",
            len(ignore),
        )
    with _COUNTERS_LOCK:
        counter = _COUNTERS.setdefault(ignore, counter)
        while len(_COUNTERS) > _MAX_COUNTERS:
            del _COUNTERS[next(iter(_COUNTERS))]
    return counter


#: The last few ``ignoring=`` collections given as a dict, set or list, by identity, each
#: with a snapshot of its content and its frozenset: crystalbleu's own usage passes the same
#: dict on every call, and converting 500 n-grams per call would cost a quarter of the time.
#: A hit needs the very same object *and* content equal to the snapshot (a comparison that
#: reuses the stored hashes, several times cheaper than a conversion), so a collection mutated
#: between calls is converted afresh, never served stale. Holding the object keeps its id
#: from being reused while it is cached.
_IGNORE_CACHE: dict[int, tuple[object, object, frozenset | None]] = {}
_MAX_IGNORE_CACHE = 8


def ignore_set(ignoring: object) -> frozenset | None:
    """Normalize ``ignoring=`` to a frozenset (None when it ignores nothing)."""
    if ignoring is None:
        return None
    kind = type(ignoring)
    if kind is frozenset:
        return ignoring or None  # type: ignore[return-value]
    if kind is dict or kind is set or kind is list:
        cached = _IGNORE_CACHE.get(id(ignoring))
        # a dict's keys in order (its values are not n-grams); a set or list as it is
        content = list(ignoring) if kind is dict else ignoring
        if cached is not None and cached[0] is ignoring and cached[1] == content:
            return cached[2]
        result = _convert_ignore(ignoring)
        snapshot = content if kind is dict else ignoring.copy()  # type: ignore[attr-defined]
        with _COUNTERS_LOCK:
            _IGNORE_CACHE.pop(id(ignoring), None)
            _IGNORE_CACHE[id(ignoring)] = (ignoring, snapshot, result)
            while len(_IGNORE_CACHE) > _MAX_IGNORE_CACHE:
                del _IGNORE_CACHE[next(iter(_IGNORE_CACHE))]
        return result
    grams = getattr(ignoring, "ngrams", None)  # NgramSet
    if type(grams) is frozenset:
        return grams or None
    return _convert_ignore(ignoring)


def _convert_ignore(ignoring: object) -> frozenset | None:
    """``ignoring=`` as a frozenset of its hashable members (None when empty)."""
    if isinstance(ignoring, (str, bytes)):
        raise TypeError("ignoring= must be a collection of n-gram tuples, not a string")
    if isinstance(ignoring, Mapping) and type(ignoring) is not dict:
        # dict(...) copies entries with their stored hashes, so frozenset() need not rehash
        # every tuple (it does for dict subclasses such as Counter).
        ignoring = dict(ignoring)
    try:
        result = frozenset(ignoring)  # type: ignore[arg-type]
    except TypeError:
        # Unhashable members (lists) can never equal a tuple n-gram, as in crystalbleu.
        result = frozenset(g for g in ignoring if _hashable(g))  # type: ignore[attr-defined]
    return result or None


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def python_match_counts(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    max_n: int,
    ignore: frozenset | None,
    weighting: Mapping[tuple, float] | None,
    min_n: int = 1,
) -> tuple[list[float], list[float]]:
    """Reference implementation: clipped matches and totals per order (min_n..max_n)."""
    matches: list[float] = []
    totals: list[float] = []
    for n in range(min_n, max_n + 1):
        if len(hypothesis) < n:
            matches.append(0)
            totals.append(0)
            continue
        counts = Counter(ngrams(hypothesis, n))  # the hypothesis counted once per order
        if ignore:
            for gram in ignore.intersection(counts):
                del counts[gram]
        clipped = clip_counts(references, counts, n)
        if weighting is None:
            matches.append(sum(c for _, c in clipped))
            totals.append(sum(counts.values()))
        else:
            w = weighting.get
            matches.append(math.fsum(w(g, 1.0) * c for g, c in clipped))
            totals.append(math.fsum(w(g, 1.0) * c for g, c in counts.items()))
    return matches, totals


def match_counts(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    max_n: int,
    ignore: frozenset | None,
    weighting: Mapping[tuple, float] | None = None,
    exact: bool = False,
    plain: bool = False,
) -> tuple[tuple[list[float], list[float]], tuple[list[float], list[float]] | None]:
    """(matches, totals) with ``ignore`` and ``weighting`` applied, and with ``plain`` the
    same with nothing ignored or weighted (else None)."""
    if weighting is None and max_n <= MAX_ORDER:
        counter = _COUNTERS.get(ignore) or _new_counter(ignore)
        result = counter.counts_with_plain(references, hypothesis, max_n, exact=exact, plain=plain)
        if result is not None:
            return result  # type: ignore[return-value]
    counted = python_match_counts(references, hypothesis, max_n, ignore, weighting)
    if not plain:
        return counted, None
    if ignore is None and weighting is None:
        return counted, counted
    return counted, match_counts(references, hypothesis, max_n, None, None, exact)[0]


def as_tokens(tokens: Tokens) -> Tokens:
    """``tokens`` as a list or tuple (as given when it is one, or an
    :class:`~crystal.interning.InternedTokens`, whose numbers the counter reuses); a ``str``
    is refused."""
    if type(tokens) is list or type(tokens) is tuple or type(tokens) is InternedTokens:
        return tokens
    if isinstance(tokens, str):
        raise TypeError("expected a sequence of tokens, got a str (tokenize it first)")
    return tokens if isinstance(tokens, (list, tuple)) else list(tokens)


def segment_stats(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    max_n: int = 4,
    ignoring: object = None,
    weighting: Mapping[tuple, float] | None = None,
) -> SegmentStats:
    """Count one hypothesis against its references.

    Parameters
    ----------
    references : sequence of token sequences
        At least one reference.
    hypothesis : token sequence
    max_n : int, optional (default 4)
        Highest n-gram order.
    ignoring : collection of tuples, optional
        N-grams removed from the counts before clipping (CrystalBLEU): a set, frozenset,
        list, dict or Counter of tuple n-grams, or an :class:`~crystal.NgramSet`.
    weighting : mapping of tuple to float, optional
        Multiplies each listed n-gram's hypothesis and reference counts by its weight
        (n-grams not listed weigh 1). Used by CrystalBLEU's log-weight variant.

    Returns
    -------
    SegmentStats

    Raises
    ------
    ValueError
        If there is no reference or ``max_n < 1``.
    TypeError
        If the hypothesis or a reference is a str (tokenize first).

    Examples
    --------
    >>> from crystal import segment_stats
    >>> s = segment_stats([["f", "(", "x", ")"]], ["f", "(", "y", ")"], ignoring={("(",)})
    >>> s.matches, s.totals
    ((2.0, 1.0, 0.0, 0.0), (3.0, 3.0, 2.0, 1.0))
    """
    return segment_stats_with_plain(
        references, hypothesis, max_n, ignoring, weighting, plain=False
    )[0]


def segment_stats_with_plain(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    max_n: int = 4,
    ignoring: object = None,
    weighting: Mapping[tuple, float] | None = None,
    *,
    plain: bool = True,
) -> tuple[SegmentStats, SegmentStats | None]:
    """:func:`segment_stats`, and plain BLEU's statistics of the same segment (nothing
    ignored or weighted) from the same count: a scorer reporting both CrystalBLEU and BLEU
    encodes and counts each pair's n-grams once.

    Parameters
    ----------
    references, hypothesis, max_n, ignoring, weighting : as for :func:`segment_stats`.
    plain : bool, optional (default True)
        False skips the plain statistics (returned as None).

    Returns
    -------
    (SegmentStats, SegmentStats or None)

    Examples
    --------
    >>> from crystal import segment_stats_with_plain
    >>> s, b = segment_stats_with_plain([["f", "(", "x", ")"]], ["f", "(", "y", ")"],
    ...                                 ignoring={("(",)})
    >>> s.matches, b.matches
    ((2.0, 1.0, 0.0, 0.0), (3.0, 1.0, 0.0, 0.0))
    """
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    hyp, refs, hyp_len, ref_len, exact = prepare_segment(references, hypothesis)
    counted, plain_counted = match_counts(
        refs, hyp, max_n, ignore_set(ignoring), weighting, exact, plain
    )
    stats = [
        None if c is None else SegmentStats(
            hyp_len,
            ref_len,
            tuple(map(float, c[0])),
            tuple(map(float, c[1])),
            exact=int(exact),
        )
        for c in (counted, plain_counted)
    ]
    return stats[0], stats[1]  # type: ignore[return-value]


def prepare_segment(
    references: Sequence[Tokens], hypothesis: Tokens
) -> tuple[Tokens, list[Tokens], int, int, bool]:
    """(hypothesis, references, hyp_len, closest ref_len, exact match?) of one segment."""
    hyp = as_tokens(hypothesis)
    refs = [as_tokens(ref) for ref in references]
    hyp_len = len(hyp)
    ref_len = closest_ref_length(refs, hyp_len)
    exact = False
    for ref in refs:
        if len(ref) != hyp_len:
            continue
        if ref == hyp if type(ref) is type(hyp) else list(ref) == list(hyp):
            exact = True
            break
    return hyp, refs, hyp_len, ref_len, exact
