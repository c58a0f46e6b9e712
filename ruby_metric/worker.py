"""What a worker process loads before its first pair: imports and compiled kernels.

The scorer's fork server preloads this module once; every worker forked from it then starts
with the parsers' modules imported and the numba kernels of the tree and graph edit distance
already loaded, instead of paying for that per worker.
"""

import graphs
import graphs.ged
import graphs.ted
import ruby_metric.scorer  # noqa: F401 - imported for the workers' benefit

graphs.ted.warm_up()
graphs.ged.warm_up()
for _language in graphs.known_languages():
    graphs.parse("x", _language)
