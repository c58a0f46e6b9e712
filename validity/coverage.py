"""Structural coverage: on how many pairs does RUBY score with the graph or the tree tier?

RUBY falls back from GRS to TRS to STS when a side does not parse (SPEC section 3,
"Applicability"); almost-code gets the structural tiers after a bounded repair or with its
broken statements kept as text ("Tolerant structure"). :func:`pair_coverage` counts, for a
corpus of pairs, which tier RUBY used and how many sides were repaired or contained, with
repair on or off; :func:`text_coverage` does the same for single programs (a side has a
PDG, an AST).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ruby_metric.api.scorer import RubyScorer
from ruby_metric.scoring.code import Code, Limits, NotApplicable
from ruby_metric.scoring.structure_notes import side_changes
from ruby_metric.scoring.tiers import GraphTier, TreeTier

__all__ = ["Coverage", "pair_coverage", "side_changes", "text_coverage"]


@dataclass(frozen=True)
class Coverage:
    """How many items get each tier, and what repair and containment did.

    Attributes
    ----------
    name : the data set.
    repair : whether repair and containment were on.
    items : pairs (or texts) counted.
    tiers : RUBY's tier -> items (``"graph"``, ``"tree"``, ``"string"``); for texts, the
        most structural representation the text has.
    grs, trs : items where GRS / TRS applies.
    repaired, contained : per side (``"candidate"``, ``"reference"``; ``"text"`` for
        texts), the sides that were repaired / had statements kept as text.
    """

    name: str
    repair: bool
    items: int
    tiers: dict[str, int] = field(default_factory=dict)
    grs: int = 0
    trs: int = 0
    repaired: dict[str, int] = field(default_factory=dict)
    contained: dict[str, int] = field(default_factory=dict)

    def share(self, count: int) -> float:
        """``count`` as a share of the items (0.0 for none)."""
        return count / self.items if self.items else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready."""
        return asdict(self)


def pair_coverage(name: str, references: Sequence[str], candidates: Sequence[str],
                  language: str, *, repair: bool = True, workers: int = 1) -> Coverage:
    """Which tier RUBY uses on each pair, with repair on or off.

    Parameters
    ----------
    name : the data set's name.
    references, candidates : the pairs (aligned).
    language : their language.
    repair : the scorer's ``repair`` option.
    workers : scoring worker processes.

    Returns
    -------
    The :class:`Coverage` of the pairs.

    Examples
    --------
    >>> c = pair_coverage("toy", ["int f() { return 1; }"], ["int f() { return 1;"], "java")
    >>> c.tiers, c.repaired
    ({'graph': 1}, {'candidate': 1})
    """
    scorer = RubyScorer(language, metrics=("ruby", "grs", "trs"), repair=repair)
    corpus = scorer.score_corpus(list(references), list(candidates), workers=workers)
    tiers: Counter[str] = Counter()
    repaired: Counter[str] = Counter()
    contained: Counter[str] = Counter()
    grs = trs = 0
    for pair in corpus.pairs:
        tiers[pair.tier or "none"] += 1
        grs += pair.grs is not None
        trs += pair.trs is not None
        fixed, kept = side_changes(pair.reasons)
        repaired.update(sorted(fixed))
        contained.update(sorted(kept))
    return Coverage(name, repair, len(corpus.pairs), dict(sorted(tiers.items())), grs, trs,
                    dict(sorted(repaired.items())), dict(sorted(contained.items())))


def text_coverage(name: str, texts: Sequence[str], language: str, *, repair: bool = True,
                  limits: Limits | None = None) -> Coverage:
    """Which representations single programs have, with repair on or off.

    Parameters
    ----------
    name : the data set's name.
    texts : the programs.
    language : their language.
    repair : repair and contain broken texts.
    limits : size limits (default :class:`Limits`).

    Returns
    -------
    The :class:`Coverage`: ``tiers`` counts each text under its most structural
    representation, ``grs``/``trs`` the texts with a PDG / an AST.

    >>> text_coverage("toy", ["int f() { return 1;", "int x = ;"], "java").tiers
    {'graph': 1, 'string': 1}
    """
    limits = limits or Limits()
    graph, tree = GraphTier(limits), TreeTier(limits)
    tiers: Counter[str] = Counter()
    repaired = contained = grs = trs = 0
    for text in texts:
        code = Code(text, language, limits=limits, repair=repair)
        has = {}
        for tier in (graph, tree):
            try:
                tier.check(code)
                has[tier.name] = True
            except NotApplicable:
                has[tier.name] = False
        grs += has["graph"]
        trs += has["tree"]
        tiers["graph" if has["graph"] else "tree" if has["tree"] else "string"] += 1
        try:
            structure = code.structure
        except NotApplicable:
            continue
        repaired += structure.repair is not None
        contained += structure.contained is not None and structure.clean is None
    return Coverage(name, repair, len(texts), dict(tiers), grs, trs,
                    {"text": repaired} if repaired else {},
                    {"text": contained} if contained else {})
