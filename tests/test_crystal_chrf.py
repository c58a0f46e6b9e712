"""crystal's chrF against sacrebleu's (the oracle), to 1e-9, and by hand."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics import CHRF

from crystal import chrf_matrix, chrf_statistics, sentence_chrf

ALPHABET = "ab c(d)=;x_1\t\n"
WIDE = "é中😀"  # beyond the packed range: counted the plain way


def texts(seed: int, count: int, alphabet: str) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
            for _ in range(count)]


@pytest.mark.parametrize("beta", [1.0, 2.0, 3.0])
@pytest.mark.parametrize("alphabet", [ALPHABET, ALPHABET + WIDE])
def test_matches_sacrebleu(beta, alphabet):
    refs, hyps = texts(1, 30, alphabet), texts(2, 30, alphabet)
    refs += ["", " ", "return v0", "x", "return v0", refs[0] * 40]
    hyps += ["", "return  v0", "x", "xx", refs[0] * 40, refs[1] * 30 + refs[0]]
    oracle = CHRF(beta=beta)
    ours = chrf_matrix(refs, hyps, beta=beta)
    for i, r in enumerate(refs):
        for j, h in enumerate(hyps):
            assert ours[i, j] == pytest.approx(oracle.sentence_score(h, [r]).score / 100,
                                               abs=1e-9)


@pytest.mark.parametrize("alphabet", [ALPHABET, ALPHABET + WIDE])
def test_statistics_match_sacrebleu(alphabet):
    # sacrebleu's chrF at beta 0 is the averaged precision P; its F1 = 2PR / (P + R) gives
    # the averaged recall R = F1 P / (2P - F1)
    refs, hyps = texts(3, 25, alphabet), texts(4, 25, alphabet)
    refs += ["", "return v0", "ab"]
    hyps += ["", "return v0 + 1", "abc"]
    stats = chrf_statistics(refs, hyps)
    p0, f1 = CHRF(beta=0), CHRF(beta=1)
    for i, r in enumerate(refs):
        for j, h in enumerate(hyps):
            p = p0.sentence_score(h, [r]).score / 100
            f = f1.sentence_score(h, [r]).score / 100
            assert stats.precision[i, j] == pytest.approx(p, abs=1e-9)
            assert stats.recall[i, j] == pytest.approx(0.0 if f == 0 else f * p / (2 * p - f),
                                                       abs=1e-9)


def test_statistics_by_hand_and_the_f_score_is_chrf_to_the_bit():
    # ref "ab" (orders 1, 2: a b | ab), hyp "abc" (a b c | ab bc | abc): the orders both
    # have are 1 and 2; R = (2/2 + 1/1) / 2 = 1, P = (2/3 + 1/2) / 2 = 7/12
    stats = chrf_statistics(["ab", "xy"], ["abc"])
    assert stats.recall.tolist() == [[1.0], [0.0]]
    assert stats.precision[0, 0] == pytest.approx(7 / 12, abs=1e-15)
    refs, hyps = texts(5, 20, ALPHABET), texts(6, 20, ALPHABET)
    for beta in (1.0, 2.0):
        assert np.array_equal(chrf_statistics(refs, hyps).f_score(beta),
                              chrf_matrix(refs, hyps, beta=beta))


def test_by_hand():
    # "ab" vs "ab": every order both have (1, 2) matches fully
    assert sentence_chrf("ab", "a b") == 1.0
    # hyp "ab", ref "ac": order 1 P = R = 1/2, order 2 P = R = 0: averages 1/4 and 1/4,
    # F2 = 5 * 1/16 / (4/4 + 1/4) = 1/4
    assert sentence_chrf("ab", "ac") == pytest.approx(0.25)
    # hyp "a", ref "ab": only order 1 on both sides: P = 1, R = 1/2; F2 = 5 * 0.5 / 4.5
    assert sentence_chrf("a", "ab") == pytest.approx(2.5 / 4.5)
    assert sentence_chrf("", "ab") == 0.0 and sentence_chrf("", "") == 0.0


def test_beta_one_is_symmetric_and_shapes():
    a, b = texts(3, 12, ALPHABET + WIDE), texts(4, 9, ALPHABET)
    m = chrf_matrix(a, b, beta=1.0)
    assert m.shape == (12, 9)
    assert np.array_equal(m, chrf_matrix(b, a, beta=1.0).T)
    assert chrf_matrix([], b).shape == (0, 9)
    with pytest.raises(ValueError, match="beta"):
        chrf_matrix(a, b, beta=0)
