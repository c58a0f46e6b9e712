"""The result of a pair with no candidate: a missing translation is a failed translation.

A system folder that lacks a file the references have wrote nothing for that input. Left
out, the system would be averaged over the inputs it chose to answer, and a system that
skips its hard inputs would beat one that tries them; compared on different ids, two
systems would not be compared at all. So the pair stays, scored as an empty candidate (its
BLEU statistics count the reference's length, as an empty output's do) with every score
that an empty candidate has, or lacks only for want of a candidate, set to 0, and a reason
naming where the file is missing.
"""

from __future__ import annotations

import dataclasses

from .metrics import METRICS, TIER_METRICS
from .results import PairResult
from .structure_notes import first_side

__all__ = ["MISSING_SCORES_0", "MISSING_TEXT", "missing_of", "missing_result", "missing_reason"]

#: How every reason of a missing candidate's result ends: what tells a missing translation's
#: zeros from scored ones wherever only the result is at hand (a report, a table row).
MISSING_SCORES_0 = " (a missing translation scores 0)"

#: What ``explain`` says of a missing translation instead of evidence, line by line.
MISSING_TEXT = (
    "Missing translation: the system wrote no candidate for this input, so there is no text",
    "  to compare and no evidence to show. It is the system's failed translation: every tier",
    "  that needs a candidate scores 0 (a metric undefined for any candidate of this pair",
    "  stays undefined), and the pair stays in the system's mean: left out, a system that",
    "  skips its hard inputs would beat one that tries them.",
)


def missing_reason(missing: str) -> str:
    """The reason a missing candidate's scores carry.

    >>> missing_reason("missing from systems/coder-s")
    'candidate: missing from systems/coder-s (a missing translation scores 0)'
    """
    return f"candidate: {missing}{MISSING_SCORES_0}"


def missing_of(result: PairResult) -> str | None:
    """The reason a missing candidate's result carries (:func:`missing_result`), ``None`` for
    the result of a candidate that was there.

    Parameters
    ----------
    result : any pair's result.

    Returns
    -------
    str | None : the reason (``"candidate: missing from out (a missing translation scores
    0)"``), or ``None``.

    >>> missing_of(PairResult(id="a", ruby=0.0, tier="graph", grs=0.0,
    ...                       reasons={"grs": missing_reason("missing from out")}))
    'candidate: missing from out (a missing translation scores 0)'
    >>> missing_of(PairResult(id="a", reasons={"grs": "candidate: empty code"})) is None
    True
    >>> missing_of(PairResult(id="a", reasons={"trs": missing_reason("missing from out")
    ...                                        + "; reference: parse error at line 1, col 5"}))
    'candidate: missing from out (a missing translation scores 0)'
    """
    # a reference that fails too adds its own part after the missing reason
    firsts = (first_side(r)[0] for r in result.reasons.values())
    return next(
        (r for r in firsts if r.startswith("candidate: ") and r.endswith(MISSING_SCORES_0)),
        None,
    )


def missing_result(empty: PairResult, missing: str) -> PairResult:
    """``empty`` (the pair scored with an empty candidate) as the result of a missing one.

    Every metric with a score, and every metric without one whose reason names the
    candidate first (``"candidate: empty code"``: the tiers that need a candidate's
    structure), scores 0.0 with :func:`missing_reason` as its reason. A metric undefined for
    any candidate of the pair (the reference does not parse, no n-gram set, BLEU against a
    source) stays undefined with its reason, as it is for every other system's candidate.
    RUBY's tier is the most structural one now scored.

    Parameters
    ----------
    empty : the result of scoring the pair's reference with the candidate ``""``.
    missing : where the candidate is missing (``"missing from systems/coder-s"``).

    Returns
    -------
    PairResult : the same id and mode, the scores above.

    >>> r = PairResult(id="a.py", ruby=0.0, tier="string", sts=0.0, bleu=0.0,
    ...                reasons={"grs": "candidate: empty code", "trs": "candidate: empty code",
    ...                         "crystalbleu": "no n-gram set"})
    >>> m = missing_result(r, "missing from out")
    >>> m.ruby, m.tier, m.grs, m.trs, m.sts, m.bleu, m.crystalbleu
    (0.0, 'graph', 0.0, 0.0, 0.0, 0.0, None)
    >>> m.reasons["grs"], m.reasons["crystalbleu"]
    ('candidate: missing from out (a missing translation scores 0)', 'no n-gram set')
    >>> r = dataclasses.replace(r, reasons={
    ...     "trs": "candidate: empty code; reference: parse error at line 1, col 5"})
    >>> for part in missing_result(r, "missing from out").reasons["trs"].split("; "):
    ...     print(part)
    candidate: missing from out (a missing translation scores 0)
    reference: parse error at line 1, col 5
    """
    reason = missing_reason(missing)
    scores: dict[str, float | None] = {}
    reasons = dict(empty.reasons)
    for metric in METRICS:
        value = getattr(empty, metric)
        if value is not None or reasons.get(metric, "").startswith("candidate:"):
            scores[metric] = 0.0
            # a reference that fails too still says so (the run's language check counts it)
            reasons[metric] = reason + first_side(reasons.get(metric, ""))[1]
    tier = empty.tier
    if "ruby" in scores:
        tier = next((t for t, m in TIER_METRICS.items() if scores.get(m) is not None), tier)
    return dataclasses.replace(empty, **scores, tier=tier, reasons=reasons)
