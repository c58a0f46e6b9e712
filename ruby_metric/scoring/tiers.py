"""RUBY's three tiers (graph, tree, string) behind one interface.

A tier turns a :class:`~ruby_metric.scoring.code.Code` into its representation (or says why it
cannot), compares two representations with a similarity in [0, 1] (:meth:`Tier.similarity`),
and can say what it measured (:meth:`Tier.explain`: the same number with the edits behind
it). :func:`normalized_similarity` is the one place a distance becomes a similarity.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from rapidfuzz.distance import Levenshtein

import crystal

from .code import Code, Limits, NotApplicable
from .evidence import (
    AstEdit,
    EdgeEdit,
    GraphExplanation,
    NodeMatch,
    StringExplanation,
    TokenBlock,
    TokenEdit,
    TreeExplanation,
    node_key,
)
from .grs_cost import DEFAULT_GRS_BETA, GRSCostModel


@dataclass(frozen=True)
class TierScore:
    """A tier's outcome for one pair: a value, or the reason it does not apply.

    Attributes
    ----------
    value : the best similarity over the references, ``None`` when the tier does not apply.
    reason : why it does not apply.
    reference : 0-based index of the reference that gave ``value`` (the first on ties).
    evidence : only when scored with ``explain=True``: per reference, the tier's evidence
        record (:meth:`Tier.explain`) or, where it could not be computed, the reason (a
        ``str`` such as ``"candidate: parse error at line 1, col 3"``).
    note : when the tier applies only because a side was repaired or had a statement kept
        as text, what was done, per side (``'candidate: repaired (appended "}")'``).
    """

    value: float | None
    reason: str | None = None
    reference: int | None = None
    evidence: tuple[Any, ...] | None = None
    note: str | None = None


class Tier(ABC):
    """One representation level of RUBY.

    Subclasses set :attr:`name` (the tier, e.g. ``"tree"``) and :attr:`metric` (the score it
    reports, e.g. ``"trs"``), and implement :meth:`build` and :meth:`similarity`.
    """

    name: str
    metric: str
    #: whether the tier reads the parse (and so the repair or containment of a side)
    structural: bool = False
    #: what reasons call the side compared against (``"source"`` across languages)
    reference_side: str = "reference"

    def __init__(self, limits: Limits) -> None:
        self.limits = limits

    @abstractmethod
    def build(self, code: Code) -> Any:
        """The representation of ``code``; raises :class:`NotApplicable` with a reason."""

    @abstractmethod
    def similarity(self, reference: Any, candidate: Any) -> float:
        """Similarity in [0, 1] of two representations; 1.0 for equal ones.

        Raises :class:`NotApplicable` with a reason when the pair is beyond a limit.
        """

    @abstractmethod
    def explain(self, reference: Any, candidate: Any) -> Any:
        """What :meth:`similarity` measured: an evidence record whose ``similarity`` is the
        same number, with the edits behind it (see :mod:`ruby_metric.scoring.evidence`).

        Raises :class:`NotApplicable` exactly when :meth:`similarity` does.
        """

    def represent(self, code: Code) -> Any:
        """:meth:`build`, done at most once per text and tier."""
        return code.representation(self.name, self.build)

    def check(self, code: Code) -> None:
        """Raise :class:`NotApplicable` with the reason when the tier cannot represent ``code``.

        All an exact match needs: its similarity is 1.0 whenever the tier applies. This
        builds the representation; a tier with a cheaper test overrides it, with the same
        outcome and reason as :meth:`represent`.
        """
        self.represent(code)

    def score(
        self, references: Sequence[Code], candidate: Code, *, explain: bool = False
    ) -> TierScore:
        """The best similarity over ``references``, or why the tier does not apply.

        With ``explain``, each reference is compared by :meth:`explain` instead of
        :meth:`similarity` (the same number, plus its evidence), so an explanation computes
        nothing twice.
        """
        identical = next((i for i, ref in enumerate(references) if ref is candidate), None)
        if identical is not None:
            # an exact match (the scorer shares one Code per text): the best there is
            try:
                self.check(candidate)
            except NotApplicable as exc:
                return self._not_applicable(
                    self._candidate_reason(str(exc), references), references, explain
                )
            evidence = None
            if explain:
                rep = self.represent(candidate)
                evidence = tuple(
                    self._evidence(rep, rep) if i == identical else None
                    for i in range(len(references))
                )
            note = self._note(candidate)
            return TierScore(1.0, reference=identical, evidence=evidence,
                             note=None if note is None else f"both: {note}")
        try:
            cand = self.represent(candidate)
        except NotApplicable as exc:
            return self._not_applicable(
                self._candidate_reason(str(exc), references), references, explain
            )
        best: float | None = None
        best_index: int | None = None
        first_reason: str | None = None
        notes: list[Any] = []
        for i, ref_code in enumerate(references):
            try:
                ref = self.represent(ref_code)
            except NotApplicable as exc:
                notes.append(f"{self.reference_side}: {exc}")
                if first_reason is None:
                    where = self._side(i, len(references))
                    first_reason = f"{where}: {exc}"
                continue
            try:
                if explain:
                    evidence = self.explain(ref, cand)
                    value = evidence.similarity
                    notes.append(evidence)
                else:
                    value = self.similarity(ref, cand)
            except NotApplicable as exc:
                # a limit on the pair, not on one side (STS's bound on the edit distance)
                notes.append(str(exc))
                if first_reason is None:
                    where = "" if len(references) == 1 else f"{self._side(i, len(references))}: "
                    first_reason = f"{where}{exc}"
                continue
            if best is None or value > best:
                best, best_index = value, i
        evidence_out = tuple(notes) if explain else None
        if best is None:
            return TierScore(None, first_reason or "no reference", evidence=evidence_out)
        assert best_index is not None
        sides = [(where, self._note(code)) for where, code in (
            ("candidate", candidate),
            (self._side(best_index, len(references)), references[best_index]))]
        note = "; ".join(f"{where}: {text}" for where, text in sides if text) or None
        return TierScore(best, reference=best_index, evidence=evidence_out, note=note)

    def _candidate_reason(self, reason: str, references: Sequence[Code]) -> str:
        """Why the tier does not apply to a candidate it cannot represent, naming each side
        that fails: ``both: ...`` when the one reference fails too for a reason of the same
        kind (see :func:`both_sides_reason`), else ``candidate: ...`` followed by each
        failing reference's own reason (``candidate: empty code; reference: parse error at
        line 1, col 5``). Every side's own failure is said, whatever the other sides do:
        the run's language check counts the references that do not parse from it."""
        failures: list[tuple[int, str]] = []
        for i, ref in enumerate(references):
            try:
                self.check(ref)  # the build's outcome and reason, often cheaper
            except NotApplicable as exc:
                failures.append((i, str(exc)))
        if len(failures) == len(references) and all(why == reason for _, why in failures):
            return f"both: {reason}"  # one text on every side (an exact match fails whole)
        if len(references) == 1 and failures:
            both = both_sides_reason(failures[0][1], reason, self.reference_side)
            if both is not None:
                return both
        count = len(references)
        return "; ".join([f"candidate: {reason}"] + [
            f"{self._side(i, count)}: {why}" for i, why in failures])

    def _side(self, index: int, count: int) -> str:
        """How reasons name reference ``index`` of ``count`` (numbered when several)."""
        return self.reference_side if count == 1 else f"{self.reference_side} {index + 1}"

    def _note(self, code: Code) -> str | None:
        """What repair or containment did to ``code`` for this tier, if anything."""
        if not self.structural:
            return None
        return code.note(graph=isinstance(self, GraphTier))

    def _evidence(self, reference: Any, candidate: Any) -> Any:
        try:
            return self.explain(reference, candidate)
        except NotApplicable as exc:
            return str(exc)

    @staticmethod
    def _not_applicable(reason: str, references: Sequence[Code], explain: bool) -> TierScore:
        return TierScore(None, reason, evidence=(reason,) * len(references) if explain else None)


_NUMBER = re.compile(r"\d[\d,.]*")
_DETAIL = re.compile(r"^(.*?) \(([^()]*)\)$")


def both_sides_reason(
    reference: str, candidate: str, reference_side: str = "reference"
) -> str | None:
    """One reason for a tier both sides of a pair fail, or ``None`` if they fail differently.

    Two reasons are of the same kind when they differ at most in their numbers (sizes,
    lines, columns). The same text is said once; different numbers are both given.

    >>> both_sides_reason("empty code", "empty code")
    'both: empty code'
    >>> both_sides_reason("AST larger than the limit (8010 > 4000 nodes)",
    ...                   "AST larger than the limit (8014 > 4000 nodes)")
    'both: AST larger than the limit (reference: 8010 > 4000 nodes; candidate: 8014 > 4000 nodes)'
    >>> both_sides_reason("parse error at line 1, col 3", "parse error at line 2, col 5")
    'both: parse error at line 1, col 3 (reference); parse error at line 2, col 5 (candidate)'
    >>> both_sides_reason("no statements", "parse error at line 2, col 5") is None
    True
    """
    if reference == candidate:
        return f"both: {reference}"
    if _NUMBER.sub("#", reference) != _NUMBER.sub("#", candidate):
        return None
    ref, cand = _DETAIL.match(reference), _DETAIL.match(candidate)
    if ref is not None and cand is not None and ref.group(1) == cand.group(1):
        return (
            f"both: {ref.group(1)} ({reference_side}: {ref.group(2)}; "
            f"candidate: {cand.group(2)})"
        )
    return f"both: {reference} ({reference_side}); {candidate} (candidate)"


def normalized_similarity(distance: float, total: float) -> float:
    """``1 - distance / total`` clipped to [0, 1]; two empty representations are equal."""
    if total <= 0:
        return 1.0
    return min(1.0, max(0.0, 1.0 - distance / total))


class StringTier(Tier):
    """STS: token Levenshtein distance, ``1 - SED / max(len_ref, len_cand)``."""

    name = "string"
    metric = "sts"

    def build(self, code: Code) -> crystal.InternedTokens:
        # No size limit per side: the limit is on the work of the pair (see similarity).
        # The interned tokens: a big pair's numbers, built here, serve the BLEUs too.
        return code.interned

    def similarity(self, reference: Sequence[str], candidate: Sequence[str]) -> float:
        longest = max(len(reference), len(candidate))
        distance = token_distance(reference, candidate, self.limits.max_tokens)
        return normalized_similarity(distance, longest)

    def explain(self, reference: Sequence[str], candidate: Sequence[str]) -> StringExplanation:
        """The token edit script behind STS.

        >>> from ruby_metric.scoring.code import Limits
        >>> e = StringTier(Limits()).explain(["a", "=", "1"], ["a", "=", "2"])
        >>> e.distance, round(e.similarity, 4), e.edits[0].cand_token
        (1, 0.6667, '2')
        """
        # The distance first, under STS's work bound (it raises NotApplicable beyond it); the
        # hint then lets rapidfuzz find the edit script in a band instead of the full table.
        distance = token_distance(reference, candidate, self.limits.max_tokens)
        ops = Levenshtein.editops(*token_ids(reference, candidate), score_hint=distance)
        edits = tuple(
            TokenEdit(
                kind=op.tag,
                ref_index=op.src_pos,
                cand_index=op.dest_pos,
                ref_token=reference[op.src_pos] if op.tag != "insert" else None,
                cand_token=candidate[op.dest_pos] if op.tag != "delete" else None,
            )
            for op in ops
        )
        blocks = tuple(
            TokenBlock(b.tag, b.src_start, b.src_end, b.dest_start, b.dest_end)
            for b in ops.as_opcodes()
        )
        longest = max(len(reference), len(candidate))
        similarity = normalized_similarity(len(edits), longest)
        return StringExplanation(
            len(edits), len(reference), len(candidate), similarity, edits, blocks
        )


def token_distance(a: Sequence[str], b: Sequence[str], max_tokens: int) -> int:
    """The exact token Levenshtein distance, with work bounded by ``max_tokens ** 2`` cells.

    A pair with ``len(a) * len(b) <= max_tokens ** 2`` gets the full computation. A larger
    pair is computed in a diagonal band of width ``2k + 1``, with ``k`` as large as the same
    budget allows: an edit path with at most ``k`` edits never leaves that band (Ukkonen,
    1985), so a distance of at most ``k`` found there is exact. Nearly identical huge inputs
    (a regenerated file, a small fix) therefore still get their exact STS; when the distance
    exceeds ``k`` its exact value is unknown and :class:`NotApplicable` says so: an
    approximate number is never reported as STS.

    >>> token_distance(["int", "x", "=", "1", ";"], ["long", "x", "=", "1", ";"], 100)
    1
    """
    n, m = len(a), len(b)
    budget = max_tokens * max_tokens
    if n * m > _IDS_ABOVE:
        a, b = token_ids(a, b)
    else:
        a, b = _listed(a), _listed(b)
    if n * m <= budget:
        return Levenshtein.distance(a, b)
    k = max(0, (budget // max(n, m) - 1) // 2)
    # rapidfuzz trims the common prefix and suffix, then widens the band from the hint up to
    # k by doubling, so a small distance costs a narrow band; beyond k it returns k + 1.
    distance = Levenshtein.distance(a, b, score_cutoff=k, score_hint=min(k, 32))
    if distance > k:
        raise NotApplicable(
            f"more than {k:,} token edits between {n:,} and {m:,} tokens: the exact distance "
            f"needs more work than the limit ({max_tokens:,}² token comparisons)"
        )
    return distance


# Above this many cells the id mapping below pays for itself many times over.
_IDS_ABOVE = 1 << 20


def token_ids(a: Sequence[str], b: Sequence[str]) -> tuple[array[int], array[int]]:
    """Both token sequences as integers, the most frequent token as 0 (ties: first seen).

    Equal tokens get equal ids, so every edit distance and edit script is unchanged. It makes
    huge pairs about three times faster: rapidfuzz looks up its bit vectors in a flat table
    for values below 256 (in real code almost every token is one of the 256 most frequent)
    and in a hash map otherwise, which is where hashed string tokens always land.

    The ids are ranked from each side's own numbering (:class:`crystal.InternedTokens`,
    built here unless a side is one that has it already, and then kept for the n-gram
    counts), so only the pair's distinct tokens are looked up again. They are returned as
    ``array("q")``, which rapidfuzz reads as machine integers: a list would need a Python
    int made, then read, for every position.

    >>> a, b = token_ids(["a", "=", "b", ";"], ["b", "=", "b", ";"])
    >>> a.tolist(), b.tolist()
    ([3, 1, 0, 2], [0, 1, 0, 2])
    """
    (ids_a, ids_b), joint = crystal.joint_ids(
        [crystal.InternedTokens.of(a), crystal.InternedTokens.of(b)]
    )
    counts = np.bincount(ids_a, minlength=len(joint)) + np.bincount(ids_b, minlength=len(joint))
    # most frequent first; a stable sort keeps ties in the joint numbering's first-seen order
    rank = np.empty(len(joint), dtype=np.int64)
    rank[np.argsort(-counts, kind="stable")] = np.arange(len(joint))
    return array("q", rank[ids_a].tobytes()), array("q", rank[ids_b].tobytes())


def _listed(tokens: Sequence[str]) -> Sequence[str]:
    """The tokens behind an interned sequence (rapidfuzz reads a list at C speed)."""
    return tokens.tokens if isinstance(tokens, crystal.InternedTokens) else tokens


class TreeTier(Tier):
    """TRS: Zhang–Shasha tree edit distance, ``1 - TED / (size_ref + size_cand)``."""

    name = "tree"
    metric = "trs"
    structural = True

    def build(self, code: Code) -> Any:
        import graphs

        try:
            # what never runs is left out; what repair and containment did is in the tree
            tree = graphs.tolerant_tree(code.structure, code.program)
        except graphs.NoStructure as error:
            raise NotApplicable(str(error)) from None
        if len(tree) > self.limits.max_ast_nodes:
            raise NotApplicable(
                f"AST larger than the limit ({len(tree)} > {self.limits.max_ast_nodes} nodes)"
            )
        return tree

    def check(self, code: Code) -> None:
        # The normalized AST keeps a subset of the nodes under the snippet's top-level nodes
        # (disjoint subtrees) plus its root, so tree-sitter's descendant counts (O(1) each,
        # the node included) bound its size: an exact match within that bound needs no
        # tree, which over half of all model outputs are. Otherwise build it as usual.
        program = code.program
        if program is None:
            self.represent(code)
            return
        nodes = program.parsed.nodes
        if 1 + sum(n.descendant_count for n in nodes) > self.limits.max_ast_nodes:
            self.represent(code)

    def similarity(self, reference: Any, candidate: Any) -> float:
        import graphs

        distance = graphs.tree_edit_distance(reference, candidate)
        return normalized_similarity(distance, len(reference) + len(candidate))

    def explain(self, reference: Any, candidate: Any) -> TreeExplanation:
        """The AST edit mapping behind TRS (renames, insertions, deletions)."""
        import graphs

        ted = graphs.tree_edit_mapping(reference, candidate)

        def kind(tree: Any, i: int | None) -> str | None:
            return tree.kinds[i] if i is not None and tree.kinds else None

        edits = tuple(
            AstEdit(
                kind=op.kind,
                ref_label=None if op.label_a is None else str(op.label_a),
                cand_label=None if op.label_b is None else str(op.label_b),
                ref_type=kind(reference, op.i),
                cand_type=kind(candidate, op.j),
                ref_position=op.position_a,
                cand_position=op.position_b,
            )
            for op in ted.operations
        )
        renames = sum(1 for e in edits if e.kind == "rename")
        matched = sum(1 for i, j in ted.mapping if i is not None and j is not None) - renames
        similarity = normalized_similarity(ted.distance, ted.size_a + ted.size_b)
        return TreeExplanation(ted.distance, ted.size_a, ted.size_b, similarity, matched, edits)


class GraphTier(Tier):
    """GRS: graph edit distance of PDGs under the v4 cost model
    (:mod:`ruby_metric.scoring.grs_cost`).

    A node weighs its label's tokens, labels are compared by chrF, and the score is the
    recall-weighted ``(1 + beta^2) M / (beta^2 S_ref + S_cand)`` with ``M = (S_ref + S_cand
    - GED) / 2`` the matched mass; edges are compared by their ``dep`` (data, effect,
    control and the branch outcome it hangs on). A function with an empty body has a PDG
    (its entry, which carries the signature), so an empty candidate scores low against a
    real reference instead of falling to a lower tier.

    Parameters
    ----------
    limits : size limits of the pair.
    beta : recall weight (default 2; 1 is the symmetric form).
    """

    name = "graph"
    metric = "grs"
    structural = True

    def __init__(self, limits: Limits, beta: float = DEFAULT_GRS_BETA) -> None:
        super().__init__(limits)
        self.costs = GRSCostModel(beta)

    @property
    def beta(self) -> float:
        """The recall weight of the score."""
        return self.costs.beta

    def build(self, code: Code) -> Any:
        import graphs

        # what repair and containment did is in the graph (graphs.pdg.tolerant); a parameter
        # nothing reads is only part of the entry's signature: an empty body is the entry alone
        pdg = self._bounded(partial(graphs.tolerant_pdg, code.structure, code.program,
                                    unread_parameters=False))
        if not pdg.graph.get("statements") and not _single_function(pdg.graph["functions"]):
            raise NotApplicable("no statements")
        if not pdg.graph["functions"]:
            # Statements without a function: their entry stands for nothing in the code (no
            # signature) and is the same in every graph, with an edge to every top-level
            # statement. Compared, it would make any two snippets look alike (a one-line
            # snippet against an unrelated one would still score 2/3), so it is left out (the
            # node for what a repair inserted, last, stays).
            pdg = pdg.subgraph(range(1, pdg.number_of_nodes())).copy()
        return pdg

    def check(self, code: Code) -> None:
        import graphs

        # The PDG exists exactly when its CFG fits the limit and has statements (or is one
        # function's): checking that skips the labels and the data flow (a third of the
        # build) for exact matches.
        if code.structure.clean is None:
            self.represent(code)  # contained: the build also checks the stand-ins
            return
        def shape(code: Code) -> Any:
            assert code.program is not None  # the parse is clean
            return self._bounded(partial(graphs.pdg_shape, code.program.parsed))

        statements, functions, _ = code.representation("graph-shape", shape)
        if not statements and not _single_function(functions):
            raise NotApplicable("no statements")

    def _bounded(self, build: Callable[..., Any]) -> Any:
        """``build(max_nodes=...)`` under the pair's PDG size limit; what gives no graph is
        :class:`NotApplicable`."""
        import graphs

        try:
            return build(max_nodes=self.limits.max_pdg_nodes)
        except graphs.GraphTooLarge:
            # the build stops as soon as the limit is passed: the true size is not known
            raise NotApplicable(
                f"PDG larger than the limit (more than {self.limits.max_pdg_nodes} nodes)"
            ) from None
        except graphs.NoStructure as error:  # no clean parse, or a stand-in lost
            raise NotApplicable(str(error)) from None

    def similarity(self, reference: Any, candidate: Any) -> float:
        costs = self.costs
        result, _, _, _ = self.edit(reference, candidate)
        return costs.score(result.distance, costs.size(reference), costs.size(candidate))

    def edit(self, reference: Any, candidate: Any, *, operations: bool = False
             ) -> tuple[Any, Any, Any, dict[str, str]]:
        """The graph edit distance behind GRS, with the locals the matched statements say
        are one variable under one name.

        A PDG names a local after its declaration (:mod:`graphs.pdg.naming`), so one edit
        to a declaration renames its variable in every statement that uses it. The GED is
        computed; the candidate locals its matched statements pair with reference locals of
        another name (:func:`graphs.align_locals`) get one name with them on both sides
        (:func:`graphs.common_names`, the same whichever side is the reference), and the GED
        is computed again: the smaller distance is GRS's. The sizes do not change (a name
        is one token).

        Returns
        -------
        ``(result, reference graph, candidate graph, pairs)``: the :class:`graphs.GEDResult`
        kept, the two graphs it was computed on, and ``{candidate local: reference local}``
        (empty when the first GED was kept).
        """
        import graphs

        options = self.costs.ged_options()
        first = graphs.graph_edit_distance(reference, candidate, operations=operations,
                                           **options)
        ref_nodes, cand_nodes = reference.nodes, candidate.nodes
        pairs = graphs.align_locals(
            (str(ref_nodes[a].get("label")), str(cand_nodes[b].get("label")))
            for a, b in first.node_mapping if a is not None and b is not None)
        if not pairs:
            return first, reference, candidate, {}
        ref_names, cand_names = graphs.common_names(pairs)
        ref_renamed = graphs.rename_locals(reference, ref_names) if ref_names else reference
        cand_renamed = graphs.rename_locals(candidate, cand_names) if cand_names else candidate
        second = graphs.graph_edit_distance(ref_renamed, cand_renamed, operations=operations,
                                            **options)
        if second.distance < first.distance:
            return second, ref_renamed, cand_renamed, pairs
        return first, reference, candidate, {}

    def explain(self, reference: Any, candidate: Any) -> GraphExplanation:
        """The PDG node mapping behind GRS, each pair with its cost, and the unmatched edges.

        The same call as :meth:`similarity` (:meth:`edit`) with the edit path listed, so its
        distance and similarity are GRS's; each node carries its weight and each
        substitution its label distance, so GRS can be recomputed by hand. Labels are as
        compared: each pair of locals :meth:`edit` found (``renamed``) under its one name.
        """
        costs = self.costs
        origins = (reference.graph.get("local_names", {}), candidate.graph.get("local_names", {}))
        ged, reference, candidate, pairs = self.edit(reference, candidate, operations=True)
        op_cost = {
            (op.item1, op.item2): float(op.cost)
            for op in ged.operations
            if op.kind.startswith("node_")
        }
        ref_labels = {a: str(reference.nodes[a].get("label")) for a, _ in ged.node_mapping
                      if a is not None}
        cand_labels = {b: str(candidate.nodes[b].get("label")) for _, b in ged.node_mapping
                       if b is not None}
        weight = dict(zip(
            [*ref_labels.values(), *cand_labels.values()],
            costs.node_weight([*ref_labels.values(), *cand_labels.values()]).tolist(),
            strict=True,
        ))
        mapping = []
        for a, b in ged.node_mapping:
            w_ref = None if a is None else weight[ref_labels[a]]
            w_cand = None if b is None else weight[cand_labels[b]]
            d = None
            if a is None:
                status, cost = "insert", op_cost[(None, b)]
            elif b is None:
                status, cost = "delete", op_cost[(a, None)]
            elif ref_labels[a] == cand_labels[b]:
                status, cost = "match", 0.0
            else:
                d = float(costs.label_distance([ref_labels[a]], [cand_labels[b]])[0, 0])
                cost = op_cost.get((a, b), 0.0)
                # no n-gram in common: both statements cost, as deleting one and inserting the other
                status = "replace" if d >= 1.0 else "relabel"
            mapping.append(NodeMatch(a, b, status, cost, w_ref, w_cand, d))
        # Reference order first (then insertions in candidate order): how a reader scans it.
        mapping.sort(
            key=lambda m: (m.ref is None, node_key(m.ref if m.ref is not None else m.cand))
        )
        edge_kinds = {"edge_delete": "delete", "edge_insert": "insert", "edge_retype": "retype"}
        edge_edits = [
            EdgeEdit(
                kind=edge_kinds[op.kind],
                ref_edge=tuple(op.item1) if op.item1 is not None else None,
                cand_edge=tuple(op.item2) if op.item2 is not None else None,
                ref_type=None if op.before is None else str(op.before),
                cand_type=None if op.after is None else str(op.after),
            )
            for op in ged.operations
            if op.kind in edge_kinds
        ]
        edge_edits.sort(
            key=lambda e: (
                e.ref_edge is None,
                tuple(map(node_key, e.ref_edge or e.cand_edge or ())),
                e.kind,
                e.ref_type or "",
                e.cand_type or "",
            )
        )
        size_ref = costs.size(reference)
        size_cand = costs.size(candidate)
        return GraphExplanation(
            distance=float(ged.distance),
            lower=float(ged.lower),
            exact=bool(ged.exact),
            method=str(ged.method),
            ref_size=size_ref,
            cand_size=size_cand,
            similarity=costs.score(ged.distance, size_ref, size_cand),
            mapping=tuple(mapping),
            edge_edits=tuple(edge_edits),
            beta=costs.beta,
            renamed=tuple(sorted(pairs.items())),
            renamed_identifiers=tuple((origins[1].get(c, ""), origins[0].get(r, ""))
                                      for c, r in sorted(pairs.items())),
        )


def _single_function(functions: int) -> bool:
    # one function whose body may be empty: still a translation, scored on its signature
    return functions == 1


def grs_ged_options(beta: float = DEFAULT_GRS_BETA) -> dict[str, Any]:
    """How GRS calls :func:`graphs.graph_edit_distance` (explanations use the same): edges
    compared by their ``dep``, weighted nodes with chrF label costs
    (:meth:`ruby_metric.scoring.grs_cost.GRSCostModel.ged_options`)."""
    return GRSCostModel(beta).ged_options()


#: RUBY's tiers, most structural first: RUBY uses the first that applies.
TIER_ORDER: tuple[type[Tier], ...] = (GraphTier, TreeTier, StringTier)
