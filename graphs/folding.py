"""Conditional folding: an ``if`` whose branches each assign the same variable or each
return a value becomes one statement with a conditional expression.

``if (c) x = a; else x = b;`` and ``x = c ? a : b`` mean the same, so they get the same
CFG (and PDG) node, labelled as the language writes a conditional expression. The rewrite
is a mixin of the CFG builder (:class:`graphs.cfg._Builder`), which supplies ``roles``,
``_new``, ``_jump``, ``_items`` and ``_last_body``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import tree_sitter

from graphs.roles import Ctx, Role

if TYPE_CHECKING:
    from graphs.cfg import Result

Node = tree_sitter.Node
# The builder's names for these (graphs.cfg): a folded return is a return node and jump.
_RETURN = "return"
_USE = Ctx.USE
_FOLD_DEPTH = 8  # nested ifs folded into one conditional expression, at most


class _ConditionalFolding:
    """The folding methods of the CFG builder (see the module docstring)."""

    def _conditional(self, s: Node, cons: Node | None, follower: Node | None = None
                     ) -> Result | None:
        """``if (c) x = a; else x = b;`` as the one statement ``x = c ? a : b`` (and two
        returns, or ``if (c) return a;`` followed by ``return b;``, as ``return c ? a : b``;
        a compound ``x op= a`` branch as ``x op (a)``; a branch that is itself such an
        ``if`` as a nested conditional): the same meaning gets the same node, labelled as
        the language writes a conditional expression. None when ``s`` is not of that form.
        """
        if follower is not None:
            alts = [c for i, c in enumerate(s.children)
                    if s.field_name_for_child(i) == "alternative"]
            if alts or self.roles.statements.get(follower.type) is not Role.RETURN:
                return None
            a, b = self._single(cons), follower
            cond = self._condition(s)
            va, vb = self._branch_value(a), self._branch_value(b)
            if cond is None or va is None or vb is None or va[0] != "return" != vb[0]:
                return None
            folded = ("return", None, self._ternary(cond, va[2], vb[2]))
        else:
            folded = self._branch_value(s)
            if folded is None or s.type not in self.roles.statements \
                    or self.roles.statements[s.type] is not Role.IF:
                return None
        kind, target, value = folded
        if kind == "return":
            parts: list = ["return", *value]
        else:
            parts = [(target, Ctx.DEF), "=", *value]
        parts = [p if isinstance(p, tuple) else (p, _USE) for p in parts]
        n = self._new(_RETURN if kind == "return" else "statement", parts, s,
                      s if follower is None else follower)
        if kind == "return":
            self._jump([n], _RETURN, None)
            return n, []
        return n, [n]

    def _condition(self, s: Node) -> Node | None:
        cond = s.child_by_field_name("condition")
        if cond is not None and cond.type in ("parenthesized_expression", "condition_clause") \
                and cond.named_child_count == 1:
            cond = cond.named_children[0]
        return cond

    def _ternary(self, cond: Node, then: list, other: list) -> list:
        """Label parts of ``cond ? then : other`` in the language's own form."""
        if self.roles.language == "python":
            return [*then, "if", (cond, _USE), "else", *other]
        return [(cond, _USE), "?", *then, ":", *other]

    def _branch_value(self, stmt: Node | None, depth: int = 0
                      ) -> tuple[str, Node | None, list] | None:
        """What a branch of a foldable ``if`` does: ``("return", None, value parts)`` or
        ``("assign", target, value parts)``; None otherwise (and beyond a nesting depth:
        folding stays linear in the size of the code, without recursing deeply)."""
        if stmt is None or depth > _FOLD_DEPTH:
            return None
        roles = self.roles
        role = roles.statements.get(stmt.type)
        if role is Role.RETURN:
            value = self._only_named(stmt)
            return None if value is None else ("return", None, [(value, _USE)])
        if role is Role.IF:
            cons = stmt.child_by_field_name("consequence")
            alts = [c for i, c in enumerate(stmt.children)
                    if stmt.field_name_for_child(i) == "alternative"]
            if cons is None or len(alts) != 1 or alts[0].type in roles.elif_clauses:
                return None
            alt = alts[0]
            if alt.type in roles.else_clauses:
                alt = self._last_body(alt)
            cond = self._condition(stmt)
            a = self._branch_value(self._single(cons), depth + 1)
            b = self._branch_value(self._single(alt), depth + 1)
            if cond is None or a is None or b is None or a[0] != b[0] or (
                    a[0] == "assign" and a[1].text != b[1].text):
                return None
            then = a[2]
            if roles.language == "python" and "if" in then:
                then = ["(", *then, ")"]  # a nested x if c else y, in the then position
            return a[0], a[1], self._ternary(cond, then, b[2])
        if stmt.type != "expression_statement":
            return None
        e = self._only_named(stmt)
        if e is None or e.type not in roles.assignments:
            return None
        left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
        op = e.child_by_field_name("operator")
        if left is None or right is None:
            return None
        if op is None or op.type == "=":
            if roles.assignments[e.type]:
                return None  # compound, operator unknown
            return "assign", left, [(right, _USE)]
        # x op= e: the value x op (e)
        return "assign", left, [(left, _USE), op.type[:-1], "(", (right, _USE), ")"]

    def _single(self, node: Node | None) -> Node | None:
        """The one statement a branch consists of (a block of one), else None."""
        if node is None:
            return None
        if node.type in self.roles.blocks:
            items = self._items(node)
            return items[0] if len(items) == 1 else None
        return node

    @staticmethod
    def _only_named(node: Node) -> Node | None:
        named = [c for c in node.named_children if c.type != "comment"]
        return named[0] if len(named) == 1 else None
