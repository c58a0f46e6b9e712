"""Where a program starts and what it runs: its entry point, the functions, methods and
classes reachable from it, and the program with the rest left out.

A whole program carries code it never runs: the unused methods of a fast-reader class
copied from a template, a helper left from an earlier attempt. A translation rightly drops
them, and neither GRS nor TRS should count them as statements the translation deleted. So
where a unit has an entry point, :func:`what_runs` finds what is reachable from it and
blanks the rest out of the text (positions unchanged), and
:func:`graphs.pdg.entry_node.unify_entry` makes the entry one node of the PDG, the same in
every language.

The entry point
---------------
- Java, C#: a ``static`` method ``main`` / ``Main`` in a class (a ``main`` method given
  without its class is a method snippet); C# top-level statements, as Python's.
- C, C++: the function ``main``.
- Python, JavaScript: top-level code that does something (an expression statement or a
  control statement, the ``if __name__ == "__main__":`` guard among them; imports,
  declarations, assignments and a docstring alone do not make an entry, so a module of
  functions and constants keeps them all) and calls at least one of the unit's own
  functions or classes (top-level code that calls none of them, ``doctest.testmod()`` or
  a stray statement, is a library's driver: the functions are run from elsewhere).

A unit without an entry point (a method, a HumanEval function, a CodeXGLUE line) is kept
whole: :func:`what_runs` returns it unchanged.

What is reachable (a call graph by name, conservatively)
--------------------------------------------------------
Names are the identifiers of the code that runs: the entry, the module's or namespace's
own declarations (global initializers run), and, once a class is reached, its fields and
initializers. A function is reached when its name is one of them (called, passed as a
value, referenced in any way); a method when its class is reached and its name is one of
them (any receiver: a method is never told apart from another of the same name, which
keeps overridden and virtual methods); a class when its name is one of them (``new C()``,
``C()``, ``C.f()``, a type); a class's constructors, and the methods the runtime calls
without naming them, with the class: a method marked as overriding (``@Override``,
``override``, ``virtual``), every method of a class with a supertype, Python's dunder
methods, C++ operators and destructors, and the root object's methods (``toString``,
``equals``, ``hashCode``; C#'s ``ToString``, ``Equals``, ``GetHashCode``; JavaScript's
``toString``, ``valueOf``). Nested functions go with their enclosing function, and a
declaration without a body (a prototype, an abstract method) with its class.

Examples
--------
>>> from graphs import parse
>>> prog = what_runs(parse('''
... def helper(x):
...     return x + 1
... def main():
...     print(int(input()) * 2)
... if __name__ == "__main__":
...     main()
... ''', "python"))
>>> prog.entry, prog.main, prog.left_out
('top level', 'main', ('helper',))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import tree_sitter

from graphs.parsing.functions import function_name
from graphs.parsing.parser import ParsedCode, own_wrapper, parse

__all__ = ["Program", "what_runs"]

Node = tree_sitter.Node

# class-like declarations, and the field of their member list
_CLASSES = {
    "class_declaration": "body", "interface_declaration": "body", "enum_declaration": "body",
    "record_declaration": "body", "struct_declaration": "body", "class_definition": "body",
    "class_specifier": "body", "struct_specifier": "body", "record_struct_declaration": "body",
}
# member lists inside a class body, searched like the body itself
_MEMBER_LISTS = frozenset({"enum_body_declarations"})
# scopes searched for definitions, never left out themselves (namespaces)
_SCOPES = {"namespace_declaration": "body", "namespace_definition": "body",
           "file_scoped_namespace_declaration": None, "declaration_list": None,
           "linkage_specification": "body", "export_statement": None}
# nodes that wrap one definition (left out with it)
_WRAPPERS = frozenset({"decorated_definition", "template_declaration"})
_FUNCTIONS = frozenset({
    "method_declaration", "constructor_declaration", "compact_constructor_declaration",
    "destructor_declaration", "operator_declaration", "function_definition",
    "function_declaration", "generator_function_declaration", "method_definition",
    "local_function_statement",
})
_CONSTRUCTORS = frozenset({"constructor_declaration", "compact_constructor_declaration",
                           "destructor_declaration", "operator_declaration"})
_JS_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function",
                                 "generator_function"})
# methods every class inherits from the root object, which the runtime calls unnamed
# (string concatenation, hashing, equality)
_ROOT_METHODS = {
    "java": frozenset({"toString", "equals", "hashCode", "clone", "finalize"}),
    "csharp": frozenset({"ToString", "Equals", "GetHashCode", "Dispose"}),
    "javascript": frozenset({"toString", "valueOf", "toJSON", "constructor"}),
}
# the supertype clauses of a class
_SUPERTYPES = frozenset({"superclass", "super_interfaces", "extends_interfaces",
                         "base_list", "base_class_clause", "class_heritage"})
# top-level statements that make a Python or JavaScript module a program (it does
# something when run); declarations, assignments and imports alone do not
_ACTIVE = frozenset({
    "expression_statement", "if_statement", "for_statement", "for_in_statement",
    "while_statement", "do_statement", "try_statement", "with_statement",
    "match_statement", "switch_statement", "global_statement", "foreach_statement",
})
_INERT = frozenset({"string", "concatenated_string", "template_string", "assignment",
                    "augmented_assignment", "assignment_expression",
                    "augmented_assignment_expression"})
_MAIN_NAMES = {"java": "main", "csharp": "Main", "c": "main", "cpp": "main"}


@dataclass(frozen=True)
class Program:
    """What :func:`what_runs` found in a unit.

    Attributes
    ----------
    parsed : the parse the tiers read: the unit's, with the code that never runs blanked
        out (the same positions), or the unit's own parse when nothing is left out.
    entry : ``"main"`` (a ``main`` function), ``"top level"`` (Python, JavaScript or C#
        top-level code), or ``None``: no entry point, everything kept.
    main : the name of the function the entry is (Java's ``main``), or that the top level
        calls once and only (Python's ``main()``), whose body is the entry's; ``None``.
    main_call_line : 1-based line of that one call (``main()`` at the top level).
    guard_line : 1-based line of Python's ``if __name__ == "__main__":``, whose body is
        the entry's.
    left_out : what was left out, as ``Class.method``, ``Class`` or ``function``, in
        source order.
    """

    parsed: ParsedCode
    entry: str | None = None
    main: str | None = None
    main_call_line: int | None = None
    guard_line: int | None = None
    left_out: tuple[str, ...] = ()

    def describe(self) -> str | None:
        """The reasons' line for what was left out, ``None`` when nothing was.

        >>> from graphs import parse
        >>> Program(parse("x = 1", "python"), "top level", left_out=("F.g", "H")).describe()
        'left out, never called from main: F.g, H'
        """
        if not self.left_out:
            return None
        return f"left out, never called from main: {', '.join(self.left_out)}"


@dataclass(eq=False)  # compared and hashed by identity: two methods may share a name
class _Def:
    """A function, method or class that may be left out."""

    kind: str  # "function" or "class"
    name: str
    node: Node  # the outermost node (its decorators, its template)
    parent: _Def | None
    implicit: bool = False  # kept with its class (constructor, override, dunder...)
    members: list[_Def] = field(default_factory=list)
    # the class's own code: its header and its non-member children
    regions: list[Node] = field(default_factory=list)

    @property
    def qualified(self) -> str:
        # a method by its class (``FastReader.nextLong``), a class or function by its name
        if self.kind == "function" and self.parent is not None:
            return f"{self.parent.name}.{self.name}"
        return self.name


def what_runs(parsed: ParsedCode, mapped: Callable[[Node], bool] | None = None) -> Program:
    """The unit with what never runs from its entry point left out.

    Parameters
    ----------
    parsed : a clean parse (:func:`graphs.parse`).
    mapped : says of a syntax node of the code that runs whether a rewrite maps it as a
        whole to a meaning of its own (the I/O model's token read ``in.nextInt()``, a
        reader's construction ``new FastReader()``), so that the names in it are no calls:
        a reader class reached only through mapped reads is then left out, as the
        translation that reads with ``input()`` rightly drops it. ``None``: no node is.

    Returns
    -------
    Program : the parse to build the graph and tree from, the entry found, what was left
        out. Without an entry point, or when nothing is unreachable, ``parsed`` itself.

    Examples
    --------
    >>> from graphs import parse
    >>> java = '''class Main {
    ...   static class FastReader { int nextInt() { return 1; } long nextLong() { return 2; } }
    ...   static class Helper { void help() {} }
    ...   public static void main(String[] args) {
    ...     FastReader in = new FastReader(); System.out.println(in.nextInt());
    ...   }
    ... }'''
    >>> p = what_runs(parse(java, "java"))
    >>> p.entry, p.left_out
    ('main', ('FastReader.nextLong', 'Helper'))
    >>> "nextLong" in p.parsed.source, "nextInt" in p.parsed.source
    (False, True)
    >>> what_runs(parse("int f(int a) { return a; }", "java")).entry is None
    True
    """
    if not parsed.ok:
        return Program(parsed)
    language = parsed.language
    defs, running = _definitions(parsed.nodes, language, None)
    entry, main = _entry(parsed, defs, running)
    if entry is None:
        return Program(parsed)
    guard = next((n for n in running if _is_main_guard(n, parsed)), None)
    guard_line = parsed.position(guard)[0] if guard is not None else None
    call_line = None
    if main is None and language == "python":
        main, call_line = _called_once(parsed, defs, running, guard)
    kept = _reachable(defs, running, main, mapped)
    if entry == "top level" and defs and not kept:
        # top-level code that calls none of the unit's functions or classes: a library
        # with a driver of its own (doctest.testmod(), a stray statement), whose code is
        # run from elsewhere; nothing says what of it runs
        return Program(parsed)
    dropped = [d for d in _walk(defs) if d not in kept
               and (d.parent is None or d.parent in kept)]
    program = Program(parsed, entry, main.name if main is not None else None, call_line,
                      guard_line)
    if not dropped:
        return program
    pruned = _blank(parsed, dropped, kept)
    if pruned is None:  # the text left does not parse: keep everything rather than guess
        return program
    return Program(pruned, entry, program.main, call_line, guard_line,
                   tuple(dict.fromkeys(d.qualified for d in dropped)))


def _definitions(nodes: Iterable[Node], language: str, parent: _Def | None
                 ) -> tuple[list[_Def], list[Node]]:
    """The definitions among ``nodes`` (descending into namespaces and class bodies), and
    the other nodes: the code of the module or class itself."""
    defs: list[_Def] = []
    other: list[Node] = []
    for outer in nodes:
        node = _unwrap(outer)
        t = node.type
        if t in _SCOPES and parent is None:
            body = node.child_by_field_name(_SCOPES[t]) if _SCOPES[t] else node
            inner, rest = _definitions(body.named_children if body is not None else (),
                                       language, parent)
            defs.extend(inner)
            other.extend(rest)
            if body is not None and body is not node:
                other.extend(c for c in node.named_children if c != body)
            continue
        if t in _MEMBER_LISTS:
            inner, rest = _definitions(node.named_children, language, parent)
            defs.extend(inner)
            other.extend(rest)
            continue
        name = _name(node)
        if t in _CLASSES and name is not None:
            body = node.child_by_field_name(_CLASSES[t])
            cls = _Def("class", name, outer, parent)
            if body is not None:
                members, own = _definitions(body.named_children, language, cls)
                cls.members = members
                cls.regions = own + [c for c in node.named_children if c != body]
                extended = any(c.type in _SUPERTYPES for c in node.children) or (
                    _python_bases(node))
                for m in members:
                    m.implicit = m.implicit or (extended and m.kind == "function")
            else:
                cls.regions = [node]
            defs.append(cls)
            continue
        if _is_function(node) and name is not None and _has_body(node):
            fn = _Def("function", name, outer, parent)
            fn.implicit = parent is not None and _implicit(node, name, parent, language)
            fn.regions = [node]
            defs.append(fn)
            continue
        other.append(outer)
    return defs, other


def _unwrap(node: Node) -> Node:
    while node.type in _WRAPPERS:
        inner = node.child_by_field_name("definition") or next(
            (c for c in reversed(node.named_children)
             if c.type in _FUNCTIONS or c.type in _CLASSES or c.type in _WRAPPERS), None)
        if inner is None:
            return node
        node = inner
    if node.type in ("lexical_declaration", "variable_declaration"):
        decls = [c for c in node.named_children if c.type == "variable_declarator"]
        if len(decls) == 1:
            value = decls[0].child_by_field_name("value")
            if value is not None and value.type in _JS_FUNCTION_VALUES:
                return value
    return node


def _is_function(node: Node) -> bool:
    return node.type in _FUNCTIONS or node.type in _JS_FUNCTION_VALUES


def _has_body(node: Node) -> bool:
    return node.child_by_field_name("body") is not None


def _name(node: Node) -> str | None:
    if node.type in _CLASSES:
        name = node.child_by_field_name("name")
    elif node.type in _JS_FUNCTION_VALUES or node.type in _FUNCTIONS:
        name = function_name(node)
    else:
        return None
    if name is None:
        return None
    text = name.text.decode("utf-8", "replace")
    # C++ `int Q::f()` is Q's f; `operator<` and `~Q` keep their own spelling
    return text.rsplit("::", 1)[-1]


def _implicit(node: Node, name: str, parent: _Def, language: str) -> bool:
    """Whether the runtime may call this method of a reached class without naming it."""
    if node.type in _CONSTRUCTORS or name == parent.name or name.startswith("~"):
        return True
    if name in _ROOT_METHODS.get(language, ()):
        return True
    if language == "python":
        return name.startswith("__") and name.endswith("__")
    if language == "cpp" and name.startswith("operator"):
        return True
    words = set()
    for c in node.children:
        if c.type in ("modifiers", "modifier", "virtual", "virtual_specifier", "attribute_list",
                      "marker_annotation", "annotation"):
            words.update(c.text.decode("utf-8", "replace").replace("@", " ").split())
    if node.type == "function_definition":
        declarator = node.child_by_field_name("declarator")
        if declarator is not None:
            words.update(c.type for c in declarator.children)
    return bool(words & {"Override", "override", "virtual", "virtual_specifier", "abstract"})


def _python_bases(node: Node) -> bool:
    if node.type != "class_definition":
        return False
    bases = node.child_by_field_name("superclasses")
    return bases is not None and any(
        b.text not in (b"object",) for b in bases.named_children)


def _walk(defs: Iterable[_Def]) -> Iterator[_Def]:
    for d in defs:
        yield d
        yield from _walk(d.members)


def _entry(parsed: ParsedCode, defs: list[_Def], running: list[Node]
           ) -> tuple[str | None, _Def | None]:
    """The kind of entry point and the function it is, if the unit has one."""
    language = parsed.language
    main_name = _MAIN_NAMES.get(language)
    if main_name is not None:
        for d in _walk(defs):
            if d.kind != "function" or d.name != main_name:
                continue
            if language in ("c", "cpp"):
                if d.parent is None:
                    return "main", d
            elif _is_static(d.node) and parsed.wrapper == "none":
                # a main method given without its class is a method snippet, kept whole
                return "main", d
        if language == "csharp" and any(_active(n) for n in running):
            # C# 9 top-level statements, their local functions the unit's functions
            return "top level", None
        return None, None
    if language in ("python", "javascript") and any(_active(n) for n in running):
        return "top level", None
    return None, None


def _is_static(node: Node) -> bool:
    return any(c.type in ("modifiers", "modifier") and b"static" in c.text.split()
               for c in node.children)


def _active(node: Node) -> bool:
    if node.type not in _ACTIVE:
        return False
    if node.type == "expression_statement":
        kids = node.named_children
        # a docstring, a lone literal or an assignment alone do nothing visible
        return not (len(kids) == 1 and kids[0].type in _INERT)
    return True


def _is_main_guard(node: Node, parsed: ParsedCode) -> bool:
    if parsed.language != "python" or node.type != "if_statement":
        return False
    cond = node.child_by_field_name("condition")
    if cond is None or node.child_by_field_name("alternative") is not None:
        return False
    text = cond.text.decode("utf-8", "replace").replace("'", '"').replace(" ", "")
    return text in ('__name__=="__main__"', '"__main__"==__name__')


def _called_once(parsed: ParsedCode, defs: list[_Def], running: list[Node],
                 guard: Node | None) -> tuple[_Def | None, int | None]:
    """A top-level function without parameters that the top level (or the ``__main__``
    guard) calls as a statement ``f()``, once, and that nothing else names."""
    statements = list(running)
    if guard is not None:
        body = guard.child_by_field_name("consequence")
        if body is not None:
            statements.extend(body.named_children)
    calls: dict[str, list[Node]] = {}
    for s in statements:
        if s.type != "expression_statement" or len(s.named_children) != 1:
            continue
        call = s.named_children[0]
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if call.type == "call" and fn is not None and fn.type == "identifier" and (
                args is not None and not args.named_children):
            calls.setdefault(fn.text.decode(), []).append(s)
    all_names = _identifiers([n for n in parsed.nodes])
    for d in defs:
        found = calls.get(d.name, [])
        if d.kind != "function" or len(found) != 1 or all_names.count(d.name) != 2:
            continue  # its own name and the one call: nothing else refers to it
        params = _unwrap(d.node).child_by_field_name("parameters")
        if params is not None and params.named_children:
            continue
        return d, parsed.position(found[0])[0]
    return None, None


def _identifiers(nodes: Iterable[Node], skip: frozenset[int] = frozenset(),
                 mapped: Callable[[Node], bool] | None = None) -> list[str]:
    """The identifier texts under ``nodes`` (every occurrence), not under a node whose id
    is in ``skip`` (a member, searched on its own) nor under one ``mapped`` says a rewrite
    maps as a whole."""
    out: list[str] = []
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n.id in skip or (mapped is not None and mapped(n)):
            continue
        if n.child_count == 0:
            if "identifier" in n.type or n.type in ("name", "constant"):
                out.append(n.text.decode("utf-8", "replace"))
            continue
        stack.extend(n.children)
    return out


def _reachable(defs: list[_Def], running: list[Node], main: _Def | None,
               mapped: Callable[[Node], bool] | None) -> set[_Def]:
    """The definitions reachable from the entry: ``running`` (the module's own code) and
    ``main``, to a fixed point."""
    all_defs = list(_walk(defs))
    member_ids = frozenset(d.node.id for d in all_defs)
    names: set[str] = set(_identifiers(running, member_ids, mapped))
    kept: set[_Def] = set()

    def keep(d: _Def) -> None:
        kept.add(d)
        names.update(_identifiers(d.regions, member_ids - {d.node.id, _unwrap(d.node).id},
                                  mapped))

    if main is not None:
        p: _Def | None = main
        while p is not None:
            keep(p)
            p = p.parent
    changed = True
    while changed:
        changed = False
        for d in all_defs:
            if d in kept or (d.parent is not None and d.parent not in kept):
                continue
            if d.name in names or (d.kind == "function" and d.implicit):
                keep(d)
                changed = True
    return kept


def _blank(parsed: ParsedCode, dropped: list[_Def], kept: set[_Def]) -> ParsedCode | None:
    """``parsed`` re-parsed with the dropped definitions blanked (newlines kept, so every
    position of the rest is unchanged); ``None`` if that text does not parse cleanly."""
    source = list(parsed.source)
    spans = []
    for d in dropped:
        start, end = parsed.index.char_range(d.node.start_byte, d.node.end_byte)
        spans.append((start, end))
        for i in range(start, end):
            if source[i] not in "\n\r":
                source[i] = " "
    if parsed.language == "python":
        # a class whose every statement was left out needs one to stay a class
        for cls in {d.parent for d in dropped if d.parent is not None}:
            if cls in kept and _empty_after(cls, dropped):
                start = min(s for (s, _), d in zip(spans, dropped, strict=True)
                            if d.parent is cls)
                source[start:start + 4] = list("pass")
    pruned = parse("".join(source), parsed.language, wrapper=own_wrapper(parsed))
    return pruned if pruned.ok else None


def _empty_after(cls: _Def, dropped: list[_Def]) -> bool:
    node = _unwrap(cls.node)
    body = node.child_by_field_name("body")
    if body is None:
        return False
    gone = {d.node.id for d in dropped}
    return all(c.id in gone or c.type == "comment" for c in body.named_children)
