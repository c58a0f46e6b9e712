"""The semantics-changing mutant operators (``preserving=False``): classic mutation testing.

Relational and arithmetic operator replacement, off-by-one constants, negated conditions,
swapped branches, deleted statements, swapped dependent statements, wrong variables and
wrong returned values, each at a site where the change is observable (see
:mod:`validity.mutations` for the argument).
"""

from __future__ import annotations

import random
import re

from graphs.lang.syntax import strip_parens

from .node_types import (
    ASSIGN,
    BLOCKS,
    INT_LITERALS,
    LOOPS,
    MEMBER,
    STRINGS,
    UNKNOWN_TYPES,
    UPDATE,
)
from .sites import (
    Code,
    Decl,
    Edit,
    Node,
    adjacent_pairs,
    apply_each,
    load,
    normalize_whitespace,
    return_type,
    swap,
)

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
_ORDERED_CALL = re.compile(
    r"(write|print|append|push|add|insert|log|extend|enqueue|emplace|puts|fprintf|offer)",
    re.IGNORECASE,
)
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


def relational_op(code: str, language: str, rng: random.Random) -> str | None:
    """Replace one relational operator: ``<`` / ``<=``, ``>`` / ``>=``, ``==`` / ``!=``.

    >>> relational_op("if (a < b) x = 1;", "java", random.Random(0))
    'if (a <= b) x = 1;'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type({"binary_expression", "comparison_operator"}):
        for child in node.children:
            if not child.is_named and child.type in _RELATIONAL:
                start, end = c.span(child)
                sites.append([(start, end, _RELATIONAL[child.type])])
    return apply_each(c, rng, sites)


def arithmetic_op(code: str, language: str, rng: random.Random) -> str | None:
    """Replace one arithmetic operator: ``+`` / ``-``, ``*`` / ``/``.

    Skips string operands (concatenation) and ``x + 0``, ``x - 0``, ``x * 1``, ``x / 1``
    where the replacement would agree.

    >>> arithmetic_op("return a * b;", "java", random.Random(0))
    'return a / b;'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type({"binary_expression", "binary_operator"}):
        op = c.op_token(node, _ARITHMETIC)
        right = node.child_by_field_name("right")
        left = node.child_by_field_name("left")
        if op is None or right is None or left is None:
            continue
        if c.has(node, STRINGS):
            continue
        neutral = "0" if op.type in "+-" else "1"
        if c.text(right).strip() == neutral:
            continue
        start, end = c.span(op)
        sites.append([(start, end, _ARITHMETIC[op.type])])
    return apply_each(c, rng, sites)


def off_by_one(code: str, language: str, rng: random.Random) -> str | None:
    """Add one to a decimal integer constant that is a value.

    Skips constants in array sizes, constructor arguments (capacities), annotations,
    attributes, ``case`` labels' neighbours are kept (a label is a value), and preprocessor
    lines.

    >>> off_by_one("return n - 1;", "java", random.Random(0))
    'return n - 2;'
    """
    c = load(code, language)
    if c is None:
        return None
    skip = {"array_creation_expression", "object_creation_expression", "new_expression",
            "array_declarator", "annotation", "attribute_list", "attribute", "dimensions_expr",
            "array_rank_specifier", "preproc_def", "preproc_include", "preproc_if",
            "marker_annotation", "decorator"}
    sites: list[list[Edit]] = []
    for node in c.of_type(INT_LITERALS):
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
    return apply_each(c, rng, sites)


def negate_condition(code: str, language: str, rng: random.Random) -> str | None:
    """Negate the condition of one ``if`` or ``while``: ``c`` to ``!(c)`` (Python ``not (c)``).

    >>> negate_condition("if (a < b) x = 1;", "java", random.Random(0))
    'if (!(a < b)) x = 1;'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type({"if_statement", "while_statement", "elif_clause"}):
        cond = node.child_by_field_name("condition")
        if cond is None:
            continue
        core = strip_parens(cond)
        if core.type.endswith("declaration") or core.type in ("condition_clause",):
            continue
        start, end = c.span(core)
        text = f"not ({c.text(core)})" if c.python else f"!({c.text(core)})"
        sites.append([(start, end, text)])
    return apply_each(c, rng, sites)


def swap_branches(code: str, language: str, rng: random.Random) -> str | None:
    """Swap the then and else blocks of an ``if`` whose two blocks differ.

    Both branches must be blocks (not an ``else if`` chain).

    >>> swap_branches("if (c) { x = 1; } else { x = 2; }", "java", random.Random(0))
    'if (c) { x = 2; } else { x = 1; }'
    """
    c = load(code, language)
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
        if then_node.type not in BLOCKS or else_node.type not in BLOCKS:
            continue
        t1, t2 = c.text(then_node), c.text(else_node)
        if normalize_whitespace(t1) == normalize_whitespace(t2):
            continue
        sites.append(swap(c, then_node, else_node))
    return apply_each(c, rng, sites)


def _escapes_or_read_later(c: Code, stmt: Node) -> bool:
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
    in_loop = c.enclosing(stmt, LOOPS) is not None
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
    c = load(code, language)
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
    return apply_each(c, rng, sites)


def _call_receiver(c: Code, stmt: Node) -> tuple[str, str] | None:
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
        if func.type in MEMBER:
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
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for s1, s2 in adjacent_pairs(c):
        if not (c.simple(s1) and c.simple(s2)):
            continue
        if normalize_whitespace(c.text(s1)) == normalize_whitespace(c.text(s2)):
            continue
        call1, call2 = _call_receiver(c, s1), _call_receiver(c, s2)
        if call1 is not None and call2 is not None and call1[0] == call2[0] and (
            _ORDERED_CALL.match(call1[1]) and _ORDERED_CALL.match(call2[1])
        ) and (call1[0] or call1[1] == call2[1]):
            sites.append(swap(c, s1, s2))
            continue
        rw1, rw2 = c.rw(s1), c.rw(s2)
        if rw1 is None or rw2 is None:
            continue
        _, _, er1, ew1 = rw1
        _, _, er2, ew2 = rw2
        if ew1 & er2 or ew2 & er1:
            sites.append(swap(c, s1, s2))
    return apply_each(c, rng, sites)


def _same_kind(c: Code, d: Decl, other: Decl) -> bool:
    if other.name == d.name:
        return False
    if c.python or c.lang == "javascript":
        return True
    if d.type is None or other.type is None:
        return False
    if d.type in UNKNOWN_TYPES or other.type in UNKNOWN_TYPES:
        return False
    return normalize_whitespace(d.type) == normalize_whitespace(other.type)


def _visible(c: Code, d: Decl, at: Node) -> bool:
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


def _reads(c: Code) -> list[Node]:
    """Variable occurrences that are reads (not declarations or assigned targets)."""
    defs = {d.ident.id for d in c.decls()}
    out = []
    for node in c.var_nodes():
        if node.id in defs:
            continue
        parent = node.parent
        if parent is not None and parent.type in ASSIGN and c.field.get(node.id) == "left":
            continue
        if parent is not None and parent.type in UPDATE:
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
    c = load(code, language)
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
    return apply_each(c, rng, sites)


def _constant_for(c: Code, kind: str | None, value: str) -> str | None:
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
    c = load(code, language)
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
        const = _constant_for(c, return_type(c, ret), value)
        if const is not None and const != value:
            sites.append([(start, end, const)])
    return apply_each(c, rng, sites)

