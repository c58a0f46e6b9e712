"""Hostile input: the scorer never raises, never hangs and never leaves [0, 1].

``tests/hostile/`` holds small committed inputs (empty, whitespace, random bytes, NUL and
control characters, invalid UTF-8, emoji and mixed scripts, unbalanced brackets, unterminated
literals, very long identifiers and strings), read as files are read (through
:func:`ruby_metric.io.inputs.read_text`); inputs too big to commit (5,000-deep nesting, a 2 MB
file) are generated here.
"""

from __future__ import annotations

import itertools
import logging
import random
import resource
import time
from pathlib import Path

import pytest
from hostile_helpers import LANGUAGES, SEEDS, fixture_snippets, mutate

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import read_text
from ruby_metric.scoring.results import METRICS, TIER_METRICS, PairResult

HOSTILE = Path(__file__).resolve().parent / "hostile"


def check(r: PairResult) -> None:
    """Every score is a float in [0, 1], RUBY is its tier's score, and a missing one says why."""
    for metric in METRICS:
        value = getattr(r, metric)
        if value is None:
            assert r.reasons.get(metric), (metric, r)
        else:
            assert type(value) is float and 0.0 <= value <= 1.0, (metric, value, r)
    if r.ruby is not None:
        assert r.ruby == getattr(r, TIER_METRICS[r.tier]), r


def nested(language: str, depth: int = 5_000) -> list[str]:
    """Code nested ``depth`` levels deep, in the shapes a parser and a PDG builder recurse on."""
    block = "if (a) { " * depth + "x = 1;" + " }" * depth
    if language == "python":
        # Python blocks nest by indentation (depth d costs d^2 characters), so 5,000 levels
        # are brackets; 300 levels of blocks stay small and still go past the recursion limit
        # of a naive AST walk.
        blocks = "def f(a):\n" + "".join(" " * (i + 1) + "if a:\n" for i in range(300))
        return ["x = " + "(" * depth + "1" + ")" * depth, blocks + " " * 301 + "x = 1\n",
                "x = " + "[" * depth + "]" * depth]
    return [
        "int f(int a) { return " + "(" * depth + "a" + ")" * depth + "; }",
        "void f() { " + block + " }",
        "{" * depth + "}" * depth,
    ]


def hostile_inputs(language: str) -> dict[str, str]:
    """The committed corpus, read as files are read, plus a clean seed of ``language``."""
    texts = {path.name: read_text(path) for path in sorted(HOSTILE.iterdir())}
    texts["seed"] = SEEDS[language][0]
    return texts


def hostile_pairs(language: str) -> list[tuple[str, str, str]]:
    """(name, reference, candidate): every pair of the corpus both ways, and each deep input
    against itself and a few partners both ways (every pair of deep inputs would only repeat
    the same slow parses)."""
    texts = hostile_inputs(language)
    pairs = [(f"{a} / {b}", texts[a], texts[b]) for a, b in itertools.product(texts, repeat=2)]
    for i, deep in enumerate(nested(language)):
        for partner in ("empty.txt", "random_bytes.bin", "unbalanced_brackets.txt", "seed"):
            pairs.append((f"nested-{i} / {partner}", deep, texts[partner]))
            pairs.append((f"{partner} / nested-{i}", texts[partner], deep))
        pairs.append((f"nested-{i} / itself", deep, deep))
    return pairs


def test_corpus_is_complete():
    names = {path.name for path in HOSTILE.iterdir()}
    assert {"empty.txt", "whitespace_only.txt", "random_bytes.bin", "nul_and_controls.txt",
            "invalid_utf8.bin", "emoji_and_scripts.txt", "unbalanced_brackets.txt",
            "long_identifier.txt", "long_string.txt"} <= names
    assert (HOSTILE / "empty.txt").read_bytes() == b""


def test_invalid_utf8_is_read_with_replacement(caplog):
    with caplog.at_level(logging.WARNING):
        text = read_text(HOSTILE / "invalid_utf8.bin")
    assert "\ufffd" in text and "invalid UTF-8" in caplog.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pair_of_hostile_inputs(language):
    scorer = RubyScorer(language=language)
    for name, ref, cand in hostile_pairs(language):
        r = scorer.score(ref, cand)
        check(r)
        assert r.ruby is not None, (name, r)
        if ref == cand:
            assert r.ruby == 1.0, (name, r)


@pytest.mark.parametrize("language", LANGUAGES)
def test_deep_nesting_parses_and_scores_structurally(language):
    # Not only no crash: 5,000 levels still get a structural tier where the limits allow one.
    scorer = RubyScorer(language=language)
    deep = nested(language)[0]
    r = scorer.score(deep, deep.replace("1", "2", 1).replace("a)", "b)", 1))
    check(r)
    assert r.tier == "graph" or language in ("python", "javascript"), r


def test_600_mutated_and_random_inputs():
    """The default scorer on 600 pairs of mutated real-looking code and random text."""
    rng = random.Random(600)
    pool = [(lang, code) for lang in LANGUAGES for code in SEEDS[lang]] + fixture_snippets()
    scorers = {lang: RubyScorer(language=lang) for lang in LANGUAGES}
    for i in range(600):
        language = LANGUAGES[i % len(LANGUAGES)]
        ref = mutate(rng.choice(pool)[1], rng, rng.randint(0, 3))
        kind = rng.random()
        if kind < 0.1:  # random characters, any code point but surrogates
            cand = "".join(chr(rng.choice([rng.randrange(0xD800), rng.randrange(0xE000, 0x110000)]))
                           for _ in range(rng.randint(0, 200)))
        elif kind < 0.2:  # random bytes as a file reader would decode them
            cand = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))).decode(
                "utf-8", errors="replace")
        elif kind < 0.3:
            cand = ref
        else:
            cand = mutate(rng.choice(pool)[1], rng, rng.randint(0, 6))
        r = scorers[language].score(ref, cand)
        check(r)
        assert r.ruby is not None, (ref, cand, r)
        if ref == cand:
            assert r.ruby == 1.0 and r.sts == 1.0, r


# -- a 2 MB pair --------------------------------------------------------------------------


def two_mb_java(seed: int, size: int = 2_000_000) -> str:
    """About 2 MB of real-looking Java methods, with identifiers varied so it is not periodic."""
    rng = random.Random(seed)
    pool = list(SEEDS["java"]) + [code for lang, code in fixture_snippets() if lang == "java"]
    parts, n = [], 0
    while n < size:
        part = rng.choice(pool).replace("sum", f"sum{rng.randrange(1000)}")
        part = part.replace("total", f"t{rng.randrange(50)}")
        parts.append(part)
        n += len(part) + 1
    return "\n".join(parts)[:size]


@pytest.fixture(scope="module")
def two_mb() -> str:
    return two_mb_java(1)


def test_two_mb_pair_nearly_identical_gets_exact_sts(two_mb):
    # A huge regenerated file with a few local changes: far above the full-table STS budget
    # (about 680,000 tokens a side), but its distance is small, so the banded computation
    # proves the exact value and RUBY is STS. Measured: under 5 s, about 300 MB peak.
    cand = two_mb.replace("return", "return  0 +", 50).replace("int ", "long ", 30)
    start = time.perf_counter()
    r = RubyScorer("java").score(two_mb, cand)
    elapsed = time.perf_counter() - start
    check(r)
    assert r.tier == "string" and r.ruby == r.sts
    assert 0.99 < r.sts < 1.0
    for tier in ("grs", "trs"):
        assert "longer than the limit" in r.reasons[tier]
    assert elapsed < 60
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert peak_mb < 2_000, peak_mb


def test_two_mb_pair_unrelated_gets_exact_sts(two_mb):
    # Two unrelated 2 MB files: the exact token distance needs the full table of about
    # 684,000 x 684,000 tokens, inside the default budget (about 15 s here with tokens as
    # frequency-ranked ids). The expected distance was computed once by rapidfuzz on the
    # token strings themselves (its hash-map path, about 46 s), not on the ids.
    other = two_mb_java(2)
    start = time.perf_counter()
    r = RubyScorer("java").score(two_mb, other)
    assert time.perf_counter() - start < 60
    check(r)
    assert r.tier == "string" and r.ruby == r.sts
    assert r.sts == 1 - 426_914 / 684_507
    assert r.bleu is not None and r.crystalbleu is not None
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert peak_mb < 2_000, peak_mb


def test_huge_pair_beyond_the_sts_budget_has_no_ruby_and_says_why(two_mb):
    # With a smaller budget the same pair is beyond it: the band of about 29,000 edits cannot
    # prove the distance, and an approximation is never reported, so STS and RUBY are None
    # with the reason; the BLEUs are still scored.
    from ruby_metric import Limits

    r = RubyScorer("java", limits=Limits(max_tokens=200_000)).score(two_mb, two_mb_java(2))
    check(r)
    assert r.ruby is None and r.sts is None and r.tier is None
    assert r.reasons["ruby"] == "no tier applies"
    assert r.reasons["sts"].startswith("more than 29,217 token edits between 684,374 and 684,507")
    assert r.bleu is not None and r.crystalbleu is not None


def test_two_mb_identical_pair_scores_one(two_mb):
    r = RubyScorer("java", metrics=["ruby", "sts"]).score(two_mb, two_mb)
    assert r.ruby == r.sts == 1.0 and r.tier == "string"


def test_explain_respects_the_sts_bound():
    # explain builds STS's edit script only when the bounded distance is known, so a huge
    # unrelated pair cannot make it compute the full table (shown here with a tiny bound).
    from ruby_metric import Limits

    # strict parsing: repair would read the words as declarations (`a b; c d; ...`)
    scorer = RubyScorer("java", limits=Limits(max_tokens=6), repair=False)  # 8 x 8 > 36
    far = scorer.explain("a b c d e f g h", "t u v w x y z q")
    assert far.string is None and "token edits" in far.notes["string"]
    assert far.result.sts is None and far.result.ruby is None
    near = scorer.explain("a b c d e f g h", "a b c d e f g x")
    assert near.string is not None and near.string.distance == 1
    assert near.result.sts == 1 - 1 / 8
