"""Tolerant structure: a clean parse, else a bounded repair, else error containment.

:func:`tolerant_parse` is what the structural tiers build from (SPEC section 3, "Tolerant
structure"). In order, each step tried only when the ones before it failed:

1. the parse as it is, when clean;
2. :func:`graphs.repair.insertions.repair`: a few inserted tokens that make it parse;
3. :func:`graphs.repair.containment.contain_strays`: closers with no opener kept as text (and
   what errors remain contained), when there are such;
4. :func:`graphs.repair.containment.contain` on the parse, then on the parse of each other
   wrapper of the language, then after appending the closing brackets a cut-off text lacks
   (so a truncated method with one broken statement is still a graph).

Every edited text (a repair, blanked stray closers, appended brackets) is parsed only in
the snippet's own wrapper (:func:`graphs.parse.parsing.own_wrapper`: the class body for a snippet
that starts like a member, else the wrapper its failed parse was read in): an edit of a
few tokens does not change what the snippet is, and a search of every wrapper costs
several parses of broken code.

Whatever was done costs something in the compared structure, so a repaired or contained
candidate never equals a clean reference: a statement kept as text is labelled ``⁇ text``,
and inserted tokens and stray closers become one extra node (:func:`with_repair_node`) or
leaf (:func:`with_repair_leaf`) labelled ``⁇`` and the tokens.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

import networkx as nx

from graphs.lang.languages import get_language
from graphs.parse.parsing import ParsedCode, own_wrapper, parse, parse_as
from graphs.repair.containment import (
    MAX_UNPARSED,
    UNPARSED_MARK,
    Contained,
    contain,
    contain_strays,
    error_count,
    opaque_label,
)
from graphs.repair.insertions import (
    MAX_INSERTED_TOKENS,
    MAX_REPAIR_ATTEMPTS,
    Insertion,
    Repair,
    closing_brackets,
    open_string,
    repair,
)
from graphs.trees.normalized import Tree

__all__ = ["MAX_ERRORS", "TolerantParse", "mark_guessed", "repair_label", "tolerant_parse",
           "with_repair_leaf", "with_repair_node"]

#: Separate errors a parse may have and still be almost-code: each repaired token, stray
#: closer or statement kept as text accounts for one, and no more than these can be made.
MAX_ERRORS = MAX_INSERTED_TOKENS + 2 * MAX_UNPARSED


@dataclass(frozen=True)
class TolerantParse:
    """What :func:`tolerant_parse` made of a snippet.

    Attributes
    ----------
    original : the parse of the text as given.
    repair : the repair that made it parse, if one was needed and found.
    contained : the error-contained parse, if repair failed and containment worked.
    edits : insertions made before containment, in order (closing brackets appended to a
        cut-off text, a re-indented line...): ``contained`` is of the text they make.
    """

    original: ParsedCode
    repair: Repair | None = None
    contained: Contained | None = None
    edits: tuple[Insertion, ...] = ()

    @property
    def clean(self) -> ParsedCode | None:
        """The clean parse (as given or repaired), ``None`` when there is none."""
        if self.original.ok:
            return self.original
        return self.repair.parsed if self.repair is not None else None

    @property
    def inserted(self) -> tuple[str, ...]:
        """The code tokens inserted (by the repair, or before containment)."""
        if self.repair is not None:
            return self.repair.tokens
        return tuple(t for e in self.edits for t in e.tokens)

    @property
    def marks(self) -> tuple[str, ...] | None:
        """The tokens of the extra opaque node or leaf the structure gets (inserted
        tokens, then stray closers), ``None`` when it gets none (clean as given, or only
        statements kept as text)."""
        strays = self.contained.stray_tokens if self.contained is not None else ()
        if self.repair is None and not self.edits and not strays:
            return None
        return self.inserted + strays

    @property
    def mark_line(self) -> int:
        """The 1-based line of the original text where the first of :attr:`marks` was made
        (the first insertion, else the first stray closer), where a reader finds it."""
        edits = self.repair.edits if self.repair is not None else self.edits
        # the first edit that inserted code (a re-indented line inserts none)
        first = next((e for e in edits if e.tokens and e.inserts), None)
        if first is not None:
            offset = first.inserts[0][0]
            return self.original.source.count("\n", 0, offset) + 1
        if self.contained is not None and self.contained.strays:
            return self.contained.strays[0].line
        return 1

    def written(self) -> tuple[str, tuple[str | None, ...]] | None:
        """The text the structure is built from (the repaired text, or the stand-in text),
        and for each of its characters what the side wrote there: the same character,
        ``""`` where the repair inserted one, the closer where a stray one was blanked,
        ``None`` inside a stand-in. ``None`` when nothing was repaired or contained.

        >>> from graphs import parse
        >>> text, marks = tolerant_parse(parse("int f() { return g(1; }", "java")).written()
        >>> text, "".join("^" if m == "" else " " for m in marks)
        ('int f() { return g(1); }', '                    ^   ')
        """
        text = self.original.source
        marks: list[str | None] = list(text)
        edits = self.repair.edits if self.repair is not None else self.edits
        for edit in edits:
            for offset, piece in sorted(edit.inserts, key=lambda x: x[0], reverse=True):
                text = text[:offset] + piece + text[offset:]
                marks[offset:offset] = [""] * len(piece)
        if self.repair is not None:
            final = self.repair.text
        elif self.contained is not None:
            kept = self.contained
            chars = list(text)
            for u in kept.strays:
                chars[u.start] = " "
            text = "".join(chars)
            for u, piece in sorted(zip(kept.unparsed, kept.pieces, strict=True),
                                   key=lambda x: x[0].start, reverse=True):
                text = text[:u.start] + piece + text[u.end:]
                marks[u.start:u.end] = [None] * len(piece)
            final = kept.stand_in.source
        else:
            return None
        if text != final or len(marks) != len(text):
            return None  # not the text the structure was built from: claim nothing
        return text, tuple(marks)

    @property
    def changed(self) -> bool:
        """Whether anything was repaired or contained."""
        return self.repair is not None or self.contained is not None

    def describe(self, *, graph: bool = True) -> str | None:
        """What was done, for a pair's reasons; ``None`` when nothing was.

        Parameters
        ----------
        graph : word it for the graph tier (data edges approximated) or the tree tier.

        Returns
        -------
        e.g. ``'repaired (appended "}")'`` or ``'1 statement unparsed, kept as text (line 1,
        col 167); data edges from the identifiers it mentions'``.

        Examples
        --------
        >>> from graphs import parse
        >>> tolerant_parse(parse("int f() { return 1;", "java")).describe()
        'repaired (appended "}")'
        """
        if self.repair is not None:
            return f"repaired ({self.repair.description})"
        if self.contained is None:
            return None
        parts = []
        if self.edits:
            parts.append(f"repaired ({'; '.join(e.description for e in self.edits)})")
        parts.append(self.contained.describe())
        n = len(self.contained.unparsed)
        if not n:
            pass  # only stray closers: everything else parsed
        elif graph:
            parts.append("data edges from the identifiers it mentions" if n == 1 else
                         "data edges from the identifiers they mention")
        else:
            parts.append("each ERROR one leaf")
        return "; ".join(parts)


def tolerant_parse(parsed: ParsedCode, *, max_attempts: int = MAX_REPAIR_ATTEMPTS
                   ) -> TolerantParse:
    """Repair or contain a failed parse, within a bounded number of re-parses.

    Parameters
    ----------
    parsed : the parse of the snippet (:func:`graphs.parse`); a clean one is returned as is.
    max_attempts : re-parses for the repair; containment adds at most one parse per
        wrapper of the language, two after appending brackets, and the stray closers'
        tries (:data:`graphs.repair.containment.MAX_STRAY_TRIES`, each a parse and a stand-in).

    Returns
    -------
    The :class:`TolerantParse`; neither ``repair`` nor ``contained`` set when nothing worked.

    Examples
    --------
    >>> from graphs import parse
    >>> t = tolerant_parse(parse("void f() { a = b + * c; d = a; }", "java"))
    >>> t.repair is None, t.contained.unparsed[0].text
    (True, 'a = b + * c;')
    >>> tolerant_parse(parse("void f() { a = (b + c)); d = a; }", "java")).describe()
    '1 unmatched ")" kept as text (line 1, col 23)'
    """
    if parsed.ok or not parsed.source.strip() or error_count(parsed, MAX_ERRORS) > MAX_ERRORS:
        return TolerantParse(parsed)  # clean, or not almost-code: more errors than fixes
    fixed = repair(parsed, max_attempts=max_attempts)
    if fixed is not None:
        return TolerantParse(parsed, repair=fixed)
    kept = contain_strays(parsed)
    if kept is not None:
        return TolerantParse(parsed, contained=kept)
    kept = contain(parsed)
    if kept is not None:
        return TolerantParse(parsed, contained=kept)
    text, language = parsed.source, parsed.language
    for wrapper in get_language(language).wrappers:
        if wrapper.name == parsed.wrapper:
            continue
        kept = contain(parse_as(parsed, wrapper.name))
        if kept is not None:
            return TolerantParse(parsed, contained=kept)
    closers = closing_brackets(parsed, skip_unmatched=True)
    quote = open_string(text) if language != "python" else None
    if quote is not None:
        closers = quote + (closers or "")
    if closers and len(closers) < MAX_INSERTED_TOKENS:
        tail = text.rstrip()[-1:]
        brace = closers.find("}")
        endings = [closers] + ([closers[:brace] + ";" + closers[brace:]] if brace >= 0 and (
            quote is not None or tail not in (";", "{", "}")) and language != "python"
            else [])
        for extra in endings:
            kept = contain(parse(text + extra, language, wrapper=own_wrapper(parsed)))
            if kept is not None:
                edit = Insertion("brackets", ((len(text), extra),), f'appended "{extra}"',
                                 tuple(extra))
                return TolerantParse(parsed, contained=kept, edits=(edit,))
    return TolerantParse(parsed)


def mark_guessed(graph: nx.MultiDiGraph, structure: TolerantParse) -> int:
    """Label each node whose own text the repair edited (a token inserted in it, a stray
    closer blanked out of it) as text, like a statement kept as text: the mark, then what
    the side wrote there (:func:`graphs.repair.containment.opaque_label`), and mark it ``opaque``;
    in place. What the repair guessed is never compared as structure: the inserted ``)``
    of ``print(x`` says the call ends there, which the side never wrote. Whitespace (a
    re-indented line) is no guess; closers appended after the last statement edit no
    statement.

    Parameters
    ----------
    graph : the PDG built from ``structure``'s clean or stand-in parse.
    structure : what :func:`tolerant_parse` made of the side.

    Returns
    -------
    The number of nodes relabelled.

    Examples
    --------
    >>> from graphs import build_pdg, parse
    >>> t = tolerant_parse(parse("int f(int a) { a = g(a; return a; }", "java"))
    >>> g = build_pdg(t.clean)
    >>> mark_guessed(g, t), [g.nodes[n]["label"] for n in g]
    (1, ['int f(int)', 'int v0', '⁇ a = g(a;', 'return v0'])
    """
    written = structure.written()
    if written is None:
        return 0
    text, marks = written
    edited = set()
    for i, (c, m) in enumerate(zip(text, marks, strict=True)):
        if m == "" and not c.isspace():
            edited.add(i)
        elif m and m != c:
            # a stray closer: it belongs to what it stands in, or to the statement it
            # follows on its line (Python's `f(x))` ends the statement before the `)`)
            edited.add(i)
            j = i - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            if j >= 0 and text[j] != "\n":
                edited.add(j)
    if not edited:
        return 0
    edited = sorted(edited)
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    count = 0
    for _, attrs in graph.nodes(data=True):
        own = attrs.get("text") or ""
        line = attrs.get("line")
        if attrs.get("opaque") or not own or not isinstance(line, int) or not (
                1 <= line <= len(starts)):
            continue
        start = text.find(own, starts[line - 1])
        if start < 0:
            continue
        k = bisect_left(edited, start)
        if k < len(edited) and edited[k] < start + len(own):
            end = j = start + len(own)
            while j < len(text) and text[j] in " \t":  # the stray closers right after it
                j += 1
                if marks[j - 1] and marks[j - 1] != text[j - 1]:
                    end = j
            # the label is what the node's own text was written as (a stray after it is the
            # extra node's); the text shown has the stray too
            attrs["label"] = opaque_label("".join(m or "" for m in marks[start:start + len(own)]))
            attrs["text"] = "".join(m or "" for m in marks[start:end])
            attrs["opaque"] = True
            count += 1
    return count


def repair_label(tokens: tuple[str, ...]) -> str:
    """The label of the node standing for inserted tokens: the mark, then the tokens.

    >>> repair_label(("}", "}")), repair_label(())
    ('⁇ } }', '⁇')
    """
    return " ".join((UNPARSED_MARK, *tokens))


def with_repair_node(graph: nx.MultiDiGraph, tokens: tuple[str, ...], line: int = 1
                     ) -> nx.MultiDiGraph:
    """``graph`` with one more node, unconnected, labelled :func:`repair_label` (``kind``
    ``"repair"``): what the repair inserted, so the graph is never equal to a clean one.

    Parameters
    ----------
    graph : a PDG (modified in place and returned).
    tokens : the inserted tokens.
    line : where the first of them was inserted (:attr:`TolerantParse.mark_line`), the
        line the node is shown at.

    Returns
    -------
    The same graph object.
    """
    node = max(graph.nodes, default=-1) + 1
    graph.add_node(node, label=repair_label(tokens), text="", line=line, kind="repair",
                   opaque=True)
    return graph


def with_repair_leaf(tree: Tree, tokens: tuple[str, ...]) -> Tree:
    """``tree`` with one more leaf, the root's last child, labelled :func:`repair_label`.

    >>> t = with_repair_leaf(Tree.from_nested(("snippet", [("a", [])])), (")",))
    >>> t.to_nested()
    ('snippet', [('a', []), ('⁇ )', [])])
    """
    n = len(tree.labels)
    root = n - 1
    parents = tuple(n if p == root else p for p in tree.parents[:-1]) + (n, -1)
    kinds = (*tree.kinds[:-1], "repair", tree.kinds[-1]) if tree.kinds else ()
    positions = (*tree.positions[:-1], None, tree.positions[-1]) if tree.positions else ()
    return Tree(tree.labels[:-1] + (repair_label(tokens), tree.labels[-1]), parents, kinds,
                positions)
