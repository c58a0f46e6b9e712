"""Canonical forms, "equal meaning, equal graph": label rewrites, orientation, folding, idioms."""
