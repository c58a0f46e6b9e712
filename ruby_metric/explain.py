"""Per-pair explanations: the edits and matches behind every number of a pair's scores.

:meth:`RubyScorer.explain <ruby_metric.scorer.RubyScorer.explain>` scores a pair and keeps
the evidence each tier computed its number from, against one reference (the one that gave
the best RUBY when there are several):

- STS: the token edit script (rapidfuzz's Levenshtein ``editops`` on the token lists);
- TRS: the AST edit mapping (renames ``x -> y``, insertions, deletions) of
  :func:`graphs.tree_edit_mapping`;
- GRS: the PDG node mapping of :func:`graphs.graph_edit_distance`, computed with exactly the
  options GRS scores with (:func:`~ruby_metric.tiers.grs_ged_options`: graded label costs,
  edges compared by their ``dep``), so its distance and similarity are the GRS reported; each
  node pair carries its cost and the edges it leaves unmatched carry their ``dep``;
- CrystalBLEU and BLEU: the clipped n-gram matches per order, each marked when it is in the
  scorer's set of trivially shared n-grams.

An :class:`Explanation` renders as plain text (:meth:`Explanation.to_text`), as a JSON-ready
dict (:meth:`Explanation.to_dict`) and as an HTML page (:mod:`ruby_metric.html_report`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rapidfuzz.distance import Levenshtein

from crystal import NgramSet
from crystal.ngrams import ngrams as iter_ngrams

from .code import Code, NotApplicable
from .results import PairResult
from .signature import ngram_set_id
from .tiers import Tier, grs_ged_options, normalized_similarity, token_distance, token_ids

if TYPE_CHECKING:
    import networkx as nx

    from .scorer import Reference, RubyScorer

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
    "dep_name",
    "explain_pair",
]

#: Metric names as people read them, in report order.
METRIC_NAMES: dict[str, str] = {
    "ruby": "RUBY",
    "grs": "GRS",
    "trs": "TRS",
    "sts": "STS",
    "crystalbleu": "CrystalBLEU",
    "bleu": "BLEU",
}

_TIER_METRIC = {"graph": "grs", "tree": "trs", "string": "sts"}


# -- STS -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TokenEdit:
    """One unit step of the token edit script from the reference to the candidate.

    Attributes
    ----------
    kind : ``"replace"``, ``"insert"`` or ``"delete"``.
    ref_index : position in the reference's tokens (for an insertion: the position it goes
        before).
    cand_index : position in the candidate's tokens (for a deletion: the position it would
        have had).
    ref_token, cand_token : the tokens involved (``None`` on the side that has none).
    """

    kind: str
    ref_index: int
    cand_index: int
    ref_token: str | None
    cand_token: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "kind": self.kind,
            "ref_index": self.ref_index,
            "cand_index": self.cand_index,
            "ref_token": self.ref_token,
            "cand_token": self.cand_token,
        }


@dataclass(frozen=True)
class TokenBlock:
    """A run of the token alignment (rapidfuzz ``opcodes``): equal, replaced, inserted, deleted.

    Attributes
    ----------
    kind : ``"equal"``, ``"replace"``, ``"insert"`` or ``"delete"``.
    ref_start, ref_end : half-open range of reference tokens.
    cand_start, cand_end : half-open range of candidate tokens.
    """

    kind: str
    ref_start: int
    ref_end: int
    cand_start: int
    cand_end: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "kind": self.kind,
            "ref_start": self.ref_start,
            "ref_end": self.ref_end,
            "cand_start": self.cand_start,
            "cand_end": self.cand_end,
        }


@dataclass(frozen=True)
class StringExplanation:
    """Why STS is what it is: the token edit script.

    Attributes
    ----------
    distance : token Levenshtein distance (``len(edits)``).
    ref_length, cand_length : token counts.
    similarity : ``1 - distance / max(ref_length, cand_length)`` for this reference.
    edits : the unit edits, in alignment order.
    blocks : the whole alignment as runs, equal runs included (what the HTML colours).
    """

    distance: int
    ref_length: int
    cand_length: int
    similarity: float
    edits: tuple[TokenEdit, ...]
    blocks: tuple[TokenBlock, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "distance": self.distance,
            "ref_length": self.ref_length,
            "cand_length": self.cand_length,
            "similarity": self.similarity,
            "edits": [e.to_dict() for e in self.edits],
            "blocks": [b.to_dict() for b in self.blocks],
        }


# -- TRS -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AstEdit:
    """One costly step of the AST edit mapping.

    Attributes
    ----------
    kind : ``"rename"``, ``"insert"`` (a candidate node) or ``"delete"`` (a reference node).
    ref_label, cand_label : the node labels (leaf text, or node type for inner nodes).
    ref_type, cand_type : the tree-sitter node types.
    ref_position, cand_position : 1-based (line, column) in the snippets, when known.
    """

    kind: str
    ref_label: str | None
    cand_label: str | None
    ref_type: str | None = None
    cand_type: str | None = None
    ref_position: tuple[int, int] | None = None
    cand_position: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (positions as ``[line, column]``)."""
        return {
            "kind": self.kind,
            "ref_label": self.ref_label,
            "cand_label": self.cand_label,
            "ref_type": self.ref_type,
            "cand_type": self.cand_type,
            "ref_position": list(self.ref_position) if self.ref_position else None,
            "cand_position": list(self.cand_position) if self.cand_position else None,
        }


@dataclass(frozen=True)
class TreeExplanation:
    """Why TRS is what it is: an optimal AST edit mapping.

    Attributes
    ----------
    distance : the tree edit distance (``len(edits)``).
    ref_size, cand_size : normalized AST sizes.
    similarity : ``1 - distance / (ref_size + cand_size)`` for this reference.
    matched : nodes mapped onto an equal node (cost 0).
    edits : renames, deletions and insertions, in mapping order.
    """

    distance: int
    ref_size: int
    cand_size: int
    similarity: float
    matched: int
    edits: tuple[AstEdit, ...]

    @property
    def renames(self) -> tuple[AstEdit, ...]:
        """The renames (``x -> y``)."""
        return tuple(e for e in self.edits if e.kind == "rename")

    @property
    def insertions(self) -> tuple[AstEdit, ...]:
        """Candidate nodes with no reference counterpart."""
        return tuple(e for e in self.edits if e.kind == "insert")

    @property
    def deletions(self) -> tuple[AstEdit, ...]:
        """Reference nodes with no candidate counterpart."""
        return tuple(e for e in self.edits if e.kind == "delete")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "distance": self.distance,
            "ref_size": self.ref_size,
            "cand_size": self.cand_size,
            "similarity": self.similarity,
            "matched": self.matched,
            "edits": [e.to_dict() for e in self.edits],
        }


# -- GRS -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PdgNode:
    """A PDG node as the reports show it.

    Attributes
    ----------
    id : the node id in :func:`graphs.build_pdg`'s graph (source order, 0 = entry).
    label : the normalized label GED compares.
    text : the source of the statement (for compound statements, the header).
    line : 1-based line in the snippet.
    kind : statement kind (``entry``, ``param``, ``while``, ``return``, ...).
    """

    id: int
    label: str
    text: str
    line: int
    kind: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "id": self.id,
            "label": self.label,
            "text": self.text,
            "line": self.line,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class PdgEdge:
    """A PDG edge.

    Attributes
    ----------
    source, target : node ids.
    type : ``"control"`` or ``"data"``.
    var : the variable of a data edge (``"<effects>"`` on an effect edge), else ``None``.
    dep : what GRS compares: ``"control-true"`` / ``"control-false"`` (hangs on that outcome
        of a branch or loop predicate), ``"control"`` (entry, switch label, try), ``"data"``
        or ``"effect"`` (calls with unknown effects, in program order). Graphs without a
        ``dep`` attribute get their ``type``.
    """

    source: int
    target: int
    type: str
    var: str | None = None
    dep: str = ""

    def __post_init__(self) -> None:
        if not self.dep:
            object.__setattr__(self, "dep", self.type)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "source": self.source,
            "target": self.target,
            "type": self.type,
            "dep": self.dep,
            "var": self.var,
        }


@dataclass(frozen=True)
class Pdg:
    """One side's program dependence graph, as plain records (nodes by id, edges sorted)."""

    nodes: tuple[PdgNode, ...]
    edges: tuple[PdgEdge, ...]

    @classmethod
    def from_graph(cls, graph: nx.MultiDiGraph) -> Pdg:
        """Records of a graph of :func:`graphs.build_pdg`."""
        nodes = tuple(
            PdgNode(
                id=n,
                label=str(data.get("label", "")),
                text=str(data.get("text", "")),
                line=int(data.get("line", 0) or 0),
                kind=str(data.get("kind", "")),
            )
            for n, data in sorted(graph.nodes(data=True), key=lambda item: _node_key(item[0]))
        )
        edges = sorted(
            (
                PdgEdge(
                    u,
                    v,
                    str(data.get("type")),
                    data.get("var"),
                    str(data.get("dep") or data.get("type")),
                )
                for u, v, data in graph.edges(data=True)
            ),
            key=lambda e: (_node_key(e.source), _node_key(e.target), e.dep, e.type, e.var or ""),
        )
        return cls(nodes, tuple(edges))

    def node(self, node_id: Any) -> PdgNode | None:
        """The node with this id, or ``None``."""
        for node in self.nodes:
            if node.id == node_id:
                return node
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "nodes": [n.to_dict() for n in self.nodes],
            "edges": [e.to_dict() for e in self.edges],
        }


@dataclass(frozen=True)
class NodeMatch:
    """One entry of the GED node mapping.

    Attributes
    ----------
    ref, cand : node ids (``None``: the node is inserted, or deleted).
    status : ``"match"`` (equal labels), ``"relabel"`` (different labels with something in
        common: a graded cost below 1), ``"replace"`` (labels with nothing in common, cost 1:
        unrelated statements the mapping pairs up, as costly as deleting one and inserting
        the other), ``"delete"`` (reference node left unmatched) or ``"insert"`` (candidate
        node left unmatched).
    cost : what the pair adds to the GED: 0 for a match, the graded relabel cost (normalized
        token edit distance of the labels, rounded to 1/64 as the GED does) for a relabel, 1
        for a replace, a delete or an insert.
    """

    ref: int | None
    cand: int | None
    status: str
    cost: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"ref": self.ref, "cand": self.cand, "status": self.status, "cost": self.cost}


@dataclass(frozen=True)
class EdgeEdit:
    """A PDG edge the node mapping leaves unmatched.

    Attributes
    ----------
    kind : ``"delete"`` (a reference edge with no counterpart), ``"insert"`` (a candidate
        edge with no counterpart) or ``"retype"`` (the mapped node pair has an edge on both
        sides with different ``dep``: e.g. ``control-true`` vs ``control-false`` when
        then/else bodies are swapped, or ``data`` vs ``effect``). Each costs 1.
    ref_edge, cand_edge : ``(source, target)`` node ids on each side, ``None`` where absent.
    ref_type, cand_type : the edges' ``dep`` (see :class:`PdgEdge`), ``None`` where absent.
    """

    kind: str
    ref_edge: tuple[int, int] | None
    cand_edge: tuple[int, int] | None
    ref_type: str | None
    cand_type: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "kind": self.kind,
            "ref_edge": list(self.ref_edge) if self.ref_edge else None,
            "cand_edge": list(self.cand_edge) if self.cand_edge else None,
            "ref_type": self.ref_type,
            "cand_type": self.cand_type,
        }


@dataclass(frozen=True)
class GraphExplanation:
    """Why GRS is what it is: the PDG node mapping and what it leaves unmatched.

    Attributes
    ----------
    distance : the graph edit distance reported (an upper bound unless ``exact``).
    lower : a proven lower bound on the GED.
    exact : whether ``distance`` is proven optimal.
    method : ``"exact"``, ``"bipartite"`` or ``"trivial"``.
    ref_size, cand_size : nodes plus edges of each PDG.
    similarity : ``1 - distance / (ref_size + cand_size)`` for this reference: GRS.
    mapping : every node of both graphs once: matched, relabeled, replaced, deleted or
        inserted, each with its cost.
    edge_edits : the edges left unmatched (deleted, inserted, retyped), 1 each; so
        ``distance == sum(m.cost for m in mapping) + len(edge_edits)``.
    """

    distance: float
    lower: float
    exact: bool
    method: str
    ref_size: int
    cand_size: int
    similarity: float
    mapping: tuple[NodeMatch, ...]
    edge_edits: tuple[EdgeEdit, ...]

    def nodes_with(self, status: str) -> tuple[NodeMatch, ...]:
        """The mapping entries with this status."""
        return tuple(m for m in self.mapping if m.status == status)

    @property
    def unmatched_ref_nodes(self) -> tuple[int, ...]:
        """Reference nodes the mapping deletes."""
        return tuple(m.ref for m in self.mapping if m.status == "delete" and m.ref is not None)

    @property
    def unmatched_cand_nodes(self) -> tuple[int, ...]:
        """Candidate nodes the mapping inserts."""
        return tuple(m.cand for m in self.mapping if m.status == "insert" and m.cand is not None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "distance": self.distance,
            "lower": self.lower,
            "exact": self.exact,
            "method": self.method,
            "ref_size": self.ref_size,
            "cand_size": self.cand_size,
            "similarity": self.similarity,
            "mapping": [m.to_dict() for m in self.mapping],
            "edge_edits": [e.to_dict() for e in self.edge_edits],
        }


# -- CrystalBLEU / BLEU ------------------------------------------------------------------------


@dataclass(frozen=True)
class NgramMatch:
    """An n-gram of the candidate that the reference has too.

    Attributes
    ----------
    ngram : the tokens.
    count : the clipped count ``min(count in candidate, count in reference)``.
    shared : in the scorer's set of trivially shared n-grams (CrystalBLEU ignores it, or
        down-weights it in the log-weight variant).
    """

    ngram: tuple[str, ...]
    count: int
    shared: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"ngram": list(self.ngram), "count": self.count, "shared": self.shared}


@dataclass(frozen=True)
class NgramOrder:
    """The matches of one n-gram order.

    Attributes
    ----------
    n : the order.
    matches : matched n-grams in order of first occurrence in the candidate.
    matched, total : clipped matches and candidate n-grams (BLEU's precision numerator and
        denominator for this order).
    matched_unshared, total_unshared : the same without the trivially shared n-grams
        (CrystalBLEU's, in the ``ignore`` variant).
    """

    n: int
    matches: tuple[NgramMatch, ...]
    matched: int
    total: int
    matched_unshared: int
    total_unshared: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "n": self.n,
            "matched": self.matched,
            "total": self.total,
            "matched_unshared": self.matched_unshared,
            "total_unshared": self.total_unshared,
            "matches": [m.to_dict() for m in self.matches],
        }


@dataclass(frozen=True)
class NgramExplanation:
    """Matched n-grams per order, trivially shared ones marked.

    Attributes
    ----------
    orders : orders 1..max_n.
    ngram_set : short id of the trivially shared n-gram set (``None``: no set, so nothing
        is marked shared and CrystalBLEU was not computed).
    variant : CrystalBLEU's variant (``"ignore"`` or ``"log-weight"``).
    """

    orders: tuple[NgramOrder, ...]
    ngram_set: str | None
    variant: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "ngram_set": self.ngram_set,
            "variant": self.variant,
            "orders": [o.to_dict() for o in self.orders],
        }


# -- the explanation ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Explanation:
    """A pair's scores with the evidence behind each of them.

    Attributes
    ----------
    result : the pair's :class:`PairResult` (every tier, best over all references).
    language : the scorer's language (``None``: language-agnostic tiers only).
    tokenizer : the tokenizer of STS and the BLEUs.
    reference : the reference explained against.
    candidate : the candidate.
    reference_index : 0-based position of ``reference`` among the references.
    reference_count : how many references the pair has.
    ref_tokens, cand_tokens : the token lists.
    string, tree, graph : per-tier evidence, ``None`` when the tier does not apply (or was
        not requested); ``notes`` says why.
    ngrams : matched n-grams (``None`` when neither BLEU was requested).
    ref_pdg, cand_pdg : each side's PDG when it could be built (drawn by the HTML report
        even when the other side has none).
    notes : why a piece of evidence is missing, by ``"graph"``, ``"tree"``, ``"string"``,
        ``"ngrams"``, ``"reference_pdg"`` and ``"candidate_pdg"``.
    """

    result: PairResult
    language: str | None
    tokenizer: str
    reference: str
    candidate: str
    reference_index: int
    reference_count: int
    ref_tokens: tuple[str, ...]
    cand_tokens: tuple[str, ...]
    string: StringExplanation | None = None
    tree: TreeExplanation | None = None
    graph: GraphExplanation | None = None
    ngrams: NgramExplanation | None = None
    ref_pdg: Pdg | None = field(default=None, repr=False)
    cand_pdg: Pdg | None = field(default=None, repr=False)
    notes: dict[str, str] = field(default_factory=dict)

    # -- plain text ---------------------------------------------------------------------------

    def tier_lines(self) -> list[tuple[str, float | None, str]]:
        """``(name, value, comment)`` per metric: the comment says which tier RUBY used, or
        why a metric is n/a."""
        r = self.result
        lines: list[tuple[str, float | None, str]] = []
        for metric, name in METRIC_NAMES.items():
            value = getattr(r, metric)
            if metric == "ruby":
                comment = self.ruby_reason()
            elif value is None:
                comment = "n/a: " + r.reasons.get(metric, "not requested")
            else:
                comment = ""
            lines.append((name, value, comment))
        return lines

    def ruby_reason(self) -> str:
        """Which tier RUBY used and why the more structural ones did not apply."""
        r = self.result
        if r.tier is None:
            return "n/a: " + r.reasons.get("ruby", r.reasons.get("input", "not requested"))
        used = METRIC_NAMES[_TIER_METRIC[r.tier]]
        skipped = []
        for tier in ("graph", "tree"):
            if tier == r.tier:
                break
            metric = _TIER_METRIC[tier]
            skipped.append(f"{METRIC_NAMES[metric]} n/a ({r.reasons.get(metric, 'n/a')})")
        if not skipped:
            return f"= {used}: both sides have a program dependence graph"
        return f"= {used}: " + "; ".join(skipped)

    def to_text(self, max_items: int = 10) -> str:
        """A plain-text report for a terminal: the numbers, then the evidence.

        Parameters
        ----------
        max_items : longest list shown in full; longer ones end with ``... and N more``.

        Returns
        -------
        str, ending with a newline.
        """
        out: list[str] = []
        head = f"RUBY explanation ({self.language or 'no language'}"
        if self.reference_count > 1:
            head += f"; reference {self.reference_index + 1} of {self.reference_count}, the one "
            head += "with the best RUBY"
        out.append(head + ")")
        for name, value, comment in self.tier_lines():
            number = "n/a   " if value is None else f"{value:.4f}"
            if value is None and comment.startswith("n/a: "):
                comment = comment[5:]
            out.append(f"  {name:<12} {number}  {comment}".rstrip())
        if self.reference_count > 1:
            out.append(
                "  (tier scores are the best over all references; the evidence below "
                "is against this reference)"
            )
        out.extend(self._graph_text(max_items))
        out.extend(self._tree_text(max_items))
        out.extend(self._string_text(max_items))
        out.extend(self._ngram_text(max_items))
        return "\n".join(out) + "\n"

    def _missing(self, key: str, title: str) -> list[str]:
        note = self.notes.get(key)
        return ["", f"{title}: n/a ({note})"] if note else []

    def _graph_text(self, max_items: int) -> list[str]:
        g = self.graph
        if g is None or self.ref_pdg is None or self.cand_pdg is None:
            return self._missing("graph", "Graph tier (GRS)")
        bound = "proven optimal" if g.exact else f"upper bound, lower bound {g.lower:g}"
        node_cost = sum(m.cost for m in g.mapping)
        out = [
            "",
            f"Graph tier (GRS): GED {g.distance:g} (nodes {node_cost:g} + edges "
            f"{len(g.edge_edits)}) over PDG sizes {g.ref_size} + {g.cand_size} ({bound}; "
            f"{g.method} method; graded label costs, edges compared by dependence kind)",
        ]
        ref, cand = self.ref_pdg, self.cand_pdg
        items = []
        for m in g.mapping:
            if m.status == "relabel":
                items.append(
                    f"relabel {m.cost:g}: {_node_text(ref, m.ref)} -> {_node_text(cand, m.cand)}"
                )
            elif m.status == "replace":
                items.append(
                    f"replace 1: {_node_text(ref, m.ref)} and {_node_text(cand, m.cand)} "
                    "are unrelated statements (no token aligns; as costly as deleting one "
                    "and inserting the other)"
                )
            elif m.status == "delete":
                items.append(f"unmatched reference node {_node_text(ref, m.ref)}")
            elif m.status == "insert":
                items.append(f"unmatched candidate node {_node_text(cand, m.cand)}")
        matched = len(g.nodes_with("match"))
        relabeled = g.nodes_with("relabel")
        relabel_cost = f" (cost {sum(m.cost for m in relabeled):g})" if relabeled else ""
        out.append(
            f"  nodes: {matched} matched, {len(relabeled)} relabeled{relabel_cost}, "
            f"{len(g.nodes_with('replace'))} replaced by an unrelated statement, "
            f"{len(g.unmatched_ref_nodes)} reference and {len(g.unmatched_cand_nodes)} "
            "candidate nodes unmatched"
        )
        out.extend(_capped(items, max_items))
        kinds = Counter(e.kind for e in g.edge_edits)
        out.append(
            f"  edges: {kinds['delete']} reference and {kinds['insert']} candidate "
            f"edges unmatched, {kinds['retype']} retyped (1 each)"
        )
        out.extend(_capped([_edge_text(e, ref, cand) for e in g.edge_edits], max_items))
        return out

    def _tree_text(self, max_items: int) -> list[str]:
        t = self.tree
        if t is None:
            return self._missing("tree", "Tree tier (TRS)")
        out = [
            "",
            f"Tree tier (TRS): TED {t.distance} over AST sizes {t.ref_size} + "
            f"{t.cand_size} ({t.matched} nodes matched; {len(t.renames)} renamed, "
            f"{len(t.deletions)} deleted, {len(t.insertions)} inserted)",
        ]
        items = []
        for e in t.edits:
            if e.kind == "rename":
                items.append(
                    f"rename {_short(e.ref_label)} -> {_short(e.cand_label)}"
                    + _at_both(e.ref_position, e.cand_position)
                )
            elif e.kind == "delete":
                items.append(f"delete {_short(e.ref_label)}{_at(e.ref_position)}")
            else:
                items.append(f"insert {_short(e.cand_label)}{_at(e.cand_position)}")
        out.extend(_capped(items, max_items))
        return out

    def _string_text(self, max_items: int) -> list[str]:
        s = self.string
        if s is None:
            return self._missing("string", "String tier (STS)")
        out = [
            "",
            f"String tier (STS): {_plural(s.distance, 'token edit')} over {s.ref_length} "
            f"reference and {s.cand_length} candidate tokens",
        ]
        items = []
        for b in s.blocks:
            ref = " ".join(self.ref_tokens[b.ref_start : b.ref_end])
            cand = " ".join(self.cand_tokens[b.cand_start : b.cand_end])
            if b.kind == "replace":
                items.append(
                    f"replace {_short(ref)} -> {_short(cand)} ({_range(b.ref_start, b.ref_end)})"
                )
            elif b.kind == "delete":
                items.append(f"delete {_short(ref)} ({_range(b.ref_start, b.ref_end)})")
            elif b.kind == "insert":
                items.append(f"insert {_short(cand)} (before token {b.ref_start + 1})")
        out.extend(_capped(items, max_items))
        return out

    def _ngram_text(self, max_items: int) -> list[str]:
        ng = self.ngrams
        if ng is None:
            return self._missing("ngrams", "N-grams (CrystalBLEU, BLEU)")
        if ng.ngram_set is None:
            title = "Matched n-grams (BLEU; no trivially shared n-gram set)"
        else:
            title = (
                f"Matched n-grams (set {ng.ngram_set}, {ng.variant} variant; * = trivially shared)"
            )
        out = ["", title]
        for order in ng.orders:
            counts = f"{order.matched}/{order.total} matched"
            if ng.ngram_set is not None:
                counts += f", {order.matched_unshared}/{order.total_unshared} not shared"
            shown = [
                _short(" ".join(m.ngram), 40)
                + ("*" if m.shared else "")
                + (f" x{m.count}" if m.count > 1 else "")
                for m in order.matches
            ]
            listed = ", ".join(shown[:max_items])
            if len(shown) > max_items:
                listed += f", ... and {len(shown) - max_items} more"
            out.append(f"  {order.n}-grams {counts}" + (f": {listed}" if listed else ""))
        return out

    # -- JSON ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The explanation as plain lists and dicts (``json.dumps`` ready, lists not tuples,
        so a JSON round trip gives an equal dict)."""

        def part(value: Any) -> Any:
            return None if value is None else value.to_dict()

        return {
            "result": self.result.to_dict(),
            "language": self.language,
            "tokenizer": self.tokenizer,
            "reference_index": self.reference_index,
            "reference_count": self.reference_count,
            "ruby_reason": self.ruby_reason(),
            "reference": self.reference,
            "candidate": self.candidate,
            "ref_tokens": list(self.ref_tokens),
            "cand_tokens": list(self.cand_tokens),
            "string": part(self.string),
            "tree": part(self.tree),
            "graph": part(self.graph),
            "ngrams": part(self.ngrams),
            "pdgs": {"reference": part(self.ref_pdg), "candidate": part(self.cand_pdg)},
            "notes": dict(sorted(self.notes.items())),
        }

    def to_html(self) -> str:
        """The self-contained HTML page of :func:`ruby_metric.html_report.render_html`."""
        from .html_report import render_html

        return render_html(self)


# -- building it -----------------------------------------------------------------------------


def explain_pair(scorer: RubyScorer, reference: Reference, candidate: str) -> Explanation:
    """Score a pair with ``scorer`` and collect the evidence of every tier.

    Parameters
    ----------
    scorer : the configured scorer (language, tokenizer, n-gram set, limits, metrics).
    reference : a reference, or a list of references.
    candidate : the candidate.

    Returns
    -------
    Explanation

    Raises
    ------
    TypeError : reference or candidate is not text.

    Notes
    -----
    The texts are wrapped in :class:`~ruby_metric.code.Code` once and shared by the scoring
    and the evidence, so each side is tokenized, parsed and turned into an AST and a PDG at
    most once. Only the edit scripts are recomputed (the scores need distances only).
    """
    refs, cand = scorer._codes(reference, candidate, scorer.language)
    result = scorer._score(
        reference, candidate, None, scorer.language, scorer._crystal, codes=(refs, cand)
    ).result
    tiers = {tier.name: tier for tier in scorer._tiers}
    wanted = set(scorer.metrics)
    index = _best_reference(tiers.get(result.tier or ""), refs, cand)
    ref = refs[index]
    notes: dict[str, str] = {}

    def evidence(name: str, build: Callable[[Any, Any], Any]) -> Any:
        tier = tiers[name]
        if tier.metric not in wanted and result.tier != name:
            notes[name] = "not requested"
            return None
        try:
            # Candidate first, as the tiers do, so the note matches the result's reason.
            cand_rep = _represent(tier, cand, "candidate")
            ref_rep = _represent(tier, ref, "reference")
        except NotApplicable as exc:
            notes[name] = str(exc)
            return None
        try:
            return build(ref_rep, cand_rep)
        except NotApplicable as exc:  # a limit on the pair (STS's bound on the distance)
            notes[name] = str(exc)
            return None

    graph = evidence("graph", _graph_explanation)
    tree = evidence("tree", _tree_explanation)
    string = evidence(
        "string", lambda r, c: _string_explanation(r, c, scorer.limits.max_tokens)
    )
    ref_pdg = cand_pdg = None
    if notes.get("graph") != "not requested":
        # Each side on its own: the report draws one PDG even when the other cannot be built.
        ref_pdg = _pdg_or_note(tiers["graph"], ref, "reference_pdg", notes)
        cand_pdg = _pdg_or_note(tiers["graph"], cand, "candidate_pdg", notes)

    ngram_expl = None
    if wanted & {"crystalbleu", "bleu"}:
        shared = scorer._crystal.ngrams if scorer._crystal is not None else None
        ngram_expl = _ngram_explanation(
            ref.tokens, cand.tokens, shared, scorer._bleu.max_n, scorer.variant
        )
    else:
        notes["ngrams"] = "not requested"

    return Explanation(
        result=result,
        language=scorer.language,
        tokenizer=scorer.tokenizer,
        reference=ref.text,
        candidate=cand.text,
        reference_index=index,
        reference_count=len(refs),
        ref_tokens=tuple(ref.tokens),
        cand_tokens=tuple(cand.tokens),
        string=string,
        tree=tree,
        graph=graph,
        ngrams=ngram_expl,
        ref_pdg=ref_pdg,
        cand_pdg=cand_pdg,
        notes=notes,
    )


def _represent(tier: Tier, code: Code, side: str) -> Any:
    try:
        return tier.represent(code)
    except NotApplicable as exc:
        raise NotApplicable(f"{side}: {exc}") from None


def _pdg_or_note(tier: Tier, code: Code, key: str, notes: dict[str, str]) -> Pdg | None:
    try:
        return Pdg.from_graph(tier.represent(code))
    except NotApplicable as exc:
        notes[key] = str(exc)
        return None


def _best_reference(tier: Tier | None, refs: Sequence[Code], cand: Code) -> int:
    """Index of the reference with the best similarity in RUBY's tier (first on ties)."""
    if tier is None or len(refs) == 1:
        return 0
    try:
        cand_rep = tier.represent(cand)
    except NotApplicable:
        return 0
    best_index, best = 0, None
    for i, code in enumerate(refs):
        try:
            value = tier.similarity(tier.represent(code), cand_rep)
        except NotApplicable:
            continue
        if best is None or value > best:
            best_index, best = i, value
    return best_index


def _string_explanation(
    ref: Sequence[str], cand: Sequence[str], max_tokens: int
) -> StringExplanation:
    # The distance first, under STS's work bound (it raises NotApplicable beyond it); the
    # hint then lets rapidfuzz find the edit script in a band instead of the full table.
    distance = token_distance(ref, cand, max_tokens)
    ops = Levenshtein.editops(*token_ids(ref, cand), score_hint=distance)
    edits = tuple(
        TokenEdit(
            kind=op.tag,
            ref_index=op.src_pos,
            cand_index=op.dest_pos,
            ref_token=ref[op.src_pos] if op.tag != "insert" else None,
            cand_token=cand[op.dest_pos] if op.tag != "delete" else None,
        )
        for op in ops
    )
    blocks = tuple(
        TokenBlock(b.tag, b.src_start, b.src_end, b.dest_start, b.dest_end)
        for b in ops.as_opcodes()
    )
    longest = max(len(ref), len(cand))
    similarity = 1.0 - len(edits) / longest if longest else 1.0
    return StringExplanation(len(edits), len(ref), len(cand), similarity, edits, blocks)


def _tree_explanation(ref: Any, cand: Any) -> TreeExplanation:
    import graphs

    ted = graphs.tree_edit_mapping(ref, cand)

    def kind(tree: Any, i: int | None) -> str | None:
        return tree.kinds[i] if i is not None and tree.kinds else None

    edits = tuple(
        AstEdit(
            kind=op.kind,
            ref_label=None if op.label_a is None else str(op.label_a),
            cand_label=None if op.label_b is None else str(op.label_b),
            ref_type=kind(ref, op.i),
            cand_type=kind(cand, op.j),
            ref_position=op.position_a,
            cand_position=op.position_b,
        )
        for op in ted.operations
    )
    matched = sum(1 for i, j in ted.mapping if i is not None and j is not None) - sum(
        1 for e in edits if e.kind == "rename"
    )
    return TreeExplanation(ted.distance, ted.size_a, ted.size_b, ted.similarity, matched, edits)


def _graph_explanation(ref: nx.MultiDiGraph, cand: nx.MultiDiGraph) -> GraphExplanation:
    import graphs

    # Exactly GRS's call, so the distance and similarity are the GRS reported.
    ged = graphs.graph_edit_distance(ref, cand, operations=True, **grs_ged_options())
    relabel_cost = {
        (op.item1, op.item2): float(op.cost) for op in ged.operations if op.kind == "node_relabel"
    }
    mapping = []
    for a, b in ged.node_mapping:
        if a is None:
            status, cost = "insert", 1.0
        elif b is None:
            status, cost = "delete", 1.0
        elif ref.nodes[a].get("label") == cand.nodes[b].get("label"):
            status, cost = "match", 0.0
        else:
            # Zero-cost substitutions are not listed: labels that differ by less than the
            # GED's 1/64 grid resolves stay a relabel of cost 0.
            cost = relabel_cost.get((a, b), 0.0)
            status = "replace" if cost >= 1.0 else "relabel"
        mapping.append(NodeMatch(a, b, status, cost))
    # Reference order first (then insertions in candidate order): how a reader scans it.
    mapping.sort(key=lambda m: (m.ref is None, _node_key(m.ref if m.ref is not None else m.cand)))
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
            tuple(map(_node_key, e.ref_edge or e.cand_edge or ())),
            e.kind,
            e.ref_type or "",
            e.cand_type or "",
        )
    )
    size_ref = graphs.graph_size(ref)
    size_cand = graphs.graph_size(cand)
    similarity = normalized_similarity(ged.distance, size_ref + size_cand)
    return GraphExplanation(
        distance=float(ged.distance),
        lower=float(ged.lower),
        exact=bool(ged.exact),
        method=str(ged.method),
        ref_size=size_ref,
        cand_size=size_cand,
        similarity=similarity,
        mapping=tuple(mapping),
        edge_edits=tuple(edge_edits),
    )


def _ngram_explanation(
    ref: Sequence[str],
    cand: Sequence[str],
    shared: Any,
    max_n: int,
    variant: str,
) -> NgramExplanation:
    """Clipped matches per order, as BLEU counts them against one reference."""
    shared_set = shared if shared is not None else frozenset()
    orders = []
    for n in range(1, max_n + 1):
        hyp_counts = Counter(iter_ngrams(cand, n))
        ref_counts = Counter(iter_ngrams(ref, n))
        matches = []
        # Counter keeps first-insertion order: matches come in candidate reading order.
        for gram, count in hyp_counts.items():
            clipped = min(count, ref_counts.get(gram, 0))
            if clipped:
                matches.append(NgramMatch(gram, clipped, gram in shared_set))
        total_shared = sum(c for g, c in hyp_counts.items() if g in shared_set)
        matched = sum(m.count for m in matches)
        matched_shared = sum(m.count for m in matches if m.shared)
        total = sum(hyp_counts.values())
        orders.append(
            NgramOrder(
                n=n,
                matches=tuple(matches),
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


# -- text helpers ------------------------------------------------------------------------------


def _node_key(node: Any) -> tuple[int, Any]:
    # PDG ids are ints; sorting stays total if a hand-made graph mixes in other ids.
    return (0, node) if isinstance(node, int) else (1, repr(node))


def _short(text: str | None, limit: int = 60) -> str:
    """``repr`` of a code fragment, shortened: one line, quotes and escapes unambiguous."""
    text = "" if text is None else text
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return repr(text)


def _at(position: tuple[int, int] | None) -> str:
    return f" at line {position[0]}, col {position[1]}" if position else ""


def _at_both(ref: tuple[int, int] | None, cand: tuple[int, int] | None) -> str:
    """Where a rename happens; both positions when the code moved between the sides."""
    if ref == cand or ref is None or cand is None:
        return _at(cand or ref)
    return f" at line {ref[0]}, col {ref[1]} (candidate line {cand[0]}, col {cand[1]})"


def _range(start: int, end: int) -> str:
    # 1-based for people
    return f"token {start + 1}" if end - start == 1 else f"tokens {start + 1}-{end}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _node_text(pdg: Pdg, node_id: int | None) -> str:
    node = pdg.node(node_id)
    if node is None:
        return f"#{node_id}"
    shown = node.text or node.label
    return f"line {node.line} {_short(' '.join(shown.split()), 50)}"


def _edge_text(edit: EdgeEdit, ref: Pdg, cand: Pdg) -> str:
    def ends(pdg: Pdg, edge: tuple[int, int] | None) -> str:
        if edge is None:
            return ""
        return f"{_node_text(pdg, edge[0])} -> {_node_text(pdg, edge[1])}"

    if edit.kind == "delete":
        return f"reference {dep_name(edit.ref_type)} edge {ends(ref, edit.ref_edge)}"
    if edit.kind == "insert":
        return f"candidate {dep_name(edit.cand_type)} edge {ends(cand, edit.cand_edge)}"
    return (
        f"{dep_name(edit.ref_type)} edge {ends(ref, edit.ref_edge)} is "
        f"{dep_name(edit.cand_type)} in the candidate"
    )


def dep_name(dep: str | None) -> str:
    """An edge's dependence kind as reports show it: the branch outcome in parentheses.

    Examples
    --------
    >>> from ruby_metric.explain import dep_name
    >>> dep_name("control-true"), dep_name("control"), dep_name("effect")
    ('control (true)', 'control', 'effect')
    """
    dep = "" if dep is None else str(dep)
    kind, _, outcome = dep.partition("-")
    return f"{kind} ({outcome})" if kind == "control" and outcome else dep


def _capped(items: list[str], max_items: int) -> list[str]:
    shown = [f"    {item}" for item in items[:max_items]]
    if len(items) > max_items:
        shown.append(f"    ... and {len(items) - max_items} more")
    return shown
