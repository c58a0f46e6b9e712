"""Mutation operators on real code, for the validity benchmark (:mod:`.validity`).

Each operator takes ``(code, language, rng)`` and returns a new code string, or ``None``
when it does not apply to ``code`` (no site for it, or the result would not parse cleanly).
An operator edits the *source text* at positions found in the tree-sitter parse
(:func:`graphs.parse`, snippets welcome), so the rest of the text, comments and layout
included, is kept byte for byte. When an operator has several sites, ``rng`` picks one.

Two families (see :data:`OPERATORS`):

* **Semantics-preserving variants** (``preserving=True``): the rewrites of SPEC section 3
  (``i++`` / ``++i`` / ``i += 1`` / ``i = i + 1`` as statements, ``x op= e`` /
  ``x = x op (e)``, redundant parentheses, ``for`` to ``while``, conditional expression to
  ``if``/``else`` and back), consistent renaming of a local variable to a fresh name,
  swapping two adjacent *independent* statements (a conservative read/write-set test over
  identifiers: no call, no shared written variable or object), and extracting a temporary for
  a returned expression.
* **Semantics-changing mutants** (``preserving=False``), the classic mutation-testing
  operators: relational and arithmetic operator replacement, off-by-one integer constants,
  negated ``if``/``while`` condition, swapped then/else bodies, a deleted statement, swapped
  dependent statements or order-sensitive calls, a wrong variable, a wrong returned value.

Why the mutants change meaning (the argument for references that cannot be executed): each
operator alters a computed value or the order of effects at a site that is reached and
observable by construction. A relational or arithmetic operator is replaced by one that
gives a different result on some inputs (``x + 0`` / ``x * 1`` style sites, where
``+``/``-`` or ``*``/``/`` agree, are skipped, and so are string operands); an integer
constant is changed where it is a value (not an array size or constructor argument such as
a capacity, which are often unobservable); a condition is negated or the two differing
branches of an ``if`` are exchanged; a deleted statement is a call or an assignment whose
target is read later or escapes (a field, an element, a non-local); swapped statements
have a definite flow or anti dependence through the same variable or element, or are two
calls to an order-sensitive method (write/print/append/add/push/...) on the same receiver;
a wrong variable or returned value reads another variable of the same declared type, or a
different constant. As in mutation testing, a few mutants can still be equivalent on every
input (two variables that always hold the same value, say); :mod:`.validity` removes them
where tests can be run (HumanEval-X Python and JavaScript) and relies on this argument
elsewhere.

Every result is checked to parse cleanly, and a result equal to the input after whitespace
normalization is discarded (``None``).

>>> import random
>>> increment_style("i++;", "java", random.Random(0)) in ("++i;", "i += 1;", "i = i + 1;")
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import tree_sitter

import graphs
from graphs.languages import get_language

__all__ = [
    "Operator",
    "OPERATORS",
    "PRESERVING",
    "CHANGING",
    "normalize_whitespace",
    "increment_style",
    "compound_assignment",
    "redundant_parens",
    "for_to_while",
    "conditional_to_if",
    "rename_local",
    "swap_independent",
    "extract_temp",
    "relational_op",
    "arithmetic_op",
    "off_by_one",
    "negate_condition",
    "swap_branches",
    "delete_statement",
    "swap_dependent",
    "wrong_variable",
    "wrong_return",
]

Node = tree_sitter.Node
Edit = tuple[int, int, str]

# ---------------------------------------------------------------------------------------
# node type vocabulary (the union over the six grammars)

_BLOCKS = {
    "block",
    "compound_statement",
    "statement_block",
    "program",
    "module",
    "translation_unit",
}
_DECL_STMTS = {
    "local_variable_declaration",
    "local_declaration_statement",
    "declaration",
    "lexical_declaration",
    "variable_declaration",
}
_BINARY = {"binary_expression", "binary_operator", "comparison_operator", "boolean_operator"}
_TERNARY = {"ternary_expression", "conditional_expression"}
_ASSIGN = {
    "assignment_expression",
    "assignment",
    "augmented_assignment",
    "augmented_assignment_expression",
}
_UPDATE = {"update_expression", "postfix_unary_expression", "prefix_unary_expression"}
_CALLS = {
    "method_invocation",
    "invocation_expression",
    "call_expression",
    "call",
    "object_creation_expression",
    "new_expression",
    "await_expression",
    "yield",
    "yield_expression",
    "explicit_constructor_invocation",
    "delete_expression",
}
_FUNCTIONS = {
    "method_declaration",
    "constructor_declaration",
    "function_definition",
    "function_declaration",
    "arrow_function",
    "lambda_expression",
    "lambda",
    "local_function_statement",
    "function_expression",
    "function",
    "method_definition",
    "generator_function_declaration",
    "anonymous_method_expression",
}
_STRINGS = {
    "string_literal",
    "string",
    "template_string",
    "character_literal",
    "char_literal",
    "verbatim_string_literal",
    "raw_string_literal",
    "interpolated_string_expression",
    "concatenated_string",
    "text_block",
}
_INT_LITERALS = {
    "decimal_integer_literal",
    "integer_literal",
    "number_literal",
    "integer",
    "number",
}
_LITERALS = _INT_LITERALS | _STRINGS | {
    "true",
    "false",
    "null_literal",
    "null",
    "none",
    "boolean_literal",
    "decimal_floating_point_literal",
    "real_literal",
    "float",
    "nullptr",
}
_MEMBER = {
    "field_access",
    "member_access_expression",
    "attribute",
    "member_expression",
    "field_expression",
    "method_invocation",
}
_SUBSCRIPT = {"array_access", "element_access_expression", "subscript", "subscript_expression"}
_ATOMIC = _LITERALS | _CALLS | _MEMBER | _SUBSCRIPT | {"identifier", "parenthesized_expression"}
_NEVER_VAR_PARENTS = {
    "scoped_identifier",
    "qualified_name",
    "dotted_name",
    "import_statement",
    "import_from_statement",
    "aliased_import",
    "labeled_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
    "using_directive",
    "namespace_declaration",
    "name_colon",
    "generic_name",
    "generic_type",
    "type_arguments",
    "type_argument_list",
    "type_parameter",
    "type_parameters",
    "array_type",
    "nullable_type",
    "pointer_type",
    "type",
    "template_argument_list",
    "template_type",
    "catch_type",
    "qualified_identifier",
    "annotation",
    "marker_annotation",
    "decorator",
    "global_statement",
    "nonlocal_statement",
    "method_reference",  # Integer::sum names a method, whatever the locals are called
}
_NAMED_DEFS = {
    "method_declaration",
    "constructor_declaration",
    "class_declaration",
    "interface_declaration",
    "function_declaration",
    "function_definition",
    "local_function_statement",
    "enum_declaration",
    "struct_declaration",
    "record_declaration",
    "class_definition",
    "class",
    "function_expression",
    "generator_function_declaration",
    "method_definition",
    "namespace_definition",
}
_LOOPS = {
    "for_statement",
    "while_statement",
    "do_statement",
    "enhanced_for_statement",
    "foreach_statement",
    "for_range_loop",
    "for_in_statement",
}
_RELATIONAL = {
    "<": "<=",
    "<=": "<",
    ">": ">=",
    ">=": ">",
    "==": "!=",
    "!=": "==",
    "===": "!==",
    "!==": "===",
}
_ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*"}
_COMPOUND = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "//=", "**="}
_ORDERED_CALL = re.compile(
    r"(write|print|append|push|add|insert|log|extend|enqueue|emplace|puts|fprintf|offer)",
    re.IGNORECASE,
)
_UNKNOWN_TYPES = {"var", "auto", "let", "const", "dynamic", "val"}
_NUMERIC_TYPES = {
    "int",
    "long",
    "short",
    "byte",
    "double",
    "float",
    "uint",
    "ulong",
    "ushort",
    "sbyte",
    "decimal",
    "size_t",
    "unsigned",
    "unsigned int",
    "long long",
    "Integer",
    "Long",
    "Double",
}
_NARROW_TYPES = {"byte", "short", "char", "sbyte", "ushort"}
_FRESH_NAMES = ("value", "temp", "acc", "cur", "elem", "item", "aux", "res", "val2", "tmp1")
_TEMP_NAMES = ("tmp", "result", "ret", "res", "out", "answer", "value", "tmp2")
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def normalize_whitespace(code: str) -> str:
    """``code`` with every whitespace run replaced by one space, stripped (for equality)."""
    return " ".join(code.split())


# ---------------------------------------------------------------------------------------
# a parsed snippet with the helpers the operators share


@dataclass
class _Decl:
    """A declared local variable or parameter."""

    name: str
    ident: Node
    type: str | None  # declared type text (None: untyped language or unknown)
    param: bool
    stmt: Node  # the declaring statement (or parameter)
    scope: Node  # the block (or function, for parameters) it is visible in


class _Code:
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
        self._decls: list[_Decl] | None = None

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
    def descendants(node: Node) -> Iterator[Node]:
        stack = [node]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children))

    @staticmethod
    def named(node: Node) -> list[Node]:
        return [c for c in node.named_children if "comment" not in c.type]

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
        return any(n.type in types for n in self.descendants(node))

    def in_block(self, stmt: Node) -> bool:
        parent = stmt.parent
        return parent is not None and parent.type in _BLOCKS

    def statements(self) -> list[Node]:
        """Statements directly inside a block, not comments."""
        return [
            n
            for n in self.nodes
            if n.is_named and n.parent is not None and n.parent.type in _BLOCKS
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
        if ptype in _NEVER_VAR_PARENTS or field in ("type", "returns"):
            return False
        if ptype in _MEMBER and field in ("name", "field", "attribute", "property"):
            return False
        if ptype == "keyword_argument" and field == "name":
            return False
        if ptype in ("call", "call_expression", "invocation_expression") and field == "function":
            return False
        if ptype in _NAMED_DEFS and field in ("name", "declarator"):
            return False
        if ptype == "function_declarator" and field == "declarator":
            return False
        return not (ptype == "attribute" and field is None and not self.python)

    def var_nodes(self, node: Node | None = None) -> list[Node]:
        nodes = self.nodes if node is None else list(self.descendants(node))
        return [n for n in nodes if self.is_var(n)]

    def decls(self) -> list[_Decl]:
        if self._decls is None:
            self._decls = self._find_decls()
        return self._decls

    def _find_decls(self) -> list[_Decl]:
        out: list[_Decl] = []
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
            func = self.enclosing(stmt, _FUNCTIONS)
            return func if func is not None else stmt
        parent = stmt.parent
        while parent is not None and parent.type not in _BLOCKS | _LOOPS | _FUNCTIONS:
            parent = parent.parent
        return parent if parent is not None else stmt

    def _decl_of(self, ident: Node) -> _Decl | None:
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
                if value is not None and value.type in _FUNCTIONS:
                    return None
                if stmt is None or stmt.parent is None or stmt.parent.type == "program":
                    return None
                return _Decl(name, ident, None, False, stmt, self._scope_of(stmt, False))
            if ptype == "formal_parameters" or (
                ptype == "assignment_pattern" and parent.parent is not None
                and parent.parent.type == "formal_parameters" and field == "left"
            ) or (ptype == "arrow_function" and field == "parameter"):
                return _Decl(name, ident, None, True, ident, self._scope_of(ident, True))
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
                return _Decl(name, ident, type_text, False, stmt, self._scope_of(stmt, False))
            if ptype in ("formal_parameter", "parameter") and field == "name":
                type_node = parent.child_by_field_name("type")
                type_text = self.text(type_node) if type_node is not None else None
                return _Decl(name, ident, type_text, True, parent, self._scope_of(parent, True))
            if ptype in ("enhanced_for_statement", "foreach_statement") and field in (
                "name", "left"
            ):
                type_node = parent.child_by_field_name("type")
                type_text = self.text(type_node) if type_node is not None else None
                return _Decl(name, ident, type_text, False, parent, parent)
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
            return _Decl(name, ident, type_text, True, holder, self._scope_of(holder, True))
        if holder.type == "declaration":
            if holder.parent is None or holder.parent.type == "translation_unit":
                return None
            if self.enclosing(holder, _FUNCTIONS) is None:
                return None
            return _Decl(name, ident, type_text, False, holder, self._scope_of(holder, False))
        if holder.type == "for_range_loop":
            return _Decl(name, ident, type_text, False, holder, holder)
        return None

    def _python_decl(self, ident: Node, name: str, parent: Node, field: str | None
                     ) -> _Decl | None:
        ptype = parent.type
        if ptype == "parameters" or (
            ptype in ("default_parameter", "typed_default_parameter") and field == "name"
        ) or (ptype == "typed_parameter" and field is None):
            holder = parent if ptype != "parameters" else ident
            return _Decl(name, ident, None, True, holder, self._scope_of(holder, True))
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
            return _Decl(name, ident, None, False, stmt, func if func is not None else stmt)
        return None

    def first_decls(self) -> dict[str, _Decl]:
        """Each declared name's first declaration."""
        out: dict[str, _Decl] = {}
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
        if target.type in _MEMBER | _SUBSCRIPT | {"parenthesized_expression",
                                                   "pointer_expression"}:
            kids = self.named(target)
            if not kids or self.has(target, _CALLS):
                return None
            return self.lvalue_roots(kids[0])
        return None

    def effects(self, stmt: Node) -> bool:
        return self.has(stmt, _CALLS | _FUNCTIONS | {"throw_statement", "raise_statement"})

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
        for node in self.descendants(stmt):
            if node.type in _ASSIGN:
                target = node.child_by_field_name("left")
                if target is None:
                    return None
                roots = self.lvalue_roots(target)
                if roots is None:
                    return None
                writes |= roots
                exact_w.add(re.sub(r"\s+", "", self.text(target)))
                op = self.op_token(node, _COMPOUND | {"="})
                if op is not None and op.type == "=":
                    if target.type == "identifier":
                        not_read.add(target.id)
                    elif target.type in _MEMBER | _SUBSCRIPT:
                        root = target
                        while root.type in _MEMBER | _SUBSCRIPT and self.named(root):
                            root = self.named(root)[0]
                        not_read.add(root.id)
                        not_read.add(target.id)
            elif node.type in _UPDATE and self.op_token(node, {"++", "--"}) is not None:
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
        for node in self.descendants(stmt):
            if node.id in not_read:
                continue
            if self.is_var(node):
                reads.add(self.text(node))
                exact_r.add(self.text(node))
            elif node.type in ("this", "self"):
                reads.add("this")
            elif node.type in _MEMBER | _SUBSCRIPT and node.type != "method_invocation":
                exact_r.add(re.sub(r"\s+", "", self.text(node)))
        return reads, writes, exact_r, exact_w

    def simple(self, stmt: Node) -> bool:
        """An expression statement or a local declaration (no control flow)."""
        if stmt.type == "expression_statement":
            kids = self.named(stmt)
            return bool(kids) and kids[0].type not in _STRINGS
        return stmt.type in _DECL_STMTS

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


def _load(code: str, language: str) -> _Code | None:
    parsed = _Code(code, language)
    return parsed if parsed.ok else None


def _pick(rng: random.Random, sites: list) -> object | None:
    return rng.choice(sites) if sites else None


def _paren(code: _Code, node: Node) -> str:
    """``node``'s text, parenthesized unless it is atomic."""
    text = code.text(node)
    return text if node.type in _ATOMIC else f"({text})"


def _side_effect_free(code: _Code, node: Node) -> bool:
    return not code.has(node, _CALLS | _UPDATE | _ASSIGN)


def _apply_each(code: _Code, rng: random.Random, sites: list[list[Edit]]) -> str | None:
    """Try the sites in a random order; the first whose result is valid wins."""
    order = list(range(len(sites)))
    rng.shuffle(order)
    for i in order:
        out = code.finish(sites[i])
        if out is not None:
            return out
    return None


# ---------------------------------------------------------------------------------------
# semantics-preserving variants


def _increment_form(code: _Code, stmt: Node) -> tuple[str, Node, str] | None:
    """(form, target, '+' or '-') of a statement ``i++ / ++i / i += 1 / i = i + 1``."""
    kids = code.named(stmt)
    if len(kids) != 1:
        return None
    expr = kids[0]
    if expr.type in _UPDATE:
        op = code.op_token(expr, {"++", "--"})
        inner = code.named(expr)
        if op is None or len(inner) != 1:
            return None
        form = "pre" if op.start_byte < inner[0].start_byte else "post"
        return form, inner[0], op.type[0]
    if expr.type in _ASSIGN:
        target = expr.child_by_field_name("left")
        right = expr.child_by_field_name("right")
        if target is None or right is None:
            return None
        op = code.op_token(expr, {"+=", "-=", "="})
        if op is None:
            return None
        if op.type in ("+=", "-=") and code.text(right) == "1":
            return "compound", target, op.type[0]
        if op.type == "=" and right.type in _BINARY:
            left, rop = right.child_by_field_name("left"), code.op_token(right, {"+", "-"})
            r_right = right.child_by_field_name("right")
            if left is not None and rop is not None and r_right is not None and (
                code.text(left) == code.text(target) and code.text(r_right) == "1"
            ):
                return "full", target, rop.type
    return None


def increment_style(code: str, language: str, rng: random.Random) -> str | None:
    """Rewrite one ``i++`` / ``++i`` / ``i += 1`` / ``i = i + 1`` statement in another form.

    Python has only the last two. The target must be free of calls and updates; the
    ``i = i + 1`` form is not produced for a local declared ``byte``/``short``/``char``.

    >>> increment_style("x += 1", "python", random.Random(0))
    'x = x + 1'
    """
    c = _load(code, language)
    if c is None:
        return None
    decls = c.first_decls()
    sites: list[list[Edit]] = []
    for stmt in c.of_type("expression_statement"):
        found = _increment_form(c, stmt)
        if found is None:
            continue
        form, target, sign = found
        if not _side_effect_free(c, target):
            continue
        t = c.text(target)
        forms = ["compound", "full"] if c.python else ["post", "pre", "compound", "full"]
        d = decls.get(t)
        if d is not None and d.type in _NARROW_TYPES:
            forms.remove("full")
        render = {
            "post": f"{t}{sign}{sign}",
            "pre": f"{sign}{sign}{t}",
            "compound": f"{t} {sign}= 1",
            "full": f"{t} = {t} {sign} 1",
        }
        expr = c.named(stmt)[0]
        start, end = c.span(expr)
        for other in forms:
            if other != form:
                sites.append([(start, end, render[other])])
    return _apply_each(c, rng, sites)


def compound_assignment(code: str, language: str, rng: random.Random) -> str | None:
    """Rewrite ``x op= e`` as ``x = x op (e)`` (no parentheses for an atomic ``e``), or back.

    >>> compound_assignment("x *= a + b", "python", random.Random(0))
    'x = x * (a + b)'
    >>> compound_assignment("x = x * (a + b);", "java", random.Random(0))
    'x *= a + b;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type(_ASSIGN):
        target = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if target is None or right is None or not _side_effect_free(c, target):
            continue
        t = c.text(target)
        op = c.op_token(node, _COMPOUND | {"="})
        if op is None:
            continue
        start, end = c.span(node)
        if op.type in _COMPOUND:
            sites.append([(start, end, f"{t} = {t} {op.type[:-1]} {_paren(c, right)}")])
        elif right.type in ("binary_expression", "binary_operator"):
            left, r_right = right.child_by_field_name("left"), right.child_by_field_name("right")
            rop = c.op_token(right, {o[:-1] for o in _COMPOUND})
            if left is None or r_right is None or rop is None or c.text(left) != t:
                continue
            if rop.type + "=" not in _COMPOUND:
                continue
            inner = c.named(r_right)
            e = (
                c.text(inner[0])
                if r_right.type == "parenthesized_expression" and len(inner) == 1
                else c.text(r_right)
            )
            sites.append([(start, end, f"{t} {rop.type}= {e}")])
    return _apply_each(c, rng, sites)


def redundant_parens(code: str, language: str, rng: random.Random) -> str | None:
    """Put redundant parentheses around one binary expression.

    >>> redundant_parens("return a + b;", "java", random.Random(0))
    'return (a + b);'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type(_BINARY):
        parent = node.parent
        if parent is not None and parent.type in ("parenthesized_expression", "condition_clause"):
            continue
        if c.field.get(node.id) == "condition" and not c.python and c.lang != "csharp":
            continue
        start, end = c.span(node)
        sites.append([(start, start, "("), (end, end, ")")])
    return _apply_each(c, rng, sites)


def _split_top(text: str, sep: str) -> list[str]:
    """Split on ``sep`` outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, "", []
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\" and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
            cur.append(ch)
        elif ch in "([{":
            depth += 1
            cur.append(ch)
        elif ch in ")]}":
            depth -= 1
            cur.append(ch)
        elif ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


def for_to_while(code: str, language: str, rng: random.Random) -> str | None:
    """Rewrite a classic ``for (init; cond; update) body`` as ``init; while (cond) {body update}``.

    Only when the body has no ``continue`` (which would skip the moved update), the names the
    ``init`` declares are declared nowhere else in the snippet, and the loop is not labelled.
    A loop that is not directly in a block is wrapped in braces.

    >>> for_to_while("for (int i = 0; i < n; i++) { s += i; }", "java", random.Random(0))
    'int i = 0; while (i < n) { s += i; i++; }'
    """
    c = _load(code, language)
    if c is None or c.python:
        return None
    decl_names = [d.name for d in c.decls()]
    sites: list[list[Edit]] = []
    for loop in c.of_type("for_statement"):
        body = loop.child_by_field_name("body")
        parent = loop.parent
        if body is None or parent is None or parent.type == "labeled_statement":
            continue
        if c.has(body, {"continue_statement"}):
            continue
        opens = [ch for ch in loop.children if ch.type == "("]
        closes = [ch for ch in loop.children if ch.type == ")" and ch.end_byte <= body.start_byte]
        if not opens or not closes:
            continue
        h_start = c.span(opens[0])[1]
        h_end = c.span(closes[-1])[0]
        parts = _split_top(c.code[h_start:h_end], ";")
        if len(parts) != 3:
            continue
        init, cond, update = (p.strip() for p in parts)
        declares = any(
            ch.type in _DECL_STMTS and c.field.get(ch.id) in ("init", "initializer")
            for ch in loop.children
        )
        if declares:
            mine = [d.name for d in c.decls() if d.stmt.parent is not None
                    and (d.stmt.parent.id == loop.id or d.stmt.id == loop.id)
                    and c.span(d.ident)[0] < h_end]
            if any(decl_names.count(n) > 1 for n in mine):
                continue
            init_stmts = [init if init.endswith(";") else init + ";"]
        else:
            init_stmts = [p.strip() + ";" for p in _split_top(init, ",") if p.strip()]
        if not cond:
            cond = "1" if c.lang == "c" else "true"
        updates = [u.strip() + ";" for u in _split_top(update, ",") if u.strip()]
        l_start, l_end = c.span(loop)
        indent = c.line_indent(l_start)
        sep = "\n" + indent if indent is not None else " "
        if body.type in _BLOCKS:
            b_start, b_end = c.span(body)
            stmts = c.named(body)
            b_text = c.code[b_start:b_end]
            inner = b_text[1:-1].rstrip()
            if stmts and indent is not None:
                s_indent = c.line_indent(c.span(stmts[-1])[0])
                joiner = "\n" + s_indent if s_indent is not None else " "
            else:
                joiner = " "
            tail = b_text[1:-1][len(inner):]
            new_body = "{" + inner + "".join(joiner + u for u in updates)
            new_body += tail if "\n" in tail else " "
            new_body += "}"
        else:
            new_body = "{ " + c.text(body) + " " + " ".join(updates) + " }"
        text = sep.join(init_stmts + [f"while ({cond}) {new_body}"])
        if parent.type not in _BLOCKS and init_stmts:
            text = "{ " + text + " }"
        sites.append([(l_start, l_end, text)])
    return _apply_each(c, rng, sites)


def _strip_parens(c: _Code, node: Node) -> Node:
    while node.type in ("parenthesized_expression", "condition_clause"):
        kids = c.named(node)
        if len(kids) != 1:
            break
        node = kids[0]
    return node


def _ternary_parts(c: _Code, node: Node) -> tuple[Node, Node, Node] | None:
    """(condition, then value, else value) of a conditional expression."""
    if c.python:
        kids = c.named(node)
        return (kids[1], kids[0], kids[2]) if len(kids) == 3 else None
    cond = node.child_by_field_name("condition")
    then = node.child_by_field_name("consequence")
    other = node.child_by_field_name("alternative")
    if cond is None or then is None or other is None:
        return None
    return cond, then, other


def _operand(c: _Code, node: Node) -> str:
    text = c.text(node)
    low = _TERNARY | _ASSIGN | {"lambda", "lambda_expression", "arrow_function",
                                "named_expression", "sequence_expression", "yield"}
    return f"({text})" if node.type in low else text


def _single_statement(c: _Code, node: Node) -> Node | None:
    if node.type == "else_clause":
        kids = c.named(node)
        body = node.child_by_field_name("body") or (kids[0] if len(kids) == 1 else None)
        if body is None:
            return None
        node = body
    if node.type in _BLOCKS:
        kids = c.named(node)
        return kids[0] if len(kids) == 1 else None
    return node


def conditional_to_if(code: str, language: str, rng: random.Random) -> str | None:
    """``r = c ? a : b;`` (and ``return c ? a : b;``) to ``if (c) r = a; else r = b;``, or back.

    Python: ``r = a if c else b`` to an ``if c: / else:`` statement on indented lines, or back.
    Declarations (``T r = c ? a : b;``) split into ``T r;`` and the ``if`` where the type is
    explicit (not ``var``/``auto``/``const``).

    >>> conditional_to_if("r = c ? a : b;", "java", random.Random(0))
    'if (c) r = a; else r = b;'
    >>> conditional_to_if("if (c) { return a; } else { return b; }", "java", random.Random(0))
    'return c ? a : b;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type(_TERNARY):
        parts = _ternary_parts(c, node)
        if parts is None:
            continue
        cond, then, other = parts
        holder = node.parent
        if holder is None:
            continue
        stmt: Node | None = None
        lead: str | None = None  # text before the assigned value ('r = ' or 'return ')
        prefix = ""
        if holder.type in _ASSIGN and c.field.get(node.id) == "right":
            op = c.op_token(holder, {"="})
            stmt = holder.parent
            target = holder.child_by_field_name("left")
            if op is None or target is None or stmt is None:
                continue
            if stmt.type != "expression_statement":
                continue
            lead = f"{c.text(target)} = "
        elif holder.type == "return_statement":
            stmt, lead = holder, "return "
        elif holder.type in ("variable_declarator", "init_declarator") and not c.python:
            decl = holder.parent
            stmt = decl.parent if decl is not None and decl.type == "variable_declaration" else decl
            name = holder.child_by_field_name("name") or holder.child_by_field_name("declarator")
            if stmt is None or decl is None or name is None or name.type != "identifier":
                continue
            if len([k for k in c.named(decl) if k.type == holder.type]) != 1:
                continue
            kind = decl.child_by_field_name("type")
            head = c.text(kind) if kind is not None else c.code[c.span(decl)[0]:c.span(name)[0]]
            head = head.strip()
            if head in _UNKNOWN_TYPES or not head or "const" in head.split():
                continue
            if stmt.type not in _DECL_STMTS:
                continue
            prefix = f"{head} {c.text(name)};"
            lead = f"{c.text(name)} = "
        else:
            continue
        if not c.in_block(stmt) and prefix:
            continue
        s_start, s_end = c.span(stmt)
        if c.python:
            indent = c.line_indent(s_start)
            if indent is None:
                continue
            step = "    " if "\t" not in indent else "\t"
            text = (
                f"if {c.text(cond)}:\n{indent}{step}{lead}{c.text(then)}\n"
                f"{indent}else:\n{indent}{step}{lead}{c.text(other)}"
            )
        else:
            core = _strip_parens(c, cond)
            then_t, other_t = c.text(then), c.text(other)
            text = f"if ({c.text(core)}) {lead}{then_t}; else {lead}{other_t};"
            if prefix:
                text = f"{prefix} {text}"
            if not c.in_block(stmt):
                text = "{ " + text + " }"
        sites.append([(s_start, s_end, text)])
    for node in c.of_type("if_statement"):
        then_node = node.child_by_field_name("consequence")
        else_node = node.child_by_field_name("alternative")
        cond = node.child_by_field_name("condition")
        if then_node is None or else_node is None or cond is None:
            continue
        if c.python and else_node.type != "else_clause":
            continue
        if any(ch.type in ("elif_clause",) for ch in node.children):
            continue
        s1, s2 = _single_statement(c, then_node), _single_statement(c, else_node)
        if s1 is None or s2 is None or s1.type != s2.type:
            continue
        core = _strip_parens(c, cond)
        if s1.type == "return_statement":
            v1, v2 = c.named(s1), c.named(s2)
            if len(v1) != 1 or len(v2) != 1:
                continue
            lead = "return "
            a, b = v1[0], v2[0]
        elif s1.type == "expression_statement":
            e1, e2 = c.named(s1), c.named(s2)
            if len(e1) != 1 or len(e2) != 1 or e1[0].type not in _ASSIGN:
                continue
            if e2[0].type not in _ASSIGN:
                continue
            t1, t2 = e1[0].child_by_field_name("left"), e2[0].child_by_field_name("left")
            if t1 is None or t2 is None or c.text(t1) != c.text(t2):
                continue
            if c.op_token(e1[0], {"="}) is None or c.op_token(e2[0], {"="}) is None:
                continue
            if not _side_effect_free(c, t1):
                continue
            lead = f"{c.text(t1)} = "
            a = e1[0].child_by_field_name("right")
            b = e2[0].child_by_field_name("right")
            if a is None or b is None:
                continue
        else:
            continue
        if c.python:
            text = f"{lead}{_operand(c, a)} if {_operand(c, core)} else {_operand(c, b)}"
        else:
            text = f"{lead}{_operand(c, core)} ? {_operand(c, a)} : {_operand(c, b)};"
        start, end = c.span(node)
        sites.append([(start, end, text)])
    return _apply_each(c, rng, sites)


def rename_local(code: str, language: str, rng: random.Random) -> str | None:
    """Rename one local variable (not a parameter) consistently to a fresh name.

    The fresh name appears nowhere in the code. A name that is also used as something else
    (a member, a callee, a keyword argument, a JavaScript shorthand property) is not renamed.

    >>> rename_local("int f(int a) { int s = a; return s; }", "java", random.Random(1))
    'int f(int a) { int tmp1 = a; return tmp1; }'
    """
    c = _load(code, language)
    if c is None:
        return None
    if c.python and ("global " in code or "nonlocal " in code):
        return None
    idents: dict[str, list[Node]] = {}
    blocked: set[str] = set()
    for node in c.nodes:
        if node.type == "identifier":
            if c.is_var(node):
                idents.setdefault(c.text(node), []).append(node)
            else:
                blocked.add(c.text(node))
        elif node.type.startswith("shorthand_property_identifier"):
            blocked.add(c.text(node))
    params = {d.name for d in c.decls() if d.param}
    names = sorted({d.name for d in c.decls() if not d.param} - params - blocked)
    name = _pick(rng, names)
    if name is None:
        return None
    new = c.fresh(_FRESH_NAMES, rng)
    edits = [(*c.span(n), new) for n in idents.get(str(name), [])]
    return c.finish(edits)


def _adjacent_pairs(c: _Code) -> list[tuple[Node, Node]]:
    pairs = []
    groups = [c.named(block) for block in c.of_type(_BLOCKS)]
    groups.append([n for n in c.parsed.nodes if "comment" not in n.type])
    for stmts in groups:
        for s1, s2 in zip(stmts, stmts[1:], strict=False):
            pairs.append((s1, s2))
    return pairs


def _swap(c: _Code, s1: Node, s2: Node) -> list[Edit]:
    a, b = c.span(s1), c.span(s2)
    return [(a[0], a[1], c.text(s2)), (b[0], b[1], c.text(s1))]


def swap_independent(code: str, language: str, rng: random.Random) -> str | None:
    """Swap two adjacent statements that do not depend on each other.

    Both must be simple statements (expression statement or declaration) without any call,
    and neither may write a variable (or the root of an object or array) the other reads or
    writes.

    >>> swap_independent("x = 1; y = 2; return x + y;", "java", random.Random(0))
    'y = 2; x = 1; return x + y;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for s1, s2 in _adjacent_pairs(c):
        if not (c.simple(s1) and c.simple(s2)) or c.effects(s1) or c.effects(s2):
            continue
        rw1, rw2 = c.rw(s1), c.rw(s2)
        if rw1 is None or rw2 is None:
            continue
        r1, w1, _, _ = rw1
        r2, w2, _, _ = rw2
        if w1 & (r2 | w2) or w2 & r1:
            continue
        if normalize_whitespace(c.text(s1)) == normalize_whitespace(c.text(s2)):
            continue
        sites.append(_swap(c, s1, s2))
    return _apply_each(c, rng, sites)


def _return_type(c: _Code, node: Node) -> str | None:
    """Declared return type of the function around ``node`` (None when unknown)."""
    func = c.enclosing(node, _FUNCTIONS)
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


def extract_temp(code: str, language: str, rng: random.Random) -> str | None:
    """``return e;`` to ``T tmp = e; return tmp;`` with a fresh name.

    ``T`` is the declared return type (Java, C), ``var`` (C#, Java lambdas), ``auto`` (C++),
    ``const`` (JavaScript); Python assigns. A return that is not directly in a block is
    wrapped in braces. Returns of a literal, a name, ``null``, a lambda or a brace list are
    left alone.

    >>> extract_temp("int f(int a) { return a * 2; }", "java", random.Random(0))
    'int f(int a) { int value = a * 2; return value; }'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    name = c.fresh(_TEMP_NAMES, rng)
    for ret in c.of_type("return_statement"):
        values = c.named(ret)
        if len(values) != 1:
            continue
        e = values[0]
        if e.type in _LITERALS | {"identifier", "initializer_list", "null_literal",
                                  "expression_list", "default_expression"}:
            continue
        if e.type in _FUNCTIONS or c.has(e, _FUNCTIONS | {"yield", "await_expression"}):
            continue
        e_text = c.text(e)
        if c.python:
            decl = f"{name} = {e_text}"
        elif c.lang == "javascript":
            decl = f"const {name} = {e_text};"
        elif c.lang == "cpp":
            decl = f"auto {name} = {e_text};"
        elif c.lang == "csharp":
            decl = f"var {name} = {e_text};"
        else:
            kind = _return_type(c, ret)
            if kind is None:
                if c.lang == "java" and c.enclosing(ret, _FUNCTIONS) is not None:
                    kind = "var"
                else:
                    continue
            if kind in ("void", "") or "static" in kind:
                continue
            decl = f"{kind} {name} = {e_text};"
        r_start, r_end = c.span(ret)
        final = f"return {name}" if c.python else f"return {name};"
        indent = c.line_indent(r_start)
        if c.python:
            text = f"{decl}\n{indent}{final}" if indent is not None else f"{decl}; {final}"
        else:
            text = f"{decl}\n{indent}{final}" if indent is not None else f"{decl} {final}"
            if not c.in_block(ret):
                if ret.parent is not None and ret.parent.type in ("switch_section",
                                                                  "switch_block_statement_group",
                                                                  "case_statement"):
                    continue
                text = "{ " + text + " }"
        sites.append([(r_start, r_end, text)])
    return _apply_each(c, rng, sites)


# ---------------------------------------------------------------------------------------
# semantics-changing mutants


def relational_op(code: str, language: str, rng: random.Random) -> str | None:
    """Replace one relational operator: ``<`` / ``<=``, ``>`` / ``>=``, ``==`` / ``!=``.

    >>> relational_op("if (a < b) x = 1;", "java", random.Random(0))
    'if (a <= b) x = 1;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type({"binary_expression", "comparison_operator"}):
        for child in node.children:
            if not child.is_named and child.type in _RELATIONAL:
                start, end = c.span(child)
                sites.append([(start, end, _RELATIONAL[child.type])])
    return _apply_each(c, rng, sites)


def arithmetic_op(code: str, language: str, rng: random.Random) -> str | None:
    """Replace one arithmetic operator: ``+`` / ``-``, ``*`` / ``/``.

    Skips string operands (concatenation) and ``x + 0``, ``x - 0``, ``x * 1``, ``x / 1``
    where the replacement would agree.

    >>> arithmetic_op("return a * b;", "java", random.Random(0))
    'return a / b;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type({"binary_expression", "binary_operator"}):
        op = c.op_token(node, _ARITHMETIC)
        right = node.child_by_field_name("right")
        left = node.child_by_field_name("left")
        if op is None or right is None or left is None:
            continue
        if c.has(node, _STRINGS):
            continue
        neutral = "0" if op.type in "+-" else "1"
        if c.text(right).strip() == neutral:
            continue
        start, end = c.span(op)
        sites.append([(start, end, _ARITHMETIC[op.type])])
    return _apply_each(c, rng, sites)


def off_by_one(code: str, language: str, rng: random.Random) -> str | None:
    """Add one to a decimal integer constant that is a value.

    Skips constants in array sizes, constructor arguments (capacities), annotations,
    attributes, ``case`` labels' neighbours are kept (a label is a value), and preprocessor
    lines.

    >>> off_by_one("return n - 1;", "java", random.Random(0))
    'return n - 2;'
    """
    c = _load(code, language)
    if c is None:
        return None
    skip = {"array_creation_expression", "object_creation_expression", "new_expression",
            "array_declarator", "annotation", "attribute_list", "attribute", "dimensions_expr",
            "array_rank_specifier", "preproc_def", "preproc_include", "preproc_if",
            "marker_annotation", "decorator"}
    sites: list[list[Edit]] = []
    for node in c.of_type(_INT_LITERALS):
        text = c.text(node)
        match = re.fullmatch(r"(\d+)([lL]?)", text)
        if match is None or (len(match.group(1)) > 1 and text.startswith("0")):
            continue
        if c.enclosing(node, skip) is not None and not (
            c.python and c.enclosing(node, skip).type == "attribute"
        ):
            continue
        start, end = c.span(node)
        sites.append([(start, end, f"{int(match.group(1)) + 1}{match.group(2)}")])
    return _apply_each(c, rng, sites)


def negate_condition(code: str, language: str, rng: random.Random) -> str | None:
    """Negate the condition of one ``if`` or ``while``: ``c`` to ``!(c)`` (Python ``not (c)``).

    >>> negate_condition("if (a < b) x = 1;", "java", random.Random(0))
    'if (!(a < b)) x = 1;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type({"if_statement", "while_statement", "elif_clause"}):
        cond = node.child_by_field_name("condition")
        if cond is None:
            continue
        core = _strip_parens(c, cond)
        if core.type.endswith("declaration") or core.type in ("condition_clause",):
            continue
        start, end = c.span(core)
        text = f"not ({c.text(core)})" if c.python else f"!({c.text(core)})"
        sites.append([(start, end, text)])
    return _apply_each(c, rng, sites)


def swap_branches(code: str, language: str, rng: random.Random) -> str | None:
    """Swap the then and else blocks of an ``if`` whose two blocks differ.

    Both branches must be blocks (not an ``else if`` chain).

    >>> swap_branches("if (c) { x = 1; } else { x = 2; }", "java", random.Random(0))
    'if (c) { x = 2; } else { x = 1; }'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type("if_statement"):
        if any(ch.type == "elif_clause" for ch in node.children):
            continue
        then_node = node.child_by_field_name("consequence")
        else_node = node.child_by_field_name("alternative")
        if then_node is None or else_node is None:
            continue
        if else_node.type == "else_clause":
            body = else_node.child_by_field_name("body")
            kids = c.named(else_node)
            else_node = body if body is not None else (kids[0] if len(kids) == 1 else None)
            if else_node is None:
                continue
        if then_node.type not in _BLOCKS or else_node.type not in _BLOCKS:
            continue
        t1, t2 = c.text(then_node), c.text(else_node)
        if normalize_whitespace(t1) == normalize_whitespace(t2):
            continue
        sites.append(_swap(c, then_node, else_node))
    return _apply_each(c, rng, sites)


def _escapes_or_read_later(c: _Code, stmt: Node) -> bool:
    """Does deleting ``stmt`` (an expression statement) visibly change something?"""
    if c.effects(stmt):
        return True
    rw = c.rw(stmt)
    if rw is None:
        return True
    _, writes, _, exact_w = rw
    if not writes:
        return False
    locals_ = {d.name for d in c.decls()}
    end = c.span(stmt)[1]
    in_loop = c.enclosing(stmt, _LOOPS) is not None
    for w in writes:
        if w not in locals_ or any("." in e or "[" in e or "->" in e for e in exact_w):
            return True  # a field, an element, a non-local: the write escapes
        for node in c.var_nodes():
            if c.text(node) != w or c.is_ancestor(stmt, node):
                continue
            if c.span(node)[0] >= end or in_loop:
                return True
    return False


def delete_statement(code: str, language: str, rng: random.Random) -> str | None:
    """Delete one expression statement whose effect is observable.

    The statement must contain a call, or write a variable read later (or anywhere in the
    same loop), a field or an element. Declarations, docstrings and jumps are never
    deleted; the only statement of a Python block becomes ``pass``.

    >>> delete_statement("int f(int a) { int x = a; x++; return x; }", "java", random.Random(0))
    'int f(int a) { int x = a; return x; }'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for stmt in c.statements():
        if stmt.type != "expression_statement" or not c.simple(stmt):
            continue
        if not _escapes_or_read_later(c, stmt):
            continue
        start, end = c.span(stmt)
        block = stmt.parent
        if c.python and block is not None and len(c.named(block)) == 1:
            sites.append([(start, end, "pass")])
            continue
        line_start = c.code.rfind("\n", 0, start) + 1
        line_end = c.code.find("\n", end)
        line_end = len(c.code) if line_end < 0 else line_end
        if c.code[line_start:start].strip() == "" and c.code[end:line_end].strip() == "" and (
            line_end < len(c.code)
        ):
            sites.append([(line_start, line_end + 1, "")])
        else:
            after = end
            while after < len(c.code) and c.code[after] in " \t":
                after += 1
            sites.append([(start, after, "")])
    return _apply_each(c, rng, sites)


def _call_receiver(c: _Code, stmt: Node) -> tuple[str, str] | None:
    """(receiver text, method name) of a statement that is one call, else None."""
    kids = c.named(stmt)
    if len(kids) != 1:
        return None
    call = kids[0]
    if call.type == "await_expression" and c.named(call):
        call = c.named(call)[0]
    if call.type == "method_invocation":
        obj = call.child_by_field_name("object")
        name = call.child_by_field_name("name")
        if name is None:
            return None
        return (c.text(obj) if obj is not None else ""), c.text(name)
    if call.type in ("call", "call_expression", "invocation_expression"):
        func = call.child_by_field_name("function")
        if func is None:
            return None
        if func.type in _MEMBER:
            kids = c.named(func)
            if len(kids) < 2:
                return None
            return c.text(kids[0]), c.text(kids[-1])
        if func.type == "identifier":
            return "", c.text(func)
    return None


def swap_dependent(code: str, language: str, rng: random.Random) -> str | None:
    """Swap two adjacent statements with a definite dependence, or two ordered calls.

    Dependent: one writes a variable (or the exact element/member) the other reads. Calls:
    two statements each one call to an order-sensitive method (``write``, ``print``,
    ``append``, ``add``, ``push``, ``insert``, ``log``, ...) on the same receiver (or the
    same free function), e.g. two ``sb.append(..)`` or two ``print(..)``.

    >>> swap_dependent("x = a; y = x; return y;", "java", random.Random(0))
    'y = x; x = a; return y;'
    """
    c = _load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for s1, s2 in _adjacent_pairs(c):
        if not (c.simple(s1) and c.simple(s2)):
            continue
        if normalize_whitespace(c.text(s1)) == normalize_whitespace(c.text(s2)):
            continue
        call1, call2 = _call_receiver(c, s1), _call_receiver(c, s2)
        if call1 is not None and call2 is not None and call1[0] == call2[0] and (
            _ORDERED_CALL.match(call1[1]) and _ORDERED_CALL.match(call2[1])
        ) and (call1[0] or call1[1] == call2[1]):
            sites.append(_swap(c, s1, s2))
            continue
        rw1, rw2 = c.rw(s1), c.rw(s2)
        if rw1 is None or rw2 is None:
            continue
        _, _, er1, ew1 = rw1
        _, _, er2, ew2 = rw2
        if ew1 & er2 or ew2 & er1:
            sites.append(_swap(c, s1, s2))
    return _apply_each(c, rng, sites)


def _same_kind(c: _Code, d: _Decl, other: _Decl) -> bool:
    if other.name == d.name:
        return False
    if c.python or c.lang == "javascript":
        return True
    if d.type is None or other.type is None:
        return False
    if d.type in _UNKNOWN_TYPES or other.type in _UNKNOWN_TYPES:
        return False
    return normalize_whitespace(d.type) == normalize_whitespace(other.type)


def _visible(c: _Code, d: _Decl, at: Node) -> bool:
    """Is ``d`` declared (completely) before ``at`` and in a scope containing it?"""
    if c.span(d.stmt)[1] > c.span(at)[0] and not d.param:
        return False
    if d.param:
        return c.is_ancestor(d.scope, at)
    if c.python:
        return c.enclosing(d.stmt, {"function_definition"}) == c.enclosing(
            at, {"function_definition"}
        )
    return c.is_ancestor(d.scope, at)


def _reads(c: _Code) -> list[Node]:
    """Variable occurrences that are reads (not declarations or assigned targets)."""
    defs = {d.ident.id for d in c.decls()}
    out = []
    for node in c.var_nodes():
        if node.id in defs:
            continue
        parent = node.parent
        if parent is not None and parent.type in _ASSIGN and c.field.get(node.id) == "left":
            continue
        if parent is not None and parent.type in _UPDATE:
            continue
        if parent is not None and parent.type in ("pattern_list", "tuple_pattern"):
            continue
        out.append(node)
    return out


def wrong_variable(code: str, language: str, rng: random.Random) -> str | None:
    """Replace one read of a variable by another variable of the same kind in scope.

    Same kind: the same declared type (Java, C#, C, C++; ``var``/``auto`` excluded), any
    local or parameter in Python and JavaScript. In scope: a parameter of the enclosing
    function, or a local declared (completely) before the use in an enclosing block.

    >>> wrong_variable("int f(int a, int b) { return a; }", "java", random.Random(0))
    'int f(int a, int b) { return b; }'
    """
    c = _load(code, language)
    if c is None:
        return None
    firsts = c.first_decls()
    sites: list[list[Edit]] = []
    for use in _reads(c):
        name = c.text(use)
        d = firsts.get(name)
        if d is None or not _visible(c, d, use):
            continue
        others = sorted(
            {o.name for o in firsts.values() if _same_kind(c, d, o) and _visible(c, o, use)}
        )
        start, end = c.span(use)
        for other in others:
            sites.append([(start, end, other)])
    return _apply_each(c, rng, sites)


def _constant_for(c: _Code, kind: str | None, value: str) -> str | None:
    if c.python:
        return "0" if value == "None" else "None"
    if c.lang == "javascript":
        return "0" if value == "null" else "null"
    if kind is None:
        return None
    kind = normalize_whitespace(kind)
    if kind in ("boolean", "bool"):
        return "true" if value == "false" else "false"
    if kind in _NUMERIC_TYPES or kind.startswith("unsigned"):
        return "1" if value == "0" else "0"
    if kind in ("String", "string", "std::string"):
        return '"x"' if value == '""' else '""'
    if c.lang == "java" and kind[:1].isupper():
        return None if value == "null" else "null"
    if c.lang == "c" and kind.endswith("*"):
        return None if value == "NULL" else "NULL"
    if c.lang == "cpp" and kind.endswith("*"):
        return None if value == "nullptr" else "nullptr"
    return None


def wrong_return(code: str, language: str, rng: random.Random) -> str | None:
    """Return a different variable of the same kind, or a different constant.

    Constants by declared return type: ``0``/``1`` for numbers, ``true``/``false``,
    ``""``, ``null``/``NULL``/``nullptr`` for references and pointers, ``None`` in Python
    and ``null`` in JavaScript.

    >>> wrong_return("boolean f(int a) { return a > 0; }", "java", random.Random(0))
    'boolean f(int a) { return false; }'
    """
    c = _load(code, language)
    if c is None:
        return None
    firsts = c.first_decls()
    sites: list[list[Edit]] = []
    for ret in c.of_type("return_statement"):
        values = c.named(ret)
        if len(values) != 1:
            continue
        e = values[0]
        start, end = c.span(e)
        value = c.text(e)
        if e.type == "identifier" and value in firsts:
            d = firsts[value]
            for o in sorted({o.name for o in firsts.values()
                             if _same_kind(c, d, o) and _visible(c, o, e)}):
                sites.append([(start, end, o)])
        const = _constant_for(c, _return_type(c, ret), value)
        if const is not None and const != value:
            sites.append([(start, end, const)])
    return _apply_each(c, rng, sites)


# ---------------------------------------------------------------------------------------
# the registry


@dataclass(frozen=True)
class Operator:
    """A named mutation operator.

    Attributes
    ----------
    name : short name used in reports.
    preserving : True for a semantics-preserving variant, False for a mutant.
    apply : ``(code, language, rng) -> str | None``.
    """

    name: str
    preserving: bool
    apply: Callable[[str, str, random.Random], str | None]


PRESERVING: tuple[Operator, ...] = tuple(
    Operator(f.__name__, True, f)
    for f in (
        increment_style,
        compound_assignment,
        redundant_parens,
        for_to_while,
        conditional_to_if,
        rename_local,
        swap_independent,
        extract_temp,
    )
)
CHANGING: tuple[Operator, ...] = tuple(
    Operator(f.__name__, False, f)
    for f in (
        relational_op,
        arithmetic_op,
        off_by_one,
        negate_condition,
        swap_branches,
        delete_statement,
        swap_dependent,
        wrong_variable,
        wrong_return,
    )
)
#: Every operator, variants first.
OPERATORS: tuple[Operator, ...] = PRESERVING + CHANGING
