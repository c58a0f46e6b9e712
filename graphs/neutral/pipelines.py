"""Collection pipelines as the loops they stand for, in the neutral PDG.

A list comprehension ``[e for x in xs if c]`` (Python), a filter/map chain
``xs.filter(x => c).map(x => e)`` (JavaScript, Java streams, C# LINQ after the call
table) and the loop that builds the list

    t = []
    for x in xs:
        if c:
            t.append(e)

are one computation; C and C++ (and many Java translations) can only write the loop. So
the neutral PDG writes every such pipeline as that loop: a node ``t = []``, a ``for x in
xs`` node, an ``if c`` node (filters joined with ``and``), a ``t.append(e)`` node, and the
statement that used the pipeline reading ``t`` instead. A generator expression given to a
call (``sum(e for x in xs)``) is the same list given to it.

Dependences of the new nodes follow the loop's: the statement's controllers control the
list and the loop; the loop controls itself (round the loop) and the ``if``, the ``if``
the append; the list's definition and the append reach the statement and the append
(round the loop); the loop defines ``x``; each data dependence the statement had is
moved to the new nodes whose labels read its variable (kept on the statement where it
still reads it).

A sum of a pipeline (``sum(e for x in xs if c)``, Java's ``mapToInt(x -> e).sum()``) or of
a collection (``sum(xs)``) is the loop that accumulates it, as C-family ports write it:
``t = 0``, ``for x in xs``, ``if c``, ``t += e``, and the statement reads ``t`` in place of
the sum; the length of a pipeline's list (``len([x for x in xs if c])``) is the loop that
counts it (``t += 1``), and a string joined without separator (``"".join(e for x in
xs)``) the loop that builds it (``t = ""``, ``t += e``).

Only the simple shapes are expanded: one ``for`` clause, lambdas of one parameter with an
expression body; anything else stays as written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from graphs.neutral.tokens import (
    is_local,
    is_word,
    matching,
    operand_end,
    render_tokens,
    split_label,
    top_level,
)

__all__ = ["Pipeline", "expand", "find_pipeline"]


@dataclass(frozen=True)
class Pipeline:
    """One pipeline found in a label's tokens.

    ``start:end`` is its span in the tokens, ``source`` the collection, ``var`` the
    element's name(s), ``conditions`` the filters, ``value`` the element kept (``None``:
    the element itself), ``total`` whether the span is the pipeline's sum (a reduction),
    ``initial`` the sum's start (``0``, or ``""`` for a string joined without separator).
    """

    start: int
    end: int
    source: list[str]
    var: list[str]
    conditions: list[list[str]]
    value: list[str] | None
    total: bool = False
    initial: str = "0"


def find_pipeline(toks: list[str]) -> Pipeline | None:
    """The first pipeline in ``toks`` (a comprehension or a filter/map chain). A
    ``list(...)`` of it is the list it builds; when it is all a ``sum`` adds up or a ``len``
    counts, the span takes the call in (``total``; a count adds 1 per element)."""
    pipe = _comprehension(toks) or _chain(toks)
    if pipe is None:
        return _plain_sum(toks)
    while True:
        s, e = pipe.start, pipe.end
        call = toks[s - 2] if s >= 2 and toks[s - 1] == "(" and e < len(toks) and \
            toks[e] == ")" and (s < 3 or toks[s - 3] not in (".", "?.")) else None
        if call == "list":
            pipe = replace(pipe, start=s - 2, end=e + 1)  # list(filter(f, xs))
            continue
        if call == "sum":
            return replace(pipe, start=s - 2, end=e + 1, total=True)  # sum(e for x in xs)
        if call == "len":
            return replace(pipe, start=s - 2, end=e + 1, total=True, value=["1"])
        if s >= 2 and toks[s - 2:s] == ["join", "("] and toks[e:e + 3] == [",", '""', ")"] \
                and (s < 3 or toks[s - 3] not in (".", "?.")):
            # "".join(e for x in xs): the string built by +=
            return replace(pipe, start=s - 2, end=e + 3, total=True, initial='""')
        if toks[e:e + 4] == [".", "sum", "(", ")"]:
            return replace(pipe, end=e + 4, total=True)  # xs.map(x => e).sum()
        if toks[e:e + 4] == [".", "count", "(", ")"]:
            return replace(pipe, end=e + 4, total=True, value=["1"])  # a stream's count()
        return pipe


def _plain_sum(toks: list[str]) -> Pipeline | None:
    """``sum(xs)``: the loop adding up the elements of one collection."""
    for i in range(len(toks) - 3):
        if toks[i] != "sum" or toks[i + 1] != "(" or (i and toks[i - 1] in (".", "?.")):
            continue
        close = matching(toks, i + 1)
        inner = toks[i + 2:close]
        ends = operand_end(inner, 0)
        if inner and ends and ends[-1] == len(inner):
            return Pipeline(i, close + 1, inner, ["_"], [], None, total=True)
    return None


def _comprehension(toks: list[str]) -> Pipeline | None:
    for i, t in enumerate(toks):
        if t not in ("[", "("):
            continue
        call = t == "(" and i > 0 and (is_word(toks[i - 1]) or toks[i - 1] in (")", "]"))
        if t == "(" and not call:
            continue
        j = matching(toks, i)
        inner = toks[i + 1:j]
        fors = top_level(inner, "for")
        if len(fors) != 1 or fors[0] == 0:
            continue
        if call and top_level(inner, ","):
            continue  # a generator among other arguments: not the call's only argument
        f = fors[0]
        ins = [k for k in top_level(inner, "in") if k > f]
        if not ins:
            continue
        k = ins[0]
        ifs = [m for m in top_level(inner, "if") if m > k]
        var = inner[f + 1:k]
        source = inner[k + 1:ifs[0]] if ifs else inner[k + 1:]
        conds = []
        for a, m in enumerate(ifs):
            end = ifs[a + 1] if a + 1 < len(ifs) else len(inner)
            conds.append(inner[m + 1:end])
        value = inner[:f]
        if not source or not var or any(not c for c in conds):
            continue
        if call:
            return Pipeline(i + 1, j, source, var, conds, value)
        return Pipeline(i, j + 1, source, var, conds, value)
    return None


def _lambda(args: list[str]) -> tuple[str, list[str]] | None:
    """``x => body`` or ``(x) => body``: (x, body)."""
    if len(args) >= 3 and args[1] == "=>" and is_word(args[0]):
        return args[0], args[2:]
    if len(args) >= 5 and args[0] == "(" and args[2] == ")" and args[3] == "=>":
        return args[1], args[4:]
    return None


def _chain(toks: list[str]) -> Pipeline | None:
    n = len(toks)
    for dot in range(1, n - 3):
        if toks[dot] != "." or toks[dot + 1] not in ("filter", "map") or toks[dot + 2] != "(":
            continue
        start = None
        for s in range(dot):
            if s and toks[s - 1] in (".", "?."):
                continue
            if dot in operand_end(toks, s):
                start = s
                break
        if start is None:
            continue
        source = toks[start:dot]
        var: str | None = None
        conds: list[list[str]] = []
        value: list[str] | None = None
        i = dot
        while i + 2 < n and toks[i] == "." and toks[i + 1] in ("filter", "map") \
                and toks[i + 2] == "(" and value is None:
            close = matching(toks, i + 2)
            lam = _lambda(toks[i + 3:close])
            if lam is None:
                break
            name, body = lam
            if var is not None:
                body = [var if t == name else t for t in body]
            else:
                var = name
            if toks[i + 1] == "filter":
                conds.append(body)
            else:
                value = body
            i = close + 1
        if var is None:
            continue
        return Pipeline(start, i, source, [var], conds, value)
    return None


def _parenthesized(toks: list[str]) -> list[str]:
    ends = operand_end(toks, 0, unary=True)
    return toks if ends and ends[-1] == len(toks) else ["(", *toks, ")"]


def expand(label: str, fresh: list[str]) -> tuple[list[tuple[str, str]], str, str] | None:
    """The loop for the first pipeline of ``label``.

    Parameters
    ----------
    label : a neutral label.
    fresh : unused local names, taken from the front (the list, then each element name
        that is not a local already).

    Returns
    -------
    ``(nodes, statement, list_name)`` or ``None`` (no pipeline): ``nodes`` are ``(kind,
    label)`` of the new nodes in order (list, loop, [if], append), ``statement`` the
    label reading the list instead of the pipeline.

    Examples
    --------
    >>> nodes, statement, name = expand("return [b0 * 2 for b0 in v0 if b0 > 0]",
    ...                                 ["v000_1", "v000_2"])
    >>> [label for _, label in nodes]
    ['v000_1 = []', 'for v000_2 in v0', 'if v000_2 > 0', 'v000_1.append(v000_2 * 2)']
    >>> statement, name
    ('return v000_1', 'v000_1')
    >>> [label for _, label in expand("return sum(b0 for b0 in v0 if b0 > 0)",
    ...                               ["v000_1", "v000_2"])[0]]
    ['v000_1 = 0', 'for v000_2 in v0', 'if v000_2 > 0', 'v000_1 += v000_2']
    """
    toks = split_label(label)
    pipe = find_pipeline(toks)
    if pipe is None:
        return None
    t = fresh.pop(0)
    rename = {}
    for name in pipe.var:
        if name != "," and name not in rename:
            rename[name] = fresh.pop(0) if not is_local(name) or name.startswith("b") \
                else name

    def sub(seq: list[str]) -> list[str]:
        return [rename.get(x, x) for x in seq]

    element = sub(pipe.var)
    nodes = [("declaration", render_tokens([t, "=", *([pipe.initial] if pipe.total
                                                      else ["[", "]"])])),
             ("foreach", render_tokens(["for", *element, "in", *pipe.source]))]
    if pipe.conditions:
        cond: list[str] = []
        for c in pipe.conditions:
            part = sub(c) if len(pipe.conditions) == 1 else _parenthesized(sub(c))
            cond.extend(["and", *part] if cond else part)
        nodes.append(("if", render_tokens(["if", *cond])))
    value = sub(pipe.value) if pipe.value is not None else element
    if pipe.total:
        nodes.append(("statement", render_tokens([t, "+=", *value])))
    else:
        nodes.append(("statement", render_tokens([t, ".", "append", "(", *value, ")"])))
    statement = render_tokens([*toks[:pipe.start], t, *toks[pipe.end:]])
    return nodes, statement, t
