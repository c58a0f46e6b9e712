"""The types of a control-flow graph (:class:`CFGNode`, :class:`Unit`, :class:`CFG`, the
virtual exit :data:`EXIT`, :class:`GraphTooLarge`) that :mod:`graphs.pdg.cfg` builds and
:mod:`graphs.pdg.build` reads: apart from the builder so that its statement handlers
(:mod:`graphs.pdg.cfg_loops`, :mod:`graphs.pdg.cfg_switch`, :mod:`graphs.pdg.cfg_try`) can name them
without importing it; :mod:`graphs.pdg.cfg` re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter

from graphs.lang.roles import Ctx

__all__ = ["CFG", "EXIT", "CFGNode", "GraphTooLarge", "Node", "Result", "Unit"]

#: The exit of a unit: a successor id, never a node of its own.
EXIT = -1

Node = tree_sitter.Node
Result = tuple[int | None, list[int]]  # (first node or None if no node, dangling exits)


class GraphTooLarge(ValueError):
    """The graph would have more nodes than the caller's ``max_nodes``."""


@dataclass(slots=True)
class CFGNode:
    """A CFG (and PDG) node before labelling.

    Attributes
    ----------
    kind : str
        ``entry``, ``function``, ``param``, ``statement``, ``declaration``, ``if``,
        ``switch``, ``case``, ``default``, ``while``, ``do``, ``for``, ``foreach``,
        ``break``, ``continue``, ``return``, ``throw``, ``try``, ``catch``, ``finally``,
        ``label``, ``goto``, ``with``, ``yield`` or ``class``.
    parts : tuple of (tree_sitter.Node, Ctx)
        Syntax the label and the defs/uses come from (a compound statement's header only).
    first, last : tree_sitter.Node or None
        First and last syntax node of the source text the node stands for.
    prefix, suffix : tuple of str
        Extra label tokens.
    sep : str or None
        Label token between parts.
    label : str or None
        Fixed label (the entry).
    alias : int or None
        For a CFG-only copy (a ``finally`` body duplicated per continuation): the node it
        copies. Copies are not PDG nodes; their edges count for the original.
    subst : dict or None
        Temporaries folded into this node (:mod:`graphs.canon.folding`): identifier syntax node
        id -> (the temporary's value, whether it needs parentheses there).
    """

    kind: str
    parts: tuple[tuple[Node, Ctx], ...]
    first: Node | None
    last: Node | None
    prefix: tuple[str, ...] = ()
    suffix: tuple[str, ...] = ()
    sep: str | None = None
    label: str | None = None
    alias: int | None = None
    subst: dict | None = None

    @property
    def start(self) -> int:
        """Byte offset used to order nodes (source order)."""
        return -1 if self.first is None else self.first.start_byte


@dataclass(slots=True)
class Unit:
    """One function body (or the top-level statements): analysed on its own.

    ``entry_succ`` holds the entry's successors (an entry that is also a statement of the
    enclosing unit keeps its own successors there); ``nodes`` excludes the entry.
    ``scope`` groups units that share local-variable renaming (a function and the
    functions nested in it).
    """

    entry: int
    scope: int
    entry_succ: list[int] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)


@dataclass(slots=True)
class CFG:
    """The CFG of a snippet: nodes in source order, successor lists, units.

    PDG nodes come first (``0 .. pdg_size - 1``, in source order); CFG-only copies (see
    :attr:`CFGNode.alias`) follow.

    ``succ[n]`` may contain :data:`EXIT` (the exit of ``n``'s unit). ``functions`` lists the
    entries of top-level functions when the snippet has several (they hang off node 0).
    ``fallback_types`` are statement types the role table did not know (built as plain);
    ``plain_types`` all statement types that were built as one plain node (known or not).
    """

    nodes: list[CFGNode]
    succ: list[list[int]]
    units: list[Unit]
    functions: list[int] = field(default_factory=list)
    fallback_types: set[str] = field(default_factory=set)
    pdg_size: int = 0
    plain_types: set[str] = field(default_factory=set)
    true_succ: dict[int, int] = field(default_factory=dict)
    #: Label substitutions of the canonical idioms (graphs.canon.idioms), for every node.
    subst: dict = field(default_factory=dict)

    def canonical(self, nid: int) -> int:
        """The PDG node a CFG node stands for (itself unless it is a copy)."""
        alias = self.nodes[nid].alias
        return nid if alias is None else alias
