"""Lists of tokens in the I/O model (:mod:`graphs.neutral.io`): the neutral read of a list
of tokens (``read_list(int)``) and the positions of a token stream read by index, to
tell a fresh token from the same token read again. Pure functions on lists of strings;
:mod:`graphs.neutral.io` applies them:

- a line's tokens as a list (``list(map(int, input().split()))``, ``[int(x) for x in
  input().split()]``, ``input().split()``, ``line.split(" ").map(Number)``) and a
  comprehension reading one token per element (``[int(next(it)) for _ in range(n)]``,
  ``[int(data[idx + i]) for i in range(n)]``) are one list read, ``read_list(int)``;
- a counted loop whose one statement stores a token read into the next element (``a[i]
  = sc.nextInt()``, ``list.add(...)``, ``cin >> a[i]``, ``scanf("%d", &a[i])``, ``for
  (auto &x : a) cin >> x``) is that list read, and the allocation just before it (``new
  int[n]``, ``new ArrayList<>()``, ``vector<int> a(n)``) is plumbing; a list read takes
  no input (the count is the input's, as Python's line of tokens has none);
- a counted loop from 0 reading one token per iteration (its only read, in a statement it
  always runs; no ``break``, ``continue``, ``return``) reads its tokens first: ``v =
  read_list(int)`` before it, ``v[i]`` where it read. A list walked by a counted loop,
  one element per iteration, is a token stream (``x = xs[i]``, ``int(data[2 + i])``), so
  the loop of a token stream and a list read then walked are one graph;
- a list of lines stays lines (``[int(input()) for _ in range(n)]``, ``a[i] =
  int(input())``): it reads differently at run time;
- a token stream read by index where the counter has not stepped since the previous
  read through it (``k = int(data[idx])`` with the ``idx += 1`` after it forgotten) reads
  the same token again: ``int(token_again())``, not a fresh ``read_int()``;
- ``a, b = int(data[0]), int(data[1])`` is two token reads, as a split line is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graphs.neutral.io_tokens import (
    IO_WORDS,
    READS,
    conversion,
    counter_step,
    list_kind,
    read_spans,
)
from graphs.neutral.tokens import is_local, matching, operand_end, top_level

__all__ = [
    "LIST_READS",
    "TOKEN_KINDS",
    "comprehension_base",
    "comprehension_reads",
    "counted_from_zero",
    "line_list_at",
    "line_lists",
    "list_read_kind",
    "list_store",
    "counted_by_list",
    "read_ahead_site",
    "stale_reads",
]

_READ_CALLS = IO_WORDS - {"print", "write"}
#: the kinds of one token read
TOKEN_KINDS = ("int", "float", "token")
#: element kind -> the neutral tokens of a read of a list of such tokens
LIST_READS = {kind: READS[f"{kind} list"] for kind in TOKEN_KINDS}


def list_read_kind(toks: Sequence[str]) -> str | None:
    """The element kind of ``toks`` when it is one list read (``read_list(int)``).

    >>> list_read_kind(["read_list", "(", "int", ")"]), list_read_kind(["read_int", "(", ")"])
    ('int', None)
    """
    return next((k for k, r in LIST_READS.items() if list(toks) == r), None)


def line_list_at(toks: Sequence[str], i: int) -> tuple[int, str] | None:
    """A list of one line's tokens starting at ``i`` (``list(input().split().map(int))``,
    ``input().split()``): its end and element kind; the longest such operand, or ``None``.

    >>> from graphs.neutral.tokens import split_label
    >>> line_list_at(split_label("v0 = list(input().split().map(int))"), 2)
    (17, 'int')
    >>> line_list_at(split_label("v0 = input().strip()"), 2) is None
    True
    """
    for end in reversed(operand_end(toks, i)):
        part = list(toks[i:end])
        kind = list_kind(part)
        if kind not in TOKEN_KINDS:
            continue
        body = part[2:-1] if part[:2] == ["list", "("] else part
        if body[:3] == READS["line"]:
            return end, kind
    return None


def line_lists(toks: list[str]) -> tuple[list[str], int]:
    """``toks`` with each list of one line's tokens as a list read (``read_list(int)``,
    see :func:`line_list_at`), and how many there were.

    >>> from graphs.neutral.tokens import split_label
    >>> line_lists(split_label('print(input().split(" ").map(int))'))
    (['print', '(', 'read_list', '(', 'int', ')', ')'], 1)
    """
    out = list(toks)
    count = 0
    k = 0
    while k < len(out):
        got = line_list_at(out, k) if out[k] in ("list", "input") and out[
            k + 1:k + 2] == ["("] and not (k and out[k - 1] in (".", "?.")) else None
        if got is not None:  # the longest first: list(...) over input().split()
            out[k:got[0]] = LIST_READS[got[1]]
            count += 1
        k += 1
    return out, count


def comprehension_reads(toks: list[str]) -> tuple[list[str], int]:
    """``toks`` with each list comprehension that reads a list of tokens as one list read:
    ``[read_int() for v in range(n)]`` (a token read per element, the element not using
    the loop's name) and ``[int(v) for v in read_list(str)]`` (a line's tokens, each
    converted). Returns the tokens and how many were rewritten.

    >>> from graphs.neutral.tokens import split_label
    >>> comprehension_reads(split_label("v0 = [read_int() for b0 in range(v1)]"))
    (['v0', '=', 'read_list', '(', 'int', ')'], 1)
    >>> comprehension_reads(split_label("v0 = [int(b0) for b0 in read_list(str)]"))[0][2:]
    ['read_list', '(', 'int', ')']
    """
    out = list(toks)
    count = 0
    k = 0
    while k < len(out):
        if out[k] != "[":
            k += 1
            continue
        close = matching(out, k)
        inner = out[k + 1:close]
        fors = top_level(inner, "for")
        kind = _comprehension_kind(inner, fors[0]) if len(fors) == 1 else None
        if kind is None:
            k += 1
            continue
        out[k:close + 1] = LIST_READS[kind]
        count += 1
        k += 1
    return out, count


def _comprehension_kind(inner: list[str], at: int) -> str | None:
    elem, var, rest = inner[:at], inner[at + 1:at + 2], inner[at + 2:]
    if not var or rest[:1] != ["in"]:
        return None
    name, source = var[0], rest[1:]
    if source[:2] == ["range", "("] and matching(source, 1) == len(source) - 1:
        return next((k for k in TOKEN_KINDS if elem == READS[k]), None)
    of = list_read_kind(source)
    if of is None:
        return None
    if elem == [name]:
        return of
    if len(elem) == 4 and elem[1] == "(" and elem[2:] == [name, ")"] and of == "token":
        return conversion(elem[0])
    return None


def comprehension_base(toks: Sequence[str], inner: Sequence[str]) -> str | None:
    """Where an index ``inner`` of a token list starts when it walks the list in a
    comprehension over ``i in range(...)`` of ``toks``: ``"0"`` for ``[i]``, ``"1"`` for
    ``[1 + i]`` (or ``[i + 1]``), the counter for ``[idx + i]``; ``None`` for any other
    index.

    >>> from graphs.neutral.tokens import split_label
    >>> toks = split_label("v0 = [int(v1[v2 + b0]) for b0 in range(v3)]")
    >>> comprehension_base(toks, ["v2", "+", "b0"]), comprehension_base(toks, ["v2"])
    ('v2', None)
    >>> comprehension_base(toks, ["b0", "+", "1"])
    '1'
    """
    if len(inner) == 1:
        ways = [(inner[0], "0")]
    elif len(inner) == 3 and inner[1] == "+":  # a sum either way round: [1 + i], [i + 1]
        ways = [(inner[2], inner[0]), (inner[0], inner[2])]
    else:
        return None
    for var, base in ways:
        if is_local(var) and (base.isdigit() or is_local(base)) and any(
                list(toks[k:k + 5]) == ["for", var, "in", "range", "("]
                for k in range(len(toks))):
            return base
    return None


def counted_from_zero(head: Sequence[str]) -> str | None:
    """The index of a loop header over ``range(0, n)`` (or ``range(n)``), else ``None``.

    >>> from graphs.neutral.tokens import split_label
    >>> counted_from_zero(split_label("for v1 in range(v2)")), counted_from_zero(
    ...     split_label("for v1 in range(1, v2)"))
    ('v1', None)
    """
    if head[:1] != ["for"] or head[2:5] != ["in", "range", "("] or not is_local(head[1]) \
            or matching(head, 4) != len(head) - 1:
        return None
    args = list(head[5:-1])
    commas = top_level(args, ",")
    return head[1] if commas == [] or commas == [1] and args[0] == "0" else None


def list_store(loop: Sequence[str], store: Sequence[str], by_reference: bool
               ) -> tuple[str, str, bool] | None:
    """A counted loop whose one statement stores a token read into successive elements:
    ``for i in range(0, n)`` over ``a[i] = read_int()`` or ``a.append(read_int())``, or a
    loop over an array's elements by reference (C++ ``for (auto &x : a) cin >> x``: the
    loop ``for x in a``, the store ``x = read_int()``). Returns the array's name, the
    element kind and whether the loop appends; ``None`` for anything else.

    >>> from graphs.neutral.tokens import split_label
    >>> list_store(split_label("for v1 in range(0, v2)"), split_label("v3[v1] = read_int()"),
    ...            False)
    ('v3', 'int', False)
    >>> list_store(split_label("for v1 in range(0, v2)"), split_label("v3[v1] = input()"),
    ...            False) is None
    True
    """
    if loop[:1] != ["for"] or loop[2:3] != ["in"] or not is_local(loop[1]):
        return None
    var, over = loop[1], list(loop[3:])
    counted = over[:4] == ["range", "(", "0", ","] and matching(over, 1) == len(over) - 1 \
        and var not in over
    kind = None
    for k in TOKEN_KINDS:
        r = READS[k]
        if list(store[-len(r):]) == r:
            kind = k
            target = list(store[:-len(r)])
            break
        if list(store[-len(r) - 1:]) == [*r, ")"] and store[1:4] == [".", "append", "("] \
                and len(store) == len(r) + 5 and counted and is_local(store[0]):
            return store[0], k, True
    if kind is None:
        return None
    if counted and len(target) == 5 and target[1:] == ["[", var, "]", "="] \
            and is_local(target[0]):
        return target[0], kind, False
    if by_reference and len(over) == 1 and is_local(over[0]) and target == [var, "="]:
        return over[0], kind, False
    return None


def counted_by_list(head: Sequence[str], name: str) -> tuple[list[str], str] | None:
    """A loop counted from 0 to a local ``n`` whose n tokens were read ahead into the list
    ``name`` runs once per element of that list (it holds exactly n): the header with the
    bound ``len(name)``, and ``n``; ``None`` for a bound that is not one local. So a loop
    that only reads ``name[i]`` becomes the loop over ``name``
    (:func:`graphs.neutral.indexed.indexed_loops` runs next), as a translation that reads a
    line's tokens and walks them (``for x in xs``) writes it.

    >>> from graphs.neutral.tokens import split_label
    >>> counted_by_list(split_label("for v1 in range(0, v2)"), "v9")
    (['for', 'v1', 'in', 'range', '(', '0', ',', 'len', '(', 'v9', ')', ')'], 'v2')
    >>> counted_by_list(split_label("for v1 in range(0, v2 - 1)"), "v9") is None
    True
    """
    bound = list(head[5:-1])
    if bound[:2] == ["0", ","]:
        bound = bound[2:]
    if len(bound) != 1 or not is_local(bound[0]):
        return None
    return [*head[:-2], "len", "(", name, ")", ")"], bound[0]


def read_ahead_site(head: Sequence[str], body: dict[int, list[str]],
                    opaque: set[str | None] | frozenset[str]
                    ) -> tuple[int, int, int, str, str] | None:
    """Where a counted loop from 0 (header ``head``; its statements ``body``, node ->
    tokens) reads its one token per iteration, when it reads nothing else and never leaves
    early (so it reads exactly n tokens, the same as a list of n read before it): ``(node,
    start, end of the read, its kind, the loop's index)``, else ``None``. A body naming
    one of ``opaque`` (the program's own functions, the readers) may read through it: no
    site.

    >>> from graphs.neutral.tokens import split_label
    >>> read_ahead_site(split_label("for v1 in range(0, v2)"),
    ...                 {5: split_label("v3 += read_int() / v4")}, set())
    (5, 2, 5, 'int', 'v1')
    >>> read_ahead_site(split_label("for v1 in range(0, v2)"), {5: split_label(
    ...     "v3 = read_int()"), 6: split_label("solve(v3, v9)")}, {"v9"}) is None
    True
    >>> read_ahead_site(split_label("for v1 in range(0, v2)"), {5: split_label(
    ...     "v3 = read_int()"), 6: split_label("v4 = read_list(int)")}, set()) is None
    True
    """
    var = counted_from_zero(head)
    spans = [(m, a, b) for m, toks in body.items() for a, b in read_spans(toks)]
    reads = [t for toks in body.values() for k, t in enumerate(toks)
             if t in _READ_CALLS and toks[k + 1:k + 2] == ["("]]  # read_list(int) too
    if var is None or len(spans) != 1 or len(reads) != 1 or any(
            toks[:1] in (["break"], ["continue"], ["return"], ["raise"], ["throw"])
            or opaque.intersection(toks) for toks in body.values()):
        return None
    m, a, b = spans[0]
    kind = next((k for k in TOKEN_KINDS if body[m][a:b] == READS[k]), None)
    return None if kind is None else (m, a, b, kind, var)


def stale_reads(order: Sequence[int], toks: dict[int, list[str]], name: str, counter: str,
                loops: dict[int, set[int]]) -> set[int]:
    """The nodes of ``order`` that read the token stream ``name`` at ``counter``
    (``name[counter]``, ``name[counter++]``) where it has not stepped since the last read
    through it: the token read before, not a fresh one. A loop's body is walked with the
    position its previous iteration left (``loops``: header -> the nodes it holds).

    >>> toks = {1: ["v1", "=", "v0", "[", "v9", "]"], 2: ["v9", "+=", "1"],
    ...         3: ["v2", "=", "v0", "[", "v9", "]"], 4: ["v3", "=", "v0", "[", "v9", "]"]}
    >>> sorted(stale_reads([1, 2, 3, 4], toks, "v0", "v9", {}))
    [4]
    """
    stale: set[int] = set()

    def walk(nodes: list[int], fresh: bool, record: bool) -> bool:
        done: set[int] = set()
        for k, n in enumerate(nodes):
            if n in done:
                continue
            if n in loops:
                body = [m for m in nodes[k + 1:] if m in loops[n]]
                done.update(body)
                end = walk(body, True, False)
                fresh = walk(body, fresh and end, record)
                continue
            fresh = _step(toks.get(n, []), name, counter, fresh,
                          stale.add if record else None, n)
        return fresh

    walk(list(order), True, True)
    return stale


def _step(toks: list[str], name: str, counter: str, fresh: bool,
          mark: Callable[[int], None] | None, n: int) -> bool:
    """The stream's state after one statement: a step or a set of the counter makes the
    next read fresh, a read at it uses the position up (marking a read of a used one)."""
    if counter_step(toks, counter):
        return True
    for j in range(len(toks) - 3):
        if toks[j:j + 3] != [name, "[", counter]:
            continue
        after = toks[j + 3:j + 5]
        if after[:1] in (["]"], ["+"]) or after == ["++", "]"]:  # [c + i]: a list from c
            if not fresh and mark is not None:
                mark(n)
            fresh = after == ["++", "]"]
    return fresh
