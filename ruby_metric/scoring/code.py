"""One side of a pair, prepared once: its tokens, parse, AST and PDG, each built on first use.

Every tier reads the same :class:`Code`, so a text is tokenized and parsed once per pair no
matter how many tiers (or references) use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from numbers import Integral
from typing import TYPE_CHECKING

import crystal

from .fences import Unfenced, unfence

if TYPE_CHECKING:
    from graphs import ParsedCode, TolerantParse
    from graphs.parsing.entry import Program


class NotApplicable(Exception):  # noqa: N818 - it is an outcome, not an error
    """A representation cannot be built; the message is the user-facing reason."""


@dataclass(frozen=True)
class Limits:
    """Size limits per tier; beyond a limit the tier is skipped with a reason, never tried.

    The defaults keep a pair of methods or files well under a second and a few hundred MB;
    only STS on multi-megabyte inputs takes longer (see ``max_tokens``).

    Attributes
    ----------
    max_tokens : bounds STS's work at ``max_tokens ** 2`` token comparisons a pair (token
        Levenshtein is quadratic: a million tokens against a million, about 3 MB of code a
        side, take about 35 s on one core; a typical method pair takes microseconds). Within
        the bound the distance is computed in full; a larger pair gets its exact distance
        when that distance is at most about ``max_tokens ** 2 / (2 * longer side)`` edits
        (nearly identical huge inputs), and STS is skipped with a reason otherwise.
    max_ast_nodes : TRS is skipped above this many normalized AST nodes on a side
        (Zhang–Shasha needs an n x m table).
    max_pdg_nodes : GRS is skipped above this many PDG nodes on a side.
    max_chars : no parse is attempted for texts longer than this.
    max_repair_chars : repair and error containment (``repair=True``) are tried only on
        texts up to this long; a longer text that does not parse as given gets no
        structural tier, as with ``repair=False``. Repair re-parses a text a bounded number
        of times (a few dozen tree-sitter parses at most), which on almost-code of a
        program's size costs milliseconds but on a hostile text near ``max_chars`` would
        cost several times its one strict parse; 50,000 characters is over 1,000 lines,
        more than any model output or program of the benchmark sets (the longest GCJ
        program is 17,713).

    Every limit is a positive integer; anything else raises :class:`ValueError` naming the
    field.

    >>> Limits(max_tokens=-1)
    Traceback (most recent call last):
    ...
    ValueError: Limits.max_tokens must be a positive integer, got -1
    """

    max_tokens: int = 1_000_000
    max_ast_nodes: int = 4_000
    max_pdg_nodes: int = 400
    max_chars: int = 200_000
    max_repair_chars: int = 50_000

    def __post_init__(self) -> None:
        for limit in fields(self):
            value = getattr(self, limit.name)
            # a bool is an int to Python but never a size; a float (1e6) is not an exact count
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
                raise ValueError(
                    f"Limits.{limit.name} must be a positive integer, got {value!r}"
                )


@dataclass
class Code:
    """A text with its language, and its representations built lazily and cached.

    Parameters
    ----------
    text : the code.
    language : canonical language name, or ``None`` for language-agnostic tiers only.
    tokenizer : name of a :mod:`crystal` tokenizer.
    limits : the size limits to respect.
    repair : give a broken text the structural tiers after a bounded repair or with its
        broken statements kept as text (:func:`graphs.tolerant_parse`); ``False`` needs a
        clean parse as given.

    A text that starts with a markdown code fence (model output) is read as the code inside
    it, by every tier (:mod:`ruby_metric.scoring.fences`; :meth:`note` says so).
    """

    text: str
    language: str | None
    tokenizer: str = "code"
    limits: Limits = field(default_factory=Limits)
    repair: bool = True

    _built: dict[str, object] = field(default_factory=dict, init=False, repr=False)

    def _once(self, key: str, build: Callable[[], object]) -> object:
        """Build a representation once; a failure is cached too, so it is never retried."""
        if key not in self._built:
            try:
                self._built[key] = build()
            except NotApplicable as exc:
                self._built[key] = exc
        value = self._built[key]
        if isinstance(value, NotApplicable):
            raise value
        return value

    @property
    def unfenced(self) -> Unfenced:
        """The text with a markdown fence around it blanked (:func:`unfence`): what every
        tier reads."""
        return self._once("unfenced", lambda: unfence(self.text))  # type: ignore[return-value]

    @property
    def tokens(self) -> list[str]:
        """The code's tokens under the configured tokenizer (always available)."""
        return self._once("tokens", lambda: crystal.tokenize(self.unfenced.code,
                                                             self.tokenizer))

    @property
    def interned(self) -> crystal.InternedTokens:
        """:attr:`tokens` as a :class:`crystal.InternedTokens`: what STS and the BLEUs read,
        so a big pair's tokens are numbered once per text (on first use, kept with the text
        as its tokens are) for the edit distance and the n-gram counts alike."""
        return self._once("interned", lambda: crystal.InternedTokens(self.tokens))

    @property
    def parsed(self) -> ParsedCode:
        """The clean parse, as given or repaired; raises :class:`NotApplicable` with the
        reason (the parse error of the text as given) otherwise."""
        structure = self.structure
        clean = structure.clean
        if clean is None:
            raise NotApplicable(structure.original.error or "no clean parse")
        return clean

    @property
    def structure(self) -> TolerantParse:
        """The parse as given with its repair or error containment (``repair`` on), see
        :func:`graphs.tolerant_parse`; raises :class:`NotApplicable` when no parse is tried
        (no language, longer than the limit)."""
        return self._once("structure", self._structure)

    @property
    def program(self) -> Program | None:
        """The clean parse with what never runs from the entry point left out
        (:func:`graphs.parsing.entry.what_runs`; the parse itself for a unit without an entry
        point); ``None`` when there is no clean parse (a statement kept as text: nothing is
        left out of it). Raises :class:`NotApplicable` as :attr:`structure` does."""
        clean = self.structure.clean
        if clean is None:
            return None

        def build() -> Program:
            from graphs.parsing.entry import what_runs

            return what_runs(clean)

        return self._once("program", build)  # type: ignore[return-value]

    def unparsed(self) -> str | None:
        """Why this text does not parse as code in its language: the parse error when
        neither repair nor error containment gives it a structure, or what containment kept
        as text when a statement or header is among it; ``None`` when it parses (as given
        or repaired), is blank (an empty side fails nothing), has only stray closers kept
        as text (a fragment of a function ends with its ``}``), or no parse was tried (no
        language, over a size limit). What the run's language check counts, per side.

        >>> Code("int f() { int x = ; return 1; }", "java").unparsed()
        '1 statement unparsed, kept as text (line 1, col 17)'
        >>> Code("def f(x):\\n    return x +\\n", "python").unparsed()
        'parse error at line 2, col 5'
        >>> [Code(t, "java").unparsed() for t in ("int f() { return 1;", "return 1;\\n}", "")]
        [None, None, None]
        """
        if not self.unfenced.code.strip():
            return None
        try:
            structure = self.structure
        except NotApplicable:
            return None
        if structure.clean is not None:
            return None
        contained = structure.contained
        if contained is None:
            return structure.original.error or "no parse"
        return contained.describe() if contained.unparsed else None

    def note(self, graph: bool = True) -> str | None:
        """What repair or containment did to this text, and what was left out of it as
        never run (for reasons), ``None`` if nothing.

        Parameters
        ----------
        graph : word it for the graph tier (``True``) or the tree tier.

        Returns
        -------
        e.g. ``'repaired (appended "}")'``, ``'left out, never called from main: Helper'``;
        ``None`` also when no parse was tried.

        >>> Code("int f() { return 1;", "java").note()
        'repaired (appended "}")'
        >>> program = "def f(x):\\n    return x\\ndef g():\\n    return 1\\nprint(f(2))\\n"
        >>> Code(program, "python").note()
        'left out, never called from main: g'
        """
        try:
            parts = [self.unfenced.describe(), self.structure.describe(graph=graph)]
            program = self.program
        except NotApplicable:
            return None
        if program is not None:
            parts.append(program.describe())
        return "; ".join(p for p in parts if p) or None

    def _structure(self) -> TolerantParse:
        import graphs

        parsed = self._parse()
        if parsed.ok or not self.repair or len(parsed.source) > self.limits.max_repair_chars:
            return graphs.TolerantParse(parsed)
        return graphs.tolerant_parse(parsed)

    def _parse(self) -> ParsedCode:
        import graphs

        if self.language is None:
            raise NotApplicable("no language given")
        if len(self.text) > self.limits.max_chars:
            raise NotApplicable(
                f"code longer than the limit ({len(self.text)} > {self.limits.max_chars} chars)"
            )
        return graphs.parse(self.unfenced.code, self.language)

    def representation(self, key: str, build: Callable[[Code], object]) -> object:
        """A tier's representation of this text, built by ``build(self)`` at most once."""
        return self._once(key, lambda: build(self))


def canonical_language(language: str | None) -> str | None:
    """The registry's name for ``language`` (``"c#"`` -> ``"cs"``), ``None`` for none.

    Raises
    ------
    ValueError : the language is not in the registry (the message lists the known ones).

    >>> canonical_language("Java"), canonical_language(None)
    ('java', None)
    """
    if language is None:
        return None
    import graphs

    return graphs.get_language(language).name


def default_tokenizer(language: str | None) -> str:
    """The tokenizer a scorer uses for code in ``language`` when none is set explicitly:
    ``"code-python"`` (``#`` comments dropped, indentation as tokens) for Python, ``"code"``
    for every other language and for none.

    >>> default_tokenizer("python"), default_tokenizer("csharp"), default_tokenizer(None)
    ('code-python', 'code', 'code')
    """
    return "code-python" if language == "python" else "code"
