"""graphs.ged.assignment: the very permutation scipy's ``linear_sum_assignment`` returns.

scipy is the oracle: any other optimal permutation on a tie would move a GED, and so a
score. Tie-heavy matrices (small integers, halves, constants, the fixed-point walk's 2**-10
grid) are what tell the tie-breaking rules apart; random floats check the optimum itself.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from graphs.ged.assignment import assignment_value, solve_assignment

ROOT = Path(__file__).resolve().parents[1]


def scipy_perm(cost: np.ndarray) -> np.ndarray:
    rows, cols = linear_sum_assignment(cost)
    assert np.array_equal(rows, np.arange(cost.shape[0]))
    return cols


def matrix(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "integers":
        return rng.integers(0, 3, (n, n)).astype(np.float64)
    if kind == "negative integers":
        return rng.integers(-5, 1, (n, n)).astype(np.float64)
    if kind == "halves":
        return rng.integers(-4, 5, (n, n)) / 2.0
    if kind == "constant":
        return np.full((n, n), float(rng.integers(-3, 4)))
    if kind == "grid":
        # a fixed-point gradient: unit costs minus products of 2**-10 multiples
        return rng.integers(0, 4, (n, n)) - rng.integers(0, 3 * 1024, (n, n)) / 1024.0
    if kind == "sparse ones":
        return (rng.random((n, n)) < 0.1).astype(np.float64)
    return rng.random((n, n)) * 100.0 - 50.0


KINDS = ("integers", "negative integers", "halves", "constant", "grid", "sparse ones", "floats")


@pytest.mark.parametrize("kind", KINDS)
def test_seeded_matrices_of_every_size_give_scipys_permutation(kind):
    rng = np.random.default_rng(31)
    for n in range(1, 41):
        for _ in range(6):
            cost = matrix(kind, n, rng)
            perm = solve_assignment(cost)
            assert perm.dtype == np.int64
            np.testing.assert_array_equal(perm, scipy_perm(cost), err_msg=f"{kind}, n={n}")


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.lists(
            st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, -1.0]), min_size=n, max_size=n),
            min_size=n,
            max_size=n,
        )
    )
)
def test_tied_matrices_give_scipys_permutation(rows):
    cost = np.array(rows, dtype=np.float64)
    np.testing.assert_array_equal(solve_assignment(cost), scipy_perm(cost))


def test_a_3x3_worked_by_hand():
    # Row 0 takes column 1 (cost 1). Row 1's cheapest column is 1 too (0), taken, so its
    # search goes on from row 0: column 2 through row 0 costs 0 + 3 - u0 = 2 with u0 = 1,
    # column 0 straight from row 1 costs 2, both free; a free column that ties replaces,
    # so the later one in the scan, column 0, is the sink: row 1 -> 0, row 0 keeps 1. Row 2
    # takes column 2 (2, against 3 and 2 + 2 for the others). The only optimum, 5:
    cost = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
    totals = {p: sum(cost[i, p[i]] for i in range(3)) for p in itertools.permutations(range(3))}
    assert totals == {
        (0, 1, 2): 6.0, (0, 2, 1): 11.0, (1, 0, 2): 5.0,
        (1, 2, 0): 9.0, (2, 0, 1): 7.0, (2, 1, 0): 6.0,
    }
    perm = solve_assignment(cost)
    assert perm.tolist() == [1, 0, 2]
    assert assignment_value(cost, perm) == 5.0


def test_ties_are_broken_as_scipy_breaks_them():
    # Every permutation of a constant matrix is optimal. Columns are scanned from the last
    # one down and a free column that ties replaces the one kept, so each row takes the
    # lowest free column: the identity.
    assert solve_assignment(np.zeros((4, 4))).tolist() == [0, 1, 2, 3]
    # Row 0 ties columns 1 and 0 and takes 0 (met last). Row 1's cheapest is column 0,
    # taken: from row 0, column 1 costs 0 and column 2 still 1 (from row 1), so column 1
    # is the sink and row 0 moves over to it.
    cost = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    assert solve_assignment(cost).tolist() == scipy_perm(cost).tolist() == [1, 0, 2]


def test_the_empty_matrix_and_one_entry():
    assert solve_assignment(np.zeros((0, 0))).tolist() == []
    assert solve_assignment(np.array([[-7.25]])).tolist() == [0]


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_a_non_finite_entry_is_a_clear_error(bad):
    cost = np.ones((3, 3))
    cost[1, 2] = bad
    with pytest.raises(ValueError, match=r"non-finite entry .* at \(row, column\) \(1, 2\)"):
        solve_assignment(cost)


def test_a_matrix_that_is_not_square_is_refused():
    with pytest.raises(ValueError, match=r"must be square, got shape \(2, 3\)"):
        solve_assignment(np.ones((2, 3)))


def test_integer_and_strided_input_give_the_same_permutation():
    rng = np.random.default_rng(5)
    cost = rng.integers(0, 4, (9, 9))
    expected = scipy_perm(cost.astype(np.float64))
    np.testing.assert_array_equal(solve_assignment(cost), expected)
    np.testing.assert_array_equal(solve_assignment(cost.T.copy().T), expected)
    np.testing.assert_array_equal(solve_assignment(np.asfortranarray(cost)), expected)


def test_scoring_a_pair_does_not_import_scipy_optimize():
    # scipy.optimize cost about 0.7 s of every fresh process's start-up (each CLI call,
    # each worker); scipy.stats (meta commands only) about as much again.
    script = (
        "import sys\n"
        "from ruby_metric import RubyScorer\n"
        "r = RubyScorer('java').score('int f(int a){int s = 0; for (int i = 0; i < a; i++)"
        " { s += i; } if (s > 3) { s--; } return s;}',"
        " 'int f(int b){int t = 0; int i = 0; while (i < b) { t = t + i; i++; } return t;}')\n"
        "from ruby_metric.cli.app import build_parser\n"
        "assert r.tier == 'graph', r.tier\n"
        "print(sorted(m for m in ('scipy.optimize', 'scipy.stats') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True, text=True, timeout=300, check=True, cwd=ROOT,
    )
    assert out.stdout == "[]\n", out.stderr[-2000:]
