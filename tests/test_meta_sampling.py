"""Seeded pair sampling, bootstrap weights and splits for the meta-evaluation."""

import itertools
from collections import Counter

import numpy as np
import pytest

from ruby_metric.meta.sampling import bootstrap_counts, class_pairs, stratified_split

LABELS = ["b", "a", "b", "c", "a", "b", "a", "d"]  # d is a singleton class


def brute_force(labels):
    intra, inter = set(), set()
    for i, j in itertools.permutations(range(len(labels)), 2):
        (intra if labels[i] == labels[j] else inter).add((i, j))
    return intra, inter


def test_exact_pairs_are_every_ordered_pair():
    intra, inter = brute_force(LABELS)
    p = class_pairs(LABELS, pairs=1000)
    assert p.exact
    assert {tuple(x) for x in p.intra.tolist()} == intra and len(p.intra) == len(intra)
    assert {tuple(x) for x in p.inter.tolist()} == inter and len(p.inter) == len(inter)
    assert (p.population_intra, p.population_inter) == (len(intra), len(inter)) == (12, 44)


def test_sampled_pairs_are_distinct_valid_and_reproducible():
    labels = [i % 5 for i in range(60)] + [7] * 3
    intra_all, inter_all = brute_force(labels)
    p = class_pairs(labels, pairs=150, seed=3)
    assert not p.exact and len(p.intra) == len(p.inter) == 150
    intra = [tuple(x) for x in p.intra.tolist()]
    inter = [tuple(x) for x in p.inter.tolist()]
    assert len(set(intra)) == 150 and set(intra) <= intra_all
    assert len(set(inter)) == 150 and set(inter) <= inter_all
    again = class_pairs(labels, pairs=150, seed=3)
    assert np.array_equal(p.intra, again.intra) and np.array_equal(p.inter, again.inter)
    other = class_pairs(labels, pairs=150, seed=4)
    assert not np.array_equal(p.intra, other.intra)


def test_sampling_is_uniform_over_pairs_not_classes():
    # One big class and one of three: pairs of the big class must dominate the intra draws
    # in proportion to their number (90 * 89 vs 3 * 2 ordered pairs).
    labels = ["big"] * 90 + ["small"] * 3
    counts = Counter()
    for seed in range(30):
        p = class_pairs(labels, pairs=100, seed=seed)
        counts.update("small" if i >= 90 else "big" for i, _ in p.intra.tolist())
    share = counts["small"] / sum(counts.values())
    assert share < 0.01  # expected 6 / 8016 = 0.00075


def test_invalid_inputs():
    with pytest.raises(ValueError, match="two classes"):
        class_pairs(["a", "a"])
    with pytest.raises(ValueError, match="intra-class"):
        class_pairs(["a", "b", "c"])
    with pytest.raises(ValueError, match="at least 1"):
        class_pairs(["a", "a", "b"], pairs=0)


def test_bootstrap_counts_rows_are_resamples():
    rng = np.random.default_rng(0)
    w = bootstrap_counts(rng, 50, 7)
    assert w.shape == (50, 7) and (w.sum(axis=1) == 7).all() and (w >= 0).all()


def test_stratified_split_keeps_both_labels_on_both_sides():
    labels = [1] * 9 + [0] * 5
    train = stratified_split(labels, 0.5, seed=1)
    lab = np.array(labels)
    assert train[lab == 1].sum() == 4 and train[lab == 0].sum() == 2  # round(4.5)=4, round(2.5)=2
    assert np.array_equal(train, stratified_split(labels, 0.5, seed=1))
