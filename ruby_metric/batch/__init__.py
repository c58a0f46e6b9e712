"""Scoring many pairs: chunks, clean worker processes, the reusable worker pool, streaming and
crash recovery."""
