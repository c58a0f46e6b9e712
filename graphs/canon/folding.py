"""Conditional folding: an ``if`` whose branches each assign the same variable or each
return a value becomes one statement with a conditional expression.

``if (c) x = a; else x = b;`` and ``x = c ? a : b`` mean the same, so they get the same
CFG (and PDG) node, labelled as the language writes a conditional expression. The rewrite
is a mixin of the CFG builder (:mod:`graphs.pdg.cfg`) that uses, of the rest of it, only the
members of :class:`graphs.canon.builder.CFGBuilder` (``roles``, ``parsed``, ``new_node``,
``jump``, ``named_items``, ``last_body``, ``switch_groups``, ``is_default``, ``oriented``);
the builder calls its hooks :meth:`ConditionalFolding.conditional` and
:meth:`ConditionalFolding.switch_fold`, and reads ``fold_end``.

Temporaries are folded first, so that they do not hide the form: a branch (or the
statements after ``if (c) return a;``) may be single-use temporaries followed by the one
statement, ``{ T t = e; return t + 1; }`` being ``return (e) + 1`` (the node's ``subst``
tells the label walker to read ``e`` where ``t`` stands). A temporary folds only when its
name occurs nowhere else in the snippet but at its one read, further down the same block;
the read is a value (not a target, a method's receiver or a callee), not inside a lambda or
comprehension (evaluated another number of times), and not in a branch of ``&&``, ``||``
or ``?:`` when the value has effects; and at most one of the values and the statement
calls something or assigns (their order could change).
"""

from __future__ import annotations

import tree_sitter

from graphs.canon.rewrites import fits_unparenthesized
from graphs.flow.cfg_model import Result
from graphs.flow.frames import RETURN as _RETURN  # a folded return is a return node and jump
from graphs.lang.roles import Ctx, Role
from graphs.lang.syntax import walk

Node = tree_sitter.Node
_USE = Ctx.USE
_FOLD_DEPTH = 8  # nested ifs folded into one conditional expression, at most
_TEMPS = 8  # temporaries folded into one statement, at most
_TERNARIES = frozenset({"ternary_expression", "conditional_expression"})
_SHORT_CIRCUIT = frozenset({"&&", "||", "and", "or", "??"})


class ConditionalFolding:
    """The folding methods of the CFG builder, a mixin of a
    :class:`~graphs.canon.builder.CFGBuilder` (see the module docstring).

    Attributes
    ----------
    fold_end : after :meth:`conditional` or :meth:`switch_fold` folded statements that
        follow the one it was given, the index of the last of them.
    """

    def conditional(self, s: Node, cons: Node | None,
                     follower: tuple[list[Node], int] | None = None) -> Result | None:
        """``if (c) x = a; else x = b;`` as the one statement ``x = c ? a : b`` (and two
        returns, or ``if (c) return a;`` followed by ``return b;``, as ``return c ? a : b``;
        a compound ``x op= a`` branch as ``x op (a)``; a branch that is itself such an
        ``if`` as a nested conditional): the same meaning gets the same node, labelled as
        the language writes a conditional expression. None when ``s`` is not of that form.

        ``follower`` is ``(statements, index)`` of what follows ``s`` in its block: when
        they certainly return (:meth:`_tail`), ``if (c) return a;`` and they are one
        return, and ``self.fold_end`` is the index of the last statement folded.
        """
        self._subst = {}
        last = s
        if follower is not None:
            guarded = self._guarded_return(s, cons, *follower, 0, 1)
            if guarded is None:
                return None
            value, end = guarded
            last = follower[0][end]
            self.fold_end = end
            folded = ("return", None, value)
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
        n = self.new_node(_RETURN if kind == "return" else "statement", parts, s, last,
                      subst=self._subst)
        if kind == "return":
            self.jump([n], _RETURN, None)
            return n, []
        return n, [n]

    def switch_fold(self, s: Node, follower: tuple[list[Node], int]) -> Result | None:
        """A ``switch`` whose every case returns a value, as the one return of a conditional
        chain: ``switch (x) { case 0: return a; case 1: case 2: return b; default: return
        c; }`` is ``return x == 0 ? a : x == 1 || x == 2 ? b : c`` (JavaScript compares with
        ``===``), which is also what the ``if`` chain testing the same values folds into.
        Without a ``default``, the statements after the switch must return (:meth:`_tail`)
        and give the last value; ``self.fold_end`` is then the index of the last one.
        None when ``s`` is not of that form: a case that does anything but return, a
        pattern or guarded case, or a subject with effects (it would be evaluated once
        per test)."""
        self._subst = {}
        roles = self.roles
        body = s.child_by_field_name("body")
        subject = s.child_by_field_name("condition") or s.child_by_field_name("value")
        if roles.language == "python" or body is None or subject is None:
            return None
        if subject.type == "condition_clause":  # C++: (x) around the value
            subject = subject.child_by_field_name("value")
        if subject is None or self._effects(subject, None):
            return None
        subject = self._value(subject)
        eq = "===" if roles.language == "javascript" else "=="
        arms: list[tuple[list, list]] = []
        default: list | None = None
        pending: list[list[Node]] = []
        for labels, stmts, _fall in self.switch_groups(body):
            if not labels:
                return None  # statements before any case label
            pending.extend(labels)
            real = [t for t in stmts if t.type not in roles.comments]
            if not real:
                continue  # stacked labels: they share the next group's statement
            if len(real) != 1:
                return None
            value = self._branch_value(real[0])
            if value is None or value[0] != "return":
                return None
            tests: list = []
            is_default = False
            for parts in pending:
                if self.is_default(parts):
                    is_default = True
                    continue
                cases = self._case_values(parts)
                if cases is None:
                    return None
                for case in cases:
                    tests += [*(["||"] if tests else []), (subject, _USE), eq, (case, _USE)]
            pending = []
            if is_default:
                default = value[2]  # the other labels of its group are decided by it too
            else:
                arms.append((tests, value[2]))
        if pending or not arms:
            return None
        last = s
        self.fold_end = follower[1] - 1
        if default is None:
            rest = self._tail(*follower, 1)
            if rest is None:
                return None
            default, self.fold_end = rest
            last = follower[0][self.fold_end]
        chain = default
        for tests, value in reversed(arms):
            chain = [*tests, "?", *value, ":", *chain]
        parts = [p if isinstance(p, tuple) else (p, _USE) for p in ["return", *chain]]
        n = self.new_node(_RETURN, parts, s, last, subst=self._subst)
        self.jump([n], _RETURN, None)
        return n, []

    def _case_values(self, parts: list[Node]) -> list[Node] | None:
        """The values one case label tests (``case 1, 2`` has two), or None for a pattern,
        a guard or anything but a plain constant expression."""
        named = [p for p in parts if p.is_named and p.type not in self.roles.comments]
        if len(named) == 1 and named[0].type in self.roles.switch_labels:
            named = [c for c in named[0].named_children if c.type not in self.roles.comments]
        values = []
        for v in named:
            if v.type == "constant_pattern":  # C#: case 0
                v = self._only_named(v)
            if v is None or "pattern" in v.type or v.type in ("when_clause", "guard") \
                    or self._effects(v, None):
                return None
            values.append(v)
        return values or None

    def _tail(self, stmts: list[Node], at: int, depth: int) -> tuple[list, int] | None:
        """``(value parts, index of the last statement)`` when the statements from
        ``stmts[at]`` on are a return, after single-use temporaries. None otherwise."""
        comments = self.roles.comments
        n = len(stmts)
        while at < n and stmts[at].type in comments:
            at += 1
        if at >= n or depth > _FOLD_DEPTH:
            return None
        # temporaries, then the return
        end = at
        temps = 0
        while end < n and temps <= _TEMPS and (stmts[end].type in comments or (
                self._temporary(stmts[end]) is not None)):
            temps += stmts[end].type not in comments
            end += 1
        if end >= n:
            return None
        role = self.roles.statements.get(stmts[end].type)
        if role is Role.IF and not temps:
            return self._returning_if(stmts, end, depth)
        if role is not Role.RETURN:
            return None
        if temps and not self._fold_temporaries(
                [t for t in stmts[at:end] if t.type not in comments], stmts[end]):
            return None
        v = self._branch_value(stmts[end], depth)
        return None if v is None else (v[2], end)

    def _returning_if(self, stmts: list[Node], at: int, depth: int) -> tuple[list, int] | None:
        """The tail :meth:`_tail` reads when it starts with an ``if``: an ``if``/``else``
        whose branches both return (``if (c) return a; else return b;``), or a guard
        ``if (c) return a;`` followed by a tail, both ``return c ? a : ...``. Temporaries
        are not folded into an ``if`` (a branch would evaluate them a different number of
        times), so none may precede it."""
        s = stmts[at]
        whole = self._branch_value(s, depth)
        if whole is not None:
            return (whole[2], at) if whole[0] == "return" else None
        return self._guarded_return(s, s.child_by_field_name("consequence"), stmts, at + 1,
                                    depth + 1, depth + 1)

    def _guarded_return(self, s: Node, cons: Node | None, stmts: list[Node], at: int,
                        guard_depth: int, tail_depth: int) -> tuple[list, int] | None:
        """A guard ``if (c) return a;`` (no ``else``) followed, from ``stmts[at]`` on, by
        statements that certainly return (:meth:`_tail`): the value parts of ``c ? a :
        ...`` and the index of the last statement. None when it is not of that form."""
        alts = [c for i, c in enumerate(s.children) if s.field_name_for_child(i) == "alternative"]
        cond = self._condition(s)
        if alts or cond is None:
            return None
        guard = self._branch_value(self._single(cons), guard_depth)
        if guard is None or guard[0] != "return":
            return None
        rest = self._tail(stmts, at, tail_depth)
        if rest is None:
            return None
        return self._ternary(cond, self._then(guard[2]), rest[0]), rest[1]

    def _then(self, then: list) -> list:
        if self.roles.language == "python" and "if" in then:
            return ["(", *then, ")"]  # a nested x if c else y, in the then position
        return then

    def _condition(self, s: Node) -> Node | None:
        cond = s.child_by_field_name("condition")
        if cond is not None and cond.type in ("parenthesized_expression", "condition_clause") \
                and cond.named_child_count == 1:
            cond = cond.named_children[0]
        return cond

    def _ternary(self, cond: Node, then: list, other: list) -> list:
        """Label parts of ``cond ? then : other`` in the language's own form, in the
        canonical orientation of ``cond`` (``!c ? a : b`` is ``c ? b : a``)."""
        then, other = self.oriented(cond, then, other)
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
            return None if value is None else ("return", None, [(self._value(value), _USE)])
        if role is Role.IF:
            cons = stmt.child_by_field_name("consequence")
            alts = [c for i, c in enumerate(stmt.children)
                    if stmt.field_name_for_child(i) == "alternative"]
            if cons is None or len(alts) != 1 or alts[0].type in roles.elif_clauses:
                return None
            alt = alts[0]
            if alt.type in roles.else_clauses:
                alt = self.last_body(alt)
            cond = self._condition(stmt)
            a = self._branch_value(self._single(cons), depth + 1)
            b = self._branch_value(self._single(alt), depth + 1)
            if cond is None or a is None or b is None or a[0] != b[0] or (
                    a[0] == "assign" and a[1].text != b[1].text):
                return None
            return a[0], a[1], self._ternary(cond, self._then(a[2]), b[2])
        if stmt.type != "expression_statement":
            return None
        e = self._only_named(stmt)
        if e is not None and e.type in roles.updates:
            # x++ / ++x / x-- / --x: the value x + (1) / x - (1), as x += 1 gives
            operand = self._only_named(e)
            ops = [c.type for c in e.children if not c.is_named]
            if operand is None or ops not in (["++"], ["--"]):
                return None
            return "assign", operand, [(operand, _USE), ops[0][0], "(", "1", ")"]
        if e is None or e.type not in roles.assignments:
            return None
        left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
        op = e.child_by_field_name("operator")
        if left is None or right is None:
            return None
        if op is None or op.type == "=":
            if roles.assignments[e.type]:
                return None  # compound, operator unknown
            return "assign", left, [(self._value(right), _USE)]
        # x op= e: the value x op (e)
        return "assign", left, [(left, _USE), op.type[:-1], "(", (right, _USE), ")"]

    def _value(self, value: Node) -> Node:
        """A branch's value: a folded temporary's value where the value is just the
        temporary; an expression without its redundant parentheses (in a conditional
        expression they would stay)."""
        subst = self._subst
        for _ in range(_TEMPS + 1):
            if value.id in subst:
                value = subst[value.id][0]
            elif value.type == "parenthesized_expression":
                inner = self._only_named(value)
                if inner is None or inner.type in _TERNARIES or \
                        inner.type in self.roles.assignments or "lambda" in inner.type \
                        or inner.type in ("arrow_function", "sequence_expression",
                                          "named_expression", "yield", "expression_list",
                                          "comma_expression", "tuple"):
                    return value
                value = inner
            else:
                break
        return value

    def _single(self, node: Node | None) -> Node | None:
        """The one statement a branch consists of (a block of one, or of single-use
        temporaries and the statement they fold into), else None."""
        if node is None:
            return None
        if node.type in self.roles.blocks:
            items = self.named_items(node)
            if len(items) == 1:
                return items[0]
            if 1 < len(items) <= _TEMPS + 1 and self._fold_temporaries(items[:-1], items[-1]):
                return items[-1]
            return None
        return node

    # ---- temporaries ------------------------------------------------------------------

    def _temporary(self, stmt: Node) -> tuple[Node, Node] | None:
        """``(name, value)`` when ``stmt`` declares one plain local with a value (``T t =
        e;``, ``var t = e;``, ``const t = e;``; in Python ``t = e``), else None."""
        roles = self.roles
        role = roles.statements.get(stmt.type)
        if role is Role.DECLARATION:
            found = []
            for c in stmt.named_children:
                if c.type in roles.declarations:
                    found.append(c)
                elif c.type not in roles.comments:
                    found.extend(k for k in c.named_children if k.type in roles.declarations)
            if len(found) != 1:
                return None
            decl = found[0]
            name = decl.child_by_field_name(roles.declarations[decl.type])
            value = decl.child_by_field_name("value")
            if value is None:
                kids = decl.children
                for i, c in enumerate(kids):
                    if c.type == "=" and i + 1 < len(kids):
                        value = kids[i + 1]
                        break
            if value is not None and value.type == "equals_value_clause":
                value = self._only_named(value)
            if value is None or not value.is_named:
                return None
        elif roles.assignment_declares and stmt.type == "expression_statement":
            e = self._only_named(stmt)
            if e is None or e.type not in roles.assignments or roles.assignments[e.type]:
                return None
            op = e.child_by_field_name("operator")
            if op is not None and op.type != "=" or not any(c.type == "=" for c in e.children):
                return None
            name, value = e.child_by_field_name("left"), e.child_by_field_name("right")
            if value is None or value.type in roles.assignments:
                return None  # a = b = e
        else:
            return None
        if name is None or name.type not in roles.identifiers:
            return None
        return name, value

    def _name_counts(self) -> dict[bytes, int]:
        """How often each identifier occurs in the snippet (computed once, on demand)."""
        counts = getattr(self, "_names", None)
        if counts is None:
            counts = {}
            idents = self.roles.identifiers
            for n in walk(self.parsed.tree.root_node, lambda n: n.type not in idents):
                if n.type in idents:
                    t = n.text
                    counts[t] = counts.get(t, 0) + 1
            self._names = counts
        return counts

    def _fold_temporaries(self, temps: list[Node], final: Node) -> bool:
        """Fold the temporaries ``temps`` (statements in order, ``final`` next) into the
        statement ``final`` (a return or an assignment) when that keeps the meaning (see
        the module docstring); records them in ``self._subst``. True when done."""
        roles = self.roles
        role = roles.statements.get(final.type)
        if role is Role.RETURN:
            top = None
        elif final.type == "expression_statement":
            top = self._only_named(final)
            if top is None or top.type not in roles.assignments:
                return False
        else:
            return False
        pairs = []
        for t in temps:
            p = self._temporary(t)
            if p is None:
                return False
            pairs.append(p)
        counts = self._name_counts()
        # effects: at most one of the values and the final statement
        effects = sum(self._effects(v, None) for _, v in pairs) + self._effects(final, top)
        if effects > 1:
            return False
        subst: dict[int, tuple[Node, bool]] = {}
        later = [*temps[1:], final]
        for k, (name, value) in enumerate(pairs):
            text = name.text
            if counts.get(text) != 2:
                return False
            use = None
            for stmt in later[k:]:
                use = self._find(stmt, text)
                if use is not None:
                    break
            if use is None or not self._plain_read(use, stmt, value):
                return False
            parent = use.parent
            whole = (parent.type in roles.statements or parent.type in roles.declarations
                     or (parent.type in roles.assignments
                         and parent.child_by_field_name("right") == use))
            wrap = not whole and not fits_unparenthesized(value, use, roles.language)
            subst[use.id] = (value, wrap)
        self._subst.update(subst)
        return True

    def _find(self, node: Node, text: bytes) -> Node | None:
        idents = self.roles.identifiers
        return next((n for n in walk(node, lambda n: n.type not in idents)
                     if n.type in idents and n.text == text), None)

    def _plain_read(self, use: Node, stmt: Node, value: Node) -> bool:
        """``use`` (in ``stmt``) reads its variable as a value, evaluated once, where the
        temporary's ``value`` may be computed instead."""
        roles = self.roles
        parent = use.parent
        pt = parent.type
        if pt in roles.updates:
            return False
        if pt in roles.assignments and parent.child_by_field_name("left") == use:
            return False
        if pt in roles.members and parent.child_by_field_name(roles.members[pt][0]) == use:
            return False  # a method called on it, a field of it: an object, not a value
        if pt in roles.calls and parent.child_by_field_name(roles.calls[pt]) == use:
            return False
        effects = None
        child, node = use, parent
        while node is not None and node.id != stmt.id:
            t = node.type
            if t in roles.nested or t in roles.functions or "lambda" in t:
                return False  # evaluated later, or many times
            conditional = False
            if t in _TERNARIES:
                cond = node.child_by_field_name("condition")
                if cond is None:  # Python: then, condition, else
                    kids = node.named_children
                    cond = kids[1] if len(kids) == 3 else None
                conditional = cond is None or cond.id != child.id
            elif node.named_child_count == 2 and node.named_children[0].id != child.id:
                op = node.child_by_field_name("operator")
                conditional = op is not None and op.type in _SHORT_CIRCUIT
            if conditional:
                if effects is None:
                    effects = self._effects(value, None)
                if effects:
                    return False  # evaluated only on one branch
            child, node = node, node.parent
        return node is not None

    def _effects(self, node: Node, top: Node | None) -> int:
        """1 when evaluating ``node`` calls something or assigns (``top``, the statement's
        own assignment, aside), else 0."""
        roles = self.roles
        calls, assigns, updates = roles.calls, roles.assignments, roles.updates
        # a lambda's body runs later, if ever
        for n in walk(node, lambda n: n.type not in roles.nested
                      and n.type not in roles.functions):
            t = n.type
            if (t in calls or t in updates or (t in assigns and n != top) or "new" in t
                    or "creation" in t or "await" in t or "yield" in t):
                return 1
        return 0

    @staticmethod
    def _only_named(node: Node) -> Node | None:
        named = [c for c in node.named_children if c.type != "comment"]
        return named[0] if len(named) == 1 else None
