"""Functions that run inside worker processes for the routing tests (workers import this
module by name, from the tests' folder on the path they inherit)."""

import os
import time

from ruby_metric.batch.worker import load_payload


def cache_counts(blob: bytes) -> tuple[int, int]:
    """This worker's reference cache for the run that sent ``blob``: (builds, hits)."""
    scorer, _ = load_payload(blob)
    return scorer.reference_cache.misses, scorer.reference_cache.hits


def wait_for(path: str) -> int:
    """Block until ``path`` exists; this worker's process id."""
    while not os.path.exists(path):
        time.sleep(0.01)
    return os.getpid()
