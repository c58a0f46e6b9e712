"""Compile (or load from numba's cache) every GED kernel up front: :func:`warm_up`."""

from __future__ import annotations

import random
import time

import numpy as np

from graphs.ged.distance import graph_edit_distance
from graphs.ged.generators import STATEMENTS, random_pdg


def warm_up() -> float:
    """Compile (or load from numba's cache) every GED kernel now; return the seconds taken.

    Without this the first few calls in a process pay it, e.g. inside a timed run or in
    each new worker process.

    Examples
    --------
    >>> from graphs.ged import warm_up
    >>> warm_up() >= 0
    True
    """
    start = time.perf_counter()
    rng = random.Random(0)
    # Sizes that take the bipartite + local-search path (12 nodes) and the exact branch
    # and bound (6 nodes), so every kernel is loaded.
    for n in (12, 6):
        g1, g2 = random_pdg(rng, n, STATEMENTS[:4]), random_pdg(rng, n, STATEMENTS[:4])
        graph_edit_distance(g1, g2)
        graph_edit_distance(g1, g2, node_subst_cost=_warm_up_costs)  # graded specializations
        graph_edit_distance(g1, g2, node_subst_cost=_warm_up_costs, node_weight=_warm_up_weights)
    return time.perf_counter() - start


def _warm_up_costs(labels1: list, labels2: list) -> np.ndarray:
    # Some cost that is neither 0 nor 1, so that warm_up takes the graded code paths.
    return 0.5 * (np.array(labels1, dtype=object)[:, None] != np.array(labels2, dtype=object))


def _warm_up_weights(labels: list) -> list[float]:
    # Weights that differ, so that the weighted bounds have something to bound.
    return [1.0 + len(str(label)) % 3 for label in labels]
