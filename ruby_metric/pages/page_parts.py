"""What every report page is made of: its head (the no-fetch Content-Security-Policy and
the styles), score cells, pair ids, the hint that explains a pair, and the size of a
scatter plot. Shared by the corpus page (:mod:`ruby_metric.pages.corpus_page`) and the
system comparison page (:mod:`ruby_metric.pages.compare_page`).
"""

from __future__ import annotations

from .html_text import escape
from .pair_page import PAGE_CSS

__all__ = [
    "GRID_BINS",
    "MAX_POINTS",
    "REPORT_CSS",
    "explain_hint",
    "format_score",
    "page_head",
    "pair_id_html",
    "score_cell",
]

#: Beyond this many pairs a scatter is drawn as a 2-D binned density instead of points.
MAX_POINTS = 3000
#: Cells per axis of a density grid.
GRID_BINS = 30


REPORT_CSS = """
nav.toc { margin: 6px 0 0; font-size: 13px; }
nav.toc a { margin-right: 14px; color: #1f5fbf; text-decoration: none; }
table.summary { width: auto; min-width: 520px; }
table.summary td.num, table td.num { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; text-align: right; }
.sig { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #374151;
  word-break: break-all; }
.plots { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 6px;
  padding: 8px 10px; }
figcaption { font-size: 12.5px; color: #374151; max-width: 400px; }
figcaption b { color: #111827; }
svg.plot { display: block; max-width: 100%; height: auto; }
svg.plot text { font: 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  fill: #374151; }
svg.plot .frame { fill: #fff; stroke: #d1d5db; }
svg.plot .bar { fill: #5b8def; }
svg.plot .tickline { stroke: #9ca3af; }
svg.plot line.mark-mean { stroke: #7c3aed; stroke-width: 2; }
svg.plot line.mark-corpus { stroke: #b45309; stroke-width: 2; stroke-dasharray: 5 3; }
svg.plot text.mark-mean { fill: #7c3aed; font-weight: 600; }
svg.plot text.mark-corpus { fill: #b45309; font-weight: 600; }
svg.plot .diag { stroke: #9ca3af; stroke-dasharray: 4 3; }
svg.plot .pt { fill-opacity: 0.55; stroke: none; }
svg.plot .pt-graph, .sw-graph { fill: #7c3aed; background: #7c3aed; }
svg.plot .pt-tree, .sw-tree { fill: #2e7d32; background: #2e7d32; }
svg.plot .pt-string, .sw-string { fill: #d9822b; background: #d9822b; }
svg.plot .pt-a { fill: #1f5fbf; }
svg.plot .cell { fill: #5b21b6; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 5px;
  margin: 0 4px 0 10px; vertical-align: middle; }
.tierbar { display: flex; height: 18px; max-width: 620px; border-radius: 3px; overflow: hidden;
  background: #eceff3; margin: 6px 0; }
.tierbar div { height: 100%; }
details.pair > summary { font-weight: 500; }
details.pair > summary b { font-weight: 700; }
details.pair h2 { font-size: 14px; margin: 14px 0 6px; }
.pair-body { margin-top: 8px; }
td.snip { max-width: 420px; font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; }
td.snip details { border: 0; padding: 0; margin: 0; background: none; }
td.snip details > summary { cursor: pointer; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
td.snip pre { margin: 4px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
td.snip > code { white-space: pre-wrap; overflow-wrap: anywhere; }
code.pid, td code.pid { white-space: nowrap; word-break: keep-all; overflow-wrap: normal; }
div.pid { max-width: 34em; overflow-x: auto; }
tr.texts > td { padding: 0 8px 6px; }
tr.texts details { margin: 0; }
tr.texts pre { margin: 0; white-space: pre; overflow-x: auto;
  font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
td.lines a { white-space: nowrap; }
svg.plot line.mark-chance { stroke: #dc2626; stroke-width: 2; stroke-dasharray: 2 2; }
svg.plot text.mark-chance { fill: #dc2626; font-weight: 600; }
svg.plot text.count, svg.plot text.pt-count { font-size: 9.5px; fill: #111827; }
svg.plot text.pt-count { font-weight: 700; paint-order: stroke; stroke: #fff;
  stroke-width: 3px; }
svg.plot .pt-many { fill-opacity: 0.8; stroke: #111827; stroke-width: 0.6; }
@media print {
  body { background: #fff; padding: 0; }
  nav.toc { display: none; }
  figure, .panel, details, tr { break-inside: avoid; }
}
"""


def format_score(value: float | None) -> str:
    """A score to 4 decimals, ``n/a`` for ``None``."""
    return "n/a" if value is None else f"{value:.4f}"


def score_cell(value: float | None, *, extra_class: str = "") -> str:
    """A table cell showing a score to 4 decimals, its exact value in ``data-value``.

    >>> score_cell(0.5), score_cell(None)
    ('<td class="num" data-value="0.5">0.5000</td>', '<td class="num">n/a</td>')
    """
    # data-value carries the exact number (repr round-trips), the text 4 decimals
    exact = "" if value is None else f' data-value="{value!r}"'
    cls = f"num {extra_class}" if extra_class else "num"
    return f'<td class="{cls}"{exact}>{format_score(value)}</td>'


def pair_id_html(pair_id: object, *, scroll: bool = False) -> str:
    """A pair id as code that never breaks inside (``a/b/Foo.java~a/c/Bar.java`` stays one
    token; a line breaks around it, not within); ``scroll`` puts it in a box that scrolls
    sideways when it is wider than a table column.

    >>> pair_id_html("x/y.java")
    '<code class="pid">x/y.java</code>'
    """
    code = f'<code class="pid">{escape(pair_id)}</code>'
    return f'<div class="pid">{code}</div>' if scroll else code


def explain_hint(command: str | None) -> str:
    """The note under a table of pairs: how to explain one of them in the terminal, with the
    command for the input the page was made from (``command`` has ``ID`` where the pair id
    goes), or both input forms when the page does not know it.

    >>> hint = explain_hint("ruby-metric explain --jsonl p.jsonl --pair ID")
    >>> "<code>ruby-metric explain --jsonl p.jsonl --pair ID</code>" in hint, "REFS" in hint
    (True, False)
    """
    if command is None:
        how = ("<code>ruby-metric explain --pair ID REFS HYPS --lang LANG</code> (line-aligned "
               "files; ids are 0-based line numbers) or <code>ruby-metric explain --jsonl FILE "
               "--pair ID</code> (JSONL; ids are its ids)")
    else:
        how = f"<code>{escape(command)}</code>"
    return (f"Pair ids are those of <code>score</code>'s output: {how} explains one in the "
            "terminal (add <code>--html FILE</code> for its page).")



def page_head(title: str) -> str:
    """The start of a report page up to ``<body>``: charset, the no-fetch CSP, the styles.

    >>> page_head("x").startswith("<!DOCTYPE html>")
    True
    """
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        # Nothing may be fetched or run: the page is one file, whatever the code in it says.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{PAGE_CSS}{REPORT_CSS}</style>\n</head>\n<body>\n"
    )
