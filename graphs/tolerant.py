"""Tolerant structure: a clean parse, else a bounded repair, else error containment.

:func:`tolerant_parse` is what the structural tiers build from (SPEC section 3, "Tolerant
structure"). In order, each step tried only when the ones before it failed:

1. the parse as it is, when clean;
2. :func:`graphs.repair.repair`: a few inserted tokens that make it parse;
3. :func:`graphs.containment.contain` on the parse, then on the parse of each other
   wrapper of the language, then after appending the closing brackets a cut-off text lacks
   (so a truncated method with one broken statement is still a graph).

Whatever was done costs something in the compared structure, so a repaired or contained
candidate never equals a clean reference: a statement kept as text is labelled ``⁇ text``,
and inserted tokens become one extra node (:func:`with_repair_node`) or leaf
(:func:`with_repair_leaf`) labelled ``⁇`` and the tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from graphs.containment import UNPARSED_MARK, Contained, contain
from graphs.languages import get_language
from graphs.parsing import ParsedCode, parse, parse_as
from graphs.repair import (
    MAX_INSERTED_TOKENS,
    MAX_REPAIR_ATTEMPTS,
    Repair,
    closing_brackets,
    open_string,
    repair,
)
from graphs.trees import Tree

__all__ = ["TolerantParse", "repair_label", "tolerant_parse", "with_repair_leaf",
           "with_repair_node"]


@dataclass(frozen=True)
class TolerantParse:
    """What :func:`tolerant_parse` made of a snippet.

    Attributes
    ----------
    original : the parse of the text as given.
    repair : the repair that made it parse, if one was needed and found.
    contained : the error-contained parse, if repair failed and containment worked.
    appended : closing brackets appended before containment (``""``: none).
    """

    original: ParsedCode
    repair: Repair | None = None
    contained: Contained | None = None
    appended: str = ""

    @property
    def clean(self) -> ParsedCode | None:
        """The clean parse (as given or repaired), ``None`` when there is none."""
        if self.original.ok:
            return self.original
        return self.repair.parsed if self.repair is not None else None

    @property
    def inserted(self) -> tuple[str, ...]:
        """The code tokens inserted (by the repair, or appended before containment)."""
        if self.repair is not None:
            return self.repair.tokens
        return tuple(self.appended)

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
        if self.appended:
            parts.append(f'repaired (appended "{self.appended}")')
        parts.append(self.contained.describe())
        if graph:
            n = len(self.contained.unparsed)
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
        wrapper of the language and two after appending brackets.

    Returns
    -------
    The :class:`TolerantParse`; neither ``repair`` nor ``contained`` set when nothing worked.

    Examples
    --------
    >>> from graphs import parse
    >>> t = tolerant_parse(parse("void f() { a = (b + c)); d = a; }", "java"))
    >>> t.repair is None, t.contained.unparsed[0].text
    (True, 'a = (b + c));')
    """
    if parsed.ok or not parsed.source.strip():
        return TolerantParse(parsed)
    fixed = repair(parsed, max_attempts=max_attempts)
    if fixed is not None:
        return TolerantParse(parsed, repair=fixed)
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
            kept = contain(parse(text + extra, language))
            if kept is not None:
                return TolerantParse(parsed, contained=kept, appended=extra)
    return TolerantParse(parsed)


def repair_label(tokens: tuple[str, ...]) -> str:
    """The label of the node standing for inserted tokens: the mark, then the tokens.

    >>> repair_label(("}", "}")), repair_label(())
    ('⁇ } }', '⁇')
    """
    return " ".join((UNPARSED_MARK, *tokens))


def with_repair_node(graph: nx.MultiDiGraph, tokens: tuple[str, ...]) -> nx.MultiDiGraph:
    """``graph`` with one more node, unconnected, labelled :func:`repair_label` (``kind``
    ``"repair"``): what the repair inserted, so the graph is never equal to a clean one.

    Parameters
    ----------
    graph : a PDG (modified in place and returned).
    tokens : the inserted tokens.

    Returns
    -------
    The same graph object.
    """
    node = max(graph.nodes, default=-1) + 1
    graph.add_node(node, label=repair_label(tokens), text="", line=1, kind="repair",
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
