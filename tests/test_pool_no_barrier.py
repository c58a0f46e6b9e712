"""The first chunks are queued behind the workers' start-up checks, not after them: a pool
that cannot work still reports no pair, and a crash while a check runs is a crash, not a
failed start-up."""

import json
import sys
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crash_helpers import CRASH, CrashingScorer  # noqa: E402

from ruby_metric import RubyScorer  # noqa: E402
from ruby_metric.batch.pool import WorkerPool  # noqa: E402
from ruby_metric.batch.worker import WorkerStartError, check_results  # noqa: E402

REF = "public int A(int x){return x + 1;}"


def _done(result=None, exc=None) -> Future:
    future: Future = Future()
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)
    return future


def test_a_broken_pool_after_a_passed_check_is_left_to_the_chunks():
    passed, broken = _done(None), _done(exc=BrokenProcessPool("a worker died"))
    check_results([passed, broken], chunks_queued=True)  # the chunks' recovery finds why
    with pytest.raises(WorkerStartError, match="died at start-up"):
        check_results([_done(None), _done(exc=BrokenProcessPool("x"))])  # nothing queued
    with pytest.raises(WorkerStartError, match="died at start-up"):
        check_results([_done(exc=BrokenProcessPool("x"))] * 2, chunks_queued=True)
    with pytest.raises(WorkerStartError, match="cannot load the scorer"):
        check_results([_done(None), _done("a worker cannot load the scorer (boom)")],
                      chunks_queued=True)


def test_an_unchecked_start_reports_a_bad_payload_at_confirm():
    pool = WorkerPool(2)
    pool.start(b"cnosuchmodule\nScorer\n.", wait=False)  # a class no worker can import
    try:
        assert pool.started  # the checks are queued, not read
        pool.submit(len, b"")  # a task queued behind them, as the engine does
        with pytest.raises(WorkerStartError, match="cannot load the scorer"):
            pool.confirm()
        assert not pool.started  # killed: nothing waits for the task behind the checks
    finally:
        pool.terminate()


def test_a_crash_in_the_first_chunk_costs_one_pair():
    # pair 3 kills its worker, likely while the other worker still runs its start-up check
    cands = [REF.replace("1", str(i)) for i in range(150)]
    cands[3] = CRASH
    result = CrashingScorer(language="cs").score_corpus([REF] * 150, cands, workers=2)
    assert [p.id for p in result.pairs] == list(range(150))
    assert "worker process died" in result.pairs[3].reasons["error"]
    healthy = RubyScorer(language="cs")
    for i in (0, 2, 4, 64, 149):
        assert result.pairs[i] == healthy.score(REF, cands[i], id=i)
    assert result.counts["ruby"] == 149


def test_two_workers_give_one_process_output_byte_for_byte():
    refs = [REF.replace("x + 1", f"x * {i % 7} + {i % 3}") for i in range(300)]
    cands = [REF.replace("1", str(i % 11)) for i in range(300)]
    with RubyScorer(language="cs") as scorer:
        first = scorer.score_corpus(refs, cands, workers=2)  # the pool starts meanwhile
        again = scorer.score_corpus(refs, cands, workers=2)  # the kept pool
    one = RubyScorer(language="cs").score_corpus(refs, cands)
    texts = [json.dumps(r.to_dict(), sort_keys=True) for r in (first, again, one)]
    assert texts[0] == texts[2] and texts[1] == texts[2]
