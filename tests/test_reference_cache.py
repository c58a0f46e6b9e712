"""The reference cache: one build per reference text and process, the same scores to the
byte as without it, never mutated by scoring, bounded by characters, never sent to workers;
and the batch engine's chunks keeping one reference's pairs together."""

import json
import pickle
from concurrent.futures import Executor, Future
from pathlib import Path

import pytest

from ruby_metric import RubyScorer
from ruby_metric.io.inputs import PairInput
from ruby_metric.scoring.code import Code, Limits
from ruby_metric.scoring.reference_cache import DEFAULT_REFERENCE_CACHE, ReferenceCache

ROOT = Path(__file__).resolve().parents[1]
# the shared data beside the checkout (or beside the directory of worktrees)
DATASETS = next((p / "shared" / "datasets" for p in ROOT.parents
                 if (p / "shared" / "datasets").is_dir()), ROOT.parent / "shared" / "datasets")
HUMANEVAL = DATASETS / "judged_dev" / "humaneval_python_grade.json"
CODEXGLUE = DATASETS / "codexglue_code2code_trans" / "model_outputs"

JAVA_REF = "int f(int a) { if (a > 0) { return a + 1; } return 0; }"
JAVA_CANDS = [
    "int f(int b) { if (b > 0) { return b + 1; } return 0; }",
    "int f(int a) { return a + 1; }",
    "int f(int a) { if (a > 1) { return a + 2; } return 0; }",
]


def _as_json(result) -> str:  # noqa: ANN001
    return json.dumps(result.to_dict(), sort_keys=True)


# -- the cache itself ------------------------------------------------------------------------


def test_same_key_same_code_and_each_part_of_the_key_counts():
    cache = ReferenceCache(1_000)
    limits = Limits()
    a = cache.code("x = 1", "python", "code-python", limits, True)
    assert cache.code("x = 1", "python", "code-python", limits, True) is a
    assert (cache.hits, cache.misses) == (1, 1)
    others = [
        ("x = 2", "python", "code-python", limits, True),
        ("x = 1", "java", "code-python", limits, True),
        ("x = 1", "python", "code", limits, True),
        ("x = 1", "python", "code-python", Limits(max_pdg_nodes=10), True),
        ("x = 1", "python", "code-python", limits, False),
    ]
    built = [cache.code(*key) for key in others]
    assert all(code is not a for code in built)
    assert len({id(code) for code in built}) == len(others)
    assert (cache.hits, cache.misses) == (1, 6)


def test_bounded_by_characters_least_recently_used_first():
    cache = ReferenceCache(10)
    limits = Limits()
    a = cache.code("aaaa", None, "code", limits, True)
    b = cache.code("bbbb", None, "code", limits, True)
    assert cache.code("aaaa", None, "code", limits, True) is a  # now the most recent
    cache.code("cccc", None, "code", limits, True)  # 12 chars > 10: drops b, not a
    assert (len(cache), cache.chars) == (2, 8)
    assert cache.code("aaaa", None, "code", limits, True) is a
    assert cache.code("bbbb", None, "code", limits, True) is not b
    long = cache.code("x" * 11, None, "code", limits, True)  # longer than the bound: not kept
    assert cache.code("x" * 11, None, "code", limits, True) is not long
    assert cache.chars <= 10


def test_zero_keeps_nothing_and_bad_bounds_are_refused():
    cache = ReferenceCache(0)
    first = cache.code("x", None, "code", Limits(), True)
    assert cache.code("x", None, "code", Limits(), True) is not first
    assert len(cache) == 0
    for bad in (-1, 1.5, True, "10"):
        with pytest.raises(ValueError, match="reference_cache must be"):
            ReferenceCache(bad)
    with pytest.raises(ValueError, match="reference_cache must be"):
        RubyScorer("java", reference_cache=-5)


def test_pickled_cache_and_scorer_arrive_empty():
    scorer = RubyScorer("java", reference_cache=12_345)
    blob_before = pickle.dumps(scorer)
    scorer.score(JAVA_REF, JAVA_CANDS[0])
    assert len(scorer.reference_cache) == 1
    # what workers receive is the same bytes whatever this process has built
    assert pickle.dumps(scorer) == blob_before
    copy = pickle.loads(blob_before)
    assert len(copy.reference_cache) == 0 and copy.reference_cache.max_chars == 12_345
    assert RubyScorer("java").reference_cache.max_chars == DEFAULT_REFERENCE_CACHE


# -- in the scorer ---------------------------------------------------------------------------


def test_a_repeated_reference_is_built_once():
    scorer = RubyScorer("java")
    for cand in JAVA_CANDS:
        scorer.score(JAVA_REF, cand)
    assert (scorer.reference_cache.misses, scorer.reference_cache.hits) == (1, 2)
    refs, cand = scorer._codes(JAVA_REF, JAVA_CANDS[0], "java")
    assert refs[0] is next(iter(scorer.reference_cache._codes.values()))
    assert cand is not refs[0]
    # an exact match shares the cached reference's build on both sides
    refs, cand = scorer._codes(JAVA_REF, JAVA_REF, "java")
    assert cand is refs[0]
    off = RubyScorer("java", reference_cache=0)
    for cand in JAVA_CANDS:
        off.score(JAVA_REF, cand)
    assert off.reference_cache.hits == 0 and len(off.reference_cache) == 0


def test_with_language_keeps_the_bound():
    assert RubyScorer("java", reference_cache=7).with_language("cs").reference_cache.max_chars == 7


def _snapshot(code: Code) -> dict:
    """Every representation the tiers built, as bytes (the parse as what it describes)."""
    out = {}
    for key, value in code._built.items():
        if key == "graph":
            # its content: networkx keeps the views it hands out in the object
            out[key] = pickle.dumps((value.graph, list(value.nodes(data=True)),
                                     list(value.edges(keys=True, data=True))))
        elif key == "program":  # what runs: its parse (as what it describes) and findings
            out[key] = None if value is None else (
                str(value.parsed.tree.root_node) if value.parsed.tree else None,
                value.entry, value.main, value.main_call_line, value.guard_line,
                value.left_out)
        elif key == "structure":
            out[key] = (value.describe(graph=True), value.describe(graph=False),
                        str(value.original.tree.root_node) if value.original.tree else None)
        else:
            out[key] = pickle.dumps(value)
    return out


def test_scoring_never_mutates_a_kept_reference():
    scorer = RubyScorer("java")
    broken = "int f(int a) { if (a > 0) { return a + 1; } return 0;"  # repaired reference
    for ref in (JAVA_REF, broken):
        scorer.score(ref, JAVA_CANDS[0])
        code = scorer._codes(ref, "x", "java")[0][0]
        before = _snapshot(code)
        assert {"graph", "tree", "tokens", "structure"} <= set(before)
        for cand in [*JAVA_CANDS, ref, "", "int f( {"]:
            scorer.score(ref, cand)
            scorer.score([ref, JAVA_CANDS[1]], cand)
            scorer.explain(ref, cand)
        after = _snapshot(code)
        assert {key: after[key] for key in before} == before


# -- on real data: the same bytes with and without --------------------------------------------


def _humaneval_pairs(tasks: int) -> list[tuple[str, str]]:
    if not HUMANEVAL.is_file():
        pytest.skip("shared HumanEval completions not available")
    records = json.loads(HUMANEVAL.read_text(encoding="utf-8"))[:tasks]
    return [(r["intent"] + r["snippet"][0], r["intent"] + r[k])
            for r in records for k in r if k.isdigit()]


def _two_systems(n: int) -> tuple[list[str], list[str]]:
    gold = CODEXGLUE / "java-cs-model1.gold"
    if not gold.is_file():
        pytest.skip("CodeXGLUE model outputs not available")
    refs = gold.read_text(encoding="utf-8").split("\n")[:n]
    outs = (CODEXGLUE / "java-cs-model1.output").read_text(encoding="utf-8").split("\n")[:n]
    # the model's outputs and a second "system" (a reference from elsewhere in the set, so
    # most pairs differ) against the same references
    others = refs[1:] + refs[:1]
    return refs + refs, outs + others


def test_humaneval_scores_identical_with_and_without_the_cache():
    pairs = _humaneval_pairs(8)  # 160 completions of 8 tasks
    refs, cands = [p[0] for p in pairs], [p[1] for p in pairs]
    cached, plain = RubyScorer("python"), RubyScorer("python", reference_cache=0)
    with_cache = _as_json(cached.score_corpus(refs, cands))
    assert with_cache == _as_json(plain.score_corpus(refs, cands))
    assert (cached.reference_cache.misses, len(set(refs))) == (8, 8)
    assert cached.reference_cache.hits == len(pairs) - 8
    # pair by pair, in reverse order, through score(): the same numbers again
    for (ref, cand), row in zip(pairs[::-1][:40], json.loads(with_cache)["pairs"][::-1][:40],
                                strict=True):
        assert json.dumps(cached.score(ref, cand, id=row["id"]).to_dict(), sort_keys=True) \
            == json.dumps(row, sort_keys=True)


def test_two_systems_identical_with_and_without_the_cache():
    refs, cands = _two_systems(120)
    with_cache = RubyScorer("cs")
    got = _as_json(with_cache.score_corpus(refs, cands))
    assert got == _as_json(RubyScorer("cs", reference_cache=0).score_corpus(refs, cands))
    assert with_cache.reference_cache.hits >= 120


def test_source_mode_identical_with_and_without_the_cache():
    java = ["int total(int[] xs) { int s = 0; for (int x : xs) s += x; return s; }",
            "int f(int a) { return a * 2; }"]
    py = ["def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
          "def f(a):\n    return a + a\n", "def total(xs):\n    return sum(xs)\n"]
    sources = [java[0], java[1], java[0], java[0]]
    cands = [py[0], py[1], py[2], py[1]]

    def run(cache: int) -> str:
        scorer = RubyScorer("python", source_language="java", reference_cache=cache)
        return _as_json(scorer.score_source_corpus(sources, cands))

    assert run(DEFAULT_REFERENCE_CACHE) == run(0)


# -- the batch engine's chunks ---------------------------------------------------------------


class _Recording(Executor):
    """Runs chunks at once, in this thread, and records what each chunk held."""

    def __init__(self) -> None:
        self.chunks: list[list[PairInput]] = []

    def submit(self, fn, /, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201
        self.chunks.append(args[-1])
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_chunks_keep_a_references_pairs_together_and_output_stays_in_input_order():
    # 5 references, their pairs interleaved (as two systems' runs or shuffled samples are)
    refs = [f"int f{i}(int a) {{ return a + {i}; }}" for i in range(5)]
    pairs = [(refs[i % 5], f"int f{i % 5}(int a) {{ return a - {i}; }}") for i in range(150)]
    executor = _Recording()
    scorer = RubyScorer("java", metrics=["sts", "bleu"])
    run = scorer.stream(
        lambda: [PairInput(i, r, c, None) for i, (r, c) in enumerate(pairs)], executor=executor
    )
    got = [result.id for result in run]
    assert got == list(range(150))
    # each chunk holds whole groups of one reference: 30 pairs each, 2 groups per chunk of 64
    sizes = [len(chunk) for chunk in executor.chunks]
    assert sizes == [60, 60, 30]
    for chunk in executor.chunks:
        for first in range(0, len(chunk), 30):
            assert len({p.reference for p in chunk[first:first + 30]}) == 1
    serial = [_as_json(r) for r in RubyScorer("java", metrics=["sts", "bleu"]).stream(
        lambda: [PairInput(i, r, c, None) for i, (r, c) in enumerate(pairs)])]
    again = RubyScorer("java", metrics=["sts", "bleu"]).stream(
        lambda: [PairInput(i, r, c, None) for i, (r, c) in enumerate(pairs)],
        executor=_Recording())
    assert [_as_json(r) for r in again] == serial


def test_chunks_of_distinct_references_keep_their_order_and_size():
    executor = _Recording()
    pairs = [PairInput(i, f"int a = {i};", "int a = 0;", None) for i in range(130)]
    pairs.append(PairInput(130, None, None, None, problem="line 131: not JSON"))
    run = RubyScorer("java", metrics=["sts"]).stream(lambda: pairs, executor=executor)
    assert [r.id for r in run] == list(range(131))
    assert [[p.id for p in chunk] for chunk in executor.chunks] == [
        list(range(64)), list(range(64, 128)), [128, 129, 130]]


def test_cli_option_turns_it_off_with_the_same_output(tmp_path, capsys):
    from ruby_metric.cli.app import main

    refs, hyps = tmp_path / "refs.java", tmp_path / "hyps.java"
    refs.write_text("\n".join([JAVA_REF] * 3) + "\n", encoding="utf-8")
    hyps.write_text("\n".join(JAVA_CANDS) + "\n", encoding="utf-8")
    outputs = []
    for extra in ([], ["--reference-cache", "0"], ["--reference-cache", "50"]):
        assert main(["score", str(refs), str(hyps), "--lang", "java", "--format", "jsonl",
                     "--quiet", *extra]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0].splitlines()) == 3
    with pytest.raises(SystemExit) as exit_:
        main(["score", str(refs), str(hyps), "--lang", "java", "--reference-cache", "-1"])
    assert exit_.value.code == 2
    assert "--reference-cache: must be at least 0" in capsys.readouterr().err


def test_worker_processes_give_the_bytes_of_one_process_on_repeated_references():
    pairs = _humaneval_pairs(6)
    # samples of the tasks interleaved: each task's pairs scattered over the input
    pairs = pairs[0::3] + pairs[1::3] + pairs[2::3]
    refs, cands = [p[0] for p in pairs], [p[1] for p in pairs]
    one = _as_json(RubyScorer("python").score_corpus(refs, cands))
    with RubyScorer("python") as scorer:
        assert _as_json(scorer.score_corpus(refs, cands, workers=2)) == one
        assert len(scorer.reference_cache) == 0  # built in the workers, not here
