"""Agreement with judged development sets, always like for like (SPEC section 8, item 2).

Two sets (``judged_dev``): CoNaLa one-liners with human grades (Spearman) and
HumanEval-Python completions with test execution verdicts (ROC AUC). Every score (the tiers,
BLEU, CrystalBLEU, chrF) is reported on **the same items**, in two views:

* ``"grs"``: the items where GRS applies (both sides have a program dependence graph) and
  every other score is defined too; each metric as it is.
* ``"fallback"``: every item, a missing tier replaced by the next lower one (GRS -> TRS ->
  STS), RUBY's own rule; again only items where every score is then defined.

For execution verdicts the headline is the **within-task AUC** (only pairs of a passing and
a failing completion of the same task: "which of these candidates is right?"), with the
pooled AUC (every passing against every failing completion) beside it; both with bootstrap
intervals resampling tasks (:func:`ruby_metric.meta.grouped_auc.grouped_auc`). For grades: Spearman
(Pearson and Kendall too), with bootstrap intervals resampling items.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ruby_metric.meta.correlation import correlate
from ruby_metric.meta.grouped_auc import grouped_auc
from ruby_metric.scoring.metrics import METRICS, TIER_METRICS

from .chrf_baseline import chrf
from .data import default_datasets
from .scoring import TIERS, scorer_for

log = logging.getLogger(__name__)

_TIER_CHAIN = tuple(TIER_METRICS.values())  # grs, trs, sts: RUBY's order

#: Where a tier that does not apply falls back to (RUBY's own order).
FALLBACK: dict[str, tuple[str, ...]] = {
    **{m: _TIER_CHAIN[_TIER_CHAIN.index(m):] if m in _TIER_CHAIN else (m,) for m in METRICS},
    "chrf": ("chrf",),
}

#: Every score reported on the judged sets, in report order.
JUDGED_METRICS: tuple[str, ...] = (*TIERS, "chrf")

#: The views: the items where this metric applies (``"grs"``), and every item with RUBY's
#: fallback (``"fallback"``).
VIEWS: tuple[str, ...] = ("grs", "fallback")

_CONALA_SYSTEMS = ("baseline", "tranx-annot", "best-tranx", "best-tranx-rerank", "codex")


class JudgedItem(NamedTuple):
    """One judged candidate.

    Attributes
    ----------
    references : the reference texts.
    candidate : the candidate text.
    judgment : the human grade (CoNaLa, 0-4) or the execution verdict (1 = tests passed).
    group : the task the item belongs to (CoNaLa: the intent; HumanEval: the task id).
    """

    references: list[str]
    candidate: str
    judgment: float
    group: str


def load_conala(path: Path | None = None) -> list[JudgedItem]:
    """CoNaLa items, grouped by intent. 2,360 items (472 intents x 5 systems).

    Parameters
    ----------
    path : the ``conala-aggregated-grades.json`` file (default: under
        :func:`default_datasets`).

    Returns
    -------
    One :class:`JudgedItem` per (intent, system), judgment = the aggregated grade 0-4.

    Raises
    ------
    FileNotFoundError : the file is missing.
    """
    path = path or default_datasets() / "judged_dev" / "conala-aggregated-grades.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return [JudgedItem(list(r["snippet"]), r[m], float(r["grade-" + m]), f"{i}:{r['intent']}")
            for i, r in enumerate(data) for m in _CONALA_SYSTEMS]


def load_humaneval_judged(path: Path | None = None, *, reindent: bool = False
                          ) -> list[JudgedItem]:
    """HumanEval-Python completions with their execution verdict. 3,220 items, 161 tasks.

    The candidate is ``intent + completion``, as the dataset's README says. Every completion
    in the file has lost the indentation of its first line (it starts at column 0, the rest
    of its lines are indented), so that text is not valid Python (an unexpected indent); the
    tests were evidently run on the indented code. ``reindent=True`` gives the first line
    the indentation of the completion's next indented line (4 spaces if none), which is
    what ran.

    Parameters
    ----------
    path : the ``humaneval_python_grade.json`` file (default: under :func:`default_datasets`).
    reindent : re-indent each completion's first line.

    Returns
    -------
    One :class:`JudgedItem` per completion; judgment 1 if it passed the tests, else 0;
    group = the record's ``task_id`` (the intent when a record has none).

    Raises
    ------
    FileNotFoundError : the file is missing.
    """
    path = path or default_datasets() / "judged_dev" / "humaneval_python_grade.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return [
        JudgedItem([r["intent"] + r["snippet"][0]],
                   r["intent"] + (reindent_first_line(r[k]) if reindent else r[k]),
                   int(r["grade-" + k]["execution"]),
                   str(r.get("task_id", r["intent"])))
        for r in data
        for k in r
        if k.isdigit()
    ]


def reindent_first_line(completion: str) -> str:
    r"""Indent the first line like the next indented one (4 spaces when there is none).

    Parameters
    ----------
    completion : a completion whose first line may have lost its indentation.

    Returns
    -------
    The completion, its first line indented (unchanged if it already was).

    >>> reindent_first_line("x = 1\n    return x\n")
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
    items: Sequence[JudgedItem | tuple[Sequence[str], str, float]],
    *,
    language: str = "python",
    workers: int = 1,
    grs_beta: float | None = None,
    repair: bool | None = None,
) -> dict[str, list[float | None]]:
    """Every tier and chrF per item (``None`` where a tier does not apply).

    Parameters
    ----------
    items : the judged items (only the references and the candidate are read).
    language : the code's language.
    workers : scoring worker processes.
    grs_beta : GRS's beta, passed to the scorer only when given.
    repair : the scorer's ``repair`` option (``None``: its default, on).

    Returns
    -------
    metric -> one score (or ``None``) per item, for every metric of :data:`JUDGED_METRICS`.
    """
    refs = [list(it[0]) for it in items]
    cands = [it[1] for it in items]
    scorer = scorer_for(language, (s for r in refs for s in r), grs_beta=grs_beta,
                        repair=repair)
    corpus = scorer.score_corpus(refs, cands, workers=workers)
    scores: dict[str, list[float | None]] = {t: [getattr(p, t) for p in corpus.pairs]
                                             for t in TIERS}
    scores["chrf"] = [chrf(c, r) for r, c in zip(refs, cands, strict=True)]
    return scores


def with_fallback(scores: dict[str, list[float | None]], tier: str) -> list[float | None]:
    """``tier``'s scores with a missing value replaced by the next lower tier's (FALLBACK).

    Parameters
    ----------
    scores : metric -> per-item scores.
    tier : the metric to fill.

    Returns
    -------
    One value per item; ``None`` only where every tier of the chain is missing.
    """
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


def like_for_like(
    scores: dict[str, list[float | None]],
    metrics: Sequence[str],
    *,
    anchor: str | None = "grs",
    fallback: bool = False,
) -> tuple[list[int], dict[str, list[float]]]:
    """The items every metric is reported on, and each metric's scores on exactly those.

    Parameters
    ----------
    scores : metric -> per-item scores (``None`` where the metric does not apply).
    metrics : the metrics to report.
    anchor : keep only the items where this metric applies *as it is* (before any fallback);
        ``None``: no such condition.
    fallback : fill every metric's missing values with RUBY's fallback first
        (:func:`with_fallback`).

    Returns
    -------
    ``(indices, values)``: the kept items (where the anchor applies and every metric is
    defined, in item order) and metric -> its scores on those items.

    >>> s = {"grs": [0.5, None, 0.7], "trs": [0.4, 0.6, None], "sts": [0.1, 0.2, 0.3]}
    >>> like_for_like(s, ["grs", "sts"])
    ([0, 2], {'grs': [0.5, 0.7], 'sts': [0.1, 0.3]})
    >>> like_for_like(s, ["grs", "trs"], anchor=None, fallback=True)[0]
    [0, 1, 2]
    """
    filled = {m: with_fallback(scores, m) if fallback else list(scores[m]) for m in metrics}
    n = len(next(iter(scores.values()))) if scores else 0
    keep = [i for i in range(n)
            if (anchor is None or scores[anchor][i] is not None)
            and all(filled[m][i] is not None for m in metrics)]
    values = {m: [float(filled[m][i]) for i in keep] for m in metrics}  # type: ignore[arg-type]
    return keep, values


@dataclass(frozen=True)
class MetricAgreement:
    """One metric's agreement with the judgments on a view's items.

    Attributes
    ----------
    metric : the metric's key.
    value, ci : the headline: Spearman (grades) or within-task AUC (execution), with its
        95% bootstrap interval.
    pooled, pooled_ci : execution only: the pooled AUC (every pass against every fail).
    extra : other statistics (grades: ``pearson``, ``kendall``), each ``{value, ci}``.
    """

    metric: str
    value: float | None
    ci: tuple[float, float] | None
    pooled: float | None = None
    pooled_ci: tuple[float, float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class JudgedView:
    """Every metric on the same items of one judged set.

    Attributes
    ----------
    view : ``"grs"`` (the items where GRS applies) or ``"fallback"`` (RUBY's fallback).
    statistic : ``"spearman"`` (grades) or ``"auc"`` (execution verdicts).
    n : items every metric is reported on; total : items of the set.
    groups : tasks among the ``n`` items.
    positives : execution: passing items among the ``n``.
    mixed_groups, within_pairs : execution: tasks with both a pass and a fail, and the
        (pass, fail) pairs of the same task the within-task AUC counts.
    metrics : metric -> :class:`MetricAgreement`.
    """

    view: str
    statistic: str
    n: int
    total: int
    groups: int
    positives: int | None
    mixed_groups: int | None
    within_pairs: int | None
    metrics: dict[str, MetricAgreement]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (tuples become lists)."""
        return asdict(self)


def judged_view(
    scores: dict[str, list[float | None]],
    items: Sequence[JudgedItem],
    *,
    statistic: str,
    view: str = "grs",
    metrics: Sequence[str] = JUDGED_METRICS,
    resamples: int = 1000,
    seed: int = 0,
) -> JudgedView:
    """Agreement of every metric with the judgments, on the same items.

    Parameters
    ----------
    scores : metric -> per-item scores (:func:`score_judged`).
    items : the judged items, aligned with ``scores``.
    statistic : ``"spearman"`` or ``"auc"`` (within-task and pooled).
    view : a metric key (the items where it applies) or ``"fallback"`` (every item, with
        RUBY's fallback).
    metrics : the metrics to report (those missing from ``scores`` are left out).
    resamples, seed : the bootstrap (tasks for AUC, items for Spearman), seeded.

    Returns
    -------
    A :class:`JudgedView`.
    """
    if statistic not in ("spearman", "auc"):
        raise ValueError(f"statistic must be 'spearman' or 'auc', got {statistic!r}")
    metrics = [m for m in metrics if m in scores]
    fallback = view == "fallback"
    keep, values = like_for_like(scores, metrics, anchor=None if fallback else view,
                                 fallback=fallback)
    judgments = [items[i].judgment for i in keep]
    groups = [items[i].group for i in keep]
    out: dict[str, MetricAgreement] = {}
    positives = mixed = pairs = None
    for m in metrics:
        if statistic == "auc":
            g = grouped_auc(values[m], [int(j) for j in judgments], groups,
                            resamples=resamples, seed=seed)
            positives, mixed, pairs = g.positives, g.mixed_groups, g.within_pairs
            out[m] = MetricAgreement(m, g.within, g.within_ci, g.pooled, g.pooled_ci)
        else:
            r = correlate(values[m], judgments, bootstrap=resamples, seed=seed, metric=m,
                          binary=False)
            extra = {k: {"value": getattr(r, k).value, "ci": getattr(r, k).ci}
                     for k in ("pearson", "kendall")}
            out[m] = MetricAgreement(m, r.spearman.value, r.spearman.ci, extra=extra)
    log.info("judged view %s: %d of %d items", view, len(keep), len(items))
    return JudgedView(view, statistic, len(keep), len(items), len(set(groups)), positives,
                      mixed, pairs, out)


def judged_validity(
    scores: dict[str, list[float | None]],
    items: Sequence[JudgedItem],
    *,
    statistic: str,
    views: Sequence[str] = VIEWS,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, JudgedView]:
    """:func:`judged_view` for each view (default: GRS-applicable items, and fallback).

    Parameters
    ----------
    scores : metric -> per-item scores.
    items : the judged items.
    statistic : ``"spearman"`` or ``"auc"``.
    views : the views.
    resamples, seed : the bootstrap.

    Returns
    -------
    view -> :class:`JudgedView`.
    """
    return {v: judged_view(scores, items, statistic=statistic, view=v, resamples=resamples,
                           seed=seed) for v in views}
