"""Benchmark: compiled Zhang–Shasha (graphs.trees.ted) against zss on real CodeXGLUE AST pairs.

Pairs are a model's C# (or Java) translation and its gold reference from CodeXGLUE
code-to-code translation, both parsed and normalized, kept when both ASTs have between
``--min-nodes`` and ``--max-nodes`` nodes. Every zss distance is checked against ours.

Reported: kernel compile time (cold, in a fresh numba cache) and load time (warm cache),
pairs/s for distance and for distance + mapping, zss pairs/s on a sample, and the speed-up
measured on the same sampled pairs.

Usage::

    python benchmarks/bench_ted.py [--data DIR] [--pairs 300] [--zss-pairs 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_DATA = (Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
                / "codexglue_code2code_trans")
SOURCES = [  # (gold file, model output file, language)
    ("java-cs-model1.gold", "java-cs-model1.output", "csharp"),
    ("cs-java-model1.gold", "cs-java-model1.output", "java"),
]

logger = logging.getLogger("bench_ted")

_FIRST_CALL = """
import time
t = time.perf_counter()
from graphs.trees.ted import warm_up
warm_up()
print(time.perf_counter() - t)
"""


def first_call_seconds(cache_dir: str | None) -> float:
    """Seconds for import + first TED call in a new process (fresh numba cache if given)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def load_pairs(data: Path, min_nodes: int, max_nodes: int, wanted: int):
    """Model output vs gold pairs in the size range (identical pairs skipped: they take a
    shortcut); if fewer than ``wanted``, more pairs of *different* training-set methods of
    similar size, same language (real ASTs, larger distances)."""
    from graphs import normalized_ast, parse

    def fits(t) -> bool:
        return min_nodes <= len(t) <= max_nodes

    model_pairs = []
    for gold_name, out_name, lang in SOURCES:
        gold = (data / "model_outputs" / gold_name).read_text("utf-8").split("\n")
        out = (data / "model_outputs" / out_name).read_text("utf-8").split("\n")
        for ref_code, cand_code in zip(gold, out, strict=False):
            ref, cand = parse(ref_code, lang), parse(cand_code, lang)
            if not (ref.ok and cand.ok):
                continue
            a, b = normalized_ast(ref), normalized_ast(cand)
            if fits(a) and fits(b) and a != b:
                model_pairs.append((a, b))
    train_pairs = []
    for suffix, lang in (("cs", "csharp"), ("java", "java")):
        if len(model_pairs) + len(train_pairs) >= wanted:
            break
        path = data / f"train.java-cs.txt.{suffix}"
        if not path.is_file():
            continue
        trees = []
        for line in path.read_text("utf-8").split("\n"):
            parsed = parse(line, lang)
            if parsed.ok:
                tree = normalized_ast(parsed)
                if fits(tree):
                    trees.append(tree)
            if len(trees) >= wanted:
                break
        trees.sort(key=len)  # neighbours in size order: similar sizes
        train_pairs += [(trees[k], trees[k + 1]) for k in range(0, len(trees) - 1, 2)]
    return model_pairs, train_pairs


def zss_distance(a, b) -> int:
    import zss

    def to_zss(t):
        nodes = [zss.Node(label) for label in t.labels]
        for i, kids in enumerate(t.children):
            for c in kids:
                nodes[i].addkid(nodes[c])
        return nodes[-1]

    return zss.distance(to_zss(a), to_zss(b), zss.Node.get_children,
                        insert_cost=lambda n: 1, remove_cost=lambda n: 1,
                        update_cost=lambda x, y: 0 if x.label == y.label else 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="codexglue_code2code_trans folder (default: %(default)s)")
    parser.add_argument("--pairs", type=int, default=300, help="pairs timed for ours")
    parser.add_argument("--zss-pairs", type=int, default=3,
                        help="pairs timed for zss (slow: seconds per pair)")
    parser.add_argument("--min-nodes", type=int, default=100)
    parser.add_argument("--max-nodes", type=int, default=400)
    parser.add_argument("--no-cold", action="store_true",
                        help="skip measuring the cold compile in a subprocess")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stdout)

    if not (args.data / "model_outputs").is_dir():
        logger.error("CodeXGLUE data not found at %s (expected model_outputs/ inside); "
                     "pass --data DIR", args.data)
        return 2

    results: dict[str, object] = {}
    if not args.no_cold:
        with tempfile.TemporaryDirectory() as cache:
            results["compile_cold_s"] = first_call_seconds(cache)   # compiles
            results["load_warm_s"] = first_call_seconds(cache)      # loads that cache
        logger.info("first call incl. import: cold compile %.2f s, cached %.3f s",
                    results["compile_cold_s"], results["load_warm_s"])

    from graphs.trees.ted import tree_edit_distance, tree_edit_mapping, warm_up

    warm_up()
    model_pairs, train_pairs = load_pairs(args.data, args.min_nodes, args.max_nodes,
                                          args.pairs)
    timed = (model_pairs + train_pairs)[: args.pairs]
    if not timed:
        logger.error("no pairs with %d..%d nodes", args.min_nodes, args.max_nodes)
        return 1
    sizes = [(len(a) + len(b)) / 2 for a, b in timed]
    logger.info("%d pairs with %d..%d nodes: %d model output vs gold, %d train-set "
                "neighbours (mean size %.0f, median %.0f)", len(timed), args.min_nodes,
                args.max_nodes, min(len(model_pairs), len(timed)),
                max(0, len(timed) - len(model_pairs)), statistics.mean(sizes),
                statistics.median(sizes))

    start = time.perf_counter()
    ours = [tree_edit_distance(a, b) for a, b in timed]
    dist_s = time.perf_counter() - start
    start = time.perf_counter()
    for a, b in timed:
        tree_edit_mapping(a, b)
    map_s = time.perf_counter() - start
    results.update(pairs=len(timed), mean_nodes=statistics.mean(sizes),
                   ours_pairs_per_s=len(timed) / dist_s,
                   ours_ms_per_pair=1000 * dist_s / len(timed),
                   mapping_pairs_per_s=len(timed) / map_s)
    logger.info("ours: %.0f pairs/s (%.2f ms/pair); with mapping %.0f pairs/s",
                results["ours_pairs_per_s"], results["ours_ms_per_pair"],
                results["mapping_pairs_per_s"])

    # zss sample: pairs closest to 200 nodes (the spec's yardstick), then others
    sample = sorted(range(len(timed)), key=lambda k: abs(sizes[k] - 200))[: args.zss_pairs]
    zss_s = ours_s = 0.0
    rows = []
    for k in sample:
        a, b = timed[k]
        start = time.perf_counter()
        expected = zss_distance(a, b)
        z = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(20):
            got = tree_edit_distance(a, b)
        o = (time.perf_counter() - start) / 20
        if got != expected or ours[k] != expected:
            logger.error("MISMATCH on pair %d: ours %d, zss %d", k, got, expected)
            return 1
        zss_s += z
        ours_s += o
        rows.append({"nodes": [len(a), len(b)], "ted": got, "zss_s": z, "ours_s": o,
                     "speedup": z / o})
        logger.info("  %3d vs %3d nodes, TED %3d: zss %.2f s, ours %.2f ms -> %.0fx",
                    len(a), len(b), got, z, 1000 * o, z / o)
    if sample:
        results.update(zss_pairs=len(sample), zss_pairs_per_s=len(sample) / zss_s,
                       speedup_same_pairs=zss_s / ours_s,
                       speedup_throughput=results["ours_pairs_per_s"] * zss_s / len(sample),
                       zss_rows=rows)
        logger.info("zss: %.3f pairs/s; speed-up on the same pairs %.0fx "
                    "(throughput ratio %.0fx); all distances equal",
                    results["zss_pairs_per_s"], results["speedup_same_pairs"],
                    results["speedup_throughput"])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
