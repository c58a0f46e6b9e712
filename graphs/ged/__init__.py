"""Graph edit distance (GED) between labelled, typed (multi)graphs: unit or graded node costs.

The GRS tier of RUBY compares program dependence graphs (PDGs) by their edit distance.
Exact GED is NP-hard, so this package combines

* an exact, deterministic depth-first branch and bound over node mappings for tiny graphs
  (compiled with numba), and
* the Riesen–Bunke bipartite approximation for everything else: a linear sum assignment
  over node substitution / deletion / insertion costs that include each node's local edge
  structure, followed by the *exact* cost of the edit path the assignment induces (an upper
  bound). The mapping is then improved deterministically, bounded by size: an integer
  projected fixed point walk (the edit cost is a quadratic assignment objective) and
  best-improvement pairwise swaps, each step scoring all candidates at once.

Every result carries a valid lower bound, so ``lower <= distance <= upper`` and, when the
bounds meet, the result is proven exact whatever method produced it.

Cost model
----------
* node insertion / deletion: 1; with ``node_weight=w`` (weighted costs) the node's label
  weight ``w(label)``, rounded like the substitutions below;
* node substitution: 0 when the labels are equal, else 1 (unit costs, the default); or, with
  ``node_subst_cost=f`` (graded costs), ``f(l1, l2)`` in ``[0, 1]`` (weighted: in
  ``[0, w1 + w2]``) **rounded to the nearest multiple of 1/64** (:data:`GRADED_COST_GRID`; a
  positive cost to at least 1/64), 0 for equal labels;
* edges: between an ordered pair of nodes (unordered for undirected graphs) the edges form a
  multiset of types. When the pair ``(u, v)`` of ``g1`` is mapped onto ``(u', v')`` of ``g2``
  with type multisets ``A`` and ``B``, the cost is ``max(|A|, |B|) - |A ∩ B|`` (retype the
  unmatched edges pairwise, insert or delete the rest). Edges at a deleted (inserted) node
  are deleted (inserted) at cost 1 each.

Hence ``0 <= GED <= graph_size(g1) + graph_size(g2)`` (weighted: the sizes with the same
``node_weight``).

Why graded costs are quantized to a dyadic grid: with every node cost a multiple of 1/64
and every edge cost an integer, all costs, bounds and partial sums the search handles are
multiples of 2**-7 far below 2**53, so floating-point arithmetic on them is *exact*: the
cost of an edit path does not depend on summation order (determinism), pruning compares
exact numbers, ``GEDResult.distance`` equals the sum of its operations' costs to the last
bit, and a lower bound can still be rounded up to the grid the GED lives on (multiples of
1/64 instead of integers; of 1/2, 1/4, ... when every cost is), which is what lets the bounds
meet and prove results exact. The
rounding moves a substitution by at most 1/128, which is below the resolution of a
normalized token edit distance between statements of a few dozen tokens. Unit costs are the
grid of step 1 and take exactly the integer code paths they always did.

Only plain networkx graphs and the standard library, numpy and numba are used: this
package depends on nothing else of ours (the random PDGs :func:`warm_up` runs come from its
own :mod:`graphs.ged.generators`).

Layout, one stage per module
----------------------------
* :mod:`~graphs.ged.results`: :class:`GEDResult`, :class:`EditOperation`, :func:`graph_size`;
* :mod:`~graphs.ged.encoding`: both graphs as integer arrays, graded costs quantized, the
  exact cost of a mapping;
* :mod:`~graphs.ged.bounds`: lower bounds and the bipartite assignment step's cost matrices;
* :mod:`~graphs.ged.assignment`: the linear sum assignment solver (scipy's choices, ties
  included, without importing ``scipy.optimize``);
* :mod:`~graphs.ged.local_search`: fixed-point walk and pairwise swaps;
* :mod:`~graphs.ged.exact`: branch and bound for tiny graphs;
* :mod:`~graphs.ged.paths`: a mapping's edit operations, :func:`edit_path`;
* :mod:`~graphs.ged.distance`: :func:`graph_edit_distance`, the pipeline over the above;
* :mod:`~graphs.ged.warmup`: :func:`warm_up`; :mod:`~graphs.ged.generators`: random PDGs for it,
  the tests and the benchmarks.

numba caches each compiled kernel under its own source file and does not notice when a kernel
it calls from *another* module changes. One kernel crosses modules,
``bounds.graded_label_bound`` (called by ``exact._remaining_bound``): after editing it,
delete ``graphs/ged/__pycache__/exact.*.nb[ci]`` or the exact search keeps the old copy.
"""

from __future__ import annotations

# Public names outside __all__ (defaults, the cost callable's type, warm_up) are
# re-exported too: they were importable from the single-module graphs.ged.
from graphs.ged.distance import (  # noqa: F401
    DEFAULT_EXACT_MAX_EXPANSIONS,
    DEFAULT_EXACT_MAX_NODES,
    graph_edit_distance,
)
from graphs.ged.encoding import GRADED_COST_GRID, NodeSubstCost, NodeWeight  # noqa: F401
from graphs.ged.paths import edit_path
from graphs.ged.results import EditOperation, GEDResult, graph_size
from graphs.ged.warmup import warm_up  # noqa: F401

__all__ = [
    "GRADED_COST_GRID",
    "EditOperation",
    "GEDResult",
    "edit_path",
    "graph_edit_distance",
    "graph_size",
]
