"""Scoring one pair: the code model, the three tiers, GRS's cost model, the metric table,
evidence records, results and the reproducibility signature.

The lowest layer of ``ruby_metric``: it uses ``crystal`` and ``graphs`` and nothing else of
ours. Everything above (reading files, pages, batches, the scorer) builds on it.
"""
