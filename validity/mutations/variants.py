"""The semantics-preserving variant operators (``preserving=True``): rewrites that keep meaning.

Increment and compound-assignment forms, redundant parentheses, ``for`` to ``while``,
conditional expression to ``if``/``else`` and back, renaming a local, swapping independent
statements, extracting a temporary for a returned expression (see
:mod:`validity.mutations`).
"""

from __future__ import annotations

import random

from graphs.lang.syntax import strip_parens

from .node_types import (
    ASSIGN,
    BINARY,
    BLOCKS,
    COMPOUND,
    DECL_STMTS,
    FUNCTIONS,
    LITERALS,
    TERNARY,
    UNKNOWN_TYPES,
    UPDATE,
)
from .sites import (
    Code,
    Edit,
    Node,
    adjacent_pairs,
    apply_each,
    load,
    normalize_whitespace,
    paren,
    pick,
    return_type,
    side_effect_free,
    swap,
)

_NARROW_TYPES = {"byte", "short", "char", "sbyte", "ushort"}
_FRESH_NAMES = ("value", "temp", "acc", "cur", "elem", "item", "aux", "res", "val2", "tmp1")
_TEMP_NAMES = ("tmp", "result", "ret", "res", "out", "answer", "value", "tmp2")


def _increment_form(code: Code, stmt: Node) -> tuple[str, Node, str] | None:
    """(form, target, '+' or '-') of a statement ``i++ / ++i / i += 1 / i = i + 1``."""
    kids = code.named(stmt)
    if len(kids) != 1:
        return None
    expr = kids[0]
    if expr.type in UPDATE:
        op = code.op_token(expr, {"++", "--"})
        inner = code.named(expr)
        if op is None or len(inner) != 1:
            return None
        form = "pre" if op.start_byte < inner[0].start_byte else "post"
        return form, inner[0], op.type[0]
    if expr.type in ASSIGN:
        target = expr.child_by_field_name("left")
        right = expr.child_by_field_name("right")
        if target is None or right is None:
            return None
        op = code.op_token(expr, {"+=", "-=", "="})
        if op is None:
            return None
        if op.type in ("+=", "-=") and code.text(right) == "1":
            return "compound", target, op.type[0]
        if op.type == "=" and right.type in BINARY:
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
    c = load(code, language)
    if c is None:
        return None
    decls = c.first_decls()
    sites: list[list[Edit]] = []
    for stmt in c.of_type("expression_statement"):
        found = _increment_form(c, stmt)
        if found is None:
            continue
        form, target, sign = found
        if not side_effect_free(c, target):
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
    return apply_each(c, rng, sites)


def compound_assignment(code: str, language: str, rng: random.Random) -> str | None:
    """Rewrite ``x op= e`` as ``x = x op (e)`` (no parentheses for an atomic ``e``), or back.

    >>> compound_assignment("x *= a + b", "python", random.Random(0))
    'x = x * (a + b)'
    >>> compound_assignment("x = x * (a + b);", "java", random.Random(0))
    'x *= a + b;'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type(ASSIGN):
        target = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if target is None or right is None or not side_effect_free(c, target):
            continue
        t = c.text(target)
        op = c.op_token(node, COMPOUND | {"="})
        if op is None:
            continue
        start, end = c.span(node)
        if op.type in COMPOUND:
            sites.append([(start, end, f"{t} = {t} {op.type[:-1]} {paren(c, right)}")])
        elif right.type in ("binary_expression", "binary_operator"):
            left, r_right = right.child_by_field_name("left"), right.child_by_field_name("right")
            rop = c.op_token(right, {o[:-1] for o in COMPOUND})
            if left is None or r_right is None or rop is None or c.text(left) != t:
                continue
            if rop.type + "=" not in COMPOUND:
                continue
            inner = c.named(r_right)
            e = (
                c.text(inner[0])
                if r_right.type == "parenthesized_expression" and len(inner) == 1
                else c.text(r_right)
            )
            sites.append([(start, end, f"{t} {rop.type}= {e}")])
    return apply_each(c, rng, sites)


def redundant_parens(code: str, language: str, rng: random.Random) -> str | None:
    """Put redundant parentheses around one binary expression.

    >>> redundant_parens("return a + b;", "java", random.Random(0))
    'return (a + b);'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type(BINARY):
        parent = node.parent
        if parent is not None and parent.type in ("parenthesized_expression", "condition_clause"):
            continue
        if c.field.get(node.id) == "condition" and not c.python and c.lang != "csharp":
            continue
        start, end = c.span(node)
        sites.append([(start, start, "("), (end, end, ")")])
    return apply_each(c, rng, sites)


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
    c = load(code, language)
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
            ch.type in DECL_STMTS and c.field.get(ch.id) in ("init", "initializer")
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
        if body.type in BLOCKS:
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
        if parent.type not in BLOCKS and init_stmts:
            text = "{ " + text + " }"
        sites.append([(l_start, l_end, text)])
    return apply_each(c, rng, sites)


def _ternary_parts(c: Code, node: Node) -> tuple[Node, Node, Node] | None:
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


def _operand(c: Code, node: Node) -> str:
    text = c.text(node)
    low = TERNARY | ASSIGN | {"lambda", "lambda_expression", "arrow_function",
                                "named_expression", "sequence_expression", "yield"}
    return f"({text})" if node.type in low else text


def _single_statement(c: Code, node: Node) -> Node | None:
    if node.type == "else_clause":
        kids = c.named(node)
        body = node.child_by_field_name("body") or (kids[0] if len(kids) == 1 else None)
        if body is None:
            return None
        node = body
    if node.type in BLOCKS:
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
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type(TERNARY):
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
        if holder.type in ASSIGN and c.field.get(node.id) == "right":
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
            if head in UNKNOWN_TYPES or not head or "const" in head.split():
                continue
            if stmt.type not in DECL_STMTS:
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
            core = strip_parens(cond)
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
        core = strip_parens(cond)
        if s1.type == "return_statement":
            v1, v2 = c.named(s1), c.named(s2)
            if len(v1) != 1 or len(v2) != 1:
                continue
            lead = "return "
            a, b = v1[0], v2[0]
        elif s1.type == "expression_statement":
            e1, e2 = c.named(s1), c.named(s2)
            if len(e1) != 1 or len(e2) != 1 or e1[0].type not in ASSIGN:
                continue
            if e2[0].type not in ASSIGN:
                continue
            t1, t2 = e1[0].child_by_field_name("left"), e2[0].child_by_field_name("left")
            if t1 is None or t2 is None or c.text(t1) != c.text(t2):
                continue
            if c.op_token(e1[0], {"="}) is None or c.op_token(e2[0], {"="}) is None:
                continue
            if not side_effect_free(c, t1):
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
    return apply_each(c, rng, sites)


def rename_local(code: str, language: str, rng: random.Random) -> str | None:
    """Rename one local variable (not a parameter) consistently to a fresh name.

    The fresh name appears nowhere in the code. A name that is also used as something else
    (a member, a callee, a keyword argument, a JavaScript shorthand property) is not renamed.

    >>> rename_local("int f(int a) { int s = a; return s; }", "java", random.Random(1))
    'int f(int a) { int tmp1 = a; return tmp1; }'
    """
    c = load(code, language)
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
    name = pick(rng, names)
    if name is None:
        return None
    new = c.fresh(_FRESH_NAMES, rng)
    edits = [(*c.span(n), new) for n in idents.get(str(name), [])]
    return c.finish(edits)


def swap_independent(code: str, language: str, rng: random.Random) -> str | None:
    """Swap two adjacent statements that do not depend on each other.

    Both must be simple statements (expression statement or declaration) without any call,
    and neither may write a variable (or the root of an object or array) the other reads or
    writes.

    >>> swap_independent("x = 1; y = 2; return x + y;", "java", random.Random(0))
    'y = 2; x = 1; return x + y;'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for s1, s2 in adjacent_pairs(c):
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
        sites.append(swap(c, s1, s2))
    return apply_each(c, rng, sites)


def extract_temp(code: str, language: str, rng: random.Random) -> str | None:
    """``return e;`` to ``T tmp = e; return tmp;`` with a fresh name.

    ``T`` is the declared return type (Java, C), ``var`` (C#, Java lambdas), ``auto`` (C++),
    ``const`` (JavaScript); Python assigns. A return that is not directly in a block is
    wrapped in braces. Returns of a literal, a name, ``null``, a lambda or a brace list are
    left alone.

    >>> extract_temp("int f(int a) { return a * 2; }", "java", random.Random(0))
    'int f(int a) { int value = a * 2; return value; }'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    name = c.fresh(_TEMP_NAMES, rng)
    for ret in c.of_type("return_statement"):
        values = c.named(ret)
        if len(values) != 1:
            continue
        e = values[0]
        if e.type in LITERALS | {"identifier", "initializer_list", "null_literal",
                                  "expression_list", "default_expression"}:
            continue
        if e.type in FUNCTIONS or c.has(e, FUNCTIONS | {"yield", "await_expression"}):
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
            kind = return_type(c, ret)
            if kind is None:
                if c.lang == "java" and c.enclosing(ret, FUNCTIONS) is not None:
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
    return apply_each(c, rng, sites)

