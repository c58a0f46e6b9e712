"""Syntax trees: the normalized AST the tree tier compares, and tree edit distance."""
