"""Compile every numba kernel now, into numba's cache: ``python -m ruby_metric.kernels``.

The tree and graph edit distances and ``crystal``'s n-gram counter are compiled with numba
(``cache=True``). Compiling them all takes about 25 s of CPU; loading them from the cache takes
a fraction of a second. Building a wheel (``pip install .``, ``pip install ruby-metric`` from a
source distribution) runs this module on the built package, so the cache files ship inside the
installed package and the first ``ruby-metric score`` after the install loads instead of
compiling. numba keys a cache entry by the source file's content hash (not its mtime, in the
numba versions verified here, 0.68), the numba and Python versions and the CPU, so the
shipped cache serves the machine that built the package; anything else is a cache miss and
compiles, never a wrong kernel. A package built elsewhere (a wheel from another machine)
compiles on first use, as usual; run this module once in the image (a Dockerfile ``RUN``
line) to pay that cost at build time instead of in every container.
"""

from __future__ import annotations

import logging
import sys
import time

logger = logging.getLogger(__name__)

#: Every module that defines numba kernels. :func:`build` reaches them through the warm-ups
#: and the pairs below, not by name; :func:`uncompiled` checks that it did, so a kernel moved
#: to a module the warm-ups miss shows up at build time instead of as a slow first run.
KERNEL_MODULES: tuple[str, ...] = (
    "graphs.ged.encoding",
    "graphs.ged.bounds",
    "graphs.ged.assignment",
    "graphs.ged.local_search",
    "graphs.ged.exact",
    "graphs.trees.ted",
    "crystal._fast",
    "crystal.chrf",
)

#: Small pairs that take every path: graph (exact and bipartite GED), tree, string, BLEUs.
_PAIRS: tuple[tuple[str, str, str], ...] = (
    (
        "java",
        "int f(int a){int s = 0; for (int i = 0; i < a; i++) { s += i; } return s;}",
        "int f(int b){int t = 0; int i = 0; while (i < b) { t = t + i; i++; } return t;}",
    ),
    (
        "cs",
        "public int F(int a){if (a > 0) { return a; } return -a;}",
        "public int F(int a){return a > 0 ? a : -a;}",
    ),
    (
        "python",
        "def f(a):\n    return [x * 2 for x in a if x]\n",
        "def f(a):\n    out = []\n    for x in a:\n        out.append(x * 2)\n    return out\n",
    ),
    ("java", "int f(int a){return a +", "int f(int a){return a;}"),
)


def build() -> dict[str, float]:
    """Compile (or load from the cache) every kernel; the seconds each group took.

    Returns
    -------
    ``{"ged": s, "ted": s, "crystal": s, "pairs": s}``.
    """
    import crystal
    import graphs.ged
    import graphs.trees.ted

    from .api.scorer import RubyScorer

    timings = {"ged": graphs.ged.warm_up(), "ted": graphs.trees.ted.warm_up()}
    start = time.perf_counter()
    tokens = crystal.tokenize("int f(int a) { return a + 1; }")
    crystal.sentence_bleu([tokens], tokens[:-2], ignoring={("(",), (")",)})
    crystal.sentence_bleu([tokens, tokens[2:]], tokens)
    crystal.chrf_matrix(["return v0", "v0 = 1"], ["return v1"])
    timings["crystal"] = time.perf_counter() - start
    # Whole pairs, as the scorer calls the kernels: any argument type the warm-ups missed.
    start = time.perf_counter()
    scorers: dict[str, RubyScorer] = {}
    for language, reference, candidate in _PAIRS:
        scorer = scorers.setdefault(language, RubyScorer(language))
        scorer.score(reference, candidate)
        scorer.score(candidate, candidate)
    timings["pairs"] = time.perf_counter() - start
    return timings


def uncompiled() -> list[str]:
    """The :data:`KERNEL_MODULES` in which this process compiled (or loaded) no kernel.

    Kernels called only from other kernels are compiled into their callers, so a module
    counts as reached when at least one of its kernels was; a module that does not import
    is listed too.
    """
    import importlib

    from numba.core.registry import CPUDispatcher

    missing = []
    for name in KERNEL_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            missing.append(name)
            continue
        kernels = [k for k in vars(module).values() if isinstance(k, CPUDispatcher)]
        if not any(k.signatures for k in kernels if k.__module__ == name):
            missing.append(name)
    return missing


def main() -> int:
    """Build the kernels and say how long it took (on stderr)."""
    timings = build()
    parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings.items())
    sys.stderr.write(f"ruby-metric: numba kernels ready ({parts})\n")
    missing = uncompiled()
    if missing:
        # not fatal: the first run compiles what the build missed
        sys.stderr.write(f"ruby-metric: no kernel precompiled in {', '.join(missing)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
