"""Finding and editing sites in a parsed snippet: the machinery every mutation operator shares.

:class:`Code` parses a snippet (:func:`graphs.parse`) and answers structural questions
(statements, variables, declarations with their types and scopes, read and write sets);
:meth:`Code.finish` applies text edits and keeps a result only if it parses cleanly and
differs after :func:`normalize_whitespace`; :func:`apply_each` tries the sites in a random
order. Also the few site helpers both families use (parenthesis stripping, adjacent
statement pairs and swaps, a function's declared return type).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import tree_sitter

import graphs
from graphs.lang.languages import get_language
from graphs.lang.syntax import named_children, walk

from .node_types import (
    ASSIGN,
    ATOMIC,
    BLOCKS,
    CALLS,
    COMPOUND,
    DECL_STMTS,
    FUNCTIONS,
    LOOPS,
    MEMBER,
    NAMED_DEFS,
    NEVER_VAR_PARENTS,
    STRINGS,
    SUBSCRIPT,
    UPDATE,
)

Node = tree_sitter.Node
Edit = tuple[int, int, str]

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def normalize_whitespace(code: str) -> str:
    """``code`` with every whitespace run replaced by one space, stripped (for equality)."""
    return " ".join(code.split())


# ---------------------------------------------------------------------------------------
# a parsed snippet with the helpers the operators share


@dataclass
class Decl:
    """A declared local variable or parameter."""

    name: str
    ident: Node
    type: str | None  # declared type text (None: untyped language or unknown)
    param: bool
    stmt: Node  # the declaring statement (or parameter)
    scope: Node  # the block (or function, for parameters) it is visible in


class Code:
    """A cleanly parsed snippet: the nodes in preorder, each node's field, and helpers."""

    def __init__(self, code: str, language: str) -> None:
        self.code = code
        self.lang = get_language(language).name
        self.python = self.lang == "python"
        self.parsed = graphs.parse(code, language)
        self.ok = self.parsed.ok
        self.nodes: list[Node] = []
        self.field: dict[int, str | None] = {}
        if not self.ok:
            return
        stack: list[tuple[Node, str | None]] = [(n, None) for n in reversed(self.parsed.nodes)]
        while stack:
            node, field = stack.pop()
            self.nodes.append(node)
            self.field[node.id] = field
            kids = node.children
            for i in range(len(kids) - 1, -1, -1):
                stack.append((kids[i], node.field_name_for_child(i)))
        self.words = set(_WORD.findall(code))
        self._decls: list[Decl] | None = None

    # -- text ------------------------------------------------------------------------
    def span(self, node: Node) -> tuple[int, int]:
        return self.parsed.source_range(node)

    def text(self, node: Node) -> str:
        start, end = self.span(node)
        return self.code[start:end]

    def of_type(self, types: set[str] | str) -> list[Node]:
        if isinstance(types, str):
            types = {types}
        return [n for n in self.nodes if n.type in types]

    def line_indent(self, pos: int) -> str | None:
        """The whitespace before ``pos`` on its line, if only whitespace precedes it.

        None for one-line code (edits then stay on the line) or text before ``pos``.
        """
        if "\n" not in self.code.strip():
            return None
        start = self.code.rfind("\n", 0, pos) + 1
        before = self.code[start:pos]
        return before if before.strip() == "" else None

    def multiline(self) -> bool:
        return "\n" in self.code.strip()

    # -- structure -------------------------------------------------------------------
    @staticmethod
    def named(node: Node) -> list[Node]:
        return named_children(node)

    @staticmethod
    def is_ancestor(anc: Node, node: Node) -> bool:
        cur: Node | None = node
        while cur is not None:
            if cur.id == anc.id:
                return True
            cur = cur.parent
        return False

    @staticmethod
    def enclosing(node: Node, types: set[str]) -> Node | None:
        cur = node.parent
        while cur is not None:
            if cur.type in types:
                return cur
            cur = cur.parent
        return None

    @staticmethod
    def op_token(node: Node, ops: set[str] | dict[str, str]) -> Node | None:
        for child in node.children:
            if not child.is_named and child.type in ops:
                return child
        return None

    def has(self, node: Node, types: set[str]) -> bool:
        return any(n.type in types for n in walk(node))

    def in_block(self, stmt: Node) -> bool:
        parent = stmt.parent
        return parent is not None and parent.type in BLOCKS

    def statements(self) -> list[Node]:
        """Statements directly inside a block, not comments."""
        return [
            n
            for n in self.nodes
            if n.is_named and n.parent is not None and n.parent.type in BLOCKS
            and "comment" not in n.type
        ]

    # -- identifiers -----------------------------------------------------------------
    def is_var(self, node: Node) -> bool:
        """True for an ``identifier`` that names a variable (not a member, type, callee...)."""
        if node.type != "identifier":
            return False
        parent = node.parent
        if parent is None:
            return True
        field = self.field.get(node.id)
        ptype = parent.type
        if ptype in NEVER_VAR_PARENTS or field in ("type", "returns"):
            return False
        if ptype in MEMBER and field in ("name", "field", "attribute", "property"):
            return False
        if ptype == "keyword_argument" and field == "name":
            return False
        if ptype in ("call", "call_expression", "invocation_expression") and field == "function":
            return False
        if ptype in NAMED_DEFS and field in ("name", "declarator"):
            return False
        if ptype == "function_declarator" and field == "declarator":
            return False
        return not (ptype == "attribute" and field is None and not self.python)

    def var_nodes(self, node: Node | None = None) -> list[Node]:
        nodes = self.nodes if node is None else list(walk(node))
        return [n for n in nodes if self.is_var(n)]

    def decls(self) -> list[Decl]:
        if self._decls is None:
            self._decls = self._find_decls()
        return self._decls

    def _find_decls(self) -> list[Decl]:
        out: list[Decl] = []
        seen: set[int] = set()
        for ident in self.nodes:
            if ident.type != "identifier" or ident.id in seen:
                continue
            found = self._decl_of(ident)
            if found is not None:
                seen.add(ident.id)
                out.append(found)
        return out

    def _scope_of(self, stmt: Node, param: bool) -> Node:
        if param:
            func = self.enclosing(stmt, FUNCTIONS)
            return func if func is not None else stmt
        parent = stmt.parent
        while parent is not None and parent.type not in BLOCKS | LOOPS | FUNCTIONS:
            parent = parent.parent
        return parent if parent is not None else stmt

    def _decl_of(self, ident: Node) -> Decl | None:
        parent = ident.parent
        if parent is None:
            return None
        field = self.field.get(ident.id)
        ptype = parent.type
        name = self.text(ident)
        if self.python:
            return self._python_decl(ident, name, parent, field)
        if self.lang == "javascript":
            if ptype == "variable_declarator" and field == "name":
                value = parent.child_by_field_name("value")
                stmt = parent.parent
                if value is not None and value.type in FUNCTIONS:
                    return None
                if stmt is None or stmt.parent is None or stmt.parent.type == "program":
                    return None
                return Decl(name, ident, None, False, stmt, self._scope_of(stmt, False))
            if ptype == "formal_parameters" or (
                ptype == "assignment_pattern" and parent.parent is not None
                and parent.parent.type == "formal_parameters" and field == "left"
            ) or (ptype == "arrow_function" and field == "parameter"):
                return Decl(name, ident, None, True, ident, self._scope_of(ident, True))
            return None
        if self.lang in ("java", "csharp"):
            if ptype == "variable_declarator" and field in ("name", None):
                decl = parent.parent
                if decl is None:
                    return None
                stmt = decl.parent if decl.type == "variable_declaration" else decl
                if stmt is None or stmt.type in ("field_declaration", "event_field_declaration"):
                    return None
                if decl.type not in ("local_variable_declaration", "variable_declaration"):
                    return None
                type_node = decl.child_by_field_name("type")
                type_text = self.text(type_node) if type_node is not None else None
                if parent.child_by_field_name("dimensions") is not None:
                    type_text = None
                return Decl(name, ident, type_text, False, stmt, self._scope_of(stmt, False))
            if ptype in ("formal_parameter", "parameter") and field == "name":
                type_node = parent.child_by_field_name("type")
                type_text = self.text(type_node) if type_node is not None else None
                return Decl(name, ident, type_text, True, parent, self._scope_of(parent, True))
            if ptype in ("enhanced_for_statement", "foreach_statement") and field in (
                "name", "left"
            ):
                type_node = parent.child_by_field_name("type")
                type_text = self.text(type_node) if type_node is not None else None
                return Decl(name, ident, type_text, False, parent, parent)
            return None
        # C and C++: walk up the declarator chain
        marks = ""
        cur = ident
        while cur.parent is not None and cur.parent.type in (
            "init_declarator", "pointer_declarator", "array_declarator", "reference_declarator"
        ):
            if self.field.get(cur.id) not in ("declarator", None):
                return None
            marks += {"pointer_declarator": "*", "array_declarator": "[]",
                      "reference_declarator": "&"}.get(cur.parent.type, "")
            cur = cur.parent
        holder = cur.parent
        if holder is None or self.field.get(cur.id) != "declarator":
            return None
        type_node = holder.child_by_field_name("type")
        type_text = self.text(type_node) + marks if type_node is not None else None
        if holder.type == "parameter_declaration":
            return Decl(name, ident, type_text, True, holder, self._scope_of(holder, True))
        if holder.type == "declaration":
            if holder.parent is None or holder.parent.type == "translation_unit":
                return None
            if self.enclosing(holder, FUNCTIONS) is None:
                return None
            return Decl(name, ident, type_text, False, holder, self._scope_of(holder, False))
        if holder.type == "for_range_loop":
            return Decl(name, ident, type_text, False, holder, holder)
        return None

    def _python_decl(self, ident: Node, name: str, parent: Node, field: str | None
                     ) -> Decl | None:
        ptype = parent.type
        if ptype == "parameters" or (
            ptype in ("default_parameter", "typed_default_parameter") and field == "name"
        ) or (ptype == "typed_parameter" and field is None):
            holder = parent if ptype != "parameters" else ident
            return Decl(name, ident, None, True, holder, self._scope_of(holder, True))
        target = ident
        while target.parent is not None and target.parent.type in (
            "pattern_list", "tuple_pattern", "list_pattern"
        ):
            target = target.parent
        holder = target.parent
        tfield = self.field.get(target.id)
        if holder is None:
            return None
        if (holder.type == "assignment" and tfield == "left") or (
            holder.type == "for_statement" and tfield == "left"
        ):
            if any(d.name == name for d in (self._decls or [])):
                return None
            stmt = holder.parent if holder.type == "assignment" else holder
            if stmt is None:
                return None
            func = self.enclosing(stmt, {"function_definition"})
            return Decl(name, ident, None, False, stmt, func if func is not None else stmt)
        return None

    def first_decls(self) -> dict[str, Decl]:
        """Each declared name's first declaration."""
        out: dict[str, Decl] = {}
        for d in self.decls():
            out.setdefault(d.name, d)
        return out

    # -- reads and writes -------------------------------------------------------------
    def lvalue_roots(self, target: Node) -> set[str] | None:
        """Variables whose value or object state a write to ``target`` changes."""
        if target.type == "identifier":
            return {self.text(target)}
        if target.type in ("this", "self"):
            return {"this"}
        if target.type in ("pattern_list", "tuple_pattern", "list_pattern", "array_pattern",
                           "tuple", "list"):
            roots: set[str] = set()
            for child in self.named(target):
                sub = self.lvalue_roots(child)
                if sub is None:
                    return None
                roots |= sub
            return roots
        if target.type in MEMBER | SUBSCRIPT | {"parenthesized_expression",
                                                   "pointer_expression"}:
            kids = self.named(target)
            if not kids or self.has(target, CALLS):
                return None
            return self.lvalue_roots(kids[0])
        return None

    def effects(self, stmt: Node) -> bool:
        return self.has(stmt, CALLS | FUNCTIONS | {"throw_statement", "raise_statement"})

    def rw(self, stmt: Node) -> tuple[set[str], set[str], set[str], set[str]] | None:
        """(reads, writes, exact reads, exact writes) of a simple statement, or None.

        ``writes`` are root variables (``a`` for ``a.b = 1``), ``reads`` every variable read,
        ``exact writes`` the written lvalue texts and ``exact reads`` the read variables and
        member/element texts (for a definite dependence test).
        """
        reads: set[str] = set()
        writes: set[str] = set()
        exact_r: set[str] = set()
        exact_w: set[str] = set()
        not_read: set[int] = set()
        for node in walk(stmt):
            if node.type in ASSIGN:
                target = node.child_by_field_name("left")
                if target is None:
                    return None
                roots = self.lvalue_roots(target)
                if roots is None:
                    return None
                writes |= roots
                exact_w.add(re.sub(r"\s+", "", self.text(target)))
                op = self.op_token(node, COMPOUND | {"="})
                if op is not None and op.type == "=":
                    if target.type == "identifier":
                        not_read.add(target.id)
                    elif target.type in MEMBER | SUBSCRIPT:
                        root = target
                        while root.type in MEMBER | SUBSCRIPT and self.named(root):
                            root = self.named(root)[0]
                        not_read.add(root.id)
                        not_read.add(target.id)
            elif node.type in UPDATE and self.op_token(node, {"++", "--"}) is not None:
                kids = self.named(node)
                roots = self.lvalue_roots(kids[0]) if kids else None
                if roots is None:
                    return None
                writes |= roots
                exact_w.add(re.sub(r"\s+", "", self.text(kids[0])))
            elif node.type in ("variable_declarator", "init_declarator") or (
                node.type == "identifier" and node.parent is not None
                and node.parent.type == "declaration"
            ):
                name_node = (
                    node if node.type == "identifier"
                    else node.child_by_field_name("name")
                    or node.child_by_field_name("declarator")
                )
                while name_node is not None and name_node.type != "identifier":
                    name_node = name_node.child_by_field_name("declarator")
                if name_node is None:
                    return None
                writes.add(self.text(name_node))
                exact_w.add(self.text(name_node))
                not_read.add(name_node.id)
        for node in walk(stmt):
            if node.id in not_read:
                continue
            if self.is_var(node):
                reads.add(self.text(node))
                exact_r.add(self.text(node))
            elif node.type in ("this", "self"):
                reads.add("this")
            elif node.type in MEMBER | SUBSCRIPT and node.type != "method_invocation":
                exact_r.add(re.sub(r"\s+", "", self.text(node)))
        return reads, writes, exact_r, exact_w

    def simple(self, stmt: Node) -> bool:
        """An expression statement or a local declaration (no control flow)."""
        if stmt.type == "expression_statement":
            kids = self.named(stmt)
            return bool(kids) and kids[0].type not in STRINGS
        return stmt.type in DECL_STMTS

    def fresh(self, names: tuple[str, ...], rng: random.Random) -> str:
        free = [n for n in names if n not in self.words]
        if free:
            return rng.choice(free)
        k = 1
        while f"v{k}" in self.words:
            k += 1
        return f"v{k}"

    def finish(self, edits: list[Edit]) -> str | None:
        """Apply ``edits`` to the code; None unless the result parses and differs."""
        out = self.code
        last = len(out) + 1
        for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
            if end > last:
                return None  # overlapping edits
            out = out[:start] + text + out[end:]
            last = start
        if normalize_whitespace(out) == normalize_whitespace(self.code):
            return None
        if not graphs.parse(out, self.lang).ok:
            return None
        return out


def load(code: str, language: str) -> Code | None:
    """``code`` parsed as a :class:`Code`, or None when it does not parse cleanly."""
    parsed = Code(code, language)
    return parsed if parsed.ok else None


def pick(rng: random.Random, sites: list) -> object | None:
    """One of ``sites``, chosen by ``rng`` (None when there is none)."""
    return rng.choice(sites) if sites else None


def paren(code: Code, node: Node) -> str:
    """``node``'s text, parenthesized unless it is atomic."""
    text = code.text(node)
    return text if node.type in ATOMIC else f"({text})"


def side_effect_free(code: Code, node: Node) -> bool:
    """Whether ``node`` holds no call, increment or assignment."""
    return not code.has(node, CALLS | UPDATE | ASSIGN)


def apply_each(code: Code, rng: random.Random, sites: list[list[Edit]]) -> str | None:
    """Try the sites in a random order; the first whose result is valid wins."""
    order = list(range(len(sites)))
    rng.shuffle(order)
    for i in order:
        out = code.finish(sites[i])
        if out is not None:
            return out
    return None


# ---------------------------------------------------------------------------------------
# site helpers shared by variants and mutants


def adjacent_pairs(c: Code) -> list[tuple[Node, Node]]:
    """Every two statements next to each other in a block (or at the top level)."""
    pairs = []
    groups = [c.named(block) for block in c.of_type(BLOCKS)]
    groups.append([n for n in c.parsed.nodes if "comment" not in n.type])
    for stmts in groups:
        for s1, s2 in zip(stmts, stmts[1:], strict=False):
            pairs.append((s1, s2))
    return pairs


def swap(c: Code, s1: Node, s2: Node) -> list[Edit]:
    """The edits that exchange the texts of ``s1`` and ``s2``."""
    a, b = c.span(s1), c.span(s2)
    return [(a[0], a[1], c.text(s2)), (b[0], b[1], c.text(s1))]


def return_type(c: Code, node: Node) -> str | None:
    """Declared return type of the function around ``node`` (None when unknown)."""
    func = c.enclosing(node, FUNCTIONS)
    if func is None:
        return None
    if c.lang == "java" and func.type == "method_declaration":
        kind = func.child_by_field_name("type")
        return c.text(kind) if kind is not None else None
    if c.lang == "csharp" and func.type in ("method_declaration", "local_function_statement"):
        kind = func.child_by_field_name("returns") or func.child_by_field_name("type")
        return c.text(kind) if kind is not None else None
    if c.lang in ("c", "cpp") and func.type == "function_definition":
        kind = func.child_by_field_name("type")
        declarator = func.child_by_field_name("declarator")
        if kind is None or declarator is None:
            return None
        marks = ""
        while declarator is not None and declarator.type in (
            "pointer_declarator", "reference_declarator"
        ):
            marks += "*" if declarator.type == "pointer_declarator" else "&"
            declarator = declarator.child_by_field_name("declarator") or (
                c.named(declarator)[-1] if c.named(declarator) else None
            )
        if declarator is None or declarator.type != "function_declarator":
            return None
        return c.text(kind) + (" " + marks if marks else "")
    return None

