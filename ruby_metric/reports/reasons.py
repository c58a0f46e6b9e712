"""Why a tier did not apply, by kind: the groups of the corpus report's reasons section.

A pair's reasons are free text written where each tier gave up (graphs.parse, the tiers,
the missing-candidate rule); the report counts them by kind and by the side they name.
"""

from __future__ import annotations

import re

from ..scoring.missing import MISSING_SCORES_0
from ..scoring.structure_notes import first_side

__all__ = ["reason_kind"]

# Reason texts -> kinds, first match wins. The texts come from graphs.parse and the tiers.
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # first: a missing candidate's reason names a folder, whose name could match any below
    ("missing translation", re.compile(re.escape(MISSING_SCORES_0) + "$")),
    ("empty code", re.compile(r"empty code")),
    (
        "parse error",
        re.compile(r"parse error|missing .* at line|unmatched '|is never closed|no clean parse"),
    ),
    ("too large", re.compile(r"larger than the limit|longer than the limit|token edits between")),
    ("no statements", re.compile(r"no statements")),
    ("no language", re.compile(r"no language given")),
)
_SIDE = re.compile(r"^(candidate|reference(?: \d+)?|both): ")


def reason_kind(reason: str) -> tuple[str, str]:
    """The kind of a "not applicable" reason and the side it is on.

    Parameters
    ----------
    reason : a pair's reason text, as in :attr:`PairResult.reasons`.

    Returns
    -------
    ``(kind, side)``: kind is ``"missing translation"`` (a candidate missing from a system's
    folder, scored 0), ``"parse error"``, ``"empty code"``, ``"too large"``,
    ``"no statements"``, ``"no language"`` or ``"other"``; side is ``"candidate"``,
    ``"reference"``, ``"both"`` or ``"pair"`` (a limit on the pair, not on one side).

    Examples
    --------
    >>> reason_kind("candidate: parse error at line 3, col 14")
    ('parse error', 'candidate')
    >>> reason_kind("reference 2: no statements")
    ('no statements', 'reference')
    >>> reason_kind("candidate: missing from out (a missing translation scores 0)")
    ('missing translation', 'candidate')
    >>> reason_kind("candidate: AST larger than the limit (9 > 4 nodes); reference: parse "
    ...             "error at line 1, col 5")
    ('too large', 'candidate')
    """
    # the first side named is the one that stops the tier; later sides' reasons are theirs
    reason = first_side(reason)[0]
    match = _SIDE.match(reason)
    side = "pair"
    if match:
        side = "reference" if match.group(1).startswith("reference") else match.group(1)
    for kind, pattern in _KINDS:
        if pattern.search(reason):
            return kind, side
    return "other", side
