"""Repair of almost-code: inserted tokens, statements kept as text, and the tolerant parse."""
