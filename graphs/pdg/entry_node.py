"""The entry of a program as one node of its PDG, the same in every language.

:func:`graphs.parsing.entry.what_runs` finds where a program starts and what it runs;
:func:`unify_entry` then makes that entry one node labelled :data:`ENTRY_LABEL` of the PDG
built from what runs (Java's ``main`` signature, Python's top level, a ``main()`` the top
level calls once), so both sides of a pair start at the same node.
"""

from __future__ import annotations

import networkx as nx

from graphs.parsing.entry import Program

__all__ = ["ENTRY_LABEL", "unify_entry"]

#: The label of a program's entry node in every language (Java's ``main``, C's ``main``,
#: Python's top level): where the program starts, the same node on both sides; the label
#: :func:`graphs.build_pdg` gives the entry of top-level statements.
ENTRY_LABEL = "entry"


def unify_entry(graph: nx.MultiDiGraph, program: Program) -> nx.MultiDiGraph:
    """The PDG of ``program`` with its entry as one node labelled :data:`ENTRY_LABEL`,
    whatever the language wrote: Java's ``main`` signature, Python's top level (its
    ``if __name__ == "__main__":`` guard dissolved into it), the body of a ``main()`` the
    top level calls once (the call and the function's node dissolved, its statements the
    entry's). The entry function is then no function of the graph (``functions``): a
    program that is its entry alone is statements, compared without their entry node as
    any statements are (:class:`ruby_metric` leaves that node out), and a program with
    other functions has its entry node above them, as Python's top level is. The graph
    gets ``entry: True``. A program without an entry is returned as is.

    Parameters
    ----------
    graph : the PDG built from ``program.parsed`` (:func:`graphs.build_pdg`).
    program : what :func:`what_runs` found.

    Returns
    -------
    networkx.MultiDiGraph : a new graph, nodes renumbered 0, 1, ... in their order.

    Examples
    --------
    >>> from graphs import build_pdg, parse, what_runs
    >>> prog = what_runs(parse("def main():\\n    print(1)\\nmain()\\n", "python"))
    >>> g = unify_entry(build_pdg(prog.parsed), prog)
    >>> [g.nodes[n]["label"] for n in g], g.graph["functions"]
    (['entry', 'print(1)'], 0)
    """
    if program.entry is None or graph.number_of_nodes() == 0:
        return graph
    g = graph.copy()
    removed_statements = 0
    functions = g.graph.get("functions", 0)

    def under_entry(line: int | None, kind: str) -> int | None:
        if line is None:
            return None
        return next((n for n in g.successors(0) if g.nodes[n].get("line") == line
                     and g.nodes[n].get("kind") == kind), None)

    def dissolve(node: int) -> None:
        # its dependents hang off the entry; its own edges go with it
        for _, child, d in list(g.out_edges(node, data=True)):
            if d.get("type") != "control" or child == node:
                continue
            present = g.get_edge_data(0, child, default={}).values()
            if not any(e.get("type") == "control" for e in present):
                g.add_edge(0, child, type="control", dep="control")
        g.remove_node(node)

    guard = under_entry(program.guard_line, "if")
    if guard is not None:
        dissolve(guard)
        removed_statements += 1
    if program.main is not None:
        # a graph of several functions: the entry function is a node of its own; of one
        # function: node 0 is the entry function's own entry
        fn = next((n for n in g.successors(0) if g.nodes[n].get("kind") == "function"
                   and g.nodes[n].get("label", "").split()[-1:] == [program.main]), None)
        call = under_entry(program.main_call_line, "statement")
        if fn is not None and (program.main_call_line is None or call is not None):
            if call is not None:
                g.remove_node(call)
                removed_statements += 1
            dissolve(fn)
            functions -= 1
        elif fn is None and program.main_call_line is None and functions == 1:
            functions = 0
    g.nodes[0]["label"] = ENTRY_LABEL
    out = nx.convert_node_labels_to_integers(g, ordering="sorted")
    out.graph.update(graph.graph)
    out.graph["functions"] = functions
    out.graph["statements"] = graph.graph.get("statements", 0) - removed_statements
    out.graph["entry"] = True
    return out
