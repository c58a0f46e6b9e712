"""Copies of a local that is not used again, read as the local itself.

``let p = arr; p.sort(); return p[0];`` and ``arr.sort(); return arr[0];`` compute the same
when ``arr`` is not mentioned after the copy (``t = list(s)`` is a copy too): whether the
language copies (C++ value semantics) or aliases (Java, JavaScript, Python references)
makes no difference then, and ports write either. So a top-level statement ``t = s`` (two
locals) is dropped and ``t`` read as ``s`` when

- ``s`` is mentioned nowhere after it, and nothing after it assigns ``t`` again (in-place
  changes such as ``t.sort()`` are fine: ``s`` is dead);
- the copy is at the top level of its function (not in a loop or branch, where the
  statements before it may run after it).

What reached the copy on ``s`` reaches the readers of ``t``.
"""

from __future__ import annotations

import re

from graphs.neutral.tokens import is_local, render_tokens, split_label

__all__ = ["propagate_copies"]

#: ``t = s`` or ``t = list(s)`` (a cheap first test)
_COPY = re.compile(r"\w+ = (?:list\()?\w+\)?")
_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                     "**=", "//=", ">>>="})


def propagate_copies(order: list[int], labels: dict[int, str | None],
                     kinds: dict[int, str], edges: list[tuple[int, int, dict]]
                     ) -> tuple[list[int], list[tuple[int, int, dict]], int]:
    """Drop every copy ``t = s`` of a local not used again (see the module doc).

    Returns the node order and edges without the copies, and how many were dropped;
    ``labels`` is updated in place.

    Examples
    --------
    >>> labels = {0: "def f(_)", 1: "v0", 2: "vaaa = v0", 3: "vaaa.sort()",
    ...           4: "return vaaa[0]"}
    >>> kinds = {0: "entry", 1: "param", 2: "declaration", 3: "statement", 4: "return"}
    >>> c = {"type": "control", "dep": "control"}
    >>> data = {"type": "data", "dep": "data"}
    >>> edges = [(0, n, c) for n in (1, 2, 3, 4)] + [
    ...     (1, 2, {**data, "var": "v0"}), (2, 3, {**data, "var": "vaaa"}),
    ...     (3, 4, {**data, "var": "vaaa"})]
    >>> order, edges, n = propagate_copies([0, 1, 2, 3, 4], labels, kinds, edges)
    >>> order, labels[3], labels[4], n
    ([0, 1, 3, 4], 'v0.sort()', 'return v0[0]', 1)
    >>> sorted((u, v, d["var"]) for u, v, d in edges if d["type"] == "data")
    [(1, 3, 'v0'), (3, 4, 'v0')]
    """
    candidates = [d for d in order if kinds.get(d) in ("declaration", "statement")
                  and _COPY.fullmatch(labels[d] or "")]
    if not candidates:
        return order, edges, 0
    dropped = 0
    entry_controls = {(u, str(d.get("dep"))) for u, v, d in edges
                      if d.get("type") == "control" and kinds.get(u) in ("entry", "function")}
    for d in candidates:
        toks = split_label(labels[d] or "")
        if toks[2:4] == ["list", "("] and len(toks) == 6 and toks[-1] == ")":
            toks = toks[:2] + toks[4:5]  # t = list(s): a copy too
        if kinds.get(d) not in ("declaration", "statement") or len(toks) != 3 \
                or toks[1] != "=" or not is_local(toks[0]) or not is_local(toks[2]) \
                or toks[0] == toks[2]:
            continue
        t, s = toks[0], toks[2]
        parents = {(u, str(a.get("dep"))) for u, v, a in edges
                   if v == d and a.get("type") == "control"}
        if len(parents) != 1 or not parents <= entry_controls:
            continue
        later = order[order.index(d) + 1:]
        seqs = {n: split_label(labels[n] or "") for n in later}
        if any(s in seq for seq in seqs.values()):
            continue
        if any(_assigns(seq, t) for seq in seqs.values()):
            continue
        if any(t in split_label(labels[n] or "") for n in order[:order.index(d)]):
            continue
        for n in later:
            if t in seqs[n]:
                labels[n] = render_tokens([s if x == t else x for x in seqs[n]])
        into = [(u, a) for u, v, a in edges if v == d and a.get("var") == s]
        out: list[tuple[int, int, dict]] = []
        for u, v, a in edges:
            if v == d or (u == d and a.get("type") == "control"):
                continue
            if u == d:
                out.extend((y, v, {**b, "var": s}) for y, b in into)
                continue
            if a.get("var") == t:
                a = {**a, "var": s}
            out.append((u, v, a))
        edges = out
        order = [n for n in order if n != d]
        dropped += 1
    return order, edges, dropped


def _assigns(seq: list[str], t: str) -> bool:
    """Whether the label ``seq`` assigns ``t`` as a whole (``t = ...``, ``t += ...``,
    ``t++``, ``for t in ...``)."""
    if len(seq) > 1 and seq[0] == t and seq[1] in _ASSIGN | {"++", "--"}:
        return True
    if seq[:1] == ["for"] and "in" in seq and t in seq[:seq.index("in")]:
        return True
    return any(seq[i] in ("++", "--") and seq[i + 1] == t for i in range(len(seq) - 1))
