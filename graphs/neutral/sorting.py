"""``sorted(xs)`` as the copy and the in-place sort a port writes.

Python's ``sorted(xs)`` is a sorted copy: ``t = list(xs); t.sort()``, then ``t`` where the
call stood. Java (``Collections.sort(xs)``), C# (``xs.Sort()``), C++ (``sort(xs.begin(),
xs.end())``) and JavaScript (``xs.sort()``) write the in-place sort, usually on the list
itself; with :mod:`graphs.neutral.copies` (a copy of a local not used again is the local),
``return sorted(xs)`` and ``Collections.sort(xs); return xs;`` are one graph.

Only ``sorted`` of one operand without a key or an order is rewritten.
"""

from __future__ import annotations

from graphs.neutral.tokens import matching, operand_end, render_tokens, split_label

__all__ = ["expand_sorted"]

_DATA = "data"
_NOT_EXPANDED = frozenset({"entry", "param", "function"})


def expand_sorted(order: list[int], labels: dict[int, str | None], kinds: dict[int, str],
                  edges: list[tuple[int, int, dict]], fresh: list[str]
                  ) -> tuple[list[int], list[tuple[int, int, dict]], dict[int, int]]:
    """Every ``sorted(x)`` as ``t = list(x); t.sort()`` before its statement (see the module
    doc). ``labels`` and ``kinds`` get the new nodes; returns the node order, the edges and
    the new nodes (id -> the statement they came from).

    Examples
    --------
    >>> labels = {0: "def f(_)", 1: "v0", 2: "return sorted(v0)"}
    >>> kinds = {0: "entry", 1: "param", 2: "return"}
    >>> c = {"type": "control", "dep": "control"}
    >>> edges = [(0, 1, c), (0, 2, c), (1, 2, {"type": "data", "var": "v0", "dep": "data"})]
    >>> order, edges, n = expand_sorted([0, 1, 2], labels, kinds, edges, ["v00f_1"])
    >>> [labels[k] for k in order], n
    (['def f(_)', 'v0', 'v00f_1 = list(v0)', 'v00f_1.sort()', 'return v00f_1'], {3: 2, 4: 2})
    """
    if not any("sorted(" in (labels[n] or "") for n in order):
        return order, edges, {}
    next_id = max(order, default=0) + 1
    out_order: list[int] = []
    origins: dict[int, int] = {}
    for n in order:
        if kinds.get(n) in _NOT_EXPANDED or not fresh:
            out_order.append(n)
            continue
        toks = split_label(labels[n] or "")
        at = _sorted_call(toks)
        if at is None:
            out_order.append(n)
            continue
        start, close = at
        value = toks[start + 2:close]
        t = fresh.pop(0)
        d, s = next_id, next_id + 1
        next_id += 2
        labels[d] = render_tokens([t, "=", "list", "(", *value, ")"])
        labels[s] = render_tokens([t, ".", "sort", "(", ")"])
        kinds[d], kinds[s] = "declaration", "statement"
        statement = [*toks[:start], t, *toks[close + 1:]]
        labels[n] = render_tokens(statement)
        reads = set(value)
        stays = set(statement)
        new: list[tuple[int, int, dict]] = []
        for u, v, a in edges:
            if v != n or u == n:
                new.append((u, v, a))
                continue
            if a.get("type") == "control":
                new += [(u, v, a), (u, d, dict(a)), (u, s, dict(a))]
                continue
            var = a.get("var")
            if var in reads:
                new.append((u, d, dict(a)))
            if var not in reads or var in stays:
                new.append((u, v, a))
        new += [(d, s, {"type": _DATA, "var": t, "dep": _DATA}),
                (d, n, {"type": _DATA, "var": t, "dep": _DATA}),
                (s, n, {"type": _DATA, "var": t, "dep": _DATA})]
        edges = new
        out_order += [d, s, n]
        origins[d] = origins[s] = n
    return out_order, edges, origins


def _sorted_call(toks: list[str]) -> tuple[int, int] | None:
    """``(start, close)`` of the first ``sorted(x)`` of one operand, else None."""
    for i in range(len(toks) - 3):
        if toks[i] != "sorted" or toks[i + 1] != "(" or (i and toks[i - 1] in (".", "?.")):
            continue
        close = matching(toks, i + 1)
        ends = operand_end(toks, i + 2)
        if ends and ends[-1] == close:
            return i, close
    return None
