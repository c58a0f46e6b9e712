"""What repair and error containment did to a pair, read back from its reasons.

A structural tier that applies only because a side was repaired or had a statement kept as
text says so in the pair's ``reasons`` (``'candidate: repaired (appended "}")'``); the
corpus summary and the report count those sides.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["first_side", "side_changes", "structure_summary"]

#: where a reason goes on to another side's own reason
_NEXT_SIDE = re.compile(r"; (?=(?:candidate|reference(?: \d+)?|source): )")


def first_side(reason: str) -> tuple[str, str]:
    """A reason cut where it goes on to another side: the first side's reason (the one
    that stops the tier) and the rest (``""`` or ``"; "`` and the other sides' own
    reasons, which say that those sides fail too).

    >>> first_side("candidate: empty code; reference: parse error at line 1, col 5")
    ('candidate: empty code', '; reference: parse error at line 1, col 5')
    >>> first_side('candidate: repaired (appended "}"); 1 statement unparsed, kept as text')
    ('candidate: repaired (appended "}"); 1 statement unparsed, kept as text', '')
    """
    parts = _NEXT_SIDE.split(reason, maxsplit=1)
    return parts[0], reason[len(parts[0]):]


def side_changes(reasons: dict[str, str]) -> tuple[set[str], set[str]]:
    """The sides a pair's reasons say were repaired, and those with statements kept as text.

    Parameters
    ----------
    reasons : a :class:`~ruby_metric.scoring.results.PairResult`'s reasons.

    Returns
    -------
    ``(repaired sides, contained sides)``, sides among ``"candidate"``, ``"reference"``
    (``"both"`` counts for each) and, scored against the source, ``"source"``.

    >>> side_changes({"grs": 'candidate: repaired (appended "}")'})
    ({'candidate'}, set())
    >>> fixed, kept = side_changes({"trs": "both: 1 statement unparsed, kept as text (x)"})
    >>> fixed, sorted(kept)
    (set(), ['candidate', 'reference'])
    >>> fixed, kept = side_changes({"grs": 'candidate: repaired (appended "}"); 1 statement '
    ...                             'unparsed, kept as text (x); reference: repaired (...)'})
    >>> sorted(fixed), kept
    (['candidate', 'reference'], {'candidate'})
    >>> side_changes({"grs": 'source: repaired (inserted ")" at line 1, col 33)'})
    ({'source'}, set())
    """
    repaired: set[str] = set()
    contained: set[str] = set()
    for metric in ("grs", "trs"):
        for side, what in _steps(reasons.get(metric, "")):
            sides = {"candidate", "reference"} if side == "both" else {side} if side else set()
            if what.startswith("repaired"):
                repaired |= sides
            elif "kept as text" in what:
                contained |= sides
    return repaired, contained


def _steps(reason: str) -> Iterator[tuple[str, str]]:
    """A tier's reason as ``(side, step)`` pairs: the side is ``"candidate"``,
    ``"reference"`` (whichever of several), ``"source"``, ``"both"``, or ``""`` before any
    side is named; a part with no side of its own is the named side's next step
    (``candidate: repaired (...); 1 statement ...``)."""
    side = ""
    for part in reason.split("; "):
        named, _, what = part.partition(": ")
        if named in ("both", "candidate", "source"):
            side = named
        elif named.startswith("reference"):
            side = "reference"  # "reference 2: ..." names one of several references
        else:
            what = part
        yield side, what


def structure_summary(counts: dict[str, dict[str, int]]) -> str:
    """One line for a corpus summary: how many sides were repaired and contained.

    Parameters
    ----------
    counts : ``{"repaired": {side: n}, "contained": {side: n}}`` (a corpus's ``structure``).

    Returns
    -------
    e.g. ``'repaired: 63 candidates; contained: 41 candidates, 2 references'``, or ``""``
    when nothing was done (sources, scored against the source, are counted the same way).

    >>> structure_summary({"repaired": {"candidate": 63}, "contained": {"candidate": 1}})
    'repaired: 63 candidates; contained: 1 candidate'
    >>> structure_summary({"repaired": {"candidate": 2, "source": 1}})
    'repaired: 2 candidates, 1 source'
    """
    parts = []
    for what in ("repaired", "contained"):
        per = counts.get(what) or {}
        sides = [f"{per[s]} {s}{'s' if per[s] != 1 else ''}"
                 for s in ("candidate", "reference", "source") if per.get(s)]
        if sides:
            parts.append(f"{what}: {', '.join(sides)}")
    return "; ".join(parts)
