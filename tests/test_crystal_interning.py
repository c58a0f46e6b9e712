"""A text's tokens numbered once (crystal.interning), and every user of the numbers exact:
the compiled n-gram counter (against the pure-Python reference) and STS's token ids
(against a Counter-ranked mapping and the distance over the strings)."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest
from rapidfuzz.distance import Levenshtein

import crystal
from crystal import InternedTokens, _fast, interning, joint_ids
from crystal.counting import python_match_counts
from ruby_metric import RubyScorer
from ruby_metric.scoring.tiers import token_distance, token_ids


def test_a_side_numbers_its_tokens_first_seen_first() -> None:
    side = InternedTokens(("if", "(", "x", ")", "x", "=", "(", "y", ")"))
    assert side.ids.tolist() == [0, 1, 2, 3, 2, 4, 1, 5, 3]
    assert list(side.vocabulary.items()) == [
        ("if", 0), ("(", 1), ("x", 2), (")", 3), ("=", 4), ("y", 5)]
    assert side.ids is side.ids  # built once
    # a read-only token sequence equal to its tokens as a list or a tuple
    assert len(side) == 9 and side[2] == "x" and side[-2:] == ("y", ")")
    assert side == list(side.tokens) == InternedTokens(list(side.tokens))
    assert side != ["if"] and (side == "if(x)") is False
    assert InternedTokens.of(side) is side
    # the numbers are derived: pickled, a sequence is its tokens, numbered or not
    copy = pickle.loads(pickle.dumps(side))
    assert copy == side and not copy.numbered
    assert pickle.dumps(side) == pickle.dumps(InternedTokens(side.tokens))
    empty = InternedTokens([])
    assert empty.ids.tolist() == [] and empty.vocabulary == {}


def test_joint_ids_by_hand() -> None:
    a = InternedTokens(["x", "=", "y", ";"])
    b = InternedTokens(["z", "=", "x", "w", "z"])
    (ia, ib, ia2, ie), joint = joint_ids([a, b, a, InternedTokens([])])
    # a keeps its numbers; b's new tokens follow in the order b first has them
    assert ia.tolist() == [0, 1, 2, 3] and ia2.tolist() == [0, 1, 2, 3]
    assert ib.tolist() == [4, 1, 0, 5, 4]
    assert ie.tolist() == []
    assert joint == {"x": 0, "=": 1, "y": 2, ";": 3, "z": 4, "w": 5}
    assert a.vocabulary == {"x": 0, "=": 1, "y": 2, ";": 3}  # a's own left as it was


def ranked_by_counter(a: list[str], b: list[str]) -> tuple[list[int], list[int]]:
    """STS's ids as defined: most frequent first, ties in the order first seen (a, then b)."""
    counts = Counter(a)
    counts.update(b)
    ids = {token: i for i, (token, _) in enumerate(counts.most_common())}
    return [ids[t] for t in a], [ids[t] for t in b]


def test_token_ids_rank_as_defined_and_keep_every_distance() -> None:
    rng = random.Random(5)
    words = [f"w{i}" for i in range(300)] + list("(){};=")
    for _ in range(60):
        a = [rng.choice(words[: rng.randrange(1, len(words))]) for _ in range(rng.randrange(80))]
        b = [rng.choice(words) for _ in range(rng.randrange(80))]
        ia, ib = token_ids(a, b)
        assert (ia.tolist(), ib.tolist()) == ranked_by_counter(a, b)
        # interned sides, numbered before or not, give the same ids
        ja, jb = token_ids(InternedTokens(a), InternedTokens(b))
        assert (ja, jb) == (ia, ib)
        assert Levenshtein.distance(ia, ib) == Levenshtein.distance(a, b)
        assert token_distance(InternedTokens(a), InternedTokens(b), 10**6) == (
            Levenshtein.distance(a, b))
        assert Levenshtein.editops(ia, ib).as_list() == Levenshtein.editops(a, b).as_list()


def near_pair(seed: int, length: int) -> tuple[list[str], list[str]]:
    """A code-like token list of ``length`` tokens and a copy with a few tokens changed."""
    rng = random.Random(seed)
    words = ["(", ")", "{", "}", ";", "=", "int", "return"] + [f"v{i}" for i in range(3000)]
    ref = [words[min(int(rng.paretovariate(0.7)) - 1, len(words) - 1)] for _ in range(length)]
    cand = list(ref)
    for at in rng.sample(range(length), 5):
        cand[at] = rng.choice(words)
    return ref, cand


@pytest.mark.parametrize("exact", [False, True])
def test_counter_reads_the_sides_numbers_instead_of_numbering_again(
    monkeypatch: pytest.MonkeyPatch, exact: bool
) -> None:
    ref, cand = near_pair(1, 40_000)  # a side alone over 2**15 tokens: ids of its own
    hyp = ref if exact else cand
    ignore = frozenset({("(",), (")",), ("=", "v1"), ("int", "v2", "="), ("absent",)})
    expected = python_match_counts([ref], hyp, 4, ignore, None)
    plain = python_match_counts([ref], hyp, 4, None, None)
    sides = InternedTokens(ref), InternedTokens(hyp)
    for side in sides:
        assert len(side.ids) == len(side)  # numbered by an earlier use (STS)

    def refused(*args: object) -> None:
        raise AssertionError("a side was numbered again")

    with monkeypatch.context() as patched:
        patched.setattr(interning, "_Numbering", refused)
        patched.setattr(_fast, "_encode", refused)
        counted = _fast.FastCounter(ignore).counts_with_plain([sides[0]], sides[1], 4,
                                                              exact=exact)
        assert counted is not None
        assert [list(x) for x in counted[0]] == [list(x) for x in expected]
        assert [list(x) for x in counted[1]] == [list(x) for x in plain]
        with pytest.raises(AssertionError, match="numbered again"):  # plain lists: encoded
            _fast.FastCounter(ignore).counts([ref], list(hyp), 4, exact=exact)
    # sides without numbers get one pass over their tokens, and no numbers kept for nothing
    fresh = InternedTokens(ref), InternedTokens(hyp)
    counted = _fast.FastCounter(ignore).counts_with_plain([fresh[0]], fresh[1], 4, exact=exact)
    assert counted is not None and counted[0] == tuple(expected) and counted[1] == tuple(plain)
    assert not any(side.numbered for side in fresh)


def test_small_own_tables_and_many_references_are_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tiny LIMIT sends every pair through the own-table path: references sharing tokens
    # absent from the hypothesis, repeated references, ignore sets larger than the pair
    monkeypatch.setattr(_fast, "LIMIT", 16)
    rng = random.Random(3)
    huge = frozenset({(f"t{i}",) for i in range(50)} | {("a", "b"), ("b",)})
    for _ in range(200):
        vocab = ["a", "b", "c", "d", "e", "t1", "t7"]
        hyp = [rng.choice(vocab) for _ in range(rng.randrange(12))]
        refs = [[rng.choice(vocab + ["x", "y"]) for _ in range(rng.randrange(12))]
                for _ in range(rng.randrange(1, 4))]
        refs.append(refs[0])
        for ignore in (None, frozenset({("a", "b"), ("c",)}), huge):
            sides = [InternedTokens(r) for r in refs] + [InternedTokens(hyp)]
            for side in sides:
                assert len(side.ids) == len(side)  # the sides' numbers are joined
            counted = _fast.FastCounter(ignore).counts_with_plain(sides[:-1], sides[-1], 4)
            assert counted is not None
            assert [list(x) for x in counted[0]] == [
                list(x) for x in python_match_counts(refs, hyp, 4, ignore, None)]
            assert [list(x) for x in counted[1]] == [
                list(x) for x in python_match_counts(refs, hyp, 4, None, None)]


def test_a_big_pair_is_numbered_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # STS and the BLEUs of a big pair (STS's ids and the counter's own ids both needed)
    # number each text once, and score what each of them scores alone
    lines = [f"int f{i}(int x) {{ return x * {i} + g(x, {i % 7}); }}" for i in range(2500)]
    ref = "\n".join(lines)
    cand = ref.replace("x * 1200 +", "x * 1200 -")
    built = []

    class Counting(interning._Numbering):  # type: ignore[name-defined]
        def __init__(self) -> None:
            built.append(1)
            super().__init__()

    full = RubyScorer("java").score(ref, cand)
    alone = {m: RubyScorer("java", metrics=[m]).score(ref, cand) for m in ("sts", "bleu")}
    monkeypatch.setattr(interning, "_Numbering", Counting)
    assert RubyScorer("java").score(ref, cand) == full
    assert len(crystal.tokenize(ref)) > 2**15 and len(built) == 2
    assert full.tier == "string" and full.sts == alone["sts"].sts
    assert full.bleu == alone["bleu"].bleu
    assert full.sts == 1 - 1 / len(crystal.tokenize(ref))
