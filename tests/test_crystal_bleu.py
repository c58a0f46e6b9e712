"""Tests of crystal's BLEU and CrystalBLEU: by hand, and against NLTK and crystalbleu 0.2.

NLTK and crystalbleu are the reference implementations; every comparison is to 1e-9.
"""

from __future__ import annotations

import logging
import math
import pickle
import random
import threading
import warnings
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crystal
from crystal import (
    CrystalBLEU,
    NgramSet,
    SegmentStats,
    _fast,
    bleu_from_stats,
    build_ngram_set,
    corpus_bleu,
    read_corpus,
    segment_stats,
    sentence_bleu,
    tokenize,
)
from crystal.counting import python_match_counts

crystalbleu = pytest.importorskip("crystalbleu")
nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
SmoothingFunction = nltk_bleu.SmoothingFunction

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
CODEXGLUE = DATASETS / "codexglue_code2code_trans"
MODEL = CODEXGLUE / "model_outputs"
needs_codexglue = pytest.mark.skipif(
    not (MODEL / "java-cs-model1.output").is_file(),
    reason=f"CodeXGLUE data not found at {CODEXGLUE} (shared datasets are optional)",
)

TOL = 1e-9
METHODS = [f"method{i}" for i in range(8)]


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a reference implementation without its warnings; None if it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kwargs)
        except (ValueError, AssertionError, ZeroDivisionError, IndexError, TypeError):
            return None


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL


T = tokenize
SNIPPET_PAIRS: list[tuple[list[list[str]], list[str]]] = [
    # identical
    ([T("public int Size() { return count; }")], T("public int Size() { return count; }")),
    # one identifier differs
    ([T("public int Size() { return count; }")], T("public int Count() { return count; }")),
    # reordered statements, long enough for the compiled path
    (
        [T("int a = 0; int b = 1; for (int i = 0; i < n; i++) { a += i; b *= i; } return a + b;")],
        T("int b = 1; int a = 0; for (int i = 0; i < n; ++i) { b *= i; a += i; } return b + a;"),
    ),
    # repeated tokens: clipping
    ([T("x = x + x;")], T("x x x x x x x")),
    ([T("f(a, b); f(a, b); g(c);")], T("f(a, b); f(a, b); f(a, b); f(a, b);")),
    # short hypotheses (fewer tokens than orders)
    ([T("return x;")], T("return")),
    ([T("return x;")], T("return x")),
    ([T("a")], T("a")),
    # nothing in common
    ([T("alpha beta gamma")], T("delta epsilon")),
    # empty hypothesis / empty reference
    ([T("return x;")], []),
    ([[]], T("return x;")),
    # multiple references, different lengths
    (
        [T("if (x == null) return;"), T("if (x is null) { return; }"), T("return;")],
        T("if (x == null) { return; }"),
    ),
    (
        [T("s.Append(a).Append(b);"), T("s.append(a); s.append(b);")],
        T("s.Append(a); s.Append(b); s.Append(c);"),
    ),
    # long pair with many duplicates (compiled path, multiple references)
    (
        [
            T("for (int i = 0; i < n; i++) { sum += a[i] * b[i]; } return sum;"),
            T("int sum = 0; for (int j = 0; j < n; j++) sum += a[j] * b[j]; return sum;"),
        ],
        T("int sum = 0; for (int i = 0; i < n; i++) { sum += a[i] * b[i]; } return sum;"),
    ),
]
IGNORE = {("(",), (")",), (";",), ("{",), ("}",), ("(", ")"), (")", ";"), ("return",), ("=",)}
IGNORE |= {(")", "{"), ("int",), ("x",), ("a", ","), ("(", ")", ";")}

NLTK_REF1 = (
    "It is a guide to action that ensures that the military will forever heed Party commands"
)
NLTK_REF2 = (
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party"
)
NLTK_REF3 = "It is the practical guide for the army always to heed the directions of the party"
NLTK_HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
NLTK_HYP3 = "he read the book because he was interested in world history"
NLTK_REF4 = "he was interested in world history because he read the book"
NLTK_HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"


# ----------------------------------------------------------------------------- by hand


def test_nltk_documented_examples() -> None:
    refs = [NLTK_REF1.split(), NLTK_REF2.split(), NLTK_REF3.split()]
    assert round(sentence_bleu(refs, NLTK_HYP1.split()), 4) == 0.5046
    assert sentence_bleu(refs, NLTK_HYP2.split()) < 1e-100  # no 3- and 4-gram overlap
    chencherry = SmoothingFunction()
    got = sentence_bleu(refs, NLTK_HYP2.split(), smoothing_function=chencherry.method1)
    assert round(got, 4) == 0.0370
    assert round(sentence_bleu(refs, NLTK_HYP1.split(), (0.2,) * 5), 4) == 0.3920
    hyp2 = NLTK_HYP3.split()
    ref2 = NLTK_REF4.split()
    assert round(corpus_bleu([refs, [ref2]], [NLTK_HYP1.split(), hyp2]), 4) == 0.5921


def test_hand_computed_bleu() -> None:
    # p1 = 3/4, p2 = 2/3, p3 = 1/2, p4 = 0 -> method1 with epsilon 0.1: 0.1 / 1.
    ref, hyp = ["a", "b", "c", "d"], ["a", "b", "c", "e"]
    expected = math.exp(0.25 * math.log(0.75 * (2 / 3) * 0.5 * 0.1))
    assert close(sentence_bleu([ref], hyp, smoothing_function="method1"), expected)
    sm = SmoothingFunction(epsilon=1e-4).method1
    expected = math.exp(0.25 * math.log(0.75 * (2 / 3) * 0.5 * 1e-4))
    assert close(sentence_bleu([ref], hyp, smoothing_function=sm), expected)
    # Brevity penalty: 3 of 6 tokens, all matching -> exp(1 - 6/3).
    got = sentence_bleu([list("abcdef")], list("abc"), weights=(1.0,))
    assert close(got, math.exp(-1.0))


def test_hand_computed_crystalbleu() -> None:
    ref, hyp = T("f(x);"), T("f(y);")
    # Ignoring "(" ")" ";" leaves f, x / f, y: p1 = 1/2. Bigrams are kept: (f,() and (),;)
    # match, ((,y) and (y,)) do not: p2 = 2/4.
    ignore = {("(",), (")",), (";",)}
    s = segment_stats([ref], hyp, max_n=2, ignoring=ignore)
    assert s.matches == (1.0, 2.0) and s.totals == (2.0, 4.0)
    got = sentence_bleu([ref], hyp, weights=(0.5, 0.5), ignoring=ignore)
    assert close(got, 0.5)
    # Ignoring the bigrams too: p2 = 0 -> method1's epsilon.
    ignore |= {("f", "("), (")", ";")}
    got = sentence_bleu(
        [ref], hyp, weights=(0.5, 0.5), smoothing_function="method1", ignoring=ignore
    )
    assert close(got, math.sqrt(0.5 * 0.1 / 2))


def test_always_a_float_where_references_return_int_zero() -> None:
    everything = {("a",), ("b",), ("a", "b")}
    assert quiet(crystalbleu.sentence_bleu, [["a", "b"]], ["a", "b"], ignoring=everything) == 0
    got = sentence_bleu([["a", "b"]], ["a", "b"], ignoring=everything)
    assert got == 0.0 and isinstance(got, float)
    got = corpus_bleu([[["x"]]], [["y"]])
    assert got == 0.0 and isinstance(got, float)
    got = sentence_bleu([["x"]], ["y"], weights=[(0.5, 0.5), (1.0,)])
    assert got == [0.0, 0.0] and all(isinstance(g, float) for g in got)


def test_no_warnings_printed(caplog: pytest.LogCaptureFixture) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = sentence_bleu([T("a b c d e")], T("a b x y z"))  # method0 with zero overlaps
    assert 0 < got < 1e-100


# ------------------------------------------------------------------------ vs NLTK, crystalbleu


def _smoothers(**params: float) -> list[Any]:
    nltk_sf = SmoothingFunction(**params)
    return [getattr(nltk_sf, m) for m in METHODS]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("with_ignore", [False, True])
def test_snippets_sentence_level_vs_crystalbleu(method: str, with_ignore: bool) -> None:
    ignore = IGNORE if with_ignore else None
    cb_sf = getattr(crystalbleu.SmoothingFunction(), method)
    nltk_sf = getattr(SmoothingFunction(), method)
    for refs, hyp in SNIPPET_PAIRS:
        ours = sentence_bleu(refs, hyp, smoothing_function=cb_sf, ignoring=ignore)
        assert isinstance(ours, float)
        theirs = quiet(
            crystalbleu.sentence_bleu, refs, hyp, smoothing_function=cb_sf, ignoring=ignore
        )
        if theirs is not None:
            assert close(ours, theirs), (method, refs, hyp, ours, theirs)
        # NLTK's own methods give the same as crystalbleu's (with nothing ignored).
        assert close(ours, sentence_bleu(refs, hyp, smoothing_function=nltk_sf, ignoring=ignore))
        if not with_ignore:
            reference = quiet(nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=nltk_sf)
            if reference is not None:
                assert close(ours, reference), (method, refs, hyp, ours, reference)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("with_ignore", [False, True])
def test_snippets_corpus_level_vs_crystalbleu(method: str, with_ignore: bool) -> None:
    ignore = IGNORE if with_ignore else None
    sf = getattr(crystalbleu.SmoothingFunction(epsilon=1e-4), method)
    refs = [r for r, _ in SNIPPET_PAIRS]
    hyps = [h for _, h in SNIPPET_PAIRS]
    for order in (refs, refs[::-1]):
        hyp_order = hyps if order is refs else hyps[::-1]
        ours = corpus_bleu(order, hyp_order, smoothing_function=sf, ignoring=ignore)
        theirs = quiet(
            crystalbleu.corpus_bleu, order, hyp_order, smoothing_function=sf, ignoring=ignore
        )
        assert theirs is not None
        assert close(ours, theirs), (method, ours, theirs)


def test_smoothing_parameters_are_read_from_the_smoothing_object() -> None:
    refs, hyp = SNIPPET_PAIRS[1]
    for params in ({"epsilon": 1e-4}, {"alpha": 2}, {"k": 3}, {"epsilon": 0.5, "alpha": 9, "k": 1}):
        for ours_sf, nltk_sf in zip(_smoothers(**params), _smoothers(**params), strict=True):
            reference = quiet(nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=nltk_sf)
            if reference is not None:
                assert close(sentence_bleu(refs, hyp, smoothing_function=ours_sf), reference)


def test_smoothing_by_name_and_custom_callable() -> None:
    refs, hyp = SNIPPET_PAIRS[2]
    for method in METHODS:
        by_name = sentence_bleu(refs, hyp, smoothing_function=method)
        by_method = sentence_bleu(
            refs, hyp, smoothing_function=getattr(SmoothingFunction(), method)
        )
        assert close(by_name, by_method)

    def custom(p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        # Seen by NLTK and by us with NLTK's unnormalized fractions.
        return [(p.numerator + 0.5) / p.denominator if p.numerator == 0 else p for p in p_n]

    ours = sentence_bleu(refs, T("int zz = 1;"), smoothing_function=custom)
    theirs = quiet(nltk_bleu.sentence_bleu, refs, T("int zz = 1;"), smoothing_function=custom)
    assert close(ours, theirs)

    class MySmoothing(SmoothingFunction):
        def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
            return [0.5 if p.numerator == 0 else p for p in p_n]

    sf = MySmoothing().method1
    got = sentence_bleu(refs, T("int zz = 1;"), smoothing_function=sf)
    assert close(got, quiet(nltk_bleu.sentence_bleu, refs, T("int zz = 1;"), smoothing_function=sf))
    with pytest.raises(ValueError, match="unknown smoothing"):
        sentence_bleu(refs, hyp, smoothing_function="method9")


@pytest.mark.parametrize(
    "weights",
    [
        (0.5, 0.5),
        (1.0,),
        (0.1, 0.2, 0.3, 0.4),
        (0.2,) * 5,
        (1 / 3, 1 / 3, 1 / 3),
        [0.25] * 4,
        (1, 0),
    ],
)
def test_weights_vs_nltk(weights: Any) -> None:
    sf = SmoothingFunction().method1
    for refs, hyp in SNIPPET_PAIRS:
        reference = quiet(nltk_bleu.sentence_bleu, refs, hyp, weights, smoothing_function=sf)
        assert close(sentence_bleu(refs, hyp, weights, smoothing_function=sf), reference)
    refs = [r for r, _ in SNIPPET_PAIRS]
    hyps = [h for _, h in SNIPPET_PAIRS]
    reference = quiet(nltk_bleu.corpus_bleu, refs, hyps, weights, smoothing_function=sf)
    assert close(corpus_bleu(refs, hyps, weights, smoothing_function=sf), reference)


def test_list_of_weights_returns_a_list_like_nltk() -> None:
    weights = [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4]
    sf = SmoothingFunction().method2
    for refs, hyp in SNIPPET_PAIRS:
        ours = sentence_bleu(refs, hyp, weights, smoothing_function=sf)
        reference = quiet(nltk_bleu.sentence_bleu, refs, hyp, weights, smoothing_function=sf)
        assert isinstance(ours, list) and len(ours) == 3
        if reference != 0:
            assert all(close(a, b) for a, b in zip(ours, reference, strict=True))


def test_auto_reweigh_vs_nltk() -> None:
    for refs, hyp in SNIPPET_PAIRS + [([["a", "b"]], ["a", "b"]), ([["a", "b", "c"]], ["a", "c"])]:
        for method in ("method0", "method1", "method3"):
            sf = getattr(SmoothingFunction(), method)
            reference = quiet(
                nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=sf, auto_reweigh=True
            )
            ours = sentence_bleu(refs, hyp, smoothing_function=sf, auto_reweigh=True)
            assert close(ours, reference), (refs, hyp, method)
    assert corpus_bleu([], [], auto_reweigh=True) == 0.0  # crystalbleu: ZeroDivisionError


def test_where_crystalbleu_raises_we_follow_nltk() -> None:
    # method4 on a one-token hypothesis: crystalbleu takes log(0); NLTK skips that order.
    refs, hyp = [["a", "b"]], ["a"]
    sf = crystalbleu.SmoothingFunction().method4
    assert quiet(crystalbleu.sentence_bleu, refs, hyp, smoothing_function=sf) is None
    nltk_sf = SmoothingFunction().method4
    assert close(
        sentence_bleu(refs, hyp, smoothing_function=sf),
        quiet(nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=nltk_sf),
    )
    # method6 with no trigram overlap: both assert; we interpolate as usual.
    sf6 = crystalbleu.SmoothingFunction().method6
    refs, hyp = [T("a b c d e")], T("a b x y z")
    assert quiet(crystalbleu.sentence_bleu, refs, hyp, smoothing_function=sf6) is None
    got = sentence_bleu(refs, hyp, smoothing_function=sf6)
    assert isinstance(got, float) and got > 0


@pytest.mark.parametrize(
    "make",
    [set, frozenset, list, tuple, lambda s: dict.fromkeys(s, 7), lambda s: Counter(s)],
)
def test_ignoring_container_types(make: Any) -> None:
    sf = SmoothingFunction(epsilon=1e-4).method1
    for refs, hyp in SNIPPET_PAIRS:
        expected = quiet(
            crystalbleu.sentence_bleu, refs, hyp, smoothing_function=sf, ignoring=IGNORE
        )
        ours = sentence_bleu(refs, hyp, smoothing_function=sf, ignoring=make(IGNORE))
        assert close(ours, expected)


@pytest.mark.parametrize("kind", [dict, set, list])
def test_an_ignoring_collection_reused_across_calls_follows_its_mutations(kind: Any) -> None:
    # crystalbleu's own usage passes the same collection on every call: its conversion is
    # cached by identity, and a mutation between calls (same size) must not be served stale.
    sf = SmoothingFunction(epsilon=1e-4).method1
    refs, hyp = [T("f ( x ) ; g ( y ) ;")], T("f ( x ) ; h ( y ) ;")
    grams = [("f",), ("(",), (")",)]
    ignoring = dict.fromkeys(grams, 1) if kind is dict else kind(grams)

    def ours() -> float:
        return sentence_bleu(refs, hyp, smoothing_function=sf, ignoring=ignoring)

    def theirs(current: Any) -> float:
        return quiet(crystalbleu.sentence_bleu, refs, hyp, smoothing_function=sf, ignoring=current)

    before = ours()
    assert ours() == before and close(before, theirs(set(grams)))
    if kind is dict:
        del ignoring[("(",)]
        ignoring[("h",)] = 1
    elif kind is set:
        ignoring.discard(("(",))
        ignoring.add(("h",))
    else:
        ignoring[1] = ("h",)
    after = ours()
    expected = theirs({("f",), ("h",), (")",)})
    assert close(after, expected) and not close(after, before)
    assert after == sentence_bleu(
        refs, hyp, smoothing_function=sf, ignoring=frozenset({("f",), ("h",), (")",)})
    )


def test_ignoring_ngramset_and_odd_members(caplog: pytest.LogCaptureFixture) -> None:
    refs, hyp = SNIPPET_PAIRS[2]
    ngram_set = NgramSet(dict.fromkeys(IGNORE, 3), k=len(IGNORE))
    assert sentence_bleu(refs, hyp, ignoring=ngram_set) == sentence_bleu(refs, hyp, ignoring=IGNORE)
    # Lists inside a list can never equal a tuple n-gram (as in crystalbleu): ignored silently.
    odd = [["("], [")"], ("x",)]
    assert sentence_bleu(refs, hyp, ignoring=odd) == sentence_bleu(refs, hyp, ignoring={("x",)})
    # Strings instead of tuples (crystalbleu's README mistake): nothing ignored, and a warning.
    with caplog.at_level(logging.WARNING, logger="crystal.bleu"):
        got = sentence_bleu(refs, hyp, ignoring={"(", ")", "unique-marker-1"})
    assert got == sentence_bleu(refs, hyp)
    assert "no tuples" in caplog.text
    with pytest.raises(TypeError, match="not a string"):
        sentence_bleu(refs, hyp, ignoring="()")


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="2 hypotheses but 1"):
        corpus_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(ValueError, match="at least one reference"):
        sentence_bleu([], ["a"])
    with pytest.raises(TypeError, match="tokenize it first"):
        sentence_bleu([["a"]], "a b")
    with pytest.raises(ValueError):
        segment_stats([["a"]], ["a"], max_n=0)


# ----------------------------------------------------------------------------- fast path


TOKENS = st.lists(st.sampled_from(list("abcdefg") + ["(", ")", ";"]), max_size=70)


@settings(max_examples=300, deadline=None)
@given(
    hyp=TOKENS,
    refs=st.lists(TOKENS, min_size=1, max_size=3),
    max_n=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    ignore_fraction=st.sampled_from([0.0, 0.1, 0.5]),
)
def test_compiled_path_equals_python_path(
    hyp: list[str], refs: list[list[str]], max_n: int, seed: int, ignore_fraction: float
) -> None:
    rng = random.Random(seed)
    grams = sorted(
        {
            tuple(s[i : i + n])
            for s in [hyp, *refs]
            for n in range(1, max_n + 1)
            for i in range(len(s) - n + 1)
        }
    )
    ignore = frozenset(g for g in grams if rng.random() < ignore_fraction) or None
    fast = _fast.FastCounter(ignore).counts(refs, hyp, max_n)
    assert fast is not None
    assert list(fast[0]) == python_match_counts(refs, hyp, max_n, ignore, None)[0]
    assert list(fast[1]) == python_match_counts(refs, hyp, max_n, ignore, None)[1]
    # an exact match: only the hypothesis is encoded, and every n-gram of it is matched
    with_hyp = [*refs, list(hyp)]
    fast = _fast.FastCounter(ignore).counts(with_hyp, hyp, max_n, exact=True)
    assert fast is not None
    assert [list(x) for x in fast] == [
        list(x) for x in python_match_counts(with_hyp, hyp, max_n, ignore, None)
    ]


def test_compiled_path_vocabulary_resets_and_oversized_pairs() -> None:
    rng = random.Random(1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_fast, "LIMIT", 200)
        counter = _fast.FastCounter(frozenset({("a",), ("a", "b")}))
        for _ in range(300):
            vocab = [f"t{rng.randrange(400)}" for _ in range(8)] + ["a", "b"]
            hyp = [rng.choice(vocab) for _ in range(rng.randrange(30))]
            ref = [rng.choice(vocab) for _ in range(rng.randrange(30))]
            fast = counter.counts([ref], hyp, 4)
            slow = python_match_counts([ref], hyp, 4, frozenset({("a",), ("a", "b")}), None)
            assert fast is not None and list(fast[0]) == slow[0] and list(fast[1]) == slow[1]
            assert len(counter._vocab) < 200
        # more tokens than the shared table holds: ids of the call's own, the shared table
        # left as it was, the counts exact
        shared = counter._vocab
        kept = dict(shared)
        big = [f"u{i % 290}" for i in range(600)]
        other = big[:300] + ["a", "b"] + big[250:]
        for refs, hyp in (([other], big), ([big, other], big[::-1] + ["a", "b"])):
            slow = python_match_counts(refs, hyp, 4, frozenset({("a",), ("a", "b")}), None)
            assert [list(x) for x in counter.counts(refs, hyp, 4)] == [list(x) for x in slow]
        assert counter.counts([big], big, 4, exact=True) == ([600, 599, 598, 597],) * 2
        assert counter._vocab is shared and counter._vocab == kept
        # only a pair of MAX_TOKENS or more is left to the pure-Python path
        mp.setattr(_fast, "MAX_TOKENS", len(big) + len(other) + 1)
        assert counter.counts([other], big, 4) is not None
        assert counter.counts([other], big + ["a"], 4) is None


def test_threads_share_the_fast_path_safely() -> None:
    rng = random.Random(2)
    words = [f"w{i}" for i in range(3000)] + ["(", ")", ";"]
    pairs = [
        ([[rng.choice(words) for _ in range(40)]], [rng.choice(words) for _ in range(40)])
        for _ in range(300)
    ]
    for refs, hyp in pairs[::3]:
        refs[0][5:25] = hyp[5:25]  # some overlap
    ignore = frozenset({("(",), (")",), (";",), ("w1",)})
    expected = [python_match_counts(r, h, 4, ignore, None) for r, h in pairs]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_fast, "LIMIT", 2048)  # forces vocabulary resets while threads run
        counter = _fast.FastCounter(ignore)
        barrier = threading.Barrier(4)

        def work(offset: int) -> list[tuple[list[int], list[int]]]:
            barrier.wait()
            order = pairs[offset:] + pairs[:offset]
            got = [counter.counts(r, h, 4) for r, h in order]
            return got[-offset:] + got[:-offset] if offset else got

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(work, [0, 75, 150, 225]))
    for got in results:
        assert [(list(m), list(t)) for m, t in got] == [(m, t) for m, t in expected]


def test_huge_ignore_sets_use_the_compiled_path() -> None:
    huge = {(f"t{i}",) for i in range(40_000)} | IGNORE  # more tokens than 2**15
    counter = _fast.FastCounter(frozenset(huge))
    for refs, hyp in SNIPPET_PAIRS:
        fast = counter.counts(refs, hyp, 4)
        assert fast is not None
        expected = python_match_counts(refs, hyp, 4, frozenset(huge), None)
        assert [list(x) for x in fast] == [list(x) for x in expected]
    sf = SmoothingFunction(epsilon=1e-4).method1
    for refs, hyp in SNIPPET_PAIRS:
        expected = quiet(crystalbleu.sentence_bleu, refs, hyp, smoothing_function=sf, ignoring=huge)
        assert close(sentence_bleu(refs, hyp, smoothing_function=sf, ignoring=huge), expected)


def big_pair(
    seed: int, length: int, distinct: int, rare: float
) -> tuple[list[list[str]], list[str]]:
    """A hypothesis of ``length`` code-like tokens from ``distinct`` words, a share ``rare``
    of them drawn uniformly, the others Zipf-like (a few very common), and two references:
    the hypothesis with one token in a thousand changed and a run moved, and half of its
    12-token lines shuffled."""
    rng = random.Random(seed)
    common = ["(", ")", "{", "}", ";", "=", "return", "int", "if", ".", ","]
    words = common + [f"v{i}" for i in range(distinct - len(common))]
    hyp = [words[min(int(rng.paretovariate(0.6)) - 1, len(words) - 1)]
           if rng.random() >= rare else rng.choice(words) for _ in range(length)]
    near = [rng.choice(words) if rng.random() < 0.001 else t for t in hyp]
    near = near[length // 3:] + near[: length // 3]
    lines = [hyp[i: i + 12] for i in range(0, length, 12)]
    rng.shuffle(lines)
    return [near, [t for line in lines[: len(lines) // 2] for t in line]], hyp


@pytest.mark.parametrize(("distinct", "rare"), [(600, 0.3), (200_000, 0.9)])
def test_big_pairs_are_counted_compiled_and_exactly(distinct: int, rare: float) -> None:
    # over 2**15 tokens (the size the compiled counter once gave up at), with a vocabulary
    # far under and over 2**15 distinct tokens
    refs, hyp = big_pair(distinct, 45_000, distinct, rare)
    seen = {t for side in (*refs, hyp) for t in side}
    assert len(hyp) > 2**15 and (len(seen) > 2**15) == (distinct > 2**15)
    grams = Counter(g for n in range(1, 5) for g in crystal.ngrams.ngrams(hyp, n))
    ignore = frozenset(g for g, _ in grams.most_common(300)) | {("absent", "(")}
    for ig in (None, ignore):
        fast = _fast.FastCounter(ig).counts_with_plain(refs, hyp, 4)
        assert fast is not None
        assert [list(x) for x in fast[0]] == [
            list(x) for x in python_match_counts(refs, hyp, 4, ig, None)
        ]
        assert [list(x) for x in fast[1]] == [
            list(x) for x in python_match_counts(refs, hyp, 4, None, None)
        ]
        exact = _fast.FastCounter(ig).counts([*refs, hyp], hyp, 4, exact=True)
        assert exact is not None and exact[0] == exact[1]  # every n-gram matched
        assert exact == tuple(python_match_counts([hyp], hyp, 4, ig, None))
    sf = SmoothingFunction(epsilon=1e-4).method1
    expected = quiet(nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=sf)
    assert close(sentence_bleu(refs, hyp, smoothing_function=sf), expected)
    expected = quiet(crystalbleu.sentence_bleu, refs, hyp, smoothing_function=sf,
                     ignoring=dict.fromkeys(ignore, 1))
    assert close(sentence_bleu(refs, hyp, smoothing_function=sf, ignoring=ignore), expected)


def test_segment_stats_alone_counts_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # CrystalBLEU's statistics alone: BLEU's plain ones are neither asked of the compiled
    # counter nor counted again after the weighted pure-Python count
    asked = []
    real = _fast.FastCounter.counts_with_plain
    monkeypatch.setattr(_fast.FastCounter, "counts_with_plain",
                        lambda self, *a, **k: asked.append(k["plain"]) or real(self, *a, **k))
    refs, hyp = SNIPPET_PAIRS[2]
    ignore = frozenset({("(",), (")",)})
    weights = {("(",): 0.5}
    stats = segment_stats(refs, hyp, ignoring=ignore)
    assert asked == [False]
    assert stats == crystal.segment_stats_with_plain(refs, hyp, 4, ignore)[0]
    assert asked == [False, True]
    weighted = segment_stats(refs, hyp, ignoring=ignore, weighting=weights)
    assert asked == [False, True]  # the pure-Python path, once
    both = crystal.segment_stats_with_plain(refs, hyp, 4, ignore, weights)
    assert asked == [False, True, False]  # the plain statistics, when asked for
    assert both[0] == weighted and both[1] == segment_stats(refs, hyp)


def test_orders_above_four_use_the_python_path() -> None:
    refs, hyp = SNIPPET_PAIRS[13]
    weights = (1 / 6,) * 6
    sf = SmoothingFunction().method1
    reference = quiet(nltk_bleu.sentence_bleu, refs, hyp, weights, smoothing_function=sf)
    assert close(sentence_bleu(refs, hyp, weights, smoothing_function=sf), reference)


# ----------------------------------------------------------------------------- statistics


def test_segment_stats_add_and_sum() -> None:
    a = segment_stats([T("a b c")], T("a b d"), max_n=2)
    b = segment_stats([T("x")], T("x"), max_n=2)
    assert a.matches == (2.0, 1.0) and a.totals == (3.0, 2.0) and a.zero_totals == (0, 0)
    assert b.zero_totals == (0, 1) and b.exact == 1 and b.denominators == (1.0, 1.0)
    total = sum([a, b])
    assert total == a + b
    assert total.matches == (3.0, 1.0) and total.totals == (4.0, 2.0)
    assert total.denominators == (4.0, 3.0) and total.segments == 2 and total.exact == 1
    assert total.hyp_len == 4 and total.ref_len == 4 and total.max_n == 2
    assert total.as_dict()["zero_totals"] == [0, 1]
    with pytest.raises(ValueError, match="2 and 4 orders"):
        _ = a + segment_stats([["a"]], ["a"])
    with pytest.raises(ValueError):
        SegmentStats(1, 1, (1.0,), (1.0, 2.0))


def test_bleu_from_stats_matches_drop_ins() -> None:
    sf = SmoothingFunction(epsilon=1e-4).method1
    stats = [segment_stats(refs, hyp, ignoring=IGNORE) for refs, hyp in SNIPPET_PAIRS]
    for s, (refs, hyp) in zip(stats, SNIPPET_PAIRS, strict=True):
        expected = sentence_bleu(refs, hyp, smoothing_function=sf, ignoring=IGNORE)
        assert close(bleu_from_stats(s), expected)
    refs = [r for r, _ in SNIPPET_PAIRS]
    hyps = [h for _, h in SNIPPET_PAIRS]
    expected = corpus_bleu(refs, hyps, smoothing_function=sf, ignoring=IGNORE)
    assert close(bleu_from_stats(stats), expected)
    assert close(bleu_from_stats(sum(stats)), expected)
    for method in ("method0", "method2", "method3", "method4", "method6"):
        s = segment_stats(*SNIPPET_PAIRS[2][::1])
        expected = sentence_bleu(*SNIPPET_PAIRS[2], smoothing_function=method)
        assert close(bleu_from_stats(s, smoothing=method, epsilon=0.1), expected)
    assert bleu_from_stats([]) == 0.0


def test_bleu_from_stats_method5_needs_one_more_order() -> None:
    refs, hyp = SNIPPET_PAIRS[2]
    with pytest.raises(ValueError, match="needs statistics of 5 orders"):
        bleu_from_stats(segment_stats(refs, hyp), smoothing="method5")
    s5 = segment_stats(refs, hyp, max_n=5)
    expected = sentence_bleu(refs, hyp, smoothing_function="method5")
    assert close(bleu_from_stats(s5, smoothing="method5"), expected)
    with pytest.raises(ValueError, match="weights need 4 orders"):
        bleu_from_stats(segment_stats(refs, hyp, max_n=3))


def test_sacrebleu_smoothing_by_hand() -> None:
    s = SegmentStats(hyp_len=4, ref_len=4, matches=(3.0, 0.0, 0.0), totals=(4.0, 3.0, 2.0))
    w = (1 / 3,) * 3
    exp = math.exp(sum(math.log(p) for p in (3 / 4, 1 / (2 * 3), 1 / (4 * 2))) / 3)
    assert close(bleu_from_stats(s, w, "exp"), exp)
    floor = math.exp(sum(math.log(p) for p in (3 / 4, 0.1 / 3, 0.1 / 2)) / 3)
    assert close(bleu_from_stats(s, w, "floor"), floor)
    floor2 = math.exp(sum(math.log(p) for p in (3 / 4, 0.5 / 3, 0.5 / 2)) / 3)
    assert close(bleu_from_stats(s, w, "floor", smooth_value=0.5), floor2)
    addk = math.exp(sum(math.log(p) for p in (3 / 4, 1 / 4, 1 / 3)) / 3)
    assert close(bleu_from_stats(s, w, "add-k"), addk)
    # Effective order: a 2-token hypothesis has no 3- or 4-grams.
    short = SegmentStats(2, 2, (2.0, 1.0, 0.0, 0.0), (2.0, 1.0, 0.0, 0.0))
    assert close(bleu_from_stats(short, smoothing="exp"), 1.0)
    assert bleu_from_stats(short, smoothing="exp", effective_order=False) == 0.0


# ----------------------------------------------------------------------------- CrystalBLEU


def test_crystalbleu_equals_drop_in_with_authors_settings() -> None:
    ngram_set = build_ngram_set(
        [" ".join(" ".join(r) for r in refs) for refs, _ in SNIPPET_PAIRS], k=30
    )
    metric = CrystalBLEU(ngram_set)
    sf = SmoothingFunction(epsilon=1e-4).method1
    stats = []
    for refs, hyp in SNIPPET_PAIRS:
        score = metric.sentence_score(refs, hyp)
        s = metric.segment_stats(refs, hyp)
        stats.append(s)
        assert score == metric.score_stats(s)
        if not s.exact:
            expected = quiet(
                crystalbleu.sentence_bleu,
                refs,
                hyp,
                smoothing_function=sf,
                ignoring=dict(ngram_set.counts),
            )
            assert close(score, expected)
        assert isinstance(score, float) and 0.0 <= score <= 1.0
    refs = [r for r, _ in SNIPPET_PAIRS]
    hyps = [h for _, h in SNIPPET_PAIRS]
    expected = crystalbleu.corpus_bleu(
        refs, hyps, smoothing_function=sf, ignoring=dict(ngram_set.counts)
    )
    assert close(metric.corpus_score(stats), expected)
    plain = CrystalBLEU()
    plain_stats = [plain.segment_stats(r, h) for r, h in zip(refs, hyps, strict=True)]
    assert close(plain.corpus_score(plain_stats), corpus_bleu(refs, hyps, smoothing_function=sf))


def test_crystalbleu_edge_cases() -> None:
    tokens = T("return ( ) ;")
    everything = build_ngram_set([" ".join(tokens)] * 3, k=100)  # every n-gram of it
    metric = CrystalBLEU(everything)
    # Exact match scores 1.0 even when every n-gram is trivially shared.
    assert metric.sentence_score([tokens], tokens) == 1.0
    assert quiet(crystalbleu.sentence_bleu, [tokens], tokens, ignoring=dict(everything.counts)) == 0
    # Exact match with any of several references.
    assert metric.sentence_score([T("x"), tokens], tokens) == 1.0
    # Both empty: 1.0. One side empty: 0.0.
    assert metric.sentence_score([[]], []) == 1.0
    assert metric.sentence_score([tokens], []) == 0.0
    assert metric.sentence_score([[]], tokens) == 0.0
    # Nothing countable left after ignoring, not an exact match: 0.0, a float.
    got = metric.sentence_score([tokens + ["x"]], tokens)
    assert got == 0.0 and isinstance(got, float)
    # Corpus: all exact -> 1.0; empty -> 0.0.
    assert metric.corpus_score([metric.segment_stats([tokens], tokens)] * 3) == 1.0
    assert metric.corpus_score([]) == 0.0
    mixed = [metric.segment_stats([tokens], tokens), metric.segment_stats([T("a b")], T("a c"))]
    assert 0.0 < metric.corpus_score(mixed) < 1.0
    # Text convenience.
    assert metric.score_text("return ( ) ;", "return();") == 1.0
    assert metric.score_text(["x", "return();"], "return  ( ) ;") == 1.0


def test_crystalbleu_scores_stay_in_unit_interval_with_method5() -> None:
    # Every n-gram of the hypothesis is in the first reference; the second sets the length.
    refs, hyp = [T("a b c d e f g h x"), T("z z z z z z z z")], T("a b c d e f g h")
    raw = sentence_bleu(refs, hyp, smoothing_function="method5")
    assert raw > 1.0  # NLTK's method5 can exceed 1
    metric = CrystalBLEU(smoothing="method5")
    assert metric.sentence_score(refs, hyp) == 1.0
    assert metric.segment_stats(refs, hyp).max_n == 5


def test_log_weight_variant_by_hand() -> None:
    counts = {("a",): 100, ("(",): 2}
    metric = CrystalBLEU(counts, variant="log-weight", max_n=1, tokenizer="whitespace")
    w = 1 / math.log(100)
    # hyp a b vs ref a c: matches w, totals w + 1; "(" (count 2 < e) keeps weight 1.
    assert close(metric.sentence_score([["a", "c"]], ["a", "b"]), w / (w + 1))
    assert close(metric.sentence_score([["(", "c"]], ["(", "b"]), 0.5)
    s = metric.segment_stats([["a", "c"]], ["a", "a", "b"])
    assert close(s.matches[0], w) and close(s.totals[0], 2 * w + 1)
    ngram_set = NgramSet(counts, k=2, max_n=1, tokenizer="whitespace")
    same = CrystalBLEU(ngram_set, variant="log-weight", max_n=1, tokenizer="whitespace")
    assert same.sentence_score([["a", "c"]], ["a", "b"]) == metric.sentence_score(
        [["a", "c"]], ["a", "b"]
    )
    with pytest.raises(ValueError, match="needs corpus counts"):
        CrystalBLEU(frozenset(counts), variant="log-weight", tokenizer="whitespace")


def test_log_weight_variant_on_snippets() -> None:
    ngram_set = build_ngram_set([" ".join(r[0]) for r, _ in SNIPPET_PAIRS], k=40)
    ignore = CrystalBLEU(ngram_set)
    log_weight = CrystalBLEU(ngram_set, variant="log-weight")
    plain = CrystalBLEU()
    for refs, hyp in SNIPPET_PAIRS:
        for metric in (ignore, log_weight, plain):
            score = metric.sentence_score(refs, hyp)
            assert 0.0 <= score <= 1.0
        s = log_weight.segment_stats(refs, hyp)
        p = plain.segment_stats(refs, hyp)
        assert all(a <= b + TOL for a, b in zip(s.totals, p.totals, strict=True))


def test_crystalbleu_pickles() -> None:
    refs, hyp = SNIPPET_PAIRS[2]
    for metric in (
        CrystalBLEU(NgramSet(dict.fromkeys(IGNORE, 9), k=20)),
        CrystalBLEU(dict.fromkeys(IGNORE, 9), variant="log-weight"),
        CrystalBLEU(smoothing="method5"),
    ):
        back = pickle.loads(pickle.dumps(metric))
        assert back == metric
        assert back.sentence_score(refs, hyp) == metric.sentence_score(refs, hyp)
        assert back.signature() == metric.signature()


def test_crystalbleu_configuration_errors() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        CrystalBLEU(variant="drop")
    with pytest.raises(ValueError, match="unknown smoothing"):
        CrystalBLEU(smoothing="laplace")
    with pytest.raises(ValueError, match="unknown tokenizer"):
        CrystalBLEU(tokenizer="nope")
    with pytest.raises(ValueError, match="max_n"):
        CrystalBLEU(max_n=0)
    with pytest.raises(ValueError, match="epsilon"):
        CrystalBLEU(epsilon=0)
    with pytest.raises(ValueError, match="built with tokenizer 'whitespace'"):
        CrystalBLEU(NgramSet({("a",): 1}, k=1, tokenizer="whitespace"))
    with pytest.raises(TypeError):
        CrystalBLEU(42)  # type: ignore[arg-type]


def test_signature() -> None:
    ngram_set = NgramSet({("(",): 10, (")",): 9}, k=500, max_n=4)
    sig = CrystalBLEU(ngram_set).signature()
    assert sig == {
        "metric": "crystalbleu",
        "tokenizer": "code",
        "k": 500,
        "max_n": 4,
        "ngrams_hash": ngram_set.content_hash,
        "variant": "ignore",
        "smoothing": "method1",
        "epsilon": 1e-4,
        "smooth_value": None,
    }
    bare = CrystalBLEU(frozenset(ngram_set.ngrams)).signature()
    assert bare["k"] == 2 and bare["ngrams_hash"].startswith("sha256:")
    assert bare["ngrams_hash"] == CrystalBLEU(set(ngram_set.ngrams)).signature()["ngrams_hash"]
    plain = CrystalBLEU(smoothing="floor", smooth_value=0.2).signature()
    assert plain["metric"] == "bleu" and plain["ngrams_hash"] is None and plain["k"] == 0
    assert plain["smooth_value"] == 0.2 and plain["epsilon"] is None


def test_exports() -> None:
    names = [
        "tokenize",
        "register_tokenizer",
        "NgramSet",
        "build_ngram_set",
        "read_corpus",
        "sentence_bleu",
        "corpus_bleu",
        "SegmentStats",
        "segment_stats",
        "bleu_from_stats",
        "CrystalBLEU",
    ]
    for name in names:
        assert hasattr(crystal, name) and name in crystal.__all__


# ----------------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def codexglue() -> tuple[list[list[str]], list[list[str]], NgramSet]:
    if not (MODEL / "java-cs-model1.output").is_file():
        pytest.skip(f"CodeXGLUE data not found at {CODEXGLUE} (shared datasets are optional)")
    hyps = [tokenize(line) for line in read_corpus(MODEL / "java-cs-model1.output")]
    golds = [tokenize(line) for line in read_corpus(MODEL / "java-cs-model1.gold")]
    assert len(hyps) == len(golds) == 1000
    ngram_set = build_ngram_set(read_corpus(CODEXGLUE / "train.java-cs.txt.cs"), k=500)
    return hyps, golds, ngram_set


@needs_codexglue
@pytest.mark.parametrize("method", METHODS)
def test_codexglue_sentence_level(codexglue: Any, method: str) -> None:
    hyps, golds, ngram_set = codexglue
    ignore = dict(ngram_set.counts)
    sf = getattr(crystalbleu.SmoothingFunction(epsilon=1e-4), method)
    nltk_sf = getattr(SmoothingFunction(epsilon=1e-4), method)
    compared = 0
    for hyp, gold in list(zip(hyps, golds, strict=True))[:250]:
        for ig in (ignore, None):
            ours = sentence_bleu([gold], hyp, smoothing_function=sf, ignoring=ig)
            theirs = quiet(
                crystalbleu.sentence_bleu, [gold], hyp, smoothing_function=sf, ignoring=ig
            )
            if theirs is not None:
                assert close(ours, theirs), (method, ig is None, ours, theirs)
                compared += 1
        reference = quiet(nltk_bleu.sentence_bleu, [gold], hyp, smoothing_function=nltk_sf)
        if reference is not None:
            assert close(sentence_bleu([gold], hyp, smoothing_function=nltk_sf), reference)
    assert compared > 450


@needs_codexglue
@pytest.mark.parametrize("method", METHODS)
def test_codexglue_corpus_level(codexglue: Any, method: str) -> None:
    hyps, golds, ngram_set = codexglue
    refs = [[g] for g in golds]
    sf = getattr(crystalbleu.SmoothingFunction(epsilon=1e-4), method)
    for ig in (ngram_set.ngrams, None):
        ours = corpus_bleu(refs, hyps, smoothing_function=sf, ignoring=ig)
        theirs = quiet(crystalbleu.corpus_bleu, refs, hyps, smoothing_function=sf, ignoring=ig)
        assert close(ours, theirs), (method, ours, theirs)


@needs_codexglue
def test_codexglue_multiple_references_and_product_metric(codexglue: Any) -> None:
    hyps, golds, ngram_set = codexglue
    sf = crystalbleu.SmoothingFunction(epsilon=1e-4).method1
    ignore = dict(ngram_set.counts)
    metric = CrystalBLEU(ngram_set)
    stats = []
    for i in range(0, 300):
        refs = [golds[i], golds[(i + 1) % len(golds)]]
        ours = sentence_bleu(refs, hyps[i], smoothing_function=sf, ignoring=ngram_set)
        theirs = crystalbleu.sentence_bleu(refs, hyps[i], smoothing_function=sf, ignoring=ignore)
        assert close(ours, theirs)
        s = metric.segment_stats(refs, hyps[i])
        stats.append(s)
        if not s.exact:
            assert close(metric.sentence_score(refs, hyps[i]), theirs)
    all_refs = [[golds[i], golds[(i + 1) % len(golds)]] for i in range(300)]
    theirs = crystalbleu.corpus_bleu(all_refs, hyps[:300], smoothing_function=sf, ignoring=ignore)
    assert close(metric.corpus_score(stats), theirs)


@settings(max_examples=200, deadline=None)
@given(
    hyp=TOKENS,
    refs=st.lists(TOKENS, min_size=1, max_size=3),
    max_n=st.integers(1, 5),
    ignore_fraction=st.sampled_from([0.0, 0.3]),
    seed=st.integers(0, 2**32 - 1),
)
def test_one_count_for_crystalbleu_and_bleu_equals_two(
    hyp: list[str], refs: list[list[str]], max_n: int, ignore_fraction: float, seed: int
) -> None:
    # max_n = 5 takes the pure-Python path; an exact match only encodes the hypothesis
    rng = random.Random(seed)
    if rng.random() < 0.3:
        refs = [*refs, list(hyp)]
    grams = sorted({tuple(s[i : i + n]) for s in [hyp, *refs] for n in (1, 2)
                    for i in range(len(s) - n + 1)})
    ignore = frozenset(g for g in grams if rng.random() < ignore_fraction)
    both = crystal.segment_stats_with_plain(refs, hyp, max_n, ignoring=ignore)
    assert both == (
        crystal.segment_stats(refs, hyp, max_n, ignoring=ignore),
        crystal.segment_stats(refs, hyp, max_n),
    )
    assert crystal.segment_stats_with_plain(refs, hyp, max_n, ignore, plain=False)[1] is None
    counts = {g: 1 + rng.randrange(50) for g in grams}
    for metric in (CrystalBLEU(counts), CrystalBLEU(counts, variant="log-weight"),
                   CrystalBLEU(counts, smoothing="method5")):
        plain = CrystalBLEU(smoothing=metric.smoothing)
        assert metric.segment_stats_with_bleu(refs, hyp) == (
            metric.segment_stats(refs, hyp), plain.segment_stats(refs, hyp))
