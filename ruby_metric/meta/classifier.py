"""The threshold classifier of CrystalBLEU's table 3: is a pair of programs equivalent?

Eghbali & Pradel (ASE 2022, section 4.3.2): on a training split, take the mean similarity of
the equivalent pairs and of the non-equivalent pairs; the threshold is the mean of the two.
A test pair scoring *above* the threshold is predicted equivalent. Reported on the test
split: the confusion counts, accuracy, precision, recall and F1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .pair_scores import as_float_array
from .sampling import stratified_split

__all__ = ["ClassifierResult", "threshold_classifier"]


@dataclass(frozen=True)
class ClassifierResult:
    """Test-split performance of the threshold classifier.

    Attributes
    ----------
    threshold : (mean equivalent score + mean non-equivalent score) / 2 on the training split.
    tp, fp, tn, fn : confusion counts on the test split (positive = equivalent).
    accuracy, precision, recall, f1 : the usual ratios; precision is 0.0 when nothing is
        predicted positive and F1 is 0.0 when precision and recall are both 0.
    n_train, n_test : pairs used for the threshold and for the evaluation (pairs where the
        metric is undefined are left out of both).
    """

    threshold: float
    tp: int
    fp: int
    tn: int
    fn: int
    accuracy: float
    precision: float
    recall: float
    f1: float
    n_train: int
    n_test: int

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict."""
        return asdict(self)


def threshold_classifier(
    positive_scores: Sequence[float | None] | np.ndarray,
    negative_scores: Sequence[float | None] | np.ndarray,
    *,
    train_fraction: float = 0.5,
    seed: int | np.random.Generator | None = 0,
    train_mask: np.ndarray | None = None,
) -> ClassifierResult:
    """Fit the mean-of-means threshold on a training split and evaluate on the rest.

    Parameters
    ----------
    positive_scores : similarity of each equivalent (intra-class) pair; ``None``/NaN where
        the metric is undefined (left out).
    negative_scores : similarity of each non-equivalent (inter-class) pair.
    train_fraction : share of each kind of pair used for training (default 0.5).
    seed : seed of the split. The split is drawn over all pairs before undefined ones are
        dropped, so with the same seed every metric is trained and tested on the same pairs.
    train_mask : an explicit split instead: a boolean array over the positives followed by
        the negatives, True for training pairs.

    Returns
    -------
    ClassifierResult

    Raises
    ------
    ValueError : either split lacks a defined score of either kind.

    Examples
    --------
    >>> r = threshold_classifier([0.9, 0.8, 0.7, 0.6], [0.1, 0.2, 0.5, 0.65], seed=0)
    >>> 0.2 < r.threshold < 0.8 and r.n_train == r.n_test == 4
    True
    """
    pos = as_float_array(positive_scores)
    neg = as_float_array(negative_scores)
    scores = np.concatenate([pos, neg])
    truth = np.concatenate([np.ones(len(pos), bool), np.zeros(len(neg), bool)])
    if train_mask is None:
        train = stratified_split(truth.astype(int), train_fraction, seed)
    else:
        train = np.asarray(train_mask, dtype=bool)
        if train.shape != scores.shape:
            raise ValueError(f"train_mask has {train.size} entries for {scores.size} pairs")
    defined = np.isfinite(scores)
    fit, test = train & defined, ~train & defined
    for part, name in ((fit, "training"), (test, "test")):
        if not (part & truth).any() or not (part & ~truth).any():
            raise ValueError(f"the {name} split needs defined scores of both kinds of pair")
    threshold = (scores[fit & truth].mean() + scores[fit & ~truth].mean()) / 2.0
    predicted = scores[test] > threshold
    actual = truth[test]
    tp = int(np.sum(predicted & actual))
    fp = int(np.sum(predicted & ~actual))
    tn = int(np.sum(~predicted & ~actual))
    fn = int(np.sum(~predicted & actual))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return ClassifierResult(
        threshold=float(threshold),
        tp=tp,
        fp=fp,
        tn=tn,
        fn=fn,
        accuracy=(tp + tn) / int(test.sum()),
        precision=precision,
        recall=recall,
        f1=f1,
        n_train=int(fit.sum()),
        n_test=int(test.sum()),
    )
