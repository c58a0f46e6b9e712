"""Reaching definitions over a CFG given as successor lists, and the def-use (data
dependence) edges they give: the classic gen/kill fixed point with Python ints as bitsets
(loop-carried dependences come out of the back edges), a one-scan shortcut for a CFG that is
a single path, and the reverse postorder both iterate in. Plain graph algorithms, like
:mod:`graphs.flow.dominance`: what a node defines and uses comes from :mod:`graphs.pdg.dataflow`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["data_dependences", "path_data_dependences", "reaching_definitions",
           "reverse_postorder"]


def reaching_definitions(succ: Sequence[Sequence[int]], defs: Sequence[Sequence[tuple[str,
                         bool]]], entry: int = 0, *, order: Sequence[int] | None = None
                         ) -> tuple[list[int], list[int], dict[str, int]]:
    """Reaching definitions over a CFG with int bitsets.

    Parameters
    ----------
    succ : sequence of sequence of int
        Successors of each node ``0..n-1`` (other ids, e.g. an exit, are ignored).
    defs : sequence of sequence of (str, bool)
        For each node, the variables it defines and whether the definition is strong (kills
        the other definitions of the variable) or weak.
    entry : int
        The entry node (iteration order starts there).
    order : sequence of int, optional
        ``reverse_postorder(succ, entry, len(succ))``, when the caller has it already.

    Returns
    -------
    (reach_in, def_node, var_mask)
        ``reach_in[n]``: bitset of definitions reaching the start of node ``n``;
        ``def_node[d]``: the node of definition ``d``; ``var_mask[v]``: bitset of the
        definitions of variable ``v``.

    Examples
    --------
    >>> # 0: x = 1; 1: while (...); 2: x = x + 1 (loop body)
    >>> succ = [[1], [2], [1]]
    >>> defs = [[("x", True)], [], [("x", True)]]
    >>> reach_in, def_node, mask = reaching_definitions(succ, defs)
    >>> sorted(def_node[d] for d in range(len(def_node)) if reach_in[2] >> d & 1)
    [0, 2]
    """
    n = len(succ)
    def_node: list[int] = []
    var_mask: dict[str, int] = {}
    gen = [0] * n
    strong_vars: list[list[str]] = [[] for _ in range(n)]
    for v in range(n):
        for var, strong in defs[v]:
            bit = 1 << len(def_node)
            def_node.append(v)
            var_mask[var] = var_mask.get(var, 0) | bit
            gen[v] |= bit
            if strong:
                strong_vars[v].append(var)
    if not def_node:
        return [0] * n, def_node, var_mask
    keep = [-1] * n  # complement of kill, as a mask (-1 = keep everything)
    for v in range(n):
        if strong_vars[v]:
            kill = 0
            for var in strong_vars[v]:
                kill |= var_mask[var]
            keep[v] = ~(kill & ~gen[v])
    # worklist in reverse postorder: a node is revisited only when an input changed, so
    # deep loop nests cost O(nodes * changes) rather than a full pass per nesting level.
    # Definitions are pushed along the edges (no predecessor lists to build): reach_in[w]
    # accumulates what w's predecessors send, which only grows.
    if order is None:
        order = reverse_postorder(succ, entry, n)
    reach_in = [0] * n
    reach_out = [0] * n
    queue = deque(order)
    queued = [True] * n
    while queue:
        v = queue.popleft()
        queued[v] = False
        out = gen[v] | (reach_in[v] & keep[v])
        if out != reach_out[v]:
            reach_out[v] = out
            for w in succ[v]:
                if 0 <= w < n:
                    acc = reach_in[w] | out
                    if acc != reach_in[w]:
                        reach_in[w] = acc
                        if not queued[w]:
                            queued[w] = True
                            queue.append(w)
    return reach_in, def_node, var_mask


def data_dependences(reach_in: Sequence[int], def_node: Sequence[int],
                     var_mask: dict[str, int],
                     uses: Sequence[Sequence[str]]) -> list[tuple[int, int, str]]:
    """Def-use edges ``(definition node, use node, variable)`` from reaching definitions.

    Parameters
    ----------
    reach_in, def_node, var_mask
        The result of :func:`reaching_definitions`.
    uses : sequence of sequence of str
        Variables read by each node (before its own definitions take effect).

    Returns
    -------
    list of (int, int, str)
        Sorted, without duplicates.

    Examples
    --------
    >>> data_dependences([0, 1], [0], {"x": 1}, [[], ["x"]])
    [(0, 1, 'x')]
    """
    edges = set()
    for v, names in enumerate(uses):
        reach = reach_in[v]
        if not reach:
            continue
        for var in names:
            bits = reach & var_mask.get(var, 0)
            while bits:
                low = bits & -bits
                edges.add((def_node[low.bit_length() - 1], v, var))
                bits ^= low
    return sorted(edges)


def path_data_dependences(path: Sequence[int], defs: Sequence[Sequence[tuple[str, bool]]],
                          uses: Sequence[Sequence[str]]) -> set[tuple[int, int, str]]:
    """Def-use edges of a CFG that is one path: what :func:`reaching_definitions` and
    :func:`data_dependences` give there, by a single scan.

    Parameters
    ----------
    path : sequence of int
        The nodes in execution order, each run once, the only predecessor of each being
        the one before it (the first one's predecessor defines nothing).
    defs, uses : sequence of sequence
        As for :func:`reaching_definitions` and :func:`data_dependences`, indexed by node.

    Returns
    -------
    set of (int, int, str)

    Examples
    --------
    >>> # 1: x = 1; 2: x = x + 1; 3: a[0] = x (weak def of a); 4: use a, x
    >>> defs = [[], [("x", True)], [("x", True)], [("a", False)], []]
    >>> uses = [[], [], ["x"], ["a", "x"], ["a", "x"]]
    >>> sorted(path_data_dependences([1, 2, 3, 4], defs, uses))
    [(1, 2, 'x'), (2, 3, 'x'), (2, 4, 'x'), (3, 4, 'a')]
    """
    edges: set[tuple[int, int, str]] = set()
    reaching: dict[str, list[int]] = {}  # variable -> nodes whose definitions reach here
    for v in path:
        for var in uses[v]:
            for d in reaching.get(var, ()):
                edges.add((d, v, var))
        for var, strong in defs[v]:
            nodes = reaching.get(var)
            if strong or nodes is None:
                # a strong definition kills the others, but not this node's weak ones
                reaching[var] = [v]
            elif nodes[-1] != v:
                nodes.append(v)
    return edges


def reverse_postorder(succ: Sequence[Sequence[int]], entry: int, n: int) -> list[int]:
    """Reverse postorder from ``entry`` (iterative DFS), then unreachable nodes in id order.

    In a reducible CFG an edge ``a -> b`` with ``b`` no later than ``a`` in this order is a
    loop's back edge.

    Parameters
    ----------
    succ : sequence of sequence of int
        Successors (ids outside ``0..n-1``, such as an exit, are ignored).
    entry, n : int
        The start node and the number of nodes.

    Returns
    -------
    list of int

    Examples
    --------
    >>> reverse_postorder([[1], [2, 3], [1], []], 0, 4)  # 1 -> 2 -> 1 is a loop
    [0, 1, 3, 2]
    """
    seen = [False] * n
    post: list[int] = []
    if 0 <= entry < n:
        seen[entry] = True
        stack = [(entry, iter(succ[entry]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if 0 <= w < n and not seen[w]:
                    seen[w] = True
                    stack.append((w, iter(succ[w])))
                    break
            else:
                stack.pop()
                post.append(v)
    post.reverse()
    post.extend(v for v in range(n) if not seen[v])
    return post
