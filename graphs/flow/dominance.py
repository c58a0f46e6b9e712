"""Post-dominators and control dependences of a control-flow graph given as successor lists.

Plain graph algorithms: nothing here knows about syntax or languages. :mod:`graphs.pdg.cfg`
builds the successor lists, :mod:`graphs.pdg.build` turns the dependences into ``control`` edges.
"""

from __future__ import annotations

from collections.abc import Sequence


def postdominators(succ: Sequence[Sequence[int]], exit_node: int) -> list[int]:
    """Immediate post-dominators (Cooper, Harvey and Kennedy on the reversed graph).

    Parameters
    ----------
    succ : sequence of sequence of int
        Successor lists of nodes ``0..n-1``; ``exit_node`` is one of them.
    exit_node : int
        The node every path ends in.

    Returns
    -------
    list of int
        ``ipdom[v]``; ``ipdom[exit_node] == exit_node``; -1 for nodes that cannot reach the
        exit.

    Examples
    --------
    >>> # 0: if -> 1 or 2 -> 3 (exit)
    >>> postdominators([[1, 2], [3], [3], []], 3)
    [3, 3, 3, 3]
    """
    po, order = _exit_postorder(_predecessors(succ), exit_node)
    return _ipdom(succ, exit_node, po, order)


def _predecessors(succ: Sequence[Sequence[int]]) -> list[list[int]]:
    """Predecessor lists, each in increasing node order."""
    preds: list[list[int]] = [[] for _ in succ]
    for v, targets in enumerate(succ):
        for w in targets:
            preds[w].append(v)
    return preds


def _exit_postorder(preds: Sequence[Sequence[int]], exit_node: int
                    ) -> tuple[list[int], list[int]]:
    """Postorder of the reversed graph from the exit (iterative DFS): the postorder number
    of each node (-1 if it cannot reach the exit) and the nodes in postorder."""
    po = [-1] * len(preds)
    order: list[int] = []
    seen = [False] * len(preds)
    seen[exit_node] = True
    stack = [(exit_node, iter(preds[exit_node]))]
    while stack:
        v, it = stack[-1]
        for w in it:
            if not seen[w]:
                seen[w] = True
                stack.append((w, iter(preds[w])))
                break
        else:
            stack.pop()
            po[v] = len(order)
            order.append(v)
    return po, order


def _ipdom(succ: Sequence[Sequence[int]], exit_node: int, po: list[int],
           order: list[int]) -> list[int]:
    """The fixed point of :func:`postdominators`, given :func:`_exit_postorder`."""
    ipdom = [-1] * len(succ)
    ipdom[exit_node] = exit_node
    rpo = order[::-1]
    # A node with one successor is post-dominated by it: the first pass sets that (the
    # successor is its DFS parent, so it comes earlier) and later passes cannot change it.
    # Only branching nodes are iterated again.
    branching = [v for v in rpo if len(succ[v]) > 1 and v != exit_node]
    pending = rpo
    changed = True
    while changed:
        changed = False
        for v in pending:
            if v == exit_node:
                continue
            new = -1
            for w in succ[v]:  # predecessors of v in the reversed graph
                if ipdom[w] == -1:
                    continue
                if new == -1:
                    new = w
                    continue
                a, b = w, new
                while a != b:
                    while po[a] < po[b]:
                        a = ipdom[a]
                    while po[b] < po[a]:
                        b = ipdom[b]
                new = a
            if new != ipdom[v]:
                ipdom[v] = new
                changed = True
        pending = branching
    return ipdom


def control_dependences(succ: Sequence[Sequence[int]], entry: int,
                        exit_node: int) -> list[tuple[int, int]]:
    """Control dependences ``(controller, dependent)`` of a CFG (Ferrante et al.).

    The CFG is augmented the standard way with an edge entry -> exit, so statements that
    run whenever the function runs depend on the entry. Nodes that cannot reach the exit
    (an infinite loop through ``goto``) get an edge to the exit first, so that every node
    has a post-dominator. A loop predicate depends on itself.

    Parameters
    ----------
    succ : sequence of sequence of int
        Successor lists of nodes ``0..n-1``, including the exit node.
    entry, exit_node : int

    Returns
    -------
    list of (int, int)
        Sorted, without duplicates.

    Examples
    --------
    >>> # 0 entry, 1: if -> 2 (then) -> 3 (after), 1 -> 3, 3 -> 4 exit
    >>> control_dependences([[1], [2, 3], [3], [4], []], 0, 4)
    [(0, 1), (0, 3), (1, 2)]
    """
    return sorted({(a, r) for a, r, _ in control_dependences_in_place(
        [list(dict.fromkeys(s)) for s in succ], entry, exit_node)})


def control_dependences_in_place(succ: list[list[int]], entry: int, exit_node: int,
                                 per_successor: bool = False) -> set[tuple[int, int, int]]:
    """:func:`control_dependences` of successor lists without duplicates, as a set of
    ``(controller, dependent, successor)``: the successor of the controller through which
    the dependence arises (which outcome of the branch it hangs on).

    Adds the augmenting edges to ``succ`` (only edges to the exit: the caller may still use
    the lists for an analysis that ignores the exit), which saves copying them. With
    ``per_successor`` every outcome of a branch is followed to its end even where two
    outcomes share a tail (fall-through between switch cases); otherwise a dependent
    shared by two outcomes is listed with the first only, which keeps a wide multi-way
    branch linear.
    """
    if exit_node not in succ[entry]:
        succ[entry].append(exit_node)
    po, order = _exit_postorder(_predecessors(succ), exit_node)
    if len(order) < len(succ):  # some node cannot reach the exit
        _connect_to_exit(succ, exit_node)
        ipdom = postdominators(succ, exit_node)
    else:
        ipdom = _ipdom(succ, exit_node, po, order)
    deps = set()
    for a, targets in enumerate(succ):
        if len(targets) < 2:
            continue
        stop = ipdom[a]
        marked: set[int] = set()
        for b in targets:
            r = b
            if per_successor:
                marked = set()
            # the rest of the chain is marked already when we meet a marked node: keeps
            # a wide multi-way branch (a 5,000-case switch) linear
            while r != stop and r != exit_node and r != -1 and r not in marked:
                marked.add(r)
                deps.add((a, r, b))
                r = ipdom[r]
    return deps


def _connect_to_exit(succ: list[list[int]], exit_node: int) -> None:
    """Give nodes that cannot reach the exit an edge to it (latest node first)."""
    n = len(succ)
    preds = _predecessors(succ)
    reach = [False] * n

    def mark(start: int) -> None:
        reach[start] = True
        stack = [start]
        while stack:
            v = stack.pop()
            for p in preds[v]:
                if not reach[p]:
                    reach[p] = True
                    stack.append(p)

    mark(exit_node)
    for v in range(n - 1, -1, -1):
        if not reach[v]:
            succ[v].append(exit_node)
            preds[exit_node].append(v)
            mark(v)
