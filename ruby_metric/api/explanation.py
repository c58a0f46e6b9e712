"""A pair's explanation: its scores with every tier's evidence, as text, dict or HTML."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..scoring.evidence import (
    EdgeEdit,
    GraphExplanation,
    NgramExplanation,
    Pdg,
    PdgNode,
    StringExplanation,
    TreeExplanation,
    dep_name,
)
from ..scoring.evidence import exact_number as exact
from ..scoring.metrics import LABELS, TIER_METRICS
from ..scoring.missing import MISSING_TEXT, missing_reason, missing_result
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
    neutral_labels : with ``mapping``, per side its statements and their labels in the
        neutral PDG (:class:`~ruby_metric.scoring.crosslang.NeutralLabel`: locals named as
        the graph tier's evidence names them), ``None`` for a side with no PDG.
    missing : where the candidate is missing (``"missing from out/"``) when the pair is a
        missing translation (:meth:`as_missing`): no text was compared, and every tier that
        needs a candidate scores 0; ``None`` otherwise.
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
    neutral_labels: tuple[Any, Any] | None = field(default=None, repr=False)
    missing: str | None = None

    def as_missing(self, missing: str) -> Explanation:
        """This explanation of the pair with an empty candidate, as that of a missing
        translation (a file missing from a system's folder, an id missing from a system of a
        JSONL): the scores the pair has in a run (:func:`~ruby_metric.scoring.missing.
        missing_result`: 0 on every tier that needs a candidate, with the reason), and no
        evidence, since no text was compared; the reference's (or source's) PDG is kept.

        >>> from ruby_metric import RubyScorer
        >>> e = RubyScorer("python").explain("x = 1", "").as_missing("missing from out")
        >>> e.result.ruby, e.result.tier, e.graph, e.missing
        (0.0, 'graph', None, 'missing from out')
        """
        reason = missing_reason(missing)
        notes = dict(self.notes)
        for key in ("graph", "tree", "string", "ngrams"):
            # a tier no candidate of this pair has (BLEU against a source, a reference that
            # does not parse) keeps its note
            if notes.get(key, "candidate").startswith("candidate"):
                notes[key] = reason
        notes["candidate_pdg"] = reason
        return replace(self, result=missing_result(self.result, missing), candidate="",
                       cand_tokens=(), string=None, tree=None, graph=None, ngrams=None,
                       cand_pdg=None, notes=dict(sorted(notes.items())), mapping=None,
                       neutral_labels=None, missing=missing)

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
        if self.missing is not None:  # no tier compared anything: each scores 0 for want of it
            return f"= {used}: {missing_reason(self.missing)}"
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
            GRS's node table is always whole: its totals are the terms of the score.

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
        out.append(head + ")" + ("" if self.missing is None
                                 else f": a missing translation ({self.missing})"))
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
        if self.missing is not None:
            out.extend(["", *MISSING_TEXT])
            return "\n".join(out) + "\n"
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
        out = ["", "Neutral map (labels in one vocabulary before comparing; a statement as "
               "written -> its label in the graph tier's PDG):"]
        for side, report, labels in zip(("source", "candidate"), self.mapping,
                                        self.neutral_labels or (None, None), strict=True):
            if report is None:
                out.append(f"  {side}: no PDG")
                continue
            out.append(f"  {side} {report.describe()}")
            if report.rules:
                rules = ", ".join(f"{rule} x{count}" for rule, count in report.rules)
                out.append(f"    rules: {rules}")
            for idiom in report.idioms:
                out.append(f"    idiom: {idiom}")
            # what the map rewrote or dropped; a local's new name alone is no rule
            changed = [
                f"    {_line(x.line)}{_short(x.code)} -> "
                + (_short(x.label) if x.label is not None else "(no node)")
                for x in labels or ()
                if x.rules or x.label is None
            ]
            out.extend(_capped(changed, max_items))
        return out

    def _missing(self, key: str, title: str) -> list[str]:
        note = self.notes.get(key)
        return ["", f"{title}: n/a ({note})"] if note else []

    def _graph_text(self, max_items: int) -> list[str]:
        """GRS's evidence, enough to recompute it by hand: every node pair of the mapping
        with its normalized labels, weights, label distance and cost (a table, never cut
        short: its totals are the score's terms), the edge counts, and the formula with its
        numbers. Costs are multiples of 1/64, so they are printed exactly."""
        g = self.graph
        ref, cand = self.ref_pdg, self.cand_pdg
        if g is None or ref is None or cand is None:
            return self._missing("graph", "Graph tier (GRS)")
        bound = "proven optimal" if g.exact else f"upper bound, lower bound {exact(g.lower)}"
        out = [
            "",
            f"Graph tier (GRS): GED {exact(g.distance)} over weighted PDG sizes S_ref "
            f"{exact(g.ref_size)} + S_cand {exact(g.cand_size)} ({bound}; {g.method} method)",
            "  w = tokens of a node's normalized label (at least 1); d = max(1/64, 1 - (w_ref R "
            "+ w_cand P) / (w_ref + w_cand)) between two labels (0 when equal), R and P chrF's "
            "recall and precision",
            "  cost of a mapped pair = max((w_ref + w_cand) * d, |w_ref - w_cand|) rounded to "
            "the nearest 1/64,",
            "  or w_ref + w_cand when a label is text ('⁇ ...'); of an unmatched node its "
            "weight; of an unmatched or retyped edge 1",
        ]
        unmatched = len(g.unmatched_ref_nodes), len(g.unmatched_cand_nodes)
        # scored against the source, the side compared against is named so
        side = "reference" if self.source_language is None else "source"
        out.append(
            f"  nodes: {len(g.mapping)} in the mapping: {len(g.nodes_with('match'))} match "
            f"(equal labels), {len(g.nodes_with('relabel'))} relabel, "
            f"{len(g.nodes_with('replace'))} replace (nothing in common), {unmatched[0]} "
            f"delete ({side} only), {unmatched[1]} insert (candidate only); line R/C: "
            f"{side} line R, candidate line C"
        )
        if g.renamed:
            out.append(
                f"  locals paired by the statements the edit path matches, compared as one "
                f"variable under the smaller of their two names: {g.renamed_text(side)}"
            )
        out.extend(_node_table(g, ref, cand))
        kinds = Counter(e.kind for e in g.edge_edits)
        shared = len(ref.edges) - kinds["delete"] - kinds["retype"]
        out.append(
            f"  edges: {len(ref.edges)} {side}, {len(cand.edges)} candidate; {shared} "
            f"matched, {kinds['retype']} retyped, {kinds['delete']} {side} and "
            f"{kinds['insert']} candidate edges unmatched: edge cost {len(g.edge_edits)} "
            "(1 each)"
        )
        out.extend(_capped([_edge_text(e, ref, cand, side) for e in g.edge_edits], max_items))
        out.extend(self._formula_lines())
        return out

    def _formula_lines(self) -> list[str]:
        """S_ref, S_cand, GED, M and GRS, each from the numbers of the lines above."""
        g, ref, cand = self.graph, self.ref_pdg, self.cand_pdg
        assert g is not None and ref is not None and cand is not None
        weights_ref = sum(m.ref_weight or 0 for m in g.mapping)
        weights_cand = sum(m.cand_weight or 0 for m in g.mapping)
        node_cost = sum(m.cost for m in g.mapping)
        b = f"{g.beta:g}"
        factor = g.beta * g.beta
        top = (1 + factor) * g.matched_mass
        bottom = factor * g.ref_size + g.cand_size
        grs = self.result.grs
        if grs is None or f"{grs:.4f}" == f"{g.similarity:.4f}":
            shown = f"GRS {g.similarity:.4f} above"
        else:  # several references: the table's GRS is the best of them
            shown = f"against this reference; GRS above, {grs:.4f}, is the best over all of them"
        if g.ref_size + g.cand_size <= 0:
            last = "1 (two empty graphs)"
        else:
            last = f"{exact(top)} / {exact(bottom)} = {g.similarity:.6f}"
            if not 0 <= top / bottom <= 1:
                last += " (clipped to [0, 1])"
        return [
            f"  S_ref  = node weights {exact(weights_ref)} + edges {len(ref.edges)} = "
            f"{exact(g.ref_size)}",
            f"  S_cand = node weights {exact(weights_cand)} + edges {len(cand.edges)} = "
            f"{exact(g.cand_size)}",
            f"  GED    = node costs {exact(node_cost)} + edge costs {len(g.edge_edits)} = "
            f"{exact(g.distance)}",
            f"  M      = (S_ref + S_cand - GED) / 2 = ({exact(g.ref_size)} + "
            f"{exact(g.cand_size)} - {exact(g.distance)}) / 2 = {exact(g.matched_mass)}",
            f"  GRS    = (1 + beta^2) * M / (beta^2 * S_ref + S_cand) = (1 + {b}^2) * "
            f"{exact(g.matched_mass)} / ({b}^2 * {exact(g.ref_size)} + {exact(g.cand_size)})",
            f"         = {last}  ({shown}; beta {b}: recall weighs beta^2 = {factor:g} times "
            "precision)",
        ]

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
        } | self._source_dict() | ({} if self.missing is None else {"missing": self.missing})

    def _source_dict(self) -> dict[str, Any]:
        """The source-mode keys of :meth:`to_dict` (none for a reference)."""
        if self.source_language is None:
            return {}
        sides = ("source", "candidate")
        mapping: dict[str, Any] = {}
        for side, report, labels in zip(sides, self.mapping or (None, None),
                                        self.neutral_labels or (None, None), strict=True):
            mapping[side] = None if report is None else json_ready(asdict(report))
            if mapping[side] is not None and labels is not None:  # named as the graph's
                mapping[side]["labels"] = [json_ready(asdict(x)) for x in labels]
        return {"source_language": self.source_language, "mapping": mapping}

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


def _line(line: int | None) -> str:
    return "" if line is None else f"line {line} "


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


#: Longest label the GRS node table shows whole (characters); longer ones are cut in the
#: middle, or around their first difference for a relabelled pair.
LABEL_LIMIT = 72
#: The same for the code shown beside a changed node's label.
CODE_LIMIT = 50


def _clip(text: str, limit: int = LABEL_LIMIT) -> str:
    """``repr`` of a label, cut in the middle with ``…`` when longer than ``limit`` (its
    start and end stay: what tells two statements apart is mostly at one end or the other).

    >>> _clip("System.out.println(a + b + c + d)", 20)
    "'System.out.p… c + d)'"
    """
    if len(text) > limit:
        head = (limit - 1) * 2 // 3
        text = text[:head] + "…" + text[len(text) - (limit - 1 - head) :]
    return repr(text)


def _clip_pair(ref: str, cand: str, limit: int = LABEL_LIMIT) -> tuple[str, str]:
    """``repr`` of two different labels, cut alike so that their first difference shows:
    both start a little before it (``…`` for what is left out), then each is cut in the
    middle, keeping that difference in the part shown.

    >>> _clip_pair("f(" + "a" * 30 + ", x)", "f(" + "a" * 30 + ", y)", 20)
    ("'…aaaaaaaaaaaaaaa, x)'", "'…aaaaaaaaaaaaaaa, y)'")
    >>> _clip_pair("g(x) + " + "a" * 30, "g(y) + " + "a" * 30, 20)
    ("'g(x) + aaaaa…aaaaaaa'", "'g(y) + aaaaa…aaaaaaa'")
    """
    if len(ref) <= limit and len(cand) <= limit:
        return repr(ref), repr(cand)
    same = 0
    for a, b in zip(ref, cand, strict=False):
        if a != b:
            break
        same += 1
    # a little context before the difference, but no shorter than the limit allows
    start = max(0, min(same - limit // 4, max(len(ref), len(cand)) - limit + 1))
    lead = "…" if start else ""
    return _clip(lead + ref[start:], limit), _clip(lead + cand[start:], limit)


def _node_table(g: GraphExplanation, ref: Pdg, cand: Pdg) -> list[str]:
    """The GED's node mapping as a table, one row per entry and a row of totals: status,
    line, weights, label distance, cost and the normalized label (a relabel's candidate
    label under its reference label; beside the label of a changed node, its code)."""
    rows: list[tuple[list[str], list[str]]] = []  # (cells, the label lines)
    for m in g.mapping:
        a, b = ref.node(m.ref), cand.node(m.cand)
        lines = [None if n is None else n.line for n in (a, b)]
        line = (
            str(lines[0])
            if lines[0] == lines[1]
            else "/".join("-" if x is None else str(x) for x in lines)
        )
        if m.status == "match":
            d = "0"
        elif m.distance is None:
            d = "-"
        else:
            d = f"{m.distance:.6f}"
        cells = [
            m.status,
            line,
            "-" if m.ref_weight is None else exact(m.ref_weight),
            "-" if m.cand_weight is None else exact(m.cand_weight),
            d,
            exact(m.cost),
        ]
        # one line per side: its label, and beside it a changed node's code
        present = [(n, i) for n, i in ((a, m.ref), (b, m.cand)) if i is not None]
        labels = [_node_label(n, i) for n, i in present]
        if m.status == "match":
            text = [_clip(labels[0])]
        else:
            codes = [_source(n) for n, _ in present]
            if len(present) == 2:
                labels, codes = list(_clip_pair(*labels)), list(_clip_pair(*codes, CODE_LIMIT))
            else:
                labels, codes = [_clip(labels[0])], [_clip(codes[0], CODE_LIMIT)]
            width = max(map(len, labels))
            text = [
                f"{label.ljust(width)}  (line {'?' if n is None else n.line} {code})"
                for label, code, (n, _) in zip(labels, codes, present, strict=True)
            ]
        rows.append((cells, text))
    total = [
        "total",
        "",
        exact(sum(m.ref_weight or 0 for m in g.mapping)),
        exact(sum(m.cand_weight or 0 for m in g.mapping)),
        "",
        exact(sum(m.cost for m in g.mapping)),
    ]
    head = ["status", "line", "w_ref", "w_cand", "d", "cost"]
    table = [head, *(cells for cells, _ in rows), total]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]

    def row(cells: list[str]) -> str:
        return "    " + "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    indent = " " * (len(row(head)) - 1)
    out = [row(head) + "  label (normalized: what d compares; the code of a changed node)"]
    for cells, text in rows:
        out.append(row(cells) + "  " + text[0])
        # a relabel's candidate label under its reference label, quotes aligned
        out.extend(f"{indent}-> {more}" for more in text[1:])
    out.append(row(total).rstrip())
    return out


def _node_label(node: PdgNode | None, node_id: int | None) -> str:
    return f"#{node_id}" if node is None else node.label


def _source(node: PdgNode | None) -> str:
    """A statement's source on one line (its label when it has none)."""
    return "" if node is None else " ".join((node.text or node.label).split())


def _node_text(pdg: Pdg, node_id: int | None) -> str:
    node = pdg.node(node_id)
    if node is None:
        return f"#{node_id}"
    shown = node.text or node.label
    return f"line {node.line} {_short(' '.join(shown.split()), 50)}"


def _edge_text(edit: EdgeEdit, ref: Pdg, cand: Pdg, side: str) -> str:
    """One unmatched or retyped edge; ``side`` names what the candidate is compared against
    (``"reference"``, or ``"source"`` in source mode)."""

    def ends(pdg: Pdg, edge: tuple[int, int] | None) -> str:
        if edge is None:
            return ""
        return f"{_node_text(pdg, edge[0])} -> {_node_text(pdg, edge[1])}"

    if edit.kind == "delete":
        return f"{side} {dep_name(edit.ref_type)} edge {ends(ref, edit.ref_edge)}"
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
