"""Edges of the I/O model (:mod:`graphs.neutral.io`): which function each node belongs
to, the edges of a statement split in parts or of dropped plumbing, and the loops that
hold a node."""

from __future__ import annotations

__all__ = ["control_parents", "edges_without", "function_bodies", "io_chain",
           "loop_collapsed", "loop_members", "read_ahead_edges", "split_edges"]

_LOOPS = frozenset({"while", "for", "foreach", "do", "loop"})
_EFFECT = "effect"


def function_bodies(order: list[int], kinds: dict[int, str], toks: dict[int, list[str]],
               edges: list[tuple[int, int, dict]]
               ) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Each node's function (the function node it is controlled from), and each function's
    body (not the bodies of functions inside it), for the nodes ``order`` of kinds
    ``kinds`` and labels ``toks`` joined by control ``edges``.

    >>> edges = [(0, 1, {"type": "control"}), (1, 2, {"type": "control"})]
    >>> function_bodies([0, 1, 2], {0: "entry", 1: "function", 2: "return"},
    ...                 {1: ["def", "f"]}, edges)
    ({2: 1, 0: 0, 1: 1}, {1: [2]})
    """
    children: dict[int, list[int]] = {}
    for u, v, d in edges:
        if d.get("type") == "control" and u != v:
            children.setdefault(u, []).append(v)
    heads = [n for n in order if kinds.get(n) in ("function", "entry")]
    owner: dict[int, int] = {}
    bodies: dict[int, list[int]] = {}
    for f in heads:
        body: list[int] = []
        stack = list(children.get(f, ()))
        seen = {f}
        while stack:
            m = stack.pop()
            if m in seen or kinds.get(m) in ("function", "entry"):
                continue
            seen.add(m)
            body.append(m)
            stack.extend(children.get(m, ()))
        for m in body:
            owner.setdefault(m, f)
        if kinds.get(f) == "function" or toks.get(f, [])[:1] == ["def"]:
            bodies[f] = sorted(body)
    for f in heads:
        owner.setdefault(f, f)
    # a function's own body nodes belong to it, not to the entry that contains it
    for f, body in bodies.items():
        for m in body:
            owner[m] = f
    return owner, {f: b for f, b in bodies.items() if kinds.get(f) == "function"}


def edges_without(edges: list[tuple[int, int, dict]], dropped: set[int]
             ) -> list[tuple[int, int, dict]]:
    """The edges of the nodes not ``dropped``; an effect edge through a dropped node is
    bridged (its predecessors are linked to its successors).

    >>> effect = {"type": "data", "var": "<effects>", "dep": "effect"}
    >>> [(u, v) for u, v, _d in edges_without([(0, 1, effect), (1, 2, effect)], {1})]
    [(0, 2)]
    """
    if not dropped:
        return edges
    out = [(u, v, d) for u, v, d in edges if u not in dropped and v not in dropped]
    effect = [(u, v, str(d.get("dep")).endswith("-carried")) for u, v, d in edges
              if str(d.get("dep", "")).startswith(_EFFECT)]
    for n in dropped:
        into = [(u, c) for u, v, c in effect if v == n and u != n]
        out_of = [(v, c) for u, v, c in effect if u == n and v != n]
        effect = [(u, v, c) for u, v, c in effect if n not in (u, v)]
        # without duplicates: bridging node after node multiplies them (a long chain of
        # calls made millions of copies of the same edge and ran out of memory)
        effect = list(dict.fromkeys(
            effect + [(u, v, c1 or c2) for u, c1 in into for v, c2 in out_of]))
    kept = {(u, v) for u, v, d in out if str(d.get("dep", "")).startswith(_EFFECT)}
    for u, v, carried in effect:
        if (u, v) not in kept and u not in dropped and v not in dropped:
            kept.add((u, v))
            out.append((u, v, {"type": "data", "var": "<effects>",
                               "dep": _EFFECT + ("-carried" if carried else "")}))
    return out


def split_edges(edges: list[tuple[int, int, dict]], n: int, ids: list[int],
                 toks: dict[int, list[str]]) -> list[tuple[int, int, dict]]:
    """Edges of a statement split into ``ids`` (``ids[0] == n``): what controls it
    controls each part; a variable read reaches the parts that read it; a definition
    leaves from the part that makes it (``toks``: each part's label).

    >>> edges = [(0, 1, {"type": "control"}), (1, 3, {"type": "data", "var": "v2"})]
    >>> toks = {1: ["v1", "=", "read_int", "(", ")"], 2: ["v2", "=", "read_int", "(", ")"]}
    >>> [(u, v) for u, v, _d in split_edges(edges, 1, [1, 2], toks)]
    [(0, 1), (0, 2), (2, 3)]
    """
    out: list[tuple[int, int, dict]] = []
    for u, v, d in edges:
        if v == n and u != n:
            if d.get("type") == "control":
                out.extend((u, i, dict(d)) for i in ids)
                continue
            var = d.get("var")
            readers = [i for i in ids if var in toks[i][1:]]
            out.extend((u, i, dict(d)) for i in readers or ids[:1])
            continue
        if u == n and v != n and d.get("type") != "control":
            var = d.get("var")
            writer = next((i for i in ids if var in toks[i][:toks[i].index("=")]), n)
            out.append((writer, v, d))
            continue
        out.append((u, v, d))
    return out


def loop_members(kept: list[int], kinds: dict[int, str],
                  edges: list[tuple[int, int, dict]]) -> dict[int, set[int]]:
    """Per loop header of ``kept`` (by ``kinds``), the nodes it controls through
    ``edges`` (transitively, itself included).

    >>> loop_members([0, 1, 2], {0: "for", 1: "statement", 2: "statement"},
    ...              [(0, 1, {"type": "control"})])
    {0: {0, 1}}
    """
    children: dict[int, list[int]] = {}
    for u, v, d in edges:
        if d.get("type") == "control" and u != v:
            children.setdefault(u, []).append(v)
    out = {}
    for n in kept:
        if kinds.get(n) not in _LOOPS:
            continue
        seen = {n}
        stack = list(children.get(n, ()))
        while stack:
            m = stack.pop()
            if m in seen or kinds.get(m) in ("function", "entry"):
                continue
            seen.add(m)
            stack.extend(children.get(m, ()))
        out[n] = seen
    return out


def control_parents(edges: list[tuple[int, int, dict]]) -> dict[int, list[int]]:
    """Per node, the nodes controlling it (its own loop header excepted), in edge order.

    >>> control_parents([(0, 1, {"type": "control"}), (1, 1, {"type": "control"})])
    {1: [0]}
    """
    out: dict[int, list[int]] = {}
    for u, v, d in edges:
        if d.get("type") == "control" and u != v:
            out.setdefault(v, []).append(u)
    return out


def loop_collapsed(edges: list[tuple[int, int, dict]], loop: int, store: int,
                   alloc: int | None) -> list[tuple[int, int, dict]]:
    """The edges once a loop whose one statement ``store`` filled a list is that statement
    alone (``a = read_list(int)``): what controlled the loop controls it, it takes no
    input (the loop's index and bound, the allocation it filled), and the uses of the
    allocation ``alloc`` read it instead (the edges of the loop and the allocation stay,
    for :func:`edges_without` to drop with them).

    >>> control = {"type": "control"}
    >>> data = {"type": "data", "var": "v1"}
    >>> edges = [(0, 1, control), (0, 2, control), (2, 3, control), (1, 3, data),
    ...          (1, 4, data), (3, 4, data)]
    >>> sorted((u, v) for u, v, _d in loop_collapsed(edges, 2, 3, 1))
    [(0, 1), (0, 2), (0, 3), (1, 4), (3, 4)]
    """
    gone = {loop} if alloc is None else {loop, alloc}
    out = [(u, v, d) for u, v, d in edges if v != store]
    out += [(u, store, dict(d)) for u, v, d in edges
            if v == loop and u != loop and d.get("type") == "control"]
    have = {(v, d.get("var")) for u, v, d in out if u == store}
    out += [(store, v, dict(d)) for u, v, d in edges
            if u == alloc and v not in gone and v != store and d.get("type") != "control"
            and (v, d.get("var")) not in have]
    return [(u, v, d) for u, v, d in out if not (u == v == store)]


def io_chain(kept: list[int], edges: list[tuple[int, int, dict]], io: list[int],
             kinds: dict[int, str], owner: dict[int, int | None]
             ) -> list[tuple[int, int, dict]]:
    """Effect edges of reads and prints: one chain in program order per function
    (``owner``: node -> its function), carried round each loop holding I/O; other calls'
    effect edges through them are bridged. ``kept``: the nodes in program order; ``io``:
    those that read or print.

    >>> control = {"type": "control"}
    >>> out = io_chain([0, 1, 2], [(0, 1, control), (0, 2, control)], [1, 2],
    ...                {0: "entry", 1: "statement", 2: "statement"}, {1: 0, 2: 0})
    >>> [(u, v, d["dep"]) for u, v, d in out if d.get("dep") == "effect"]
    [(1, 2, 'effect')]
    """
    if not io:
        return edges
    io_set = set(io)
    chain = [(u, v, d) for u, v, d in edges if str(d.get("dep", "")).startswith(_EFFECT)]
    rest = [(u, v, d) for u, v, d in edges if not str(d.get("dep", "")).startswith(_EFFECT)]
    links = [(u, v, str(d.get("dep")).endswith("-carried")) for u, v, d in chain]
    for n in io:  # other calls keep their order through the I/O they no longer touch
        into = [(u, c) for u, v, c in links if v == n and u != n]
        out_of = [(v, c) for u, v, c in links if u == n and v != n]
        links = [(u, v, c) for u, v, c in links if n not in (u, v)]
        links = list(dict.fromkeys(  # no duplicates, as in edges_without
            links + [(u, v, c1 or c2) for u, c1 in into for v, c2 in out_of]))
    position = {n: i for i, n in enumerate(kept)}
    by_owner: dict[int | None, list[int]] = {}
    for n in io:
        by_owner.setdefault(owner.get(n), []).append(n)
    for nodes in by_owner.values():
        nodes.sort(key=position.__getitem__)
        links += [(a, b, False) for a, b in zip(nodes, nodes[1:], strict=False)]
    for members in loop_members(kept, kinds, rest).values():
        held = sorted((n for n in members if n in io_set), key=position.__getitem__)
        if held:
            links.append((held[-1], held[0], True))
    seen = set()
    for u, v, carried in links:
        if (u, v, carried) not in seen:
            seen.add((u, v, carried))
            rest.append((u, v, {"type": "data", "var": "<effects>",
                                "dep": _EFFECT + ("-carried" if carried else "")}))
    return rest



def read_ahead_edges(edges: list[tuple[int, int, dict]], nodes: tuple[int, int, int],
                     name: str, index: str, counted: tuple[list[str], str] | None
                     ) -> list[tuple[int, int, dict]]:
    """``edges`` once a loop's token reads are read ahead into the list ``name``: ``nodes``
    are the loop, the new list read (under the loop's control parents) and the statement
    that now reads ``name[index]`` (fed by the list and the loop's index); with ``counted``
    (:func:`~graphs.neutral.io_lists.counted_by_list`: the loop's new header and the local
    it counted to, now ``len(name)``), the loop reads the list instead of that local.

    >>> read_ahead_edges([(0, 3, {"type": "control"}), (1, 3, {"type": "data", "var": "n"})],
    ...                  (3, 5, 4), "xs", "i", ([], "n"))[2:]  # doctest: +NORMALIZE_WHITESPACE
    [(5, 4, {'type': 'data', 'var': 'xs', 'dep': 'data'}),
     (3, 4, {'type': 'data', 'var': 'i', 'dep': 'data'}),
     (5, 3, {'type': 'data', 'var': 'xs', 'dep': 'data'})]
    """
    loop, read, user = nodes
    out = [*edges, *[(u, read, dict(d)) for u, v, d in edges
                     if v == loop and u != loop and d.get("type") == "control"]]
    out.append((read, user, {"type": "data", "var": name, "dep": "data"}))
    if not any(u == loop and v == user and d.get("var") == index for u, v, d in out):
        out.append((loop, user, {"type": "data", "var": index, "dep": "data"}))
    if counted is None:
        return out
    kept = [(u, v, d) for u, v, d in out
            if not (v == loop and d.get("type") == "data" and d.get("var") == counted[1])]
    return [*kept, (read, loop, {"type": "data", "var": name, "dep": "data"})]
