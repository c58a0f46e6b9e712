"""Chance level of every score: the mean over unrelated pairs, per language.

Each reference of a dataset is scored against another reference of the same dataset, the
one a seeded derangement assigns (no reference meets itself, nor a copy of its text): what a
score gives two pieces of code in the same language that have nothing to do with each other.
Sources: CodeXGLUE code-to-code Java and C# test references, HumanEval-X canonical solutions
(prompt + solution) in Python, Java, C++ and JavaScript.

    python benchmarks/chance.py                  # 1,000 pairs per source (or all it has)
    python benchmarks/chance.py --pairs 200 --seed 1 --workers 2 --json chance.json
    python benchmarks/chance.py --grs-beta 1

A metric's mean is over the pairs where it applies (n beside it; RUBY applies everywhere);
BLEU and CrystalBLEU are sentence scores.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import asdict
from pathlib import Path

# this checkout's package, not whichever one is installed (an editable install may point at
# another worktree)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ruby_metric.scoring.metrics import LABELS  # noqa: E402
from validity.benchmark import (  # noqa: E402
    TIERS,
    ChanceLevel,
    chance_level,
    dataset_references,
    default_datasets,
    unrelated_pairs,
)

#: The sources, in report order.
SOURCES = ("codexglue-java", "codexglue-csharp", "humaneval-python", "humaneval-java",
           "humaneval-cpp", "humaneval-javascript")


def render(levels: list[ChanceLevel]) -> str:
    """The markdown table: one row per source, one column per metric (mean, and n if not all).

    Parameters
    ----------
    levels : the chance levels, one per source.

    Returns
    -------
    The table.
    """
    header = ["source", "language", "pairs", *(LABELS[t] for t in TIERS)]
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join(["---", "---"] + ["---:"] * (len(header) - 2)) + " |"]
    for lv in levels:
        cells = []
        for t in TIERS:
            mean, n = lv.means[t], lv.applicable[t]
            cell = "-" if mean is None else f"{mean:.3f}"
            if n != lv.pairs:
                cell += f" (n={n})"
            cells.append(cell)
        lines.append("| " + " | ".join([lv.source, lv.language, str(lv.pairs), *cells]) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Score the unrelated pairs of every source and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=1000,
                    help="pairs per source (at most its number of distinct references)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="scoring worker processes")
    ap.add_argument("--grs-beta", type=float, default=None,
                    help="GRS's beta (passed to RubyScorer as grs_beta only when given)")
    ap.add_argument("--datasets", type=Path, default=None,
                    help="shared datasets folder (default ../shared/datasets)")
    ap.add_argument("--json", type=Path, default=None, help="write every number here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    datasets = args.datasets or default_datasets()
    pools = dataset_references(datasets)
    missing = [s for s in SOURCES if s not in pools]
    if len(missing) == len(SOURCES):
        print(f"no dataset found under {datasets} (pass --datasets)", file=sys.stderr)
        return 2

    t0 = time.perf_counter()
    levels = []
    for source in SOURCES:
        if source not in pools:
            continue
        pairs = unrelated_pairs(pools[source], args.pairs, seed=args.seed)
        try:
            levels.append(chance_level(source, pairs, workers=args.workers,
                                       grs_beta=args.grs_beta))
        except TypeError as exc:
            if args.grs_beta is None:
                raise
            print(f"--grs-beta: {exc}", file=sys.stderr)
            return 2
    seconds = time.perf_counter() - t0

    beta = "the scorer's default beta" if args.grs_beta is None else f"beta={args.grs_beta:g}"
    print(f"## Chance level: mean score of unrelated pairs (seed {args.seed}, GRS at {beta})\n")
    print(render(levels))
    print("\nEach reference against another reference of the same source (seeded derangement, "
          "distinct texts); a metric's mean is over the pairs where it applies (n shown when "
          "not all).")
    if missing:
        print(f"Sources not found: {', '.join(missing)}.")
    print(f"time: {seconds:.0f} s")
    if args.json:
        payload = {"seed": args.seed, "pairs": args.pairs, "grs_beta": args.grs_beta,
                   "levels": [asdict(lv) for lv in levels], "seconds": seconds}
        args.json.write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
