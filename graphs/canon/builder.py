"""The CFG builder as the rewrites see it: the members folding and the idioms rely on.

The CFG builder (:mod:`graphs.pdg.cfg`) is one class made of mixins: its core, the compound
statements (:mod:`graphs.pdg.cfg_loops`, :mod:`graphs.pdg.cfg_switch`,
:mod:`graphs.pdg.cfg_try`) and two canonical-form rewrites that sit one layer below it,
:class:`graphs.canon.folding.ConditionalFolding` and
:class:`graphs.canon.idioms.IdiomRewrites`. Those two use, of the rest of the builder, only
the members of :class:`CFGBuilder` (tests/test_cfg_extensions.py reads their code to check
it), and the builder class subclasses :class:`CFGBuilder`, so that a missing member fails
the first build rather than the first snippet that reaches it.

The other way round, the builder calls these hooks of the rewrites:

- :class:`~graphs.canon.folding.ConditionalFolding`: ``conditional`` (an ``if`` as one
  statement with a conditional expression), ``switch_fold`` (a ``switch`` whose every case
  returns), and reads ``fold_end`` (the last statement they folded);
- :class:`~graphs.canon.idioms.IdiomRewrites`: ``swapped_if`` (an ``if`` read in the other
  orientation), ``indexed_header`` and ``indexed_while_loop`` (an indexed loop read as its
  ``foreach``), ``idiom_subst`` (every label substitution) and ``skip_label_search``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Protocol

import tree_sitter

from graphs.lang.roles import Ctx, LanguageRoles
from graphs.parsing.parser import ParsedCode

__all__ = ["CFGBuilder"]

Node = tree_sitter.Node
#: One ``switch`` group: its labels (each a list of nodes), its statements, and whether
#: control falls through from its end into the next group.
SwitchGroup = tuple[list[list[Node]], list[Node], bool]


class CFGBuilder(Protocol):
    """What the CFG builder offers the rewrites mixed into it.

    Attributes
    ----------
    parsed : the parse being built.
    roles : the node roles of its language.
    """

    parsed: ParsedCode
    roles: LanguageRoles

    @abstractmethod
    def new_node(self, kind: str, parts: Sequence[tuple[Node, Ctx]], first: Node | None,
                 last: Node | None, *, prefix: tuple[str, ...] = (),
                 suffix: tuple[str, ...] = (), sep: str | None = None,
                 label: str | None = None, member: bool = True,
                 subst: dict | None = None) -> int:
        """A new CFG node of ``kind`` labelled from ``parts`` (syntax and how each is read),
        spanning ``first`` to ``last``; its id. A second build of the same syntax (a
        ``finally`` copy) is an alias of the first. ``subst`` holds label substitutions
        (syntax node id -> (value, parenthesize)). Raises
        :class:`graphs.GraphTooLarge` past the node limit."""

    @abstractmethod
    def jump(self, srcs: list[int], kind: str, label: str | None,
             depth: int | None = None) -> None:
        """Send the nodes ``srcs`` where a jump of ``kind`` (``return``, ``break``,
        ``continue``, ``throw``; ``label`` for a labelled one) goes from the current frames
        (through any ``finally`` on the way)."""

    @abstractmethod
    def named_items(self, node: Node) -> list[Node]:
        """The named children of ``node``, comments left out."""

    @abstractmethod
    def last_body(self, node: Node) -> Node | None:
        """The body of a clause: its ``body`` field, else its last named child when that is
        a block or a statement."""

    @abstractmethod
    def switch_groups(self, body: Node) -> list[SwitchGroup]:
        """The groups of a ``switch`` body, in order (statements before any label are a
        group of their own, with no labels)."""

    @abstractmethod
    def is_default(self, parts: list[Node]) -> bool:
        """Whether the label made of ``parts`` is ``default`` (Python's ``case _``)."""

    @abstractmethod
    def oriented(self, cond: Node, then: list, other: list) -> tuple[list, list]:
        """A conditional's branches in the canonical orientation of ``cond``, its label
        substitutions registered (:func:`graphs.canon.orientation.condition_orientation`)."""
