"""chrF (character n-gram F-score), the string baseline of the judged-set validity."""

from __future__ import annotations

from collections.abc import Sequence

import crystal
from crystal.chrf import CHRF_ORDER


def chrf(hypothesis: str, references: str | Sequence[str], *, order: int = CHRF_ORDER,
         beta: float = 2.0) -> float:
    """Sentence chrF in [0, 1] (sacrebleu's default chrF: n = 1..6, beta = 2, spaces removed),
    the best over the references (:func:`crystal.chrf_matrix`).

    Character n-gram precision and recall are averaged over the orders where both sides
    have n-grams, then combined as an F-beta score.

    >>> chrf("abc", "abc")
    1.0
    >>> chrf("", "abc")
    0.0
    """
    if order != CHRF_ORDER:
        raise ValueError(f"chrF is computed with n-gram orders 1..{CHRF_ORDER}, not {order}")
    refs = [references] if isinstance(references, str) else list(references)
    if not refs:
        return 0.0
    return float(crystal.chrf_matrix(refs, [hypothesis], beta=beta).max())
