"""RUBY's three tiers (graph, tree, string) behind one interface.

A tier turns a :class:`~ruby_metric.code.Code` into its representation (or says why it
cannot) and compares two representations with a similarity in [0, 1].
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Levenshtein

from .code import Code, Limits, NotApplicable


@dataclass(frozen=True)
class TierScore:
    """A tier's outcome for one pair: a value, or the reason it does not apply."""

    value: float | None
    reason: str | None = None


class Tier(ABC):
    """One representation level of RUBY.

    Subclasses set :attr:`name` (the tier, e.g. ``"tree"``) and :attr:`metric` (the score it
    reports, e.g. ``"trs"``), and implement :meth:`build` and :meth:`similarity`.
    """

    name: str
    metric: str

    #: How many recent texts' representations (or reasons) a tier keeps. Corpora repeat
    #: texts (a quarter of the CodeXGLUE C# gold and output lines are repeats), and a
    #: repeat then costs a lookup instead of a parse and a build; the results are the same,
    #: as a representation depends only on the text, language, tokenizer and limits.
    recent_size: int = 2048

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._recent: dict[tuple[Any, ...], Any] = {}
        self._lock = threading.Lock()  # the scorer may run under a threaded executor

    def __getstate__(self) -> dict[str, Any]:
        # workers get the tier, not what this process has seen
        state = dict(self.__dict__)
        state["_recent"] = {}
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @abstractmethod
    def build(self, code: Code) -> Any:
        """The representation of ``code``; raises :class:`NotApplicable` with a reason."""

    @abstractmethod
    def similarity(self, reference: Any, candidate: Any) -> float:
        """Similarity in [0, 1] of two representations; 1.0 for equal ones."""

    def represent(self, code: Code) -> Any:
        """:meth:`build`, done at most once per text and tier (and once per recent text)."""
        key = (code.text, code.language, code.tokenizer, code.limits)
        value = self._recent.get(key, _UNSEEN)
        if value is _UNSEEN:
            try:
                value = code.representation(self.name, self.build)
            except NotApplicable as exc:
                value = exc
            with self._lock:
                recent = self._recent
                recent[key] = value
                if len(recent) > self.recent_size:
                    del recent[next(iter(recent))]  # the oldest entry
        if isinstance(value, NotApplicable):
            raise value
        return value

    def score(self, references: Sequence[Code], candidate: Code) -> TierScore:
        """The best similarity over ``references``, or why the tier does not apply."""
        try:
            cand = self.represent(candidate)
        except NotApplicable as exc:
            return TierScore(None, f"candidate: {exc}")
        best: float | None = None
        first_reason: str | None = None
        for i, ref_code in enumerate(references):
            try:
                ref = self.represent(ref_code)
            except NotApplicable as exc:
                if first_reason is None:
                    where = "reference" if len(references) == 1 else f"reference {i + 1}"
                    first_reason = f"{where}: {exc}"
                continue
            value = self.similarity(ref, cand)
            if best is None or value > best:
                best = value
        if best is None:
            return TierScore(None, first_reason or "no reference")
        return TierScore(best)


_UNSEEN = object()


def normalized_similarity(distance: float, total: float) -> float:
    """``1 - distance / total`` clipped to [0, 1]; two empty representations are equal."""
    if total <= 0:
        return 1.0
    return min(1.0, max(0.0, 1.0 - distance / total))


class StringTier(Tier):
    """STS: token Levenshtein distance, ``1 - SED / max(len_ref, len_cand)``."""

    name = "string"
    metric = "sts"

    def build(self, code: Code) -> list[str]:
        tokens = code.tokens
        if len(tokens) > self.limits.max_tokens:
            raise NotApplicable(
                f"more tokens than the limit ({len(tokens)} > {self.limits.max_tokens})"
            )
        return tokens

    def similarity(self, reference: list[str], candidate: list[str]) -> float:
        longest = max(len(reference), len(candidate))
        return normalized_similarity(Levenshtein.distance(reference, candidate), longest)


class TreeTier(Tier):
    """TRS: Zhang–Shasha tree edit distance, ``1 - TED / (size_ref + size_cand)``."""

    name = "tree"
    metric = "trs"

    def build(self, code: Code) -> Any:
        import graphs

        tree = graphs.normalized_ast(code.parsed)
        if len(tree) > self.limits.max_ast_nodes:
            raise NotApplicable(
                f"AST larger than the limit ({len(tree)} > {self.limits.max_ast_nodes} nodes)"
            )
        return tree

    def similarity(self, reference: Any, candidate: Any) -> float:
        import graphs

        distance = graphs.tree_edit_distance(reference, candidate)
        return normalized_similarity(distance, len(reference) + len(candidate))


class GraphTier(Tier):
    """GRS: graph edit distance of PDGs, ``1 - GED / (size_ref + size_cand)``, size = V + E."""

    name = "graph"
    metric = "grs"

    def build(self, code: Code) -> Any:
        import graphs

        try:
            pdg = graphs.build_pdg(code.parsed, max_nodes=self.limits.max_pdg_nodes)
        except graphs.GraphTooLarge:
            raise NotApplicable(
                f"PDG larger than the limit ({self.limits.max_pdg_nodes} nodes)"
            ) from None
        if not pdg.graph.get("statements"):
            raise NotApplicable("no statements")
        return pdg

    def similarity(self, reference: Any, candidate: Any) -> float:
        import graphs

        result = graphs.graph_edit_distance(reference, candidate)
        total = graphs.graph_size(reference) + graphs.graph_size(candidate)
        return normalized_similarity(result.distance, total)


#: RUBY's tiers, most structural first: RUBY uses the first that applies.
TIER_ORDER: tuple[type[Tier], ...] = (GraphTier, TreeTier, StringTier)
