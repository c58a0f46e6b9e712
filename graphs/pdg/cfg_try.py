"""The ``try`` statement of the CFG builder (modelled as :mod:`graphs.pdg.cfg` describes): the
header's edges to the body and to every ``catch``, Python's ``try ... else``, and the
``finally`` built once per way of reaching it, up to a copy budget. A mixin of the builder
(``_Builder`` in :mod:`graphs.pdg.cfg`), which supplies ``roles``, ``frames``, the budget
(``aliases``, ``alias_budget``) and the node and edge primitives (``new_node``, ``_link``,
``_header_node``, ``_branch``, ``_plain``, ``last_body``, ``jump``); the handler is a
generator on the builder's explicit stack, like every compound statement's.
"""

from __future__ import annotations

from collections.abc import Generator

from graphs.flow.cfg_model import Node
from graphs.flow.frames import THROW as _THROW
from graphs.flow.frames import Try as _Try


class TryStatements:
    """The ``try`` handler of the CFG builder (see the module docstring)."""

    def _try(self, s: Node) -> Generator:
        roles = self.roles
        body = s.child_by_field_name("body")
        if body is None:
            return self._plain(s)
        catches = [c for c in s.children if c.type in roles.catch_clauses]
        fin = next((c for c in s.children if c.type in roles.finally_clauses), None)
        els = next((c for c in s.children if c.type in roles.else_clauses), None)
        t = self._header_node("try", s, body)
        cnodes = []
        cbodies = []
        for c in catches:
            cb = self.last_body(c)
            cbodies.append(cb)
            cnodes.append(self._header_node("catch", c, cb))
        fbody = self.last_body(fin) if fin is not None else None
        frame = _Try(cnodes, fin is not None)
        for cn in cnodes:
            self._link([t], cn)
        if not cnodes and fin is not None:
            # an exception in the body runs the finally, then propagates
            frame.pending[(_THROW, None)] = [t]
        self.frames.append(frame)
        f, ex = yield body
        if f is None:
            ex = [t]
        else:
            self._link([t], f)
        if els is not None:
            eb = self.last_body(els)
            if eb is not None:
                f2, ex2 = yield eb
                if f2 is not None:
                    self._link(ex, f2)
                    ex = ex2
        normal = list(ex)
        frame.in_body = False
        for cn, cb in zip(cnodes, cbodies, strict=True):
            if cb is None:
                normal.append(cn)
                continue
            self._branch(cn, (yield cb), normal)
        self.frames.pop()
        if fin is None:
            return t, normal
        # One copy of the finally per way of reaching it (normal completion, and each
        # distinct jump through it), so that each copy continues where its entry came
        # from. Copies after the first are aliases of the same PDG nodes.
        conts: list[tuple[tuple[str, str | None] | None, list[int]]] = []
        if normal:
            conts.append((None, normal))
        conts.extend(frame.pending.items())
        if not conts:
            conts.append((None, []))  # unreachable finally: still gets its nodes
        exits: list[int] = []
        first: tuple[int, list[int]] | None = None
        for cont, srcs in conts:
            if first is not None and self.aliases > self.alias_budget:
                # too many copies (deeply nested finally): share the first copy
                self._link(srcs, first[0])
                if cont is not None:
                    self.jump(first[1], *cont)
                continue
            fn = self._header_node("finally", fin, fbody)
            self._link(srcs, fn)
            ends = [fn]
            if fbody is not None:
                f, ex = yield fbody
                if f is not None:
                    self._link([fn], f)
                    ends = ex
            if first is None:
                first = (fn, ends)
            if cont is None:
                exits = ends if normal else []
            else:
                self.jump(ends, *cont)
        return t, exits
