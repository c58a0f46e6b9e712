"""graphs: parsing, normalized ASTs, program dependence graphs, tree and graph edit distance."""

# parsing and the AST tier
from graphs.languages import (  # noqa: E402
    Language,
    UnknownLanguageError,
    get_language,
    get_parser,
    grammar_versions,
    known_languages,
)
from graphs.parsing import ParsedCode, parse  # noqa: E402
from graphs.ted import TEDResult, tree_edit_distance, tree_edit_mapping  # noqa: E402
from graphs.trees import Tree, normalized_ast  # noqa: E402
