"""Per-pair explanations: assembling the evidence every tier computed for a pair's scores.

:meth:`RubyScorer.explain <ruby_metric.api.scorer.RubyScorer.explain>` scores a pair with each
tier's :meth:`~ruby_metric.scoring.tiers.Tier.explain` (the same number as the score, with the edits
behind it) and hands the results here; nothing is computed twice. The evidence is against
one reference: the one that gave the best RUBY when there are several.

- STS: the token edit script (rapidfuzz's Levenshtein ``editops`` on the token lists);
- TRS: the AST edit mapping (renames ``x -> y``, insertions, deletions) of
  :func:`graphs.tree_edit_mapping`;
- GRS: the PDG node mapping of :func:`graphs.graph_edit_distance`, computed with exactly the
  options GRS scores with (:func:`~ruby_metric.scoring.tiers.grs_ged_options`: graded label costs,
  edges compared by their ``dep``); each node pair carries its cost and the edges it leaves
  unmatched carry their ``dep``;
- CrystalBLEU and BLEU: the clipped n-gram matches per order, each marked when it is in the
  scorer's set of trivially shared n-grams.

The records live in :mod:`ruby_metric.scoring.evidence`;
:class:`~ruby_metric.api.explanation.Explanation` renders as plain text, as a JSON-ready
dict and as an HTML page (:mod:`ruby_metric.pages.pair_page`). Both are re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import crystal
import graphs
from crystal import NgramSet

from ..scoring.code import Code, NotApplicable
from ..scoring.crosslang import (
    NOT_COMPARABLE,
    NeutralGraphTier,
    neutral_labels,
    neutral_report,
)
from ..scoring.evidence import (
    AstEdit,
    EdgeEdit,
    GraphExplanation,
    NgramExplanation,
    NgramMatch,
    NgramOrder,
    NodeMatch,
    Pdg,
    PdgEdge,
    PdgNode,
    StringExplanation,
    TokenBlock,
    TokenEdit,
    TreeExplanation,
    dep_name,
)
from ..scoring.metrics import LABELS, TIER_METRICS
from ..scoring.results import PairResult
from ..scoring.signature import ngram_set_id
from .explanation import Explanation

if TYPE_CHECKING:
    from ..scoring.tiers import Tier, TierScore

__all__ = [
    "AstEdit",
    "EdgeEdit",
    "Explanation",
    "GraphExplanation",
    "NgramExplanation",
    "NgramMatch",
    "NgramOrder",
    "NodeMatch",
    "Pdg",
    "PdgEdge",
    "PdgNode",
    "StringExplanation",
    "TokenBlock",
    "TokenEdit",
    "TreeExplanation",
    "assemble_explanation",
    "dep_name",
    "explain_pair",
    "ngram_evidence",
]

#: Metric names as people read them, in report order (kept for callers of earlier versions;
#: :data:`ruby_metric.scoring.metrics.LABELS` is the table).
METRIC_NAMES: dict[str, str] = LABELS


def explain_pair(scorer: Any, reference: str | Sequence[str], candidate: str) -> Explanation:
    """Score a pair with ``scorer`` and collect the evidence of every tier.

    The same as ``scorer.explain(reference, candidate)``
    (:meth:`~ruby_metric.api.scorer.RubyScorer.explain`).

    Parameters
    ----------
    scorer : a :class:`~ruby_metric.api.scorer.RubyScorer`.
    reference : a reference, or a list of references.
    candidate : the candidate.

    Returns
    -------
    Explanation

    Raises
    ------
    TypeError : reference or candidate is not text.
    """
    return scorer.explain(reference, candidate)


def assemble_explanation(
    result: PairResult,
    *,
    references: Sequence[Code],
    candidate: Code,
    outcomes: Mapping[str, TierScore],
    graph_tier: Tier,
    metrics: Sequence[str],
    language: str | None,
    tokenizer: str,
    ngram_set: Any = None,
    max_n: int = 4,
    variant: str = "ignore",
    source_language: str | None = None,
) -> Explanation:
    """An :class:`Explanation` from what scoring the pair already produced.

    Parameters
    ----------
    result : the pair's scores.
    references, candidate : both sides as :class:`~ruby_metric.scoring.code.Code` (their tokens and
        representations are reused, not rebuilt).
    outcomes : each scored tier's :class:`~ruby_metric.scoring.tiers.TierScore` by tier name, scored
        with ``explain=True`` so it holds the evidence per reference.
    graph_tier : the graph tier, to draw each side's PDG (already built when GRS was scored).
    metrics : the metrics that were requested.
    language, tokenizer : the scorer's.
    ngram_set, max_n, variant : CrystalBLEU's trivially shared n-grams (``None``: none), its
        largest order and variant, for the n-gram evidence.
    source_language : scored against the source in this language (the graph tier is then
        the neutral one, whose PDGs carry the neutral map's reports).

    Returns
    -------
    Explanation against the reference RUBY's tier chose (the first of the references when
    RUBY has no tier).
    """
    wanted = set(metrics)
    winner = outcomes.get(result.tier or "")
    index = winner.reference if winner is not None and winner.reference is not None else 0
    ref = references[index]
    notes: dict[str, str] = {}

    def evidence(name: str) -> Any:
        if TIER_METRICS[name] not in wanted and result.tier != name:
            notes[name] = "not requested"
            return None
        outcome = outcomes.get(name)
        item = outcome.evidence[index] if outcome is not None and outcome.evidence else None
        if item is None or isinstance(item, str):
            notes[name] = item or "not computed"
            return None
        return item

    graph = evidence("graph")
    tree = evidence("tree")
    string = evidence("string")
    if source_language is not None:
        notes["string"] = NOT_COMPARABLE
    # labels as GRS compared them: each pair of locals it found one variable under its one
    # name (GraphTier.edit)
    ref_names, cand_names = graphs.common_names(dict(graph.renamed) if graph else {})
    ref_pdg = cand_pdg = None
    if notes.get("graph") != "not requested":
        # Each side on its own: the report draws one PDG even when the other cannot be built.
        ref_pdg = _pdg_or_note(graph_tier, ref, "reference_pdg", notes, ref_names)
        cand_pdg = _pdg_or_note(graph_tier, candidate, "candidate_pdg", notes, cand_names)

    mapping = labels = None
    if source_language is not None:
        assert isinstance(graph_tier, NeutralGraphTier)  # scored against a source
        mapping = (neutral_report(graph_tier, ref), neutral_report(graph_tier, candidate))
        labels = (neutral_labels(graph_tier, ref, ref_names),
                  neutral_labels(graph_tier, candidate, cand_names))

    ngrams = None
    if source_language is not None:
        notes["ngrams"] = NOT_COMPARABLE
    elif wanted & {"crystalbleu", "bleu"}:
        ngrams = ngram_evidence(ref.tokens, candidate.tokens, ngram_set, max_n, variant)
    else:
        notes["ngrams"] = "not requested"

    return Explanation(
        result=result,
        language=language,
        tokenizer=tokenizer,
        reference=ref.text,
        candidate=candidate.text,
        reference_index=index,
        reference_count=len(references),
        ref_tokens=tuple(ref.tokens),
        cand_tokens=tuple(candidate.tokens),
        string=string,
        tree=tree,
        graph=graph,
        ngrams=ngrams,
        ref_pdg=ref_pdg,
        cand_pdg=cand_pdg,
        notes=notes,
        source_language=source_language,
        mapping=mapping,
        neutral_labels=labels,
    )


def _pdg_or_note(tier: Tier, code: Code, key: str, notes: dict[str, str],
                 renaming: dict[str, str]) -> Pdg | None:
    try:
        graph = tier.represent(code)
        return Pdg.from_graph(graphs.rename_locals(graph, renaming) if renaming else graph)
    except NotApplicable as exc:
        notes[key] = str(exc)
        return None


def ngram_evidence(
    reference: Sequence[str],
    candidate: Sequence[str],
    shared: Any,
    max_n: int = 4,
    variant: str = "ignore",
) -> NgramExplanation:
    """Clipped n-gram matches per order, as BLEU counts them against one reference.

    Parameters
    ----------
    reference, candidate : token lists.
    shared : CrystalBLEU's trivially shared n-grams (an :class:`crystal.NgramSet`, any
        container of n-gram tuples, or ``None``); matches in it are marked ``shared``.
    max_n : the largest order.
    variant : CrystalBLEU's variant, recorded with the evidence.

    Returns
    -------
    NgramExplanation

    Examples
    --------
    >>> e = ngram_evidence(["a", "b", "a"], ["a", "a", "c"], {("a",)}, max_n=2)
    >>> [(m.ngram, m.count, m.shared) for m in e.orders[0].matches]
    [(('a',), 2, True)]
    >>> e.orders[0].matched_unshared, e.orders[0].total_unshared
    (0, 1)
    """
    shared_set = shared if shared is not None else frozenset()
    orders = []
    for n in range(1, max_n + 1):
        clipped = crystal.clipped_matches(reference, candidate, n)
        matches = tuple(NgramMatch(gram, count, gram in shared_set) for gram, count in clipped)
        hyp_counts = crystal.count_ngrams(candidate, max_n=n, min_n=n)
        total = sum(hyp_counts.values())
        total_shared = sum(c for g, c in hyp_counts.items() if g in shared_set)
        matched = sum(m.count for m in matches)
        matched_shared = sum(m.count for m in matches if m.shared)
        orders.append(
            NgramOrder(
                n=n,
                matches=matches,
                matched=matched,
                total=total,
                matched_unshared=matched - matched_shared,
                total_unshared=total - total_shared,
            )
        )
    if shared is None:
        set_id = None
    elif isinstance(shared, NgramSet):
        set_id = ngram_set_id(shared)
    else:
        set_id = f"{len(shared)} n-grams"
    return NgramExplanation(tuple(orders), set_id, variant)
