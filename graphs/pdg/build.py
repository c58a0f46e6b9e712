"""Program dependence graphs (PDGs) for Java, C#, Python, C, C++ and JavaScript.

:func:`build_pdg` turns a function, a class, or a few statements into a
``networkx.MultiDiGraph``: nodes are the entry, the parameters, the statements and the
predicates; edges are ``control`` dependences (post-dominators on the CFG of
:mod:`graphs.pdg.cfg`) and ``data`` dependences (the references of :mod:`graphs.pdg.dataflow`,
through the reaching definitions of :mod:`graphs.flow.reaching`).
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
with canonical spacing (:mod:`graphs.flow.labels`): ``if (v0 > 0)``, ``while (v1 < v0.length)``,
``v3 += v0``. The entry of a function is labelled with its signature (``int add(int,
int)``: return type, name, parameter types); an entry for statements is ``entry``.
Parameters are renamed ``v0, v1, ...`` by position; any other local after its
declaration (``v3fa``: a digest of that statement with the variable masked), so that
neither the order of independent declarations nor a local's name changes a label; an
identifier declared afresh for values that never meet (``int t`` in both branches of an
``if``) is several variables, each named by its own declaration (:mod:`graphs.pdg.naming`;
``names="declaration"`` numbers identifiers in declaration order instead). In Java, C# and C++
``this.x`` is written ``x`` (a bare ``x`` is the field there); in Python and JavaScript
``self.x``/``this.x`` keep their receiver (a bare ``x`` is never the field). Qualified type
names keep their last component (``new P.A()`` -> ``new A()``); with ``abstract_literals``
numbers, strings and characters become ``NUM``, ``STR``, ``CHAR``. Java and C# statements
with the same tokens get the same label.

Equal meaning, equal graph (:mod:`graphs.canon.rewrites`): ``i++``, ``++i``, ``i = i + 1`` are
``i += 1``; ``x = x op e`` is ``x op= e``; redundant parentheses go; a classic ``for`` is
its initializer, a ``while (cond)`` node and its update, as the equivalent ``while`` loop;
``if (c) x = a; else x = b;`` (or two returns) is the one statement ``x = c ? a : b``.
The idioms a translator changes (:mod:`graphs.canon.idioms`): an indexed loop that only reads
``xs[i]`` is the ``foreach`` over ``xs``; an ``if`` with an ``else`` (and ``?:``) reads
without a top-level ``!`` and with ``<``, ``>``, ``==`` (branches swapped as needed);
``var``/``auto`` with an evident initializer type is that type; JavaScript ``const``/``let``
follow whether the name is assigned again.

Dependences
-----------
Control: Ferrante-Ottenstein-Warren on the CFG augmented with entry -> exit, so top-level
statements depend on the entry, and a loop header depends on itself (its back edge). Each
edge's ``dep`` says which outcome it hangs on: ``control-true`` / ``control-false`` below
an ``if`` or loop predicate, ``control`` otherwise; a ``case`` body hangs off its case
label (which the switch controls), so which body runs for which case is in the graph.
Data: reaching definitions; a statement depends on every definition of a variable it reads
that reaches it, loop-carried ones included (``i++`` -> ``i < n``); ``dep`` is ``data``, or
``data-carried`` for a definition that reaches a use earlier in the source (round a loop).
Effects: a method called on a local may update it (it reads and weakly defines the local:
``sb.append(a); sb.append(b)`` are ordered by a data edge); calls with unknown effects
(free functions, ``System.out.println``, ``print``, methods of classes and modules) read
and write the pseudo-variable :data:`EFFECTS_VAR`, which chains them in program order with
``dep`` ``effect`` edges (``effect-carried`` round a loop). Calls known to be pure
(``graphs.pdg.dataflow.PURE_CALLS``: ``get``, ``len``, ``Math.max`` ...) do neither, so
reordering them changes nothing. Definitions,
uses, fields and weak definitions are described in :mod:`graphs.pdg.dataflow`; the CFG model
(switch fall-through, try/catch/finally, labelled jumps, goto) in :mod:`graphs.pdg.cfg`.

Known approximations
--------------------
- Exceptions: only the ``try`` header (any statement may throw) and explicit ``throw`` /
  ``raise`` are modelled; a ``throw`` goes to every catch of its ``try``.
- Method calls do not define their arguments (``Collections.sort(xs)`` does not write
  ``xs``, though it is ordered with other effects), except C#'s ``out``/``ref`` and C's
  ``&x``; a call on a local is taken to update it unless its name is a known pure one.
- Nested functions and lambdas: their bodies are not part of the enclosing function's data
  flow (a nested ``def`` is its own unit; a lambda is part of its statement's label, its
  writes to captured variables are weak definitions). Of the canonical forms, a label
  applies to an ``if`` inside it only the orientation (``if (!c) A else B`` is ``if (c)
  B else A``).
- Python ``match`` patterns do not bind variables; class fields outside methods, C++
  constructor initializer lists and C# ``: base(...)`` calls are not nodes.
"""

from __future__ import annotations

import networkx as nx

from graphs.canon.rewrites import canonical_label, merge_statements
from graphs.flow.labels import local_name, render
from graphs.flow.reaching import (
    data_dependences,
    path_data_dependences,
    reaching_definitions,
    reverse_postorder,
)
from graphs.lang.languages import get_roles
from graphs.lang.roles import Ctx
from graphs.parsing.parser import ParsedCode, parse
from graphs.pdg.cfg import CFG, EXIT, GraphTooLarge, build_cfg, control_dependences_in_place
from graphs.pdg.dataflow import EFFECTS_VAR, Facts, Walker
from graphs.pdg.naming import canonical_names

__all__ = ["CARRIED", "CONTROL", "CONTROL_FALSE", "CONTROL_TRUE", "DATA", "EFFECT", "EFFECTS_VAR",
           "GraphTooLarge", "build_pdg", "pdg_shape", "pdg_statements"]

#: Values of an edge's ``dep`` attribute: what GRS compares edges by. A control dependence
#: on a predicate says which outcome it hangs on; effect edges order calls with unknown
#: effects (see :mod:`graphs.pdg.dataflow`).
CONTROL, CONTROL_TRUE, CONTROL_FALSE = "control", "control-true", "control-false"
DATA, EFFECT = "data", "effect"
#: Suffix of the ``dep`` of a loop-carried data or effect edge (``data-carried``).
CARRIED = "-carried"
_PREDICATES = frozenset({"if", "while", "for", "foreach", "do"})
_CASE_LABELS = frozenset({"case", "default"})

_DECLARING = (Ctx.DECL, Ctx.BIND)
# Reference mode -> (reads the variable, defines it: True strong / False weak / None no).
# BIND, TYPE and NAME references take no part in the data flow.
_FLOW = {Ctx.USE: (True, None), Ctx.DECL: (False, True), Ctx.DEF: (False, True),
         Ctx.DEFUSE: (True, True), Ctx.WEAK: (True, False)}


def build_pdg(code: str | ParsedCode, language: str | None = None, *, normalize: bool = True,
              abstract_literals: bool = False, max_nodes: int | None = None,
              names: str = "canonical", unread_parameters: bool = True
              ) -> nx.MultiDiGraph:
    """Build the program dependence graph of a function or snippet.

    Parameters
    ----------
    code : str or ParsedCode
        Source code (a method, function, class, statements), or the result of
        :func:`graphs.parsing.parser.parse`.
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
    names : {"canonical", "declaration"}, default "canonical"
        How ``normalize`` renames locals: ``"canonical"`` names parameters by position
        (``v0``, ``v1``) and other locals after their own declaration (``v3fa``,
        independent of declaration order, an identifier declared afresh for values that
        never meet being several variables: what GRS compares); ``"declaration"`` numbers
        all of them in order of first declaration (``v0, v1, ...``: easier to read, but
        swapping two declarations renames them).
    unread_parameters : bool, default True
        Keep parameters that no statement reads as nodes. With ``False`` they are only
        part of the entry's signature (which has their types): a parameter is a node as
        the definition its uses depend on, and a function with an empty body is its entry
        alone (what GRS compares).

    Returns
    -------
    networkx.MultiDiGraph
        Nodes are ints in source order (0 is the entry) with attributes ``label``,
        ``text`` (the source of the statement; for compound statements the header),
        ``line`` (1-based in the snippet) and ``kind`` (see :class:`graphs.pdg.cfg.CFGNode`).
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
    >>> from graphs.pdg.build import build_pdg
    >>> g = build_pdg("int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }",
    ...               "java")
    >>> [g.nodes[n]["label"] for n in g]
    ['int f(int)', 'int v0', 'int vffe = 0', 'while (0 < v0)', 'vffe += v0', 'v0 -= 1', ...]
    >>> sorted((u, v) for u, v, t in g.edges(data="type") if t == "control")
    [(0, 1), (0, 2), (0, 3), (0, 6), (3, 3), (3, 4), (3, 5)]
    >>> sorted((u, v, d["var"]) for u, v, d in g.edges(data=True) if d["type"] == "data")[:3]
    [(1, 3, 'v0'), (1, 4, 'v0'), (1, 5, 'v0')]
    """
    parsed = _clean_parse(code, language)
    roles = get_roles(parsed.language)
    cfg = build_cfg(parsed, roles, max_nodes=max_nodes)
    walker = Walker(roles, parsed, normalize=normalize,
                    abstract_literals=abstract_literals)
    size = cfg.pdg_size
    idioms = cfg.subst  # canonical idioms (graphs.canon.idioms): the same for every node
    facts = [walker.walk(n.parts, prefix=n.prefix, suffix=n.suffix, sep=n.sep,
                         subst=({**idioms, **n.subst} if idioms and n.subst
                                else n.subst or idioms))
             if n.label is None else Facts() for n in cfg.nodes[:size]]
    absorbed = merge_statements(cfg.nodes, cfg.succ, facts, size,
                                parsed.language) if normalize else set()
    if names not in ("canonical", "declaration"):
        raise ValueError(f"names must be 'canonical' or 'declaration', not {names!r}")
    scopes, uses, defs, declared = _references(cfg, facts, roles.explicit_fields)
    control, chains = _dependences(cfg, uses, defs)
    shown, data, origins = _resolve_names(cfg, facts, scopes, declared, chains, normalize,
                                          roles.explicit_fields, names == "canonical")

    source = parsed.source
    # parsed.source_range and parsed.position, one call each instead of two per node: the
    # index maps a range's two ends independently
    char_range = parsed.index.char_range
    point_position = parsed.index.point_position
    node_attrs: list[dict] = []
    for nid, (node, fact) in enumerate(zip(cfg.nodes[:size], facts, strict=True)):
        first = node.first
        if first is None:
            text, line = "", 1
        else:
            start_byte = first.start_byte
            start, end = char_range(start_byte, node.last.end_byte)
            text = source[start:end]
            row, column = first.start_point
            line = point_position(start_byte, row, column)[0]
        if node.label is not None:
            label = node.label
        else:
            label = render(fact.seps, fact.toks, shown[nid].__getitem__)
            if normalize:
                label = canonical_label(label)
        node_attrs.append({"label": label, "text": text, "line": line, "kind": node.kind})
    if not unread_parameters:
        absorbed |= _unread_parameters(node_attrs, control, data)
    if absorbed:
        node_attrs, control, data = _without(absorbed, node_attrs, control, data)
    graph = _assemble(parsed.language, node_attrs, control, data)
    graph.graph["statements"] = _statements(cfg)  # folded statements included
    graph.graph["functions"] = _functions(cfg)
    graph.graph["fallback_types"] = tuple(sorted(cfg.fallback_types))
    graph.graph["local_names"] = origins  # a local's name -> the source's identifier
    return graph


def pdg_statements(code: str | ParsedCode, language: str | None = None, *,
                   max_nodes: int | None = None) -> int:
    """The number of statements :func:`build_pdg` would report, from the CFG alone.

    ``build_pdg(code).graph["statements"]``, with the same exceptions (a parse that is not
    clean, :class:`GraphTooLarge`), without labelling the nodes or computing dependences:
    about a third of the build. Enough to know whether a snippet has a PDG worth comparing.

    Parameters
    ----------
    code, language, max_nodes : as for :func:`build_pdg`.

    Returns
    -------
    int

    Examples
    --------
    >>> pdg_statements("int f(int n) { int s = 0; return s + n; }", "java")
    2
    >>> pdg_statements("class A {}", "java")
    0
    """
    parsed = _clean_parse(code, language)
    return _statements(build_cfg(parsed, get_roles(parsed.language), max_nodes=max_nodes,
                                 labels=False))


def pdg_shape(code: str | ParsedCode, language: str | None = None, *,
              max_nodes: int | None = None) -> tuple[int, int, int]:
    """``(statements, functions, nodes)`` of the graph :func:`build_pdg` would build, from
    the CFG alone (see :func:`pdg_statements`).

    Examples
    --------
    >>> pdg_shape("int f(int n) { }", "java")
    (0, 1, 2)
    >>> pdg_shape("class A {}", "java")
    (0, 0, 1)
    """
    parsed = _clean_parse(code, language)
    cfg = build_cfg(parsed, get_roles(parsed.language), max_nodes=max_nodes, labels=False)
    return _statements(cfg), _functions(cfg), cfg.pdg_size


def _functions(cfg: CFG) -> int:
    # node 0 stands for the function itself when the snippet is one function
    return len(cfg.functions) or int(cfg.nodes[0].first is not None)


def _without(absorbed: set[int], node_attrs: list[dict],
             control: list[tuple[tuple[int, int], str]],
             data: list[tuple[int, int, str, bool]]
             ) -> tuple[list[dict], list[tuple[tuple[int, int], str]],
                        list[tuple[int, int, str, bool]]]:
    """The graph's parts without the nodes folded into a neighbour, ids kept contiguous in
    source order. Folded nodes read and define nothing, so only control edges meet them."""
    new: list[int] = []
    shift = 0
    for nid in range(len(node_attrs)):
        new.append(nid - shift)
        if nid in absorbed:
            shift += 1
    attrs = [a for nid, a in enumerate(node_attrs) if nid not in absorbed]
    ctrl = [((new[u], new[v]), dep) for (u, v), dep in control
            if u not in absorbed and v not in absorbed]
    dat = [(new[u], new[v], var, carried) for u, v, var, carried in data]
    return attrs, ctrl, dat


def _unread_parameters(node_attrs: list[dict], control: list[tuple[tuple[int, int], str]],
                       data: list[tuple[int, int, str, bool]]) -> set[int]:
    """The parameter nodes no statement reads: part of their entry's signature only.

    A parameter is a node as the definition its uses depend on; one that nothing reads
    defines nothing the graph can show (its type is in the entry's label), so a function
    whose body is empty is its entry alone. ``data`` is updated in place (a default value
    that reads a variable is read by the entry).
    """
    read = {u for u, _, _, _ in data}
    owner = {v: u for (u, v), _ in control
             if node_attrs[v]["kind"] == "param" and v not in read}
    if owner:
        data[:] = [(u, owner.get(v, v), var, carried) for u, v, var, carried in data]
    return set(owner)


def _clean_parse(code: str | ParsedCode, language: str | None) -> ParsedCode:
    if isinstance(code, ParsedCode):
        parsed = code
    else:
        if language is None:
            raise ValueError("language is required when code is a string")
        parsed = parse(code, language)
    if not parsed.ok:
        raise ValueError(parsed.error)
    return parsed


def _statements(cfg: CFG) -> int:
    # entries and parameters are not statements, nor are the nodes of the functions
    return sum(1 for n in cfg.nodes[:cfg.pdg_size]
               if n.kind != "entry" and n.kind != "param") - len(cfg.functions)


def _assemble(language: str, node_attrs: list[dict],
              control: list[tuple[tuple[int, int], str]],
              data: list[tuple[int, int, str, bool]]) -> nx.MultiDiGraph:
    """The graph of ``add_node(i, **node_attrs[i])`` for each node, then ``add_edge`` for
    each control and data edge, in order.

    The dicts are filled directly, as those calls would fill them (networkx's data
    structure: ``_node``, ``_succ`` and ``_pred``, edge keys 0, 1, ... per node pair, one
    key dict shared by ``_succ[u][v]`` and ``_pred[v][u]``): on graphs of a few nodes the
    calls cost more than computing the dependences (argument packing, cache clearing, key
    search). Every edge joins two of the nodes (a KeyError otherwise, where add_edge would
    have added a node).
    """
    graph = nx.MultiDiGraph(language=language)
    attrs, succ, pred = graph._node, graph._succ, graph._pred
    for nid, node in enumerate(node_attrs):
        attrs[nid] = node
        succ[nid] = {}
        pred[nid] = {}
    for (u, v), dep in control:  # distinct pairs, added first: key 0 of a new key dict
        succ[u][v] = pred[v][u] = {0: {"type": "control", "dep": dep}}
    for u, v, var, carried in data:
        dep = EFFECT if var == EFFECTS_VAR else DATA
        edge = {"type": "data", "var": var, "dep": dep + CARRIED if carried else dep}
        keys = succ[u].get(v)
        if keys is None:
            succ[u][v] = pred[v][u] = {0: edge}
        else:
            keys[len(keys)] = edge
    return graph


def _references(cfg: CFG, facts: list[Facts], explicit_fields: bool
                ) -> tuple[dict[int, list[int]], list[list[str]], list[list[tuple[str, bool]]],
                           dict[int, set[str]]]:
    """The nodes of each scope; the variables each node reads and defines (strongly or not),
    by data-flow key; the locals declared in each scope.

    A field reference keys to the bare name unless a local of that name is declared in the
    scope, or the language reaches fields only through their receiver (``explicit_fields``:
    ``self.x`` is never ``x``). A method called on a local may update it; anything else
    called (a free function, a method of a class, module or global) has unknown effects,
    ordered among themselves (:data:`EFFECTS_VAR`).
    """
    size = cfg.pdg_size
    by_scope: dict[int, list[int]] = {}
    if len(cfg.units) == 1:  # the usual case: one unit, scope 0, every node
        by_scope[0] = list(range(size))
    else:
        scope_of = [0] * size
        for unit in cfg.units:
            for nid in unit.nodes:
                if nid < size:
                    scope_of[nid] = unit.scope
        for nid in range(size):
            by_scope.setdefault(scope_of[nid], []).append(nid)
    uses: list[list[str]] = [[] for _ in range(size)]
    defs: list[list[tuple[str, bool]]] = [[] for _ in range(size)]
    declared_by_scope: dict[int, set[str]] = {}
    for scope, ids in by_scope.items():
        declared = declared_by_scope[scope] = _declared(ids, facts)
        for nid in ids:
            node_uses = uses[nid]
            node_defs = defs[nid]
            for ref in facts[nid].refs:
                name = ref.name
                if ref.field:
                    key = "this." + name if explicit_fields or name in declared else name
                else:
                    key = name
                flow = _FLOW.get(ref.mode)
                if flow is not None:
                    reads, strong = flow
                    if reads:
                        node_uses.append(key)
                    if strong is not None:
                        node_defs.append((key, strong))
            for call in facts[nid].calls:
                key = EFFECTS_VAR
                if call is not None:
                    name, is_field = call
                    if is_field:
                        key = "this." + name if explicit_fields or name in declared else name
                    elif name in declared:
                        key = name
                if (key, False) not in node_defs:
                    node_uses.append(key)
                    node_defs.append((key, False))
    return by_scope, uses, defs, declared_by_scope


def _resolve_names(cfg: CFG, facts: list[Facts], scopes: dict[int, list[int]],
                   declared: dict[int, set[str]],
                   chains: dict[int, set[tuple[int, int, str, bool]]], normalize: bool,
                   explicit_fields: bool, canonical: bool = True
                   ) -> tuple[list[list[str]], list[tuple[int, int, str, bool]],
                              dict[str, str]]:
    """Label text of each variable occurrence (per node and reference), the data
    dependences ``(definition, use, shown variable, loop-carried)``, sorted, and the
    source's identifier of each renamed local (the first scope's, where scopes share a
    name).

    Names are canonical (:func:`graphs.pdg.naming.canonical_names`: parameters by position,
    other locals after their own declaration, an identifier reused for values that never
    meet being several variables), or in order of first declaration (``canonical=False``),
    or the source's own (``normalize=False``). A field shows its bare name (with
    ``normalize``) or its key (``this.x``).
    """
    size = cfg.pdg_size
    nodes = cfg.nodes
    names: list[list[str]] = [[] for _ in range(size)]
    data: set[tuple[int, int, str, bool]] = set()
    origins: dict[str, str] = {}
    for scope, ids in scopes.items():
        variables: dict[tuple[int, str], str] = {}
        scope_chains = chains.get(scope, ())
        if not normalize:
            rename = {}
        elif canonical:
            rename, variables = canonical_names(
                ids, nodes, facts, [(a, b, key) for a, b, key, _ in scope_chains])
        else:
            rename = {}
            for nid in ids:
                for ref in facts[nid].refs:
                    if not ref.field and ref.mode in _DECLARING and ref.name not in rename:
                        rename[ref.name] = local_name(len(rename))
        for key, shown_name in rename.items():  # a split variable's key is name#node
            origins.setdefault(shown_name, key.split("#", 1)[0])
        local = declared[scope]
        for nid in ids:
            names[nid] = [
                (ref.name if normalize else "this." + ref.name
                 if explicit_fields or ref.name in local else ref.name) if ref.field
                else rename.get(ref.name, ref.name) if not variables
                else rename.get(variables.get((nid, ref.name), ref.name), ref.name)
                for ref in facts[nid].refs]
        for a, b, key, carried in scope_chains:
            shown = rename.get(key) if not variables else rename.get(
                variables.get((a, key), key))
            if shown is None:  # a field, a global, the effects
                shown = key[5:] if normalize and key.startswith("this.") else key
            data.add((a, b, shown, carried))
    return names, sorted(data), origins


def _declared(ids: list[int], facts: list[Facts]) -> set[str]:
    return {ref.name for nid in ids for ref in facts[nid].refs
            if not ref.field and ref.mode in _DECLARING}


def _dependences(cfg: CFG, uses: list[list[str]], defs: list[list[tuple[str, bool]]]
                 ) -> tuple[list[tuple[tuple[int, int], str]],
                            dict[int, set[tuple[int, int, str, bool]]]]:
    """Control dependences ``((controller, dependent), outcome)``, sorted; and per scope
    the data dependences ``(definition, use, variable key, loop-carried)``."""
    nodes = cfg.nodes
    cfg_succ = cfg.succ
    true_succ = cfg.true_succ
    # (controller, dependent) -> the outcome it hangs on (CONTROL: none, the entry's)
    control: dict[tuple[int, int], str] = dict.fromkeys(((0, f) for f in cfg.functions),
                                                         CONTROL)
    # scope -> (def, use, variable key, loop-carried)
    data: dict[int, set[tuple[int, int, str, bool]]] = {}
    for unit in cfg.units:
        ids = [unit.entry, *unit.nodes]
        k = len(ids)
        local = {g: i for i, g in enumerate(ids)}
        local[EXIT] = k
        # unit-local successor lists without duplicates (an empty branch links its
        # predicate twice); the exit is node k
        succ: list[list[int]] = []
        for targets in (unit.entry_succ, *[cfg_succ[g] for g in unit.nodes]):
            if len(targets) > 1:
                succ.append(list(dict.fromkeys([local[t] for t in targets])))
            else:
                succ.append([local[t] for t in targets])
        succ.append([])
        # cfg.canonical(g), inlined (one call per node and unit)
        canon = [g if nodes[g].alias is None else nodes[g].alias for g in ids]
        # the entry's own references belong to the enclosing unit (a nested function)
        unit_defs = [[], *[defs[g] for g in canon[1:]]]
        unit_uses = [[], *[uses[g] for g in canon[1:]]]
        found = data.setdefault(unit.scope, set())
        path = _straight_line(succ, k)
        if path is not None:
            # most units: every node depends on the entry only, and the general analyses
            # below reduce to one scan along the path
            for b in path:
                control[canon[0], canon[b]] = CONTROL
            edges = path_data_dependences(path, unit_defs, unit_uses)
        else:
            controlled = set()
            kinds = [nodes[g].kind for g in canon]
            # (adds edges to the exit to succ: reaching_definitions ignores the exit)
            deps = control_dependences_in_place(succ, 0, k, per_successor="switch" in kinds)
            for a, r, b in sorted(deps):
                kind = kinds[a]
                if kind in _PREDICATES:
                    t = true_succ.get(ids[a])
                    dep = CONTROL_TRUE if t is not None and local.get(t) == b else CONTROL_FALSE
                    key = (canon[a], canon[r])
                    # copies of one node (a finally on several paths) may hang on both
                    # outcomes: then it runs either way
                    if control.setdefault(key, dep) != dep:
                        control[key] = CONTROL
                elif kind == "switch" and b < k and kinds[b] in _CASE_LABELS and r != b:
                    # a case body hangs off its label, so which body runs for which case
                    # is part of the graph
                    control.setdefault((canon[b], canon[r]), CONTROL)
                else:
                    control.setdefault((canon[a], canon[r]), CONTROL)
                controlled.add(canon[r])
            for g in canon[1:]:
                if g not in controlled:  # unreachable code: hang it off the entry
                    control.setdefault((ids[0], g), CONTROL)
            order = reverse_postorder(succ[:k], 0, k)
            reach_in, def_node, var_mask = reaching_definitions(succ[:k], unit_defs, 0,
                                                                order=order)
            edges = data_dependences(reach_in, def_node, var_mask, unit_uses)
            carried = _loop_carried(succ, k, {(a, b) for a, b, _ in edges}, order)
            for a, b, key in edges:
                found.add((canon[a], canon[b], key, (a, b) in carried))
            continue
        for a, b, key in edges:
            found.add((canon[a], canon[b], key, False))
    return sorted(control.items()), data


def _loop_carried(succ: list[list[int]], k: int, pairs: set[tuple[int, int]],
                  order: list[int]) -> set[tuple[int, int]]:
    """The def-use pairs ``(a, b)`` carried by a loop: both in one loop, and ``b`` reached
    from ``a`` only round the loop's back edge (not within the iteration).

    ``a.append(x); a.append(y)`` in a loop reach each other both ways, the second one
    carried: their order still shows. A definition reaching a use after the loop is not
    carried. Back edges are those to a node no later in reverse postorder (a reducible
    CFG's; for an irreducible one, a consistent approximation). ``order`` is
    ``reverse_postorder(succ[:k], 0, k)``.
    """
    rank = [0] * k
    for i, g in enumerate(order):
        rank[g] = i
    forward: list[list[int]] = [[] for _ in range(k)]
    back: list[tuple[int, int]] = []
    preds: list[list[int]] = [[] for _ in range(k)]
    for x in range(k):
        for y in succ[x]:
            if 0 <= y < k:
                preds[y].append(x)
                if rank[y] <= rank[x]:
                    back.append((x, y))
                else:
                    forward[x].append(y)
    if not back:
        return set()
    loops = []  # natural loop of each back edge t -> h: h and what reaches t without h
    for t, h in back:
        body = {h, t}
        stack = [t] if t != h else []
        while stack:
            for p in preds[stack.pop()]:
                if p not in body:
                    body.add(p)
                    stack.append(p)
        loops.append(body)
    carried = set()
    reach: dict[int, set[int]] = {}
    for a, b in pairs:
        if not any(a in body and b in body for body in loops):
            continue
        seen = reach.get(a)
        if seen is None:
            seen = reach[a] = set()
            stack = list(forward[a])
            while stack:
                v = stack.pop()
                if v not in seen:
                    seen.add(v)
                    stack.extend(forward[v])
        if b not in seen:
            carried.add((a, b))
    return carried


def _straight_line(succ: list[list[int]], exit_node: int) -> list[int] | None:
    """The nodes after the entry (node 0) in order, if the CFG is one path from the entry
    through every node to the exit; else None.

    On such a CFG the entry is the only branch (to its successor, and to the exit on the
    augmenting edge), so :func:`graphs.pdg.cfg.control_dependences` makes every node depend on
    the entry and nothing else.
    """
    path: list[int] = []
    v = 0
    while True:
        targets = succ[v]
        if len(targets) != 1:
            return None
        v = targets[0]
        if v == exit_node:
            break
        if len(path) == exit_node:  # more steps than nodes: a cycle (goto)
            return None
        path.append(v)
    return path if len(path) == exit_node - 1 else None
