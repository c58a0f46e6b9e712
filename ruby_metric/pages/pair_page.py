"""One self-contained HTML page explaining one pair.

The page holds everything inline (CSS, SVG) and no script at all; a Content-Security-Policy
forbids any fetch, so it opens the same from a mail attachment, an artifact store or a
machine without network. It shows

- a bar per metric (RUBY, GRS, TRS, STS, CrystalBLEU, BLEU) with its number, or n/a and why;
- both snippets side by side, tokens coloured by the STS edit script (deleted, inserted,
  replaced);
- both program dependence graphs as SVG: nodes in source-line order top to bottom, indented
  by control-dependence depth, control edges as solid arcs on the left (marked ``T`` / ``F``
  when they hang on the true / false outcome of a predicate), data edges as dashed arcs and
  effect edges (calls with unknown effects, in program order) as dotted arcs on the right;
  nodes the GED mapping relabels (with their graded cost), replaces by an unrelated
  statement, or leaves unmatched are highlighted, and so are the unmatched edges;
- the details: PDG node mapping with costs, AST edits, token edits, matched n-grams.

All code text is escaped (``</script>`` in code stays text), and the output is a pure
function of the explanation: the same pair gives byte-identical HTML.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from crystal import token_spans

from ..scoring.crosslang import scored_against
from ..scoring.evidence import EdgeEdit, NodeMatch, Pdg, dep_name
from ..scoring.metrics import LABELS
from ..scoring.missing import MISSING_TEXT
from ..version import __version__
from .html_text import coord as _coord
from .html_text import escape, truncate, write_page
from .pdg_drawing import pdg_svg, status_text

if TYPE_CHECKING:
    from .views import PairView

__all__ = ["PAGE_CSS", "escape_html", "render_html", "render_pair_sections", "write_html"]

#: Longest list the details tables show in full.
MAX_ROWS = 200


_CSS = """
:root { --del: #fdd8d8; --del-b: #c62828; --ins: #d6f5d6; --ins-b: #2e7d32;
  --rep: #fff1c2; --rep-b: #b7860b; --ctl: #1f5fbf; --dat: #d9822b; --eff: #7b3fa0;
  --unr: #ffe0c7; --unr-b: #b45309; --muted: #6b7280;
  --line: #e5e7eb; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #111827; margin: 0; padding: 18px 26px 40px; background: #fafafa; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 26px 0 10px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0 0 6px; }
.meta { color: var(--muted); margin: 0; }
.ruby-reason { margin: 6px 0 0; }
.bars { display: grid; grid-template-columns: 110px minmax(200px, 420px) 70px 1fr;
  gap: 6px 12px; align-items: center; max-width: 1200px; }
.bars .name { font-weight: 600; }
.bars .name.ruby { font-size: 15px; }
.track { height: 16px; background: #eceff3; border-radius: 3px; overflow: hidden; }
.track.na { background: repeating-linear-gradient(45deg, #eceff3 0 6px, #f8f9fb 6px 12px); }
.fill { height: 100%; background: #5b8def; }
.fill.ruby { background: #7c3aed; }
.value { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  text-align: right; }
.note { color: var(--muted); font-size: 13px; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px;
  min-width: 0; }
.code { display: flex; font: 12.5px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; }
.code pre { margin: 0; font: inherit; tab-size: 4; }
.gutter { color: #9ca3af; text-align: right; padding-right: 10px; user-select: none;
  border-right: 1px solid var(--line); margin-right: 10px !important; }
.src { overflow-x: auto; white-space: pre; flex: 1; }
.code.one-line .src { white-space: pre-wrap; overflow-wrap: anywhere; min-width: 0; }
.t-del { background: var(--del); box-shadow: inset 0 -2px var(--del-b); }
.t-ins { background: var(--ins); box-shadow: inset 0 -2px var(--ins-b); }
.t-rep { background: var(--rep); box-shadow: inset 0 -2px var(--rep-b); }
.legend { color: var(--muted); font-size: 12.5px; margin: 0 0 8px; }
.legend span { padding: 0 5px; margin: 0 3px 0 10px; border-radius: 2px; }
.sw-ctl { border-top: 2px solid var(--ctl); display: inline-block; width: 22px;
  vertical-align: middle; }
.sw-dat { border-top: 2px dashed var(--dat); display: inline-block; width: 22px;
  vertical-align: middle; }
.sw-eff { border-top: 2px dotted var(--eff); display: inline-block; width: 22px;
  vertical-align: middle; }
.legend span.t-unr { background: var(--unr); box-shadow: inset 0 -2px var(--unr-b); }
.na-box { color: var(--muted); font-style: italic; padding: 14px 4px; }
svg.pdg { max-width: 100%; height: auto; display: block; }
svg.pdg text { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
svg.pdg .ln { fill: #9ca3af; font-size: 10px; }
svg.pdg rect { fill: #fff; stroke: #9ca3af; stroke-width: 1; }
svg.pdg .n-relabel rect { fill: var(--rep); stroke: var(--rep-b); }
svg.pdg .n-delete rect { fill: var(--del); stroke: var(--del-b); stroke-width: 2; }
svg.pdg .n-insert rect { fill: var(--ins); stroke: var(--ins-b); stroke-width: 2; }
svg.pdg .n-replace rect { fill: var(--unr); stroke: var(--unr-b); stroke-width: 2;
  stroke-dasharray: 4 2; }
svg.pdg .cost { fill: var(--rep-b); font-size: 10px; }
svg.pdg .n-replace .cost { fill: var(--unr-b); }
svg.pdg .br { font-size: 9px; font-weight: 700; fill: var(--ctl); }
svg.pdg .n-entry rect { stroke: #374151; stroke-width: 1.5; }
svg.pdg .n-opaque rect { stroke-dasharray: 4 3; stroke-width: 1.5; }
svg.pdg path { fill: none; stroke-width: 1.4; }
svg.pdg path.control { stroke: var(--ctl); }
svg.pdg path.data { stroke: var(--dat); stroke-dasharray: 5 3; }
svg.pdg path.effect { stroke: var(--eff); stroke-dasharray: 1.5 2.5; }
svg.pdg path.unmatched { stroke-width: 3; stroke-opacity: 1; }
svg.pdg path.unmatched.control { stroke: #0b2f6b; }
svg.pdg path.unmatched.data { stroke: #9a3412; }
svg.pdg path.unmatched.effect { stroke: #4a1d6b; }
svg.pdg .ah-control { fill: var(--ctl); }
svg.pdg .ah-data { fill: var(--dat); }
svg.pdg .ah-effect { fill: var(--eff); }
table { border-collapse: collapse; font-size: 13px; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td code, .ngrams code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  white-space: pre-wrap; word-break: break-all; }
.k-delete, .k-relabel.del { color: var(--del-b); }
.k-insert { color: var(--ins-b); }
.k-rename, .k-replace, .k-relabel, .k-retype { color: var(--rep-b); }
td.k-replace.unrelated { color: var(--unr-b); font-weight: 600; }
.ngrams code { background: #eef2ff; border-radius: 3px; padding: 0 3px; margin: 0 2px; }
.ngrams code.shared { background: #f3f4f6; color: var(--muted); text-decoration: line-through; }
details { margin: 10px 0; background: #fff; border: 1px solid var(--line); border-radius: 6px;
  padding: 8px 12px; }
summary { cursor: pointer; font-weight: 600; }
.more { color: var(--muted); font-style: italic; }
footer { color: var(--muted); font-size: 12px; margin-top: 28px; }
"""


# -- escaping -------------------------------------------------------------------------------


_esc = escape
_truncate = truncate


def _num(value: float) -> str:
    # Fixed format keeps the page deterministic and columns aligned.
    return f"{value:.4f}"


# -- the page --------------------------------------------------------------------------------


def render_html(explanation: PairView) -> str:
    """The HTML page for one explained pair.

    Parameters
    ----------
    explanation : a :class:`~ruby_metric.pages.views.PairView`, such as what
        :meth:`RubyScorer.explain <ruby_metric.api.scorer.RubyScorer.explain>` returns.

    Returns
    -------
    str
        A complete, self-contained HTML5 document (inline CSS and SVG, no script, nothing
        fetched); byte-identical for equal explanations.
    """
    e = explanation
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        # Nothing may be fetched or run: the page is one file, whatever the code in it says.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n",
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        "<title>RUBY explanation</title>\n<style>",
        _CSS,
        "</style>\n</head>\n<body>\n",
        _header(e),
        _bars(e),
        *((_code_section(e), _mapping_section(e), _pdg_section(e), _details_section(e))
          if e.missing is None else (_missing_section(e),)),
        f"<footer>ruby-metric {_esc(__version__)}</footer>\n",
        "</body>\n</html>\n",
    ]
    return "".join(parts)


def write_html(explanation: PairView, path: str | os.PathLike[str]) -> None:
    """Write :func:`render_html` to ``path`` (UTF-8, ``\\n`` line ends).

    Raises
    ------
    OSError : the file cannot be written.
    """
    write_page(path, render_html(explanation))


def _header(e: PairView) -> str:
    meta = ([f"language: {e.language or 'none'}", f"tokenizer: {e.tokenizer}"]
            if e.source_language is None else
            [scored_against(e.language, e.source_language, one=True)])
    if e.reference_count > 1:
        meta.append(
            f"explained against reference {e.reference_index + 1} of {e.reference_count} "
            "(best RUBY); tier scores are the best over all references"
        )
    if e.result.id is not None:
        meta.append(f"id: {e.result.id}")
    return (
        "<header>\n<h1>RUBY explanation</h1>\n"
        f'<p class="meta">{_esc(" · ".join(meta))}</p>\n'
        f'<p class="ruby-reason"><strong>RUBY</strong> {_esc(e.ruby_reason())}</p>\n'
        "</header>\n"
    )


def _bars(e: PairView) -> str:
    rows = []
    for (name, value, comment), metric in zip(e.tier_lines(), LABELS, strict=True):
        cls = " ruby" if metric == "ruby" else ""
        if value is None:
            track = '<div class="track na"></div>'
            shown = "n/a"
            note = comment.removeprefix("n/a: ")
        else:
            width = _coord(100.0 * min(1.0, max(0.0, value)))
            track = f'<div class="track"><div class="fill{cls}" style="width:{width}%"></div></div>'
            shown = _num(value)
            note = comment
        rows.append(
            f'<div class="name{cls}" id="bar-{metric}">{_esc(name)}</div>{track}'
            f'<div class="value" id="value-{metric}">{shown}</div>'
            f'<div class="note">{_esc(note)}</div>\n'
        )
    return '<h2>Scores</h2>\n<div class="bars">\n' + "".join(rows) + "</div>\n"


# -- snippets --------------------------------------------------------------------------------


def _token_classes(e: PairView) -> tuple[list[str], list[str]]:
    """Per token of each side: "" (kept), "del", "ins" or "rep"."""
    ref = [""] * len(e.ref_tokens)
    cand = [""] * len(e.cand_tokens)
    if e.string is None:
        return ref, cand
    side = {"delete": ("del", ""), "insert": ("", "ins"), "replace": ("rep", "rep")}
    for block in e.string.blocks:
        if block.kind not in side:
            continue
        ref_cls, cand_cls = side[block.kind]
        for i in range(block.ref_start, block.ref_end):
            ref[i] = ref_cls
        for j in range(block.cand_start, block.cand_end):
            cand[j] = cand_cls
    return ref, cand


def _highlighted(text: str, tokenizer: str, classes: Sequence[str]) -> str:
    r"""``text`` escaped, each edited token in a span of its class. Tokens of one class
    separated only by blanks on one line share a span (the blanks marked with them): the
    same marks in a fraction of the markup, which on whole programs is most of the page.

    >>> _highlighted("a b\nc", "code", ["del", "del", "del"])
    '<span class="t-del">a b</span>\n<span class="t-del">c</span>'
    """
    runs: list[list] = []  # [start, end, class]
    for span, cls in zip(token_spans(text, tokenizer), classes, strict=False):
        # An empty span (a Python DEDENT) has no text to mark.
        if span is None or not cls or span[0] == span[1]:
            continue
        start, end = span
        if runs and runs[-1][2] == cls and not text[runs[-1][1]:start].strip(" \t"):
            runs[-1][1] = end
        else:
            runs.append([start, end, cls])
    out = []
    cursor = 0
    for start, end, cls in runs:
        out.append(_esc(text[cursor:start]))
        out.append(f'<span class="t-{cls}">{_esc(text[start:end])}</span>')
        cursor = end
    out.append(_esc(text[cursor:]))
    return "".join(out)


def _snippet(title: str, text: str, tokenizer: str, classes: Sequence[str]) -> str:
    # A final newline ends the last line; it does not start an empty one.
    lines = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
    gutter = "\n".join(str(i) for i in range(1, lines + 1))
    wrap = " one-line" if lines == 1 else ""  # one line wraps; longer code keeps its gutter
    return (
        f'<div class="panel"><h3>{_esc(title)}</h3>'
        f'<div class="code{wrap}"><pre class="gutter" aria-hidden="true">{gutter}</pre>'
        f'<pre class="src">{_highlighted(text, tokenizer, classes)}</pre></div></div>\n'
    )


def _missing_section(e: PairView) -> str:
    """A missing translation: what it is compared with, and why it scores 0 (no evidence:
    no text was compared)."""
    title = "Reference" if e.source_language is None else f"Source ({e.source_language})"
    return (
        '<h2>Code</h2>\n<p class="note missing" id="missing">'
        + " ".join(_esc(line.strip()) for line in MISSING_TEXT)
        + f" ({_esc(e.missing or '')})</p>\n"
        + '<div class="cols">\n'
        + _snippet(title, e.reference, e.tokenizer, _token_classes(e)[0])
        + "</div>\n"
    )


def _code_section(e: PairView) -> str:
    ref_cls, cand_cls = _token_classes(e)
    if e.string is not None:
        s = e.string
        legend = (
            f'<p class="legend">{s.distance} token edit{"s" if s.distance != 1 else ""} '
            f"({s.ref_length} and {s.cand_length} tokens):"
            '<span class="t-del">deleted</span><span class="t-ins">inserted</span>'
            '<span class="t-rep">replaced</span></p>\n'
        )
    else:
        legend = f'<p class="legend">no token edits: {_esc(e.notes.get("string", "n/a"))}</p>\n'
    ref_title, cand_title = "Reference", "Candidate"
    if e.source_language is not None:  # two languages side by side
        ref_title, cand_title = f"Source ({e.source_language})", f"Candidate ({e.language})"
    if e.reference_count > 1:
        ref_title += f" {e.reference_index + 1} of {e.reference_count}"
    return (
        "<h2>Code</h2>\n"
        + legend
        + '<div class="cols">\n'
        + _snippet(ref_title, e.reference, e.tokenizer, ref_cls)
        + _snippet(cand_title, e.candidate, e.tokenizer, cand_cls)
        + "</div>\n"
    )


def _mapping_section(e: PairView) -> str:
    """Scored against the source: each side's labels in their own language and neutral."""
    if e.mapping is None:
        return ""
    columns = []
    for side, report, labels in zip(("Source", "Candidate"), e.mapping,
                                    e.neutral_labels or (None, None), strict=True):
        if report is None:
            columns.append(f"<div><h3>{side}</h3><p>no PDG</p></div>\n")
            continue
        rows = [
            f"<tr><td>{'' if x.line is None else x.line}</td><td>{_code(x.code)}</td>"
            f"<td>{_code(x.label) if x.label else 'no node'}</td>"
            f"<td>{_esc(', '.join(x.rules))}</td></tr>"
            for x in labels or ()
        ]
        columns.append(
            f"<div><h3>{side} ({_esc(report.language)})</h3>"
            f'<p class="legend">{_esc(report.describe())}</p>'
            "<table><tr><th>line</th><th>statement</th><th>neutral label</th><th>rules</th></tr>"
            f"{''.join(rows)}</table></div>\n"
        )
    return (
        '<h2 id="mapping">Neutral map</h2>\n<p class="legend">Before comparing, each PDG label '
        "is put into one vocabulary (keywords, operators, declarations without types, "
        "identifier style, common library calls); what the map does not know is compared as "
        "written. Each statement is shown with its label in the PDG the graph tier compares "
        "(its locals named as there).</p>\n"
        '<div class="cols">\n' + "".join(columns) + "</div>\n"
    )


# -- PDGs ------------------------------------------------------------------------------------


def _against(e: PairView) -> str:
    """What the candidate was scored against: ``"source"`` across languages, else
    ``"reference"`` (the word every title, legend and column uses for that side)."""
    return "reference" if e.source_language is None else "source"


def _pdg_section(e: PairView, *, drawings: bool = True) -> str:
    ref_status: dict[int, NodeMatch] = {}
    cand_status: dict[int, NodeMatch] = {}
    ref_unmatched: Counter[tuple[int, int, str]] = Counter()
    cand_unmatched: Counter[tuple[int, int, str]] = Counter()
    if e.graph is not None:
        for m in e.graph.mapping:
            if m.ref is not None:
                ref_status[m.ref] = m
            if m.cand is not None:
                cand_status[m.cand] = m
        for edit in e.graph.edge_edits:
            _count_unmatched(edit, ref_unmatched, cand_unmatched)
        g = e.graph
        bound = "proven optimal" if g.exact else f"upper bound, lower bound {g.lower:g}"
        relabeled = g.nodes_with("relabel")
        node_cost = sum(m.cost for m in g.mapping)
        summary = (
            f"GED {g.distance:g} ({bound}) = nodes {node_cost:g} + edges {len(g.edge_edits)}, "
            f"over weighted sizes {g.ref_size:g} + {g.cand_size:g} (a node weighs its "
            f"label's tokens, an edge 1); {g.formula()} (beta {g.beta:g}); "
            f"{len(relabeled)} relabeled (cost "
            f"{sum(m.cost for m in relabeled):g}), {len(g.nodes_with('replace'))} replaced by "
            f"an unrelated statement, {len(g.unmatched_ref_nodes)} {_against(e)} "
            f"and {len(g.unmatched_cand_nodes)} candidate nodes unmatched, "
            f"{len(g.edge_edits)} edges unmatched."
        )
        if g.renamed:
            summary += (" Locals paired by the statements the edit path matches, compared "
                        "as one variable under the smaller of their two names: "
                        f"{g.renamed_text(_against(e))}.")
    else:
        summary = f"No node mapping: {e.notes.get('graph', 'n/a')}."
    legend = (
        f'<p class="legend">{_esc(summary)} <span class="sw-ctl"></span> control '
        "(T / F: on the true / false outcome) "
        '<span class="sw-dat"></span> data <span class="sw-eff"></span> effect (calls in '
        "program order)"
        f'<span class="t-del">unmatched ({_against(e)})</span>'
        '<span class="t-ins">unmatched (candidate)</span>'
        '<span class="t-rep">relabeled (graded cost)</span>'
        '<span class="t-unr">replaced: unrelated statements</span> thick edges: unmatched</p>\n'
    )
    if not drawings:
        return "<h2>Program dependence graphs</h2>\n" + legend
    panels = []
    for side, pdg, status, unmatched in (
        ("reference", e.ref_pdg, ref_status, ref_unmatched),
        ("candidate", e.cand_pdg, cand_status, cand_unmatched),
    ):
        title = f"{(_against(e) if side == 'reference' else side).capitalize()} PDG"
        if pdg is None:
            reason = e.notes.get(f"{side}_pdg") or e.notes.get("graph", "n/a")
            body = f'<div class="na-box">n/a: {_esc(reason)}</div>'
        else:
            title += f" ({len(pdg.nodes)} nodes, {len(pdg.edges)} edges)"
            body = pdg_svg(pdg, status, unmatched, prefix=side[:3])
        panels.append(f'<div class="panel"><h3>{_esc(title)}</h3>{body}</div>\n')
    return (
        "<h2>Program dependence graphs</h2>\n"
        + legend
        + '<div class="cols">\n'
        + "".join(panels)
        + "</div>\n"
    )


def _count_unmatched(
    edit: EdgeEdit,
    ref: Counter[tuple[int, int, str]],
    cand: Counter[tuple[int, int, str]],
) -> None:
    # keyed by the edge's dep, as the GED compares edges
    if edit.ref_edge is not None and edit.ref_type is not None:
        ref[(edit.ref_edge[0], edit.ref_edge[1], edit.ref_type)] += 1
    if edit.cand_edge is not None and edit.cand_type is not None:
        cand[(edit.cand_edge[0], edit.cand_edge[1], edit.cand_type)] += 1


# -- details ---------------------------------------------------------------------------------


def _rows(rows: Iterable[str], columns: int) -> str:
    rows = list(rows)
    out = rows[:MAX_ROWS]
    if len(rows) > MAX_ROWS:
        out.append(
            f'<tr><td class="more" colspan="{columns}">... and {len(rows) - MAX_ROWS} more'
            "</td></tr>"
        )
    return "".join(out)


def _code(text: str | None, limit: int = 120) -> str:
    if text is None:
        return ""
    return f"<code>{_esc(_truncate(text, limit))}</code>"


def _pdg_node_cell(pdg: Pdg | None, node_id: int | None) -> str:
    if pdg is None or node_id is None:
        return ""
    node = pdg.node(node_id)
    if node is None:
        return _esc(f"#{node_id}")
    return f"{node.line}: {_code(node.text or node.label)}"


def _weight_cell(weight: float | None) -> str:
    return "" if weight is None else f"{weight:g}"


def _details_section(e: PairView, *, lists: bool = True) -> str:
    """The details tables; without ``lists``, the long lists (unmatched edges, AST and
    token edits, matched n-grams) are their counts only."""
    parts = ["<h2>Details</h2>\n"]
    against = _against(e)
    g = e.graph
    if g is not None:
        changed = [m for m in g.mapping if m.status != "match"]
        rows = (
            f'<tr><td class="k-{m.status}{" unrelated" if m.status == "replace" else ""}">'
            f"{_esc(status_text(m))}</td><td>{m.cost:g}</td>"
            f"<td>{_weight_cell(m.ref_weight)}</td><td>{_weight_cell(m.cand_weight)}</td>"
            f"<td>{'' if m.distance is None else f'{m.distance:.4g}'}</td>"
            f"<td>{_pdg_node_cell(e.ref_pdg, m.ref)}</td>"
            f"<td>{_pdg_node_cell(e.cand_pdg, m.cand)}</td></tr>"
            for m in changed
        )
        parts.append(
            f"<details open><summary>PDG nodes not matched as they are ({len(changed)} of "
            f"{len(g.mapping)}; node cost {sum(m.cost for m in g.mapping):g})</summary>"
            '<p class="legend">cost = max((w<sub>ref</sub> + w<sub>cand</sub>) &times; d, '
            "|w<sub>ref</sub> &minus; w<sub>cand</sub>|) for a relabel, on a grid of 1/64; "
            "a node's weight for an unmatched node; d = the share of the two labels' "
            "weight not found in the other (chrF's recall and precision).</p><table>"
            "<tr><th>mapping</th><th>cost</th><th>w<sub>ref</sub></th><th>w<sub>cand</sub></th>"
            f"<th>d</th><th>{against}</th>"
            f"<th>candidate</th></tr>{_rows(rows, 7)}</table></details>\n"
        )
        edge_rows = (
            f'<tr><td class="k-{x.kind}">{x.kind}</td>'
            f'<td><span class="dep">{_esc(dep_name(x.ref_type))}</span> '
            f"{_edge_cell(e.ref_pdg, x.ref_edge)}</td>"
            f'<td><span class="dep">{_esc(dep_name(x.cand_type))}</span> '
            f"{_edge_cell(e.cand_pdg, x.cand_edge)}</td></tr>"
            for x in g.edge_edits
        )
        if lists:
            parts.append(
                f"<details><summary>Unmatched PDG edges ({len(g.edge_edits)})</summary><table>"
                f"<tr><th>edit</th><th>{against}</th><th>candidate</th></tr>"
                f"{_rows(edge_rows, 3)}</table></details>\n"
            )
        else:
            parts.append(f'<p class="note">Unmatched PDG edges: {len(g.edge_edits)}</p>\n')
    t = e.tree
    if t is not None:
        rows = (
            f'<tr><td class="k-{a.kind}">{a.kind}</td><td>{_code(a.ref_label)}</td>'
            f"<td>{_code(a.cand_label)}</td><td>{_esc(a.ref_type or a.cand_type or '')}</td>"
            f"<td>{_esc(_position(a.ref_position))}</td>"
            f"<td>{_esc(_position(a.cand_position))}</td></tr>"
            for a in t.edits
        )
        head = (f"AST edits: TED {t.distance} over sizes {t.ref_size} + {t.cand_size} "
                f"({t.matched} node{'' if t.matched == 1 else 's'} matched)")
        if lists:
            parts.append(
                f"<details open><summary>{head}</summary><table><tr><th>edit</th>"
                f"<th>{against}</th><th>candidate</th><th>node type</th><th>{against} at</th>"
                f"<th>candidate at</th></tr>{_rows(rows, 6)}</table></details>\n"
            )
        else:
            parts.append(f'<p class="note">{head}; {len(t.edits)} edits</p>\n')
    else:
        parts.append(f'<p class="note">AST edits: n/a ({_esc(e.notes.get("tree", "n/a"))})</p>\n')
    s = e.string
    if s is not None:
        rows = (
            f'<tr><td class="k-{b.kind}">{b.kind}</td>'
            f"<td>{_code(' '.join(e.ref_tokens[b.ref_start : b.ref_end]))}</td>"
            f"<td>{_code(' '.join(e.cand_tokens[b.cand_start : b.cand_end]))}</td></tr>"
            for b in s.blocks
            if b.kind != "equal"
        )
        if lists:
            parts.append(
                f"<details><summary>Token edits ({s.distance})</summary><table><tr><th>edit</th>"
                f"<th>{against}</th><th>candidate</th></tr>{_rows(rows, 3)}</table></details>\n"
            )
    ng = e.ngrams
    if ng is not None:
        head = "Matched n-grams"
        if ng.ngram_set is not None:
            head += f" (struck through: trivially shared, set {ng.ngram_set}, {ng.variant})"
        rows = []
        for order in ng.orders:
            shown = "".join(
                f'<code class="{"shared" if m.shared else ""}">'
                f"{_esc(_truncate(' '.join(m.ngram), 60))}</code>"
                + (f"\u00d7{m.count}" if m.count > 1 else "")
                for m in order.matches[:MAX_ROWS]
            )
            if len(order.matches) > MAX_ROWS:
                shown += f' <span class="more">... and {len(order.matches) - MAX_ROWS} more</span>'
            counts = f"{order.matched}/{order.total}"
            if ng.ngram_set is not None:
                counts += f"; not shared {order.matched_unshared}/{order.total_unshared}"
            rows.append(f"<tr><td>{order.n}</td><td>{counts}</td><td>{shown}</td></tr>"
                        if lists else f"<tr><td>{order.n}</td><td>{counts}</td></tr>")
        parts.append(
            f'<details open class="ngrams"><summary>{_esc(head)}</summary><table><tr><th>n</th>'
            f"<th>matched</th>{'<th>n-grams</th>' if lists else ''}</tr>{''.join(rows)}"
            "</table></details>\n"
        )
    return "".join(parts)


def _edge_cell(pdg: Pdg | None, edge: tuple[int, int] | None) -> str:
    if edge is None:
        return ""
    return f"{_pdg_node_cell(pdg, edge[0])} \u2192 {_pdg_node_cell(pdg, edge[1])}"


def _position(position: tuple[int, int] | None) -> str:
    return f"{position[0]}:{position[1]}" if position else ""


# -- pieces for other pages (the corpus report embeds pair explanations) ----------------------

#: The pair page's style sheet, for pages that embed its sections.
PAGE_CSS = _CSS


def escape_html(text: object) -> str:
    """``text`` escaped for HTML text and attribute values, as this page escapes code.

    >>> escape_html('</script> & "x"')
    '&lt;/script&gt; &amp; &quot;x&quot;'
    """
    return _esc(text)


def render_pair_sections(explanation: PairView, *, id_prefix: str = "",
                         compact: bool = False) -> str:
    """The pair page's body sections (scores, code, PDGs, details) without the page around
    them, for embedding several explanations in one page.

    Parameters
    ----------
    explanation : a :class:`~ruby_metric.pages.views.PairView`, such as what
        :meth:`RubyScorer.explain <ruby_metric.api.scorer.RubyScorer.explain>` returns.
    id_prefix : prepended to every element id (and to the references to them), so the
        sections of several pairs can share a page without clashing ids.
    compact : leave out the PDG drawings and the long lists (unmatched edges, AST and
        token edits, the matched n-grams), keeping their counts: the scores, both texts in
        full with their token edits marked, the GED breakdown and the PDG node mapping stay.
        For pages that show many large pairs; the pair page has the rest.

    Returns
    -------
    str: HTML fragments; all code text escaped.

    >>> from ruby_metric import RubyScorer
    >>> e = RubyScorer("java").explain("int f() { return 1; }", "int f() { return 2; }")
    >>> "<svg" in render_pair_sections(e), "<svg" in render_pair_sections(e, compact=True)
    (True, False)
    """
    body = (
        _bars(explanation)
        + _code_section(explanation)
        + _pdg_section(explanation, drawings=not compact)
        + _details_section(explanation, lists=not compact)
    )
    if id_prefix:
        # Code text is escaped (quotes become &quot;), so these patterns only meet markup.
        body = body.replace(' id="', f' id="{id_prefix}').replace("url(#", f"url(#{id_prefix}")
    return body
