"""Correlation with judgments: equal to scipy's, AUC by hand, seeded bootstrap intervals."""

import numpy as np
import pytest
from scipy import stats

from ruby_metric.meta import correlate, correlate_metrics, is_binary, roc_auc

RNG = np.random.default_rng(11)
HUMAN = RNG.integers(1, 6, 40).astype(float)  # 1..5 ratings: many ties
METRIC = np.clip(HUMAN / 5 + RNG.normal(0, 0.2, 40), 0, 1)


def test_point_estimates_equal_scipy():
    r = correlate(METRIC, HUMAN, bootstrap=0)
    assert r.pearson.value == stats.pearsonr(METRIC, HUMAN)[0]
    assert r.spearman.value == stats.spearmanr(METRIC, HUMAN)[0]
    assert r.kendall.value == stats.kendalltau(METRIC, HUMAN)[0]
    assert r.pearson.p_value == stats.pearsonr(METRIC, HUMAN)[1]
    assert r.kendall.p_value == stats.kendalltau(METRIC, HUMAN)[1]
    assert r.n == 40 and r.excluded == 0 and r.auc is None
    assert r.pearson.ci is None


def test_undefined_metric_values_are_excluded():
    scores = list(METRIC)
    scores[3] = None
    scores[7] = float("nan")
    keep = np.ones(40, bool)
    keep[[3, 7]] = False
    r = correlate(scores, HUMAN, bootstrap=0)
    assert (r.n, r.excluded) == (38, 2)
    assert r.spearman.value == stats.spearmanr(METRIC[keep], HUMAN[keep])[0]


def test_bootstrap_intervals_are_seeded_and_bracket_the_estimate():
    a = correlate(METRIC, HUMAN, bootstrap=300, seed=4)
    b = correlate(METRIC, HUMAN, bootstrap=300, seed=4)
    c = correlate(METRIC, HUMAN, bootstrap=300, seed=5)
    assert a == b and a.spearman.ci != c.spearman.ci
    for est in (a.pearson, a.spearman, a.kendall):
        assert est.ci[0] < est.value < est.ci[1]


def test_vectorized_bootstrap_statistics_match_scipy_per_resample():
    # The intervals use row-wise Pearson/Spearman; check them against scipy on resamples.
    from ruby_metric.meta.correlation import _rowwise_pearson

    idx = np.random.default_rng(0).integers(0, 40, size=(5, 40))
    xs, ys = METRIC[idx], HUMAN[idx]
    ours = _rowwise_pearson(stats.rankdata(xs, axis=1), stats.rankdata(ys, axis=1))
    theirs = [stats.spearmanr(x, y)[0] for x, y in zip(xs, ys, strict=True)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_auc_by_hand():
    # positives 0.35 and 0.8 against negatives 0.1 and 0.4: 3 of 4 comparisons won.
    assert roc_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) == 0.75
    # a tie between a positive and a negative counts half: (0.5 + 1 + 1 + 1) / 4.
    assert roc_auc([0.5, 0.5, 0.2, 0.9], [True, False, False, True]) == 0.875
    assert roc_auc([1, 2, 3], [0, 1, 1]) == 1.0 and roc_auc([3, 2, 1], [0, 1, 1]) == 0.0
    with pytest.raises(ValueError, match="both"):
        roc_auc([0.1, 0.2], [1, 1])


def test_binary_judgments_get_an_auc_with_interval():
    labels = (HUMAN >= 3).astype(float)
    assert is_binary(labels) and is_binary([True, False]) and not is_binary(HUMAN)
    r = correlate(METRIC, labels, bootstrap=200, seed=0)
    assert r.auc.value == roc_auc(METRIC, labels)
    assert r.auc.ci[0] <= r.auc.value <= r.auc.ci[1]
    assert "auc" in r.to_dict() and "auc" not in correlate(METRIC, HUMAN, bootstrap=0).to_dict()


def test_constant_input_is_none_not_nan_and_errors():
    r = correlate([0.5] * 5, [1, 2, 3, 4, 5], bootstrap=50)
    assert r.pearson.value is None and r.spearman.value is None
    assert r.pearson.ci is None
    with pytest.raises(ValueError, match="judgments"):
        correlate([0.1, 0.2], [1.0])
    with pytest.raises(ValueError, match="finite"):
        correlate([0.1, 0.2], [1.0, float("nan")])


def test_correlate_metrics_keys_and_json_shape():
    out = correlate_metrics({"bleu": METRIC, "sts": METRIC[::-1]}, HUMAN, bootstrap=20)
    assert list(out) == ["bleu", "sts"]
    d = out["bleu"].to_dict()
    for key in ("pearson", "spearman", "kendall", "pearson_ci", "spearman_p_value", "n"):
        assert key in d


@pytest.mark.parametrize("n", [2, 5, 15, 120])
def test_the_bootstraps_kendall_is_scipys_to_the_bit(n):
    # each resample was one scipy call (1.6 ms whatever n: 22 s for 15 pairs in 4 systems);
    # the vectorized count must give the very floats scipy gives, ties and constant rows
    # (NaN) included, so no printed CI moves
    import warnings

    from ruby_metric.meta.correlation import _rowwise_kendall

    rng = np.random.default_rng(n)
    x = np.round(rng.random((64, n)) * 4) / 4  # ties in x
    y = (rng.random((64, n)) > 0.5).astype(float)  # a pass/fail label: ties in y
    x[0] = 0.5  # a constant row
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.array([stats.kendalltau(a, b)[0] for a, b in zip(x, y, strict=True)])
    got = _rowwise_kendall(x, y)
    assert np.isnan(got[0]) and np.array_equal(got, want, equal_nan=True)
