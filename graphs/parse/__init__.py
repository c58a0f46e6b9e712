"""Parsing: source text to a tree-sitter parse in its wrapper, the functions in it, and what runs."""
