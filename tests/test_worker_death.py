"""A worker that dies costs only its own pair; the run goes on and keeps input order."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crash_helpers import CRASH, CrashingScorer  # noqa: E402

from ruby_metric import RubyScorer  # noqa: E402

REF = "public int A(int x){return x + 1;}"


def test_worker_death_costs_one_pair():
    cands = [REF.replace("1", str(i)) for i in range(150)]
    cands[70] = CRASH  # in the second chunk, with other chunks in flight
    refs = [REF] * len(cands)
    crashing = CrashingScorer(language="cs")
    result = crashing.score_corpus(refs, cands, workers=2)
    assert [p.id for p in result.pairs] == list(range(150))
    dead = result.pairs[70]
    assert dead.ruby is None and "worker process died" in dead.reasons["error"]
    # every other pair is exactly what a healthy in-process run gives
    healthy = RubyScorer(language="cs")
    for i in (0, 69, 71, 149):
        assert result.pairs[i] == healthy.score(REF, cands[i], id=i)
    assert result.counts["ruby"] == 149
