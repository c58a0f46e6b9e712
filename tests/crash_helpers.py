"""A scorer that crashes its process on a marked candidate (imported by worker processes)."""

import os
import signal

from ruby_metric import RubyScorer

CRASH = "/* crash the worker */"


class CrashingScorer(RubyScorer):
    def score_detailed(self, reference, candidate, pair_id, language, cbleu, **kwargs):
        if candidate == CRASH:
            os.kill(os.getpid(), signal.SIGKILL)  # as a segfault or the OOM killer would
        return super().score_detailed(reference, candidate, pair_id, language, cbleu, **kwargs)
