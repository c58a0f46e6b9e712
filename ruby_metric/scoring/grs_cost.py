"""GRS's cost model (v4, docs/metrics.md): what a statement weighs, how far apart two labels
are, what a substitution costs, and the recall-weighted score built from the edit distance.

* A node weighs the number of tokens of its normalized label (the entry node: its
  signature's tokens), at least 1; an edge weighs 1.
* Two labels share the part of each found in the other: with ``R`` the share of ``a``'s
  character n-grams found in ``b`` and ``P`` the share of ``b``'s found in ``a`` (chrF's
  averaged recall and precision: orders 1..6, whitespace removed), they share the mass
  ``w_a R + w_b P`` of their ``w_a + w_b``, and are ``d(a, b) = 1 - (w_a R + w_b P) / (w_a +
  w_b)`` apart; 0 when equal, at least 1/64 when not (chrF ignores order: swapped ``?:``
  branches have ``R = P = 1``).
* Substituting ``a`` by ``b`` costs ``max((w_a + w_b) d(a, b), |w_a - w_b|)``, the mass the
  two do not share (never less than the tokens one side lacks); inserting or deleting a
  node costs its weight. So a token a candidate adds to a statement, if the reference's
  statement lacks it, costs what inserting it costs: it never adds shared mass. (v3 charged
  ``max(max(w_a, w_b) (1 - chrF), |w_a - w_b|)``, a token added at ``1 - chrF`` of a token,
  under which ``x = a * b - 1`` outscored ``x = a * b`` against ``x = a + b``.)
* A local's name is an identity, not text: the two labels are compared with each distinct
  name of the pair spelled in a character of its own (repeated to the name's length, so
  its mass is unchanged). Two names are the same variable or not; ``v3fa`` and ``v3fb``
  share nothing, where their characters (and every name's leading ``v``) used to count as
  shared mass.
* A node labelled as text (``⁇ ...``: a statement that did not parse, one the repair had to
  complete, the tokens a repair inserted) is credited only when its label is equal: any
  other substitution costs ``w_a + w_b``, as deleting one and inserting the other. What a
  side did not write as code could mean anything, so GRS takes the low end: it credits the
  statement's place (its edges may still match), never a guess at its content.
* ``S`` = sum of node weights + edges; ``M = (S_ref + S_cand - GED) / 2`` is the matched
  mass and ``GRS = (1 + beta^2) M / (beta^2 S_ref + S_cand)``. ``beta = 2`` (the default)
  weighs how much of the reference the candidate carries (recall) four times as much as
  how much of the candidate is in the reference; ``beta = 1`` is the symmetric
  ``1 - GED / (S_ref + S_cand)``, for clone detection and other symmetric uses.

The label costs do not depend on ``beta`` and are symmetric (``R`` and ``P`` trade places
when the sides do), so ``beta = 1`` is symmetric all the way down (``GRS(a, b) = GRS(b, a)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import crystal
import graphs
from graphs.flow.labels import label_size
from graphs.pdg.local_alignment import local_names, rename_in_label
from graphs.trees.normalized import OPAQUE_MARK

__all__ = [
    "DEFAULT_GRS_BETA",
    "LABEL_DISTANCE_FLOOR",
    "GRSCostModel",
    "check_beta",
    "recall_weighted_score",
]

#: GRS's default beta: recall (the reference's meaning carried) weighs 4x precision.
DEFAULT_GRS_BETA = 2.0
#: The smallest distance between two different labels (one tick of the GED's cost grid).
LABEL_DISTANCE_FLOOR = 1.0 / 64


def check_beta(beta: Any) -> float:
    """``beta`` as a float, or ValueError when it is not a finite positive number.

    >>> check_beta(1)
    1.0
    """
    try:
        value = float(beta)
    except (TypeError, ValueError):
        raise ValueError(f"GRS beta must be a positive number, got {beta!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"GRS beta must be a positive number, got {beta!r}")
    return value


def recall_weighted_score(
    distance: float, size_ref: float, size_cand: float, beta: float = DEFAULT_GRS_BETA
) -> float:
    """``(1 + beta^2) M / (beta^2 S_ref + S_cand)`` with ``M = (S_ref + S_cand - GED) / 2``,
    clipped to [0, 1]; two empty graphs score 1.

    Parameters
    ----------
    distance : the graph edit distance under the weighted cost model.
    size_ref, size_cand : the weighted sizes (node weights plus edges).
    beta : recall weight; 1 gives ``1 - GED / (S_ref + S_cand)``.

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> recall_weighted_score(0.0, 10, 10)
    1.0
    >>> recall_weighted_score(5.0, 10, 5)   # the candidate is half the reference
    0.5555555555555556
    >>> round(recall_weighted_score(5.0, 10, 5, beta=1.0), 12)  # 1 - 5 / 15
    0.666666666667
    """
    total = size_ref + size_cand
    if total <= 0:
        return 1.0
    factor = beta * beta
    matched = (total - distance) / 2.0
    score = (1.0 + factor) * matched / (factor * size_ref + size_cand)
    return min(1.0, max(0.0, score))


@dataclass(frozen=True)
class GRSCostModel:
    """GRS v4 costs for :func:`graphs.graph_edit_distance`, and the score from its result.

    Attributes
    ----------
    beta : recall weight of the score (default 2).

    Examples
    --------
    >>> model = GRSCostModel()
    >>> model.node_weight(["return v0", "v0 = v1 + 1"]).tolist()
    [2.0, 5.0]
    >>> model.label_distance(["return v0"], ["return v0", "return v1"]).round(4).tolist()
    [[0.0, 0.406]]
    """

    beta: float = DEFAULT_GRS_BETA

    def __post_init__(self) -> None:
        object.__setattr__(self, "beta", check_beta(self.beta))

    def node_weight(self, labels: list) -> np.ndarray:
        """Weights of labels: their number of tokens, at least 1."""
        return np.array([max(1, label_size(str(lab))) for lab in labels], dtype=np.float64)

    def label_distance(self, ref_labels: list, cand_labels: list) -> np.ndarray:
        """``d[i, j]``: 0 for equal labels, else ``max(1/64, 1 - (w_i R + w_j P) / (w_i +
        w_j))`` with ``R``, ``P`` the chrF recall and precision of ``cand_labels[j]``
        against ``ref_labels[i]`` (the share of the two labels' mass not found in the
        other).

        >>> GRSCostModel().label_distance(["v0 = v1"], ["v0 = v1", "v0 = v1 + 1"]).round(4).tolist()
        [[0.0, 0.2732]]
        """
        w1 = self.node_weight(ref_labels)[:, None]
        w2 = self.node_weight(cand_labels)[None, :]
        return _shared_mass_distance(ref_labels, cand_labels, w1, w2)

    def subst_cost(self, ref_labels: list, cand_labels: list) -> np.ndarray:
        """``cost[i, j] = max((w_i + w_j) * d[i, j], |w_i - w_j|)`` (the GED's
        ``node_subst_cost``; it rounds each to a multiple of 1/64); ``w_i + w_j`` when
        either label is text (``⁇ ...``) and they differ.

        >>> GRSCostModel().subst_cost(["⁇ x = f(a", "x = f(v0)"], ["x = f(v0)"]).tolist()
        [[12.0], [0.0]]
        """
        w1 = self.node_weight(ref_labels)[:, None]
        w2 = self.node_weight(cand_labels)[None, :]
        d = _shared_mass_distance(ref_labels, cand_labels, w1, w2)  # weights computed once
        # equal labels: d = 0 and equal weights, so they cost 0; d <= 1 keeps the cost
        # within a deletion plus an insertion
        cost = np.maximum((w1 + w2) * d, np.abs(w1 - w2))
        opaque1 = [str(lab).startswith(OPAQUE_MARK) for lab in ref_labels]
        opaque2 = [str(lab).startswith(OPAQUE_MARK) for lab in cand_labels]
        if not (any(opaque1) or any(opaque2)):
            return cost  # no text label (most pairs): nothing is a guess
        guess = (np.array(opaque1)[:, None] | np.array(opaque2)[None, :]) & (d > 0)
        if guess.any():
            cost = np.where(guess, w1 + w2, cost)
        return cost

    def ged_options(self) -> dict[str, Any]:
        """Keyword arguments of :func:`graphs.graph_edit_distance` for GRS: edges compared
        by their ``dep`` (dependence kind and outcome), weighted nodes, these costs."""
        return {
            "edge_label": "dep",
            "node_subst_cost": self.subst_cost,
            "node_weight": self.node_weight,
        }

    def size(self, pdg: Any) -> float:
        """Weighted size of a PDG: the sum of its node weights plus its edges (what
        ``graphs.graph_size(pdg, node_weight=self.node_weight)`` gives: the weights are
        whole numbers, which the GED's quantization leaves as they are)."""
        weights = sum(max(1, label_size(str(lab))) for _, lab in pdg.nodes(data="label"))
        return float(graphs.graph_size(pdg) - pdg.number_of_nodes() + weights)

    def score(self, distance: float, size_ref: float, size_cand: float) -> float:
        """GRS from a distance and the two weighted sizes (:func:`recall_weighted_score`)."""
        return recall_weighted_score(distance, size_ref, size_cand, self.beta)


def _shared_mass_distance(ref_labels: list, cand_labels: list, w1: np.ndarray,
                          w2: np.ndarray) -> np.ndarray:
    """:meth:`GRSCostModel.label_distance` for labels whose weights (a column and a row)
    are known."""
    refs = [str(lab) for lab in ref_labels]
    cands = [str(lab) for lab in cand_labels]
    stats = crystal.chrf_statistics(*_names_as_identities(refs, cands))
    d = 1.0 - (w1 * stats.recall + w2 * stats.precision) / (w1 + w2)
    np.maximum(d, LABEL_DISTANCE_FLOOR, out=d)
    position = {lab: j for j, lab in enumerate(cands)}
    for i, lab in enumerate(refs):
        j = position.get(lab)
        if j is not None:
            d[i, j] = 0.0
    return d


def _names_as_identities(refs: list[str], cands: list[str]) -> tuple[list[str], list[str]]:
    """Both lists of labels with each distinct local name spelled in one character of its
    own, repeated to the name's length, that no label holds: chrF then credits a name only
    where the other label has the same name.

    The characters are taken from U+0080 up (below ``crystal.PACKED_CHARS``, which chrF
    counts on its compiled path), skipping any a label holds, then from the private use
    areas.
    """
    names = sorted({name for label in (*refs, *cands) for name in local_names(label)})
    if not names:
        return refs, cands
    text = "".join(refs) + "".join(cands)
    used = set() if text.isascii() else {ord(ch) for ch in text if ord(ch) >= 0x80}
    free = (code for block in _SPELLING_BLOCKS for code in block if code not in used)
    spelled = {name: chr(next(free)) * len(name) for name in names}
    return ([rename_in_label(label, spelled) for label in refs],
            [rename_in_label(label, spelled) for label in cands])


#: Where the spelling of names comes from: first below chrF's packed range (fast), then
#: the private use areas (never in code, slower to count).
_SPELLING_BLOCKS = (range(0x80, crystal.PACKED_CHARS), range(0xE000, 0xF900),
                    range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))
