"""graphs: parsing, normalized ASTs, program dependence graphs, tree and graph edit distance."""

# parsing and the AST tier
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
    grammar_versions,
    known_languages,
)
from graphs.parse.entry import ENTRY_LABEL, Program, unify_entry, what_runs  # noqa: F401  (what runs)
from graphs.parse.parsing import ParsedCode, parse  # noqa: F401
from graphs.pdg.build import GraphTooLarge, build_pdg, pdg_shape, pdg_statements  # noqa: F401  (program dependence graphs)
from graphs.repair.containment import Contained, relabel_unparsed  # noqa: F401
from graphs.repair.tolerant import (  # noqa: F401  (repair and error containment)
    TolerantParse,
    mark_guessed,
    tolerant_parse,
    with_repair_leaf,
    with_repair_node,
)
from graphs.trees.normalized import Tree, normalized_ast  # noqa: F401
from graphs.trees.ted import TEDResult, tree_edit_distance, tree_edit_mapping  # noqa: F401
