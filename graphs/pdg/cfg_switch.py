"""The ``switch``/``match`` statement of the CFG builder (modelled as :mod:`graphs.pdg.cfg`
describes): a multi-way predicate with an edge to every case label, fall-through where the
language has it, ``goto case`` resolved to its label; :mod:`graphs.canon.folding` reads the same
case groups to fold a switch whose every case returns. A mixin of the builder (``_Builder``
in :mod:`graphs.pdg.cfg`), which supplies ``roles``, ``frames``, ``comments`` and the node and
edge primitives (``new_node``, ``_link``, ``_header_node``, ``_plain``, ``_loop_labels``); the
handler is a generator on the builder's explicit stack, like every compound statement's.
"""

from __future__ import annotations

from collections.abc import Generator

from graphs.flow.cfg_model import EXIT, Node
from graphs.flow.frames import Switch as _Switch
from graphs.lang.roles import Ctx


class SwitchStatements:
    """The ``switch`` handler of the CFG builder (see the module docstring)."""

    def switch_groups(self, body: Node) -> list[tuple[list[list[Node]], list[Node], bool]]:
        """The groups of a ``switch`` body: ``(labels, statements, falls through)`` each."""
        roles = self.roles
        groups = []
        for g in body.named_children:
            if g.type in self.comments:
                continue
            if g.type not in roles.switch_groups:
                groups.append(([], [g], True))  # statements before any label: unreachable
                continue
            labels: list[list[Node]] = []
            stmts: list[Node] = []
            cur: list[Node] | None = None
            for c in g.children:
                if c.type in self.comments:
                    continue
                if cur is not None:
                    cur.append(c)
                    if c.type == ":":
                        labels.append(cur)
                        cur = None
                    continue
                if c.type in roles.switch_labels:
                    labels.append([c])
                elif not c.is_named:
                    if c.type in ("case", "default"):
                        cur = [c]
                else:
                    stmts.append(c)
            if cur:
                labels.append(cur)
            groups.append((labels, stmts,
                           roles.fallthrough and g.type not in roles.no_fallthrough_groups))
        return groups

    @staticmethod
    def is_default(parts: list[Node]) -> bool:
        """Whether the label made of ``parts`` is ``default`` (Python's ``case _``)."""
        head = parts[0].text
        if head.startswith(b"default"):
            return True
        return len(parts) > 1 and parts[0].type == "case" and parts[1].text == b"_"

    def _switch(self, s: Node) -> Generator:
        body = s.child_by_field_name("body")
        if body is None:
            return self._plain(s)
        sw = self._header_node("switch", s, body)
        frame = _Switch(self._loop_labels(s))
        self.frames.append(frame)
        carry: list[int] = []
        out: list[int] = []
        has_default = False
        for labels, stmts, fall in self.switch_groups(body):
            lnodes = []
            for parts in labels:
                kind = "default" if self.is_default(parts) else "case"
                has_default = has_default or kind == "default"
                ln = self.new_node(kind, [(p, Ctx.USE) for p in parts], parts[0], parts[-1])
                self._link([sw], ln)
                lnodes.append(ln)
                key = " ".join(p.text.decode() for p in parts if p.type != ":")
                frame.cases.setdefault(key, ln)
            f, ex = yield stmts
            if f is None:
                carry = carry + lnodes  # stacked labels reach the next group
                continue
            self._link(lnodes, f)
            self._link(carry, f)
            if fall:
                carry = list(ex)
            else:
                out.extend(ex)
                carry = []
        out.extend(carry)
        self.frames.pop()
        for n, key in frame.gotos:
            self._link([n], frame.cases.get(key, EXIT))
        out.extend(frame.breaks)
        if not has_default:
            out.append(sw)
        return sw, out
