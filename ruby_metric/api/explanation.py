"""A pair's explanation: its scores with every tier's evidence, as text, dict or HTML."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from ..scoring.evidence import (
    EdgeEdit,
    GraphExplanation,
    NgramExplanation,
    Pdg,
    StringExplanation,
    TreeExplanation,
    dep_name,
)
from ..scoring.metrics import LABELS, TIER_METRICS
from ..scoring.results import PairResult

__all__ = ["Explanation"]


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
    source_language : when the candidate was scored against the program it translates
        (:meth:`~ruby_metric.api.scorer.RubyScorer.explain_source`), the source's language;
        ``reference`` is then the source, and the PDGs and labels are the neutral ones.
    mapping : with ``source_language``, what the neutral map did to each side's PDG labels:
        ``(source, candidate)`` :class:`graphs.neutral.NeutralReport` (``None`` for a side
        with no PDG): per label its own text, neutral form and rules, and the words the map
        did not know.
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
    source_language: str | None = None
    mapping: tuple[Any, Any] | None = field(default=None, repr=False)

    # -- plain text ---------------------------------------------------------------------------

    def tier_lines(self) -> list[tuple[str, float | None, str]]:
        """``(name, value, comment)`` per metric: the comment says which tier RUBY used, or
        why a metric is n/a."""
        r = self.result
        lines: list[tuple[str, float | None, str]] = []
        for metric, name in LABELS.items():
            value = getattr(r, metric)
            if metric == "ruby":
                comment = self.ruby_reason()
            elif value is None:
                comment = "n/a: " + r.reasons.get(metric, "not requested")
            else:
                # a repaired side or a statement kept as text (tolerant structure)
                comment = r.reasons.get(metric, "")
            lines.append((name, value, comment))
        return lines

    def ruby_reason(self) -> str:
        """Which tier RUBY used and why the more structural ones did not apply."""
        r = self.result
        if r.tier is None:
            return "n/a: " + r.reasons.get("ruby", r.reasons.get("input", "not requested"))
        used = LABELS[TIER_METRICS[r.tier]]
        skipped = []
        for tier in TIER_METRICS:  # most structural first
            if tier == r.tier:
                break
            metric = TIER_METRICS[tier]
            skipped.append(f"{LABELS[metric]} n/a ({r.reasons.get(metric, 'n/a')})")
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
        if self.source_language is not None:
            head += f", against its source in {self.source_language}"
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
        out.extend(self._mapping_text(max_items))
        out.extend(self._graph_text(max_items))
        out.extend(self._tree_text(max_items))
        out.extend(self._string_text(max_items))
        out.extend(self._ngram_text(max_items))
        return "\n".join(out) + "\n"

    def _mapping_text(self, max_items: int) -> list[str]:
        """The neutral map per side: what it did not know, its rules, the labels it changed."""
        if self.mapping is None:
            return []
        out = ["", "Neutral map (labels in one vocabulary before comparing):"]
        for side, report in zip(("source", "candidate"), self.mapping, strict=True):
            if report is None:
                out.append(f"  {side}: no PDG")
                continue
            out.append(f"  {side} {report.describe()}")
            if report.rules:
                rules = ", ".join(f"{rule} x{count}" for rule, count in report.rules)
                out.append(f"    rules: {rules}")
            for idiom in report.idioms:
                out.append(f"    idiom: {idiom}")
            changed = [
                f"    {_short(m.source)} -> "
                + (_short(m.label) if m.label is not None else "(no node)")
                for m in report.labels
                if m.label != m.source
            ]
            out.extend(_capped(changed, max_items))
        return out

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
            f"{len(g.edge_edits)}) over weighted PDG sizes S_ref {g.ref_size:g} + S_cand "
            f"{g.cand_size:g} ({bound}; {g.method} method; a node weighs its label's tokens, "
            "labels compared by chrF, edges compared by dependence kind, 1 each)",
            f"  {g.formula()}  (beta {g.beta:g}: recall weighs beta^2 times precision)",
            "  a relabel costs max(max(w_ref, w_cand) * d, |w_ref - w_cand|) (w_ref + w_cand "
            "when a label is text, '⁇ ...'), rounded to a multiple of 1/64; an unmatched node "
            "its weight",
        ]
        ref, cand = self.ref_pdg, self.cand_pdg
        items = []
        for m in g.mapping:
            weights = f"weights {m.ref_weight or 0:g} -> {m.cand_weight or 0:g}"
            if m.status == "relabel":
                items.append(
                    f"relabel {m.cost:g} (d {m.distance:.4g}, {weights}): "
                    f"{_node_text(ref, m.ref)} -> {_node_text(cand, m.cand)}"
                )
            elif m.status == "replace":
                items.append(
                    f"replace {m.cost:g} ({weights}): {_node_text(ref, m.ref)} and "
                    f"{_node_text(cand, m.cand)} are unrelated statements (no character "
                    "n-gram in common; costs the heavier one's weight)"
                )
            elif m.status == "delete":
                items.append(
                    f"unmatched reference node (weight {m.ref_weight or 0:g}) "
                    f"{_node_text(ref, m.ref)}"
                )
            elif m.status == "insert":
                items.append(
                    f"unmatched candidate node (weight {m.cand_weight or 0:g}) "
                    f"{_node_text(cand, m.cand)}"
                )
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
            f"{t.cand_size} ({_plural(t.matched, 'node')} matched; {len(t.renames)} renamed, "
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
        } | self._source_dict()

    def _source_dict(self) -> dict[str, Any]:
        """The source-mode keys of :meth:`to_dict` (none for a reference)."""
        if self.source_language is None:
            return {}
        sides = ("source", "candidate")
        return {
            "source_language": self.source_language,
            "mapping": {
                side: None if report is None else json_ready(asdict(report))
                for side, report in zip(sides, self.mapping or (None, None), strict=True)
            },
        }

    def to_html(self) -> str:
        """The self-contained HTML page of :func:`ruby_metric.pages.pair_page.render_html`."""
        from ..pages.pair_page import render_html

        return render_html(self)


def json_ready(value: Any) -> Any:
    """Tuples as lists, recursively, so a JSON round trip gives an equal value."""
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    return value


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


def _capped(items: list[str], max_items: int) -> list[str]:
    shown = [f"    {item}" for item in items[:max_items]]
    if len(items) > max_items:
        shown.append(f"    ... and {len(items) - max_items} more")
    return shown
