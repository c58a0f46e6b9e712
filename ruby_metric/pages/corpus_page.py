"""The corpus report as HTML: the page of a :class:`~ruby_metric.pages.views.CorpusView`
(what :class:`~ruby_metric.reports.corpus.CorpusReport` holds).

Pure functions of the report (equal reports, equal bytes); no script, and a
Content-Security-Policy that forbids fetching anything. The plots come from
:mod:`ruby_metric.pages.plots`, each worst pair's evidence from the pair page's sections.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from ..io.formats import label_text
from ..scoring.chance import chance_level
from ..scoring.crosslang import scored_against
from ..scoring.metrics import CORPUS_METRICS, LABELS, METRICS, TIER_METRICS
from ..scoring.missing import MISSING_SCORES_0, missing_of
from ..scoring.results import mean_of
from ..scoring.structure_notes import structure_summary
from ..version import __version__
from .html_text import escape
from .page_parts import explain_hint, format_score, page_head, pair_id_html, score_cell
from .pair_page import render_pair_sections
from .plots import Mark, Point, density_svg, histogram_svg, log_scale_wanted, scatter_svg

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .views import CorpusView, WorstView

__all__ = ["DISAGREEMENTS", "HIST_BINS", "render_report"]

#: Bins of each histogram over [0, 1].
HIST_BINS = 20
#: Rows of the table of pairs where RUBY and BLEU disagree most.
DISAGREEMENTS = 10
#: The longest one-line snippet a table cell shows (wrapped, about six lines of its column);
#: a longer text, or one of several lines (a whole program), is never cut: it is shown
#: whole where it has the page's width (see ``_text_cells``).
CELL_CHARS = 300
#: Bytes one lowest-scoring pair may take on the page with its whole explanation (the PDG
#: drawings and every edit list); a pair over it is shown compact (both texts in full, the
#: scores, the GED breakdown and the node mapping, every count), and its full page is one
#: ``explain --html`` away. 40 KB keeps the default 20 pairs near 800 KB, so
#: a page of whole programs stays under 1 MB; a pair of methods fits whole.
PAIR_BYTES = 40_000

#: What the reasons section groups: the structural tiers, then problems with a whole pair.
_REASON_METRICS = tuple(TIER_METRICS.values())


_TIER_LABELS = {"graph": "graph (GRS)", "tree": "tree (TRS)", "string": "string (STS)"}


_esc = escape


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def render_report(rep: CorpusView) -> str:
    """The HTML page of a :class:`~ruby_metric.pages.views.CorpusView` (pure: equal reports,
    equal bytes)."""
    summary = rep.corpus.summary()
    meta = [f"{summary['pairs']:,} pairs", f"language: {rep.language or 'per pair'}"
            if rep.source_language is None else scored_against(rep.language, rep.source_language)]
    sections = [("summary", "Summary")]
    if rep.systems:
        sections.append(("systems", "Systems"))
    sections.append(("histograms", "Distributions"))
    sections.append(("reasons", "Why tiers did not apply"))
    if rep.scatters:
        sections.append(("scatter", "RUBY vs BLEU"))
    sections.append(("worst", "Lowest-scoring pairs"))
    toc = "".join(f'<a href="#{key}">{_esc(name)}</a>' for key, name in sections)
    parts = [
        page_head(rep.title),
        f"<header>\n<h1>{_esc(rep.title)}</h1>\n",
        f'<p class="meta">{_esc(" · ".join(meta))}</p>\n',
        f'<nav class="toc">{toc}</nav>\n</header>\n',
        _summary_section(rep),
        _systems_section(rep) if rep.systems else "",
        _histogram_section(rep),
        _reasons_section(rep),
        _scatter_section(rep) if rep.scatters else "",
        _worst_section(rep),
        f"<footer>ruby-metric {_esc(__version__)}</footer>\n</body>\n</html>\n",
    ]
    return "".join(parts)


def _summary_section(rep: CorpusView) -> str:
    s = rep.corpus.summary()
    n = s["pairs"]
    rows = []
    for metric in METRICS:
        if metric not in {h.metric for h in rep.histograms}:
            continue
        defined = s["counts"].get(metric, 0)
        how = ("corpus-level (summed statistics)" if metric in CORPUS_METRICS
               else f"{mean_of(defined, n)} pairs")
        rows.append(
            f'<tr id="sum-{metric}"><td><b>{LABELS[metric]}</b></td>'
            f"{score_cell(s.get(metric))}<td>{how}</td>"
            f'<td class="num" data-value="{defined}">{defined:,}</td>'
            f'<td class="num">{_pct(defined, n)}</td></tr>'
        )
    table = (
        '<table class="summary"><tr><th>metric</th><th>score</th><th>how</th>'
        f"<th>pairs defined</th><th>share</th></tr>{''.join(rows)}</table>\n"
    )
    tiers = s["tiers"]
    used = sum(tiers.values())
    colors = {"graph": "#7c3aed", "tree": "#2e7d32", "string": "#d9822b"}
    bar = "".join(
        f'<div style="width:{100 * tiers.get(t, 0) / used:.2f}%;background:{colors[t]}" '
        f'title="{_esc(_TIER_LABELS[t])}: {tiers.get(t, 0):,}"></div>'
        for t in TIER_METRICS
        if used and tiers.get(t, 0)
    )
    tier_rows = "".join(
        f'<tr id="tier-{t}"><td><span class="swatch sw-{t}"></span>{_esc(_TIER_LABELS[t])}</td>'
        f'<td class="num" data-value="{tiers.get(t, 0)}">{tiers.get(t, 0):,}</td>'
        f'<td class="num">{_pct(tiers.get(t, 0), n)}</td></tr>'
        for t in TIER_METRICS
    )
    unscored = n - used
    if "ruby" in s["counts"] or used:
        tier_rows += (
            f'<tr id="tier-none"><td>no RUBY (see the reasons below)</td>'
            f'<td class="num" data-value="{unscored}">{unscored:,}</td>'
            f'<td class="num">{_pct(unscored, n)}</td></tr>'
        )
    return (
        '<section id="summary">\n<h2>Corpus summary</h2>\n'
        + table
        + "<h3>Tier RUBY used</h3>\n"
        + f'<div class="tierbar">{bar}</div>\n'
        + '<table class="summary"><tr><th>tier</th><th>pairs</th><th>share</th></tr>'
        + f"{tier_rows}</table>\n"
        + _structure_line(s)
        + '<p class="meta">signature: <span class="sig" id="signature">'
        + f"{_esc(s['signature'])}</span></p>\n</section>\n"
    )


def _systems_section(rep: CorpusView) -> str:
    """The systems side by side: a row per system, its pairs, corpus scores and labels."""
    shown = [m for m in METRICS if m in {h.metric for h in rep.histograms}]
    labels = any(s.labeled for s in rep.systems)
    head = "".join(f"<th>{LABELS[m]}</th>" for m in shown)
    rows = []
    for s in rep.systems:
        cells = "".join(score_cell(s.scores.get(m)) for m in shown)
        label = f'<td class="num">{_esc(s.label_text())}</td>' if labels else ""
        rows.append(
            f'<tr id="system-{_esc(s.name)}"><td><b>{_esc(s.name)}</b></td>'
            f'<td class="num">{s.pairs:,}</td><td class="num">{s.unreadable:,}</td>'
            f"{cells}{label}</tr>"
        )
    label_head = f"<th>{_esc(rep.extra_fields[-1])}</th>" if labels else ""
    by = f" by <code>{_esc(rep.system_field)}</code>" if rep.system_field else ""
    return (
        f'<section id="systems">\n<h2>{len(rep.systems)} systems{by}</h2>\n'
        '<table class="summary" id="systems-table"><tr><th>system</th><th>pairs</th>'
        f"<th>unreadable</th>{head}{label_head}</tr>{''.join(rows)}</table>\n"
        '<p class="note">Each system over its own pairs, scored in one run (one n-gram set '
        "for all); <code>ruby-metric meta compare</code> tests the differences.</p>\n"
        "</section>\n"
    )


def _extra_cells(rep: CorpusView, extra: Mapping[str, Any]) -> str:
    """A pair's system and label cells, in :attr:`CorpusView.extra_fields` order."""
    return "".join(f"<td>{_esc(label_text(extra.get(f), 'null'))}</td>" for f in rep.extra_fields)


def _histogram_section(rep: CorpusView) -> str:
    figures = []
    n = rep.corpus.summary()["pairs"]
    for h in rep.histograms:
        name = LABELS[h.metric]
        marks = []
        if h.mean is not None:
            label = "mean of pairs" if h.metric in CORPUS_METRICS else "mean"
            marks.append(Mark(h.mean, f"{label} {h.mean:.4f}"))
        if h.corpus is not None:
            marks.append(Mark(h.corpus, f"corpus {h.corpus:.4f}", "corpus"))
        # measured within one language: against a source, or per-pair languages, none holds
        chance = chance_level(rep.language, h.metric) if rep.source_language is None else None
        if chance is not None:
            marks.append(Mark(chance[0], f"chance {chance[0]:.3f}", "chance"))
        log = log_scale_wanted(h.counts)
        svg = histogram_svg(
            h.counts, marks=marks, x_label=name, title=f"{name} histogram", log=log
        )
        caption = f"<b>{name}</b>: defined for {h.n:,} of {n:,} pairs"
        if h.n:
            caption += f"; <b>{h.ones:,} score exactly 1.0</b>"
        if log:
            caption += "; log count scale (one bar dwarfs the others), each bar labelled"
        if h.corpus is not None:
            caption += "; dashed: the corpus-level score"
        if chance is not None:
            caption += (
                f"; <b>red dotted: chance level {chance[0]:.3f}</b>, what unrelated "
                f"{_esc(rep.language)} code scores ({_esc(' / '.join(chance[1]))}, the "
                "highest; benchmarks/chance.py)"
            )
        figures.append(
            f'<figure id="hist-{h.metric}">{svg}<figcaption>{caption}</figcaption></figure>\n'
        )
    return (
        '<section id="histograms">\n<h2>Distributions</h2>\n'
        f'<p class="note">{HIST_BINS} bins of width {1 / HIST_BINS:g}; the last holds 1.0. '
        "Hover a bar for its count.</p>\n"
        f'<div class="plots">\n{"".join(figures)}</div>\n</section>\n'
    )


def _reasons_section(rep: CorpusView) -> str:
    head = '<section id="reasons">\n<h2>Why the higher tiers did not apply</h2>\n'
    if not rep.reasons:
        return head + '<p class="note">Every tier applied to every pair.</p>\n</section>\n'
    metric_cols = [
        m
        for m in (*_REASON_METRICS, "input", "error")
        if any(m in g.by_metric for g in rep.reasons)
    ]
    names = {**LABELS, "input": "unreadable", "error": "crashed"}
    header = "".join(f"<th>{_esc(names[m])} n/a</th>" for m in metric_cols)
    rows = []
    for g in rep.reasons:
        cells = "".join(
            f'<td class="num" data-value="{g.by_metric.get(m, 0)}">{g.by_metric.get(m, 0):,}</td>'
            for m in metric_cols
        )
        sides = ", ".join(f"{side} {count:,}" for side, count in g.by_side.items())
        slug = re.sub(r"[^a-z0-9]+", "-", g.kind)
        rows.append(
            f'<tr id="reason-{slug}"><td><b>{_esc(g.kind)}</b></td>'
            f'<td class="num" data-value="{g.pairs}">{g.pairs:,}</td>{cells}'
            f"<td>{_esc(sides)}</td><td>pair {pair_id_html(g.example_id)}, "
            f"{_esc(names.get(g.example_metric, g.example_metric))}: "
            f"<code>{_esc(g.example_reason)}</code></td></tr>"
        )
    return (
        head + '<p class="note">A pair counts once per kind; GRS, TRS and STS columns count the '
        "pairs where that tier is n/a for this kind of reason. Sides: pairs with such a reason "
        "on the candidate, the reference, both (one text on both sides), or the pair as a "
        "whole (a limit on the pair, an unreadable pair).</p>\n"
        + (_MISSING_NOTE if any(g.kind == "missing translation" for g in rep.reasons) else "")
        + f"<table><tr><th>kind</th><th>pairs</th>{header}<th>sides</th><th>example</th></tr>"
        + "".join(rows)
        + "</table>\n</section>\n"
    )


_MISSING_NOTE = (
    '<p class="note" id="missing-note">A <b>missing translation</b> (a file the references '
    "have and a system's folder lacks) scores 0 on every tier rather than being left out; "
    "its tier columns count the tiers scored 0 for want of a candidate.</p>\n"
)


def _scatter_section(rep: CorpusView) -> str:
    figures = []
    for sc in rep.scatters:
        xn, yn = LABELS[sc.x], LABELS[sc.y]
        if sc.points is not None:
            points = [
                Point(x, y, tier or "", f"pair {pid}: {yn} {y:.4f}, {xn} {x:.4f} ({tier})")
                for pid, x, y, tier in sc.points
            ]
            svg = scatter_svg(points, x_label=xn, y_label=yn, title=f"{yn} against {xn}")
            how = (
                "one point per pair, coloured by the tier RUBY used; identical points are one "
                "ringed dot labelled with their count; hover for the pairs"
            )
        else:
            svg = density_svg(sc.grid, x_label=xn, y_label=yn, title=f"{yn} against {xn}")
            how = (
                f"{len(sc.grid)}\u00d7{len(sc.grid)} bins, darker = more pairs (log scale); "
                "hover a cell for its count"
            )
        figures.append(
            f'<figure id="scatter-{sc.x}">{svg}<figcaption><b>{yn} against {xn}</b>: '
            f"{sc.n:,} pairs; {how}. Far from the dashed diagonal: the two disagree."
            "</figcaption></figure>\n"
        )
    legend = "".join(
        f'<span class="swatch sw-{t}"></span>{_esc(_TIER_LABELS[t])}' for t in TIER_METRICS
    )
    texts = list(rep.disagreement_pairs) + [None] * len(rep.disagreements)
    extras = list(rep.disagreement_extra) + [{}] * len(rep.disagreements)
    against = _against(rep)
    rows = "".join(
        f"<tr><td>{pair_id_html(p.id, scroll=True)}</td>{_extra_cells(rep, extra)}"
        f"{score_cell(p.ruby)}"
        f"<td>{_esc(p.tier or '')}</td>{score_cell(p.bleu)}{score_cell(p.crystalbleu)}"
        f"{score_cell(None if p.ruby is None or p.bleu is None else p.ruby - p.bleu)}"
        + _text_cells(pair.reference if pair else None, pair.candidate if pair else None,
                      against=against, columns=8 + len(rep.extra_fields))
        for p, pair, extra in zip(rep.disagreements, texts, extras, strict=False)
    )
    table = ""
    if rows:
        table = (
            f"<h3>Largest disagreements between RUBY and BLEU ({len(rep.disagreements)})</h3>\n"
            '<table id="disagreements"><tr><th>pair</th>'
            + "".join(f"<th>{_esc(f)}</th>" for f in rep.extra_fields)
            + "<th>RUBY</th><th>tier</th>"
            f"<th>BLEU</th><th>CrystalBLEU</th><th>RUBY \u2212 BLEU</th>"
            f"<th>{against}</th><th>candidate</th></tr>{rows}</table>\n"
            f'<p class="note">{explain_hint(rep.explain_command)}</p>\n'
        )
    return (
        '<section id="scatter">\n<h2>RUBY against BLEU and CrystalBLEU</h2>\n'
        f'<p class="legend">{legend}</p>\n'
        f'<div class="plots">\n{"".join(figures)}</div>\n{table}</section>\n'
    )


def _worst_section(rep: CorpusView) -> str:
    by = LABELS.get(rep.worst_by or "", rep.worst_by or "")
    head = (
        f'<section id="worst">\n<h2>The {len(rep.worst)} lowest-scoring pairs by {_esc(by)}</h2>\n'
    )
    if not rep.worst:
        return head + '<p class="note">No pair has a score to rank by.</p>\n</section>\n'
    items = []
    overview = []
    against = _against(rep)
    for w in rep.worst:
        # the texts are in full in the pair's own section below: the table links there
        r = w.result
        missing = missing_of(r)
        overview.append(
            f'<tr><td class="num">{w.rank}</td><td><a href="#worst-{w.rank}">'
            f"{pair_id_html(r.id, scroll=True)}</a></td>{_extra_cells(rep, w.extra)}"
            f"{score_cell(getattr(r, rep.worst_by or 'ruby'))}"
            f"{_text_cells(w.reference, w.candidate, anchor=f'worst-{w.rank}', missing=missing)}"
            "</tr>"
        )
        scores = " · ".join(
            f"{LABELS[m]} {format_score(getattr(r, m))}"
            for m in METRICS
            if m != rep.worst_by and getattr(r, m) is not None
        )
        tier = f" ({r.tier})" if r.tier and rep.worst_by == "ruby" else ""
        tags = "".join(f" · {f} {label_text(w.extra.get(f), 'null')}" for f in rep.extra_fields)
        if missing is not None:  # said before the zeros it explains
            tags += f" · {missing}"
        summary = (
            f"#{w.rank} · pair {pair_id_html(r.id)}{_esc(tags)} · <b>{_esc(by)} "
            f"{format_score(getattr(r, rep.worst_by or 'ruby'))}</b>{_esc(tier)} · {_esc(scores)}"
        )
        body = _worst_body(rep, w) if w.explanation is not None else _plain_pair(w, against)
        items.append(
            f'<details class="pair" id="worst-{w.rank}"><summary>{summary}</summary>'
            f'<div class="pair-body">{body}</div></details>\n'
        )
    table = (
        '<table id="worst-table"><tr><th>#</th><th>pair</th>'
        + "".join(f"<th>{_esc(f)}</th>" for f in rep.extra_fields)
        + f"<th>{_esc(by)}</th><th>{against}</th><th>candidate</th></tr>"
        + f"{''.join(overview)}</table>\n"
    )
    return (
        head + table + '<p class="note">Click a pair to open its explanation: both texts in '
        "full with the token edits, the program dependence graphs and every tier's evidence, "
        f"as <code>ruby-metric explain</code> shows it (a pair whose evidence would take over "
        f"{PAIR_BYTES // 1000} KB of this page shows its texts, scores and counts, and the "
        f"command that draws the rest). {explain_hint(rep.explain_command)}</p>\n"
        + "".join(items)
        + "</section>\n"
    )


def _against(rep: CorpusView) -> str:
    """What the candidates were scored against: ``"source"`` or ``"reference"``."""
    return "reference" if rep.source_language is None else "source"


def _worst_body(rep: CorpusView, w: WorstView) -> str:
    """A worst pair's explanation: whole, or compact when whole it would take more than
    :data:`PAIR_BYTES` of the page (with the command that writes its full page)."""
    assert w.explanation is not None
    prefix = f"w{w.rank}-"
    body = render_pair_sections(w.explanation, id_prefix=prefix)
    if len(body.encode("utf-8")) <= PAIR_BYTES:
        return body
    command = rep.explain_command or "ruby-metric explain --pair ID ..."
    command = command.replace("ID", shlex.quote(str(w.result.id)), 1)
    if rep.system_field:
        command = command.replace("SYSTEM", shlex.quote(str(w.extra.get(rep.system_field))), 1)
    return (
        f'<p class="note compact">Shown compact: whole, with the PDG drawings and the lists '
        f"of unmatched edges, AST edits, token edits and matched n-grams, this pair's "
        f"explanation would take {len(body.encode('utf-8')) // 1000:,} KB of this page. "
        f"<code>{_esc(command)} --html pair.html</code> writes it whole.</p>"
        + render_pair_sections(w.explanation, id_prefix=prefix, compact=True)
    )


def _text_cells(reference: str | list[str] | None, candidate: str | None, *,
                anchor: str | None = None, against: str = "reference",
                columns: int = 0, missing: str | None = None) -> str:
    """Two table cells: the reference(s) and the candidate (``missing``: the reason there is
    none: the cell says where it is missing rather than show an empty text). A text that
    fits a cell (:data:`CELL_CHARS` characters on one line) is shown there; a longer one (a whole
    program) is shown in full, never cut: the cells give its size and either link to
    ``anchor`` (where the page shows it) or, with ``columns``, a row follows spanning the
    table, with both texts side by side in a ``<details>`` (collapsed, expandable)."""
    if isinstance(reference, list):
        reference = "\n\n".join(reference)
    if missing is not None:
        candidate = None  # its "" is no text of the system's: the cell says where it is missing
    texts = (reference, candidate)
    candidate_cell = (f'<td class="snip note missing">({_esc(_missing_from(missing))})</td>'
                      if missing is not None else None)
    if all(text is None or _fits(text) for text in texts):
        return (_snippet_cell(reference) + (candidate_cell or _snippet_cell(candidate))
                + ("</tr>" if columns else ""))
    cells = _size_cell(reference, anchor) + (candidate_cell or _size_cell(candidate, anchor))
    if not columns:
        return cells
    sizes = " and ".join(_lines(text) for text in texts if text is not None)
    panels = "".join(
        f'<div class="panel"><h3>{title}</h3><pre>{_esc(text)}</pre></div>'
        for title, text in ((against.capitalize(), reference), ("Candidate", candidate))
        if text is not None
    )
    return (f'{cells}</tr><tr class="texts"><td colspan="{columns}"><details><summary>'
            f'both texts in full ({sizes})</summary><div class="cols">{panels}</div>'
            "</details></td></tr>")


def _fits(text: str) -> bool:
    return len(text.strip()) <= CELL_CHARS and "\n" not in text.strip()


def _lines(text: str) -> str:
    n = text.strip("\n").count("\n") + 1
    return f"{n:,} line{'s' if n != 1 else ''}"


def _size_cell(text: str | None, anchor: str | None) -> str:
    if text is None:
        return '<td class="snip note">(not given)</td>'
    if _fits(text):
        return _snippet_cell(text)
    size = f"{_lines(text)}, {len(text):,} chars"
    if anchor is not None:
        return f'<td class="lines"><a href="#{anchor}">{size}</a></td>'
    return f'<td class="lines">{size}</td>'


def _snippet_cell(text: str | None) -> str:
    if text is None:
        return '<td class="snip note">(not given)</td>'
    return f'<td class="snip"><code>{_esc(text)}</code></td>'


def _missing_from(reason: str) -> str:
    """``"missing from DIR"`` of a missing candidate's reason."""
    return reason.removeprefix("candidate: ").removesuffix(MISSING_SCORES_0)


def _plain_pair(w: WorstView, against: str = "reference") -> str:
    """A pair without its explanation: its reasons and its text, escaped (a missing
    candidate is said to be missing, not shown as an empty text)."""
    missing = missing_of(w.result)
    reasons = "".join(  # a missing candidate's reason is the note: said once, not per metric
        f"<li>{_esc(LABELS.get(k, k))}: {_esc(v)}</li>"
        for k, v in sorted(w.result.reasons.items())
        if v != missing
    )
    out = f'<p class="note">{_esc(w.note or "")}</p>'
    if reasons:
        out += f"<ul>{reasons}</ul>"
    if w.candidate is not None:
        refs = w.reference if isinstance(w.reference, list) else [w.reference]
        panels = "".join(
            f'<div class="panel"><h3>{against.capitalize()}{f" {i + 1}" if len(refs) > 1 else ""}'
            "</h3>"
            f'<pre class="src">{_esc(ref)}</pre></div>'
            for i, ref in enumerate(refs)
        )
        candidate = (f'<pre class="src">{_esc(w.candidate)}</pre>' if missing is None else
                     f'<p class="note missing">{_esc(_missing_from(missing))}</p>')
        out += (
            f'<div class="cols">{panels}<div class="panel"><h3>Candidate</h3>'
            f"{candidate}</div></div>"
        )
    return out


def _structure_line(summary: dict) -> str:
    """A line saying how many sides were repaired or contained (empty when none)."""
    text = structure_summary(summary.get("structure", {}))
    if not text:
        return ""
    return (f'<p class="meta" id="structure">Tolerant structure: {_esc(text)} (the '
            "structural tiers applied after a bounded repair or with broken statements kept "
            "as text; the pairs' reasons say what was done)</p>\n")
