"""The report's views of issue 20 (finding 8), in the page and in headless chromium.

A skewed histogram is on a log count scale with every bar labelled; identical scatter points
are one dot with their count; the disagreement and worst tables show both snippets, cut and
expandable; a long one-line snippet wraps in its code pane. The layout checks load a copy of
the page whose Content-Security-Policy is lifted for one measuring script, which writes what
it measured into the DOM that chromium dumps.
"""

from __future__ import annotations

import re

import pytest
from cli_helpers import HYPS, REFS
from test_html_report import _load

from ruby_metric import RubyScorer
from ruby_metric.pages.plots import Point, histogram_svg, log_scale_wanted, scatter_svg
from ruby_metric.reports.corpus import report

REF_LINES = REFS.read_text(encoding="utf-8").splitlines()
HYP_LINES = HYPS.read_text(encoding="utf-8").split("\n")[: len(REF_LINES)]
LONG = "public int F(int a){" + "a = a + 1;" * 60 + "return a;}"  # a 640-character line


@pytest.fixture(scope="module")
def corpus_page(tmp_path_factory):
    """A corpus where most pairs are exact matches (as in CodeXGLUE) plus long one-liners."""
    refs = REF_LINES * 3 + [REF_LINES[0]] * 40 + [LONG, LONG]
    # the long pairs: a renamed local (RUBY 1.0, BLEU 0.13: a disagreement) and every
    # statement wrong with the end cut (among the worst)
    hyps = HYP_LINES * 3 + [REF_LINES[0]] * 40 + [LONG.replace("a", "b"),
                                                  LONG.replace("+ 1", "- 1")[:-10]]
    rep = report(RubyScorer(language="cs"), refs, hyps, worst=5)
    target = tmp_path_factory.mktemp("views") / "report.html"
    rep.write_html(target)
    return target


def test_histogram_goes_log_when_one_bar_dwarfs_the_others():
    skewed = [3, 0, 5, 0, 608]
    assert log_scale_wanted(skewed) and not log_scale_wanted([3, 4, 5])
    svg = histogram_svg(skewed)
    assert svg.startswith('<svg class="plot hist log"') and "pairs (log scale)" in svg
    assert ">608</text>" in svg and ">3</text>" in svg and ">5</text>" in svg  # bar labels
    heights = [float(h) for h in re.findall(r'<rect class="bar"[^>]*height="([\d.]+)"', svg)]
    assert heights[0] > 0.15 * heights[-1]  # 3 of 608 stays visible (linear: 0.5%)
    linear = histogram_svg([3, 4, 5])
    assert 'class="plot hist"' in linear and "log scale" not in linear


def test_identical_points_are_one_dot_with_their_count():
    points = [Point(1.0, 1.0, "graph", f"pair {i}") for i in range(608)]
    points.append(Point(0.5, 0.25, "string", "pair 608"))
    svg = scatter_svg(points, x_label="BLEU", y_label="RUBY")
    assert svg.count("<circle") == 2
    assert ">608 pairs</text>" in svg and "608 pairs here: pair 0; pair 1" in svg
    assert "and 603 more" in svg


def test_page_shows_the_new_views(corpus_page):
    html = corpus_page.read_text(encoding="utf-8")
    assert '<svg class="plot hist log"' in html
    assert re.search(r'class="pt-count"[^>]*>\d+ pairs</text>', html)
    disagreements = re.search(r'<table id="disagreements">.*?</table>', html, re.S).group(0)
    rows = disagreements.count('<tr><td><div class="pid">')
    # a one-line snippet that fits is in its cell; a longer text whole in a row of its own
    texts = disagreements.count('<tr class="texts">')
    # one LONG pair is among the disagreements: both its texts whole below its row
    assert disagreements.count('<td class="snip') == 2 * (rows - texts) and texts == 1
    assert "both texts in full (1 line and 1 line)</summary>" in disagreements
    assert f"<pre>{LONG}</pre>" in disagreements  # whole, never cut
    worst = re.search(r'<table id="worst-table">.*?</table>', html, re.S).group(0)
    # 5 pairs, both sides: a long text is a link to the pair's section, where it is whole
    assert worst.count('<td class="snip') == 8 and worst.count('<td class="lines">') == 2
    assert '<td class="lines"><a href="#worst-' in worst and "1 line, 630 chars" in worst
    assert "\u2026" not in worst and LONG[:200] in html
    assert 'class="code one-line"' in html
    # made from Python lists: the page names both input forms
    assert "explain --pair ID REFS HYPS" in html and "explain --jsonl FILE --pair ID" in html


_MEASURE = """<script>
window.addEventListener("load", () => {
  const wide = [...document.querySelectorAll(".code.one-line .src")]
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).length;
  const panes = [...document.querySelectorAll(".code.one-line .src")]
    .filter(e => e.offsetParent !== null).length;
  const cells = [...document.querySelectorAll("td.snip summary")];
  const tallest = Math.max(0, ...cells.map(e => e.getBoundingClientRect().height));
  const bars = document.querySelectorAll("svg.hist.log text.count").length;
  const piles = document.querySelectorAll("svg.scatter text.pt-count").length;
  document.body.setAttribute("data-measured",
    [panes, wide, Math.round(tallest), bars, piles, document.documentElement.scrollWidth,
     window.innerWidth].join(","));
});
</script>"""


def _measured(page, tmp_path, *, open_pairs: bool):
    html = page.read_text(encoding="utf-8")
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    if open_pairs:
        html = html.replace('<details class="pair"', '<details open class="pair"')
    html = html.replace("</body>", _MEASURE + "</body>", 1)
    target = tmp_path / "measured.html"
    target.write_text(html, encoding="utf-8")
    dom, console = _load(target, tmp_path, "--window-size=1100,900")
    assert console == []
    found = re.search(r'data-measured="([\d,]+)"', dom)
    assert found, "the measuring script did not run"
    return [int(x) for x in found.group(1).split(",")]


def test_views_in_chromium(corpus_page, tmp_path):
    dom, console = _load(corpus_page, tmp_path)
    assert console == []  # the page itself: no script, nothing fetched, no error
    assert '<table id="worst-table">' in dom and '<table id="disagreements">' in dom
    panes, wide, tallest, bars, piles, page_width, window = _measured(
        corpus_page, tmp_path, open_pairs=True
    )
    assert panes >= 4  # the worst pairs' one-line snippets, opened
    assert wide == 0  # every one-line snippet wraps: none scrolls sideways
    assert tallest < 40  # a cut snippet's summary is one or two lines, not the whole text
    assert bars >= 3 and piles >= 1
    assert page_width <= window  # nothing pushes the page wider than the window
