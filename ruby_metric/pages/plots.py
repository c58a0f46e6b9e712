"""Small inline-SVG plots for the HTML reports: histograms, scatters and 2-D density grids.

Drawn here rather than with a plotting library so the reports need no new dependency, embed
no script and come out byte-identical for equal input: every coordinate is printed with a
fixed number of decimals and nothing depends on fonts installed at build time. Scores live
in [0, 1], so every axis is the unit interval.

Every function returns one ``<svg>`` element as a string; labels and tooltips are
HTML-escaped here, so callers can pass any text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .html_text import coord, escape

__all__ = ["Mark", "Point", "density_svg", "histogram_svg", "scatter_svg", "bin_index"]

# Plot geometry (px): the frame inside the margins holds the unit square of the data.
_W, _H = 400, 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 46, 14, 34, 38
_SQUARE = 260  # side of a scatter's plot area



@dataclass(frozen=True)
class Mark:
    """A vertical line on a histogram at ``value`` (in [0, 1]), labelled.

    Attributes
    ----------
    value : where the line goes.
    label : its text, e.g. ``"mean 0.8123"``.
    style : ``"mean"`` (solid) or ``"corpus"`` (dashed): a CSS class suffix.
    """

    value: float
    label: str
    style: str = "mean"


@dataclass(frozen=True)
class Point:
    """One point of a scatter: coordinates in [0, 1], a CSS class suffix and a tooltip."""

    x: float
    y: float
    group: str = ""
    tip: str = ""


_esc = escape
_c = coord


def bin_index(value: float, bins: int) -> int:
    """The bin of ``value`` among ``bins`` equal bins of [0, 1]; 1.0 goes in the last one.

    >>> bin_index(0.0, 20), bin_index(0.05, 20), bin_index(1.0, 20)
    (0, 1, 19)
    """
    return min(bins - 1, max(0, int(value * bins)))


def _ticks() -> tuple[float, ...]:
    return (0.0, 0.25, 0.5, 0.75, 1.0)


#: A histogram switches to a log count scale when its tallest bar is this many times the
#: second tallest (e.g. 608 of 1,000 pairs at exactly 1.0 would flatten every other bar).
LOG_SCALE_RATIO = 4.0


def log_scale_wanted(counts: Sequence[int]) -> bool:
    """Whether a histogram of ``counts`` reads better on a log count scale: its tallest bar
    dwarfs the next one (:data:`LOG_SCALE_RATIO`).

    >>> log_scale_wanted([10, 12, 608]), log_scale_wanted([10, 12, 30])
    (True, False)
    """
    top = sorted((c for c in counts if c > 0), reverse=True)
    return len(top) >= 2 and top[0] > LOG_SCALE_RATIO * top[1]


def histogram_svg(
    counts: Sequence[int],
    *,
    marks: Sequence[Mark] = (),
    x_label: str = "",
    title: str = "",
    log: bool | None = None,
) -> str:
    """Bars of ``counts`` over equal bins of [0, 1], with labelled vertical marks.

    Parameters
    ----------
    counts : pairs per bin, lowest bin first.
    marks : lines to draw (the mean, the corpus-level score).
    x_label : the axis caption.
    title : the SVG's accessible title.
    log : heights on a log scale (``log(1 + count)``), the y axis ticked at 1, 10, 100...;
        ``None`` (default) chooses it by :func:`log_scale_wanted`. On a log scale every bar
        is labelled with its count.

    Returns
    -------
    str: an ``<svg class="plot hist">`` (``plot hist log`` on a log scale) element.

    Examples
    --------
    >>> svg = histogram_svg([1, 0, 3], marks=[Mark(0.5, "mean 0.5")], x_label="RUBY")
    >>> svg.startswith('<svg class="plot hist"') and svg.count("<rect class=\\"bar\\"") == 3
    True
    """
    bins = len(counts)
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    top = max(counts) if counts else 0
    if log is None:
        log = log_scale_wanted(counts)

    def height(count: float) -> float:
        if not top:
            return 0.0
        if log:
            return plot_h * math.log1p(count) / math.log1p(top)
        return plot_h * count / top

    parts = [_open("plot hist log" if log else "plot hist", _W, _H, title)]
    parts.append(_frame(_LEFT, _TOP, plot_w, plot_h))
    for i, count in enumerate(counts):
        x = _LEFT + plot_w * i / bins
        h = height(count)
        lo, hi = i / bins, (i + 1) / bins
        bracket = "]" if i == bins - 1 else ")"
        parts.append(
            f'<rect class="bar" x="{_c(x + 0.5)}" y="{_c(_TOP + plot_h - h)}" '
            f'width="{_c(max(plot_w / bins - 1, 0.5))}" height="{_c(h)}">'
            f"<title>[{lo:.2f}, {hi:.2f}{bracket}: {count:,} pair{'s' if count != 1 else ''}"
            "</title></rect>"
        )
        if log and count:
            # on a log scale heights are hard to read: each bar says its count
            parts.append(
                f'<text class="count" x="{_c(x + plot_w / bins / 2)}" '
                f'y="{_c(_TOP + plot_h - h - 2)}" text-anchor="middle">{count:,}</text>'
            )
    parts.extend(_x_axis(_LEFT, _TOP + plot_h, plot_w, x_label))
    # y axis: 0 and the tallest bar (and the powers of ten between on a log scale)
    ticks = {0, top}
    if log:
        ticks |= {10**k for k in range(len(str(top))) if 10**k < top}
    for value in sorted(ticks):
        y = _TOP + plot_h - height(value)
        parts.append(
            f'<text class="tick" x="{_LEFT - 5}" y="{_c(y + 3.5)}" text-anchor="end">'
            f"{value:,}</text>"
        )
    axis = "pairs (log scale)" if log else "pairs"
    parts.append(
        f'<text class="axis" x="12" y="{_c(_TOP + plot_h / 2)}" text-anchor="middle" '
        f'transform="rotate(-90 12 {_c(_TOP + plot_h / 2)})">{axis}</text>'
    )
    for k, mark in enumerate(marks):
        x = _LEFT + plot_w * min(1.0, max(0.0, mark.value))
        # labels on two rows above the frame, so two close marks stay legible
        y = _TOP - 6 if k % 2 == 0 else _TOP - 19
        anchor = "end" if mark.value > 0.5 else "start"
        dx = -3 if anchor == "end" else 3
        parts.append(
            f'<line class="mark-{_esc(mark.style)}" x1="{_c(x)}" y1="{_TOP}" x2="{_c(x)}" '
            f'y2="{_TOP + plot_h}"><title>{_esc(mark.label)}</title></line>'
            f'<text class="mark-label mark-{_esc(mark.style)}" x="{_c(x + dx)}" y="{y}" '
            f'text-anchor="{anchor}">{_esc(mark.label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def scatter_svg(
    points: Sequence[Point],
    *,
    x_label: str,
    y_label: str,
    title: str = "",
) -> str:
    """Points in the unit square with the diagonal ``y = x`` drawn for reference.

    Points far from the diagonal are the pairs where the two scores disagree. Each point
    carries its tooltip; ``group`` becomes the CSS class ``pt-<group>``. Points drawn at the
    same place (608 exact matches at (1, 1), say) are one larger dot labelled with their
    count, its tooltip giving the count and the first points' tooltips.

    Parameters
    ----------
    points : the points, drawn in the given order (later on top).
    x_label, y_label : axis captions.
    title : the SVG's accessible title.

    Returns
    -------
    str: an ``<svg class="plot scatter">`` element.

    Examples
    --------
    >>> svg = scatter_svg([Point(0.2, 0.9, "graph", "id 7")], x_label="BLEU", y_label="RUBY")
    >>> svg.count("<circle"), "id 7" in svg
    (1, True)
    >>> svg = scatter_svg([Point(1, 1, "graph", f"id {i}") for i in range(6)], x_label="x",
    ...                   y_label="y")
    >>> svg.count("<circle"), '>6 pairs</text>' in svg, "6 pairs here" in svg
    (1, True, True)
    """
    parts, x0, y0, side = _square_open("plot scatter", title, x_label, y_label)
    # Points at the same drawn place are one dot with its count (input order kept).
    places: dict[tuple[str, str], list[Point]] = {}
    for p in points:
        cx = x0 + side * min(1.0, max(0.0, p.x))
        cy = y0 + side * (1.0 - min(1.0, max(0.0, p.y)))
        places.setdefault((_c(cx), _c(cy)), []).append(p)
    labels: list[str] = []
    for (cx, cy), here in places.items():
        p = here[0]
        cls = f"pt pt-{_esc(p.group)}" if p.group else "pt"
        if len(here) == 1:
            tip = f"<title>{_esc(p.tip)}</title>" if p.tip else ""
            parts.append(f'<circle class="{cls}" cx="{cx}" cy="{cy}" r="2.6">{tip}</circle>')
            continue
        shown = "; ".join(q.tip for q in here[:_TIPS_SHOWN] if q.tip)
        more = f"; and {len(here) - _TIPS_SHOWN:,} more" if len(here) > _TIPS_SHOWN else ""
        tip = f"<title>{len(here):,} pairs here: {_esc(shown)}{more}</title>"
        radius = 2.6 + 1.6 * math.log10(len(here))
        parts.append(
            f'<circle class="{cls} pt-many" cx="{cx}" cy="{cy}" r="{radius:.1f}">{tip}</circle>'
        )
        if len(here) < _LABEL_FROM:
            continue  # a ring and a tooltip; a label on every small pile would hide the plot
        right = float(cx) > x0 + side / 2  # label inside the square: left of a right point
        lx = float(cx) - radius - 2 if right else float(cx) + radius + 2
        # below the dot near the top edge, beside it elsewhere
        ly = float(cy) + radius + 9 if float(cy) < y0 + 12 else float(cy) + 3.5
        labels.append(
            f'<text class="pt-count" x="{_c(lx)}" y="{_c(ly)}" '
            f'text-anchor="{"end" if right else "start"}">{len(here):,} pairs</text>'
        )
    parts.extend(labels)  # on top of every point
    parts.append("</svg>")
    return "".join(parts)


#: How many of the points drawn at one place a tooltip names.
_TIPS_SHOWN = 5
#: Piles of at least this many identical points get a visible count label.
_LABEL_FROM = 5


def density_svg(
    grid: Sequence[Sequence[int]],
    *,
    x_label: str,
    y_label: str,
    title: str = "",
) -> str:
    """A 2-D binned density of a scatter too large to draw point by point.

    Parameters
    ----------
    grid : ``grid[i][j]`` = pairs whose x falls in bin ``i`` and y in bin ``j`` (equal bins
        of [0, 1], as :func:`bin_index`).
    x_label, y_label : axis captions.
    title : the SVG's accessible title.

    Returns
    -------
    str: an ``<svg class="plot density">`` element; a cell's shade grows with the log of its
    count (so a few stray pairs stay visible next to a dense cluster), and its tooltip gives
    the count.

    Examples
    --------
    >>> svg = density_svg([[0, 2], [5, 0]], x_label="BLEU", y_label="RUBY")
    >>> svg.count('<rect class="cell"')
    2
    """
    parts, x0, y0, side = _square_open("plot density", title, x_label, y_label)
    bins = len(grid)
    top = max((c for col in grid for c in col), default=0)
    cell = side / bins if bins else side
    for i, column in enumerate(grid):
        for j, count in enumerate(column):
            if not count:
                continue
            shade = math.log1p(count) / math.log1p(top)
            x = x0 + i * cell
            y = y0 + side - (j + 1) * cell
            parts.append(
                f'<rect class="cell" x="{_c(x)}" y="{_c(y)}" width="{_c(cell)}" '
                f'height="{_c(cell)}" fill-opacity="{0.12 + 0.88 * shade:.2f}">'
                f"<title>{_esc(x_label)} {i / bins:.2f}\u2013{(i + 1) / bins:.2f}, "
                f"{_esc(y_label)} {j / bins:.2f}\u2013{(j + 1) / bins:.2f}: {count:,}"
                "</title></rect>"
            )
    parts.append("</svg>")
    return "".join(parts)


# -- pieces ----------------------------------------------------------------------------------


def _open(cls: str, width: int, height: int, title: str) -> str:
    head = (
        f'<svg class="{cls}" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img">'
    )
    return head + (f"<title>{_esc(title)}</title>" if title else "")


def _frame(x: float, y: float, w: float, h: float) -> str:
    return f'<rect class="frame" x="{_c(x)}" y="{_c(y)}" width="{_c(w)}" height="{_c(h)}"/>'


def _x_axis(x0: float, y_base: float, width: float, label: str) -> list[str]:
    out = []
    for t in _ticks():
        x = x0 + width * t
        out.append(
            f'<line class="tickline" x1="{_c(x)}" y1="{_c(y_base)}" x2="{_c(x)}" '
            f'y2="{_c(y_base + 4)}"/>'
            f'<text class="tick" x="{_c(x)}" y="{_c(y_base + 15)}" text-anchor="middle">'
            f"{t:g}</text>"
        )
    if label:
        out.append(
            f'<text class="axis" x="{_c(x0 + width / 2)}" y="{_c(y_base + 31)}" '
            f'text-anchor="middle">{_esc(label)}</text>'
        )
    return out


def _square_open(
    cls: str, title: str, x_label: str, y_label: str
) -> tuple[list[str], float, float, float]:
    """The SVG head, frame, axes and diagonal of a unit-square plot; its origin and side."""
    side = _SQUARE
    x0, y0 = _LEFT, 14
    width, height = x0 + side + _RIGHT, y0 + side + _BOTTOM
    parts = [_open(cls, width, height, title), _frame(x0, y0, side, side)]
    parts.append(
        f'<line class="diag" x1="{_c(x0)}" y1="{_c(y0 + side)}" x2="{_c(x0 + side)}" '
        f'y2="{_c(y0)}"><title>{_esc(y_label)} = {_esc(x_label)}</title></line>'
    )
    parts.extend(_x_axis(x0, y0 + side, side, x_label))
    for t in _ticks():
        y = y0 + side * (1 - t)
        parts.append(
            f'<line class="tickline" x1="{_c(x0 - 4)}" y1="{_c(y)}" x2="{_c(x0)}" y2="{_c(y)}"/>'
            f'<text class="tick" x="{_c(x0 - 6)}" y="{_c(y + 3.5)}" text-anchor="end">'
            f"{t:g}</text>"
        )
    mid = y0 + side / 2
    parts.append(
        f'<text class="axis" x="12" y="{_c(mid)}" text-anchor="middle" '
        f'transform="rotate(-90 12 {_c(mid)})">{_esc(y_label)}</text>'
    )
    return parts, x0, y0, side
