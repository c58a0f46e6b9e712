"""Seeded sampling: intra- and inter-class program pairs, bootstrap weights, train/test splits.

Everything random here takes a seed (or a :class:`numpy.random.Generator`) and draws from
numpy's PCG64, so the same seed gives the same pairs, resamples and splits on every machine.

Pairs are *ordered* ``(reference, candidate)`` pairs of two different programs: BLEU and
CrystalBLEU are not symmetric, so ``(a, b)`` and ``(b, a)`` are different measurements.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "ClassPairs",
    "class_pairs",
    "bootstrap_counts",
    "stratified_split",
    "rng_for",
]

#: Elements of one block of random draws (rows x pairs), to bound memory on large corpora.
BLOCK_ELEMENTS = 2_000_000


def rng_for(seed: int | np.random.Generator | None, *stream: int) -> np.random.Generator:
    """A generator for ``seed`` and a stream number, independent across streams.

    Separate streams keep one random procedure's draws unchanged when another one (say,
    the number of bootstrap samples) changes. ``None`` draws fresh entropy (not
    reproducible, numpy's convention); a Generator is used as given.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng([seed, *stream])


@dataclass(frozen=True)
class ClassPairs:
    """Ordered program pairs within classes (intra) and across classes (inter).

    Attributes
    ----------
    intra, inter : int arrays of shape (k, 2): ``(reference index, candidate index)`` into
        the program list, sorted.
    exact : True when these are *all* ordered pairs (no sampling).
    population_intra, population_inter : how many ordered intra and inter pairs exist.
    """

    intra: np.ndarray
    inter: np.ndarray
    exact: bool
    population_intra: int
    population_inter: int


def class_pairs(
    labels: Sequence[Hashable],
    pairs: int = 1000,
    seed: int | np.random.Generator | None = 0,
) -> ClassPairs:
    """All ordered intra/inter-class pairs when few, else ``pairs`` of each sampled uniformly.

    Parameters
    ----------
    labels : the class of each program.
    pairs : N, the number of intra and of inter pairs to sample. When both populations
        together hold at most ``2 * pairs`` ordered pairs, all are returned (``exact``).
        Otherwise ``min(N, population)`` of each are drawn uniformly without replacement.
    seed : seed or generator for the sampling.

    Returns
    -------
    ClassPairs

    Raises
    ------
    ValueError : fewer than two classes, no class with two programs, or ``pairs < 1``.

    Examples
    --------
    >>> p = class_pairs(["a", "a", "b"])
    >>> p.exact, p.intra.tolist(), p.inter.tolist()
    (True, [[0, 1], [1, 0]], [[0, 2], [1, 2], [2, 0], [2, 1]])
    """
    if pairs < 1:
        raise ValueError(f"pairs must be at least 1, got {pairs}")
    # Group programs by class, classes in order of first appearance.
    first_seen: dict[Hashable, int] = {}
    class_of = np.array([first_seen.setdefault(lab, len(first_seen)) for lab in labels], int)
    n = len(class_of)
    if len(first_seen) < 2:
        raise ValueError(f"need programs of at least two classes, got {len(first_seen)}")
    order = np.argsort(class_of, kind="stable")  # sorted position -> program index
    sizes = np.bincount(class_of)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    intra_per_class = sizes * (sizes - 1)
    population_intra = int(intra_per_class.sum())
    population_inter = n * (n - 1) - population_intra
    if population_intra == 0:
        raise ValueError("no class has two programs: there is no intra-class pair")

    if population_intra + population_inter <= 2 * pairs:
        intra_codes = np.arange(population_intra)
        inter_codes = np.arange(population_inter)
        exact = True
    else:
        rng = rng_for(seed, 1)
        intra_codes = np.sort(
            rng.choice(population_intra, size=min(pairs, population_intra), replace=False)
        )
        inter_codes = np.sort(
            rng.choice(population_inter, size=min(pairs, population_inter), replace=False)
        )
        exact = False

    intra = _decode_intra(intra_codes, sizes, starts, intra_per_class)
    inter = _decode_inter(inter_codes, class_of[order], sizes, starts)
    intra, inter = order[intra], order[inter]
    return ClassPairs(
        intra=_sorted_pairs(intra),
        inter=_sorted_pairs(inter),
        exact=exact,
        population_intra=population_intra,
        population_inter=population_inter,
    )


def _sorted_pairs(p: np.ndarray) -> np.ndarray:
    if len(p) == 0:
        return p.reshape(0, 2)
    return p[np.lexsort((p[:, 1], p[:, 0]))]


def _decode_intra(
    codes: np.ndarray, sizes: np.ndarray, starts: np.ndarray, per_class: np.ndarray
) -> np.ndarray:
    """Map integers in [0, population) to ordered intra pairs (sorted positions).

    Within a class of size m, code r stands for (r // (m-1), the (r % (m-1))-th other member),
    so every ordered pair of distinct members has exactly one code: sampling codes uniformly
    samples pairs uniformly without listing them.
    """
    offsets = np.cumsum(per_class)
    cls = np.searchsorted(offsets, codes, side="right")
    r = codes - (offsets[cls] - per_class[cls])
    m1 = sizes[cls] - 1
    a = r // np.maximum(m1, 1)
    b = r % np.maximum(m1, 1)
    b = b + (b >= a)
    return np.stack([starts[cls] + a, starts[cls] + b], axis=1).astype(np.int64)


def _decode_inter(
    codes: np.ndarray, sorted_class: np.ndarray, sizes: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """Map integers in [0, population) to ordered inter pairs (sorted positions).

    The program at sorted position i has ``n - size(class(i))`` partners outside its class:
    positions ``[0, start)`` and ``[end, n)``; code r picks i by cumulative partner counts
    and the partner by its rank among those positions.
    """
    n = len(sorted_class)
    partners = n - sizes[sorted_class]
    offsets = np.cumsum(partners)
    i = np.searchsorted(offsets, codes, side="right")
    s = codes - (offsets[i] - partners[i])
    cls = sorted_class[i]
    j = np.where(s < starts[cls], s, s + sizes[cls])
    return np.stack([i, j], axis=1).astype(np.int64)


def bootstrap_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """How often each of ``n`` items is drawn in each of ``rows`` resamples of size ``n``.

    Returns an int array of shape (rows, n) whose rows sum to n: the resample as weights,
    so a resampled sum is one matrix product.
    """
    if n == 0:
        return np.zeros((rows, 0), dtype=np.int64)
    draws = rng.integers(0, n, size=(rows, n))
    flat = (np.arange(rows)[:, None] * n + draws).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n)


def stratified_split(
    labels: Sequence[int] | np.ndarray,
    train_fraction: float = 0.5,
    seed: int | np.random.Generator | None = 0,
) -> np.ndarray:
    """A boolean train mask, drawn separately within each label (so both halves keep the mix).

    Parameters
    ----------
    labels : the label of each item.
    train_fraction : share of each label's items in the training part (rounded, and at least
        one item left on each side when a label has two or more).
    seed : seed or generator.

    Returns
    -------
    numpy bool array, True for training items.

    Examples
    --------
    >>> int(stratified_split([1, 1, 0, 0], 0.5, seed=0).sum())
    2
    """
    if not 0 < train_fraction < 1:
        raise ValueError(f"train_fraction must be in (0, 1), got {train_fraction}")
    labels = np.asarray(labels)
    rng = rng_for(seed, 3)
    train = np.zeros(len(labels), dtype=bool)
    for value in np.unique(labels):
        members = np.flatnonzero(labels == value)
        k = int(round(train_fraction * len(members)))
        if len(members) >= 2:
            k = min(max(k, 1), len(members) - 1)
        train[rng.permutation(members)[:k]] = True
    return train
