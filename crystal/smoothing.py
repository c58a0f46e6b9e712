"""Smoothing of BLEU's modified n-gram precisions.

Two families:

* NLTK's ``SmoothingFunction`` methods ``"method0"`` .. ``"method7"`` (Chen & Cherry 2014),
  reproduced number for number, NLTK's quirks included (see :func:`nltk_precisions`).
  ``method0`` (no smoothing) replaces a zero precision by ``sys.float_info.min`` exactly as
  NLTK does, but logs at DEBUG level instead of emitting NLTK's ``UserWarning``.
* sacrebleu's ``"exp"``, ``"floor"`` and ``"add-k"`` (see :func:`sacrebleu_precisions`).

The BLEU formulas themselves live in :mod:`crystal.scoring`.
"""

from __future__ import annotations

import logging
import math
import sys
from collections.abc import Callable, Sequence

__all__ = [
    "NLTK_METHODS",
    "SACREBLEU_METHODS",
    "SMOOTHING_METHODS",
    "nltk_precisions",
    "sacrebleu_precisions",
    "check_smoothing",
]

logger = logging.getLogger(__name__)

NLTK_METHODS = tuple(f"method{i}" for i in range(8))
SACREBLEU_METHODS = ("exp", "floor", "add-k")
SMOOTHING_METHODS = NLTK_METHODS + SACREBLEU_METHODS
"""All smoothing names accepted by :func:`crystal.bleu_from_stats` and :class:`CrystalBLEU`."""

SACREBLEU_DEFAULTS = {"exp": None, "floor": 0.1, "add-k": 1.0}


def check_smoothing(name: object) -> str:
    """Return ``name`` if it is a known smoothing method, else raise ``ValueError``.

    Parameters
    ----------
    name : str

    Returns
    -------
    str

    Examples
    --------
    >>> from crystal.smoothing import check_smoothing
    >>> check_smoothing("method1")
    'method1'
    """
    if name not in SMOOTHING_METHODS:
        known = ", ".join(SMOOTHING_METHODS)
        raise ValueError(f"unknown smoothing {name!r} (known: {known})")
    return name  # type: ignore[return-value]


def nltk_precisions(
    method: str,
    matches: Sequence[float],
    denominators: Sequence[float],
    *,
    hyp_len: float,
    epsilon: float = 0.1,
    alpha: float = 5.0,
    k: float = 5.0,
    next_precision: Callable[[], float] | None = None,
    hyp_ngrams: Sequence[float] = (),
) -> list[float]:
    """Smoothed precisions as NLTK's ``SmoothingFunction().<method>`` computes them.

    Parameters
    ----------
    method : str
        ``"method0"`` .. ``"method7"``.
    matches, denominators : sequences of float
        Per order: clipped matches and NLTK's denominators (per segment at least 1).
    hyp_len : float
        Hypothesis length (corpus total), used by methods 4 and 7.
    epsilon : float, optional (default 0.1, NLTK's)
        Method 1's count added to zero matches.
    alpha : float, optional (default 5)
        Method 6's prior weight.
    k : float, optional (default 5)
        Method 4's constant.
    next_precision : callable, optional
        Methods 5 and 7: returns the unsmoothed precision of the order after the last one
        (NLTK always uses the 5-gram precision of the last segment there).
    hyp_ngrams : sequence of float, optional
        Method 6: number of hypothesis n-grams per order (NLTK: of the last segment).

    Returns
    -------
    list of float
        One value per order. Zero values are skipped by the BLEU sum, as in NLTK >= 3.6.

    Notes
    -----
    Deviations, where NLTK raises instead of returning a number: method 6 does not assert a
    non-zero trigram precision, and skips orders it does not have (fewer than 3 orders).

    Examples
    --------
    >>> from crystal.smoothing import nltk_precisions
    >>> nltk_precisions("method1", [3, 1, 0], [4, 3, 2], hyp_len=4)
    [0.75, 0.3333333333333333, 0.05]
    """
    n = len(matches)
    if method == "method0":
        out = []
        for i in range(n):
            if matches[i] != 0:
                out.append(matches[i] / denominators[i])
            else:
                logger.debug("no %d-gram overlaps: BLEU is 0 without smoothing", i + 1)
                out.append(sys.float_info.min)
        return out
    if method == "method1":
        return [
            (m + epsilon) / d if m == 0 else m / d
            for m, d in zip(matches, denominators, strict=False)
        ]
    if method == "method2":
        return [
            matches[i] / denominators[i] if i == 0 else (matches[i] + 1) / (denominators[i] + 1)
            for i in range(n)
        ]
    if method == "method3":
        out = []
        inc = 1
        for m, d in zip(matches, denominators, strict=False):
            if m == 0:
                out.append(1 / (2**inc * d))
                inc += 1
            else:
                out.append(m / d)
        return out
    if method in ("method4", "method7"):
        out = _method4(matches, denominators, hyp_len, k)
        if method == "method4":
            return out
        return _method5(out, next_precision)
    if method == "method5":
        return _method5(
            [m / d for m, d in zip(matches, denominators, strict=False)], next_precision
        )
    if method == "method6":
        out = [m / d for m, d in zip(matches, denominators, strict=False)]
        for i in range(2, n):
            pi0 = 0 if out[i - 2] == 0 else out[i - 1] ** 2 / out[i - 2]
            out[i] = (matches[i] + alpha * pi0) / (hyp_ngrams[i] + alpha)
        return out
    raise ValueError(f"unknown NLTK smoothing {method!r}")


def _method4(
    matches: Sequence[float], denominators: Sequence[float], hyp_len: float, k: float
) -> list[float]:
    out = []
    inc = 1
    for m, d in zip(matches, denominators, strict=False):
        if m == 0 and hyp_len > 1:
            # Same operation order as NLTK, for bit-identical floats.
            numerator = 1 / (2**inc * k / math.log(hyp_len))
            out.append(numerator / d)
            inc += 1
        else:
            out.append(m / d)
    return out


def _method5(p: list[float], next_precision: Callable[[], float] | None) -> list[float]:
    if next_precision is None:
        raise ValueError("smoothing method5/method7 needs the precision of one more order")
    # NLTK averages with the *unsmoothed* next order (a copy taken before the loop) and the
    # *smoothed* previous one.
    following = p[1:] + [next_precision()]
    prev = p[0] + 1
    out = []
    for i, p_i in enumerate(p):
        prev = (prev + p_i + following[i]) / 3
        out.append(prev)
    return out


def sacrebleu_precisions(
    method: str,
    matches: Sequence[float],
    totals: Sequence[float],
    *,
    value: float | None = None,
) -> list[float | None]:
    """Smoothed precisions as sacrebleu's ``BLEU.compute_bleu`` computes them (as fractions).

    Parameters
    ----------
    method : str
        ``"exp"``: the i-th order with no match gets ``1 / (2**i * total)`` (mteval-v13a);
        ``"floor"``: zero matches get ``value / total`` (default 0.1);
        ``"add-k"``: orders 2 and up get ``value`` (default 1) added to matches and totals.
    matches, totals : sequences of float
        Per order: clipped matches and raw hypothesis n-gram totals.
    value : float, optional
        The floor or k; None means sacrebleu's default.

    Returns
    -------
    list
        One precision per order; None from the first order with no hypothesis n-grams on
        (sacrebleu stops there; the caller drops those orders or scores 0).

    Examples
    --------
    >>> from crystal.smoothing import sacrebleu_precisions
    >>> sacrebleu_precisions("exp", [3, 0, 0], [4, 3, 2])
    [0.75, 0.16666666666666666, 0.125]
    """
    if method not in SACREBLEU_METHODS:
        raise ValueError(f"unknown sacrebleu smoothing {method!r}")
    if value is None:
        value = SACREBLEU_DEFAULTS[method]
    out: list[float | None] = []
    smooth = 1.0
    for i, (m, t) in enumerate(zip(matches, totals, strict=False)):
        if method == "add-k" and i > 0:
            m += value
            t += value
        if t == 0:
            out.extend([None] * (len(matches) - i))
            break
        if m != 0:
            out.append(m / t)
        elif method == "exp":
            smooth *= 2
            out.append(1 / (smooth * t))
        elif method == "floor":
            out.append(value / t)
        else:
            out.append(0.0)
    return out
