"""Canonical forms of PDG labels: one label for the common rewrites that keep meaning.

GRS compares statements by their labels, so two ways of writing the same statement must
give the same label (SPEC section 3, "equal meaning, equal graph"). :func:`canonical_label`
works on a label as :mod:`graphs.flow.labels` renders it (tokens with canonical spacing) and
applies, in order:

- Redundant parentheses go: a parenthesized atom (``(v0)``, ``(f(v1))``, ``(-1)``) unless
  it is a cast (followed by an operand), and a parenthesized expression that fills a whole
  operand position (after ``=``, ``return``, ``(``, ``,`` ... and before ``)``, ``,``, the
  end): ``return (v0 + 1)`` -> ``return v0 + 1``, ``if ((v0 > 0))`` -> ``if (v0 > 0)``.
- Increments as statements: ``i++``, ``++i``, ``i += 1`` and ``i = i + 1`` are all
  ``i += 1`` (likewise ``--``).
- ``x = x op e`` is ``x op= e`` when ``e`` is an atom or parenthesized (so the rewrite never
  changes how ``e`` groups: ``x = x - a + b`` stays as it is).

Loop headers are made canonical where they are built (:mod:`graphs.pdg.cfg` labels a classic
``for`` condition ``while (...)``, its initializer and update being nodes of their own, as
in the equivalent ``while`` loop).
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphs.flow.labels import CACHED_LABEL_CHARS
from graphs.flow.labels import LABEL_TOKEN as _TOKEN

__all__ = ["canonical_label"]

# After these a parenthesized expression fills a whole operand position.
_OPEN_CONTEXT = frozenset({"", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=",
                           ">>=", ">>>=", "**=", "//=", "return", "(", "[", ",", "yield",
                           "=>", "throw", "raise", "await", "in", ":"})
_CLOSE_CONTEXT = frozenset({"", ")", "]", ",", ";", ":", "?"})
# Keywords whose "(" is syntax, not grouping (the parentheses stay, their content may lose
# a redundant pair).
_HEADER_KEYWORDS = frozenset({"if", "while", "for", "switch", "catch", "foreach", "using",
                              "lock", "synchronized", "fixed", "elif", "do", "sizeof",
                              "typeof", "nameof", "checked", "unchecked", "default",
                              "function", "def", "new", "assert", "print"})
# Words that are operators, not operands: "(x) if c" is no cast.
_KEYWORD_OPERATORS = frozenset({"if", "else", "and", "or", "for", "in", "not", "is",
                                "instanceof", "as"})
_BINARY = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "//", "**")
# The target may hold spaces inside brackets (v0[v1 - 1]++): _canonical checks it is one
# operand.
_INCREMENT = re.compile(r"^(?:(?P<a>[^=]+?)(?P<op>\+\+|--)|(?P<op2>\+\+|--)(?P<b>[^=]+))$")


def canonical_label(label: str) -> str:
    """The canonical form of a rendered statement label (see the module docstring).

    Parameters
    ----------
    label : str
        A label as :func:`graphs.flow.labels.render` writes it.

    Returns
    -------
    str

    Examples
    --------
    >>> canonical_label("v0++"), canonical_label("v0 = v0 + 1"), canonical_label("++v0")
    ('v0 += 1', 'v0 += 1', 'v0 += 1')
    >>> canonical_label("v0[v1][v1 - 1]++"), canonical_label("--v0.v1[v2 + 1]")
    ('v0[v1][v1 - 1] += 1', 'v0.v1[v2 + 1] -= 1')
    >>> canonical_label("v0[v1 - 1] = v0[v1 - 1] * 2")
    'v0[v1 - 1] *= 2'
    >>> canonical_label("v1 = v1 * (v0 + 2)")
    'v1 *= v0 + 2'
    >>> canonical_label("return (v0 + (v1))")
    'return v0 + v1'
    >>> canonical_label("v0 = v0 - v1 + 1"), canonical_label("v0 = (int) v1")
    ('v0 = v0 - v1 + 1', 'v0 = (int) v1')
    """
    # Remembered (short labels): a graph renders many labels twice (its nodes, then each
    # local's naming signature), the two graphs of a pair share most, and the rewrites
    # re-lex the label.
    if len(label) > CACHED_LABEL_CHARS:
        return _canonical(label)
    return _cached_canonical(label)


@lru_cache(maxsize=4096)
def _cached_canonical(label: str) -> str:
    return _canonical(label)


def _canonical(label: str) -> str:
    if "(" in label:
        label = _strip_parentheses(label)
    m = _INCREMENT.match(label)
    if m is not None:
        target = m.group("a") or m.group("b")
        op = m.group("op") or m.group("op2")
        if _is_atom(target):
            return f"{target} {op[0]}= 1"
    if " = " in label:
        label = _compound_assignment(label)
    return label


def _compound_assignment(label: str) -> str:
    target, _, rest = label.partition(" = ")
    if not _is_atom(target) or not rest.startswith(target + " "):
        return label
    tail = rest[len(target) + 1:]
    op, _, operand = tail.partition(" ")
    if op not in _BINARY or not operand:
        return label
    toks = _TOKEN.findall(operand)
    if not _is_atom(operand) and not _wrapped(toks) and not _binds_tighter(toks, op):
        return label
    if _wrapped(toks):
        operand = operand[1:-1]
    return f"{target} {op}= {operand}"


def _binds_tighter(toks: list[str], op: str) -> bool:
    """Every operator outside brackets in ``toks`` binds more tightly than ``op``: then
    ``x op toks`` groups as ``x op (toks)``."""
    limit = _PRECEDENCE_C[op]
    depth = 0
    prev = ""
    for t in toks:
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
        elif depth == 0 and prev and prev not in _PRECEDENCE_C and prev not in "([{,":
            # a binary position (after an operand): a unary "-" follows an operator
            if t in _PRECEDENCE_C and _PRECEDENCE_C[t] <= limit:
                return False
            if t in ("?", ":", "=", "and", "or", "not", "if", "else", "lambda"):
                return False
        prev = t
    return True


def _is_atom(text: str) -> bool:
    """No space outside brackets and strings: one operand, not an operation."""
    depth = 0
    quote = ""
    prev = ""
    for ch in text:
        if quote:
            if ch == quote and prev != "\\":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == " " and depth == 0:
            return False
        prev = ch
    return not text.endswith(",")  # Python's one-element tuple needs its parentheses


def _wrapped(toks: list[str]) -> bool:
    """The tokens are one parenthesized group, ``( ... )``, and nothing else."""
    if len(toks) < 2 or toks[0] != "(" or toks[-1] != ")":
        return False
    depth = 0
    for i, t in enumerate(toks):
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
            if depth == 0 and i != len(toks) - 1:
                return False
    return True


def _strip_parentheses(label: str) -> str:
    """Remove grouping parentheses that change nothing (see the module docstring)."""
    # Token spans, so that removal keeps the label's own spacing elsewhere.
    spans = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(label)]
    toks = [t for _, _, t in spans]
    match: dict[int, int] = {}
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t == "(" or t == "[":
            stack.append(i)
        elif (t == ")" or t == "]") and stack:
            match[stack.pop()] = i
    drop: set[int] = set()
    for i, j in match.items():
        if toks[i] != "(":
            continue
        prev = toks[i - 1] if i > 0 else ""
        if prev and (prev[-1].isalnum() or prev[-1] in "_)]>\"'") \
                and prev not in _OPEN_CONTEXT:
            continue  # a call's or a header's parentheses: syntax, not grouping
        nxt = toks[j + 1] if j + 1 < len(toks) else ""
        inner = label[spans[i][1]:spans[j][0]] if j > i + 1 else ""
        if not inner or inner.endswith(","):
            continue  # (v0,) is a tuple
        # a cast is followed by its operand; a grouped operand by an operator or a closer
        if nxt and (nxt[0].isalnum() or nxt[0] in "_(\"'") and nxt not in _KEYWORD_OPERATORS:
            continue
        if _is_atom(inner) or (prev in _OPEN_CONTEXT and nxt in _CLOSE_CONTEXT):
            drop.update((i, j))
    if not drop:
        return label
    out: list[str] = []
    carried: str | None = None  # the space before a dropped "(" goes to what follows it
    prev_end = 0
    for k, (start, end, tok) in enumerate(spans):
        gap = label[prev_end:start] if carried is None else carried
        carried = None
        prev_end = end
        if k in drop:
            if tok == "(":
                carried = gap
            continue
        out.append(gap + tok)
    return "".join(out).strip()


# --------------------------------------------------------------------------------------------
# Parentheses that precedence makes redundant (read off the syntax tree by the walker)
# --------------------------------------------------------------------------------------------

_PRECEDENCE_C = {
    "*": 12, "/": 12, "%": 12, "+": 11, "-": 11, "<<": 10, ">>": 10, ">>>": 10,
    "<": 9, ">": 9, "<=": 9, ">=": 9, "instanceof": 9, "is": 9, "as": 9, "in": 9,
    "==": 8, "!=": 8, "===": 8, "!==": 8, "&": 7, "^": 6, "|": 5, "&&": 4, "||": 3, "??": 2,
    "and": 4, "or": 3,  # C++'s alternative tokens (Python's table is apart)
    "//": 12, "**": 14,  # (Python's, for the compound-assignment rewrite of labels)
}
_PRECEDENCE_PYTHON = {
    "*": 12, "/": 12, "//": 12, "%": 12, "@": 12, "+": 11, "-": 11, "<<": 10, ">>": 10,
    "&": 7, "^": 6, "|": 5, "<": 4, ">": 4, "<=": 4, ">=": 4, "==": 4, "!=": 4, "in": 4,
    "not in": 4, "is": 4, "is not": 4, "and": 3, "or": 2,
}
_BINARY_TYPES = frozenset({"binary_expression", "binary_operator", "comparison_operator",
                           "boolean_operator"})
# Expressions that need no parentheses whatever they stand in (an operand of their own).
_ATOM_TYPES = frozenset({"identifier", "parenthesized_expression", "number_literal",
                         "integer_literal", "decimal_integer_literal", "string_literal",
                         "string", "integer", "float", "number", "true", "false", "null",
                         "null_literal", "this", "character_literal", "real_literal"})
# Where any binary expression may stand unparenthesized (lower precedence around it).
_OPEN_PARENTS = frozenset({
    "expression_statement", "return_statement", "argument_list", "arguments", "argument",
    "parenthesized_expression", "condition_clause", "ternary_expression",
    "conditional_expression", "variable_declarator", "init_declarator",
    "equals_value_clause", "array_initializer", "initializer_list", "list", "array",
    "keyword_argument", "assignment", "assignment_expression", "augmented_assignment",
    "augmented_assignment_expression", "if_statement", "while_statement", "elif_clause",
    "assert_statement", "yield_statement", "throw_statement", "expression_list",
    "lambda_expression", "lambda", "arrow_function", "list_comprehension",
    "set_comprehension", "generator_expression",  # (their body only: see below)
})
_LAMBDAS = frozenset({"lambda_expression", "lambda", "arrow_function", "list_comprehension",
                      "set_comprehension", "generator_expression"})


def _operator(node) -> str | None:  # type: ignore[no-untyped-def]
    op = node.child_by_field_name("operator")
    if op is not None:
        return op.type
    ops = [c.type for c in node.children if not c.is_named]
    return " ".join(ops) if ops else None


def redundant_parentheses(paren, language: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether a ``parenthesized_expression`` syntax node changes nothing.

    True for a parenthesized atom (``(x)``, ``(f(a))``, ``(1)``) and for a parenthesized
    operation that either stands where any expression may (an assignment's right side, an
    argument, a return value, a condition, a branch of ``?:``) or is an operand of an
    operator that binds more loosely (``a + (b * c)``), or equally on its left
    (``(a - b) - c``). Python's chained comparisons and ``**`` are left alone.

    Parameters
    ----------
    paren : tree_sitter.Node
        A ``parenthesized_expression``.
    language : str
        The canonical language name (precedence tables differ for Python).

    Returns
    -------
    bool

    Examples
    --------
    >>> from graphs import parse
    >>> p = parse("x = a + (b * c) - (d - e);", "java")
    >>> from graphs.lang.syntax import walk
    >>> parens = [n for n in walk(p.nodes[0]) if n.type == "parenthesized_expression"]
    >>> [redundant_parentheses(n, "java") for n in parens]
    [True, False]
    """
    inner = [c for c in paren.named_children if c.type != "comment"]
    parent = paren.parent
    if len(inner) != 1 or parent is None:
        return False
    if language != "python" and (parent.type.endswith(("_statement", "_clause"))
                                 or parent.type.startswith("switch")):
        return False  # if (...), while (...): the statement's own parentheses
    return fits_unparenthesized(inner[0], paren, language)


def fits_unparenthesized(child, slot, language: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether the expression ``child`` written where the syntax node ``slot`` stands
    (a parenthesized expression, or an identifier a folded temporary's value replaces)
    means the same without parentheses around it (see :func:`redundant_parentheses`)."""
    parent = slot.parent
    if parent is None:
        return False
    if child.type in _ATOM_TYPES or child.type.endswith(("call", "invocation",
                                                         "call_expression", "access",
                                                         "member_expression", "attribute",
                                                         "subscript")):
        # an atom needs no parentheses, but a cast's operand position is left alone
        return not parent.type.startswith("cast")
    if child.type not in _BINARY_TYPES:
        return False
    if parent.type in _OPEN_PARENTS:
        # the value, not the target, of an assignment; a lambda's body, not its parameters
        field = None
        for i, c in enumerate(parent.children):
            if c.id == slot.id:
                field = parent.field_name_for_child(i)
        if parent.type in _LAMBDAS:
            return field == "body"
        return field not in ("left", "function", "object")
    if parent.type not in _BINARY_TYPES:
        return False
    table = _PRECEDENCE_PYTHON if language == "python" else _PRECEDENCE_C
    inner_op, outer_op = _operator(child), _operator(parent)
    if inner_op is None or outer_op is None:
        return False
    p_in, p_out = table.get(inner_op), table.get(outer_op)
    if p_in is None or p_out is None or "**" in (inner_op, outer_op):
        return False
    if p_in > p_out:
        return True
    if language == "python" and parent.type == "comparison_operator":
        return False  # (a < b) < c is not a < b < c
    return p_in == p_out and parent.named_children[0].id == slot.id


# --------------------------------------------------------------------------------------------
# Statements that are one statement written in two (a temporary, a split declaration)
# --------------------------------------------------------------------------------------------

_MERGE_TARGETS = frozenset({"return", "statement", "declaration", "if", "throw", "switch"})


def merge_statements(nodes: list, succ: list[list[int]], facts: list, size: int,
                     language: str | None = None) -> set[int]:
    """Fold two adjacent statements that say what one says, in place; the absorbed nodes.

    - A temporary: ``T t = e; return t;`` (``t`` defined once, read once, by the next
      statement) is ``return e;``: the reader gets ``e`` where it read ``t``, in
      parentheses unless precedence makes them redundant (then :func:`canonical_label`
      may still drop them).
    - A split declaration: ``T x; x = e;`` is ``T x = e;``.

    The absorbed node keeps its place in the CFG with no references (a no-op for the data
    flow) and is left out of the PDG. Only straight-line neighbours are folded (the first
    node's only successor is the second, whose only predecessor is the first), never a
    loop header (it is evaluated again on each iteration), never when both statements
    call something (the calls' order could change), and never an effectful value into a
    branch of ``&&``, ``||`` or ``?:`` (it would run on that branch only). Temporaries
    inside the statements of a folded ``if`` are folded earlier, by the CFG builder
    (:mod:`graphs.canon.folding`).

    Parameters
    ----------
    nodes : list of graphs.pdg.cfg.CFGNode
    succ : list of list of int
        CFG successors.
    facts : list of graphs.pdg.dataflow.Facts
        Per PDG node, updated in place.
    size : int
        Number of PDG nodes (``nodes[:size]``; the rest are CFG-only copies).
    language : str, optional
        The canonical language name (operator precedence differs for Python).

    Returns
    -------
    set of int
    """
    from graphs.lang.roles import Ctx

    writes = (Ctx.DECL, Ctx.DEF, Ctx.DEFUSE, Ctx.WEAK)
    preds = [0] * size
    aliased = False
    for n in range(len(succ)):
        if nodes[n].alias is not None:
            aliased = True
        for m in succ[n]:
            if 0 <= m < size:
                preds[m] += 1
    if aliased:
        return set()  # finally copies: their flow is shared, leave them be
    # per name: (defining refs, reading refs) over the snippet (names are per scope, but a
    # fold needs a name seen exactly twice, which makes the scope irrelevant)
    counts: dict[str, list[int]] = {}
    for f in facts[:size]:
        for ref in f.refs:
            if not ref.field:
                c = counts.setdefault(ref.name, [0, 0])
                c[0 if ref.mode in writes else 1] += 1
    absorbed: set[int] = set()
    # split declarations first (T x = e may then be a temporary): the declaration moves
    # down to the first statement that mentions x, when that assigns x
    for n in range(1, size):
        if nodes[n].kind != "declaration" or not facts[n].toks \
                or facts[n].toks[-1].__class__ is not int:
            continue
        name = facts[n].refs[facts[n].toks[-1]].name
        m = _next(n, succ, preds, absorbed, size)
        steps = 0
        while m is not None and m != n and steps < size and not any(
                r.name == name and not r.field for r in facts[m].refs):
            m = _next(m, succ, preds, absorbed, size)
            steps += 1
        if m is None or m == n or nodes[m].kind != "statement":
            continue
        fn, fm = facts[n], facts[m]
        if _split_declaration(fn, fm):
            absorbed.add(n)
            counts[name][0] -= 1
            nodes[m].kind = "declaration"
            nodes[m].first = nodes[n].first if _next(n, succ, preds, absorbed, size) == m \
                else nodes[m].first
    # temporaries, wherever the one read is further down the same straight line, so that
    # the order of independent temporaries does not matter
    for n in range(1, size):
        if n in absorbed or nodes[n].kind not in ("declaration", "statement"):
            continue
        fn = facts[n]
        head = _temporary_head(fn, counts)
        if head is None:
            continue  # not a temporary: no reader below can make it one
        between: list[int] = []
        m = _next(n, succ, preds, absorbed, size)
        while m is not None and m != n and len(between) < size:  # (a goto cycle)
            target = _temporary_read(fm := facts[m], *head)
            if target is not None:
                # (both calling: inlining could change the order of the calls)
                # (an effectful value read in a branch of && or ?: would run only there)
                if nodes[m].kind in _MERGE_TARGETS and not (fn.calls and fm.calls) \
                        and not (fn.calls and _conditional_read(fm.toks, target[0])) \
                        and _movable(fn, between, facts, writes):
                    _inline(fn, fm, *target, language)
                    absorbed.add(n)
                break
            between.append(m)
            m = _next(m, succ, preds, absorbed, size)
    return absorbed


def _next(n: int, succ: list[list[int]], preds: list[int], absorbed: set[int],
          size: int) -> int | None:
    """The statement after ``n`` on a straight line (its only successor, of which it is
    the only predecessor), looking through absorbed nodes; None at a branch or a join."""
    if len(succ[n]) != 1:
        return None
    m = succ[n][0]
    for _ in range(size):
        if not 0 <= m < size or preds[m] != 1 or m == n:
            return None
        if m not in absorbed:
            return m
        if len(succ[m]) != 1:
            return None
        m = succ[m][0]
    return None


def _movable(fn, between: list[int], facts: list, writes: tuple) -> bool:  # type: ignore
    """Whether ``fn``'s value can be computed after the statements ``between`` instead:
    none of them writes what it reads, and calls never change their order."""
    reads = {r.name for r in fn.refs[1:]}
    for k in between:
        f = facts[k]
        if fn.calls and f.calls:
            return False
        if any(r.mode in writes and r.name in reads for r in f.refs):
            return False
    return True


_SHORT_CIRCUIT = frozenset({"&&", "||", "and", "or", "??", "?"})


def _conditional_read(toks: list, at: int) -> bool:
    """Whether the label token ``toks[at]`` may be evaluated only on some paths through
    its statement: after a short-circuit operator or a ``?`` (the statement's first token
    is its keyword), or anywhere in a Python conditional expression."""
    if any(t.__class__ is str and t in _SHORT_CIRCUIT for t in toks[1:at]):
        return True
    return "if" in toks[1:] and "else" in toks[1:]


def _first_var(f) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, t in enumerate(f.toks) if t.__class__ is int)


def _temporary_head(fn, counts) -> tuple[str, int] | None:  # type: ignore[no-untyped-def]
    """``(t, index of t's token)`` when ``fn`` is ``[T] t = e`` with ``t`` defined and read
    once in all: the half of the temporary test that does not depend on the reader (the
    fold tries each statement against every reader down its straight line, so it is
    asked once per statement)."""
    from graphs.lang.roles import Ctx

    decl_mode = Ctx.DECL
    # the test below on t's reference, asked of every reference first: most statements
    # declare nothing, and their tokens need no scan
    if not any(r.mode is decl_mode and not r.field and counts.get(r.name) == [1, 1]
               for r in fn.refs):
        return None
    toks = fn.toks
    decl = [i for i, t in enumerate(toks) if t.__class__ is int]
    if not decl:
        return None
    first = decl[0]
    ref = fn.refs[toks[first]]
    if ref.field or ref.mode != Ctx.DECL or counts.get(ref.name) != [1, 1]:
        return None
    if first + 1 >= len(toks) or toks[first + 1] != "=" or any(
            t.__class__ is int and fn.refs[t].name == ref.name for t in toks[first + 2:]):
        return None
    # every token before t is a type or keyword (T, var, let, const), not an operand
    if any(t.__class__ is int for t in toks[:first]) or sum(
            1 for r in fn.refs if r.mode == Ctx.DECL) != 1:
        return None
    return ref.name, first


def _temporary_read(fm, name: str, first: int) -> tuple[int, int] | None:  # type: ignore
    """``(where fm reads it, start of the value)`` when ``fm`` reads the temporary ``name``
    of :func:`_temporary_head` once, as a value (no method called on it); else None."""
    from graphs.lang.roles import Ctx

    uses = [i for i, t in enumerate(fm.toks) if t.__class__ is int
            and fm.refs[t].name == name and not fm.refs[t].field]
    if len(uses) != 1 or fm.refs[fm.toks[uses[0]]].mode != Ctx.USE:
        return None
    if (name, False) in fm.calls:
        return None  # a method is called on it: an object being used, not a value
    return uses[0], first + 2


def _operand(t) -> bool:  # type: ignore[no-untyped-def]
    """A label token that ends an operand (a variable, a literal, a closing bracket)."""
    return t.__class__ is int or (t != "" and t not in _PRECEDENCE_C and t not in "([{,"
                                  and t not in _OPEN_CONTEXT and t not in _KEYWORD_OPERATORS
                                  and t not in ("!", "~", "?", ":", "not"))


def _loosest(toks: list, table: dict) -> int | None:
    """The precedence of the loosest binary operator outside brackets in ``toks`` (label
    tokens, ints for variables); None when there is none (an operand of its own), 0 when
    some operator binds more loosely than any in ``table`` (``?:``, ``=``, ``lambda``)."""
    depth = 0
    prev = ""
    low: int | None = None
    for t in toks:
        if t.__class__ is int:
            prev = t
            continue
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
        elif depth == 0:
            if t in ("?", ":", "=", "lambda", "if", "else", "not", "=>", ",", "await",
                     "yield") or t.endswith("=") and t not in table:
                return 0
            if _operand(prev) and t in table:
                p = table[t]
                low = p if low is None or p < low else low
        prev = t
    return low


def _needs_parentheses(value: list, before, after, before_binary: bool,  # type: ignore
                       language: str | None) -> bool:
    """Whether ``value`` (label tokens) read between the tokens ``before`` and ``after``
    (a binary operator when ``before_binary``) needs parentheses to keep its grouping.
    True when unsure (the label rewrites may still drop them)."""
    table = _PRECEDENCE_PYTHON if language == "python" else _PRECEDENCE_C
    low = _loosest(value, table)
    if not low:
        return True  # an operand (their parentheses go as redundant) or a loose operator
    if before_binary:
        p = table.get(before)
        if p is None or p >= low or before == "**":
            return True
    elif before.__class__ is int or before not in _OPEN_CONTEXT:
        return True
    if after.__class__ is int:
        return True
    if after in _CLOSE_CONTEXT and after not in ("?", ":"):
        return False
    p = table.get(after)
    return p is None or p > low or after == "**" or (
        language == "python" and p == low and p == 4)  # (a < b) < c: not a chain


def _inline(fn, fm, at: int, value_start: int,  # type: ignore[no-untyped-def]
            language: str | None = None) -> None:
    """Replace the variable token ``fm.toks[at]`` by ``( value of fn )`` (without the
    parentheses where precedence makes them redundant)."""
    # the value's references, renumbered after fm's (the temporary's own declaration goes)
    index: dict[int, int] = {}
    for t in fn.toks[value_start:]:
        if t.__class__ is int and t not in index:
            index[t] = len(fm.refs)
            fm.refs.append(fn.refs[t])
    value = [index[t] if t.__class__ is int else t for t in fn.toks[value_start:]]
    seps = fn.seps[value_start:]
    toks = fm.toks
    before = toks[at - 1] if at > 0 else ""
    after = toks[at + 1] if at + 1 < len(toks) else ""
    before_binary = at > 1 and before.__class__ is str and before in _PRECEDENCE_C \
        and _operand(toks[at - 2])
    if _needs_parentheses(value, before, after, before_binary, language):
        fm.toks[at:at + 1] = ["(", *value, ")"]
        fm.seps[at:at + 1] = [fm.seps[at], "", *seps[1:], ""]
    else:
        fm.toks[at:at + 1] = value
        fm.seps[at:at + 1] = [fm.seps[at], *seps[1:]]
    fm.calls.extend(fn.calls)
    fn.toks.clear()
    fn.seps.clear()
    fn.refs.clear()
    fn.calls.clear()


def _split_declaration(fn, fm) -> bool:  # type: ignore[no-untyped-def]
    """Fold ``T x`` + ``x = e`` into ``T x = e`` in ``fm``; True when done."""
    from graphs.lang.roles import Ctx

    toks = fn.toks
    if not toks or toks[-1].__class__ is not int or "=" in toks:
        return False
    ref = fn.refs[toks[-1]]
    if ref.field or ref.mode != Ctx.DECL or any(t.__class__ is int for t in toks[:-1]):
        return False
    mt = fm.toks
    if len(mt) < 3 or mt[0].__class__ is not int or mt[1] != "=":
        return False
    target = fm.refs[mt[0]]
    if target.name != ref.name or target.field or target.mode != Ctx.DEF or any(
            t.__class__ is int and fm.refs[t].name == ref.name for t in mt[2:]):
        return False
    # fn's declaration, then fm's value: fm's references but its target (declared now)
    refs = list(fn.refs)
    index: dict[int, int] = {}
    for j, r in enumerate(fm.refs):
        if j != mt[0]:
            index[j] = len(refs)
            refs.append(r)
    toks = [*fn.toks, *[index[t] if t.__class__ is int else t for t in mt[1:]]]
    seps = [*fn.seps, *fm.seps[1:]]
    calls = [*fn.calls, *fm.calls]
    fm.toks[:], fm.seps[:], fm.refs[:], fm.calls[:] = toks, seps, refs, calls
    fn.toks.clear()
    fn.seps.clear()
    fn.refs.clear()
    fn.calls.clear()
    return True
