"""Drop-in ``sentence_bleu``/``corpus_bleu`` with crystalbleu's and NLTK's call signatures.

Like sacrebleu's ``compat.py``, this is the legacy functional face over the statistics core
(:mod:`crystal.counting`, :mod:`crystal.scoring`).

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

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import truediv
from typing import Any

from crystal.counting import (
    Tokens,
    as_tokens,
    closest_ref_length,
    ignore_set,
    match_counts,
    python_match_counts,
)
from crystal.scoring import DEFAULT_WEIGHTS, Weights, brevity_penalty, weighted_log_sum
from crystal.smoothing import NLTK_METHODS, check_smoothing, nltk_precisions

__all__ = ["sentence_bleu", "corpus_bleu"]


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
            m5, t5 = python_match_counts(refs, hyp, 5, None, None, min_n=5)
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
        return float(bp * math.exp(weighted_log_sum(weights[0], p)))
    scores = []
    for weight in weights:
        if auto_reweigh and hyp_lengths < 4 and weight == DEFAULT_WEIGHTS:
            weight = (1 / hyp_lengths,) * hyp_lengths
        scores.append(float(bp * math.exp(weighted_log_sum(weight, p))))
    return scores[0] if single else scores


def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Weights | Sequence[Weights] = DEFAULT_WEIGHTS,
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
    ignore = ignore_set(ignoring)
    nums = [0] * n
    dens = [0] * n
    hyp_lengths = ref_lengths = 0
    last = None
    for references, hypothesis in zip(list_of_references, hypotheses, strict=False):
        hyp = as_tokens(hypothesis)
        refs = [as_tokens(ref) for ref in references]
        if n:
            matches, totals = match_counts(refs, hyp, n, ignore)[0]
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
    weights: Weights | Sequence[Weights] = DEFAULT_WEIGHTS,
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
    hyp = as_tokens(hypothesis)
    refs = [as_tokens(ref) for ref in references]
    hyp_len = len(hyp)
    ref_len = closest_ref_length(refs, hyp_len)
    if n:
        nums, dens = match_counts(refs, hyp, n, ignore_set(ignoring))[0]
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
