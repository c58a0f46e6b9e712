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
the snippet's own wrapper (:func:`graphs.parsing.parser.own_wrapper`: the class body for a snippet
that starts like a member, else the wrapper its failed parse was read in): an edit of a
few tokens does not change what the snippet is, and a search of every wrapper costs
several parses of broken code.

Whatever was done costs something in the compared structure, so a repaired or contained
candidate never equals a clean reference: a statement kept as text is labelled ``⁇ text``,
and inserted tokens and stray closers become one extra leaf (:func:`with_repair_leaf`) or
node (:func:`graphs.pdg.tolerant.with_repair_node`) labelled ``⁇`` and the tokens.
:func:`tolerant_tree` is the normalized AST of a tolerant parse with all of that done;
:func:`graphs.pdg.tolerant.tolerant_pdg` is its PDG.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphs.lang.languages import get_language
from graphs.parsing.entry import Program, what_runs
from graphs.parsing.parser import ParsedCode, own_wrapper, parse, parse_as
from graphs.repair.containment import (
    MAX_UNPARSED,
    UNPARSED_MARK,
    Contained,
    contain,
    contain_strays,
    error_count,
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
from graphs.trees.normalized import Tree, normalized_ast

__all__ = ["MAX_ERRORS", "NoStructure", "TolerantParse", "repair_label", "tolerant_parse",
           "tolerant_tree", "with_repair_leaf"]

#: Separate errors a parse may have and still be almost-code: each repaired token, stray
#: closer or statement kept as text accounts for one, and no more than these can be made.
MAX_ERRORS = MAX_INSERTED_TOKENS + 2 * MAX_UNPARSED


class NoStructure(ValueError):
    """A tolerant parse that gives no structure to compare: neither a clean parse nor
    contained errors, or a statement kept as text that has no node of its own in the graph
    (its stand-in folded away or unreachable: the graph would hide the broken code). The
    message is the parse error of the text as given (``"no clean parse"`` when it has none).
    """


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


def repair_label(tokens: tuple[str, ...]) -> str:
    """The label of the node standing for inserted tokens: the mark, then the tokens.

    >>> repair_label(("}", "}")), repair_label(())
    ('⁇ } }', '⁇')
    """
    return " ".join((UNPARSED_MARK, *tokens))


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


def tolerant_tree(structure: TolerantParse, program: Program | None = None) -> Tree:
    """The normalized AST of a tolerant parse, as the tree tier compares it: of what runs of
    the clean parse, else of the error-contained parse with each ERROR one leaf labelled with
    its text; with one more leaf (:func:`with_repair_leaf`) for what the repair inserted and
    the stray closers.

    Parameters
    ----------
    structure : what :func:`tolerant_parse` made of the snippet.
    program : what :func:`graphs.what_runs` found in ``structure.clean`` (found here when
        not given).

    Returns
    -------
    The :class:`~graphs.trees.normalized.Tree`.

    Raises
    ------
    NoStructure : when the parse is neither clean nor contained.

    Examples
    --------
    >>> from graphs import parse
    >>> tolerant_tree(tolerant_parse(parse("int f() { return 1;", "java"))).labels[-2:]
    ('⁇ }', 'snippet')
    """
    if program is None and structure.clean is not None:
        program = what_runs(structure.clean)
    if program is not None:
        # what never runs from the entry point is left out (graphs.parsing.entry)
        tree = normalized_ast(program.parsed)
    elif structure.contained is not None:
        # each ERROR subtree one leaf labelled with its text
        tree = normalized_ast(structure.contained.parsed, opaque_errors=True)
    else:
        raise NoStructure(structure.original.error or "no clean parse")
    if structure.marks is not None:
        tree = with_repair_leaf(tree, structure.marks)
    return tree
