"""The language-neutral PDG: a PDG of :func:`graphs.build_pdg` with its labels in the shared
vocabulary, and the few structural idioms that differ between languages made one.

:func:`neutral_pdg` keeps the graph's control and data structure as it is, except:

- **labels** are neutral (:func:`graphs.neutral.neutral_label`): no types, one spelling of
  keywords, operators, literals, identifiers and the common library calls; a C-family
  ``/`` is integer division ``//`` or true division ``/`` by its operands' declared types
  (:mod:`graphs.neutral.division`);
- **a declaration without initializer** is no node (it declares a name, which Python and
  JavaScript do not write; C++ containers and strings keep their default value);
- **a counted loop** ``for (int i = a; i < b; i++)`` is ``for i in range(a, b)``, as
  Python writes it: the initializer, the condition and the update become one loop node
  that defines ``i`` for its body (only when nothing else in the loop assigns ``i`` and
  nothing after the loop reads it; ``<=`` is ``range(a, b + 1)``, a step ``k`` is
  ``range(a, b, k)``, a countdown ``range(a, b - 1, -1)``); Python's ``range(n)`` is
  ``range(0, n)``;
- **locals are renamed again**, after the neutral label of their first definition, as the
  PDG names them within one language (``v`` + a digest), so a local declared ``int x = 0``
  in Java and ``x = 0`` in Python gets one name.

The result has the attributes of the input graph, ``neutral: True``, and per node the
neutral ``label``, the original in ``source_label``, and ``rules`` (what was applied).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx

from graphs.neutral import vocabulary
from graphs.neutral.calls import CallTable
from graphs.neutral.copies import propagate_copies
from graphs.neutral.division import typed_divisions
from graphs.neutral.indexed import enumerate_loops, indexed_loops
from graphs.neutral.io import io_model
from graphs.neutral.labels import LabelMapping, neutral_label
from graphs.neutral.pipelines import expand
from graphs.neutral.receivers import receiver_definitions
from graphs.neutral.sorting import expand_sorted
from graphs.neutral.temporaries import fold_temporaries
from graphs.neutral.tokens import (
    is_local,
    is_word,
    matching,
    render_tokens,
    split_label,
    top_level,
)
from graphs.pdg.naming import digest_name

__all__ = ["NeutralReport", "neutral_pdg"]

_DATA = "data"
_CARRIED = "data-carried"


@dataclass(frozen=True)
class NeutralReport:
    """What the neutral map did to one side's graph or tree.

    Attributes
    ----------
    language : the side's language.
    labels : per node (in node order), the mapping of its label.
    unknown : words the map did not know (library calls it cannot translate), with their
        counts, most frequent first; the program's own functions are not counted.
    unknown_share : the share of labels with at least one unknown word (0 for none).
    rules : how often each rule was applied (``call:length``, ``declaration``, ...).
    idioms : structural rewrites (``counted loop -> range``), one entry per rewrite.
    """

    language: str
    labels: tuple[LabelMapping, ...]
    unknown: tuple[tuple[str, int], ...] = ()
    unknown_share: float = 0.0
    rules: tuple[tuple[str, int], ...] = ()
    idioms: tuple[str, ...] = field(default=())

    def describe(self) -> str:
        """One line for reasons: the share of labels the map did not know, and which
        words (at most five)."""
        if not self.unknown:
            return f"{self.language}: every label mapped"
        words = ", ".join(w for w, _ in self.unknown[:5])
        more = "" if len(self.unknown) <= 5 else f" and {len(self.unknown) - 5} more"
        return (f"{self.language}: {self.unknown_share:.0%} of labels not known to the "
                f"map ({words}{more})")


def neutral_pdg(graph: nx.MultiDiGraph, language: str | None = None,
                table: CallTable | None = None) -> tuple[nx.MultiDiGraph, NeutralReport]:
    """The language-neutral form of a PDG, and what was done (see the module doc).

    Parameters
    ----------
    graph : a PDG of :func:`graphs.build_pdg` (normalised labels).
    language : its language (default: ``graph.graph["language"]``).
    table : the call table (default :meth:`CallTable.default`).

    Returns
    -------
    (graph, report) : a new graph (the input is not changed) and its
        :class:`NeutralReport`.

    Examples
    --------
    >>> import graphs
    >>> from graphs.neutral import neutral_pdg
    >>> java = graphs.build_pdg("int f(int[] a) { int s = 0; "
    ...     "for (int i = 0; i < a.length; i++) { s += a[i] * i; } return s; }", "java")
    >>> py = graphs.build_pdg("def f(a):\\n    s = 0\\n    for i in range(len(a)):\\n"
    ...     "        s += a[i] * i\\n    return s\\n", "python")
    >>> [d["label"] for _, d in neutral_pdg(java)[0].nodes(data=True)] == [
    ...     d["label"] for _, d in neutral_pdg(py)[0].nodes(data=True)]
    True
    """
    language = language or graph.graph.get("language")
    if not language:
        raise ValueError("the graph has no language: pass language=")
    table = table or CallTable.default()
    kinds = {n: d.get("kind", "statement") for n, d in graph.nodes(data=True)}
    sources = {n: str(d.get("label", "")) for n, d in graph.nodes(data=True)}
    mappings = {n: neutral_label(sources[n], kinds[n], language, table) for n in sources}
    # the C family's `/` is integer or true division by its operands' declared types,
    # which only the whole graph knows (the map of one label has no types to read)
    for n, (typed, rules) in typed_divisions(sources, kinds, language).items():
        m = neutral_label(typed, kinds[n], language, table)
        mappings[n] = LabelMapping(sources[n], m.label, (*rules, *m.rules), m.unknown)
    labels = {n: m.label for n, m in mappings.items()}
    edges = [(u, v, dict(d)) for u, v, d in graph.edges(data=True)]
    idioms: list[str] = []
    removed = {n for n, lab in labels.items() if lab is None}
    for header in sorted(n for n in graph.nodes if kinds[n] == "for"):
        merged = _counted_loop(header, labels, edges)
        if merged is not None:
            labels[header], gone, edges = merged
            removed |= gone
            idioms.append("counted loop -> range")
    kept = [n for n in sorted(graph.nodes) if n not in removed]
    edges = [(u, v, d) for u, v, d in edges if u not in removed and v not in removed]
    io = io_model(kept, labels, kinds, sources, edges, language)
    plumbing = set(kept) - set(io.order)
    kept, edges = io.order, io.edges
    idioms.extend(io.idioms)
    kept, added, edges = _expand_pipelines(kept, labels, kinds, edges)
    if added:
        idioms.extend(["pipeline -> loop"] * len({n for n, _ in added.values()}))
    added.update({i: (origin, kinds[i]) for i, origin in io.added.items()})
    for n in kept:  # the loops of pipelines too
        if kinds[n] == "foreach" and labels[n]:
            labels[n] = _python_range(str(labels[n]))
    edges, enumerated = enumerate_loops(kept, labels, edges)
    idioms.extend(["enumerate -> indexed loop"] * enumerated)
    taken = {t for n in kept for t in split_label(labels[n] or "")}
    fresh = [name for k in range(1, 65) if (name := f"v00e_{k}") not in taken]
    edges, indexed = indexed_loops(kept, labels, edges, fresh)
    idioms.extend(["indexed loop -> foreach"] * indexed)
    fresh = [name for k in range(1, 65) if (name := f"v00f_{k}") not in taken]
    kept, edges, sorts = expand_sorted(kept, labels, kinds, edges, fresh)
    for i, origin in sorts.items():
        added[i] = (added[origin][0] if origin in added else origin, kinds[i])
    idioms.extend(["sorted -> copy and sort"] * (len(sorts) // 2))
    idioms.extend(["string buffer -> string"] * _string_buffers(kept, labels))
    edges = _known_effects(kept, labels, edges)
    edges = _known_definitions(kept, labels, kinds, edges)
    edges, receivers = receiver_definitions(kept, labels, kinds, edges, _effectful)
    idioms.extend(["receiver call -> defines the receiver"] * receivers)
    kept, edges, folded = fold_temporaries(kept, labels, kinds, edges, _effectful)
    idioms.extend(["temporary -> its reader"] * folded)
    kept, edges, copies = propagate_copies(kept, labels, kinds, edges)
    idioms.extend(["copy -> the copied local"] * copies)
    rename = _canonical_locals(kept, labels, kinds, edges)
    out = nx.MultiDiGraph()
    out.graph.update(graph.graph)
    out.graph["neutral"] = True
    out.graph["local_names"] = {rename.get(name, name): identifier for name, identifier
                                in graph.graph.get("local_names", {}).items()}
    index = {n: i for i, n in enumerate(kept)}
    for n in kept:
        if n in added:
            origin = graph.nodes[added[n][0]]
            attrs = {"text": origin.get("text", ""), "line": origin.get("line", 1),
                     "kind": kinds[n], "source_label": None,
                     "rules": io.rules[n] if n in io.added else
                     ("sorted",) if n in sorts else ("pipeline",)}
        else:
            attrs = dict(graph.nodes[n])
            attrs["source_label"] = attrs.get("label")
            attrs["rules"] = mappings[n].rules + io.rules.get(n, ())
        attrs["label"] = _renamed(str(labels[n]), rename)
        out.add_node(index[n], **attrs)
    seen: set[tuple[int, int, str]] = set()
    for u, v, d in edges:
        key = (index[u], index[v], str(d.get("dep")))
        if key in seen:
            continue
        seen.add(key)
        if "var" in d:
            d["var"] = rename.get(d["var"], d["var"])
        out.add_edge(index[u], index[v], **d)
    io_rules = Counter(r for rules in io.rules.values() for r in rules)
    # plumbing has no statement: its label maps to none, and what it called is no unknown
    mappings.update({n: LabelMapping(mappings[n].source, None,
                                     (*mappings[n].rules, "io:plumbing"))
                     for n in plumbing})
    return out, _report(language, graph, mappings, idioms, io_rules, io.resolved)


def _report(language: str, graph: nx.MultiDiGraph, mappings: dict[int, LabelMapping],
            idioms: list[str], io_rules: Counter[str] | None = None,
            resolved: frozenset[str] = frozenset()) -> NeutralReport:
    own = set(resolved)
    for n, d in graph.nodes(data=True):
        if d.get("kind") in ("entry", "function"):
            lab = mappings[n].label or ""
            toks = split_label(lab)
            if len(toks) > 1 and toks[0] == "def":
                own.add(toks[1])
    ordered = [mappings[n] for n in sorted(graph.nodes)]
    unknown: Counter[str] = Counter()
    with_unknown = 0
    for m in ordered:
        words = [w for w in m.unknown if w not in own]
        unknown.update(words)
        with_unknown += bool(words)
    rules: Counter[str] = Counter(r for m in ordered for r in m.rules)
    rules.update(io_rules or {})
    share = with_unknown / len(ordered) if ordered else 0.0
    return NeutralReport(language, tuple(ordered),
                         tuple(sorted(unknown.items(), key=lambda kv: (-kv[1], kv[0]))),
                         share, tuple(sorted(rules.items())), tuple(idioms))


# ------------------------------------------------------------------------ counted loops

_STEPS = {"+=": 1, "-=": -1}
#: operators that end a loop bound (a condition with one of them is more than a bound)
_NOT_IN_BOUND = frozenset({"and", "or", "?", ":", "<", ">", "<=", ">=", "==", "!=", "in",
                           "not", "=", "=>"})


def _counted_loop(header: int, labels: dict[int, str | None],
                  edges: list[tuple[int, int, dict]]
                  ) -> tuple[str, set[int], list[tuple[int, int, dict]]] | None:
    """``i = a; while i < b: ...; i += 1`` (a classic ``for``) as ``for i in range(a, b)``;
    the condition may be written the other way round (``while 0 < i``, as the PDG writes
    ``i > 0``: see :mod:`graphs.canon.orientation`)."""
    head = split_label(labels[header] or "")
    if len(head) < 4 or head[0] != "while":
        return None
    found = None
    for var, op, bound in ((head[1], head[2], head[3:]),
                           (head[-1], _MIRRORED.get(head[-2], ""), head[1:-2])):
        if is_local(var) and op in ("<", "<=", ">", ">=", "!=") and bound and \
                not top_level(bound, _NOT_IN_BOUND):  # `i < n && ok`: more than a bound
            found = _counted(header, labels, edges, var, op, bound)
            if found is not None:
                break
    return found


_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def _counted(header: int, labels: dict[int, str | None], edges: list[tuple[int, int, dict]],
             var: str, op: str, bound: list[str]
             ) -> tuple[str, set[int], list[tuple[int, int, dict]]] | None:
    """:func:`_counted_loop` for the condition ``var op bound``."""
    into = [(u, d) for u, v, d in edges if v == header and d.get("var") == var
            and d.get("type") == _DATA]
    inits = [u for u, d in into if d.get("dep") == _DATA]
    updates = [u for u, d in into if d.get("dep") == _CARRIED]
    if len(inits) != 1 or len(updates) != 1 or inits[0] == updates[0]:
        return None
    init, update = inits[0], updates[0]
    init_toks = split_label(labels[init] or "")
    upd = split_label(labels[update] or "")
    if len(init_toks) < 3 or init_toks[:2] != [var, "="] or "," in init_toks:
        return None
    if len(upd) != 3 or upd[0] != var or upd[1] not in _STEPS or not upd[2].isdigit():
        return None
    step = _STEPS[upd[1]] * int(upd[2])
    # the update's definition must not be read after the loop (only round it)
    for u, _v, d in edges:
        if u == update and d.get("var") == var and d.get("dep") != _CARRIED:
            return None
    start = init_toks[2:]
    if op == "<" and step > 0 or op == "!=" and step == 1 or op == ">" and step < 0:
        stop = bound
    elif op == "<=" and step > 0:
        stop = _plus(bound, 1)
    elif op == ">=" and step < 0:
        stop = _plus(bound, -1)
    else:
        return None
    args = [*start, ",", *stop] + ([] if step == 1 else [",", str(step)])
    label = render_tokens(["for", var, "in", "range", "(", *args, ")"])
    gone = {init, update}
    new_edges: list[tuple[int, int, dict]] = []
    for u, v, d in edges:
        if v in gone or (u == update):
            if v == init and u not in gone and d.get("type") == _DATA:
                # what the initializer reads, the loop reads
                new_edges.append((u, header, d))
            continue
        if u == init:
            if v == header:
                continue
            new_edges.append((header, v, d))
            continue
        new_edges.append((u, v, d))
    return label, gone, new_edges


def _plus(toks: list[str], k: int) -> list[str]:
    if len(toks) == 1 and toks[0].lstrip("-").isdigit():
        return [str(int(toks[0]) + k)]
    if len(toks) == 3 and toks[1] in ("+", "-") and toks[2].isdigit():
        value = (int(toks[2]) if toks[1] == "+" else -int(toks[2])) + k
        if value == 0:
            return toks[:1]
        return [toks[0], "+" if value > 0 else "-", str(abs(value))]
    return [*toks, "+" if k > 0 else "-", str(abs(k))]


def _python_range(label: str) -> str:
    """``for i in range(n)`` -> ``for i in range(0, n)``; a step of 1 goes."""
    toks = split_label(label)
    if len(toks) < 6 or toks[0] != "for" or toks[2:5] != ["in", "range", "("] \
            or toks[-1] != ")":
        return label
    inner = toks[5:-1]
    commas = top_level(inner, ",")
    if not commas:
        args = ["0", ",", *inner]
    elif len(commas) == 2 and inner[commas[1] + 1:] == ["1"]:
        args = inner[:commas[1]]
    else:
        return label
    return render_tokens([*toks[:5], *args, ")"])


# ------------------------------------------------------------------------ string buffers


def _string_buffers(order: list[int], labels: dict[int, str | None]) -> int:
    """A local that only ever holds a string (every definition is ``v = "..."`` or ``v =
    str(...)``: Java's and C#'s ``StringBuilder`` after the table) is a string: appending
    to it is ``v += x`` and ``str(v)`` is ``v``, as C++, JavaScript and Python build a
    string. Labels are updated in place; returns the number of locals."""
    if not any('= ""' in (labels[n] or "") or "= str(" in (labels[n] or "") for n in order):
        return 0
    toks = {n: split_label(labels[n] or "") for n in order}
    holds: dict[str, bool] = {}
    for n in order:
        t = toks[n]
        if len(t) >= 3 and is_local(t[0]) and t[1] == "=":
            rhs = t[2:]
            text = len(rhs) == 1 and rhs[0][:1] == '"' or rhs[:2] == ["str", "("] and \
                matching(rhs, 1) == len(rhs) - 1
            holds[t[0]] = holds.get(t[0], True) and text
    strings = {v for v, ok in holds.items() if ok}
    if not strings:
        return 0
    used = set()
    for n in order:
        t = toks[n]
        new = t
        if len(t) > 5 and t[0] in strings and t[1:4] == [".", "append", "("] \
                and matching(t, 3) == len(t) - 1:
            new = [t[0], "+=", *t[4:-1]]
        out: list[str] = []
        k = 0
        while k < len(new):
            if new[k:k + 2] == ["str", "("] and k + 3 < len(new) and new[k + 2] in strings \
                    and new[k + 3] == ")" and not (k and new[k - 1] in (".", "?.")):
                out.append(new[k + 2])
                k += 4
                continue
            out.append(new[k])
            k += 1
        if out != t:
            used.update(x for x in out if x in strings)
            labels[n] = render_tokens(out)
    return len(used)


# ------------------------------------------------------------------------ pipelines

_NOT_EXPANDED = frozenset({"entry", "param", "function"})
#: pipelines expanded per statement at most (nested ones are rare)
_MAX_PIPELINES = 3


def _expand_pipelines(order: list[int], labels: dict[int, str | None],
                      kinds: dict[int, str], edges: list[tuple[int, int, dict]]
                      ) -> tuple[list[int], dict[int, tuple[int, str]],
                                 list[tuple[int, int, dict]]]:
    """Every comprehension and filter/map chain as its loop
    (:mod:`graphs.neutral.pipelines`). Returns the node order, the new nodes (id ->
    (the statement they came from, kind)) and the edges."""
    taken = {t for n in order for t in split_label(labels[n] or "")}
    counter = 0

    def fresh_names() -> list[str]:
        nonlocal counter
        names = []
        while len(names) < 6:
            counter += 1
            name = f"v000_{counter}"
            if name not in taken:
                names.append(name)
        return names

    next_id = max(order, default=0) + 1
    new_order: list[int] = []
    added: dict[int, tuple[int, str]] = {}
    for n in order:
        if kinds[n] in _NOT_EXPANDED or not labels[n]:
            new_order.append(n)
            continue
        for _ in range(_MAX_PIPELINES):
            result = expand(str(labels[n]), fresh_names())
            if result is None:
                break
            nodes, statement, lst = result
            ids = list(range(next_id, next_id + len(nodes)))
            next_id += len(nodes)
            for i, (kind, label) in zip(ids, nodes, strict=True):
                labels[i] = label
                kinds[i] = kind
                added[i] = (n, kind)
            new_order.extend(ids)
            labels[n] = statement
            edges = _loop_edges(n, ids, nodes, statement, lst, edges)
        new_order.append(n)
    return new_order, added, edges


def _control(dep: str) -> dict:
    return {"type": "control", "dep": dep}


def _data(var: str, dep: str = _DATA) -> dict:
    return {"type": _DATA, "var": var, "dep": dep}


def _loop_edges(n: int, ids: list[int], nodes: list[tuple[str, str]], statement: str,
                lst: str, edges: list[tuple[int, int, dict]]) -> list[tuple[int, int, dict]]:
    decl, loop, append = ids[0], ids[1], ids[-1]
    test = ids[2] if len(ids) == 4 else None
    reads = {i: set(split_label(label)) for i, (_, label) in zip(ids, nodes, strict=True)}
    stays = set(split_label(statement))
    out: list[tuple[int, int, dict]] = []
    for u, v, d in edges:
        if v != n or u == n:
            out.append((u, v, d))
            continue
        if d.get("type") == "control":
            out.append((u, v, d))
            out.append((u, decl, dict(d)))
            out.append((u, loop, dict(d)))
            continue
        var = d.get("var")
        targets = [i for i in (loop, test, append) if i is not None and var in reads[i]]
        for i in targets:
            out.append((u, i, dict(d)))
        if not targets or var in stays:
            out.append((u, v, d))
    out.append((loop, loop, _control("control-true")))
    if test is not None:
        out.append((loop, test, _control("control-true")))
        out.append((test, append, _control("control-true")))
    else:
        out.append((loop, append, _control("control-true")))
    out += [(decl, append, _data(lst)), (append, append, _data(lst, _CARRIED)),
            (decl, n, _data(lst)), (append, n, _data(lst))]
    loop_vars = set(split_label(nodes[1][1].split(" in ", 1)[0]))
    for var in sorted(v for v in loop_vars if is_local(v)):
        for i in (test, append):
            if i is not None and var in reads[i]:
                out.append((loop, i, _data(var)))
    return out


# ------------------------------------------------------------------------ effects

_EFFECT = "effect"


def _effectful(label: str | None) -> bool:
    toks = split_label(label or "")
    return any(is_word(t) and toks[i + 1] == "(" and t not in vocabulary.PURE_CALLS
               for i, t in enumerate(toks[:-1]))


def _known_effects(order: list[int], labels: dict[int, str | None],
                   edges: list[tuple[int, int, dict]]) -> list[tuple[int, int, dict]]:
    """Effect edges only between calls of unknown effect in the neutral vocabulary.

    Each language's PDG orders the calls *it* does not know to be pure; the neutral map
    knows more (``"aeiou".indexOf(c)`` is ``c in "aeiou"``). A node left without such a
    call leaves the effect chain: its effect predecessors are linked to its effect
    successors (carried when either link was)."""
    effect = [(u, v, d) for u, v, d in edges if str(d.get("dep", "")).startswith(_EFFECT)]
    if not effect:
        return edges
    pure = {n for n in order if not _effectful(labels[n])}
    involved = {n for u, v, _ in effect for n in (u, v)} & pure
    if not involved:
        return edges
    rest = [(u, v, d) for u, v, d in edges if not str(d.get("dep", "")).startswith(_EFFECT)]
    chain = [(u, v, str(d.get("dep")).endswith("-carried")) for u, v, d in effect]
    for n in sorted(involved):
        into = [(u, c) for u, v, c in chain if v == n and u != n]
        out_of = [(v, c) for u, v, c in chain if u == n and v != n]
        chain = [(u, v, c) for u, v, c in chain if n not in (u, v)]
        for u, c1 in into:
            for v, c2 in out_of:
                chain.append((u, v, c1 or c2))
    seen = set()
    for u, v, carried in chain:
        if (u, v, carried) in seen:
            continue
        seen.add((u, v, carried))
        dep = _EFFECT + ("-carried" if carried else "")
        rest.append((u, v, {"type": _DATA, "var": "<effects>", "dep": dep}))
    return rest


_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                     "**=", "//=", ">>>="})


def _defines(toks: list[str], kind: str, var: str) -> bool:
    """Whether a node labelled ``toks`` may define ``var`` in the neutral vocabulary: a
    parameter, an assignment target, a loop variable, ``++``/``--``, a call of unknown
    effect on it or given it."""
    if kind in ("param", "catch", "with") or var not in toks:
        return kind in ("param", "catch", "with")
    assign = top_level(toks, _ASSIGN)
    if assign and var in toks[:assign[0]]:
        return True
    if toks[:1] == ["for"] and "in" in toks and var in toks[:toks.index("in")]:
        return True
    for i, t in enumerate(toks):
        if t != var:
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if nxt in ("++", "--") or (i and toks[i - 1] in ("++", "--", "&")):
            return True
    for i, t in enumerate(toks[:-1]):
        if is_word(t) and toks[i + 1] == "(" and t not in vocabulary.PURE_CALLS:
            return True  # an effectful call anywhere in the label: it may write var
    return False


def _known_definitions(order: list[int], labels: dict[int, str | None],
                       kinds: dict[int, str], edges: list[tuple[int, int, dict]]
                       ) -> list[tuple[int, int, dict]]:
    """Data edges only from nodes that may define their variable in the neutral
    vocabulary: a language's PDG takes a method call on a local to update it unless it
    knows the method pure (``s.toCharArray()`` in Java); once the map has made it a known
    pure form, that weak definition is no definition."""
    toks = {n: split_label(labels[n] or "") for n in order}
    out = []
    for u, v, d in edges:
        var = d.get("var")
        if d.get("type") == _DATA and var and var != "<effects>" and u in toks \
                and not _defines(toks[u], kinds.get(u, ""), var):
            continue
        out.append((u, v, d))
    return out


# ------------------------------------------------------------------------ local names


def _canonical_locals(nodes: list[int], labels: dict[int, str | None],
                      kinds: dict[int, str], edges: Iterable[tuple[int, int, dict]]
                      ) -> dict[str, str]:
    """New names for the locals (not parameters, not lambda names): ``v`` + a digest of the
    neutral label of the first node that defines them, the local as ``•`` and the other
    locals as ``_`` (how :func:`graphs.build_pdg` names them within one language)."""
    params = set()
    for n in nodes:
        if kinds[n] == "param":
            params.update(t for t in split_label(labels[n] or "") if is_local(t))
    first_def: dict[str, int] = {}
    for u, _v, d in edges:
        var = d.get("var")
        if var and d.get("type") == _DATA and (var not in first_def or u < first_def[var]):
            first_def[var] = u
    tokens = {n: split_label(labels[n] or "") for n in nodes}
    first_seen: dict[str, int] = {}
    for n in nodes:
        for t in tokens[n]:
            if is_local(t) and t not in params and not t.startswith("b"):
                first_seen.setdefault(t, n)
    locals_ = list(first_seen)
    if not locals_:
        return {}
    node_of = {name: first_def.get(name, first_seen[name]) for name in locals_}
    node_of = {name: (n if n in tokens else first_seen[name]) for name, n in node_of.items()}

    def signature(name: str, n: int) -> str:
        return render_tokens(["\u2022" if t == name else "_" if t in first_seen else t
                              for t in tokens[n]])

    sigs = {name: signature(name, node_of[name]) for name in locals_}
    groups: dict[str, list[str]] = {}
    for name, sig in sigs.items():
        groups.setdefault(sig, []).append(name)
    for sig, tied in groups.items():
        if len(tied) < 2:
            continue
        full = {name: sig + "\n" + "\n".join(sorted(
            {signature(name, n) for n in nodes if name in tokens[n]})) for name in tied}
        keeps = min(tied, key=full.__getitem__)
        for name in tied:
            if name != keeps:
                sigs[name] = full[name]
    rename: dict[str, str] = {}
    taken: set[str] = set(params)
    for name in sorted(locals_, key=lambda x: (first_seen[x], x)):
        rename[name] = digest_name(sigs[name], taken)
    return rename


def _renamed(label: str, rename: dict[str, str]) -> str:
    if not rename:
        return label
    toks = split_label(label)
    if not any(t in rename for t in toks):
        return label
    return render_tokens([rename.get(t, t) if is_word(t) else t for t in toks])
