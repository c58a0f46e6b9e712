"""Function definitions in a snippet's syntax: which top-level nodes are functions and which
are statements, a function's name, parameters and end of header, and the signature that
labels its entry node.
"""

from __future__ import annotations

from collections.abc import Sequence

import tree_sitter

from graphs.lang.roles import LanguageRoles

Node = tree_sitter.Node


def header_last(node: Node, body: Node | None) -> Node:
    """Last child of ``node`` before ``body`` (the end of a function header)."""
    last = node
    if body is None:
        return node
    for c in node.children:
        if c.start_byte >= body.start_byte:
            break
        last = c
    return last


def function_signature(fn: Node, roles: LanguageRoles,
                       params: Sequence[Node] | None = None) -> str:
    """The label of a function's entry: return type, name, parameter types.

    ``int add(int, int)``, ``def area(_, _) -> float``: what a caller relies on, with the
    parameter names left out (they are renamed by position in the body). An untyped
    parameter is ``_``. ``params``: ``function_parameters(fn, roles)``, if the caller has
    them.
    """
    def text(node: Node | None) -> str:
        return " ".join(node.text.decode().split()) if node is not None else ""

    ret = text(next((r for r in (fn.child_by_field_name(f) for f in
                                 ("type", "returns", "return_type")) if r is not None), None))
    types = []
    for p in function_parameters(fn, roles) if params is None else params:
        t = p.child_by_field_name("type")
        types.append(text(t) if t is not None else "_")
    name = text(function_name(fn)) or "lambda"
    head = f"{name}({', '.join(types)})"
    # a constructor's call of another one (C#'s : this(0), C++'s : base(x), a(b)) runs
    # before the body and has no node of its own
    head += "".join(" " + text(c) for c in fn.children
                    if c.type in ("constructor_initializer", "field_initializer_list"))
    if roles.language == "python":
        return f"def {head} -> {ret}" if ret else f"def {head}"
    return f"{ret} {head}" if ret else head


def function_name(fn: Node) -> Node | None:
    """The syntax node that names ``fn`` (None for an anonymous function)."""
    name = fn.child_by_field_name("name")
    if name is not None:
        return name
    decl = fn.child_by_field_name("declarator")
    while decl is not None:  # C/C++: int *f(...) -> function_declarator -> identifier
        inner = decl.child_by_field_name("declarator")
        if inner is None:
            return decl if decl.child_count == 0 or decl.type.startswith(
                ("qualified", "operator", "destructor")) else None
        decl = inner
    parent = fn.parent  # JS: const f = () => ...
    if parent is not None and parent.type == "variable_declarator":
        return parent.child_by_field_name("name")
    return None


def function_parameters(fn: Node, roles: LanguageRoles) -> list[Node]:
    """The parameter nodes of ``fn``, in order (a C ``(void)`` and separators left out)."""
    params = fn.child_by_field_name("parameters")
    if params is None:
        single = fn.child_by_field_name("parameter")  # JS: x => x + 1
        if single is not None:
            return [single]
        decl = fn.child_by_field_name("declarator")
        while decl is not None and params is None:
            params = decl.child_by_field_name("parameters")
            decl = decl.child_by_field_name("declarator")
    if params is None:
        return []
    out = []
    for p in params.named_children:
        if p.type in roles.comments or p.type in ("keyword_separator", "positional_separator",
                                                  "variadic_parameter"):
            continue
        name_field = roles.declarations.get(p.type)
        if name_field is not None and p.child_by_field_name(name_field) is None and (
                p.type.endswith("parameter_declaration")):
            continue  # C's `f(void)`, unnamed prototype parameters
        out.append(p)
    return out


def split_top_level(nodes: Sequence[Node], roles: LanguageRoles
                    ) -> tuple[list[tuple[Node, Node]], list[Node]]:
    """Functions (as ``(function node, outermost node)``) and top-level statements."""
    funcs: list[tuple[Node, Node]] = []
    stmts: list[Node] = []
    stack: list[tuple[Node, bool]] = [(n, False) for n in reversed(nodes)]
    while stack:
        n, in_container = stack.pop()
        t = n.type
        if t in roles.comments:
            continue
        fn = _as_function(n, roles)
        if fn is not None:
            if fn.child_by_field_name(roles.functions.get(fn.type, "body")) is not None:
                funcs.append((fn, n))
            continue
        if t in roles.containers and not (t in roles.blocks and not in_container):
            fieldname = roles.containers[t]
            body = n.child_by_field_name(fieldname) if fieldname else n
            if body is not None:
                kids = body.named_children if body is not n else n.named_children
                stack.extend((c, True) for c in reversed(kids))
            continue
        if not in_container:
            stmts.append(n)
    if funcs:
        stmts = [s for s in stmts if s.type not in roles.preamble]
    return funcs, stmts


def _as_function(n: Node, roles: LanguageRoles) -> Node | None:
    t = n.type
    if t in roles.functions:
        if t in ("arrow_function", "function_expression", "generator_function"):
            return None  # only as the value of a declaration (below)
        return n
    if t == "decorated_definition":
        d = n.child_by_field_name("definition")
        if d is not None and d.type in roles.functions:
            return d
        return None
    if t in ("lexical_declaration", "variable_declaration") and roles.language == "javascript":
        decls = [c for c in n.named_children if c.type == "variable_declarator"]
        if len(decls) == 1:
            value = decls[0].child_by_field_name("value")
            if value is not None and value.type in ("arrow_function", "function_expression",
                                                    "function", "generator_function"):
                return value
    return None
