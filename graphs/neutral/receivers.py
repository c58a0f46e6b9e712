"""A call through a receiver writes the receiver, whatever the language wrote.

SPEC section 3: a call through a receiver reads and writes it (``xs.sort()``,
``sb.append(x)``). A language's PDG knows that only where the language writes a receiver:
Python's ``xs.sort()`` defines ``xs`` for the statements after it, but Java's
``Collections.sort(xs)`` and C++'s ``sort(xs.begin(), xs.end())`` are calls with ``xs`` among
their arguments. Once the call table has made them ``xs.sort()``, the statement defines
``xs`` as Python's does: a weak definition (the earlier one still reaches too), so the
readers of ``xs`` after it that the earlier definition reaches get a data edge from it,
unless they are on another branch of a condition both hang on.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from graphs.neutral.tokens import is_local, matching, split_label

__all__ = ["receiver_definitions"]

_DATA = "data"
#: ``x.m(`` at the start of a label (a cheap first test)
_RECEIVER_CALL = re.compile(r"\w+\.\w+\(")


def receiver_definitions(order: list[int], labels: dict[int, str | None],
                         kinds: dict[int, str], edges: list[tuple[int, int, dict]],
                         effectful: Callable[[str | None], bool]
                         ) -> tuple[list[tuple[int, int, dict]], int]:
    """Data edges from every statement ``x.m(...)`` (a call of unknown effect through a
    local ``x``) that does not define ``x`` yet, to the readers of ``x`` after it.

    Returns the edges and how many statements now define their receiver.

    Examples
    --------
    >>> labels = {0: "def f(_)", 1: "v0", 2: "v0.sort()", 3: "return v0[0]"}
    >>> kinds = {0: "entry", 1: "param", 2: "statement", 3: "return"}
    >>> c = {"type": "control", "dep": "control"}
    >>> edges = [(0, 1, c), (0, 2, c), (0, 3, c),
    ...          (1, 2, {"type": "data", "var": "v0", "dep": "data"}),
    ...          (1, 3, {"type": "data", "var": "v0", "dep": "data"})]
    >>> edges, n = receiver_definitions([0, 1, 2, 3], labels, kinds, edges,
    ...                                 lambda label: True)
    >>> n, sorted((u, v) for u, v, d in edges if d["type"] == "data")
    (1, [(1, 2), (1, 3), (2, 3)])
    """
    calls = [n for n in order if kinds.get(n) == "statement" and _RECEIVER_CALL.match(
        labels[n] or "")]
    if not calls:
        return edges, 0
    position = {n: i for i, n in enumerate(order)}
    parents: dict[int, list[tuple[int, str]]] = {}
    for u, v, d in edges:
        if d.get("type") == "control" and u != v:
            parents.setdefault(v, []).append((u, str(d.get("dep"))))
    added = 0
    new: list[tuple[int, int, dict]] = []
    for n in calls:
        toks = split_label(labels[n] or "")
        if kinds.get(n) != "statement" or len(toks) < 5 or not is_local(toks[0]) \
                or toks[1] != "." or toks[3] != "(" or matching(toks, 3) != len(toks) - 1 \
                or not effectful(labels[n]):
            continue
        x = toks[0]
        if any(u == n and d.get("var") == x for u, _v, d in edges):
            continue
        defs = {u for u, v, d in edges if v == n and d.get("var") == x
                and d.get("dep") == _DATA}
        readers = sorted({v for u, v, d in edges if u in defs and d.get("var") == x
                          and d.get("dep") == _DATA and v != n and v in position
                          and position[v] > position[n]
                          and _may_follow(n, v, parents)})
        for r in readers:
            new.append((n, r, {"type": _DATA, "var": x, "dep": _DATA}))
        added += bool(readers)
    return edges + new, added


def _outcomes(n: int, parents: dict[int, list[tuple[int, str]]]) -> dict[int, set[str]]:
    """Per controller above ``n`` (transitively), the outcomes ``n`` hangs on."""
    out: dict[int, set[str]] = {}
    stack = [n]
    seen = {n}
    while stack:
        m = stack.pop()
        for u, dep in parents.get(m, []):
            out.setdefault(u, set()).add(dep)
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return out


def _may_follow(n: int, r: int, parents: dict[int, list[tuple[int, str]]]) -> bool:
    """Whether ``r`` may run after ``n`` without going round a loop: no condition above
    both has them on different outcomes."""
    a, b = _outcomes(n, parents), _outcomes(r, parents)
    return all(a[c] & b[c] for c in a.keys() & b.keys())
