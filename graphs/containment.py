"""Error-contained structure: a statement that does not parse is kept as its text.

A model's output often has one broken statement in an otherwise fine method (a stray ``)``,
``returncopylen``). When every ERROR and MISSING node of a parse lies inside one statement
of a statement list (a block, a function body, a switch group, the snippet's top level),
:func:`contain` replaces each such statement by a *stand-in*: a call
``__ruby_unparsed_0(a, a, b, b)`` of the identifiers the statement mentions, which parses.
The PDG of the stand-in text is the PDG of the code with each broken statement as one
opaque node; :func:`relabel_unparsed` then labels those nodes with the statement's text
(``⁇ br.Column = (short)(j + mbr.FirstColumn))``). Their data edges are approximated: the
statement reads every identifier it mentions (each is passed twice, so no single-use
temporary is folded into it) and defines none; as a call it is ordered with the other calls
of unknown effect.

An error in a function header, in a class member, or in a statement that holds a block of
statements (an ``if`` whose condition is broken) is not contained: :func:`contain` returns
``None`` and the structural tiers do not apply, as for any parse error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import networkx as nx
import tree_sitter

from graphs.parsing import ParsedCode, parse
from graphs.roles import get_roles
from graphs.trees import OPAQUE_MARK

__all__ = ["MAX_UNPARSED", "UNPARSED_MARK", "Contained", "Unparsed", "contain",
           "opaque_label", "relabel_unparsed"]

#: Statements :func:`contain` keeps as text at most; more is not "almost code".
MAX_UNPARSED = 3
#: Prefix of the label of a statement kept as text (and of an AST leaf of an ERROR), so it
#: never equals the label of a statement that parsed.
UNPARSED_MARK = OPAQUE_MARK
_STAND_IN = "__ruby_unparsed_"
_ROOTS = frozenset({"module", "program", "translation_unit", "compilation_unit"})
_WRAPPED = frozenset({"global_statement"})
_NAME = re.compile(r"@?[A-Za-z_$][\w$]*\Z")


@dataclass(frozen=True)
class Unparsed:
    """One statement kept as text.

    Attributes
    ----------
    text : its source text.
    line, col : 1-based position of the first error inside it, in the snippet.
    start, end : its character range in the snippet.
    identifiers : the identifiers it mentions, in order of first mention.
    """

    text: str
    line: int
    col: int
    start: int
    end: int
    identifiers: tuple[str, ...]


@dataclass(frozen=True)
class Contained:
    """A parse whose errors are contained in single statements.

    Attributes
    ----------
    parsed : the parse with its errors (what the AST tier reads, each ERROR a leaf).
    stand_in : the clean parse of the text with each broken statement replaced by a call.
    unparsed : the statements kept as text, in order.
    """

    parsed: ParsedCode
    stand_in: ParsedCode
    unparsed: tuple[Unparsed, ...]

    def describe(self) -> str:
        """A reason for a reader, e.g. ``'1 statement unparsed, kept as text (line 1, col
        167)'``."""
        n = len(self.unparsed)
        where = "; ".join(f"line {u.line}, col {u.col}" for u in self.unparsed)
        return f"{n} statement{'s' if n > 1 else ''} unparsed, kept as text ({where})"


def opaque_label(text: str) -> str:
    """The label of a statement kept as text: the mark, then its text on one line.

    >>> opaque_label("x = f(a));\\n")
    '⁇ x = f(a));'
    """
    # a lone surrogate (malformed input) becomes U+FFFD: labels are compared as text
    flat = " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")
    return f"{UNPARSED_MARK} {flat}"


def _errors(parsed: ParsedCode) -> list[tree_sitter.Node]:
    """The outermost ERROR nodes and the MISSING nodes of the tree, in order."""
    out = []
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            out.append(node)
        elif node.has_error:
            stack.extend(reversed(node.children))
    return out


def _statement(node: tree_sitter.Node, lists: frozenset[str]) -> tree_sitter.Node | None:
    """The child of a statement list that holds ``node`` (``None``: not in a statement)."""
    cur = node
    while cur.parent is not None:
        parent = cur.parent
        if parent.type in lists or (parent.parent is None and parent.type in _ROOTS):
            return cur
        if parent.type in _WRAPPED and parent.parent is not None and (
                parent.parent.parent is None):
            return parent
        cur = parent
    return None


def _holds_statements(node: tree_sitter.Node, lists: frozenset[str]) -> bool:
    """Whether ``node`` has a statement list inside it, or several ``;``-ended pieces."""
    stack = list(node.children)
    semicolons = 0
    while stack:
        n = stack.pop()
        if n.type in lists:
            return True
        if n.type == ";" and not n.is_missing:
            semicolons += 1
        stack.extend(n.children)
    return semicolons > 1


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
    """Keep each broken statement of a parse as text, when every error is inside one.

    Parameters
    ----------
    parsed : a parse that is not clean (:func:`graphs.parse`'s best attempt).
    max_unparsed : at most this many statements are kept as text.

    Returns
    -------
    The :class:`Contained` parse, or ``None`` when an error is outside a statement (a
    header, a class member), spans several statements, there are too many, every top-level
    statement is broken (nothing would be structure), or the stand-in text does not parse
    either.

    Examples
    --------
    >>> from graphs import parse
    >>> c = contain(parse("void f() { a = (b + c)); d = a; }", "java"))
    >>> c.describe(), c.unparsed[0].text, c.unparsed[0].identifiers
    ('1 statement unparsed, kept as text (line 1, col 23)', 'a = (b + c));', ('a', 'b', 'c'))
    >>> contain(parse("void f( { d = 1; }", "java")) is None
    True
    """
    if parsed.ok or not parsed.nodes:
        return None
    roles = get_roles(parsed.language)
    lists = roles.blocks | roles.switch_groups
    lo, hi = parsed.span
    statements: dict[int, tuple[tree_sitter.Node, tree_sitter.Node]] = {}
    for error in _errors(parsed):
        if error.end_byte <= lo or error.start_byte >= hi:
            return None  # in the wrapper's text: the snippet ends or starts badly
        stmt = _statement(error, lists)
        if stmt is None or stmt.start_byte < lo or stmt.end_byte > hi:
            return None
        statements.setdefault(stmt.start_byte, (stmt, error))
        if len(statements) > max_unparsed:
            return None
    if not statements:
        return None
    source = parsed.source
    unparsed: list[Unparsed] = []
    for stmt, error in statements.values():
        if _holds_statements(stmt, lists) or (
                parsed.language == "python" and _python_lines(parsed.node_text(stmt)) > 1):
            return None
        start, end = parsed.source_range(stmt)
        nxt = stmt.next_sibling
        if stmt.is_error and nxt is not None and nxt.type == ";" and not nxt.is_missing:
            end = parsed.source_range(nxt)[1]  # the stray tokens and the `;` after them
        line, col = parsed.position(error)
        unparsed.append(Unparsed(source[start:end], line, col, start, end,
                                 _identifiers(stmt, roles.identifiers, parsed)))
    unparsed.sort(key=lambda u: u.start)
    for a, b in zip(unparsed, unparsed[1:], strict=False):
        if b.start < a.end:
            return None
    if all(any(u.start <= parsed.source_range(n)[0] < u.end for u in unparsed)
           for n in parsed.nodes if n.type not in roles.comments):
        return None  # nothing would be left as structure: the whole snippet is text
    text = _stand_in_text(source, unparsed, parsed.language)
    stand_in = parse(text, parsed.language)
    if not stand_in.ok:
        return None
    return Contained(parsed, stand_in, tuple(unparsed))


def _identifiers(stmt: tree_sitter.Node, types: frozenset[str], parsed: ParsedCode
                 ) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    stack = [stmt]
    while stack:
        node = stack.pop()
        if node.type in types or node.type == "identifier":
            name = parsed.node_text(node)
            if _NAME.match(name) and not name.startswith(_STAND_IN):
                seen.setdefault(name, None)
        else:
            stack.extend(reversed(node.children))
    return tuple(seen)


def _stand_in_text(source: str, unparsed: list[Unparsed], language: str) -> str:
    """``source`` with each unparsed statement replaced by a call of its identifiers (each
    twice), its line breaks kept inside the parentheses so later lines keep their number."""
    end = "" if language == "python" else ";"
    out = []
    last = 0
    for k, u in enumerate(unparsed):
        args = ", ".join(f"{name}, {name}" for name in u.identifiers)
        breaks = "\n" * u.text.count("\n")
        out.append(source[last:u.start])
        out.append(f"{_STAND_IN}{k}({args}{breaks}){end}")
        last = u.end
    out.append(source[last:])
    return "".join(out)


def relabel_unparsed(graph: nx.MultiDiGraph, contained: Contained) -> int:
    """Label the stand-in nodes of a PDG built from ``contained.stand_in`` with the text
    of their statement (:func:`opaque_label`), and mark them ``opaque``; in place.

    Parameters
    ----------
    graph : the PDG of ``contained.stand_in`` (:func:`graphs.build_pdg`).
    contained : what :func:`contain` returned.

    Returns
    -------
    The number of nodes relabelled.

    Examples
    --------
    >>> from graphs import build_pdg, parse
    >>> c = contain(parse("void f(int b) { a = (b + 1)); g(a); }", "java"))
    >>> g = build_pdg(c.stand_in)
    >>> relabel_unparsed(g, c), [g.nodes[n]["label"] for n in g][2]
    (1, '⁇ a = (b + 1));')
    """
    count = 0
    for _, attrs in graph.nodes(data=True):
        for k, u in enumerate(contained.unparsed):
            if f"{_STAND_IN}{k}(" in attrs.get("text", ""):
                attrs["label"] = opaque_label(u.text)
                attrs["text"] = u.text
                attrs["opaque"] = True
                count += 1
                break
    return count
