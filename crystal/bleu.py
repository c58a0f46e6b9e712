"""BLEU from cached per-segment statistics, and drop-in ``sentence_bleu``/``corpus_bleu``.

Statistics first, scores second (as sacrebleu does): :func:`segment_stats` counts one
hypothesis against its references once; :class:`SegmentStats` add up for a corpus;
:func:`bleu_from_stats` turns a segment's or a corpus's statistics into a score with any
smoothing. Counting has two exact implementations: a compiled one for orders up to 4
(:mod:`crystal._fast`, about 7x NLTK's speed on CodeXGLUE methods), and a pure-Python one,
the reference, which also serves real-valued n-gram weights (the log-weight variant),
orders above 4, ignore sets with more than ~16,000 distinct tokens and pairs of more than
~32,000 tokens.

The ignore set is encoded once per distinct set and cached (16 sets at most): pass a
``frozenset`` or an :class:`~crystal.NgramSet`; other containers (set, dict, list) are
copied into a frozenset on every call, which costs a few microseconds for k = 500.

:func:`sentence_bleu` and :func:`corpus_bleu` are drop-in replacements for
``crystalbleu.sentence_bleu``/``corpus_bleu`` (crystalbleu 0.2), which are NLTK's functions
plus ``ignoring=``: same arguments in the same order, same numbers (to 1e-9, the tests
check every smoothing method on hand-written and real data). Deviations, all where the
originals return an int or raise:

* the result is always a float (crystalbleu and NLTK return the int ``0`` when no unigram
  matches; here ``0.0``);
* a zero precision left after smoothing is skipped in the geometric mean, as NLTK >= 3.6
  does (crystalbleu raises ``ValueError: math domain error`` there, e.g. method4 on a
  one-token hypothesis);
* ``auto_reweigh`` on an empty corpus returns 0.0 (crystalbleu divides by zero);
* method6 does not assert a non-zero trigram precision (NLTK and crystalbleu raise
  ``AssertionError``); it interpolates as it does otherwise;
* a list of weight tuples returns a list of scores, as in NLTK >= 3.8 (crystalbleu fails);
* mismatched corpus lengths or a hypothesis without references raise ``ValueError``
  (NLTK: ``AssertionError`` and ``ValueError``);
* nothing is printed: NLTK's method0 ``UserWarning`` is a DEBUG log record here.
"""

from __future__ import annotations

import logging
import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import mul, truediv
from typing import Any

from crystal._fast import MAX_ORDER, FastCounter
from crystal.smoothing import (
    NLTK_METHODS,
    SACREBLEU_METHODS,
    check_smoothing,
    nltk_precisions,
    sacrebleu_precisions,
)

__all__ = [
    "SegmentStats",
    "segment_stats",
    "bleu_from_stats",
    "brevity_penalty",
    "closest_ref_length",
    "sentence_bleu",
    "corpus_bleu",
]

logger = logging.getLogger(__name__)

Tokens = Sequence[Any]
Weights = Sequence[float]
_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class SegmentStats:
    """Sufficient statistics of one segment (or, summed, of a corpus) for BLEU.

    Parameters
    ----------
    hyp_len : int
        Number of hypothesis tokens.
    ref_len : int
        Length of the reference closest in length to the hypothesis (NLTK's rule: the
        shortest among the closest).
    matches : tuple of float
        Per order 1..max_n: clipped n-gram matches (weighted counts in the log-weight
        variant; whole numbers otherwise).
    totals : tuple of float
        Per order: hypothesis n-grams counted (after ignoring or weighting).
    zero_totals : tuple of int, optional
        Per order: number of segments whose total is 0. NLTK counts such a segment's
        denominator as 1, so ``denominators = totals + zero_totals``. Derived from
        ``totals`` when omitted.
    segments : int, optional (default 1)
        Number of segments summed.
    exact : int, optional (default 0)
        Number of segments whose hypothesis equals one of its references token for token.

    Examples
    --------
    >>> from crystal import segment_stats
    >>> s = segment_stats([["a", "b", "c"]], ["a", "b", "d"], max_n=2)
    >>> s.matches, s.totals
    ((2.0, 1.0), (3.0, 2.0))
    >>> (s + s).matches, sum([s, s]).segments
    ((4.0, 2.0), 2)
    """

    hyp_len: int
    ref_len: int
    matches: tuple[float, ...]
    totals: tuple[float, ...]
    zero_totals: tuple[int, ...] | None = None
    segments: int = 1
    exact: int = 0

    def __post_init__(self) -> None:
        if len(self.matches) != len(self.totals):
            raise ValueError("matches and totals must have one value per order")
        if self.zero_totals is None:
            object.__setattr__(self, "zero_totals", tuple(int(t == 0) for t in self.totals))
        elif len(self.zero_totals) != len(self.totals):
            raise ValueError("zero_totals must have one value per order")

    @property
    def max_n(self) -> int:
        """Number of orders counted."""
        return len(self.matches)

    @property
    def denominators(self) -> tuple[float, ...]:
        """NLTK's precision denominators: totals, with each empty segment counted as 1."""
        return tuple(t + z for t, z in zip(self.totals, self.zero_totals, strict=False))  # type: ignore[arg-type]

    def __add__(self, other: SegmentStats) -> SegmentStats:
        if not isinstance(other, SegmentStats):
            return NotImplemented
        if other.max_n != self.max_n:
            raise ValueError(f"cannot add statistics of {self.max_n} and {other.max_n} orders")
        return SegmentStats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            tuple(a + b for a, b in zip(self.matches, other.matches, strict=False)),
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=False)),
            tuple(a + b for a, b in zip(self.zero_totals, other.zero_totals, strict=False)),  # type: ignore[arg-type]
            self.segments + other.segments,
            self.exact + other.exact,
        )

    def __radd__(self, other: object) -> SegmentStats:
        # sum() starts from 0.
        if other == 0:
            return self
        return NotImplemented

    def as_dict(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dict."""
        return {
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "zero_totals": list(self.zero_totals),  # type: ignore[arg-type]
            "segments": self.segments,
            "exact": self.exact,
        }


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
    >>> from crystal.bleu import closest_ref_length
    >>> closest_ref_length([["a"] * 13, ["a"] * 11], 12)
    11
    """
    lengths = [len(ref) for ref in references]
    if len(lengths) == 1:
        return lengths[0]
    if not lengths:
        raise ValueError("a hypothesis needs at least one reference")
    return min(lengths, key=lambda r: (abs(r - hyp_len), r))


def brevity_penalty(closest_ref_len: float, hyp_len: float) -> float:
    """BLEU's brevity penalty (NLTK's definition; 0.0 for an empty hypothesis).

    Parameters
    ----------
    closest_ref_len : number
        Closest reference length (summed over a corpus).
    hyp_len : number
        Hypothesis length (summed over a corpus).

    Returns
    -------
    float

    Examples
    --------
    >>> from crystal.bleu import brevity_penalty
    >>> round(brevity_penalty(28, 12), 6)
    0.263597
    """
    if hyp_len > closest_ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - closest_ref_len / hyp_len)


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


def _ignore_set(ignoring: object) -> frozenset | None:
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


def _python_counts(
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
        counts = Counter(zip(*(hypothesis[i:] for i in range(n)), strict=False))
        if ignore:
            for gram in ignore.intersection(counts):
                del counts[gram]
        best: dict[tuple, int] = {}
        for ref in references:
            if len(ref) < n:
                continue
            ref_counts = Counter(zip(*(ref[i:] for i in range(n)), strict=False))
            for gram in counts.keys() & ref_counts.keys():
                c = ref_counts[gram]
                if c > best.get(gram, 0):
                    best[gram] = c
        if weighting is None:
            matches.append(sum(min(c, best[g]) for g, c in counts.items() if g in best))
            totals.append(sum(counts.values()))
        else:
            w = weighting.get
            matches.append(
                math.fsum(w(g, 1.0) * min(c, best[g]) for g, c in counts.items() if g in best)
            )
            totals.append(math.fsum(w(g, 1.0) * c for g, c in counts.items()))
    return matches, totals


def _counts(
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
        if counter.usable:
            result = counter.counts_with_plain(
                references, hypothesis, max_n, exact=exact, plain=plain
            )
            if result is not None:
                return result  # type: ignore[return-value]
    counted = _python_counts(references, hypothesis, max_n, ignore, weighting)
    if not plain:
        return counted, None
    if ignore is None and weighting is None:
        return counted, counted
    return counted, _counts(references, hypothesis, max_n, None, None, exact)[0]


def _as_tokens(tokens: Tokens) -> Tokens:
    if type(tokens) is list or type(tokens) is tuple:
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
    return segment_stats_with_plain(references, hypothesis, max_n, ignoring, weighting)[0]


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
    encodes and sorts each pair's n-grams once.

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
    hyp, refs, hyp_len, ref_len, exact = _segment(references, hypothesis)
    counted, plain_counted = _counts(
        refs, hyp, max_n, _ignore_set(ignoring), weighting, exact, plain
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


def _segment(
    references: Sequence[Tokens], hypothesis: Tokens
) -> tuple[Tokens, list[Tokens], int, int, bool]:
    """(hypothesis, references, hyp_len, closest ref_len, exact match?) of one segment."""
    hyp = _as_tokens(hypothesis)
    refs = [_as_tokens(ref) for ref in references]
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


# --------------------------------------------------------------------------- scores


def _sum_stats(stats: SegmentStats | Iterable[SegmentStats]) -> SegmentStats | None:
    if isinstance(stats, SegmentStats):
        return stats
    total = None
    for s in stats:
        total = s if total is None else total + s
    return total


def bleu_from_stats(
    stats: SegmentStats | Iterable[SegmentStats],
    weights: Weights = _DEFAULT_WEIGHTS,
    smoothing: str = "method1",
    *,
    epsilon: float = 1e-4,
    alpha: float = 5.0,
    k: float = 5.0,
    smooth_value: float | None = None,
    auto_reweigh: bool = False,
    effective_order: bool = True,
) -> float:
    """BLEU of a segment, or of a corpus from the sum of its segments' statistics.

    Parameters
    ----------
    stats : SegmentStats or iterable of SegmentStats
        Summed when several (corpus BLEU: micro-averaged precisions).
    weights : sequence of float, optional (default uniform over 4 orders)
        One weight per order; the statistics need at least that many orders.
    smoothing : str, optional (default "method1")
        ``"method0"`` .. ``"method7"`` (NLTK's) or ``"exp"``, ``"floor"``, ``"add-k"``
        (sacrebleu's). Method 5 and 7 need statistics of ``len(weights) + 1`` orders.
    epsilon : float, optional (default 1e-4, as the CrystalBLEU authors)
        Method 1's count for zero matches. (NLTK's default is 0.1.)
    alpha, k : float, optional (default 5, 5)
        Method 6's alpha and method 4's k (NLTK's defaults).
    smooth_value : float, optional
        sacrebleu's floor (default 0.1) or add-k's k (default 1).
    auto_reweigh : bool, optional (default False)
        NLTK's option: with default weights and fewer than 4 hypothesis tokens, use uniform
        weights over ``hyp_len`` orders.
    effective_order : bool, optional (default True)
        sacrebleu methods only: leave out orders the hypothesis has no n-grams of (as
        sacrebleu's sentence BLEU), renormalizing the weights; if False such orders make the
        score 0.

    Returns
    -------
    float
        In [0, 1] except that NLTK's method 5 can exceed 1. 0.0 when no unigram matches
        (after ignoring), or when the statistics are empty.

    Examples
    --------
    >>> from crystal import bleu_from_stats, segment_stats
    >>> s = segment_stats([["a", "b", "c", "d"]], ["a", "b", "c", "e"])
    >>> round(bleu_from_stats(s), 4)
    0.0707
    >>> round(bleu_from_stats(s, weights=(0.5, 0.5)), 4)
    0.7071
    """
    total = _sum_stats(stats)
    if total is None:
        return 0.0
    check_smoothing(smoothing)
    if total.max_n < len(weights):
        raise ValueError(
            f"weights need {len(weights)} orders but the statistics have {total.max_n}"
        )
    return _bleu(
        total.matches,
        total.denominators,
        total.totals,
        total.hyp_len,
        total.ref_len,
        weights,
        smoothing,
        epsilon=epsilon,
        alpha=alpha,
        k=k,
        smooth_value=smooth_value,
        auto_reweigh=auto_reweigh,
        effective_order=effective_order,
    )


def _bleu(
    matches: Sequence[float],
    dens: Sequence[float],
    totals: Sequence[float],
    hyp_len: float,
    ref_len: float,
    weights: Weights,
    smoothing: str,
    *,
    epsilon: float = 1e-4,
    alpha: float = 5.0,
    k: float = 5.0,
    smooth_value: float | None = None,
    auto_reweigh: bool = False,
    effective_order: bool = True,
) -> float:
    """bleu_from_stats on unpacked statistics (the sentence-level fast path)."""
    n = len(weights)
    if n == 0 or matches[0] == 0:
        return 0.0
    if auto_reweigh and hyp_len < 4 and tuple(weights) == _DEFAULT_WEIGHTS:
        weights = (1 / hyp_len,) * int(hyp_len)
    bp = brevity_penalty(ref_len, hyp_len)
    if smoothing == "method1":
        if 0 in matches[:n]:
            p = [
                (m + epsilon) / d if m == 0 else m / d
                for m, d in zip(matches[:n], dens, strict=False)
            ]
        else:
            p = list(map(truediv, matches[:n], dens))
    elif smoothing in SACREBLEU_METHODS:
        p = sacrebleu_precisions(smoothing, matches[:n], totals[:n], value=smooth_value)
        used = [(w, q) for w, q in zip(weights, p, strict=False) if q is not None]
        weight_used = math.fsum(w for w, _ in used)
        if (len(used) < len(p) and not effective_order) or weight_used == 0:
            return 0.0
        if any(q == 0 for _, q in used):
            return 0.0
        scale = math.fsum(weights[: len(p)]) / weight_used
        return bp * math.exp(math.fsum(scale * w * math.log(q) for w, q in used))  # type: ignore[arg-type]
    else:
        if smoothing in ("method5", "method7") and len(matches) <= n:
            raise ValueError(
                f"smoothing {smoothing} needs statistics of {n + 1} orders "
                f"(count with max_n={n + 1}), got {len(matches)}"
            )

        def next_precision() -> float:
            return matches[n] / dens[n]

        p = nltk_precisions(
            smoothing,
            matches[:n],
            dens[:n],
            hyp_len=hyp_len,
            epsilon=epsilon,
            alpha=alpha,
            k=k,
            next_precision=next_precision,
            hyp_ngrams=totals[:n],
        )
    return bp * math.exp(_weighted_log_sum(weights, p))


def _weighted_log_sum(weights: Sequence[float], p: Sequence[float]) -> float:
    """fsum of w * log(p) over the orders, skipping zero precisions as NLTK does."""
    if min(p) > 0:
        # All in C: this runs once per sentence score.
        return math.fsum(map(mul, weights, map(math.log, p)))
    return math.fsum([w * math.log(q) for w, q in zip(weights, p, strict=False) if q > 0])


# --------------------------------------------------------------------------- drop-ins


class _NltkFraction(Fraction):
    """NLTK's unnormalized Fraction, for user-supplied smoothing callables."""

    def __new__(cls, numerator: int = 0, denominator: int | None = None) -> _NltkFraction:
        self = super().__new__(cls, numerator, denominator)
        self._original = (numerator, denominator)  # type: ignore[attr-defined]
        return self

    @property
    def numerator(self) -> int:  # type: ignore[override]
        return self._original[0]  # type: ignore[attr-defined]

    @property
    def denominator(self) -> int:  # type: ignore[override]
        return self._original[1]  # type: ignore[attr-defined]


_SMOOTHING_MODULES = frozenset({"nltk.translate.bleu_score", "crystalbleu"})


_NLTK_PARAMS = (0.1, 5, 5)  # SmoothingFunction()'s epsilon, alpha, k


def _resolve_smoothing(
    fn: object,
) -> tuple[str | None, tuple[float, float, float], Callable | None]:
    """Map ``smoothing_function=`` to (method name, (epsilon, alpha, k), custom callable)."""
    if not fn:
        return "method0", _NLTK_PARAMS, None
    if isinstance(fn, str):
        return check_smoothing(fn), _NLTK_PARAMS, None
    func = getattr(fn, "__func__", None)
    # Only the original methods are mapped to ours; overridden ones run as given.
    if getattr(func, "__module__", None) in _SMOOTHING_MODULES:
        name = func.__name__  # type: ignore[union-attr]
        if name in NLTK_METHODS:
            owner = fn.__self__  # type: ignore[attr-defined]
            params = (
                getattr(owner, "epsilon", 0.1),
                getattr(owner, "alpha", 5),
                getattr(owner, "k", 5),
            )
            return name, params, None
    if callable(fn):
        return None, _NLTK_PARAMS, fn  # type: ignore[return-value]
    raise TypeError(f"smoothing_function must be callable or a method name, got {fn!r}")


def _normalize_weights(weights: Any) -> tuple[list[Any], bool]:
    if type(weights) is tuple and weights and type(weights[0]) is float:
        return [weights], True
    # NLTK's own test for "one weight tuple or a list of them".
    try:
        weights[0][0]
    except (TypeError, IndexError):
        return [weights], True
    return list(weights), False


def _nltk_bleu(
    nums: list[float],
    dens: list[float],
    hyp_lengths: int,
    ref_lengths: int,
    weights: list[Any],
    single: bool,
    smoothing_function: object,
    auto_reweigh: bool,
    last: tuple[Sequence[Tokens], Tokens] | None,
) -> float | list[float]:
    if not nums or nums[0] == 0:
        return 0.0 if single else [0.0] * len(weights)
    method, params, custom = _resolve_smoothing(smoothing_function)
    refs, hyp = last  # type: ignore[misc]
    if method == "method1":
        if 0 in nums:
            eps = params[0]
            p = [(m + eps) / d if m == 0 else m / d for m, d in zip(nums, dens, strict=False)]
        else:
            p = list(map(truediv, nums, dens))
    elif custom is not None:
        p_n = [_NltkFraction(int(a), int(b)) for a, b in zip(nums, dens, strict=False)]
        p = custom(p_n, references=refs, hypothesis=hyp, hyp_len=hyp_lengths)
    else:
        # NLTK's methods 4-7 look at the *last* segment only (a loop variable leaking out of
        # corpus_bleu's loop): its 5-gram precision, without ignoring, and its n-gram counts.
        def next_precision() -> float:
            m5, t5 = _python_counts(refs, hyp, 5, None, None, min_n=5)
            return m5[0] / max(1, t5[0])

        p = nltk_precisions(
            method,  # type: ignore[arg-type]
            nums,
            dens,
            hyp_len=hyp_lengths if hyp_lengths else len(hyp),
            epsilon=params[0],
            alpha=params[1],
            k=params[2],
            next_precision=next_precision,
            hyp_ngrams=(
                [max(0, len(hyp) - i) for i in range(len(nums))] if method == "method6" else ()
            ),
        )
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    if single and not auto_reweigh:
        # The common case, without the loop: sentence BLEU is called once per pair.
        return float(bp * math.exp(_weighted_log_sum(weights[0], p)))
    scores = []
    for weight in weights:
        if auto_reweigh and hyp_lengths < 4 and weight == _DEFAULT_WEIGHTS:
            weight = (1 / hyp_lengths,) * hyp_lengths
        scores.append(float(bp * math.exp(_weighted_log_sum(weight, p))))
    return scores[0] if single else scores


def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Weights | Sequence[Weights] = _DEFAULT_WEIGHTS,
    smoothing_function: object = None,
    auto_reweigh: bool = False,
    ignoring: object = None,
) -> float | list[float]:
    """Corpus BLEU or CrystalBLEU, a drop-in for ``crystalbleu.corpus_bleu``.

    Sums each order's clipped matches and NLTK denominators over the corpus, then applies
    the brevity penalty, smoothing and weights once (micro-averaged precisions).

    Parameters
    ----------
    list_of_references : sequence of sequences of token sequences
        The references of each hypothesis.
    hypotheses : sequence of token sequences
    weights : tuple of float, or a list of such tuples (default uniform over 4 orders)
        Weights of orders 1, 2, ...; with a list, one score per tuple is returned.
    smoothing_function : optional
        None (NLTK's method0), a bound method of NLTK's or crystalbleu's
        ``SmoothingFunction`` (its epsilon, alpha and k are used), a method name such as
        ``"method1"`` (NLTK's default parameters, epsilon 0.1), or any callable with NLTK's
        smoothing signature.
    auto_reweigh : bool, optional (default False)
        NLTK's option (see :func:`bleu_from_stats`).
    ignoring : collection of tuples, optional
        N-grams to ignore (CrystalBLEU): set, frozenset, list, dict, Counter or NgramSet.
        A frozenset or NgramSet is fastest.

    Returns
    -------
    float, or list of float for a list of weight tuples

    Examples
    --------
    >>> from crystal import corpus_bleu
    >>> hyp = "if ( x > 0 ) return x ;".split()
    >>> ref = "if ( x >= 0 ) return x ;".split()
    >>> round(corpus_bleu([[ref]], [hyp]), 4)
    0.5969
    >>> round(corpus_bleu([[ref]], [hyp], ignoring={("(",), (")",), (";",)}), 4)
    0.5874
    """
    if len(list_of_references) != len(hypotheses):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(list_of_references)} reference lists"
        )
    weight_list, single = _normalize_weights(weights)
    n = max((len(w) for w in weight_list), default=0)
    ignore = _ignore_set(ignoring)
    nums = [0] * n
    dens = [0] * n
    hyp_lengths = ref_lengths = 0
    last = None
    for references, hypothesis in zip(list_of_references, hypotheses, strict=False):
        hyp = _as_tokens(hypothesis)
        refs = [_as_tokens(ref) for ref in references]
        if n:
            matches, totals = _counts(refs, hyp, n, ignore)[0]
            for i in range(n):
                nums[i] += matches[i]
                dens[i] += totals[i] if totals[i] > 0 else 1
        hyp_len = len(hyp)
        hyp_lengths += hyp_len
        ref_lengths += closest_ref_length(refs, hyp_len)
        last = (refs, hyp)
    return _nltk_bleu(
        nums,
        dens,
        hyp_lengths,
        ref_lengths,
        weight_list,
        single,
        smoothing_function,
        auto_reweigh,
        last,
    )


def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Weights | Sequence[Weights] = _DEFAULT_WEIGHTS,
    smoothing_function: object = None,
    auto_reweigh: bool = False,
    ignoring: object = None,
) -> float | list[float]:
    """Sentence BLEU or CrystalBLEU, a drop-in for ``crystalbleu.sentence_bleu``.

    Parameters
    ----------
    references : sequence of token sequences
    hypothesis : token sequence
    weights, smoothing_function, auto_reweigh, ignoring
        As in :func:`corpus_bleu`.

    Returns
    -------
    float, or list of float for a list of weight tuples

    Examples
    --------
    >>> from nltk.translate.bleu_score import SmoothingFunction
    >>> from crystal import sentence_bleu
    >>> ref = "public int Size ( ) { return count ; }".split()
    >>> hyp = "public int Count ( ) { return count ; }".split()
    >>> round(sentence_bleu([ref], hyp), 4)
    0.7071
    >>> ignore = {("(",), (")",), ("{",), ("}",), (";",), ("public",), ("return",)}
    >>> sm = SmoothingFunction(epsilon=1e-4).method1
    >>> round(sentence_bleu([ref], hyp, smoothing_function=sm, ignoring=ignore), 4)
    0.656
    """
    # corpus_bleu on one pair, without the corpus loop's overhead.
    weight_list, single = _normalize_weights(weights)
    n = len(weights) if single else max((len(w) for w in weight_list), default=0)
    hyp = _as_tokens(hypothesis)
    refs = [_as_tokens(ref) for ref in references]
    hyp_len = len(hyp)
    ref_len = closest_ref_length(refs, hyp_len)
    if n:
        nums, dens = _counts(refs, hyp, n, _ignore_set(ignoring))[0]
        if 0 in dens:
            # NLTK's per-segment denominator is at least 1 (totals are integers here).
            dens = [t if t > 0 else 1 for t in dens]
    else:
        nums = dens = []
    return _nltk_bleu(
        nums,
        dens,
        hyp_len,
        ref_len,
        weight_list,
        single,
        smoothing_function,
        auto_reweigh,
        (refs, hyp),
    )
