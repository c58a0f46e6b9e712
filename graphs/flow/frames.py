"""The frames the CFG builder (:mod:`graphs.pdg.cfg`) keeps while it walks nested statements:
where ``break``, ``continue``, ``goto case`` and exceptions go."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["BREAK", "CONTINUE", "RETURN", "THROW", "Label", "Loop", "Switch", "Try"]

# The kinds of jump the frames route: node kinds of the CFG, and with a label the keys of
# Try.pending. Named once here so that the builder's modules agree on them.
BREAK, CONTINUE, RETURN, THROW = "break", "continue", "return", "throw"


@dataclass
class Loop:
    labels: frozenset[str]
    breaks: list[int] = field(default_factory=list)
    continues: list[int] = field(default_factory=list)


@dataclass
class Switch:
    labels: frozenset[str]
    breaks: list[int] = field(default_factory=list)
    cases: dict[str, int] = field(default_factory=dict)
    gotos: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Label:
    name: str
    target: int  # id of the syntax node the label applies to (labels nest)
    breaks: list[int] = field(default_factory=list)


@dataclass
class Try:
    catches: list[int]
    has_finally: bool
    in_body: bool = True
    # jumps that leave through the finally: (kind, label) -> their source nodes
    pending: dict[tuple[str, str | None], list[int]] = field(default_factory=dict)
