"""Control-flow graphs from tree-sitter syntax, driven by :mod:`graphs.lang.roles` tables.

One CFG node per PDG node: an entry, the parameters, one node per plain statement and one
per predicate or header of a compound statement. ``else`` and block braces have no node.
A snippet becomes one or more *units* (a function body, or the top-level statements), each
with its own virtual exit (:data:`EXIT`). Nested functions (Python ``def`` inside ``def``,
JavaScript function declarations, C# local functions) are a node of the enclosing unit and
the entry of a unit of their own.

Modelling choices (the approximations a PDG-based metric needs to know):

- ``if``/``elif``: one predicate each; ``else`` branches hang off the last predicate.
- Loops: ``while``, ``for``-each and Python ``for`` have one predicate (the header) with a
  back edge; a classic ``for`` has an initializer node, a predicate (``for (cond)``) and an
  update node; ``do`` has its predicate after the body. A loop without a condition
  (``for (;;)``) still gets a false edge to the loop exit, so every loop can terminate and
  post-dominators exist. Python's loop ``else`` runs on the false edge; ``break`` skips it.
- ``switch``/``match``: the header is a multi-way predicate with an edge to every case label
  (and to the switch exit when there is no ``default``); each label leads to its group's
  statements. Java (``case X:``), C, C++ and JavaScript fall through from the end of a group
  into the next; C#, Java's ``case X ->`` rules and Python's ``case`` do not. Stacked
  labels with no statements lead to the next group in every language.
- ``try``: the ``try`` header is a predicate with an edge to the body and to each
  ``catch``/``except`` (any statement may throw; this is where the approximation sits). An
  explicit ``throw``/``raise`` goes to *each* catch of the innermost try whose body contains
  it; otherwise (in a catch, or no catch) through the ``finally`` or out of the function.
  ``finally`` is built once per way of reaching it (normal completion, and each distinct
  jump that leaves the ``try``: ``return``, ``break``, ``continue``, ``throw``), as a
  compiler does; each copy continues where its entry was going, and the copies are the same
  PDG nodes (their dependences are merged). Past a size budget (deeply nested ``finally``)
  the remaining ways share one copy. Python's ``try ... else`` runs after the body.
- ``break``/``continue`` with labels (Java, JavaScript) resolve to the labelled statement;
  ``goto`` (C, C++, C#) to the label node; C#'s ``goto case``/``goto default`` to the case
  label. An unresolvable jump goes to the exit.
- ``with`` / ``using`` / ``lock`` / ``synchronized`` / ``fixed`` / ``checked``: a header node
  followed by the body. ``yield`` is a plain statement (C#'s ``yield break`` returns).
- Expressions never create flow: ``?:``, ``&&``, lambdas and comprehensions are part of the
  statement that contains them.

Nothing here recurses over the syntax tree: compound statements are built by generators
driven from an explicit stack, so 5,000 nesting levels are fine.

This module is the builder's core (nodes and edges, the driving stack, plain statements and
jumps, ``if``, blocks, ``with``, labels, units) and :func:`build_cfg`. Beside it:
:mod:`graphs.flow.cfg_model` holds the CFG's types, :mod:`graphs.pdg.cfg_loops`,
:mod:`graphs.pdg.cfg_switch` and :mod:`graphs.pdg.cfg_try` the other compound statements,
:mod:`graphs.flow.frames` where jumps go, :mod:`graphs.parsing.functions` finds the functions
and reads their headers, :mod:`graphs.canon.folding` folds conditional ``if`` statements into
one node, :mod:`graphs.canon.idioms` reads translators' idioms one way, and
:mod:`graphs.flow.dominance` computes post-dominators and control dependences on the result.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from operator import lt

from graphs.canon.builder import CFGBuilder
from graphs.canon.folding import ConditionalFolding
from graphs.canon.idioms import IdiomRewrites

# The CFG's types live in graphs.flow.cfg_model (the statement handlers name them too); they are
# this module's public names as much as build_cfg is.
from graphs.flow.cfg_model import CFG, EXIT, CFGNode, GraphTooLarge, Node, Result, Unit

# Public names of graphs.pdg.cfg before post-dominance moved out: still importable from here.
from graphs.flow.dominance import (  # noqa: F401
    control_dependences,
    control_dependences_in_place,
    postdominators,
)
from graphs.flow.frames import BREAK as _BREAK
from graphs.flow.frames import CONTINUE as _CONTINUE
from graphs.flow.frames import RETURN as _RETURN
from graphs.flow.frames import THROW as _THROW
from graphs.flow.frames import Label as _Label
from graphs.flow.frames import Loop as _Loop
from graphs.flow.frames import Switch as _Switch
from graphs.flow.frames import Try as _Try
from graphs.lang.roles import Ctx, LanguageRoles, Role
from graphs.parsing.functions import (
    function_name,
    function_parameters,
    function_signature,
    header_last,
    split_top_level,
)
from graphs.pdg.cfg_loops import LoopStatements
from graphs.pdg.cfg_switch import SwitchStatements
from graphs.pdg.cfg_try import TryStatements

__all__ = ["CFG", "EXIT", "CFGNode", "GraphTooLarge", "Unit", "build_cfg",
           "control_dependences", "postdominators"]

_ENTRY = -2  # stands for the current unit's entry while building (its edges are per unit)

_DECL_KINDS = {Role.DECLARATION: "declaration", Role.STATEMENT: "statement",
               Role.YIELD: "yield", Role.CLASS: "class"}
# Lookups for the statements every snippet has (a dict lookup is several times cheaper
# than reading Role.X or Ctx.X off the enum class).
_PLAIN_KINDS = {Role.STATEMENT: "statement", Role.DECLARATION: "declaration"}
_EXIT_KINDS = {Role.RETURN: _RETURN, Role.THROW: _THROW}
_USE, _NAME, _DECL = Ctx.USE, Ctx.NAME, Ctx.DECL


class _Builder(ConditionalFolding, IdiomRewrites, LoopStatements, SwitchStatements,
               TryStatements, CFGBuilder):
    """Builds one CFG: the nodes and edges, the driving stack, the plain statements and jumps,
    ``if``, blocks, ``with`` and labels; the other compound statements come from the mixins
    (:mod:`graphs.pdg.cfg_loops`, :mod:`graphs.pdg.cfg_switch`, :mod:`graphs.pdg.cfg_try`), the
    folding and idiom rewrites from :mod:`graphs.canon.folding` and :mod:`graphs.canon.idioms`.
    Those two rely only on the members of :class:`graphs.canon.builder.CFGBuilder`, which it
    subclasses last (its abstract members, implemented here and by the mixins, never shadow
    an implementation)."""

    def __init__(self, parsed, roles: LanguageRoles, max_nodes: int | None,
                 labels: bool = True) -> None:
        self.parsed = parsed
        # whether anyone reads the labels (build_cfg's `labels`)
        self.labels = labels
        if not labels:
            self.skip_label_search()
        self.roles = roles
        self.max_nodes = max_nodes
        self.nodes: list[CFGNode] = []
        self.succ: list[list[int]] = []
        self.units: list[Unit] = []
        self.functions: list[int] = []
        self.fallback: set[str] = set()
        self.plain: set[str] = set()
        self.queue: list[tuple[int, Node, int]] = []  # nested functions still to build
        self.unit: Unit | None = None
        self.frames: list = []
        self.goto_labels: dict[str, int] = {}
        self.gotos: list[tuple[int, str]] = []
        self.comments = roles.comments
        # syntax -> node, to recognise a second build of the same syntax (finally copies)
        self.seen: dict[tuple[str, int, int], int] = {}
        self.real = 0
        self.aliases = 0
        self.alias_budget = 4096 if max_nodes is None else 4 * max_nodes
        # predicate -> the successor its condition being true leads to (the other
        # successors are the false outcome): labels the control dependences
        self.true_succ: dict[int, int] = {}

    # ---- nodes and edges -------------------------------------------------------------

    def new_node(self, kind: str, parts: Sequence[tuple[Node, Ctx]], first: Node | None,
             last: Node | None, *, prefix: tuple[str, ...] = (), suffix: tuple[str, ...] = (),
             sep: str | None = None, label: str | None = None, member: bool = True,
             subst: dict | None = None) -> int:
        """A new CFG node (see :meth:`graphs.canon.builder.CFGBuilder.new_node`)."""
        nodes = self.nodes
        nid = len(nodes)
        alias = None
        if first is not None and label is None:
            key = (kind, first.id, last.id if last is not None else 0)
            alias = self.seen.setdefault(key, nid)
            if alias == nid:
                alias = None
        if alias is None:
            if self.max_nodes is not None and self.real >= self.max_nodes:
                raise GraphTooLarge(f"graph larger than limit ({self.max_nodes} nodes)")
            self.real += 1
        else:
            self.aliases += 1
        nodes.append(CFGNode(kind, tuple(parts), first, last, prefix, suffix, sep, label, alias,
                             subst or None))
        self.succ.append([])
        if member and self.unit is not None:
            self.unit.nodes.append(nid)
        return nid

    def _link(self, srcs: Sequence[int], dst: int) -> None:
        for s in srcs:
            if s == _ENTRY:
                self.unit.entry_succ.append(dst)
            else:
                self.succ[s].append(dst)

    def _ctx(self, parent: str, fieldname: str | None) -> Ctx:
        if fieldname is None:
            return _USE
        fc = self.roles.field_ctx
        c = fc.get((parent, fieldname))
        if c is None:
            c = fc.get(("*", fieldname), _USE)
        return c

    def _header(self, node: Node, body: Node | None) -> list[tuple[Node, Ctx]]:
        """Children of ``node`` before ``body`` (all children if ``body`` is None)."""
        parts = []
        stop = body.start_byte if body is not None else None
        t = node.type
        for i, c in enumerate(node.children):
            if stop is not None and c.start_byte >= stop:
                break
            if c.type in self.comments:
                continue
            parts.append((c, self._ctx(t, node.field_name_for_child(i))))
        return parts

    def _header_node(self, kind: str, node: Node, body: Node | None, **kw) -> int:
        parts = self._header(node, body)
        last = parts[-1][0] if parts else node
        return self.new_node(kind, parts, node, last, **kw)

    def named_items(self, node: Node) -> list[Node]:
        """The named children of ``node``, comments left out."""
        return [c for c in node.named_children if c.type not in self.comments]

    def last_body(self, node: Node) -> Node | None:
        """The body of a clause: its ``body`` field, else its last named child."""
        body = node.child_by_field_name("body")
        if body is not None:
            return body
        items = self.named_items(node)
        if items and (items[-1].type in self.roles.blocks or
                      items[-1].type in self.roles.statements):
            return items[-1]
        return None

    # ---- driving ---------------------------------------------------------------------

    def _run(self, stmts: list[Node]) -> Result:
        """Build a statement list; compound statements are generators on an explicit
        stack (no recursion on nesting depth)."""
        stack: list[Generator] = [self._seq(stmts)]
        value: Result | None = None
        while True:
            try:
                req = stack[-1].send(value)
            except StopIteration as stop:
                stack.pop()
                value = stop.value
                if not stack:
                    return value
                continue
            if isinstance(req, list):
                stack.append(self._seq(req))
                value = None
                continue
            simple = self._simple(req)
            if simple is not None:
                value = simple
            else:
                stack.append(_HANDLERS[self._role(req)](self, req))
                value = None

    def _seq(self, stmts: list[Node]) -> Generator:
        first: int | None = None
        exits: list[int] = []
        skip = -1
        for i, s in enumerate(stmts):
            if i <= skip:
                continue
            r = None
            if i + 1 < len(stmts) and self.roles.statements.get(s.type) is Role.IF:
                # if (c) return a; return b;  is  return c ? a : b;  (and so on down a
                # chain of guards, through temporaries)
                r = self.conditional(s, s.child_by_field_name("consequence"),
                                      (stmts, i + 1))
                if r is not None:
                    skip = self.fold_end
            elif self.roles.statements.get(s.type) is Role.SWITCH:
                r = self.switch_fold(s, (stmts, i + 1))  # every case returns
                if r is not None:
                    skip = self.fold_end
            elif i + 1 < len(stmts) and (loop := self.indexed_while_loop(s, stmts[i + 1])):
                r = yield from self._loop(stmts[i + 1], *loop)  # T i = 0; while (i < n)
                skip = i + 1
            if r is None:
                r = self._simple(s)
            if r is None:
                r = yield s
            f, ex = r
            if f is None:
                continue
            if first is None:
                first = f
            else:
                self._link(exits, f)
            exits = ex
        return first, exits

    def _role(self, node: Node) -> Role:
        role = self.roles.statements.get(node.type)
        if role is None:
            self.fallback.add(node.type)
            return Role.STATEMENT
        return role

    # ---- simple statements -----------------------------------------------------------

    def _simple(self, s: Node) -> Result | None:
        """Build a statement without sub-statements; None for compound statements."""
        t = s.type
        if t in self.comments:
            return None, []
        role = self.roles.statements.get(t)
        if role is None:  # self._role(s), inlined: this runs for every statement
            self.fallback.add(t)
            role = Role.STATEMENT
        kind = _PLAIN_KINDS.get(role)
        if kind is not None:  # the common case first
            if t == "expression_statement" and s.named_child_count == 0:
                return None, []
            self.plain.add(t)
            ctx = _NAME if t in self.roles.name_statements else _USE
            n = self.new_node(kind, ((s, ctx),), s, s)
            return n, [n]
        if role in _HANDLERS:
            return None
        if role is Role.EMPTY or (t == "expression_statement" and s.named_child_count == 0):
            return None, []
        kind = _EXIT_KINDS.get(role)
        if kind is not None:
            n = self.new_node(kind, ((s, _USE),), s, s)
            self.jump([n], kind, None)
            return n, []
        if role in (Role.BREAK, Role.CONTINUE):
            label = s.child_by_field_name("label")
            if label is None:
                named = self.named_items(s)
                label = named[0] if named else None
            n = self.new_node(role.value, [(s, Ctx.NAME)], s, s)
            self.jump([n], role.value, None if label is None else label.text.decode())
            return n, []
        if role is Role.GOTO:
            return self._goto(s)
        if role is Role.YIELD:
            self.plain.add(t)
            kids = s.children
            n = self.new_node("yield", [(s, Ctx.USE)], s, s)
            if len(kids) > 1 and kids[1].type == "break":  # C#'s yield break
                self.jump([n], _RETURN, None)
                return n, []
            return n, [n]
        if role is Role.FUNCTION:
            return self._nested_function(s)
        if role is Role.CLASS:
            # one node labelled with the whole class (its names as words): a change in its
            # methods still changes the label
            self.plain.add(t)
            n = self.new_node("class", [(s, Ctx.NAME)], s, s)
            return n, [n]
        self.plain.add(t)
        ctx = Ctx.NAME if t in self.roles.name_statements else Ctx.USE
        n = self.new_node(_DECL_KINDS.get(role, "statement"), [(s, ctx)], s, s)
        return n, [n]

    def _goto(self, s: Node) -> Result:
        n = self.new_node("goto", [(s, Ctx.NAME)], s, s)
        kids = [c for c in s.children if c.type not in self.comments]
        if len(kids) > 1 and kids[1].type in ("case", "default"):
            key = " ".join(c.text.decode() for c in kids[1:] if c.type != ";")
            for frame in reversed(self.frames):
                if isinstance(frame, _Switch):
                    frame.gotos.append((n, key))
                    break
            else:
                self._link([n], EXIT)
            return n, []
        label = s.child_by_field_name("label")
        if label is None:
            named = self.named_items(s)
            label = named[0] if named else None
        if label is None:
            self._link([n], EXIT)
        else:
            self.gotos.append((n, label.text.decode()))
        return n, []

    def _nested_function(self, s: Node) -> Result:
        fn = s
        if s.type == "decorated_definition":
            fn = s.child_by_field_name("definition") or s
            if fn.type not in self.roles.functions:
                body = fn.child_by_field_name("body")
                n = self._header_node("class", fn, body)
                return n, [n]
        name = function_name(fn)
        parts = [(name, Ctx.DECL)] if name is not None else []
        last = header_last(fn, fn.child_by_field_name(self.roles.functions.get(fn.type,
                                                                               "body")))
        n = self.new_node("function", parts, s, last, prefix=("function",))
        if self.nodes[n].alias is None:
            self.queue.append((n, fn, self.unit.scope))
        return n, [n]

    def jump(self, srcs: list[int], kind: str, label: str | None,
              depth: int | None = None) -> None:
        """Send ``srcs`` where the jump goes (see :meth:`graphs.canon.builder.CFGBuilder.jump`)."""
        frames = self.frames
        i = (len(frames) if depth is None else depth) - 1
        while i >= 0:
            fr = frames[i]
            if isinstance(fr, _Try):
                if kind == _THROW and fr.in_body and fr.catches:
                    for c in fr.catches:
                        self._link(srcs, c)
                    return
                if fr.has_finally:
                    fr.pending.setdefault((kind, label), []).extend(srcs)
                    return
            elif kind == _BREAK:
                if isinstance(fr, _Label):
                    if label == fr.name:
                        fr.breaks.extend(srcs)
                        return
                elif label is None or label in fr.labels:
                    fr.breaks.extend(srcs)
                    return
            elif kind == _CONTINUE and isinstance(fr, _Loop) and (
                    label is None or label in fr.labels):
                fr.continues.extend(srcs)
                return
            i -= 1
        self._link(srcs, EXIT)

    def _loop_labels(self, node: Node) -> frozenset[str]:
        names = []
        for fr in reversed(self.frames):
            if not (isinstance(fr, _Label) and fr.target == node.id):
                break
            names.append(fr.name)
        return frozenset(names)

    # ---- compound statements (generators) --------------------------------------------

    def _block(self, s: Node) -> Generator:
        return (yield self.named_items(s))

    def _branch(self, pred: int, r: Result, exits: list[int], true: bool = False) -> None:
        f, ex = r
        if f is None:
            exits.append(pred)
        else:
            self._link([pred], f)
            exits.extend(ex)
            if true:
                self.true_succ[pred] = f

    def _if(self, s: Node) -> Generator:
        cons = s.child_by_field_name("consequence")
        if cons is None:
            return self._plain(s)
        folded = self.conditional(s, cons)
        if folded is not None:
            return folded
        p = self._header_node("if", s, cons)
        exits: list[int] = []
        swap = self.swapped_if(s)  # if (!c) A else B is if (c) B else A (graphs.canon.idioms)
        self._branch(p, (yield cons), exits, true=not swap)
        pred: int | None = p
        for i, alt in enumerate(s.children):
            if s.field_name_for_child(i) != "alternative":
                continue
            if alt.type in self.roles.elif_clauses:
                body = alt.child_by_field_name("consequence")
                q = self._header_node("if", alt, body)
                self._link([pred], q)
                pred = q
                if body is not None:
                    self._branch(q, (yield body), exits, true=True)
                else:
                    exits.append(q)
                continue
            body = self.last_body(alt) if alt.type in self.roles.else_clauses else alt
            if body is None:
                continue
            self._branch(pred, (yield body), exits, true=swap)
            pred = None
        if pred is not None:
            exits.append(pred)
        return p, exits

    def _plain(self, s: Node) -> Result:
        self.plain.add(s.type)
        n = self.new_node("statement", [(s, Ctx.USE)], s, s)
        return n, [n]

    def _with(self, s: Node) -> Generator:
        body = self.last_body(s)
        h = self._header_node("with", s, body)
        if body is None:
            return h, [h]
        exits: list[int] = []
        self._branch(h, (yield body), exits)
        return h, exits

    def _labeled(self, s: Node) -> Generator:
        items = self.named_items(s)
        inner = s.child_by_field_name("body")
        if inner is None:
            inner = items[-1] if len(items) > 1 else None
        label = s.child_by_field_name("label")
        if label is None:
            label = items[0] if items else None
        name = label.text.decode() if label is not None else ""
        if self.roles.goto_labels:
            ln = self._header_node("label", s, inner)
            self.nodes[ln].parts = tuple((p, Ctx.NAME) for p, _ in self.nodes[ln].parts)
            self.goto_labels.setdefault(name, ln)
            if inner is None:
                return ln, [ln]
            exits: list[int] = []
            self._branch(ln, (yield inner), exits)
            return ln, exits
        if inner is None:
            return None, []
        target = inner
        while self.roles.statements.get(target.type) is Role.LABELED:
            nxt = target.child_by_field_name("body")
            if nxt is None:
                named = self.named_items(target)
                nxt = named[-1] if len(named) > 1 else None
            if nxt is None:
                break
            target = nxt
        frame = _Label(name, target.id)
        self.frames.append(frame)
        f, ex = yield inner
        self.frames.pop()
        return f, [*ex, *frame.breaks]

    # ---- units -----------------------------------------------------------------------

    def _body_statements(self, body: Node) -> list[Node]:
        items = self.named_items(body)
        if self.roles.docstrings and items and items[0].type == "expression_statement":
            named = items[0].named_children
            if len(named) == 1 and named[0].type in ("string", "concatenated_string"):
                items = items[1:]
        return items

    def _build_unit(self, entry: int, fn: Node | None, stmts: list[Node], scope: int,
                    params: list[Node] | None = None) -> None:
        unit = Unit(entry, scope)
        self.units.append(unit)
        self.unit = unit
        self.frames = []
        self.goto_labels = {}
        self.gotos = []
        prev = [_ENTRY]
        body = None
        if fn is not None:
            for p in function_parameters(fn, self.roles) if params is None else params:
                n = self.new_node("param", ((p, _DECL),), p, p)
                self._link(prev, n)
                prev = [n]
            body = fn.child_by_field_name(self.roles.functions.get(fn.type, "body"))
            if body is not None and body.type in self.roles.blocks:
                stmts = self._body_statements(body)
                body = None
        if body is not None:
            # an expression body (C# `=> expr`, JS arrow function): one return
            expr = body
            if body.type == "arrow_expression_clause":
                named = self.named_items(body)
                expr = named[-1] if named else body
            n = self.new_node("return", [(expr, Ctx.USE)], expr, expr, prefix=("return",))
            self._link(prev, n)
            self._link([n], EXIT)
            prev = []
        elif stmts and self.parsed.wrapper == "expression":
            # an expression snippet: one node per top-level expression
            for e in stmts:
                n = self.new_node("statement", [(e, Ctx.USE)], e, e)
                self._link(prev, n)
                prev = [n]
        elif stmts:
            f, ex = self._run(stmts)
            if f is not None:
                self._link(prev, f)
                prev = ex
        self._link(prev, EXIT)
        for n, name in self.gotos:
            self._link([n], self.goto_labels.get(name, EXIT))

    def build(self) -> CFG:
        parsed = self.parsed
        funcs, stmts = split_top_level(parsed.nodes, self.roles)
        if len(funcs) == 1 and not stmts:
            fn, outer = funcs[0]
            body = fn.child_by_field_name(self.roles.functions.get(fn.type, "body"))
            params = function_parameters(fn, self.roles)  # for the signature and the unit
            root = self.new_node("entry", (), outer, header_last(fn, body),
                             label=function_signature(fn, self.roles, params)
                             if self.labels else "", member=False)
            self._build_unit(root, fn, [], 0, params)
        else:
            root = self.new_node("entry", (), None, None, label="entry", member=False)
            self._build_unit(root, None, stmts, 0)
            for scope, (fn, outer) in enumerate(funcs, start=1):
                self.unit = None
                name = function_name(fn)
                parts = [(name, Ctx.NAME)] if name is not None else []
                body = fn.child_by_field_name(self.roles.functions.get(fn.type, "body"))
                n = self.new_node("function", parts, outer, header_last(fn, body),
                              prefix=("function",), member=False)
                self.functions.append(n)
                self._build_unit(n, fn, [], scope)
        while self.queue:
            n, fn, scope = self.queue.pop(0)
            self._build_unit(n, fn, [], scope)
        return self._renumbered()

    def _renumbered(self) -> CFG:
        nodes = self.nodes
        keys = [(node.alias is not None, node.start, i) for i, node in enumerate(nodes)]
        # (keys are distinct: in order exactly when each is below the next)
        if all(map(lt, keys, keys[1:])):
            # already in order (the usual case): same numbering, nothing to remap
            units = [Unit(u.entry, u.scope, u.entry_succ, sorted(u.nodes)) for u in self.units]
            return CFG(nodes, self.succ, units, sorted(self.functions), self.fallback,
                       self.real, self.plain, self.true_succ)
        order = sorted(range(len(nodes)), key=keys.__getitem__)
        new = [0] * len(nodes)
        for rank, old in enumerate(order):
            new[old] = rank
        for node in nodes:
            if node.alias is not None:
                node.alias = new[node.alias]

        def remap(ids: list[int]) -> list[int]:
            return [x if x < 0 else new[x] for x in ids]

        succ = [remap(self.succ[old]) for old in order]
        units = [Unit(new[u.entry], u.scope, remap(u.entry_succ), sorted(remap(u.nodes)))
                 for u in self.units]
        true_succ = {new[a]: b if b < 0 else new[b] for a, b in self.true_succ.items()}
        return CFG([nodes[old] for old in order], succ, units,
                   sorted(remap(self.functions)), self.fallback, self.real, self.plain,
                   true_succ)


# Compound statement role -> generator method. Module-level functions rather than bound
# methods kept on the builder: those would make a reference cycle, leaving every builder
# (and its nodes) to the cyclic garbage collector.
_HANDLERS: dict[Role, Callable[[_Builder, Node], Generator]] = {
    Role.BLOCK: _Builder._block, Role.IF: _Builder._if, Role.WHILE: _Builder._while,
    Role.FOREACH: _Builder._while, Role.DO: _Builder._do, Role.FOR: _Builder._for,
    Role.SWITCH: _Builder._switch, Role.TRY: _Builder._try, Role.WITH: _Builder._with,
    Role.LABELED: _Builder._labeled,
}


def build_cfg(parsed, roles: LanguageRoles, max_nodes: int | None = None, *,
              labels: bool = True) -> CFG:
    """Build the CFG of a clean parse.

    Parameters
    ----------
    parsed : graphs.parsing.parser.ParsedCode
        A clean parse.
    roles : LanguageRoles
        The language's tables.
    max_nodes : int, optional
        Stop with :class:`GraphTooLarge` as soon as more nodes would be created.
    labels : bool, default True
        Find the label substitutions of the idioms (``CFG.subst``) and label the entry with
        the function's signature. The graph's shape never depends on them; without them
        ``subst`` holds only those the build itself found and the entry's label is empty.

    Returns
    -------
    CFG

    Examples
    --------
    >>> from graphs import parse
    >>> from graphs.lang.languages import get_roles
    >>> cfg = build_cfg(parse("while (x > 0) x--;", "java"), get_roles("java"))
    >>> [n.kind for n in cfg.nodes], cfg.succ
    (['entry', 'while', 'statement'], [[], [2, -1], [1]])
    """
    # without labels: no search of the whole snippet for substitutions, no signature (a
    # third of a small snippet's build)
    builder = _Builder(parsed, roles, max_nodes, labels)
    cfg = builder.build()
    cfg.subst = builder.idiom_subst()
    return cfg
