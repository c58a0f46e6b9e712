"""Agreement with judged development sets: CoNaLa human grades (Spearman) and
HumanEval-Python execution (ROC AUC), for every tier, BLEU and chrF, with and without
the fallback to a lower tier.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..metrics import METRICS, TIER_METRICS
from .chrf_baseline import chrf
from .correlation import correlate
from .validity_data import default_datasets
from .validity_scoring import TIERS, _scorer_for

_TIER_CHAIN = tuple(TIER_METRICS.values())  # grs, trs, sts: RUBY's order

#: Where a tier that does not apply falls back to (RUBY's own order).
FALLBACK: dict[str, tuple[str, ...]] = {
    **{m: _TIER_CHAIN[_TIER_CHAIN.index(m):] if m in _TIER_CHAIN else (m,) for m in METRICS},
    "chrf": ("chrf",),
}

_CONALA_SYSTEMS = ("baseline", "tranx-annot", "best-tranx", "best-tranx-rerank", "codex")


def load_conala(path: Path | None = None) -> list[tuple[list[str], str, float]]:
    """CoNaLa items: (references, candidate, human grade 0-4). 2,360 items.

    Raises FileNotFoundError when the file is missing.
    """
    path = path or default_datasets() / "judged_dev" / "conala-aggregated-grades.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return [(list(r["snippet"]), r[m], float(r["grade-" + m]))
            for r in data for m in _CONALA_SYSTEMS]


def load_humaneval_judged(path: Path | None = None, *, reindent: bool = False
                          ) -> list[tuple[list[str], str, int]]:
    """HumanEval-Python completions: ([reference], candidate, passed 0/1). 3,220 items.

    The candidate is ``intent + completion``, as the dataset's README says. Every completion
    in the file has lost the indentation of its first line (it starts at column 0, the rest
    of its lines are indented), so that text is not valid Python (an unexpected indent); the
    tests were evidently run on the indented code. ``reindent=True`` gives the first line
    the indentation of the completion's next indented line (4 spaces if none), which is
    what ran.

    Raises FileNotFoundError when the file is missing.
    """
    path = path or default_datasets() / "judged_dev" / "humaneval_python_grade.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return [
        ([r["intent"] + r["snippet"][0]],
         r["intent"] + (_reindent_first_line(r[k]) if reindent else r[k]),
         int(r["grade-" + k]["execution"]))
        for r in data
        for k in r
        if k.isdigit()
    ]


def _reindent_first_line(completion: str) -> str:
    r"""Indent the first line like the next indented one (4 spaces when there is none).

    >>> _reindent_first_line("x = 1\n    return x\n")
    '    x = 1\n    return x\n'
    """
    if completion[:1] in (" ", "\t"):
        return completion
    for line in completion.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)] + completion
    return "    " + completion


def score_judged(
    items: Sequence[tuple[Sequence[str], str, float]], *, language: str = "python",
    workers: int = 1,
) -> dict[str, list[float | None]]:
    """Every tier and chrF per item (``None`` where a tier does not apply)."""
    refs = [list(r) for r, _, _ in items]
    cands = [c for _, c, _ in items]
    scorer = _scorer_for(language, (s for r in refs for s in r))
    corpus = scorer.score_corpus(refs, cands, workers=workers)
    scores: dict[str, list[float | None]] = {t: [getattr(p, t) for p in corpus.pairs]
                                             for t in TIERS}
    scores["chrf"] = [chrf(c, r) for r, c in zip(refs, cands, strict=True)]
    return scores


def with_fallback(scores: dict[str, list[float | None]], tier: str) -> list[float | None]:
    """``tier``'s scores with a missing value replaced by the next lower tier's (FALLBACK)."""
    chain = FALLBACK.get(tier, (tier,))
    out = []
    for i in range(len(scores[tier])):
        value = None
        for t in chain:
            value = scores[t][i]
            if value is not None:
                break
        out.append(value)
    return out


@dataclass(frozen=True)
class JudgedResult:
    """Agreement of one score with judgments.

    ``value``/``ci``/``n`` on the pairs where the tier applies; ``fallback_value``/
    ``fallback_ci`` on every pair with a missing tier replaced by the next lower tier.
    ``statistic`` is ``"spearman"`` or ``"auc"``.
    """

    metric: str
    statistic: str
    value: float | None
    ci: tuple[float, float] | None
    n: int
    excluded: int
    fallback_value: float | None
    fallback_ci: tuple[float, float] | None


def judged_validity(
    scores: dict[str, list[float | None]],
    judgments: Sequence[float],
    *,
    statistic: str,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, JudgedResult]:
    """Spearman (``statistic="spearman"``) or ROC AUC (``"auc"``) per score, with CIs."""
    out = {}
    binary = statistic == "auc"
    for metric in (*TIERS, "chrf"):
        if metric not in scores:
            continue
        plain = correlate(scores[metric], judgments, bootstrap=resamples, seed=seed,
                          metric=metric, binary=binary)
        full = correlate(with_fallback(scores, metric), judgments, bootstrap=resamples,
                         seed=seed, metric=metric, binary=binary)

        def pick(r: Any) -> tuple[float | None, tuple[float, float] | None]:
            est = r.auc if binary else r.spearman
            return (est.value, est.ci) if est is not None else (None, None)

        value, ci = pick(plain)
        f_value, f_ci = pick(full)
        out[metric] = JudgedResult(metric, statistic, value, ci, plain.n, plain.excluded,
                                   f_value, f_ci)
    return out

