"""Indexed loops that only read ``xs[i]``: whether a ``for`` (or ``T i = 0; while (i <
xs.length) {... i++; }``; the bound may be written ``xs.length > i``) is the loop over the
elements of ``xs`` in another form, and where it reads them; the rules are those of
:mod:`graphs.canon.idioms`, whose builder hook rewrites the loop as its ``foreach``, and the
validity benchmark mutates the same loops.
"""

from __future__ import annotations

import re

import tree_sitter

from graphs.lang.syntax import LAMBDAS as _LAMBDAS
from graphs.lang.syntax import named_children as _named
from graphs.lang.syntax import operator_token as _op
from graphs.lang.syntax import strip_parens as _strip
from graphs.lang.syntax import walk as _walk

__all__ = ["indexed_loop", "indexed_while", "subscript"]

Node = tree_sitter.Node

_WRAPPERS = frozenset({"parenthesized_expression", "pattern_list", "tuple_pattern", "tuple",
                       "list_pattern", "list", "array_pattern", "expression_list"})
_UNARY = frozenset({"update_expression", "postfix_unary_expression", "prefix_unary_expression",
                    "pointer_expression", "unary_expression"})
_IDENTIFIERS = frozenset({"identifier", "shorthand_property_identifier",
                          "shorthand_property_identifier_pattern"})
_LENGTHS = {"java": ("length", "size"), "csharp": ("Length", "Count"), "cpp": ("size",),
            "javascript": ("length",)}


def subscript(node: Node, language: str) -> tuple[Node, Node] | None:
    """(base, index) of ``xs[i]`` (Java: also ``xs.get(i)``)."""
    t = node.type
    if t == "array_access":
        base, index = node.child_by_field_name("array"), node.child_by_field_name("index")
    elif t == "subscript":
        base, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
        if len(node.children_by_field_name("subscript")) != 1:
            return None
    elif t == "subscript_expression":
        base = node.child_by_field_name("object") or node.child_by_field_name("argument")
        index = node.child_by_field_name("index")
        if index is None:
            holder = node.child_by_field_name("indices")
            kids = _named(holder) if holder is not None else []
            index = kids[0] if len(kids) == 1 else None
    elif t == "element_access_expression":
        base = node.child_by_field_name("expression")
        holder = node.child_by_field_name("subscript")
        kids = _named(holder) if holder is not None else []
        index = None
        if len(kids) == 1 and kids[0].type == "argument" and len(_named(kids[0])) == 1:
            index = _named(kids[0])[0]
    elif t == "method_invocation" and language == "java":
        base, name = node.child_by_field_name("object"), node.child_by_field_name("name")
        args = node.child_by_field_name("arguments")
        kids = _named(args) if args is not None else []
        if name is None or name.text != b"get" or len(kids) != 1:
            return None
        index = kids[0]
    else:
        return None
    if base is None or index is None:
        return None
    return base, index


def _simple_subscript(node: Node, language: str) -> bool:
    """``xs[i]`` with a plain name on both sides: the element an outer indexed loop reads,
    which an inner loop may in turn run over (``for (j ...; j < xs[i].length; ...)``)."""
    found = subscript(node, language)
    return found is not None and found[0].type == "identifier" and found[1].type == "identifier"


def _sequence(node: Node, language: str) -> bool:
    """What an indexed loop can run over: a name, or an outer loop's element ``xs[i]``."""
    return node.type == "identifier" or _simple_subscript(node, language)


def _length_of(node: Node, language: str) -> bytes | None:
    """``xs`` of ``xs.length`` / ``xs.Length`` / ``xs.Count`` / ``xs.size()``."""
    names = _LENGTHS.get(language, ())
    call = node.type in ("method_invocation", "call_expression")
    if call:
        args = node.child_by_field_name("arguments")
        if args is None or _named(args):
            return None
        if language == "cpp":
            node = node.child_by_field_name("function") or node
    obj = (node.child_by_field_name("object") or node.child_by_field_name("expression")
           or node.child_by_field_name("argument"))
    member = (node.child_by_field_name("field") or node.child_by_field_name("name")
              or node.child_by_field_name("property"))
    if obj is None or member is None or not _sequence(obj, language):
        return None
    if member.text.decode() not in names or (member.text == b"size") != call:
        return None
    return obj.text


def _declared_name(init: Node) -> Node | None:
    """``i`` of a for initializer ``T i = 0`` (one declarator, value 0)."""
    declarators = [c for c in _named(init) if c.type in ("variable_declarator",
                                                          "init_declarator")]
    if len(declarators) != 1:
        return None
    d = declarators[0]
    name = d.child_by_field_name("name") or d.child_by_field_name("declarator")
    value = d.child_by_field_name("value")
    if value is None:
        kids = _named(d)
        value = kids[-1] if len(kids) == 2 else None
    if name is None or value is None or name.type != "identifier" or value.text != b"0":
        return None
    return name


def _steps_by_one(upd: Node, i: bytes) -> bool:
    text = b"".join(upd.text.split()).rstrip(b";")
    return text in (i + b"++", b"++" + i, i + b"+=1", i + b"=" + i + b"+1")


def _written(site: Node) -> bool:
    """Whether a subscript site is a write target (or could be written through)."""
    node = site
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    parent = node.parent
    if parent is None:
        return False
    t = parent.type
    op = _op(parent)
    if t in _UNARY:
        return op is not None and op.type in ("++", "--", "&")
    if t in ("delete_statement", "delete_expression", "ref_expression"):
        return True
    if t == "argument":
        return any(c.type in ("ref", "out", "in") for c in parent.children)
    for k, c in enumerate(parent.children):
        if c.id == node.id:
            return parent.field_name_for_child(k) == "left" and (
                "assign" in t or t.startswith("for"))
    return False


def _element_sites(body: Node, i: bytes, xs: bytes, language: str) -> list[Node] | None:
    """The ``xs[i]`` reads of a loop body, or None when the body uses ``i`` or ``xs``
    otherwise (or writes an element, or reads one in a lambda). ``xs`` may be an outer
    loop's element ``ys[k]``: then ``ys`` and ``k`` may not occur in the body but inside
    the reads either, so the sequence cannot change while the loop runs."""
    sites: list[Node] = []
    allowed: set[int] = set()
    names = {i, *re.findall(rb"\w+", xs)}
    for n in _walk(body):
        found = subscript(n, language)
        if found is None:
            continue
        base, index = found
        if _sequence(base, language) and base.text == xs and index.type == "identifier" \
                and index.text == i:
            if _written(n):
                return None
            sites.append(n)
            allowed.update(d.id for d in _walk(n))
    for n in _walk(body):
        if n.type in _LAMBDAS and any(
                s.start_byte >= n.start_byte and s.end_byte <= n.end_byte for s in sites):
            return None
        if n.id not in allowed and (
                (n.type in _IDENTIFIERS and n.text in names) or n.text == xs):
            return None
    return sites


def _unused_outside(loop: Node, root: Node, i: bytes, start: int | None = None) -> bool:
    """``i`` occurs outside ``loop`` (from ``start`` on, if given) only in other loops that
    bind it first."""
    begin = loop.start_byte if start is None else start
    for n in _walk(root):
        if n.type != "identifier" or n.text != i or (begin <= n.start_byte < loop.end_byte):
            continue
        cur = n.parent
        while cur is not None:
            if cur.type in ("for_statement", "for_in_statement"):
                left = cur.child_by_field_name("left")
                init = cur.child_by_field_name("initializer")
                if (left is not None and left.text == i) or (
                        init is not None and _declared_name(init) is not None
                        and _declared_name(init).text == i):
                    break
            cur = cur.parent
        else:
            return False
    return True


def _bounded(cond: Node, i: bytes, language: str) -> Node | None:
    """``xs`` of a condition ``i < xs.length`` (``.Length``, ``.Count``, ``.size()``), or
    its converse ``xs.length > i``."""
    if cond.type == "expression_statement" and len(_named(cond)) == 1:
        cond = _named(cond)[0]
    cond = _strip(cond)
    if cond.type != "binary_expression":
        return None
    left, right, op = cond.child_by_field_name("left"), cond.child_by_field_name("right"), \
        _op(cond)
    if left is None or right is None or op is None:
        return None
    if op.type == ">":
        left, right = right, left
    elif op.type != "<":
        return None
    if left.text != i:
        return None
    name = _length_of(right, language)
    if name is None:
        return None
    xs = right
    while xs.text != name:
        xs = xs.child_by_field_name("function") or xs.child_by_field_name("object") or \
            xs.child_by_field_name("expression") or xs.child_by_field_name("argument")
    return xs


def indexed_while(decl: Node, loop: Node, roles, root: Node  # type: ignore[no-untyped-def]
                  ) -> tuple[Node, Node, list[Node], list[Node]] | None:
    """``(xs, i, body statements without the step, sites)`` when ``T i = 0; while (i <
    xs.length) { ...; i++; }`` is an indexed loop that only reads ``xs[i]`` (the ``while``
    form of :func:`indexed_loop`: no ``continue``, ``i`` unused after the loop)."""
    language = roles.language
    inner = _named(decl)
    if len(inner) == 1 and inner[0].type == "variable_declaration":  # C#
        decl = inner[0]
    i = _declared_name(decl) if language in _LENGTHS else None
    body = loop.child_by_field_name("body")
    cond = loop.child_by_field_name("condition")
    if i is None or body is None or cond is None or body.type not in roles.blocks:
        return None
    items = _named(body)
    if not items or items[-1].type != "expression_statement" or \
            not _steps_by_one(items[-1], i.text.rstrip(b";")):
        return None
    xs = _bounded(cond, i.text, language)
    if xs is None or any(n.type == "continue_statement" for n in _walk(body)):
        return None
    if not _unused_outside(loop, root, i.text, decl.start_byte):
        return None
    sites = []
    for item in items[:-1]:
        found = _element_sites(item, i.text, xs.text, language)
        if found is None:
            return None
        sites.extend(found)
    return xs, i, items[:-1], sites


def indexed_loop(s: Node, body: Node, roles, root: Node  # type: ignore[no-untyped-def]
                 ) -> tuple[Node, Node, bytes, list[Node]] | None:
    """``(xs, i, declaration keyword, sites)`` when loop ``s`` is an indexed loop over
    ``xs`` that only reads ``xs[i]`` (see the module docstring); None otherwise. ``root``
    is the syntax the index must not escape to (the enclosing function or snippet)."""
    language = roles.language
    if language == "python":
        i, right = s.child_by_field_name("left"), s.child_by_field_name("right")
        if i is None or right is None or i.type != "identifier" or right.type != "call":
            return None
        fn, args = right.child_by_field_name("function"), right.child_by_field_name("arguments")
        kids = _named(args) if args is not None else []
        if fn is None or fn.text != b"range" or not 1 <= len(kids) <= 2 or (
                len(kids) == 2 and kids[0].text != b"0") or kids[-1].type != "call":
            return None
        inner = kids[-1]
        f2, a2 = inner.child_by_field_name("function"), inner.child_by_field_name("arguments")
        k2 = _named(a2) if a2 is not None else []
        if f2 is None or f2.text != b"len" or len(k2) != 1 or k2[0].type != "identifier":
            return None
        xs = k2[0]
        if not _unused_outside(s, root, i.text):
            return None
        keyword = b""
    elif language in _LENGTHS:
        init_f, cond_f, upd_f = roles.for_fields
        inits, conds, upds = [], [], []
        for k, c in enumerate(s.children):
            f = s.field_name_for_child(k)
            if c.is_named and "comment" not in c.type:
                {init_f: inits, cond_f: conds, upd_f: upds}.get(f, []).append(c)
        conds = [c for c in conds if c.type != "empty_statement"]
        if len(inits) != 1 or len(conds) != 1 or len(upds) != 1:
            return None
        i = _declared_name(inits[0])
        if i is None or not _steps_by_one(upds[0], i.text):
            return None
        found_xs = _bounded(conds[0], i.text, language)
        if found_xs is None:
            return None
        xs = found_xs
        keyword = inits[0].children[0].text if inits[0].children else b""
        if keyword == b"var" and language == "javascript" and \
                not _unused_outside(s, root, i.text):
            return None
    else:
        return None
    sites = _element_sites(body, i.text, xs.text, language)
    if sites is None:
        return None
    return xs, i, keyword, sites
