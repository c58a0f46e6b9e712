"""The loop statements of the CFG builder (modelled as :mod:`graphs.pdg.cfg` describes): ``while``
and ``for``-each with one header, the classic ``for`` with initializer, predicate and update
nodes, ``do`` with its predicate after the body, Python's loop ``else``. A mixin of the
builder (``_Builder`` in :mod:`graphs.pdg.cfg`), which supplies ``roles``, ``frames``,
``comments``, ``true_succ``, the node and edge primitives (``new_node``, ``_link``, ``_ctx``,
``_header``, ``_header_node``, ``_branch``, ``_plain``, ``last_body``, ``_loop_labels``)
and, from :class:`graphs.canon.idioms.IdiomRewrites`, ``indexed_header``. Each handler is a
generator on the builder's explicit stack: it yields the syntax to build and is sent back
that syntax's ``(first node, dangling exits)``, so nesting depth costs no recursion.
"""

from __future__ import annotations

from collections.abc import Generator

from graphs.flow.cfg_model import Node
from graphs.flow.frames import Loop as _Loop
from graphs.lang.roles import Ctx, Role


class LoopStatements:
    """The loop handlers of the CFG builder (see the module docstring)."""

    def _loop_else(self, s: Node, head: int, loop: _Loop) -> Generator:
        """Python's loop ``else``: on the false edge; ``break`` skips it."""
        exits = list(loop.breaks)
        alt = s.child_by_field_name("alternative")
        body = self.last_body(alt) if alt is not None else None
        if body is None:
            exits.append(head)
            return exits
        self._branch(head, (yield body), exits)
        return exits

    def _while(self, s: Node) -> Generator:
        body = s.child_by_field_name("body")
        if body is None:
            return self._plain(s)
        foreach = self.roles.statements.get(s.type) is Role.FOREACH
        h = self.indexed_header(s, body) if foreach else None  # for i in range(len(xs))
        if h is None:
            h = self._header_node("foreach" if foreach else "while", s, body)
        return (yield from self._loop(s, h, body))

    def _loop(self, s: Node, h: int, body: Node) -> Generator:
        loop = _Loop(self._loop_labels(s))
        self.frames.append(loop)
        f, ex = yield body
        self.frames.pop()
        self._link([h], h if f is None else f)
        self.true_succ[h] = h if f is None else f
        self._link(ex, h)
        self._link(loop.continues, h)
        exits = yield from self._loop_else(s, h, loop)
        return h, exits

    def _do(self, s: Node) -> Generator:
        body = s.child_by_field_name("body")
        if body is None:
            return self._plain(s)
        loop = _Loop(self._loop_labels(s))
        self.frames.append(loop)
        f, ex = yield body
        self.frames.pop()
        tail = [(c, self._ctx(s.type, s.field_name_for_child(i)))
                for i, c in enumerate(s.children)
                if c.start_byte >= body.end_byte and c.type not in self.comments]
        first_tail = tail[0][0] if tail else s
        c = self.new_node("do", tail, first_tail, tail[-1][0] if tail else s, prefix=("do",))
        first = c if f is None else f
        self._link(ex, c)
        self._link(loop.continues, c)
        self._link([c], first)
        self.true_succ[c] = first
        return first, [c, *loop.breaks]

    def _for(self, s: Node) -> Generator:
        body = s.child_by_field_name("body")
        if body is None:
            return self._plain(s)
        h = self.indexed_header(s, body)  # an indexed loop read as its foreach
        if h is not None:
            return (yield from self._loop(s, h, body))
        init_f, cond_f, upd_f = self.roles.for_fields
        inits, conds, upds = [], [], []
        for i, c in enumerate(s.children):
            if not c.is_named or c.type in self.comments or c.type == "empty_statement":
                continue
            f = s.field_name_for_child(i)
            if f == init_f:
                inits.append(c)
            elif f == cond_f:
                conds.append(c)
            elif f == upd_f:
                upds.append(c)
        init = None
        if inits:
            kind = "declaration" if inits[0].type.endswith("declaration") else "statement"
            init = self.new_node(kind, [(c, Ctx.USE) for c in inits], inits[0], inits[-1], sep=",")
        header = self._header(s, body)
        cond = self.new_node("for", [(c, Ctx.USE) for c in conds[:1]], s,
                         header[-1][0] if header else s, prefix=("while", "("),
                         suffix=(")",))
        upd = None
        if upds:
            upd = self.new_node("statement", [(c, Ctx.USE) for c in upds], upds[0], upds[-1],
                            sep=",")
        loop = _Loop(self._loop_labels(s))
        self.frames.append(loop)
        f, ex = yield body
        self.frames.pop()
        again = cond if upd is None else upd
        if init is not None:
            self._link([init], cond)
        self._link([cond], again if f is None else f)
        self.true_succ[cond] = again if f is None else f
        self._link(ex, again)
        self._link(loop.continues, again)
        if upd is not None:
            self._link([upd], cond)
        return (cond if init is None else init), [cond, *loop.breaks]
