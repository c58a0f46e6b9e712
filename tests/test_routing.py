"""Routing a reference's pairs to the worker that built it: the decisions as pure functions
(worked by hand), the pool's one queue per worker, and whole runs on two workers that build
each reference once and give the bytes of one process."""

import json
import os
import pickle
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crash_helpers import CRASH, CrashingScorer  # noqa: E402
from pool_helpers import cache_counts, wait_for  # noqa: E402

from ruby_metric import RubyScorer  # noqa: E402
from ruby_metric.batch import engine  # noqa: E402
from ruby_metric.batch.pool import WorkerPool  # noqa: E402
from ruby_metric.batch.routing import Homes, assign, pack, reference_groups  # noqa: E402
from ruby_metric.io.inputs import PairInput  # noqa: E402

# -- the decisions -----------------------------------------------------------------------------


@pytest.mark.parametrize(("sizes", "homes", "loads", "slack", "expected"), [
    # no homes: each group to the least loaded worker, the first of equals
    ([10, 10, 10], [None, None, None], [0, 0], 0, [0, 1, 0]),
    # homes kept within the slack; the group without one evens the loads (40 + 20 / 20 + 20)
    ([20, 20, 20, 20], [1, 1, 0, None], [0, 0], 64, [1, 1, 0, 0]),
    # the home already has 100 pairs to go: 160 / 0, then 130 / 30, then 100 / 60 <= 64
    ([30, 30], [0, 0], [100, 0], 64, [1, 1]),
    # the largest group that narrows the gap moves: 70 / 0 -> 30 / 40, within 10
    ([10, 40, 20], [0, 0, 0], [0, 0], 10, [0, 1, 0]),
    # three workers: 0 / 6 / 36 -> 12 / 6 / 24 (to the first idlest) -> 12 / 18 / 12
    ([12, 12, 12], [2, 2, 2], [0, 6, 0], 6, [2, 1, 0]),
    # a group bigger than the gap never moves (it would only turn the gap around)
    ([50], [0], [0, 0], 0, [0]),
    # a home that is not a worker of this pool counts as none
    ([7], [5], [3, 0], 0, [1]),
])
def test_assign_by_hand(sizes, homes, loads, slack, expected):
    assert assign(sizes, homes, loads, slack) == expected


def test_homes_forget_the_least_recently_used_first():
    homes = Homes(capacity=3)
    for key, worker in ((1, 0), (2, 1), (3, 0)):
        homes.set(key, worker)
    assert homes.get(1) == 0  # now the most recent
    homes.set(4, 1)  # forgets 2
    assert [homes.get(k) for k in (1, 2, 3, 4)] == [0, None, 0, 1]
    homes.set(3, 1)  # moved: the latest worker counts
    assert homes.get(3) == 1 and len(homes) == 3
    homes.clear()
    assert len(homes) == 0
    with pytest.raises(ValueError, match="capacity"):
        Homes(0)


def test_groups_and_chunks():
    pairs = [PairInput(0, "a", "x", "java"), PairInput(1, "b", "x", "java"),
             PairInput(2, "a", "y", "java"), PairInput(3, "a", "x", "cs"),
             PairInput(4, None, None, None, problem="line 5: not JSON"),
             PairInput(5, ["a", "b"], "x", "java"), PairInput(6, ["a", "b"], "z", "java")]
    groups, keys = reference_groups(pairs)
    assert groups == [[0, 2], [1], [3], [4], [5, 6]]
    assert keys[3] is None  # an unreadable pair has no reference to route by
    assert keys[0] == hash(("java", "a")) and keys[4] == hash(("java", ("a", "b")))
    assert len(set(keys[:3])) == 3  # the language is part of the key
    assert pack([[0, 1, 2], [3, 4], [5]], 3) == [[0, 1, 2], [3, 4, 5]]
    assert pack([[0, 1], [2, 3]], 3) == [[0, 1], [2, 3]]  # a group is not cut to fill a chunk
    assert pack([[0, 1, 2, 3, 4, 5, 6]], 3) == [[0, 1, 2], [3, 4, 5], [6]]


# -- the pool: one queue per worker -------------------------------------------------------------


def test_pool_submits_to_a_given_worker_counts_its_work_and_replaces_one(tmp_path):
    gate = tmp_path / "gate"
    with WorkerPool(2) as pool:
        pool.start(pickle.dumps(None))
        pids = [pool.submit_to(w, os.getpid).result() for w in (0, 1)]
        assert pids[0] != pids[1] and sorted(pids) == sorted(p.pid for p in pool.processes)
        blocked = pool.submit_to(0, wait_for, str(gate), weight=7)
        queued = pool.submit_to(0, os.getpid, weight=5)
        assert (pool.outstanding(0), pool.outstanding(1)) == (12, 0)
        assert pool.submit(os.getpid).result() == pids[1]  # the least loaded worker
        gate.touch()
        assert blocked.result() == queued.result() == pids[0]
        assert pool.outstanding(0) == 0
        # worker 1 dies: only its queue breaks; a fresh worker takes its place
        os.kill(pids[1], 9)
        with pytest.raises(BrokenProcessPool):
            pool.submit_to(1, os.getpid).result()
        pool.replace(1)
        pool.confirm()
        fresh = pool.submit_to(1, os.getpid).result()
        assert fresh not in pids
        assert pool.submit_to(0, os.getpid).result() == pids[0]  # worker 0 went on
        assert sorted(p.pid for p in pool.processes) == sorted([pids[0], fresh])
    assert not pool.started and not [p for p in pool.processes if p.is_alive()]


# -- whole runs -----------------------------------------------------------------------------------

DISTINCT = 300  # references, each coming back 300 pairs later: beyond a block (256 pairs)
REFS = [f"int f{i}(int a) {{ return a + {i}; }}" for i in range(DISTINCT)]


def _pairs(repeats: int) -> list[PairInput]:
    return [PairInput(i, REFS[i % DISTINCT], f"int f{i % DISTINCT}(int a) {{ return a - {i}; }}",
                      None) for i in range(DISTINCT * repeats)]


def _as_json(results) -> list[str]:  # noqa: ANN001
    return [json.dumps(r.to_dict(), sort_keys=True) for r in results]


def test_two_workers_build_each_reference_once_across_blocks_and_calls(monkeypatch):
    # Without a slack, where a pair goes depends on its reference's home alone, never on
    # which worker happens to be ahead: the count below is exact.
    monkeypatch.setattr(engine, "_SLACK", 10**9)
    one = _as_json(RubyScorer("java", metrics=["sts", "bleu"]).stream(lambda: _pairs(3)))
    with RubyScorer("java", metrics=["sts", "bleu"]) as scorer:
        run = scorer.stream(lambda: _pairs(3), workers=2)
        assert _as_json(run) == one
        pool = scorer.worker_pool(2)
        counts = [pool.submit_to(w, cache_counts, run._blob).result() for w in (0, 1)]
        builds = [built for built, _ in counts]
        assert sum(builds) == DISTINCT and min(builds) > DISTINCT // 4  # both did work
        assert sum(hits for _, hits in counts) == 2 * DISTINCT
        # the kept pool remembers where each reference went: no build at all
        again = scorer.stream(lambda: _pairs(2), workers=2)
        assert _as_json(again) == one[: 2 * DISTINCT]
        assert again._blob == run._blob  # the same scorer in the workers, counts go on
        counts = [pool.submit_to(w, cache_counts, run._blob).result() for w in (0, 1)]
        assert [built for built, _ in counts] == builds
        assert sum(hits for _, hits in counts) == 4 * DISTINCT
    assert len(scorer.reference_cache) == 0  # built in the workers, not here


def test_a_crash_replaces_one_worker_and_the_run_gives_one_process_bytes():
    pairs = _pairs(3)
    pairs[700] = PairInput(700, pairs[700].reference, CRASH, None)
    healthy = _as_json(RubyScorer("java", metrics=["sts", "bleu"]).stream(lambda: pairs))
    with CrashingScorer("java", metrics=["sts", "bleu"]) as scorer:
        run = scorer.stream(lambda: pairs, workers=2)
        results, before = [], set()
        for result in run:
            if not before:  # the workers of the run's start
                before = {p.pid for p in scorer.worker_pool(2).processes}
            results.append(result)
        after = {p.pid for p in scorer.worker_pool(2).processes}
    assert [r.id for r in results] == list(range(900))
    assert "worker process died" in results[700].reasons["error"]
    got = _as_json(results)
    assert got[:700] == healthy[:700] and got[701:] == healthy[701:]
    assert len(before) == len(after) == 2 and len(before & after) == 1  # one went on


def test_one_reference_with_many_pairs_is_spread_over_both_workers():
    # 600 pairs of one reference: cut into pieces of a chunk, half of them go to each
    # worker from the first block on; each worker builds the reference once
    pairs = [PairInput(i, REFS[0], f"int f0(int a) {{ return a - {i}; }}", None)
             for i in range(600)]
    one = _as_json(RubyScorer("java", metrics=["sts", "bleu"]).stream(lambda: pairs))
    with RubyScorer("java", metrics=["sts", "bleu"]) as scorer:
        run = scorer.stream(lambda: pairs, workers=2)
        assert _as_json(run) == one
        pool = scorer.worker_pool(2)
        counts = [pool.submit_to(w, cache_counts, run._blob).result() for w in (0, 1)]
    assert [built for built, _ in counts] == [1, 1]
    assert sum(hits for _, hits in counts) == 598 and min(hits for _, hits in counts) >= 127
