"""The HTML of the system A vs B page: a :class:`~ruby_metric.pages.views.CompareView`
(what :class:`ruby_metric.reports.compare.ComparePage` holds).

Pure rendering: the page object holds every number; equal input gives equal bytes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..scoring.crosslang import scored_against
from ..scoring.metrics import LABELS
from ..scoring.missing import missing_of
from ..version import __version__
from .html_text import escape
from .page_parts import GRID_BINS, MAX_POINTS, format_score, page_head, pair_id_html, score_cell
from .plots import Point, bin_index, density_svg, scatter_svg

if TYPE_CHECKING:
    from ..scoring.results import PairResult
    from .views import CompareView

__all__ = ["render_compare", "p_value_text", "not_applicable_notes"]

_COMPARE_CSS = """
td.win { font-weight: 700; color: #2e7d32; }
.sys-a { color: #1f5fbf; font-weight: 600; }
.sys-b { color: #b45309; font-weight: 600; }
.cols3 { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 14px; }
.cols3 pre { white-space: pre-wrap; word-break: break-word; margin: 0;
  font: 12.5px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
@media print { .cols3 { grid-template-columns: 1fr; } }
"""


_esc = escape


#: How the tables head each test's p-value column, by :data:`ruby_metric.meta.TESTS` name.
_TEST_COLUMNS = {"randomization": "p rand", "bootstrap": "p boot and CI", "ttest": "p t"}


def _bound(x: float) -> str:
    """``x`` rounded *up* to two significant digits, as ``1e-03`` or ``3.4e-03``."""
    exp = math.floor(math.log10(x))
    mantissa = math.ceil(x / 10.0**exp * 10 - 1e-9) / 10
    if mantissa >= 10:
        mantissa, exp = 1.0, exp + 1
    return f"{mantissa:g}e{exp:+03d}"


def p_value_text(value: float | None, *, resamples: int = 0, plus_one: bool = False) -> str:
    """A p-value for a table (text or HTML, before escaping).

    ``-`` for none, 4 decimals, or 3 significant digits below 1e-4. A resampling test's
    p-value at the floor of its ``resamples`` is a bound, not a measurement, and shows as one
    (rounded up): a bootstrap share of 0 out of B resamples as ``< 1/B``; approximate
    randomization's ``(hits + 1) / (B + 1)`` with no hit (``plus_one``) as ``<= 1/(B + 1)``.

    >>> p_value_text(0.0, resamples=1000), p_value_text(1 / 10001, resamples=10000, plus_one=True)
    ('< 1e-03', '<= 1e-04')
    >>> p_value_text(0.0, resamples=300), p_value_text(0.0312), p_value_text(None)
    ('< 3.4e-03', '0.0312', '-')
    """
    if value is None:
        return "-"
    if resamples > 0 and plus_one and value <= (1 + 1e-9) / (resamples + 1):
        return f"<= {_bound(1 / (resamples + 1))}"
    if resamples > 0 and not plus_one and value == 0:
        return f"< {_bound(1 / resamples)}"
    return f"{value:.2e}" if 0 < value < 1e-4 else f"{value:.4f}"


def not_applicable_notes(comparison: Any) -> list[str]:
    """One line per test and reason that some metrics' tests were left out for (too few
    pairs), naming those metrics: ``p boot and CI not applicable for STS, BLEU: 1 pair, ...``.

    ``comparison`` is a :class:`ruby_metric.meta.ComparisonReport`.
    """
    grouped: dict[tuple[str, str], list[str]] = {}
    for metric, r in comparison.items():
        for test, why in r.not_applicable.items():
            grouped.setdefault((test, why), []).append(LABELS.get(metric, metric))
    return [
        f"{_TEST_COLUMNS.get(test, test)} not applicable for {', '.join(names)}: {why}"
        for (test, why), names in grouped.items()
    ]


def _p(value: float | None, *, resamples: int = 0, plus_one: bool = False) -> str:
    return _esc(p_value_text(value, resamples=resamples, plus_one=plus_one))


def render_compare(page: CompareView) -> str:
    """The HTML of a :class:`~ruby_metric.pages.views.CompareView` (pure: equal input, equal
    bytes)."""
    c = page.comparison
    a_name, b_name = page.names
    head = page_head(page.title).replace("</style>", _COMPARE_CSS + "</style>", 1)
    meta = (
        f"{c.pairs:,} pairs · {c.trials:,} randomization trials · {c.bootstrap:,} bootstrap "
        f"resamples · seed {c.seed}"
    )
    against = (f"language: {page.language or 'per pair'}" if page.source_language is None
               else scored_against(page.language, page.source_language))
    toc = (
        '<a href="#significance">Significance</a><a href="#scatter">A vs B per pair</a>'
        '<a href="#differing">Pairs that differ most</a>'
    )
    return "".join(
        [
            head,
            f"<header>\n<h1>{_esc(page.title)}</h1>\n",
            f'<p class="meta">A = <span class="sys-a" id="name-a">{_esc(a_name)}</span> · '
            f'B = <span class="sys-b" id="name-b">{_esc(b_name)}</span></p>\n',
            f'<p class="meta" id="against">{_esc(against)}</p>\n',
            f'<p class="meta">{_esc(meta)}</p>\n<nav class="toc">{toc}</nav>\n</header>\n',
            _significance_section(page),
            _scatter_section(page),
            _differing_section(page),
            f"<footer>ruby-metric {_esc(__version__)}</footer>\n</body>\n</html>\n",
        ]
    )


def _significance_section(page: CompareView) -> str:
    c = page.comparison
    alpha = 1 - c.confidence
    level = f"{round(c.confidence * 100)}% CI"
    rows = []
    for metric, r in c.items():
        # a metric's winner is marked only when every test that ran agrees it is significant
        ps = [
            p
            for p in (r.p_value_randomization, r.p_value_bootstrap, r.p_value_ttest)
            if p is not None
        ]
        significant = bool(ps) and all(p < alpha for p in ps) and bool(r.difference)
        win_a = significant and r.difference is not None and r.difference > 0
        win_b = significant and r.difference is not None and r.difference < 0
        ci = r.difference_ci
        ci_text = "-" if not ci else f"[{ci[0]:.4f}, {ci[1]:.4f}]"
        rows.append(
            f'<tr id="cmp-{metric}"><td><b>{LABELS.get(metric, metric)}</b></td>'
            f"<td>{_esc(r.level)}</td>"
            + score_cell(r.score_a, extra_class="win" if win_a else "")
            + score_cell(r.score_b, extra_class="win" if win_b else "")
            + score_cell(r.difference)
            + f'<td class="num">{ci_text}</td>'
            + f'<td class="num">{_p(r.p_value_randomization, resamples=r.trials, plus_one=True)}'
            "</td>"
            + f'<td class="num">{_p(r.p_value_bootstrap, resamples=r.bootstrap_samples)}</td>'
            + f'<td class="num">{_p(r.p_value_ttest)}</td>'
            + f'<td class="num">{r.n:,}</td><td class="num">{r.excluded:,}</td></tr>'
        )
    return (
        '<section id="significance">\n<h2>Is A better than B?</h2>\n'
        f'<p class="note">Bold green: the better system where every test that applies gives '
        f"p &lt; {alpha:g}. CrystalBLEU and BLEU are corpus-level (summed statistics), the others "
        "means over the pairs where the metric is defined for both systems.</p>\n"
        '<table class="summary"><tr><th>metric</th><th>level</th><th>A</th><th>B</th>'
        f"<th>A \u2212 B</th><th>{level}</th><th>p rand</th><th>p boot</th><th>p t</th>"
        f"<th>n</th><th>excluded</th></tr>{''.join(rows)}</table>\n"
        + "".join(
            f'<p class="note not-applicable">{_esc(note)}</p>\n'
            for note in not_applicable_notes(c)
        )
        +         f'<p class="meta">signature: <span class="sig" id="signature">{_esc(c.signature)}'
        "</span></p>\n</section>\n"
    )


def _scatter_section(page: CompareView) -> str:
    a_name, b_name = page.names
    figures = []
    for metric in page.comparison:
        name = LABELS.get(metric, metric)
        pairs = [
            (ra.id, getattr(ra, metric), getattr(rb, metric))
            for ra, rb in zip(page.corpus_a.pairs, page.corpus_b.pairs, strict=True)
        ]
        both = [(pid, a, b) for pid, a, b in pairs if a is not None and b is not None]
        x_label, y_label = f"{name} of A", f"{name} of B"
        if len(both) <= MAX_POINTS:
            points = [Point(a, b, "a", f"pair {pid}: A {a:.4f}, B {b:.4f}") for pid, a, b in both]
            svg = scatter_svg(points, x_label=x_label, y_label=y_label, title=f"{name}: A vs B")
            how = "one point per pair; hover for the pair"
        else:
            grid = [[0] * GRID_BINS for _ in range(GRID_BINS)]
            for _, a, b in both:
                grid[bin_index(a, GRID_BINS)][bin_index(b, GRID_BINS)] += 1
            svg = density_svg(grid, x_label=x_label, y_label=y_label, title=f"{name}: A vs B")
            how = "binned, darker = more pairs (log scale)"
        above = sum(b > a for _, a, b in both)
        below = sum(a > b for _, a, b in both)
        figures.append(
            f'<figure id="ab-{metric}">{svg}<figcaption><b>{name}</b>: {len(both):,} pairs; '
            f"{how}. B higher (above the diagonal): <b>{above:,}</b>; A higher: "
            f"<b>{below:,}</b>; equal: {len(both) - above - below:,}.</figcaption></figure>\n"
        )
    return (
        '<section id="scatter">\n<h2>A against B, pair by pair</h2>\n'
        f'<p class="note">x: A = {_esc(a_name)}; y: B = {_esc(b_name)}.</p>\n'
        f'<div class="plots">\n{"".join(figures)}</div>\n</section>\n'
    )


def _differing_section(page: CompareView) -> str:
    by = LABELS.get(page.differ_by or "", page.differ_by or "")
    head = (
        f'<section id="differing">\n<h2>The {len(page.differing)} pairs where A and B differ '
        f"most in {_esc(by)}</h2>\n"
    )
    if not page.differing:
        return head + '<p class="note">The systems score every pair the same.</p>\n</section>\n'
    items = []
    metrics = list(page.comparison)
    for d in page.differing:
        a = getattr(d.result_a, page.differ_by or "ruby")
        b = getattr(d.result_b, page.differ_by or "ruby")
        better = "A" if a > b else "B"
        summary = (
            f"#{d.rank} · pair {pair_id_html(d.result_a.id)} · {_esc(by)} "
            f'<span class="sys-a">A {format_score(a)}</span> vs '
            f'<span class="sys-b">B {format_score(b)}</span>'
            f" · {better} better by {abs(a - b):.4f}"
        )
        score_rows = "".join(
            f"<tr><td>{LABELS.get(m, m)}</td>{score_cell(getattr(d.result_a, m))}"
            f"{score_cell(getattr(d.result_b, m))}</tr>"
            for m in metrics
        )
        tiers = f"RUBY tier: A {d.result_a.tier or 'n/a'}, B {d.result_b.tier or 'n/a'}"
        refs = d.reference if isinstance(d.reference, str) else "\n\n".join(d.reference)
        against = ("Reference" if page.source_language is None
                   else f"Source ({page.source_language})")
        items.append(
            f'<details class="pair" id="differ-{d.rank}"><summary>{summary}</summary>'
            '<div class="pair-body"><table class="summary"><tr><th>metric</th><th>A</th>'
            f'<th>B</th></tr>{score_rows}</table><p class="note">{_esc(tiers)}</p>'
            '<div class="cols3">'
            f'<div class="panel"><h3>{_esc(against)}</h3><pre>{_esc(refs)}</pre></div>'
            f'<div class="panel"><h3 class="sys-a">A</h3>{_candidate(d.candidate_a, d.result_a)}'
            "</div>"
            f'<div class="panel"><h3 class="sys-b">B</h3>{_candidate(d.candidate_b, d.result_b)}'
            "</div>"
            "</div></div></details>\n"
        )
    return head + "".join(items) + "</section>\n"


def _candidate(text: str, result: PairResult) -> str:
    """A system's output in its panel; a missing translation says so (its ``""`` is no
    text the system wrote, and the reason is why it scores 0)."""
    missing = missing_of(result)
    if missing is None:
        return f"<pre>{_esc(text)}</pre>"
    return f'<p class="note missing">{_esc(missing)}</p>'
