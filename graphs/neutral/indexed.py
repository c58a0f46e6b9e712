"""Indexed loops over a collection as the loop over its elements, with what the neutral
vocabulary knows.

Within one language, :func:`graphs.build_pdg` writes ``for (int i = 0; i < xs.size();
i++)`` whose body reads the index only as ``xs[i]`` as ``for x in xs`` (see
:mod:`graphs.canon.idioms`), but only for the length and element spellings it knows per language
(not C++'s ``s.length()``, not Java's ``s.charAt(i)``). In the neutral vocabulary every
length is ``len(xs)`` and every element access ``xs[i]``, so the same rule applies again
here, to a loop ``for i in range(0, len(xs))`` (a counted loop after
:func:`graphs.neutral.neutral_pdg`) when

- ``xs`` is a local (or parameter) and ``i`` the loop's own local;
- in the statements the loop controls (transitively), ``i`` occurs only as ``xs[i]`` and
  ``xs`` only there; no ``xs[i]`` is written (assigned, incremented, taken by ``&``) or read
  inside a lambda;
- ``i`` occurs nowhere outside the loop.

The header becomes ``for x in xs`` (``x`` a new local), each ``xs[i]`` reads ``x``; the
header's definitions of ``i`` are of ``x``, and the loop's statements no longer read ``xs``
(the header does).

The other way round, Python's ``for i, x in enumerate(xs)`` reads the index too: it is the
indexed loop ``for i in range(0, len(xs))`` with ``xs[i]`` where it read ``x``
(:func:`enumerate_loops`), as C-family ports write it, when ``x`` is not assigned in the
loop and occurs nowhere outside it.
"""

from __future__ import annotations

from graphs.neutral.tokens import is_local, render_tokens, split_label

__all__ = ["enumerate_loops", "indexed_loops"]

_DATA = "data"
_WRITES = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                     "**=", "//=", ">>>=", "++", "--"})


def indexed_loops(order: list[int], labels: dict[int, str | None],
                  edges: list[tuple[int, int, dict]], fresh: list[str]
                  ) -> tuple[list[tuple[int, int, dict]], int]:
    """Rewrite every indexed loop that only reads ``xs[i]`` (see the module doc).

    Parameters
    ----------
    order : the nodes in program order.
    labels : per node, its neutral label (updated in place).
    edges : ``(u, v, attrs)`` of the graph.
    fresh : unused local names for the elements, taken from the front.

    Returns
    -------
    (edges, rewritten) : the new edges and how many loops were rewritten.

    Examples
    --------
    >>> labels = {0: "def f(_)", 1: "v0", 2: "for v1aa in range(0, len(v0))",
    ...           3: "print(v0[v1aa])"}
    >>> c = {"type": "control", "dep": "control"}
    >>> t = {"type": "control", "dep": "control-true"}
    >>> edges = [(0, 1, c), (0, 2, c), (2, 2, t), (2, 3, t),
    ...          (1, 2, {"type": "data", "var": "v0", "dep": "data"}),
    ...          (1, 3, {"type": "data", "var": "v0", "dep": "data"}),
    ...          (2, 3, {"type": "data", "var": "v1aa", "dep": "data"})]
    >>> edges, n = indexed_loops([0, 1, 2, 3], labels, edges, ["v000_9"])
    >>> labels[2], labels[3], n
    ('for v000_9 in v0', 'print(v000_9)', 1)
    >>> sorted((u, v, d.get("var")) for u, v, d in edges if d["type"] == "data")
    [(1, 2, 'v0'), (2, 3, 'v000_9')]
    """
    if not any("range(0, len(" in (labels[n] or "") for n in order):
        return edges, 0
    toks = {n: split_label(labels[n] or "") for n in order}
    rewritten = 0
    for h in order:
        head = toks[h]
        if len(head) != 12 or head[0] != "for" or head[2:9] != [
                "in", "range", "(", "0", ",", "len", "("] or head[10:] != [")", ")"] or \
                head[9] == head[1]:
            continue
        i, xs = head[1], head[9]
        if not is_local(i) or not is_local(xs):
            continue
        body = _controlled(h, edges)
        if not body or not _only_elements(body, toks, i, xs):
            continue
        if any(i in toks[n] for n in order if n != h and n not in body):
            continue
        x = fresh.pop(0)
        labels[h] = render_tokens(["for", x, "in", xs])
        toks[h] = split_label(labels[h])
        for n in body:
            labels[n] = render_tokens(_replaced(toks[n], i, xs, x))
            toks[n] = split_label(labels[n])
        edges = _rewired(h, body, i, xs, x, edges)
        rewritten += 1
        if not fresh:
            break
    return edges, rewritten


def _controlled(h: int, edges: list[tuple[int, int, dict]]) -> set[int]:
    """The nodes ``h`` controls, transitively (``h`` itself left out)."""
    children: dict[int, list[int]] = {}
    for u, v, d in edges:
        if d.get("type") == "control":
            children.setdefault(u, []).append(v)
    seen: set[int] = set()
    stack = [v for v in children.get(h, []) if v != h]
    while stack:
        n = stack.pop()
        if n in seen or n == h:
            continue
        seen.add(n)
        stack.extend(children.get(n, []))
    return seen


def _only_elements(body: set[int], toks: dict[int, list[str]], i: str, xs: str) -> bool:
    """Whether ``i`` and ``xs`` occur in ``body`` only as ``xs[i]``, read, outside lambdas."""
    for n in body:
        seq = toks[n]
        k = 0
        while k < len(seq):
            t = seq[k]
            if t == xs:
                if seq[k + 1:k + 4] != ["[", i, "]"] or (k and seq[k - 1] in (".", "?.")):
                    return False
                after = seq[k + 4] if k + 4 < len(seq) else ""
                before = seq[k - 1] if k else ""
                if after in _WRITES or before in ("++", "--", "&") or "=>" in seq:
                    return False
                k += 4
                continue
            if t == i:
                return False
            k += 1
    return True


def _replaced(seq: list[str], i: str, xs: str, x: str) -> list[str]:
    out: list[str] = []
    k = 0
    while k < len(seq):
        if seq[k] == xs and seq[k + 1:k + 4] == ["[", i, "]"]:
            out.append(x)
            k += 4
        else:
            out.append(seq[k])
            k += 1
    return out


def _rewired(h: int, body: set[int], i: str, xs: str, x: str,
             edges: list[tuple[int, int, dict]]) -> list[tuple[int, int, dict]]:
    out: list[tuple[int, int, dict]] = []
    for u, v, d in edges:
        var = d.get("var")
        if d.get("type") == _DATA and var == xs and v in body:
            continue  # the loop's statements read the element, the header reads xs
        if d.get("type") == _DATA and var == i:
            d = {**d, "var": x}
        out.append((u, v, d))
    return out


def enumerate_loops(order: list[int], labels: dict[int, str | None],
                    edges: list[tuple[int, int, dict]]
                    ) -> tuple[list[tuple[int, int, dict]], int]:
    """Rewrite every ``for i, x in enumerate(xs)`` as the indexed loop (see the module doc).

    Returns the edges and how many loops were rewritten; ``labels`` is updated in place.

    Examples
    --------
    >>> labels = {0: "def f(_)", 1: "v0", 2: "for v1aa, v2bb in enumerate(v0)",
    ...           3: "print(v1aa * v2bb)"}
    >>> c = {"type": "control", "dep": "control"}
    >>> t = {"type": "control", "dep": "control-true"}
    >>> data = {"type": "data", "dep": "data"}
    >>> edges = [(0, 1, c), (0, 2, c), (2, 2, t), (2, 3, t), (1, 2, {**data, "var": "v0"}),
    ...          (2, 3, {**data, "var": "v1aa"}), (2, 3, {**data, "var": "v2bb"})]
    >>> edges, n = enumerate_loops([0, 1, 2, 3], labels, edges)
    >>> labels[2], labels[3], n
    ('for v1aa in range(0, len(v0))', 'print(v1aa * v0[v1aa])', 1)
    >>> sorted((u, v, d["var"]) for u, v, d in edges if d["type"] == "data")
    [(1, 2, 'v0'), (1, 3, 'v0'), (2, 3, 'v1aa')]
    """
    if not any("enumerate(" in (labels[n] or "") for n in order):
        return edges, 0
    toks = {n: split_label(labels[n] or "") for n in order}
    rewritten = 0
    for h in order:
        head = toks[h]
        if len(head) != 9 or head[0] != "for" or head[2] != "," or head[4:7] != [
                "in", "enumerate", "("] or head[8] != ")":
            continue
        i, x, xs = head[1], head[3], head[7]
        if not (is_local(i) and is_local(x) and is_local(xs)) or len({i, x, xs}) < 3:
            continue
        body = _controlled(h, edges)
        if any(x in toks[n] for n in order if n != h and n not in body):
            continue
        if any(_assigned(toks[n], x) for n in body):
            continue
        labels[h] = render_tokens(["for", i, "in", "range", "(", "0", ",", "len", "(", xs,
                                   ")", ")"])
        toks[h] = split_label(labels[h])
        for n in body:
            if x in toks[n]:
                labels[n] = render_tokens([y for t in toks[n]
                                           for y in ([xs, "[", i, "]"] if t == x else [t])])
                toks[n] = split_label(labels[n])
        into = [(u, a) for u, v, a in edges if v == h and a.get("var") == xs
                and a.get("type") == _DATA]
        out: list[tuple[int, int, dict]] = []
        for u, v, a in edges:
            if a.get("type") == _DATA and a.get("var") == x:
                if u == h and v in body and (h, v, i) not in {
                        (p, q, b.get("var")) for p, q, b in edges}:
                    out.append((u, v, {**a, "var": i}))
                if u == h:
                    out.extend((y, v, dict(b)) for y, b in into if v in body)
                continue
            out.append((u, v, a))
        edges = out
        rewritten += 1
    return edges, rewritten


def _assigned(seq: list[str], x: str) -> bool:
    """Whether ``seq`` writes ``x`` as a whole."""
    if len(seq) > 1 and seq[0] == x and seq[1] in _WRITES:
        return True
    if seq[:1] == ["for"] and "in" in seq and x in seq[:seq.index("in")]:
        return True
    return any(seq[k] in ("++", "--") and seq[k + 1] == x for k in range(len(seq) - 1))
