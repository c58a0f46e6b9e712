"""Definitions and uses of variables, and reaching definitions over a CFG.

:class:`Walker` reads the syntax of one PDG node (a statement, or the header of a compound
statement) once, producing both its label tokens and its variable references. Each
reference carries a mode (:class:`graphs.roles.Ctx`):

- ``DECL``: a declaration (local, parameter, loop variable, catch parameter, C# ``out var``,
  Python assignment target); ``DEF``: an assignment; ``DEFUSE``: ``x += 1``, ``x++``, C#
  ``ref x``; ``USE``: a read.
- ``WEAK``: a partial write that does not kill earlier definitions and also reads: the base of
  an element or member store (``a[i] = v`` and ``p.f = v`` weakly define ``a`` and ``p``), C's
  ``&x`` and ``*p = v``, and writes inside lambdas (they may run).
- ``BIND``: names bound by lambdas and comprehensions: renamed in labels like locals, but not
  data-flow definitions of the enclosing function.

Fields: ``this.x`` / ``self.x`` are references to the field ``x``. A bare ``x`` is the same
variable when the function declares no local called ``x`` (Java/C#/JS semantics; for
Python, an undeclared bare name is a global, which we do not distinguish). Method names in
calls (Java, C#), member names after ``.`` and type names are not variables; in Python, JS,
C and C++ a callee identifier is read, because functions are values there (it only matters
when the callee is a local).

:func:`reaching_definitions` is the classic gen/kill fixed point over a CFG, with Python ints
as bitsets; loop-carried dependences come out of the back edges.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import tree_sitter

from graphs.labels import (
    COLON_TYPES,
    POSTFIX,
    PREFIX,
    STICKY,
    TIGHT,
    TIGHT_TYPES,
    UNARY_TYPES,
    TokenBuffer,
)
from graphs.roles import Ctx, LanguageRoles

__all__ = ["Facts", "Ref", "Walker", "data_dependences", "reaching_definitions"]

_USE, _DEF, _DEFUSE, _WEAK, _DECL, _BIND, _TYPE, _NAME = (
    Ctx.USE, Ctx.DEF, Ctx.DEFUSE, Ctx.WEAK, Ctx.DECL, Ctx.BIND, Ctx.TYPE, Ctx.NAME)
_WRITES = frozenset({_DEF, _DEFUSE, _WEAK, _DECL})
# In a pattern under a definition context, these fields are still read (defaults, sizes).
_READ_FIELDS = frozenset({"size", "default_value", "right", "arguments", "index"})

# Stack item tags of the walk.
_NODE, _FIELD_REF, _TOKEN = 0, 1, 2


# Roles a syntax node type can play in Walker.walk, in the order walk tests them.
(_MEMBER, _SUBSCRIPT, _CALL, _ASSIGN, _UPDATE, _DECLARATION, _ARGUMENT_MODIFIER,
 _ADDRESS_OF) = range(1, 9)
_NO_SPECIAL: dict[int, Ctx] = {}  # never written: walk assigns a fresh dict before filling


class _TypeInfo:
    """Everything :meth:`Walker.walk` asks about one node type, answered once per language.

    The walk visits ~20 nodes per statement and used to test each type against a dozen
    role tables; one dict lookup of this record replaces those tests.
    """

    __slots__ = ("identifier", "literal", "comment", "type_node", "nested", "leaf_hint",
                 "role", "qualified", "interpolation", "pattern", "field_ctx",
                 "any_field_ctx")

    @classmethod
    def of(cls, t: str, roles: LanguageRoles) -> _TypeInfo:
        info = cls()
        info.identifier = t in roles.identifiers
        info.literal = roles.literals.get(t)
        info.comment = t in roles.comments
        info.type_node = t in roles.type_nodes
        info.nested = t in roles.nested
        info.leaf_hint = (PREFIX if t in UNARY_TYPES else TIGHT if t in TIGHT_TYPES
                          else STICKY if t in COLON_TYPES else 0)
        tables = (roles.members, roles.subscripts, roles.calls, roles.assignments,
                  roles.updates, roles.declarations, roles.argument_modifiers,
                  roles.address_of)
        info.role = next((code for code, table in enumerate(tables, 1) if t in table), 0)
        info.qualified = t in roles.qualified
        info.interpolation = t in roles.interpolations
        info.pattern = t in roles.patterns
        # field name -> context: (t, field) entries override ("*", field) ones
        fields: dict[str, Ctx] = {}
        for parent in ("*", t):
            fields.update((f, c) for (p, f), c in roles.field_ctx.items()
                          if p == parent and f != "*")
        info.field_ctx = fields
        info.any_field_ctx = roles.field_ctx.get((t, "*"))  # for every named child
        return info


# id(roles) -> (roles, node type -> _TypeInfo); the roles object is kept so its id stays
# unique. Filled lazily: a grammar has a few hundred types, a snippet meets a few dozen.
_TYPE_TABLES: dict[int, tuple[LanguageRoles, dict[str, _TypeInfo]]] = {}


def _type_table(roles: LanguageRoles) -> dict[str, _TypeInfo]:
    entry = _TYPE_TABLES.get(id(roles))
    if entry is None or entry[0] is not roles:
        entry = _TYPE_TABLES[id(roles)] = (roles, {})
    return entry[1]


@dataclass(frozen=True)
class Ref:
    """One variable occurrence: its source name, mode and whether it is a field access."""

    name: str
    mode: Ctx
    field: bool = False


@dataclass
class Facts:
    """What one PDG node says: label tokens (see :class:`graphs.labels.TokenBuffer`) and
    variable references (``toks`` ints index ``refs``)."""

    seps: list[str] = field(default_factory=list)
    toks: list[str | int] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)


class Walker:
    """Extract label tokens and variable references from syntax nodes of one language.

    Parameters
    ----------
    roles : LanguageRoles
        The language's tables.
    node_text : callable
        Original source text of a node (``ParsedCode.node_text``), used for literals.
    normalize : bool
        Drop ``this.``/``self.`` receivers and reduce qualified type names in labels.
    abstract_literals : bool
        Replace literals by their kind (``NUM``, ``STR``, ``CHAR``).

    Examples
    --------
    >>> from graphs import parse
    >>> from graphs.roles import Ctx, get_roles
    >>> p = parse("x += this.y * a[i];", "java")
    >>> facts = Walker(get_roles("java"), p.node_text).walk([(p.nodes[0], Ctx.USE)])
    >>> [(r.name, r.mode.name, r.field) for r in facts.refs]
    [('x', 'DEFUSE', False), ('y', 'USE', True), ('a', 'USE', False), ('i', 'USE', False)]
    """

    def __init__(self, roles: LanguageRoles, node_text, *, normalize: bool = True,
                 abstract_literals: bool = False) -> None:
        self.roles = roles
        self.node_text = node_text
        self.normalize = normalize
        self.abstract_literals = abstract_literals
        self._refs: dict[tuple[str, Ctx, bool], Ref] = {}

    def _ref(self, name: str, mode: Ctx, is_field: bool) -> Ref:
        """The :class:`Ref` of these values: refs are immutable and repeat a lot (a frozen
        dataclass is slow to construct), so one instance per value is shared."""
        key = (name, mode, is_field)
        ref = self._refs.get(key)
        if ref is None:
            ref = self._refs[key] = Ref(name, mode, is_field)
        return ref

    def _mode(self, ctx: Ctx, nested: bool, is_field: bool) -> Ctx:
        if ctx == _DEF and self.roles.assignment_declares and not is_field:
            ctx = _DECL
        if nested:
            if ctx == _DECL:
                return _BIND
            if ctx in (_DEF, _DEFUSE):
                return _WEAK
        return ctx

    def walk(self, parts: Sequence[tuple[tree_sitter.Node, Ctx]], *,
             prefix: Sequence[str] = (), suffix: Sequence[str] = (),
             sep: str | None = None) -> Facts:
        """Walk ``parts`` (syntax nodes with their initial context) in order.

        Parameters
        ----------
        parts : sequence of (tree_sitter.Node, Ctx)
            The syntax the PDG node stands for.
        prefix, suffix : sequence of str
            Extra label tokens before and after (``("for", "(")`` ... ``(")",)``).
        sep : str, optional
            Token put between consecutive parts (``","`` for a for-initializer list).

        Returns
        -------
        Facts
        """
        roles = self.roles
        types = _type_table(roles)
        info_of = types.get
        normalize = self.normalize
        abstract_literals = self.abstract_literals
        node_text = self.node_text
        declares = roles.assignment_declares
        interpolations = roles.interpolations
        ref_of = self._ref

        buf = TokenBuffer()
        word = buf.word
        punct = buf.punct
        variable = buf.variable
        refs: list[Ref] = []
        for tok in prefix:
            punct(tok)
        # stack items: (tag, node_or_text, ctx, nested, glue hint)
        stack: list[tuple] = []
        for k in range(len(parts) - 1, -1, -1):
            node, ctx = parts[k]
            stack.append((_NODE, node, ctx, False, 0))
            if sep is not None and k > 0:
                stack.append((_TOKEN, sep, _USE, False, 0))
        pop = stack.pop
        push = stack.append
        while stack:
            tag, node, ctx, nested, hint = pop()
            if tag:  # not a plain _NODE
                if tag == _TOKEN:
                    punct(node)
                else:  # _FIELD_REF
                    refs.append(ref_of(node.text.decode(), self._mode(ctx, nested, True), True))
                    variable(len(refs) - 1)
                continue
            t = node.type
            info = info_of(t)
            if info is None:
                info = types[t] = _TypeInfo.of(t, roles)
            if info.identifier:
                if ctx in (_TYPE, _NAME):
                    word(node.text.decode(), ctx == _TYPE)
                else:
                    # the common case of _mode() without the call
                    mode = ctx if not nested and (ctx != _DEF or not declares) else \
                        self._mode(ctx, nested, False)
                    refs.append(ref_of(node.text.decode(), mode, False))
                    variable(len(refs) - 1)
                continue
            if info.literal is not None and not (interpolations and self._interpolated(node)):
                word(info.literal if abstract_literals else node_text(node))
                continue
            children = node.children
            if not children:
                if info.comment:
                    continue
                text = node.text.decode()
                in_type = ctx == _TYPE or info.type_node
                if node.is_named:
                    word(text, in_type)
                else:
                    punct(text, in_type, hint)
                continue
            if info.comment:
                continue
            if info.type_node:
                ctx = _TYPE
            if info.nested:
                nested = True
            leaf_hint = info.leaf_hint  # PREFIX becomes POSTFIX after the first child
            # Per-child contexts; missing = decided by the generic rule below. Shared empty
            # dict unless a role below fills it (most nodes have no special children).
            special: dict[int, Ctx] = _NO_SPECIAL
            field_ref = -1  # index of a member that is a field access (this.x)
            skip_upto = -1  # children before this index are not emitted (this + ".")
            role = info.role if ctx != _TYPE and ctx != _NAME else 0
            if role == _MEMBER:
                special = {}
                objf, memf = roles.members[t]
                obj = node.child_by_field_name(objf)
                mem = node.child_by_field_name(memf)
                if obj is not None and mem is not None:
                    self_names = roles.self_names  # empty but for Python: skip the decode
                    is_this = obj.type in roles.this_types or bool(
                        self_names and obj.type in roles.identifiers
                        and obj.text.decode() in self_names)
                    for i, c in enumerate(children):
                        if c.id == mem.id:
                            if is_this and mem.child_count == 0:
                                field_ref = i
                                if normalize:
                                    skip_upto = i
                            else:
                                special[i] = _NAME
                        elif c.id == obj.id:
                            special[i] = _NAME if is_this else (
                                _WEAK if ctx in (_DEF, _DEFUSE, _WEAK) else _USE)
            elif role == _SUBSCRIPT:
                special = {}
                base = node.child_by_field_name(roles.subscripts[t])
                for i, c in enumerate(children):
                    if c.is_named:
                        special[i] = _USE
                        if base is not None and c.id == base.id and ctx in (_DEF, _DEFUSE,
                                                                             _WEAK):
                            special[i] = _WEAK
            elif role == _CALL:
                callee = node.child_by_field_name(roles.calls[t])
                if callee is not None and (not roles.callee_is_use) and (
                        callee.type in roles.identifiers or callee.child_count == 0):
                    special = {}
                    for i, c in enumerate(children):
                        if c.id == callee.id:
                            special[i] = _NAME
                ctx = _USE
            elif role == _ASSIGN:
                left = node.child_by_field_name("left")
                op = node.child_by_field_name("operator")
                compound = roles.assignments[t] or (op is not None and op.type != "=")
                if left is not None:
                    special = {}
                    for i, c in enumerate(children):
                        if c.id == left.id:
                            special[i] = _DEFUSE if compound else _DEF
                ctx = _USE
            elif role == _UPDATE:
                if any((not c.is_named) and c.type in ("++", "--") for c in children):
                    special = {}
                    for i, c in enumerate(children):
                        if c.is_named:
                            special[i] = _DEFUSE
                ctx = _USE
            elif role == _DECLARATION:
                special = {}
                name_field = roles.declarations[t]
                decl = _BIND if ctx == _BIND else _DECL
                for i, c in enumerate(children):
                    if not c.is_named:
                        continue
                    f = node.field_name_for_child(i)
                    if f == name_field:
                        special[i] = decl
                    elif f == "type" or f == "returns":
                        special[i] = _TYPE
                    else:
                        special[i] = _USE
            elif role == _ARGUMENT_MODIFIER:
                first = children[0]
                if not first.is_named and first.type in ("out", "ref"):
                    special = {}
                    mode = _DEF if first.type == "out" else _DEFUSE
                    for i, c in enumerate(children):
                        if c.is_named:
                            special[i] = mode
                elif ctx in _WRITES:
                    pass  # a tuple element being assigned: generic pattern rule
                else:
                    ctx = _USE
            elif role == _ADDRESS_OF:
                op = node.child_by_field_name("operator")
                arg = node.child_by_field_name("argument")
                if op is not None and arg is not None and (
                        op.type == "&" or (op.type == "*" and ctx in (_DEF, _DEFUSE, _WEAK))):
                    special = {}
                    for i, c in enumerate(children):
                        if c.id == arg.id:
                            special[i] = _WEAK
                ctx = _USE
            elif normalize and info.qualified:
                # P.A, java.util.List, std::vector: keep the last component only
                last = node.child_by_field_name("name")
                if last is None:
                    last = node.named_children[-1]
                push((_NODE, last, ctx, nested, 0))
                continue
            elif info.interpolation:
                ctx = _USE

            pass_on = ctx if (ctx not in _WRITES or info.pattern) else _USE
            # a definition context is not passed on to these fields (defaults, sizes)
            read_fields = pass_on in _WRITES and pass_on != _WEAK
            field_ctx = info.field_ctx
            any_field_ctx = info.any_field_ctx
            for i in range(len(children) - 1, -1, -1):
                c = children[i]
                if i <= field_ref:  # (skip_upto <= field_ref: both -1 but for this.x)
                    if i == field_ref:
                        push((_FIELD_REF, c, ctx, nested, 0))
                        continue
                    if i < skip_upto:
                        continue
                named = c.is_named
                cctx = special.get(i) if special else None
                if cctx is None:
                    cctx = pass_on
                    if named:
                        f = node.field_name_for_child(i)
                        if f is not None:
                            fc = field_ctx.get(f)
                            if fc is not None:
                                cctx = fc
                            elif read_fields and f in _READ_FIELDS:
                                cctx = _USE
                        if any_field_ctx is not None:
                            cctx = any_field_ctx
                if leaf_hint and not named and c.child_count == 0:
                    if leaf_hint == PREFIX:
                        push((_NODE, c, cctx, nested, PREFIX if i == 0 else POSTFIX))
                    elif leaf_hint == TIGHT or c.type == ":":
                        push((_NODE, c, cctx, nested, leaf_hint))
                    else:
                        push((_NODE, c, cctx, nested, 0))
                else:
                    push((_NODE, c, cctx, nested, 0))
        for tok in suffix:
            punct(tok)
        buf.strip_trailing()
        return Facts(buf.seps, buf.toks, refs)

    def _interpolated(self, node: tree_sitter.Node) -> bool:
        inter = self.roles.interpolations
        if not inter:
            return False
        return any(c.type in inter for c in node.children)


def reaching_definitions(succ: Sequence[Sequence[int]], defs: Sequence[Sequence[tuple[str,
                         bool]]], entry: int = 0) -> tuple[list[int], list[int], dict[str, int]]:
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
    preds: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        for w in succ[v]:
            if 0 <= w < n:
                preds[w].append(v)
    # worklist in reverse postorder: a node is revisited only when an input changed, so
    # deep loop nests cost O(nodes * changes) rather than a full pass per nesting level
    order = _reverse_postorder(succ, entry, n)
    reach_in = [0] * n
    reach_out = gen[:]
    queue = deque(order)
    queued = [True] * n
    while queue:
        v = queue.popleft()
        queued[v] = False
        acc = 0
        for p in preds[v]:
            acc |= reach_out[p]
        reach_in[v] = acc
        out = gen[v] | (acc & keep[v])
        if out != reach_out[v]:
            reach_out[v] = out
            for w in succ[v]:
                if 0 <= w < n and not queued[w]:
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


def _reverse_postorder(succ: Sequence[Sequence[int]], entry: int, n: int) -> list[int]:
    """Reverse postorder from ``entry`` (iterative DFS), then unreachable nodes in id order."""
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
