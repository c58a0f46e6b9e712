"""What the GRS tests share: GRS of two snippets, one scorer per language, and the label
statistics GRS's costs are made of, by sacrebleu (the independent oracle)."""

from __future__ import annotations

from sacrebleu.metrics import CHRF

from ruby_metric import RubyScorer

_SCORERS: dict[str, RubyScorer] = {}


def grs(a: str, b: str, language: str) -> float:
    """GRS of candidate ``b`` against reference ``a``; it must apply."""
    scorer = _SCORERS.setdefault(language, RubyScorer(language=language, metrics=["grs"]))
    value = scorer.score(a, b).grs
    assert value is not None, (a, b)
    return value


def sacrebleu_precision_recall(hyp: str, ref: str) -> tuple[float, float]:
    """chrF's averaged character n-gram precision and recall by sacrebleu: chrF at beta 0
    is the precision P, and the F1 = 2PR / (P + R) gives R = F1 P / (2P - F1)."""
    p = CHRF(beta=0).sentence_score(hyp, [ref]).score / 100
    f1 = CHRF(beta=1).sentence_score(hyp, [ref]).score / 100
    return p, (0.0 if f1 == 0 else f1 * p / (2 * p - f1))


def label_distance(ref: str, cand: str, w_ref: float, w_cand: float) -> float:
    """GRS's label distance by hand: ``max(1/64, 1 - (w_ref R + w_cand P) / (w_ref +
    w_cand))`` for two different labels."""
    p, r = sacrebleu_precision_recall(cand, ref)
    return max(1 / 64, 1 - (w_ref * r + w_cand * p) / (w_ref + w_cand))
