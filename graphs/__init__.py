"""graphs: parsing, normalized ASTs, program dependence graphs, tree and graph edit distance."""
