"""Benchmark: PDG construction time on the CodeXGLUE Java/C# test references.

Run ``python benchmarks/bench_pdg.py`` (options: ``--split``, ``--limit``, ``--repeat``).
For each language it prints the build time per method (median, p90, max) for
``build_pdg`` on an already parsed method, the same including the parse, and the node and
edge counts of the graphs. The data is read from ``shared/datasets`` next to the project
(``--data`` to point elsewhere). Spec target (section 6): PDG build + GED well under 5 ms
per method pair, i.e. the PDG build alone well under 2 ms per method.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from graphs import parse
from graphs.pdg.build import build_pdg

DEFAULT_DATA = (Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
                / "codexglue_code2code_trans")


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def bench(lines: list[str], lang: str, repeat: int) -> dict[str, float]:
    """Time parse and PDG build for each line; keep the best of ``repeat`` runs per line."""
    build_ms: list[float] = []
    total_ms: list[float] = []
    nodes: list[int] = []
    edges: list[int] = []
    skipped = 0
    for code in lines:
        best_build = best_total = float("inf")
        graph = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            parsed = parse(code, lang)
            t1 = time.perf_counter()
            if not parsed.ok:
                break
            graph = build_pdg(parsed)
            t2 = time.perf_counter()
            best_build = min(best_build, t2 - t1)
            best_total = min(best_total, t2 - t0)
        if graph is None:
            skipped += 1
            continue
        build_ms.append(best_build * 1000)
        total_ms.append(best_total * 1000)
        nodes.append(graph.number_of_nodes())
        edges.append(graph.number_of_edges())
    return {
        "methods": len(build_ms), "skipped": skipped,
        "build_median": statistics.median(build_ms), "build_p90": percentile(build_ms, 0.9),
        "build_max": max(build_ms), "build_mean": statistics.fmean(build_ms),
        "total_median": statistics.median(total_ms), "total_p90": percentile(total_ms, 0.9),
        "nodes_mean": statistics.fmean(nodes), "nodes_median": statistics.median(nodes),
        "nodes_max": max(nodes), "edges_mean": statistics.fmean(edges),
        "edges_median": statistics.median(edges), "edges_max": max(edges),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one block per language."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA,
                    help="folder with test.java-cs.txt.java / .cs")
    ap.add_argument("--split", default="test", choices=["train", "valid", "test"])
    ap.add_argument("--limit", type=int, default=None, help="methods per language")
    ap.add_argument("--repeat", type=int, default=3, help="runs per method (best is kept)")
    args = ap.parse_args(argv)
    out = sys.stdout
    for side, lang in (("java", "java"), ("cs", "csharp")):
        path = args.data / f"{args.split}.java-cs.txt.{side}"
        if not path.is_file():
            sys.stderr.write(f"data not found: {path}\n")
            return 2
        with path.open(encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f][: args.limit]
        r = bench(lines, lang, args.repeat)
        out.write(
            f"{lang}: {r['methods']} methods ({r['skipped']} not parsed)\n"
            f"  build_pdg (parsed input): median {r['build_median']:.3f} ms, "
            f"p90 {r['build_p90']:.3f} ms, mean {r['build_mean']:.3f} ms, "
            f"max {r['build_max']:.2f} ms\n"
            f"  parse + build_pdg:        median {r['total_median']:.3f} ms, "
            f"p90 {r['total_p90']:.3f} ms\n"
            f"  nodes: mean {r['nodes_mean']:.1f}, median {r['nodes_median']:.0f}, "
            f"max {r['nodes_max']}; edges: mean {r['edges_mean']:.1f}, "
            f"median {r['edges_median']:.0f}, max {r['edges_max']}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
