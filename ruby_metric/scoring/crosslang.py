"""Scoring a translation against its source: cross-language GRS and TRS (SPEC section 9).

The source and the candidate are in different languages, so no lexical score between them
means much. Their structure does: each side's PDG and AST are built as within one language
(same parse, repair, containment, limits), then mapped into one language-neutral
vocabulary (:mod:`graphs.neutral`), then compared exactly as within one language: GRS with
the v3 cost model (:class:`~ruby_metric.scoring.grs_cost.GRSCostModel`, the source as reference,
beta 2) on the same GED engine, TRS with the same tree edit distance.

- :class:`NeutralGraphTier` and :class:`NeutralTreeTier`: the graph and tree tiers with
  neutral representations; drop-in :class:`~ruby_metric.scoring.tiers.Tier` objects (a
  :class:`~ruby_metric.scoring.code.Code` caches the neutral form beside the plain one).
- :func:`score_source`: one pair, with the mapping reports of both sides.

RUBY across languages is GRS where it applies, else TRS; there is no string tier (STS,
BLEU and CrystalBLEU between two languages are not comparable). So that no candidate drops
out of a corpus mean, the tree tier is the floor that the string tier is against a
reference: a candidate with no structure left after repair (empty, or no parse even with
repair and error containment) is an empty tree, and TRS against the source's tree is then
exactly 0 (every source node deleted: ``1 - |source| / (|source| + 0)``). RUBY is 0.0 with
``tier="tree"``, and TRS's reason says why (:func:`structureless`). A source with no
structure, or a side beyond a size limit, leaves RUBY ``None`` with its reason: that says
nothing about the candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import graphs

from .code import Code, Limits, NotApplicable, canonical_language
from .grs_cost import DEFAULT_GRS_BETA, GRSCostModel
from .tiers import GraphTier, TierScore, TreeTier

__all__ = [
    "NOT_COMPARABLE",
    "SOURCE_METRICS",
    "NeutralCostModel",
    "NeutralGraphTier",
    "NeutralLabel",
    "NeutralTreeTier",
    "SourceScore",
    "label_mappings",
    "mapping_reasons",
    "neutral_labels",
    "neutral_report",
    "score_source",
    "scored_against",
    "signature_fields",
    "structureless",
]


#: The metrics defined between a source and its translation: the structural ones.
SOURCE_METRICS: tuple[str, ...] = ("ruby", "grs", "trs")

#: Why STS, CrystalBLEU and BLEU are ``None`` when scoring against the source.
NOT_COMPARABLE = "not comparable across languages (scored against the source)"


def scored_against(language: str | None, source_language: str, *, one: bool = False) -> str:
    """How a page's header says that its candidates (``one``: its candidate) were scored
    against their sources, not against references (the terminal says it on every metric
    that is not comparable, and in the signature's ``mode:source``).

    >>> scored_against("python", "java")
    'candidates in python scored against their sources in java, not a reference: GRS and \
TRS on language-neutral graphs and trees; STS, CrystalBLEU and BLEU not comparable'
    >>> scored_against("python", "java", one=True)[:60]
    'candidate in python scored against its source in java, not a'
    """
    who, whose = ("candidate", "its source") if one else ("candidates", "their sources")
    return (f"{who} in {language or 'its own language'} scored against {whose} in "
            f"{source_language}, not a reference: GRS and TRS on language-neutral graphs "
            "and trees; STS, CrystalBLEU and BLEU not comparable")


class NeutralCostModel(GRSCostModel):
    """GRS v3 costs on neutral labels, a name weighing its words
    (:func:`graphs.neutral.label_weight`).

    Within one language a statement weighs its tokens. Across languages identifiers are
    folded to the words their style joins (``hasCloseElements`` = ``has_close_elements``),
    which is what a port keeps of a name; so a neutral label weighs its tokens with each
    name counted by its words: the function's name, the library and own functions called,
    fields and constants weigh what they say, while punctuation, keywords and the locals'
    canonical names weigh one each. Everything else (chrF labels, the weight-difference
    floor, recall weighting) is :class:`~ruby_metric.scoring.grs_cost.GRSCostModel`'s.

    >>> NeutralCostModel().node_weight(["def has_close_elements(_, _)", "return vd9d"]).tolist()
    [9.0, 2.0]
    """

    def node_weight(self, labels: list) -> np.ndarray:
        """Weights of neutral labels: their tokens, a name counted by its words."""
        from graphs.neutral import label_weight

        return np.array([label_weight(str(lab)) for lab in labels], dtype=np.float64)

    def size(self, pdg: Any) -> float:
        """Weighted size of a neutral PDG: its node weights plus its edges."""
        from graphs.neutral import label_weight

        weights = sum(label_weight(str(lab)) for _, lab in pdg.nodes(data="label"))
        return float(pdg.number_of_edges() + weights)


class NeutralGraphTier(GraphTier):
    """GRS between languages: :class:`~ruby_metric.scoring.tiers.GraphTier` on neutral PDGs.

    The representation is :func:`graphs.neutral.neutral_pdg` of the graph tier's PDG; its
    :class:`~graphs.neutral.NeutralReport` is in ``graph.graph["neutral_report"]``.
    Similarity and explanation are the graph tier's (v3 costs with a name weighing its
    words, :class:`NeutralCostModel`; same GED).

    Parameters
    ----------
    limits, beta : as for :class:`~ruby_metric.scoring.tiers.GraphTier`.
    table : the call table (default :meth:`graphs.neutral.CallTable.default`).
    """

    reference_side = "source"

    def __init__(self, limits: Limits, beta: float = DEFAULT_GRS_BETA,
                 table: Any = None) -> None:
        super().__init__(limits, beta)
        self.costs = NeutralCostModel(beta)
        self.table = table

    def represent(self, code: Code) -> Any:
        return code.representation("graph-neutral", self.build)

    def build(self, code: Code) -> Any:
        from graphs.neutral import neutral_pdg

        plain = code.representation("graph", super().build)
        assert code.language is not None  # a PDG needs one
        graph, report = neutral_pdg(plain, code.language, self.table)
        graph.graph["neutral_report"] = report
        return graph


class NeutralTreeTier(TreeTier):
    """TRS between languages: :class:`~ruby_metric.scoring.tiers.TreeTier` on neutral ASTs
    (:func:`graphs.neutral.neutral_tree`: shared node kinds, no types).

    A candidate with no structure (:func:`structureless`) against a source that has a tree
    scores 0.0, the TRS of an empty tree, with a note saying why (see the module docstring).
    """

    reference_side = "source"

    def score(self, references: Sequence[Code], candidate: Code, *,
              explain: bool = False) -> TierScore:
        outcome = super().score(references, candidate, explain=explain)
        if outcome.value is not None:
            return outcome
        why = structureless(candidate)
        if why is None:
            return outcome
        from graphs import Tree

        empty = Tree((), ())
        evidence: list[Any] = []
        best: int | None = None
        for i, ref_code in enumerate(references):
            try:
                ref = self.represent(ref_code)
            except NotApplicable as exc:
                evidence.append(f"{self._side(i, len(references))}: {exc}")
                continue
            best = i if best is None else best
            evidence.append(self.explain(ref, empty) if explain else None)
        if best is None:  # no source has a tree either: nothing to say about the candidate
            return outcome
        note = (f"candidate: {why}: no structure left to compare, scored 0 against the "
                f"{self.reference_side} (every {self.reference_side} node deleted)")
        return TierScore(0.0, reference=best, evidence=tuple(evidence) if explain else None,
                         note=note)

    def represent(self, code: Code) -> Any:
        return code.representation("tree-neutral", self.build)

    def build(self, code: Code) -> Any:
        from graphs.neutral import neutral_tree

        plain = code.representation("tree", super().build)
        assert code.language is not None
        tree, _report = neutral_tree(plain, code.language)
        return tree


@dataclass(frozen=True)
class SourceScore:
    """A candidate scored against its source in another language.

    Attributes
    ----------
    grs, trs : cross-language GRS and TRS, ``None`` where the tier does not apply.
    ruby : GRS where it applies, else TRS (no string tier across languages).
    grs_reason, trs_reason : why a tier does not apply; when RUBY is TRS's, ``trs_reason``
        is TRS's note instead (e.g. a candidate with no structure, scored 0).
    source_report, candidate_report : the neutral map's report for each side's PDG
        (:class:`graphs.neutral.NeutralReport`), ``None`` when no PDG was built.
    explanation : with ``explain=True``, the graph tier's
        :class:`~ruby_metric.scoring.evidence.GraphExplanation` of GRS (neutral labels).
    grs_note, trs_note : what a side's repair did, or what was left out of it as never run
        (``source: left out, never called from main: Helper``), where the tier applies.
    """

    grs: float | None
    trs: float | None
    ruby: float | None
    grs_reason: str | None = None
    trs_reason: str | None = None
    source_report: Any = None
    candidate_report: Any = None
    explanation: Any = None
    grs_note: str | None = None
    trs_note: str | None = None

    @property
    def reasons(self) -> tuple[str, ...]:
        """Reasons lines: tiers that do not apply, and what the map did not know."""
        out = []
        for metric, text in (("grs", self.grs_reason or self.grs_note),
                             ("trs", self.trs_reason or self.trs_note)):
            if text:
                out.append(f"{metric}: {text}")
        out.extend(mapping_reasons(self.source_report, self.candidate_report))
        return tuple(out)


def structureless(code: Code) -> str | None:
    """Why ``code`` has no structure at all, ``None`` if it has some (or no parse was tried).

    No structure: empty (or only blanks), or no parse even with repair and error containment
    (see :func:`graphs.tolerant_parse`; with ``repair=False``, no clean parse as given). A
    text longer than a limit, or in no language, was never parsed: that is not "no
    structure", and this returns ``None``.

    >>> structureless(Code("", "python")), structureless(Code("x = 1", "python"))
    ('empty code', None)
    >>> structureless(Code("hello world, in prose", "python"))
    'parse error at line 1, col 1'
    """
    try:
        structure = code.structure
    except NotApplicable:
        return None
    if structure.clean is not None or structure.contained is not None:
        return None
    return structure.original.error or "no parse"


def label_mappings(graph: Any) -> list[tuple[int, str, str | None, tuple[str, ...]]]:
    """Per node of a neutral PDG (a :class:`NeutralGraphTier` representation): ``(node,
    neutral label, the language's own label, rules applied)``, for ``explain``. A node the
    neutral map added (a pipeline's loop) has no own label (``None``)."""
    return [(n, str(d.get("label")), d.get("source_label"), tuple(d.get("rules", ())))
            for n, d in graph.nodes(data=True)]


def signature_fields(source_language: str, table: Any = None) -> str:
    """The signature fields of a cross-language score: ``mode:source|srclang:java|
    map:neutral5-<call table digest>|structureless:0`` (the vocabulary's version and the
    call table's digest: a result scored with another table is another measurement; and a
    candidate with no structure scores 0, see :class:`NeutralTreeTier`, where it used to
    have no score and drop out of the means).

    >>> signature_fields("Java").startswith("mode:source|srclang:java|map:neutral5-")
    True
    """
    from graphs.neutral import CallTable, vocabulary

    table = table or CallTable.default()
    # neutral5 (vocabulary 5): integer division `//` and true division `/` are two labels
    # (the C family's `/` read by type), so a score under neutral4 is another measurement
    return (f"mode:source|srclang:{canonical_language(source_language)}|"
            f"map:neutral{vocabulary.VERSION}-{table.digest}|structureless:0")


def neutral_report(tier: NeutralGraphTier, code: Code) -> Any:
    """The neutral map's :class:`~graphs.neutral.NeutralReport` of a side's PDG (built once
    and kept on ``code``), ``None`` when the side has no PDG."""
    try:
        return tier.represent(code).graph["neutral_report"]
    except NotApplicable:
        return None


@dataclass(frozen=True)
class NeutralLabel:
    """One statement of a side and the neutral map's label for it, named as GRS compares it.

    The neutral map renames locals again once its idioms are applied (after the neutral label
    of their first definition, :func:`graphs.neutral.neutral_pdg`), so a local has one name in
    the neutral PDG and another in its language's own PDG, and the map's per-label report
    (:class:`graphs.neutral.NeutralReport`) names it as the own PDG does. What ``explain``
    shows of the map is this instead: each statement as written, and its label in the
    neutral PDG whose node table and edges the explanation gives.

    Attributes
    ----------
    code : the statement as written, on one line (its own label when it has no text).
    line : its line (``None``: a node the map added, or one without a line).
    source : its label in its language's own PDG (that PDG's names for locals).
    label : its label in the neutral PDG, ``None`` when it is no node there (a declaration
        without initializer, a reader's construction, a counted loop's update folded into
        its ``range``).
    rules : what the map applied to it.
    unknown : the names it calls that the map does not know, as left in ``label``.
    """

    code: str
    line: int | None
    source: str
    label: str | None
    rules: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


def neutral_labels(tier: NeutralGraphTier, code: Code,
                   renaming: dict[str, str] | None = None) -> tuple[NeutralLabel, ...] | None:
    """Per statement of ``code``'s own PDG (in node order), its :class:`NeutralLabel`, then
    the nodes the map added (a pipeline's loop); ``None`` when the side has no PDG.
    ``renaming``: locals shown under another name (:func:`graphs.rename_locals`), as GRS
    compared them.

    A statement is found in the neutral PDG by its own label (``source_label`` there), the
    first unclaimed node with it for labels that repeat.

    >>> from ruby_metric.scoring.code import Limits
    >>> java = "int f(int n) { int s = 0; s += n; return s; }"
    >>> [(x.code, x.label) for x in neutral_labels(NeutralGraphTier(Limits()),
    ...                                            Code(java, "java"))][2:4]
    [('int s = 0;', 'vd9d = 0'), ('s += n;', 'vd9d += v0')]
    """
    try:
        graph = tier.represent(code)
    except NotApplicable:
        return None
    if renaming:
        graph = graphs.rename_locals(graph, renaming)
    plain = code.representation("graph", lambda c: GraphTier.build(tier, c))  # cached
    report = graph.graph["neutral_report"]
    nodes: dict[str, list[dict[str, Any]]] = {}
    added = []
    for _, data in graph.nodes(data=True):
        if data.get("source_label") is None:
            added.append(data)
        else:
            nodes.setdefault(str(data["source_label"]), []).append(data)
    out = []
    for (_, data), mapped in zip(plain.nodes(data=True), report.labels, strict=True):
        kept = nodes.get(mapped.source)
        node = kept.pop(0) if kept else None
        label = None if node is None else str(node["label"])
        out.append(NeutralLabel(
            " ".join(str(data.get("text") or mapped.source).split()), data.get("line"),
            mapped.source, label,
            mapped.rules if node is None else tuple(node.get("rules", ())),
            # an idiom may have rewritten an unknown call (in.nextInt() is read_int())
            tuple(w for w in mapped.unknown if label is not None and w in label)))
    out.extend(NeutralLabel(" ".join(str(d.get("text") or "").split()), d.get("line"), "",
                            str(d["label"]), tuple(d.get("rules", ()))) for d in added)
    return tuple(out)


def mapping_reasons(source_report: Any, candidate_report: Any) -> tuple[str, ...]:
    """``neutral map: source java: 8% of labels not known to the map (...)`` lines, one per
    side whose labels the map did not all know."""
    out = []
    for side, report in (("source", source_report), ("candidate", candidate_report)):
        if report is not None and report.unknown:
            out.append(f"neutral map: {side} {report.describe()}")
    return tuple(out)


def score_source(source: str, candidate: str, *, source_language: str, language: str,
                 beta: float = DEFAULT_GRS_BETA, limits: Limits | None = None,
                 table: Any = None, repair: bool = True, explain: bool = False
                 ) -> SourceScore:
    """Score ``candidate`` (in ``language``) against ``source`` (in ``source_language``).

    Parameters
    ----------
    source, candidate : the two programs (functions, classes or snippets).
    source_language, language : their languages (any alias the registry knows).
    beta : GRS recall weight; the source is the reference (what the candidate must carry).
    limits : size limits (default :class:`~ruby_metric.scoring.code.Limits`).
    table : the call table (default :meth:`graphs.neutral.CallTable.default`).
    repair : give almost-code the structural tiers (as within one language).
    explain : also return the graph tier's explanation of GRS.

    Returns
    -------
    SourceScore

    Examples
    --------
    >>> java = "int total(int[] xs) { int s = 0; for (int x : xs) { s += x; } return s; }"
    >>> py = "def total(xs):\\n    s = 0\\n    for x in xs:\\n        s += x\\n    return s\\n"
    >>> score_source(java, py, source_language="java", language="python").grs
    1.0
    """
    limits = limits or Limits()
    src = Code(source, canonical_language(source_language), limits=limits, repair=repair)
    cand = Code(candidate, canonical_language(language), limits=limits, repair=repair)
    graph_tier = NeutralGraphTier(limits, beta, table)
    tree_tier = NeutralTreeTier(limits)
    g = graph_tier.score([src], cand, explain=explain)
    t = tree_tier.score([src], cand)
    reports = [neutral_report(graph_tier, code) for code in (src, cand)]
    ruby = g.value if g.value is not None else t.value
    trs_reason = t.reason if g.value is not None or t.value is None else t.note
    explanation = None
    if explain and g.evidence:
        explanation = g.evidence[0]
    return SourceScore(g.value, t.value, ruby, g.reason, trs_reason, reports[0], reports[1],
                       explanation, g.note, t.note)
