"""Random PDG-shaped graphs, for tests and benchmarks of the graph edit distance."""

from __future__ import annotations

import random

import networkx as nx

#: Statement labels the generated graphs draw from.
STATEMENTS: list[str] = [
    "x = 0", "i = 0", "i < n", "i++", "return x", "x += a[i]", "if (x > 0)", "throw e",
    "s = s + 1", "y = f(x)", "print(y)", "while (b)", "b = next()", "break", "continue",
]  # fmt: skip


def random_pdg(rng: random.Random, n: int, labels: list[str] | None = None) -> nx.MultiDiGraph:
    """A PDG-shaped graph: an entry, a control-dependence tree, data edges mostly forward
    (some backward, as loops make them).

    Parameters
    ----------
    rng : the random source (seed it for reproducible graphs).
    n : number of nodes, the entry included.
    labels : the statement labels to draw from (default :data:`STATEMENTS` plus ``2n``
        distinct ``stmtK`` labels).

    Returns
    -------
    networkx.MultiDiGraph with node ``label`` and edge ``type`` attributes.

    Examples
    --------
    >>> g = random_pdg(random.Random(0), 6)
    >>> g.nodes[0]["label"], g.number_of_nodes()
    ('entry', 6)
    """
    pool = labels or STATEMENTS + [f"stmt{k}" for k in range(2 * n)]
    g = nx.MultiDiGraph()
    g.add_node(0, label="entry")
    predicates = [0]
    for i in range(1, n):
        g.add_node(i, label=rng.choice(pool))
        g.add_edge(rng.choice(predicates[-3:]), i, type="control")
        if rng.random() < 0.25:
            predicates.append(i)
    for i in range(1, n):
        for _ in range(rng.choice([0, 1, 1, 2])):
            j = rng.randrange(1, n)
            if j < i and rng.random() < 0.8:
                i, j = j, i
            g.add_edge(i, j, type="data")
    return g


def mutate_pdg(rng: random.Random, g: nx.MultiDiGraph, k: int) -> nx.MultiDiGraph:
    """A candidate-like variant of ``g`` after ``k`` random edits (relabel, delete or insert
    a node, insert or delete an edge); ``g`` itself is unchanged.

    Examples
    --------
    >>> rng = random.Random(0)
    >>> g = random_pdg(rng, 8)
    >>> mutate_pdg(rng, g, 0).nodes == g.nodes
    True
    """
    h = g.copy()
    fresh = max(h.nodes) + 1
    for _ in range(k):
        op = rng.random()
        nodes = sorted(h.nodes)
        if op < 0.35:
            h.nodes[rng.choice(nodes)]["label"] = rng.choice(STATEMENTS)
        elif op < 0.5 and len(nodes) > 2:
            h.remove_node(rng.choice(nodes[1:]))
        elif op < 0.65:
            h.add_node(fresh, label=rng.choice(STATEMENTS))
            h.add_edge(rng.choice(nodes), fresh, type="control")
            fresh += 1
        elif op < 0.85:
            h.add_edge(rng.choice(nodes), rng.choice(nodes), type="data")
        else:
            edges = sorted(h.edges(keys=True))
            if edges:
                h.remove_edge(*rng.choice(edges))
    return h
