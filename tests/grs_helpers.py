"""What the GRS tests share: GRS of two snippets, one scorer per language, and the label
statistics GRS's costs are made of, by sacrebleu (the independent oracle)."""

from __future__ import annotations

import re

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


# a local's name in a PDG label (v0, v3fa, v3fa_2, b0), outside string literals
_LOCAL = re.compile(r'"(?:[^"\\]|\\.)*"|\b(v[0-9a-f]{3}(?:_\d+)?|v\d+|b\d+)\b')


def label_distance(ref: str, cand: str, w_ref: float, w_cand: float) -> float:
    """GRS's label distance by hand: ``max(1/64, 1 - (w_ref R + w_cand P) / (w_ref +
    w_cand))`` for two different labels, each local name spelled in a letter of its own
    (a name is an identity: two names share a character n-gram only when equal)."""
    names = sorted({m.group(1) for lab in (ref, cand) for m in _LOCAL.finditer(lab)
                    if m.group(1)})
    letters = iter("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ")  # in no label of these tests

    spelled = {name: next(letters) * len(name) for name in names}

    def spell(label: str) -> str:
        return _LOCAL.sub(lambda m: spelled[m.group(1)] if m.group(1) else m.group(0), label)

    p, r = sacrebleu_precision_recall(spell(cand), spell(ref))
    return max(1 / 64, 1 - (w_ref * r + w_cand * p) / (w_ref + w_cand))
