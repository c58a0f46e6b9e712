"""Parsing: source text to a tree-sitter parse in its wrapper, its functions, and what runs."""
