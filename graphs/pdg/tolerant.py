"""The PDG of a tolerant parse: what repair and error containment did, written into the graph.

:func:`graphs.tolerant_parse` makes a clean parse of almost-code (a repair) or keeps its
broken statements as text (containment, each one a stand-in call that parses). The PDG of
that parse is then edited here, so that what was done costs something against a clean
reference and what was guessed is never compared as structure:

- :func:`relabel_unparsed`: each stand-in's node is labelled with its statement's text;
- :func:`mark_guessed`: each node whose text the repair edited is labelled with what the
  side wrote there;
- :func:`with_repair_node`: one extra node stands for the inserted tokens and stray closers.

:func:`tolerant_pdg` does all of it, with what runs from the entry point and the entry as
one node (:mod:`graphs.pdg.entry_node`): the one call a scorer makes.
"""

from __future__ import annotations

from bisect import bisect_left

import networkx as nx

from graphs.parsing.entry import Program, what_runs
from graphs.pdg.build import build_pdg
from graphs.pdg.entry_node import unify_entry
from graphs.repair.containment import STAND_IN, Contained, opaque_label
from graphs.repair.tolerant import NoStructure, TolerantParse, repair_label

__all__ = ["mark_guessed", "relabel_unparsed", "tolerant_pdg", "with_repair_node"]


def tolerant_pdg(structure: TolerantParse, program: Program | None = None, *,
                 max_nodes: int | None = None, unread_parameters: bool = True
                 ) -> nx.MultiDiGraph:
    """The PDG of a tolerant parse, as the graph tier compares it.

    In order: the PDG of what runs of the clean parse (else of the contained parse's
    stand-in text); each stand-in's node labelled with its statement's text
    (:func:`relabel_unparsed`); what the repair guessed labelled as the side's text
    (:func:`mark_guessed`); the entry as one node (:func:`graphs.pdg.entry_node.unify_entry`);
    one more node for the inserted tokens and stray closers (:func:`with_repair_node`).

    Parameters
    ----------
    structure : what :func:`graphs.tolerant_parse` made of the snippet.
    program : what :func:`graphs.what_runs` found in ``structure.clean`` (found here when
        not given).
    max_nodes, unread_parameters : as for :func:`graphs.build_pdg`.

    Returns
    -------
    networkx.MultiDiGraph : the PDG, nodes numbered 0, 1, ... (the repair node last).

    Raises
    ------
    graphs.GraphTooLarge : past ``max_nodes``.
    graphs.NoStructure : when the parse is neither clean nor contained, or a statement kept
        as text has no node of its own (its stand-in folded away or unreachable).

    Examples
    --------
    >>> from graphs import parse, tolerant_parse
    >>> g = tolerant_pdg(tolerant_parse(parse("void f(int b) { a = (b + 1)); g(a); }", "java")))
    >>> [g.nodes[n]["label"] for n in g]
    ['void f(int)', 'int v0', '⁇ a = (b + 1));', 'g(a)', '⁇ )']
    """
    if program is None and structure.clean is not None:
        program = what_runs(structure.clean)
    contained = structure.contained if program is None else None
    if program is not None:
        parsed = program.parsed
    elif contained is not None:
        parsed = contained.stand_in
    else:
        raise NoStructure(structure.original.error or "no clean parse")
    graph = build_pdg(parsed, max_nodes=max_nodes, unread_parameters=unread_parameters)
    if contained is not None and relabel_unparsed(graph, contained) != len(contained.unparsed):
        # a stand-in folded away or unreachable: the graph would hide the broken code
        raise NoStructure(structure.original.error or "no clean parse")
    if structure.changed:
        # what the repair guessed is compared as the side's text, never as structure
        mark_guessed(graph, structure)
    if program is not None and program.entry is not None:
        # the entry is one node, the same in every language (Java's main, Python's top
        # level, a main() it calls once)
        graph = unify_entry(graph, program)
    if structure.marks is not None:
        graph = with_repair_node(graph, structure.marks, structure.mark_line)
    return graph


def relabel_unparsed(graph: nx.MultiDiGraph, contained: Contained) -> int:
    """Label the stand-in nodes of a PDG built from ``contained.stand_in`` with the text
    of their statement or header (:func:`graphs.repair.containment.opaque_label`), and mark
    them ``opaque``; in place.

    Parameters
    ----------
    graph : the PDG of ``contained.stand_in`` (:func:`graphs.build_pdg`).
    contained : what :func:`graphs.repair.containment.contain` returned.

    Returns
    -------
    The number of nodes relabelled.

    Examples
    --------
    >>> from graphs import build_pdg, parse
    >>> from graphs.repair.containment import contain
    >>> c = contain(parse("void f(int b) { a = (b + 1)); g(a); }", "java"))
    >>> g = build_pdg(c.stand_in)
    >>> relabel_unparsed(g, c), [g.nodes[n]["label"] for n in g][2]
    (1, '⁇ a = (b + 1));')
    """
    count = 0
    for _, attrs in graph.nodes(data=True):
        for k, u in enumerate(contained.unparsed):
            if f"{STAND_IN}{k}(" in attrs.get("text", ""):
                attrs["label"] = opaque_label(u.text)
                attrs["text"] = u.text
                attrs["opaque"] = True
                count += 1
                break
    return count


def mark_guessed(graph: nx.MultiDiGraph, structure: TolerantParse) -> int:
    """Label each node whose own text the repair edited (a token inserted in it, a stray
    closer blanked out of it) as text, like a statement kept as text: the mark, then what
    the side wrote there (:func:`graphs.repair.containment.opaque_label`), and mark it
    ``opaque``; in place. What the repair guessed is never compared as structure: the inserted ``)``
    of ``print(x`` says the call ends there, which the side never wrote. Whitespace (a
    re-indented line) is no guess; closers appended after the last statement edit no
    statement.

    Parameters
    ----------
    graph : the PDG built from ``structure``'s clean or stand-in parse.
    structure : what :func:`graphs.tolerant_parse` made of the side.

    Returns
    -------
    The number of nodes relabelled.

    Examples
    --------
    >>> from graphs import build_pdg, parse, tolerant_parse
    >>> t = tolerant_parse(parse("int f(int a) { a = g(a; return a; }", "java"))
    >>> g = build_pdg(t.clean)
    >>> mark_guessed(g, t), [g.nodes[n]["label"] for n in g]
    (1, ['int f(int)', 'int v0', '⁇ a = g(a;', 'return v0'])
    """
    written = structure.written()
    if written is None:
        return 0
    text, marks = written
    edited = set()
    for i, (c, m) in enumerate(zip(text, marks, strict=True)):
        if m == "" and not c.isspace():
            edited.add(i)
        elif m and m != c:
            # a stray closer: it belongs to what it stands in, or to the statement it
            # follows on its line (Python's `f(x))` ends the statement before the `)`)
            edited.add(i)
            j = i - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            if j >= 0 and text[j] != "\n":
                edited.add(j)
    if not edited:
        return 0
    edited = sorted(edited)
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    count = 0
    for _, attrs in graph.nodes(data=True):
        own = attrs.get("text") or ""
        line = attrs.get("line")
        if attrs.get("opaque") or not own or not isinstance(line, int) or not (
                1 <= line <= len(starts)):
            continue
        start = text.find(own, starts[line - 1])
        if start < 0:
            continue
        k = bisect_left(edited, start)
        if k < len(edited) and edited[k] < start + len(own):
            end = j = start + len(own)
            while j < len(text) and text[j] in " \t":  # the stray closers right after it
                j += 1
                if marks[j - 1] and marks[j - 1] != text[j - 1]:
                    end = j
            # the label is what the node's own text was written as (a stray after it is the
            # extra node's); the text shown has the stray too
            attrs["label"] = opaque_label("".join(m or "" for m in marks[start:start + len(own)]))
            attrs["text"] = "".join(m or "" for m in marks[start:end])
            attrs["opaque"] = True
            count += 1
    return count


def with_repair_node(graph: nx.MultiDiGraph, tokens: tuple[str, ...], line: int = 1
                     ) -> nx.MultiDiGraph:
    """``graph`` with one more node, unconnected, labelled
    :func:`graphs.repair.tolerant.repair_label` (``kind`` ``"repair"``): what the repair
    inserted, so the graph is never equal to a clean one.

    Parameters
    ----------
    graph : a PDG (modified in place and returned).
    tokens : the inserted tokens.
    line : where the first of them was inserted (:attr:`graphs.TolerantParse.mark_line`), the
        line the node is shown at.

    Returns
    -------
    The same graph object.
    """
    node = max(graph.nodes, default=-1) + 1
    graph.add_node(node, label=repair_label(tokens), text="", line=line, kind="repair",
                   opaque=True)
    return graph
