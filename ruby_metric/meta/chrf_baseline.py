"""chrF (character n-gram F-score), the string baseline of the judged-set validity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def _char_ngrams(text: str, n: int) -> Counter:
    return Counter(text[i:i + n] for i in range(len(text) - n + 1))


def chrf(hypothesis: str, references: str | Sequence[str], *, order: int = 6,
         beta: float = 2.0) -> float:
    """Sentence chrF in [0, 1] (sacrebleu's default chrF: n = 1..6, beta = 2, spaces removed).

    Character n-gram precision and recall are averaged over the orders where both sides
    have n-grams, then combined as an F-beta score. With several references, the best.

    >>> chrf("abc", "abc")
    1.0
    >>> chrf("", "abc")
    0.0
    """
    refs = [references] if isinstance(references, str) else list(references)
    hyp = "".join(hypothesis.split())
    best = 0.0
    for ref in refs:
        r = "".join(ref.split())
        precs, recs = [], []
        for n in range(1, order + 1):
            h_grams, r_grams = _char_ngrams(hyp, n), _char_ngrams(r, n)
            h_total, r_total = sum(h_grams.values()), sum(r_grams.values())
            if h_total == 0 or r_total == 0:
                continue
            match = sum((h_grams & r_grams).values())
            precs.append(match / h_total)
            recs.append(match / r_total)
        if not precs:
            continue
        p, rc = sum(precs) / len(precs), sum(recs) / len(recs)
        factor = beta**2
        if p + rc > 0:
            best = max(best, (1 + factor) * p * rc / (factor * p + rc))
    return best

