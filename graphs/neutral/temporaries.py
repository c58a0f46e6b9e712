"""Single-use temporaries folded with what the neutral vocabulary knows.

Within one language, :func:`graphs.build_pdg` folds a temporary into its one reader
(``T t = e; return f(t);`` is ``return f(e);``) unless both the value and the reader call
something: a call of unknown effect could change order. What counts as a call is the
language's own spelling, so one computation folds in one language and not in the other:
C# reads a property (``atn.states[State]``, no call: folded), Java calls its getter
(``atn.states.get(getState())``: two calls, kept). Once both are in the neutral vocabulary
the value is the same known-pure expression, so the same rule applies again here, with the
neutral knowledge (:data:`~graphs.neutral.vocabulary.PURE_CALLS`, the call table):

- ``d`` is ``t = e``, ``t`` a local that no other label mentions but ``d`` (once) and its
  one reader ``u`` (once, as a value: not a receiver ``t.m()``, not a callee, not a
  target);
- ``u`` is a statement, declaration, return, ``if``, ``throw`` or ``switch`` (not a loop
  header: it is evaluated again on each iteration) further down the same straight line:
  ``d``, ``u`` and every node between them hang on the same controllers, and none of the
  nodes between writes what ``e`` reads;
- not both ``e`` and ``u`` (or a node between) call something of unknown effect, and an
  effectful ``e`` is not read in a branch of ``and``, ``or`` or ``?:``.

``u`` then reads ``e`` where it read ``t`` (in parentheses unless ``e`` is one operand or
fills a whole slot: an argument, an index, a right-hand side, a returned value); what
``d`` read, ``u`` reads; ``d``'s effect and data successors are ``u``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from graphs.neutral.tokens import is_local, operand_end, render_tokens, split_label, top_level

__all__ = ["fold_temporaries"]

_DATA = "data"
#: node kinds a temporary folds into (as :mod:`graphs.canon.rewrites` has it: no loop header)
_TARGETS = frozenset({"return", "statement", "declaration", "if", "throw", "switch"})
_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                     "**=", "//=", ">>>="})
#: tokens before a slot the value fills whole (with a closing token or the end after it)
_SLOT_OPEN = frozenset({"(", ",", "["}) | _ASSIGN
_SLOT_WHOLE = frozenset({"return", "if", "raise", "throw", "switch"})
_SLOT_CLOSE = frozenset({")", ",", "]"})
_CONDITIONAL = frozenset({"and", "or", "?", ":", "??"})
#: temporaries folded into one reader, at most (as within one language)
_MAX_PER_READER = 8


def fold_temporaries(order: list[int], labels: dict[int, str | None], kinds: dict[int, str],
                     edges: list[tuple[int, int, dict]],
                     effectful: Callable[[str | None], bool]
                     ) -> tuple[list[int], list[tuple[int, int, dict]], int]:
    """Fold every single-use temporary the neutral vocabulary shows pure enough (see the
    module doc). ``labels`` is updated in place for the readers.

    Parameters
    ----------
    order : the nodes in program order.
    labels, kinds : per node, its neutral label and kind.
    edges : ``(u, v, attrs)`` of the graph (control, data and effect edges).
    effectful : whether a neutral label calls something of unknown effect.

    Returns
    -------
    (order, edges, folded) : without the folded temporaries, and how many were folded.

    Examples
    --------
    >>> labels = {0: "def f(_)", 1: "v0", 2: "vaaa = v0[1]", 3: "return g(vaaa)"}
    >>> kinds = {0: "entry", 1: "param", 2: "declaration", 3: "return"}
    >>> c = {"type": "control", "dep": "control"}
    >>> edges = [(0, 1, c), (0, 2, c), (0, 3, c),
    ...          (1, 2, {"type": "data", "var": "v0", "dep": "data"}),
    ...          (2, 3, {"type": "data", "var": "vaaa", "dep": "data"})]
    >>> order, edges, n = fold_temporaries([0, 1, 2, 3], labels, kinds, edges,
    ...                                    lambda label: False)
    >>> order, labels[3], n, sorted((u, v) for u, v, _ in edges)
    ([0, 1, 3], 'return g(v0[1])', 1, [(0, 1), (0, 3), (1, 3)])
    """
    toks = {n: split_label(labels[n] or "") for n in order}
    names = {toks[n][0] for n in order if kinds.get(n) in ("declaration", "statement")
             and len(toks[n]) > 2 and toks[n][1] == "=" and is_local(toks[n][0])}
    if not names:
        return order, edges, 0
    mentions: dict[str, int] = {}
    for n in order:
        for t in toks[n]:
            if t in names:
                mentions[t] = mentions.get(t, 0) + 1
    if 2 not in mentions.values():
        return order, edges, 0
    controllers: dict[int, set[tuple[int, str]]] = {}
    for u, v, a in edges:
        if a.get("type") == "control":
            controllers.setdefault(v, set()).add((u, str(a.get("dep"))))
    folded = 0
    per_reader: dict[int, int] = {}
    # from the last statement up: a chain of temporaries folds into its reader in turn
    for d in reversed(list(order)):
        fold = _fold_of(d, order, toks, kinds, edges, mentions, effectful, controllers)
        if fold is None:
            continue
        u, new = fold
        if per_reader.get(u, 0) >= _MAX_PER_READER:
            continue
        per_reader[u] = per_reader.get(u, 0) + 1
        name = toks[d][0]
        mentions.pop(name, None)
        toks[u] = new
        labels[u] = render_tokens(new)
        edges = _moved(d, u, name, edges)
        order = [n for n in order if n != d]
        folded += 1
    return order, edges, folded


def _fold_of(d: int, order: list[int], toks: dict[int, list[str]], kinds: dict[int, str],
             edges: list[tuple[int, int, dict]], mentions: dict[str, int],
             effectful: Callable[[str | None], bool],
             controllers: dict[int, set[tuple[int, str]]]) -> tuple[int, list[str]] | None:
    """``(reader, its new tokens)`` when ``d`` is a temporary that folds, else None."""
    head = toks[d]
    if kinds.get(d) not in ("declaration", "statement") or len(head) < 3 \
            or head[1] != "=" or not is_local(head[0]) or mentions.get(head[0]) != 2:
        return None
    name, value = head[0], head[2:]
    if name in value or top_level(value, ",") or top_level(value, _ASSIGN):
        return None
    readers = [v for u, v, a in edges if u == d and a.get("var") == name]
    if len(readers) != 1 or readers[0] == d or kinds.get(readers[0]) not in _TARGETS:
        return None
    u = readers[0]
    if any(u2 == d and v2 == u and a.get("dep") != _DATA and a.get("var") == name
           for u2, v2, a in edges):
        return None  # read round a loop, not further down
    pos = order.index(d)
    if u not in order[pos + 1:]:
        return None
    between = order[pos + 1:order.index(u)]
    parents = controllers.get(d, set())
    if any(controllers.get(n, set()) != parents for n in (*between, u)):
        return None  # a branch or a loop in between, or the reader elsewhere
    calls = effectful(render_tokens(value))
    if calls and any(effectful(render_tokens(toks[n])) for n in (*between, u)):
        return None  # both call something: the calls could change order
    reads = {a.get("var") for x, v, a in edges if v == d and a.get("type") == _DATA}
    if any(a.get("var") in reads for x, v, a in edges
           if x in between and a.get("type") == _DATA):
        return None  # something in between writes what the value reads
    reader = toks[u]
    at = [i for i, t in enumerate(reader) if t == name]
    if len(at) != 1:
        return None
    i = at[0]
    after = reader[i + 1] if i + 1 < len(reader) else None
    before = reader[i - 1] if i else None
    if after in (".", "?.", "(") or after in _ASSIGN:
        return None  # a receiver, a callee or a target
    if calls and any(t in _CONDITIONAL for t in reader[:i]):
        return None  # an effectful value would run on one branch only
    if calls and "if" in reader[1:] and "else" in reader[1:]:
        return None
    return u, [*reader[:i], *_slot(value, before, after), *reader[i + 1:]]


def _slot(value: list[str], before: str | None, after: str | None) -> list[str]:
    """``value`` as it reads between ``before`` and ``after``: in parentheses unless it is
    one operand or fills the slot whole."""
    ends = operand_end(value, 0, unary=True)
    if ends and ends[-1] == len(value):
        return value
    whole = (before in _SLOT_OPEN and (after is None or after in _SLOT_CLOSE)) or (
        before in _SLOT_WHOLE and after is None)
    return value if whole else ["(", *value, ")"]


def _moved(d: int, u: int, name: str, edges: list[tuple[int, int, dict]]
           ) -> list[tuple[int, int, dict]]:
    """The edges with ``d`` folded into ``u``: what ``d`` read ``u`` reads, ``d``'s other
    successors (effects, weak definitions) are ``u``'s, ``d``'s controllers go."""
    out: list[tuple[int, int, dict]] = []
    for x, y, a in edges:
        if x == d and (y == d or y == u and a.get("var") == name):
            continue
        if y == d:
            if a.get("type") == "control":
                continue
            if x != u:
                out.append((x, u, a))
            continue
        if x == d:
            if y != u or a.get("var") != name:
                out.append((u, y, a))
            continue
        out.append((x, y, a))
    return out
