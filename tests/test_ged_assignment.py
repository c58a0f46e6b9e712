"""The compiled assignment solver gives SciPy's permutation, ties and all; graphs imports
without scipy.optimize."""

import subprocess
import sys
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from graphs.ged.assignment import solve_assignment

ROOT = Path(__file__).resolve().parents[1]


def test_a_small_matrix_by_hand():
    # 1 + 2 + 2 = 5 is the only assignment of cost 5 (every other one costs more)
    cost = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
    assert solve_assignment(cost).tolist() == [1, 0, 2]
    best = min(sum(cost[i, p[i]] for i in range(3)) for p in permutations(range(3)))
    assert best == 5.0


def test_a_constant_matrix_gives_the_identity():
    # SciPy fills its candidate columns in reverse order for exactly this (scipy#11602)
    assert solve_assignment(np.full((5, 5), 3.0)).tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("kind", ["ties", "uniform", "grid", "nearly_constant"])
def test_same_permutation_as_scipy(kind):
    rng = np.random.default_rng(7)
    for _ in range(1500):
        n = int(rng.integers(0, 13))
        if kind == "ties":
            cost = rng.integers(0, 3, (n, n)).astype(float)
        elif kind == "uniform":
            cost = rng.random((n, n))
        elif kind == "grid":
            cost = np.round(rng.random((n, n)) * 4) / 4 - 1.5
        else:
            cost = 2.0 + (rng.random((n, n)) < 0.1)
        assert solve_assignment(cost).tolist() == linear_sum_assignment(cost)[1].tolist()


def test_bad_matrices_are_refused():
    with pytest.raises(ValueError, match="square"):
        solve_assignment(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="infinite"):
        solve_assignment(np.array([[1.0, np.inf], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="NaN"):
        solve_assignment(np.array([[1.0, np.nan], [0.0, 1.0]]))
    assert solve_assignment(np.zeros((0, 0))).tolist() == []


def test_graphs_imports_without_scipy_optimize():
    # what every worker process pays before its first pair
    code = "import sys, graphs; print('scipy.optimize' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "False"
