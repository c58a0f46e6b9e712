"""Error-contained structure: a statement that does not parse is kept as its text.

A model's output often has one broken statement in an otherwise fine method (a stray ``)``,
``returncopylen``). When every ERROR and MISSING node of a parse lies inside one statement
of a statement list (a block, a function body, a switch group, the snippet's top level),
:func:`contain` replaces each such statement by a *stand-in*: a call
``__ruby_unparsed_0(a, a, b, b)`` of the identifiers the statement mentions, which parses.
The PDG of the stand-in text is the PDG of the code with each broken statement as one
opaque node; :func:`graphs.pdg.tolerant.relabel_unparsed` then labels those nodes with the
statement's text (``⁇ br.Column = (short)(j + mbr.FirstColumn))``). Their data edges are
approximated: the statement reads every identifier it mentions (each is passed twice, so no
single-use temporary is folded into it) and defines none; as a call it is ordered with the
other calls of unknown effect.

A broken *header* is kept as text with its body structured: when the errors of a compound
statement (``if``, a loop, ``switch``) or of a function lie before its body, the header
alone becomes the stand-in (``if (__ruby_unparsed_0(a, a)) {...}``, a loop's header a
``while``; a function's header ``void __ruby_unparsed_0(int a) {...}`` with the parameters
that parsed, so the body still names them), and its node is labelled with the header's text.
A closer with no opener of its kind open (``f(a));``, a ``}`` that ends a method early) is
kept as text too (:func:`contain_strays`): it is blanked out of the parsed text and stands
for one extra opaque node.

An error in a class member that is not a function, in a statement that holds a block of
statements (a broken statement swallowing the next ones), or spanning several statements
is not contained: :func:`contain` returns ``None`` and the structural tiers do not apply,
as for any parse error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import tree_sitter

from graphs.lang.languages import get_roles
from graphs.lang.roles import LanguageRoles, Role
from graphs.lang.syntax import leaves, walk
from graphs.parsing.functions import function_parameters
from graphs.parsing.parser import ParsedCode, own_wrapper, parse
from graphs.trees.normalized import OPAQUE_MARK

__all__ = ["MAX_STRAY_TRIES", "MAX_UNPARSED", "STAND_IN", "UNPARSED_MARK", "Contained",
           "Unparsed", "contain", "contain_strays", "error_count", "opaque_label",
           "stray_closers"]

#: Statements and headers :func:`contain` keeps as text at most; more is not "almost code".
MAX_UNPARSED = 3
#: Sets of stray closers :func:`contain_strays` tries at most (one parse each).
MAX_STRAY_TRIES = 3
#: Prefix of the label of a statement kept as text (and of an AST leaf of an ERROR), so it
#: never equals the label of a statement that parsed.
UNPARSED_MARK = OPAQUE_MARK
#: The name every stand-in call (or function) starts with, then its index in ``unparsed``.
STAND_IN = "__ruby_unparsed_"
_ROOTS = frozenset({"module", "program", "translation_unit", "compilation_unit"})
_WRAPPED = frozenset({"global_statement"})
_NAME = re.compile(r"@?[A-Za-z_$][\w$]*\Z")
#: A compound statement's role -> the header its stand-in is (a loop's is a ``while``).
_HEADERS = {Role.IF: "if", Role.WHILE: "while", Role.FOR: "while", Role.FOREACH: "while",
            Role.SWITCH: "switch"}
#: Statements with a header of their own and a body.
_COMPOUND = frozenset({*_HEADERS, Role.WITH, Role.TRY, Role.DO})
#: ``;`` a header of that role holds (a classic ``for``'s two).
_HEADER_SEMICOLONS = {Role.FOR: 2}
#: Function types whose header can be a stand-in; the rest (lambdas, accessors) cannot.
_FUNCTION_STAND_INS = {
    "method_declaration": "void", "constructor_declaration": "void",
    "local_function_statement": "void", "destructor_declaration": "void",
    "operator_declaration": "void", "conversion_operator_declaration": "void",
    "function_definition": "void", "function_declaration": "function",
    "generator_function_declaration": "function", "method_definition": "",
}
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {c: o for o, c in _OPENERS.items()}


@dataclass(frozen=True)
class Unparsed:
    """One statement, header or stray closer kept as text.

    Attributes
    ----------
    text : its source text.
    line, col : 1-based position of the first error inside it, in the snippet.
    start, end : its character range in the snippet.
    identifiers : the identifiers it mentions, in order of first mention.
    kind : ``"statement"``; ``"header"``, a compound statement's header (its body
        structured); ``"function"``, a function's header; ``"stray"``, a closer with no
        opener (no node of its own: one extra opaque node stands for the strays).
    """

    text: str
    line: int
    col: int
    start: int
    end: int
    identifiers: tuple[str, ...]
    kind: str = "statement"


@dataclass(frozen=True)
class Contained:
    """A parse whose errors are contained in single statements or headers.

    Attributes
    ----------
    parsed : the parse with its errors (what the AST tier reads, each ERROR a leaf).
    stand_in : the clean parse of the text with each broken statement or header replaced
        by a stand-in.
    unparsed : the statements and headers kept as text, in order.
    strays : the closers with no opener kept as text (blanked in ``parsed``), in order.
    pieces : the stand-in text of each of ``unparsed``, in order.
    """

    parsed: ParsedCode
    stand_in: ParsedCode
    unparsed: tuple[Unparsed, ...]
    strays: tuple[Unparsed, ...] = ()
    pieces: tuple[str, ...] = ()

    def describe(self) -> str:
        """A reason for a reader, e.g. ``'1 statement unparsed, kept as text (line 1, col
        167)'``, ``'1 header unparsed, kept as text (...)'``, ``'1 unmatched ")" kept as
        text (...)'``."""
        parts = []
        counts = []
        for kind, word in (("statement", "statement"), ("header", "header"),
                           ("function", "function header")):
            n = sum(u.kind == kind for u in self.unparsed)
            if n:
                counts.append(f"{n} {word}{'s' if n > 1 else ''}")
        if counts:
            where = "; ".join(f"line {u.line}, col {u.col}" for u in self.unparsed)
            parts.append(f"{' and '.join(counts)} unparsed, kept as text ({where})")
        if self.strays:
            closers = " ".join(f'"{u.text}"' for u in self.strays)
            where = "; ".join(f"line {u.line}, col {u.col}" for u in self.strays)
            parts.append(f"{len(self.strays)} unmatched {closers} kept as text ({where})")
        return "; ".join(parts)

    @property
    def stray_tokens(self) -> tuple[str, ...]:
        """The stray closers, in order (what the extra opaque node is labelled with)."""
        return tuple(u.text for u in self.strays)


def opaque_label(text: str) -> str:
    """The label of a statement kept as text: the mark, then its text on one line.

    >>> opaque_label("x = f(a));\\n")
    '⁇ x = f(a));'
    """
    # a lone surrogate (malformed input) becomes U+FFFD: labels are compared as text
    flat = " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")
    return f"{UNPARSED_MARK} {flat}"


def _errors(parsed: ParsedCode) -> list[tree_sitter.Node]:
    """The outermost ERROR nodes and the MISSING nodes of the tree, in order. A named leaf
    of no width under an error is MISSING too (tree-sitter does not always flag an
    identifier it invented, as in ``a.;``)."""
    out = []
    for node in walk(parsed.tree.root_node, _holds_error):
        if node.is_error or node.is_missing:
            out.append(node)
        elif node.has_error:
            for child in node.children:
                if (child.is_named and not child.child_count
                        and child.start_byte == child.end_byte):
                    out.append(child)
    return sorted(set(out), key=lambda n: (n.start_byte, n.end_byte))


def _holds_error(node: tree_sitter.Node) -> bool:
    """Whether an error lies below ``node`` that is not ``node`` itself."""
    return node.has_error and not (node.is_error or node.is_missing)


def error_count(parsed: ParsedCode, limit: int) -> int:
    """The number of separate errors of a parse (its outermost ERROR and its MISSING nodes),
    counted up to ``limit + 1`` at most (a hostile text has thousands).

    >>> from graphs import parse
    >>> error_count(parse("int f() { a = (b; c = ); }", "java"), 10)
    2
    """
    count = 0
    for node in walk(parsed.tree.root_node, _holds_error):
        if node.is_error or node.is_missing:
            count += 1
            if count > limit:
                break
    return count


def _body(node: tree_sitter.Node, error: tree_sitter.Node, roles: LanguageRoles
          ) -> tree_sitter.Node | None:
    """The body of a function or compound statement ``node`` when ``error`` lies in its
    header (before the body, after nothing of it), else ``None``."""
    if node.type in roles.functions:
        if node.type not in _FUNCTION_STAND_INS:
            return None
        body = node.child_by_field_name(roles.functions[node.type])
    elif roles.statements.get(node.type) in _HEADERS:
        body = node.child_by_field_name("body") or node.child_by_field_name("consequence")
        if body is None:  # the field lost in the recovery: the first block after the error
            body = next((c for c in node.children if c.type in roles.blocks
                         and c.start_byte >= error.end_byte), None)
    else:
        return None
    if body is None or body.start_byte < error.end_byte or error.start_byte < node.start_byte:
        return None
    return body


def _unit(error: tree_sitter.Node, roles: LanguageRoles, lists: frozenset[str]
          ) -> tuple[tree_sitter.Node, str, tree_sitter.Node | None] | None:
    """What holds ``error``: ``(statement, "statement", None)`` for the child of a statement
    list, ``(node, "header" | "function", body)`` when it is in the header of a compound
    statement or function met first; ``None``: neither."""
    cur = error
    while cur.parent is not None:
        parent = cur.parent
        if parent.type in lists or (parent.parent is None and parent.type in _ROOTS):
            return cur, "statement", None
        if parent.type in _WRAPPED and parent.parent is not None and (
                parent.parent.parent is None):
            return parent, "statement", None
        body = _body(parent, error, roles)
        if body is not None:
            return parent, "function" if parent.type in roles.functions else "header", body
        cur = parent
    return None


def _holds_statements(node: tree_sitter.Node, lists: frozenset[str]) -> bool:
    """Whether ``node`` has a statement list inside it, or several ``;``-ended pieces."""
    semicolons = 0
    for child in node.children:
        for n in walk(child):
            if n.type in lists:
                return True
            if n.type == ";" and not n.is_missing:
                semicolons += 1
    return semicolons > 1


def _header_swallows(node: tree_sitter.Node, body: tree_sitter.Node, roles: LanguageRoles
                     ) -> bool:
    """Whether the header of ``node`` (before ``body``) holds more than a header: a brace,
    or more ``;`` than its kind has (a broken header that swallowed statements)."""
    allowed = _HEADER_SEMICOLONS.get(roles.statements.get(node.type), 0)
    header = list(leaves(node, node.start_byte, body.start_byte))
    if any(leaf.type in ("{", "}") for leaf in header):
        return True
    return sum(leaf.type == ";" for leaf in header) > allowed


def _python_lines(text: str) -> int:
    """Logical lines of Python text: line breaks outside brackets and strings end one
    (a rough lexical count; an unterminated string ends at its line's end)."""
    lines, depth, quote = 1, 0, ""
    for k, line in enumerate(text.split("\n")):
        if k and depth == 0 and line.strip():
            lines += 1
        quote = ""
        for c in line:
            if quote:
                if c == quote:
                    quote = ""
            elif c in "\"'":
                quote = c
            elif c == "#":
                break
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                depth = max(0, depth - 1)
    return lines


def contain(parsed: ParsedCode, *, max_unparsed: int = MAX_UNPARSED) -> Contained | None:
    """Keep each broken statement or header of a parse as text, when every error is inside
    one.

    Parameters
    ----------
    parsed : a parse that is not clean (:func:`graphs.parse`'s best attempt).
    max_unparsed : at most this many statements and headers are kept as text.

    Returns
    -------
    The :class:`Contained` parse, or ``None`` when an error is outside a statement or
    header (a class member), spans several statements, there are too many, nothing would
    be left as structure (every statement broken), or the stand-in text does not parse
    either.

    Examples
    --------
    >>> from graphs import parse
    >>> c = contain(parse("void f() { a = (b + c)); d = a; }", "java"))
    >>> c.describe(), c.unparsed[0].text, c.unparsed[0].identifiers
    ('1 statement unparsed, kept as text (line 1, col 23)', 'a = (b + c));', ('a', 'b', 'c'))
    >>> c = contain(parse("void f() { if (a >) { d = a; } }", "java"))
    >>> c.describe(), c.unparsed[0].text
    ('1 header unparsed, kept as text (line 1, col 19)', 'if (a >) ')
    >>> contain(parse("void f( { d = 1; }", "java")).describe()
    '1 function header unparsed, kept as text (line 1, col 8)'
    >>> contain(parse("void f() { d = 1; if (a) { e = (b +; }", "java")) is None
    True
    """
    if parsed.ok or not parsed.nodes:
        return None
    roles = get_roles(parsed.language)
    lists = roles.blocks | roles.switch_groups
    lo, hi = parsed.span
    units: dict[int, tuple[tree_sitter.Node, str, tree_sitter.Node | None,
                           tree_sitter.Node]] = {}
    for error in _errors(parsed):
        if error.end_byte <= lo or error.start_byte >= hi:
            return None  # in the wrapper's text: the snippet ends or starts badly
        found = _unit(error, roles, lists)
        if found is None:
            return None
        node, kind, body = found
        if node.start_byte < lo or node.end_byte > hi:
            return None
        units.setdefault(node.start_byte, (node, kind, body, error))
        if len(units) > max_unparsed:
            return None
    if not units:
        return None
    source = parsed.source
    unparsed: list[Unparsed] = []
    for node, kind, body, error in units.values():
        if body is None:
            if _holds_statements(node, lists) or (
                    parsed.language == "python" and _python_lines(parsed.node_text(node)) > 1):
                return None
            start, end = parsed.source_range(node)
            nxt = node.next_sibling
            if node.is_error and nxt is not None and nxt.type == ";" and not nxt.is_missing:
                end = parsed.source_range(nxt)[1]  # the stray tokens and the `;` after them
            names = _identifiers([node], roles.identifiers, parsed)
        else:
            if _header_swallows(node, body, roles):
                return None
            start = parsed.source_range(node)[0]
            end = parsed.source_range(body)[0]
            if parsed.language == "python" and _python_lines(source[start:end]) > 1:
                return None
            names = () if kind == "function" else _identifiers(
                [c for c in node.children if c.end_byte <= body.start_byte],
                roles.identifiers, parsed)
        line, col = parsed.position(error)
        unparsed.append(Unparsed(source[start:end], line, col, start, end, names, kind))
    unparsed.sort(key=lambda u: u.start)
    for a, b in zip(unparsed, unparsed[1:], strict=False):
        if b.start < a.end:
            return None
    if not _structure_left(parsed, unparsed, roles):
        return None  # nothing would be left as structure: the whole snippet is text
    forms = {parsed.source_range(n)[0]: _form(n, kind, roles, parsed)
             for n, kind, _, _ in units.values() if kind != "statement"}
    pieces = [_stand_in(k, u, parsed.language, forms.get(u.start, ("", "")))
              for k, u in enumerate(unparsed)]
    stand_in = parse(_stand_in_text(source, unparsed, pieces), parsed.language)
    if not stand_in.ok:
        return None
    return Contained(parsed, stand_in, tuple(unparsed), pieces=tuple(pieces))


def _structure_left(parsed: ParsedCode, unparsed: list[Unparsed], roles: LanguageRoles
                    ) -> bool:
    """Whether something of the snippet is left as structure: a statement outside
    everything kept as text, or a function or compound statement whose own header parsed
    (a function whose every statement is broken still has its signature)."""
    lists = roles.blocks | roles.switch_groups
    top = {(n.start_byte, n.end_byte) for n in parsed.nodes}
    stack = list(reversed(parsed.nodes))
    while stack:
        node = stack.pop()
        if node.type in roles.comments or node.is_error:
            continue
        start, end = parsed.source_range(node)
        outside = all(end <= u.start or start >= u.end for u in unparsed)
        statement = node.parent is not None and node.parent.type in lists or (
            (node.start_byte, node.end_byte) in top)
        if statement and node.type not in roles.blocks:
            if outside:
                return True
            headed = node.type in roles.functions or roles.statements.get(node.type) in _COMPOUND
            if headed and not any(u.start == start for u in unparsed):
                return True  # its header parsed; only (some of) its body is text
        if outside or not any(u.start <= start and end <= u.end for u in unparsed):
            stack.extend(reversed(node.named_children))  # look inside for statements
    return False


def _identifiers(nodes: list[tree_sitter.Node], types: frozenset[str], parsed: ParsedCode
                 ) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        if node.type in types or node.type == "identifier":
            name = parsed.node_text(node)
            if _NAME.match(name) and not name.startswith(STAND_IN):
                seen.setdefault(name, None)
        else:
            stack.extend(reversed(node.children))
    return tuple(seen)


def _form(node: tree_sitter.Node, kind: str, roles: LanguageRoles, parsed: ParsedCode
          ) -> tuple[str, str]:
    """What the stand-in of a header needs: ``(keyword, parameters)``: a function's
    keyword (``void``, ``function``, ``def``; none for a JavaScript method) and the text of
    its parameters that parsed; a compound statement's ``if``, ``while`` or ``switch``."""
    if kind == "function":
        keyword = "def" if parsed.language == "python" else _FUNCTION_STAND_INS[node.type]
        params = ", ".join(" ".join(parsed.node_text(p).split())
                           for p in function_parameters(node, roles) if not p.has_error)
        return keyword, params
    if kind == "header":
        return _HEADERS[roles.statements[node.type]], ""
    return "", ""


def _stand_in(k: int, u: Unparsed, language: str, form: tuple[str, str]) -> str:
    """The text standing for ``u``: a call of its identifiers (each twice), in the
    statement or header form of its kind; its line breaks kept inside the parentheses so
    later lines keep their number, a header's trailing whitespace kept."""
    breaks = "\n" * u.text.count("\n")
    name = f"{STAND_IN}{k}"
    keyword, params = form
    tail = u.text[len(u.text.rstrip()):] or " "
    colon = ":" if language == "python" else ""
    if u.kind == "function":
        return f"{keyword} {name}({params}{breaks}){colon}{tail}".lstrip()
    args = ", ".join(f"{a}, {a}" for a in u.identifiers)
    call = f"{name}({args}{breaks})"
    if u.kind == "header":
        if language == "python":
            return f"{keyword} {call}:{tail}"
        return f"{keyword} ({call}){tail}"
    return call + ("" if language == "python" else ";")


def _stand_in_text(source: str, unparsed: list[Unparsed], pieces: list[str]) -> str:
    """``source`` with each unparsed statement or header replaced by its stand-in."""
    out = []
    last = 0
    for u, piece in zip(unparsed, pieces, strict=True):
        out.append(source[last:u.start])
        out.append(piece)
        last = u.end
    out.append(source[last:])
    return "".join(out)


def stray_closers(parsed: ParsedCode) -> list[tuple[tuple[int, str], ...]]:
    """Sets of closers to keep as text, most likely first: the closers with no opener of
    their kind open (``f(a));``), then, when there is one such, each earlier closer of its
    kind in turn, latest first (a ``}`` that ended a method early); at most
    :data:`MAX_STRAY_TRIES` sets of at most :data:`MAX_UNPARSED` closers, each closer as
    ``(character offset, closer)``.

    >>> from graphs import parse
    >>> stray_closers(parse("int f() { return g(a)); }", "java"))
    [((21, ')'),), ((20, ')'),), ((6, ')'),)]
    """
    lo, hi = parsed.span
    opened: list[str] = []
    closers: list[tuple[int, str]] = []
    strays: list[tuple[int, str]] = []
    for leaf in leaves(parsed.tree.root_node, lo, hi):
        kind = leaf.type
        if leaf.start_byte < lo or leaf.end_byte > hi:
            continue
        if kind in _OPENERS:
            opened.append(kind)
        elif kind in _CLOSERS:
            at = (parsed.source_range(leaf)[0], kind)
            if _CLOSERS[kind] not in opened:
                strays.append(at)
                if len(strays) > MAX_UNPARSED:
                    return []
            else:
                while opened.pop() != _CLOSERS[kind]:
                    pass  # the openers above it are never closed: repair's business
                closers.append(at)
    if not strays:
        return []
    # the last stray is the one most likely misplaced (it is matched against the end of the
    # snippet): the alternatives put it on each earlier closer of its kind, latest first
    tries = [tuple(strays)]
    last = strays[-1]
    tries.extend(tuple(sorted((*strays[:-1], c))) for c in reversed(closers)
                 if c[1] == last[1] and c[0] < last[0])
    return tries[:MAX_STRAY_TRIES]


def contain_strays(parsed: ParsedCode) -> Contained | None:
    """Keep the closers with no opener as text: blank them out (same length, so every
    other offset stays), and take the result if it parses, or if :func:`contain` keeps its
    remaining errors (parsed in the snippet's own wrapper,
    :func:`graphs.parsing.parser.own_wrapper`).
    Of the sets of :func:`stray_closers` that work, the one that keeps the fewest statements
    as text and then leaves the fewest top-level pieces wins (the first such): a snippet that
    is one method stays one method, rather than a method closed early and a statement after
    it.

    Returns
    -------
    The :class:`Contained` parse with ``strays`` set, or ``None``.

    Examples
    --------
    >>> from graphs import parse
    >>> c = contain_strays(parse("void f() { g(a)); }", "java"))
    >>> c.describe(), c.stand_in.ok, c.stray_tokens
    ('1 unmatched ")" kept as text (line 1, col 16)', True, (')',))
    """
    if parsed.ok:
        return None
    source, language, wrapper = parsed.source, parsed.language, own_wrapper(parsed)
    best: tuple[tuple[int, int], Contained] | None = None
    for tried in stray_closers(parsed):
        chars = list(source)
        for offset, _ in tried:
            chars[offset] = " "
        blanked = parse("".join(chars), language, wrapper=wrapper)
        kept = Contained(blanked, blanked, ()) if blanked.ok else contain(blanked)
        if kept is None:
            continue
        strays = []
        for offset, closer in tried:
            line = source.count("\n", 0, offset) + 1
            col = offset - source.rfind("\n", 0, offset)
            strays.append(Unparsed(closer, line, col, offset, offset + 1, (), "stray"))
        cost = (len(kept.unparsed), len(kept.stand_in.nodes))
        if best is None or cost < best[0]:
            best = (cost, replace(kept, strays=tuple(strays)))
        if cost[0] == 0 and cost[1] <= 1:
            break  # all parsed, in one piece: the snippet closes where it ends
    return None if best is None else best[1]
