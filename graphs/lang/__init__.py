"""Languages: the tree-sitter grammars, the roles of their syntax nodes, and syntax-tree helpers."""
