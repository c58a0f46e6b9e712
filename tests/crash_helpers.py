"""A scorer that crashes its process on a marked candidate (imported by worker processes)."""

import os
import signal

from ruby_metric import RubyScorer
from ruby_metric.scoring.pair_scorer import PairScorer

CRASH = "/* crash the worker */"


class CrashingPairScorer(PairScorer):
    def score_detailed(self, reference, candidate, pair_id, language, cbleu, **kwargs):
        if candidate == CRASH:
            os.kill(os.getpid(), signal.SIGKILL)  # as a segfault or the OOM killer would
        return super().score_detailed(reference, candidate, pair_id, language, cbleu, **kwargs)


class CrashingScorer(RubyScorer):
    """A RubyScorer whose pair scorer (what its workers run) crashes on :data:`CRASH`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pair_scorer = CrashingPairScorer(self.config, self.pair_scorer.no_set_reason)
