"""A program dependence graph drawn as inline SVG, with the GED mapping's marks.

Nodes in source-line order top to bottom, indented by control-dependence depth; control
edges as solid arcs on the left (``T`` / ``F`` on the true / false outcome of a predicate),
data edges dashed and effect edges dotted on the right; nodes the mapping relabels (with
their graded cost), replaces or leaves unmatched are highlighted, and so are unmatched
edges. A pure function of its input: the same graph gives the same bytes.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass

from graphs.trees.normalized import OPAQUE_MARK

from ..scoring.evidence import NodeMatch, Pdg, PdgEdge, PdgNode, dep_name
from .html_text import coord as _coord
from .html_text import escape as _esc
from .html_text import truncate as _truncate

__all__ = ["pdg_svg", "status_text"]

# PDG drawing geometry (px)
_ROW = 30  # vertical distance between node rows
_BOX_H = 22
_BOX_W = 400  # from the leftmost box edge to the common right edge
_INDENT = 16  # per control-dependence level
_MAX_DEPTH = 8  # deeper nesting is drawn at this indentation
_ARC_MAX = 70  # widest arc bulge
_MARGIN = _ARC_MAX + 14
_CHAR_W = 7.2  # width of one character of the node font (12px monospace)


def _depths(pdg: Pdg) -> dict[int, int]:
    """Control-dependence depth of each node (shortest path from a root), for indentation."""
    children: dict[int, list[int]] = {n.id: [] for n in pdg.nodes}
    has_parent: set[int] = set()
    for edge in pdg.edges:
        if edge.type == "control" and edge.source != edge.target:
            children[edge.source].append(edge.target)
            has_parent.add(edge.target)
    depth: dict[int, int] = {}
    queue: deque[int] = deque()
    for node in pdg.nodes:
        if node.id not in has_parent or node.kind == "entry":
            depth[node.id] = 0
            queue.append(node.id)
    while queue:
        u = queue.popleft()
        for v in children[u]:
            if v not in depth:
                depth[v] = depth[u] + 1
                queue.append(v)
    for node in pdg.nodes:  # nodes reachable only through a cycle
        depth.setdefault(node.id, 0)
    return depth


@dataclass(frozen=True)
class _Layout:
    """Where a PDG's nodes go: one row each in source-line order, indented by control depth."""

    row: dict[int, int]
    depth: dict[int, int]

    @property
    def x_right(self) -> float:
        return _MARGIN + _BOX_W

    @property
    def width(self) -> int:
        return _MARGIN + _BOX_W + _MARGIN

    @property
    def height(self) -> int:
        return 12 + len(self.row) * _ROW

    def y_mid(self, node_id: int) -> float:
        return 8 + self.row[node_id] * _ROW + _BOX_H / 2

    def x_left(self, node_id: int) -> float:
        return _MARGIN + min(self.depth.get(node_id, 0), _MAX_DEPTH) * _INDENT


def pdg_svg(
    pdg: Pdg,
    status: dict[int, str | NodeMatch] | None = None,
    unmatched: Counter[tuple[int, int, str]] | None = None,
    *,
    prefix: str = "g",
) -> str:
    """Draw a PDG as an inline SVG element.

    Parameters
    ----------
    pdg : the graph's records.
    status : node id -> its :class:`~ruby_metric.api.explain.NodeMatch` (a relabel shows its
        cost), or just the status ``"match"``, ``"relabel"``, ``"replace"``, ``"delete"`` or
        ``"insert"`` (from the GED mapping; missing nodes are drawn plain).
    unmatched : ``(source, target, dep)`` -> how many such edges are unmatched.
    prefix : makes the SVG's element ids unique in the page.

    Returns
    -------
    str
        An ``<svg>`` element: one row per node in source-line order, indented by control
        depth; control edges as solid arcs on the left (``T`` / ``F`` on a branch outcome),
        data edges as dashed and effect edges as dotted arcs on the right.
    """
    status = status or {}
    left_unmatched = Counter(unmatched or {})
    order = sorted(pdg.nodes, key=lambda n: (n.line, n.id))
    layout = _Layout({n.id: i for i, n in enumerate(order)}, _depths(pdg))
    w, h = layout.width, layout.height
    parts = [
        f'<svg class="pdg" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" role="img">',
        "<defs>",
    ]
    for kind in ("control", "data", "effect"):
        parts.append(
            f'<marker id="{prefix}-ah-{kind}" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" '
            'orient="auto-start-reverse">'
            f'<path class="ah-{kind}" d="M0,0 L10,5 L0,10 z"/></marker>'
        )
    parts.append("</defs>")

    # Edges under the nodes; parallel edges of one type fan out a little wider each.
    seen: Counter[tuple[int, int, str]] = Counter()
    for edge in pdg.edges:
        if edge.source not in layout.row or edge.target not in layout.row:
            continue
        key = (edge.source, edge.target, edge.dep)
        fan = seen[key]
        seen[key] += 1
        flagged = left_unmatched[key] > 0
        if flagged:
            left_unmatched[key] -= 1
        parts.append(_edge_path(edge, fan, flagged, prefix, layout))

    for node in order:
        parts.append(_node_group(node, status.get(node.id), layout))
    parts.append("</svg>")
    return "".join(parts)


def _edge_path(edge: PdgEdge, fan: int, flagged: bool, prefix: str, layout: _Layout) -> str:
    u, v = edge.source, edge.target
    kind = _edge_kind(edge)
    y1, y2 = layout.y_mid(u), layout.y_mid(v)
    if kind == "control":
        x1, x2, sign = layout.x_left(u), layout.x_left(v), -1
    else:
        x1 = x2 = layout.x_right
        sign = 1
    if u == v:
        loop = 20 + 6 * fan
        d = (
            f"M{_coord(x1)},{_coord(y1 - 5)} C{_coord(x1 + sign * loop)},{_coord(y1 - 16)} "
            f"{_coord(x1 + sign * loop)},{_coord(y1 + 16)} {_coord(x1)},{_coord(y1 + 5)}"
        )
    else:
        rows_apart = abs(layout.row[u] - layout.row[v])
        bulge = min(_ARC_MAX - 6, 12 + 9 * math.sqrt(rows_apart)) + 6 * fan
        bx = min(x1, x2) - bulge if sign < 0 else max(x1, x2) + bulge
        d = (
            f"M{_coord(x1)},{_coord(y1)} C{_coord(bx)},{_coord(y1)} "
            f"{_coord(bx)},{_coord(y2)} {_coord(x2)},{_coord(y2)}"
        )
    cls = kind + (" unmatched" if flagged else "")
    what = f"{dep_name(edge.dep)} {u} \u2192 {v}"
    if edge.var and kind == "data":
        what += f" ({edge.var})"
    if flagged:
        what += ": unmatched"
    path = (
        f'<path class="{cls}" d="{d}" marker-end="url(#{prefix}-ah-{kind})">'
        f"<title>{_esc(what)}</title></path>"
    )
    outcome = edge.dep.partition("-")[2] if kind == "control" else ""
    if outcome in ("true", "false"):
        # the branch outcome, at the arc's end next to the controlled node
        tx = (x2 - 14) if u != v else (x1 - 20 - 6 * fan - 8)
        ty = (y2 - 3) if u != v else y1 + 3
        path += (
            f'<text class="br" x="{_coord(tx)}" y="{_coord(ty)}">'
            f"{'T' if outcome == 'true' else 'F'}<title>{_esc(what)}</title></text>"
        )
    return path


def _edge_kind(edge: PdgEdge) -> str:
    """How an edge is drawn: ``control``, ``data`` or ``effect``."""
    if edge.type == "control" or edge.dep.startswith("control"):
        return "control"
    return "effect" if edge.dep == "effect" else "data"


def _node_group(node: PdgNode, match: str | NodeMatch | None, layout: _Layout) -> str:
    state = match.status if isinstance(match, NodeMatch) else match
    classes = ["node"]
    if state in ("relabel", "replace", "delete", "insert"):
        classes.append(f"n-{state}")
    if node.kind == "entry":
        classes.append("n-entry")
    opaque = node.label.startswith(OPAQUE_MARK)
    if opaque:
        # a statement kept as text (it did not parse) or the tokens a repair inserted
        classes.append("n-opaque")
    x = layout.x_left(node.id)
    top = layout.y_mid(node.id) - _BOX_H / 2
    box_w = layout.x_right - x
    shown = node.text or node.label
    room = int((box_w - 40) / _CHAR_W)
    tip = f"line {node.line} · {node.kind}\nlabel: {node.label}\ncode: {node.text}"
    if opaque:
        tip += ("\ninserted by the repair" if node.kind == "repair"
                else "\ndid not parse: kept as text, data edges from its identifiers")
    badge = ""
    if state:
        tip += f"\nmapping: {status_text(match)}"
    if isinstance(match, NodeMatch) and state in ("relabel", "replace"):
        badge = (
            f'<text class="cost" x="{_coord(layout.x_right - 4)}" y="{_coord(top + 15)}" '
            f'text-anchor="end">{_esc(_cost_badge(match))}</text>'
        )
        room -= 8
    return (
        f'<g class="{" ".join(classes)}"><title>{_esc(_truncate_tip(tip))}</title>'
        f'<rect x="{_coord(x)}" y="{_coord(top)}" width="{_coord(box_w)}" height="{_BOX_H}" '
        'rx="4"/>'
        f'<text class="ln" x="{_coord(x + 4)}" y="{_coord(top + 15)}">{node.line}</text>'
        f'<text x="{_coord(x + 30)}" y="{_coord(top + 15.5)}">'
        f"{_esc(_truncate(shown, room))}</text>{badge}</g>"
    )


def _cost_badge(m: NodeMatch) -> str:
    return "unrelated" if m.status == "replace" else f"{m.cost:g}"


def status_text(match: str | NodeMatch | None) -> str:
    """A mapping entry in words: ``relabel 0.25``, ``replace (unrelated statements)``."""
    if not isinstance(match, NodeMatch):
        return str(match or "")
    if match.status == "relabel":
        return f"relabel {match.cost:g}"
    if match.status == "replace":
        return f"replace {match.cost:g} (unrelated statements: nothing in common)"
    return match.status


def _truncate_tip(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
