"""Benchmark of graphs.ged: time per pair, bound quality, and networkx for comparison.

Run ``python benchmarks/bench_ged.py`` (``--help`` for options). Prints, for random
PDG-shaped graph pairs of 10/20/40/80 nodes:

* ours: ms per pair (median, p90), how often the result is proven exact, the mean gap
  between the bounds;
* networkx's ``optimize_graph_edit_distance`` first result (its anytime search, the way
  codegen-metrics' RUBY uses it): ms and distance, as ratios to ours (time: networkx / ours;
  distance: networkx / ours, >1 means networkx's first answer is worse);
* the same pairs with graded node costs (``node_subst_cost``: normalized token edit distance
  between statement labels, precomputed so that a call is a lookup and the time is the
  GED's): ms, proven exact, gap, and the ratio graded / unit of the median times
  (``--no-graded`` to skip);
* on tiny graphs, networkx's exact ``graph_edit_distance`` against our exact search;
* with ``--real``, real PDG pairs (gold vs model output of CodeXGLUE Java->C#) when
  ``graphs.build_pdg`` and ``../shared/datasets`` are available.

Timings are single-process, one run, on whatever machine this is: ratios matter more than
absolute numbers. Graphs are compared as DiGraphs for networkx (parallel edges merged into
one combined type, the same for both sides) because networkx's GED does not treat parallel
edges as multisets.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from pathlib import Path

import networkx as nx
import numpy as np

from graphs.ged import graph_edit_distance
from graphs.ged.generators import STATEMENTS, mutate_pdg, random_pdg

NX_COSTS = {
    "node_subst_cost": lambda a, b: 0 if a.get("label") == b.get("label") else 1,
    "node_del_cost": lambda a: 1,
    "node_ins_cost": lambda a: 1,
    "edge_subst_cost": lambda a, b: 0 if a.get("type") == b.get("type") else 1,
    "edge_del_cost": lambda a: 1,
    "edge_ins_cost": lambda a: 1,
}


def _tokens(label: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]+", label)


def _token_distance(a: list[str], b: list[str]) -> float:
    """Levenshtein distance of two token lists over the longer length (0 when both empty)."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1] / max(len(a), len(b), 1)


class TokenCosts:
    """Graded substitution costs: normalized token edit distance between labels.

    Precomputed over a vocabulary (a scorer would batch them too, e.g. with rapidfuzz's
    ``cdist``), so that a call is a table lookup and the times measure the GED itself.
    """

    def __init__(self, vocab: list[str]) -> None:
        self.index = {label: i for i, label in enumerate(vocab)}
        tokens = [_tokens(label) for label in vocab]
        self.table = np.array([[_token_distance(a, b) for b in tokens] for a in tokens])

    def __call__(self, labels1: list, labels2: list) -> np.ndarray:
        index = self.index
        return self.table[np.ix_([index[a] for a in labels1], [index[b] for b in labels2])]


def candidate_like(rng: random.Random, g: nx.MultiDiGraph, k: int) -> nx.MultiDiGraph:
    """A variant of ``g`` after k random edits, with fresh node ids (no free alignment)."""
    h = mutate_pdg(rng, g, k)
    order = sorted(h.nodes)
    rng.shuffle(order)
    return nx.relabel_nodes(h, {v: 10_000 + k for k, v in enumerate(order)})


def simple(g: nx.MultiDiGraph) -> nx.DiGraph:
    """DiGraph with parallel edges merged into one edge of combined type."""
    h = nx.DiGraph()
    h.add_nodes_from(g.nodes(data=True))
    types: dict = {}
    for u, v, t in g.edges(data="type"):
        types.setdefault((u, v), []).append(t)
    for (u, v), ts in types.items():
        h.add_edge(u, v, type="+".join(sorted(ts)))
    return h


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, (time.perf_counter() - start) * 1000.0


def describe(ms: list[float]) -> str:
    return f"{statistics.median(ms):8.2f} {np.percentile(ms, 90):8.2f}"


def bench_sizes(args: argparse.Namespace, costs: TokenCosts | None) -> None:
    rng = random.Random(args.seed)
    print("ours: ms per pair (median, p90); exact = proven optimal; gap = mean upper - lower")
    graded_head = f" | {'graded':>8} {'p90':>8} {'exact':>6} {'gap':>5} {'g/unit':>6}"
    print(
        f"{'nodes':>5} {'kind':>10} {'median':>8} {'p90':>8} {'exact':>6} {'gap':>6}"
        + (graded_head if costs is not None else "")
        + f" | {'nx first: t/ours':>16} {'d/ours':>7}"
    )
    for n in args.sizes:
        for kind in ("candidate", "unrelated"):
            ours_ms, nx_ratio_t, nx_ratio_d, gaps, exact = [], [], [], [], 0
            graded_ms, graded_gaps, graded_exact = [], [], 0
            nx_pairs = args.nx_pairs if n <= 40 else max(1, args.nx_pairs // 3)
            for k in range(args.pairs):
                if kind == "candidate":  # a translation close to its reference
                    g1 = random_pdg(rng, n)
                    g2 = candidate_like(rng, g1, max(1, n // 5))
                else:  # two unrelated methods sharing common statements
                    g1 = random_pdg(rng, n, STATEMENTS[:8])
                    g2 = random_pdg(rng, n, STATEMENTS[:8])
                r, ms = timed(graph_edit_distance, g1, g2)
                ours_ms.append(ms)
                gaps.append(r.upper - r.lower)
                exact += r.exact
                if costs is not None:
                    rg, ms = timed(graph_edit_distance, g1, g2, node_subst_cost=costs)
                    graded_ms.append(ms)
                    graded_gaps.append(rg.upper - rg.lower)
                    graded_exact += rg.exact
                if args.networkx and k < nx_pairs:
                    s1, s2 = simple(g1), simple(g2)
                    ours_s, ms_s = timed(graph_edit_distance, s1, s2)
                    first, ms_nx = timed(
                        lambda a, b: next(nx.optimize_graph_edit_distance(a, b, **NX_COSTS)),
                        s1,
                        s2,
                    )
                    nx_ratio_t.append(ms_nx / ms_s)
                    nx_ratio_d.append(first / max(ours_s.distance, 1.0))
            nx_cols = (
                f" | {statistics.median(nx_ratio_t):15.1f}x {statistics.mean(nx_ratio_d):7.2f}"
                if nx_ratio_t
                else " |"
            )
            graded_cols = ""
            if costs is not None:
                ratio = statistics.median(graded_ms) / statistics.median(ours_ms)
                graded_cols = (
                    f" | {describe(graded_ms)} {graded_exact:3d}/{args.pairs:<3d}"
                    f"{statistics.mean(graded_gaps):5.2f} {ratio:5.2f}x"
                )
            print(
                f"{n:5d} {kind:>10} {describe(ours_ms)} {exact:3d}/{args.pairs:<3d}"
                f"{statistics.mean(gaps):5.2f}{graded_cols}{nx_cols}"
            )


def bench_exact(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed + 1)
    # Without self-loops: networkx's exact GED undercounts them (networkx issue #8188).
    print("\nexact on tiny graphs (no self-loops): ours vs networkx.graph_edit_distance")
    print(f"{'nodes':>5} {'ours median':>12} {'nx median':>10} {'nx/ours':>8} {'equal':>6}")
    for n in (5, 6, 7):
        ours_ms, nx_ms, equal = [], [], 0
        pairs = args.exact_pairs if n < 7 else max(2, args.exact_pairs // 3)
        for _ in range(pairs):
            g1 = simple(random_pdg(rng, n, STATEMENTS[:5]))
            g2 = simple(random_pdg(rng, n, STATEMENTS[:5]))
            for g in (g1, g2):
                g.remove_edges_from(list(nx.selfloop_edges(g)))
            r, ms = timed(graph_edit_distance, g1, g2)
            d, ms_nx = timed(nx.graph_edit_distance, g1, g2, **NX_COSTS)
            ours_ms.append(ms)
            nx_ms.append(ms_nx)
            equal += r.exact and r.distance == d
        ratio = statistics.median(nx_ms) / statistics.median(ours_ms)
        print(
            f"{n:5d} {statistics.median(ours_ms):12.2f} {statistics.median(nx_ms):10.2f}"
            f" {ratio:7.0f}x {equal:3d}/{pairs}"
        )


def bench_real(args: argparse.Namespace) -> None:
    base = Path(__file__).resolve().parents[2] / "shared/datasets/codexglue_code2code_trans"
    gold = base / "model_outputs/java-cs-model1.gold"
    output = base / "model_outputs/java-cs-model1.output"
    try:
        from graphs import build_pdg
    except ImportError:
        try:
            from graphs.pdg.build import build_pdg
        except ImportError:
            print("\nreal PDGs: skipped (graphs.build_pdg not available)")
            return
    if not gold.exists():
        print(f"\nreal PDGs: skipped ({gold} not found)")
        return
    pairs = []
    for a, b in zip(gold.read_text().splitlines(), output.read_text().splitlines(), strict=False):
        try:
            pairs.append((build_pdg(a, "csharp"), build_pdg(b, "csharp")))
        except Exception:  # a broken candidate simply has no PDG
            continue
    ms, methods, exact = [], {}, 0
    for g1, g2 in pairs:
        r, t = timed(graph_edit_distance, g1, g2)
        ms.append(t)
        methods[r.method] = methods.get(r.method, 0) + 1
        exact += r.exact
    nodes = [max(g1.number_of_nodes(), g2.number_of_nodes()) for g1, g2 in pairs]
    print(
        f"\nreal PDGs (CodeXGLUE Java->C#, gold vs model output): {len(pairs)} pairs, larger "
        f"graph median {statistics.median(nodes):.0f} nodes (max {max(nodes)})"
    )
    print(
        f"GED ms per pair: median {statistics.median(ms):.3f}, p90 {np.percentile(ms, 90):.3f}"
        f", max {max(ms):.1f}; proven exact {exact}/{len(pairs)}; methods {methods}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 80])
    parser.add_argument("--pairs", type=int, default=60, help="pairs per size and kind")
    parser.add_argument("--nx-pairs", type=int, default=15, help="of which timed in networkx")
    parser.add_argument("--exact-pairs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-networkx", dest="networkx", action="store_false")
    parser.add_argument("--real", action="store_true", help="also time real CodeXGLUE PDGs")
    parser.add_argument("--no-graded", dest="graded", action="store_false")
    args = parser.parse_args()
    costs = None
    if args.graded:
        vocab = [*STATEMENTS, "entry"] + [f"stmt{k}" for k in range(2 * max(args.sizes))]
        costs = TokenCosts(vocab)
    # Warm up: numba kernels load from their cache (or compile) on first use.
    warm = random.Random(0)
    for n in (6, 8, 8, 8, 12):
        labels = STATEMENTS[:3]
        g1, g2 = random_pdg(warm, n, labels), random_pdg(warm, n, labels)
        graph_edit_distance(g1, g2)
        if costs is not None:
            graph_edit_distance(g1, g2, node_subst_cost=costs)
    bench_sizes(args, costs)
    if args.networkx:
        bench_exact(args)
    if args.real:
        bench_real(args)


if __name__ == "__main__":
    main()
