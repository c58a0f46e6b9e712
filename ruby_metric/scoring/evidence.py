"""Evidence records: the edits and matches behind each tier's number for one pair.

Each tier fills its own record (:meth:`ruby_metric.scoring.tiers.Tier.explain`): STS the token edit
script, TRS the AST edit mapping, GRS the PDG node mapping with its costs; the n-gram record
holds the clipped matches of CrystalBLEU and BLEU. :class:`ruby_metric.api.explanation.Explanation`
gathers them for one pair. All records are plain frozen dataclasses with ``to_dict``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "AstEdit",
    "EdgeEdit",
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
    "exact_number",
]


def exact_number(value: float) -> str:
    """A weight, cost, size or M as the GRS formula prints it: exact for multiples of 1/128
    (every one of them: costs are on a grid of 1/64, M halves a sum of them), at most 7
    decimals otherwise.

    >>> exact_number(7.328125), exact_number(28.0), exact_number(26.265625)
    ('7.328125', '28', '26.265625')
    """
    text = f"{value:.7f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


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
            for n, data in sorted(graph.nodes(data=True), key=lambda item: node_key(item[0]))
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
            key=lambda e: (node_key(e.source), node_key(e.target), e.dep, e.type, e.var or ""),
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
        common), ``"replace"`` (labels with no character n-gram in common: unrelated
        statements the mapping pairs up, costing both weights), ``"delete"``
        (reference node left unmatched) or ``"insert"`` (candidate node left unmatched).
    cost : what the pair adds to the GED: 0 for a match, ``max((w_ref + w_cand) *
        distance, |w_ref - w_cand|)`` rounded to 1/64 (as the GED does) for a relabel or a
        replace, the node's weight for a delete or an insert.
    ref_weight, cand_weight : the nodes' weights (tokens of their labels, at least 1);
        ``None`` on the side that has no node.
    distance : the label distance ``max(1/64, 1 - (w_ref R + w_cand P) / (w_ref +
        w_cand))`` of a relabel or replace (R, P: chrF's recall and precision; the share
        of the pair's mass not found on the other side).
    """

    ref: int | None
    cand: int | None
    status: str
    cost: float = 0.0
    ref_weight: float | None = None
    cand_weight: float | None = None
    distance: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "ref": self.ref,
            "cand": self.cand,
            "status": self.status,
            "cost": self.cost,
            "ref_weight": self.ref_weight,
            "cand_weight": self.cand_weight,
            "distance": self.distance,
        }


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
    """Why GRS is what it is: the PDG node mapping, what it leaves unmatched, and the
    numbers of the score's formula.

    Attributes
    ----------
    distance : the graph edit distance reported (an upper bound unless ``exact``).
    lower : a proven lower bound on the GED.
    exact : whether ``distance`` is proven optimal.
    method : ``"exact"``, ``"bipartite"`` or ``"trivial"``.
    ref_size, cand_size : weighted size of each PDG: the sum of its node weights plus its
        edges (``S_ref``, ``S_cand``).
    similarity : GRS for this reference, ``(1 + beta^2) M / (beta^2 S_ref + S_cand)``.
    mapping : every node of both graphs once: matched, relabeled, replaced, deleted or
        inserted, each with its weights and cost.
    edge_edits : the edges left unmatched (deleted, inserted, retyped), 1 each; so
        ``distance == sum(m.cost for m in mapping) + len(edge_edits)``.
    beta : the recall weight GRS was scored with.
    renamed : ``(candidate local, reference local)`` for the locals of two names compared
        as one variable (:meth:`GraphTier.edit <ruby_metric.scoring.tiers.GraphTier.edit>`),
        each under the smaller of its two names in the labels the costs are of.
    renamed_identifiers : the source's identifiers of each pair in :attr:`renamed` (``""``
        where a name has none, e.g. a local the source mode's map made).
    """

    distance: float
    lower: float
    exact: bool
    method: str
    ref_size: float
    cand_size: float
    similarity: float
    mapping: tuple[NodeMatch, ...]
    edge_edits: tuple[EdgeEdit, ...]
    beta: float = 2.0
    renamed: tuple[tuple[str, str], ...] = ()
    renamed_identifiers: tuple[tuple[str, str], ...] = ()

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

    @property
    def matched_mass(self) -> float:
        """``M = (S_ref + S_cand - GED) / 2``: the weight both graphs share."""
        return (self.ref_size + self.cand_size - self.distance) / 2.0

    def renamed_text(self, side: str = "reference") -> str:
        """:attr:`renamed` for a reader, with the source's identifiers where known, e.g.
        ``candidate v9f8 (idx) = reference v1a2 (i)``."""
        named = self.renamed_identifiers or (("", ""),) * len(self.renamed)

        def shown(name: str, identifier: str) -> str:
            return f"{name} ({identifier})" if identifier else name

        return ", ".join(f"candidate {shown(c, ic)} = {side} {shown(r, ir)}"
                         for (c, r), (ic, ir) in zip(self.renamed, named, strict=True))

    def formula(self) -> str:
        """The score's formula with its numbers, e.g. ``M = (40 + 36 - 9.5) / 2 = 33.25;
        GRS = (1 + 2^2) * 33.25 / (2^2 * 40 + 36) = 0.848214``."""
        b, n = f"{self.beta:g}", exact_number
        return (
            f"M = ({n(self.ref_size)} + {n(self.cand_size)} - {n(self.distance)}) / 2 = "
            f"{n(self.matched_mass)}; GRS = (1 + {b}^2) * {n(self.matched_mass)} / "
            f"({b}^2 * {n(self.ref_size)} + {n(self.cand_size)}) = {self.similarity:.6g}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "distance": self.distance,
            "lower": self.lower,
            "exact": self.exact,
            "method": self.method,
            "ref_size": self.ref_size,
            "cand_size": self.cand_size,
            "matched_mass": self.matched_mass,
            "beta": self.beta,
            "formula": self.formula(),
            "similarity": self.similarity,
            "mapping": [m.to_dict() for m in self.mapping],
            "edge_edits": [e.to_dict() for e in self.edge_edits],
            "renamed": [list(pair) for pair in self.renamed],
            "renamed_identifiers": [list(pair) for pair in self.renamed_identifiers],
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


def node_key(node: Any) -> tuple[int, Any]:
    """Sort key of a PDG node id: ints in order, anything else after them by ``repr``."""
    # PDG ids are ints; sorting stays total if a hand-made graph mixes in other ids.
    return (0, node) if isinstance(node, int) else (1, repr(node))


def dep_name(dep: str | None) -> str:
    """An edge's dependence kind as reports show it: the branch outcome in parentheses.

    Examples
    --------
    >>> from ruby_metric.api.explain import dep_name
    >>> dep_name("control-true"), dep_name("control"), dep_name("effect")
    ('control (true)', 'control', 'effect')
    """
    dep = "" if dep is None else str(dep)
    kind, _, outcome = dep.partition("-")
    return f"{kind} ({outcome})" if kind == "control" and outcome else dep
