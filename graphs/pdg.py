"""Program dependence graphs (PDGs) for Java, C#, Python, C, C++ and JavaScript.

:func:`build_pdg` turns a function, a class, or a few statements into a
``networkx.MultiDiGraph``: nodes are the entry, the parameters, the statements and the
predicates; edges are ``control`` dependences (post-dominators on the CFG of
:mod:`graphs.cfg`) and ``data`` dependences (reaching definitions, :mod:`graphs.dataflow`).
This is the representation of RUBY's graph tier (GRS).

What becomes the graph
----------------------
- One function (a method, possibly inside a class or after imports): node 0 is its entry.
- Statements: node 0 is an entry for them.
- Several functions, or a class with several methods, or functions next to top-level
  statements: node 0 is an entry for the top-level statements; every function gets a
  ``function`` node (labelled ``function NAME``) controlled by node 0, with its own
  parameters and body below it. Nested functions (a ``def`` inside a ``def``, JavaScript
  function declarations, C# local functions) are statements of the enclosing function and
  the entry of their own body. Class fields outside methods are not part of the graph.

Labels (``normalize=True``)
---------------------------
Built from the tokens of the statement (for compound statements, of their header), joined
with canonical spacing (:mod:`graphs.labels`): ``if (v0 > 0)``, ``for (v1 < v2.length)``,
``v3 += v0``. Locals and parameters are renamed ``v0, v1, ...`` by order of first
declaration in the function (nested functions continue the numbering of their enclosing
function); fields keep their name and ``this.x``/``self.x`` is written ``x``; qualified type
names keep their last component (``new P.A()`` -> ``new A()``); with ``abstract_literals``
numbers, strings and characters become ``NUM``, ``STR``, ``CHAR``. The entry is labelled
``entry``. Java and C# statements with the same tokens get the same label.

Dependences
-----------
Control: Ferrante-Ottenstein-Warren on the CFG augmented with entry -> exit, so top-level
statements depend on the entry, and a loop header depends on itself (its back edge).
Data: reaching definitions; a statement depends on every definition of a variable it reads
that reaches it, loop-carried ones included (``i++`` -> ``i < n``). Definitions, uses,
fields and weak definitions are described in :mod:`graphs.dataflow`; the CFG model
(switch fall-through, try/catch/finally, labelled jumps, goto) in :mod:`graphs.cfg`.

Known approximations
--------------------
- Exceptions: only the ``try`` header (any statement may throw) and explicit ``throw`` /
  ``raise`` are modelled; a ``throw`` goes to every catch of its ``try``.
- Method calls do not define their receiver or arguments (``list.add(x)`` does not write
  ``list``), except C#'s ``out``/``ref`` and C's ``&x``.
- Nested functions and lambdas: their bodies are not part of the enclosing function's data
  flow (a nested ``def`` is its own unit; a lambda is part of its statement's label, its
  writes to captured variables are weak definitions).
- Python ``match`` patterns do not bind variables; class fields outside methods, C++
  constructor initializer lists and C# ``: base(...)`` calls are not nodes.
"""

from __future__ import annotations

import networkx as nx

from graphs.cfg import CFG, EXIT, GraphTooLarge, build_cfg, control_dependences
from graphs.dataflow import Facts, Walker, data_dependences, reaching_definitions
from graphs.labels import local_name, render
from graphs.parsing import ParsedCode, parse
from graphs.roles import Ctx, get_roles

__all__ = ["GraphTooLarge", "build_pdg"]

_DECLARING = (Ctx.DECL, Ctx.BIND)
# Reference mode -> (reads the variable, defines it: True strong / False weak / None no).
# BIND, TYPE and NAME references take no part in the data flow.
_FLOW = {Ctx.USE: (True, None), Ctx.DECL: (False, True), Ctx.DEF: (False, True),
         Ctx.DEFUSE: (True, True), Ctx.WEAK: (True, False)}


def build_pdg(code: str | ParsedCode, language: str | None = None, *, normalize: bool = True,
              abstract_literals: bool = False, max_nodes: int | None = None
              ) -> nx.MultiDiGraph:
    """Build the program dependence graph of a function or snippet.

    Parameters
    ----------
    code : str or ParsedCode
        Source code (a method, function, class, statements), or the result of
        :func:`graphs.parsing.parse`.
    language : str, optional
        Language name or alias; required when ``code`` is a string.
    normalize : bool, default True
        Rename locals (``v0, v1, ...``), write ``this.x`` as ``x``, reduce qualified type
        names. With ``False`` labels keep the source's names (whitespace is still
        canonical) and data edges are named by source names.
    abstract_literals : bool, default False
        Label literals by kind (``NUM``, ``STR``, ``CHAR``).
    max_nodes : int, optional
        Raise :class:`GraphTooLarge` as soon as the graph would have more nodes.

    Returns
    -------
    networkx.MultiDiGraph
        Nodes are ints in source order (0 is the entry) with attributes ``label``,
        ``text`` (the source of the statement; for compound statements the header),
        ``line`` (1-based in the snippet) and ``kind`` (see :class:`graphs.cfg.CFGNode`).
        Edges have ``type`` ``"control"`` or ``"data"``; data edges also have ``var`` (the
        normalized variable name). Graph attributes: ``language``, ``statements`` (number
        of nodes other than entries and parameters), ``functions`` and ``fallback_types``
        (statement types built as plain statements because the language table does not
        know them).

    Raises
    ------
    ValueError
        If the parse is not clean (the message is the parse error), or ``language`` is
        missing or unknown.
    GraphTooLarge
        If ``max_nodes`` is exceeded (a ``ValueError`` too).

    Examples
    --------
    >>> from graphs.pdg import build_pdg
    >>> g = build_pdg("int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }",
    ...               "java")
    >>> [g.nodes[n]["label"] for n in g]
    ['entry', 'int v0', 'int v1 = 0', 'while (v0 > 0)', 'v1 += v0', 'v0--', 'return v1']
    >>> sorted((u, v) for u, v, t in g.edges(data="type") if t == "control")
    [(0, 1), (0, 2), (0, 3), (0, 6), (3, 3), (3, 4), (3, 5)]
    >>> sorted((u, v, d["var"]) for u, v, d in g.edges(data=True) if d["type"] == "data")[:3]
    [(1, 3, 'v0'), (1, 4, 'v0'), (1, 5, 'v0')]
    """
    if isinstance(code, ParsedCode):
        parsed = code
    else:
        if language is None:
            raise ValueError("language is required when code is a string")
        parsed = parse(code, language)
    if not parsed.ok:
        raise ValueError(parsed.error)
    roles = get_roles(parsed.language)
    cfg = build_cfg(parsed, roles, max_nodes=max_nodes)
    walker = Walker(roles, parsed.node_text, normalize=normalize,
                    abstract_literals=abstract_literals)
    size = cfg.pdg_size
    facts = [walker.walk(n.parts, prefix=n.prefix, suffix=n.suffix, sep=n.sep)
             if n.label is None else Facts() for n in cfg.nodes[:size]]
    names, keys = _resolve_names(cfg, facts, normalize)

    # Nodes and edges are added one call at a time: networkx's add_nodes_from /
    # add_edges_from take a slower path per item (measured ~1.5x on these small graphs).
    graph = nx.MultiDiGraph(language=parsed.language)
    source = parsed.source
    source_range = parsed.source_range
    for nid, (node, fact) in enumerate(zip(cfg.nodes[:size], facts, strict=True)):
        first = node.first
        if first is None:
            text, line = "", 1
        else:
            start, end = source_range(first)
            if node.last is not first:  # a simple statement is its own first and last
                end = source_range(node.last)[1]
            text = source[start:end]
            line = parsed.position(first)[0]
        if node.label is not None:
            label = node.label
        else:
            shown = names[nid]
            label = render(fact.seps, fact.toks, shown.__getitem__)
        graph.add_node(nid, label=label, text=text, line=line, kind=node.kind)

    control, data = _dependences(cfg, facts, keys, names)
    for u, v in control:
        graph.add_edge(u, v, type="control")
    for u, v, var in data:
        graph.add_edge(u, v, type="data", var=var)
    graph.graph["statements"] = sum(1 for n in cfg.nodes[:size]
                                    if n.kind not in ("entry", "param")) - len(cfg.functions)
    # node 0 stands for the function itself when the snippet is one function
    graph.graph["functions"] = len(cfg.functions) or int(cfg.nodes[0].first is not None)
    graph.graph["fallback_types"] = tuple(sorted(cfg.fallback_types))
    return graph


def _resolve_names(cfg: CFG, facts: list[Facts], normalize: bool
                   ) -> tuple[list[list[str]], list[list[str]]]:
    """Per node and reference: the label text and the data-flow key of the variable.

    Locals are renamed per scope in order of first declaration; a field reference keys to
    the bare name unless a local of that name is declared in the scope.
    """
    size = cfg.pdg_size
    scope_of = [0] * size
    for unit in cfg.units:
        for nid in unit.nodes:
            if nid < size:
                scope_of[nid] = unit.scope
    by_scope: dict[int, list[int]] = {}
    for nid in range(size):
        by_scope.setdefault(scope_of[nid], []).append(nid)
    names: list[list[str]] = [[] for _ in range(size)]
    keys: list[list[str]] = [[] for _ in range(size)]
    for ids in by_scope.values():
        rename: dict[str, str] = {}
        for nid in ids:
            for ref in facts[nid].refs:
                if not ref.field and ref.mode in _DECLARING and ref.name not in rename:
                    rename[ref.name] = local_name(len(rename))
        for nid in ids:
            node_names = names[nid]
            node_keys = keys[nid]
            for ref in facts[nid].refs:
                if ref.field:
                    key = "this." + ref.name if ref.name in rename else ref.name
                    shown = ref.name if normalize else key
                else:
                    key = ref.name
                    shown = rename.get(key, key) if normalize else key
                node_names.append(shown)
                node_keys.append(key)
    return names, keys


def _dependences(cfg: CFG, facts: list[Facts], keys: list[list[str]],
                 names: list[list[str]]) -> tuple[list[tuple[int, int]],
                                                  list[tuple[int, int, str]]]:
    nodes = cfg.nodes
    control: set[tuple[int, int]] = {(0, f) for f in cfg.functions}
    data: set[tuple[int, int, str]] = set()
    for unit in cfg.units:
        ids = [unit.entry, *unit.nodes]
        local = {g: i for i, g in enumerate(ids)}
        k = len(ids)
        succ: list[list[int]] = []
        for i, g in enumerate(ids):
            targets = unit.entry_succ if i == 0 else cfg.succ[g]
            succ.append([k if t == EXIT else local[t] for t in targets])
        succ.append([])
        # cfg.canonical(g), inlined (one call per node and unit)
        canon = [g if nodes[g].alias is None else nodes[g].alias for g in ids]
        controlled = set()
        for a, b in control_dependences(succ, 0, k):
            control.add((canon[a], canon[b]))
            controlled.add(canon[b])
        for g in canon[1:]:
            if g not in controlled:  # unreachable code: hang it off the entry
                control.add((ids[0], g))
        defs: list[list[tuple[str, bool]]] = [[]]
        uses: list[list[str]] = [[]]
        display: dict[str, str] = {}
        for g in canon[1:]:
            node_defs = []
            node_uses = []
            for ref, key, shown in zip(facts[g].refs, keys[g], names[g], strict=True):
                display[key] = shown
                flow = _FLOW.get(ref.mode)
                if flow is not None:
                    reads, strong = flow
                    if reads:
                        node_uses.append(key)
                    if strong is not None:
                        node_defs.append((key, strong))
            defs.append(node_defs)
            uses.append(node_uses)
        reach_in, def_node, var_mask = reaching_definitions(succ[:k], defs, 0)
        for a, b, key in data_dependences(reach_in, def_node, var_mask, uses):
            data.add((canon[a], canon[b], display[key]))
    return sorted(control), sorted(data)
