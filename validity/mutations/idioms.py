"""The idioms a translator changes (SPEC section 8): three variants and one mutant.

* ``indexed_to_foreach`` (variant): an indexed loop that only reads ``xs[i]`` to the loop
  over the elements (``for (T x : xs)``, ``foreach (var x in xs)``, ``for (auto& x : xs)``,
  ``for (const x of xs)``, ``for x in xs``). The sites are the loops
  :func:`graphs.canon.indexed_loops.indexed_loop` accepts: index declared by the loop, from 0 by
  one, bound exactly the length, read only as ``xs[i]``, ``xs`` used only there, no element
  written.
* ``negate_swap`` (variant): ``if (c) A else B`` to ``if (!c) B else A``; a relational
  condition is negated by its complement (``a < b`` to ``a >= b``; like the graph, this takes
  the order to be total: with a NaN operand they differ), ``!x`` to ``x``, else ``!(c)``.
  Only ``if``s with a plain ``else`` (no ``else if``/``elif`` chain).
* ``inferred_type`` (variant): an explicit local type to ``var`` (Java, C#) or ``auto``
  (C++) where the initializer shows it (``new T(...)``, a literal of exactly that type), or
  back; JavaScript ``const`` to ``let``, ``let`` to ``const`` when never assigned again, and
  ``let``/``var`` to the other where that is safe (a statement of a function body, the only
  declaration of its names, none mentioned before it).
* ``converse_comparison`` (variant): a comparison written the other way round, ``a < b``
  to ``b > a`` (``<=`` to ``>=``, and back), where both operands are free of effects: names,
  literals (no interpolation), field and element accesses of those, a unary minus, in
  parentheses; never a Python chain ``a < b < c``. The result must parse as that comparison
  again (C++ could read ``f(x < y, b > a)`` as a template).
* ``field_initializer`` (mutant): a class field's (or Python class attribute's) initializer
  changed: an integer off by one, ``true``/``false`` swapped, a string or float changed.
"""

from __future__ import annotations

import random
import re

from graphs.canon.idioms import element_type, literal_type, reassigned
from graphs.canon.indexed_loops import indexed_loop
from graphs.lang.languages import get_roles
from graphs.lang.syntax import strip_parens, walk

from .node_types import BLOCKS, FUNCTIONS, LITERALS, MEMBER, SUBSCRIPT
from .sites import Code, Edit, Node, apply_each, load

_ELEMENT_NAMES = ("x", "item", "elem", "value", "e", "v1")
_COMPLEMENT = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "==",
               "===": "!==", "!==": "==="}
_NEGATIONS = {"unary_expression", "prefix_unary_expression", "not_operator"}
_CONVERSE = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
_COMPARISONS = {"binary_expression", "comparison_operator"}
_INTERPOLATIONS = {"interpolation", "template_substitution", "string_interpolation",
                   "interpolated_string_expression"}
_INDEX_LISTS = {"bracketed_argument_list", "argument", "subscript_argument_list"}
_MINUS = {"unary_expression", "prefix_unary_expression", "unary_operator"}


def _root(c: Code, node: Node) -> Node:
    cur = node
    while cur.parent is not None and cur.type not in FUNCTIONS:
        cur = cur.parent
    return cur


def indexed_to_foreach(code: str, language: str, rng: random.Random) -> str | None:
    """Rewrite an indexed loop that only reads ``xs[i]`` as the loop over the elements.

    >>> indexed_to_foreach("int f(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) "
    ...                    "s += xs[i]; return s; }", "java", random.Random(0))
    'int f(int[] xs) { int s = 0; for (int value : xs) s += value; return s; }'
    >>> indexed_to_foreach("for i in range(len(xs)):\\n    print(xs[i])\\n", "python",
    ...                    random.Random(0))
    'for value in xs:\\n    print(value)\\n'
    """
    c = load(code, language)
    if c is None or c.lang == "c":
        return None
    roles = get_roles(c.lang)
    name = c.fresh(_ELEMENT_NAMES, rng)
    sites: list[list[Edit]] = []
    for loop in c.of_type({"for_statement"}):
        body = loop.child_by_field_name("body")
        if body is None:
            continue
        found = indexed_loop(loop, body, roles, _root(c, loop))
        if found is None:
            continue
        xs, i, _keyword, reads = found
        edits: list[Edit] = [(*c.span(r), name) for r in reads]
        seq = c.text(xs)
        if c.python:
            right = loop.child_by_field_name("right")
            if right is None:
                continue
            edits += [(*c.span(i), name), (*c.span(right), seq)]
        else:
            if c.lang == "java":
                elem = element_type(_root(c, loop), seq, "java")
                kind = c.text(elem) if elem is not None else "var"
                head = f"for ({kind} {name} : {seq}) "
            elif c.lang == "csharp":
                head = f"foreach (var {name} in {seq}) "
            elif c.lang == "cpp":
                head = f"for (auto& {name} : {seq}) "
            else:
                head = f"for (const {name} of {seq}) "
            edits.append((c.span(loop)[0], c.span(body)[0], head))
        sites.append(edits)
    return apply_each(c, rng, sites)


def _negated(c: Code, cond: Node) -> str:
    core = strip_parens(cond)
    if core.type in _NEGATIONS:
        ops = [ch for ch in core.children if not ch.is_named]
        kids = c.named(core)
        if len(ops) == 1 and ops[0].type in ("!", "not") and len(kids) == 1:
            return c.text(strip_parens(kids[0]))
    if core.type in ("binary_expression", "comparison_operator") and len(c.named(core)) == 2:
        op = core.child_by_field_name("operator") or core.child_by_field_name("operators")
        if op is not None and op.type in _COMPLEMENT:
            start, end = c.span(core)
            o_start, o_end = c.span(op)
            text = c.code[start:end]
            return text[:o_start - start] + _COMPLEMENT[op.type] + text[o_end - start:]
    return f"not ({c.text(core)})" if c.python else f"!({c.text(core)})"


def negate_swap(code: str, language: str, rng: random.Random) -> str | None:
    """``if (c) A else B`` to ``if (!c) B else A`` (relational conditions by their
    complement).

    >>> negate_swap("if (a < b) { x = 1; } else { x = 2; }", "java", random.Random(0))
    'if (a >= b) { x = 2; } else { x = 1; }'
    >>> negate_swap("if not ok:\\n    f()\\nelse:\\n    g()\\n", "python", random.Random(0))
    'if ok:\\n    g()\\nelse:\\n    f()\\n'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for node in c.of_type("if_statement"):
        cond = node.child_by_field_name("condition")
        cons = node.child_by_field_name("consequence")
        alts = node.children_by_field_name("alternative")
        if cond is None or cons is None or len(alts) != 1:
            continue
        alt = alts[0]
        if alt.type == "else_clause":
            body = alt.child_by_field_name("body")
            if body is None:
                kids = c.named(alt)
                body = kids[0] if len(kids) == 1 else None
            alt = body
        elif c.python:
            continue  # elif
        if alt is None or alt.type == "if_statement" or cons.type == "if_statement":
            continue
        core = strip_parens(cond)
        if core.type.endswith("declaration") or core.type == "condition_clause":
            continue
        if c.python and (cons.type not in BLOCKS or alt.type not in BLOCKS):
            continue
        edits: list[Edit] = [(*c.span(core), _negated(c, cond)),
                             (*c.span(cons), c.text(alt)), (*c.span(alt), c.text(cons))]
        sites.append(edits)
    return apply_each(c, rng, sites)


def _declarations(c: Code) -> list[tuple[Node, Node, Node, Node]]:
    """(declaration, type node, name, value) of local declarations of one variable."""
    out = []
    for decl in c.of_type({"local_variable_declaration", "variable_declaration",
                           "declaration"}):
        if c.enclosing(decl, FUNCTIONS) is None:
            continue
        kind = decl.child_by_field_name("type")
        declarators = [d for d in c.named(decl) if d.type in ("variable_declarator",
                                                              "init_declarator")]
        if kind is None or len(declarators) != 1:
            continue
        d = declarators[0]
        name = d.child_by_field_name("name") or d.child_by_field_name("declarator")
        value = d.child_by_field_name("value")
        if value is None:
            kids = c.named(d)
            value = kids[-1] if len(kids) == 2 else None
        if name is None or value is None or name.type != "identifier":
            continue
        if d.child_by_field_name("dimensions") is not None:
            continue
        out.append((decl, kind, name, value))
    return out


def _javascript_sites(c: Code) -> list[list[Edit]]:
    sites: list[list[Edit]] = []
    for decl in c.of_type({"lexical_declaration", "variable_declaration"}):
        keyword = decl.children[0] if decl.children else None
        fn = c.enclosing(decl, FUNCTIONS)
        if keyword is None or fn is None or keyword.type not in ("let", "const", "var"):
            continue
        names = set()
        for d in c.named(decl):
            name = d.child_by_field_name("name")
            if d.type != "variable_declarator" or name is None or name.type != "identifier":
                names = set()
                break
            names.add(name.text)
        if not names or (decl.parent is not None and decl.parent.type in (
                "for_statement", "for_in_statement")):
            continue
        again = reassigned(fn, names, decl)
        # var <-> let only as a statement of the function body, declared once, not
        # mentioned before (hoisting and function scope then change nothing)
        body_level = decl.parent is not None and decl.parent.type == "statement_block" and \
            decl.parent.parent is not None and decl.parent.parent.id == fn.id
        if body_level:
            for n in walk(fn):
                if n.type == "identifier" and n.text in names and not (
                        c.span(decl)[0] <= c.span(n)[0] < c.span(decl)[1]):
                    p = n.parent
                    if n.start_byte < decl.start_byte or (
                            p is not None and p.type == "variable_declarator"
                            and p.child_by_field_name("name") == n):
                        body_level = False
                        break
        options = {"const": ["let"] + (["var"] if body_level else []),
                   "let": ([] if again else ["const"]) + (["var"] if body_level else []),
                   "var": (["let"] + ([] if again else ["const"])) if body_level else []}
        for other in options[keyword.type]:
            sites.append([(*c.span(keyword), other)])
    return sites


def inferred_type(code: str, language: str, rng: random.Random) -> str | None:
    """An explicit local type to ``var``/``auto`` where the initializer shows it, or back
    (JavaScript: ``const``/``let``/``var`` where they mean the same).

    >>> inferred_type("void f() { StringBuilder sb = new StringBuilder(); g(sb); }", "java",
    ...               random.Random(0))
    'void f() { var sb = new StringBuilder(); g(sb); }'
    >>> inferred_type("int f() { auto n = 3; return n; }", "cpp", random.Random(0))
    'int f() { int n = 3; return n; }'
    """
    c = load(code, language)
    if c is None:
        return None
    if c.lang == "javascript":
        return apply_each(c, rng, _javascript_sites(c))
    if c.lang not in ("java", "csharp", "cpp"):
        return None
    implicit = "auto" if c.lang == "cpp" else "var"
    sites: list[list[Edit]] = []
    for decl, kind, _name, value in _declarations(c):
        if decl.parent is not None and decl.parent.type in ("for_statement",):
            continue
        kind_text = c.text(kind)
        if value.type == "object_creation_expression" and c.lang != "cpp":
            new = value.child_by_field_name("type")
            if new is None or "<>" in c.text(new).replace(" ", "") or any(
                    ch.type == "class_body" for ch in value.children):
                continue
            evident = c.text(new)
        else:
            evident = literal_type(value, c.lang)
        if evident is None:
            continue
        if kind_text == implicit:
            sites.append([(*c.span(kind), evident)])
        elif re.sub(r"\s+", "", kind_text) == re.sub(r"\s+", "", evident) and not any(
                ch.type in ("type_qualifier", "storage_class_specifier", "modifiers")
                for ch in decl.children):
            sites.append([(*c.span(kind), implicit)])
    return apply_each(c, rng, sites)


# ---------------------------------------------------------------------------------------
# the mutant


def _field_values(c: Code) -> list[Node]:
    """Initializers of class fields (Python: class attributes)."""
    out = []
    for node in c.nodes:
        t = node.type
        if t == "field_declaration":  # Java, C# (through a variable_declaration), C++
            for d in walk(node):
                if d.type == "variable_declarator":
                    value = d.child_by_field_name("value")
                    if value is None:
                        kids = c.named(d)
                        value = kids[-1] if len(kids) == 2 else None
                    if value is not None:
                        out.append(value)
            default = node.child_by_field_name("default_value")
            if default is not None:
                out.append(default)
        elif t in ("field_definition", "public_field_definition"):  # JavaScript
            value = node.child_by_field_name("value")
            if value is not None:
                out.append(value)
        elif t == "assignment" and c.python:
            stmt = node.parent
            block = stmt.parent if stmt is not None else None
            if stmt is not None and stmt.type == "expression_statement" and block is not None \
                    and block.parent is not None and block.parent.type == "class_definition":
                value = node.child_by_field_name("right")
                if value is not None:
                    out.append(value)
    return out


def _changed_literal(c: Code, value: Node) -> str | None:
    text = c.text(value)
    if value.type in ("initializer_list", "initializer_expression"):
        return None
    m = re.fullmatch(r"(-?)(\d+)([lLuU]*)", text)
    if m is not None:
        return f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}"
    m = re.fullmatch(r"(-?)(\d+\.\d*)([fFdDmM]?)", text)
    if m is not None:
        return f"{m.group(1)}{float(m.group(2)) + 1}{m.group(3)}"
    swaps = {"true": "false", "false": "true", "True": "False", "False": "True"}
    if text in swaps:
        return swaps[text]
    m = re.fullmatch(r"(@?)([\"'])(.*)\2", text, re.S)
    if m is not None and (m.group(2) == '"' or c.lang in ("python", "javascript")):
        return f"{m.group(1)}{m.group(2)}{m.group(3)}x{m.group(2)}"
    return None


def field_initializer(code: str, language: str, rng: random.Random) -> str | None:
    """Change one class field's initializer (an integer off by one, a boolean flipped, a
    string or a float changed).

    >>> field_initializer("class A { int n = 3; int f() { return n; } }", "java",
    ...                   random.Random(0))
    'class A { int n = 4; int f() { return n; } }'
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[list[Edit]] = []
    for value in _field_values(c):
        new = _changed_literal(c, value)
        if new is not None:
            sites.append([(*c.span(value), new)])
    return apply_each(c, rng, sites)


def _effect_free(c: Code, node: Node) -> bool:
    """A name, a literal (no interpolation), a field or element access of such operands, a
    unary minus of one, in parentheses: evaluating it has no effect."""
    if node.child_count == 0:
        return node.is_named or node.type in ("this", "self")
    kids = c.named(node)
    t = node.type
    if t in LITERALS:
        return not c.has(node, _INTERPOLATIONS)
    if t == "parenthesized_expression" or t in _INDEX_LISTS:
        return len(kids) == 1 and len(node.children) == (3 if t != "argument" else 1) \
            and _effect_free(c, kids[0])
    if t in MEMBER and t != "method_invocation":
        return bool(kids) and kids[-1].child_count == 0 and all(
            _effect_free(c, k) for k in kids[:-1])
    if t in SUBSCRIPT:
        return all(_effect_free(c, k) for k in kids)
    if t in _MINUS:
        ops = [ch for ch in node.children if not ch.is_named]
        return len(kids) == 1 and len(ops) == 1 and ops[0].type == "-" and \
            _effect_free(c, kids[0])
    return False


def converse_comparison(code: str, language: str, rng: random.Random) -> str | None:
    """Write one comparison the other way round: ``a < b`` as ``b > a`` (``<=`` as ``>=``,
    and back), both operands free of effects.

    >>> converse_comparison("if (a < b) x = 1;", "java", random.Random(0))
    'if (b > a) x = 1;'
    >>> converse_comparison("ok = xs[i] >= -self.n", "python", random.Random(0))
    'ok = -self.n <= xs[i]'
    >>> converse_comparison("ok = a < b < c or f() > 0", "python", random.Random(0)) is None
    True
    """
    c = load(code, language)
    if c is None:
        return None
    sites: list[tuple[int, str, int]] = []
    for node in c.of_type(_COMPARISONS):
        kids = c.named(node)
        ops = [ch for ch in node.children if not ch.is_named]
        if len(kids) != 2 or len(ops) != 1 or ops[0].type not in _CONVERSE:
            continue
        left, right = kids
        if not (_effect_free(c, left) and _effect_free(c, right)):
            continue
        (start, end), (l_end, o_start, o_end, r_start) = c.span(node), (
            c.span(left)[1], *c.span(ops[0]), c.span(right)[0])
        text = c.code
        sites.append((start, c.text(right) + text[l_end:o_start] + _CONVERSE[ops[0].type]
                      + text[o_end:r_start] + c.text(left), end))
    rng.shuffle(sites)
    for start, new, end in sites:
        out = c.finish([(start, end, new)])
        again = load(out, language) if out is not None else None
        if again is not None and any(
                again.span(n) == (start, start + len(new)) for n in again.of_type(_COMPARISONS)):
            return out
    return None
