"""graphs: parsing, normalized ASTs, program dependence graphs, tree and graph edit distance.

The subpackages, bottom first (each imports only those before it; docs/architecture.md):
``ged`` (graph edit distance, language-free), ``lang`` (grammars, node roles), ``parsing``
(the parser, functions, what runs), ``trees`` (normalized AST, tree edit distance), ``repair``
(repair and error containment of almost-code), ``flow`` (the language-free CFG model),
``canon`` (rewrites to one canonical form: equal meaning, equal graph), ``pdg`` (the CFG
builder, data flow, names, the PDG build) and ``neutral`` (the language-neutral PDG and
AST of source mode). This module is the public face: the names below.
"""

from graphs.ged import (  # noqa: F401  (graph edit distance, GRS tier)
    EditOperation,
    GEDResult,
    edit_path,
    graph_edit_distance,
    graph_size,
)
from graphs.lang.languages import (  # noqa: F401
    Language,
    UnknownLanguageError,
    get_language,
    get_parser,
    get_roles,
    grammar_versions,
    known_languages,
)
from graphs.parsing.entry import Program, what_runs  # noqa: F401  (what runs)
from graphs.parsing.parser import ParsedCode, parse  # noqa: F401
from graphs.pdg.build import (  # noqa: F401  (program dependence graphs)
    GraphTooLarge,
    build_pdg,
    pdg_shape,
    pdg_statements,
)
from graphs.pdg.entry_node import ENTRY_LABEL, unify_entry  # noqa: F401
from graphs.pdg.local_alignment import (  # noqa: F401  (locals paired across two PDGs)
    align_locals,
    common_names,
    rename_locals,
)
from graphs.pdg.tolerant import (  # noqa: F401  (the PDG of a tolerant parse)
    mark_guessed,
    relabel_unparsed,
    tolerant_pdg,
    with_repair_node,
)
from graphs.repair.containment import Contained  # noqa: F401
from graphs.repair.tolerant import (  # noqa: F401  (repair and error containment)
    NoStructure,
    TolerantParse,
    tolerant_parse,
    tolerant_tree,
    with_repair_leaf,
)
from graphs.trees.normalized import Tree, normalized_ast  # noqa: F401
from graphs.trees.ted import TEDResult, tree_edit_distance, tree_edit_mapping  # noqa: F401
