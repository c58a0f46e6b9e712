"""Language-neutral PDGs and ASTs, to compare a program with its translation into another language.

- :mod:`graphs.neutral.vocabulary`: the shared vocabulary as data (keywords, operators,
  literals, types, AST kinds, the library call table's rows);
- :class:`CallTable`: the immutable call table, extended with :meth:`CallTable.with_entries`;
- :func:`neutral_label`: one PDG label in the shared vocabulary;
- :func:`neutral_pdg`: a whole PDG (labels, counted loops, local names) and its
  :class:`NeutralReport`;
- :func:`neutral_tree`: a normalized AST with node types mapped to shared kinds;
- :mod:`graphs.neutral.io`: the I/O model :func:`neutral_pdg` applies (reads, prints and
  reader plumbing in one vocabulary).
"""

from graphs.neutral.calls import CallEntry, CallTable
from graphs.neutral.labels import LabelMapping, neutral_label
from graphs.neutral.pdg import NeutralReport, neutral_pdg
from graphs.neutral.tokens import fold_identifier, label_weight
from graphs.neutral.trees import neutral_tree

__all__ = [
    "CallEntry",
    "CallTable",
    "LabelMapping",
    "NeutralReport",
    "fold_identifier",
    "label_weight",
    "neutral_label",
    "neutral_pdg",
    "neutral_tree",
]
