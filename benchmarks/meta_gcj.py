"""Distinguishability of BLEU, CrystalBLEU, STS, TRS, GRS and RUBY on Google Code Jam programs.

Data: ``gcj_googlejam4`` (1,665 whole Java programs solving 12 problems; the problem is the
equivalence class). N intra-class and N inter-class ordered (reference, candidate) program
pairs are sampled uniformly with a seeded generator and scored once; for each metric we
report the intra and inter means, d = intra / inter with a 95% bootstrap interval, the
pairs where the metric is undefined (with reasons), and the threshold classifier of
CrystalBLEU's table 3 (threshold fitted on a stratified 50% split, evaluated on the rest).

Trivially shared n-grams S (CrystalBLEU), chosen with ``--ngrams``:

``gcj`` (default)
    the k most frequent 1..4-grams of all 1,665 gcj programs (the CrystalBLEU paper counts
    S on "a sample of all programs" of its ShareCode dataset, section 4.5);
``shipped``
    the Java set shipped with ruby-metric (k = 500 from the CodeXGLUE Java training
    methods): a corpus of the same language but not of this task;
``FILE``
    a set saved by ``ruby-metric ngrams build``.
CrystalBLEU with the other set is reported too, as a sensitivity check (``--compare-sets``).

GRS and RUBY are included when the graph tier is available (``graphs.build_pdg``).

Usage::

    python benchmarks/meta_gcj.py [--data FILE] [--pairs 1000] [--seed 0] [--workers 2]
                                  [--ngrams gcj|shipped|FILE] [--json OUT] [--markdown OUT]
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import crystal
import graphs
from ruby_metric import RubyScorer
from ruby_metric.io.ngram_sets import shipped_ngram_set
from ruby_metric.meta import distinguishability
from ruby_metric.scoring.metrics import LABELS, METRICS

DEFAULT_DATA = (
    Path(__file__).resolve().parents[1].parent
    / "shared"
    / "datasets"
    / "gcj_googlejam4"
    / "googlejam4.jsonl.gz"
)
NAMES = LABELS
ORDER = tuple(reversed(METRICS))  # cheapest first

logger = logging.getLogger("meta_gcj")


def load_programs(path: Path) -> list[tuple[int, str]]:
    """``(problem label, code)`` per program of googlejam4.jsonl.gz."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [(obj["label"], obj["code"]) for obj in map(json.loads, handle) if obj]


def ngram_set(choice: str, programs: list[tuple[int, str]], k: int) -> crystal.NgramSet:
    if choice == "gcj":
        return crystal.build_ngram_set([code for _, code in programs], k=k)
    if choice == "shipped":
        found = shipped_ngram_set("java")
        if found is None:
            raise SystemExit("no shipped Java n-gram set")
        return found
    return crystal.NgramSet.load(choice)


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def markdown(result: dict[str, Any]) -> str:
    """The README section: the distinguishability table and the classifier table."""
    rows = result["metrics"]
    lines = [
        "| metric | intra | inter | d | 95% CI of d | pairs undefined |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for name, r in rows.items():
        ci = f"[{r['d_ci'][0]:.2f}, {r['d_ci'][1]:.2f}]" if r["d_ci"] else "–"
        undefined = r["excluded_intra"] + r["excluded_inter"]
        lines.append(
            f"| {NAMES.get(name, name)} | {_f(r['intra'])} | {_f(r['inter'])} | "
            f"**{_f(r['d'], 2)}** | {ci} | {undefined} |"
        )
    lines += [
        "",
        "| metric | threshold | TP | FP | TN | FN | accuracy | precision | recall | F1 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows.items():
        c = r["classifier"]
        if c is None:
            continue
        lines.append(
            f"| {NAMES.get(name, name)} | {c['threshold']:.3f} | {c['tp']} | {c['fp']} | "
            f"{c['tn']} | {c['fn']} | {c['accuracy']:.2f} | {c['precision']:.2f} | "
            f"{c['recall']:.2f} | {c['f1']:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="googlejam4.jsonl.gz")
    parser.add_argument("--pairs", type=int, default=1000, help="N intra and N inter (1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--ngrams", default="gcj", help="gcj, shipped, or a saved set (gcj)")
    parser.add_argument("-k", type=int, default=500, help="size of S when built here (500)")
    parser.add_argument(
        "--compare-sets",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also report CrystalBLEU with the other built-in choice of S",
    )
    parser.add_argument("--metrics", help="comma-separated (default: all available)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the full results here")
    parser.add_argument("--markdown", type=Path, help="write the README tables here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)

    if not args.data.is_file():
        logger.error("gcj data not found at %s; pass --data FILE", args.data)
        return 2
    programs = load_programs(args.data)
    graph_tier = hasattr(graphs, "build_pdg")
    if args.metrics:
        metrics = [m.strip() for m in args.metrics.split(",")]
    else:
        metrics = [m for m in ORDER if graph_tier or m not in ("grs", "ruby")]
    logger.info(
        "%d programs in %d classes; metrics %s%s",
        len(programs),
        len({label for label, _ in programs}),
        ",".join(metrics),
        "" if graph_tier else " (graph tier not available: no GRS/RUBY)",
    )

    start = time.perf_counter()
    s_set = ngram_set(args.ngrams, programs, args.k)
    s_seconds = time.perf_counter() - start
    scorer = RubyScorer(language="java", ngrams=s_set, metrics=metrics)
    report = distinguishability(
        programs, scorer, args.pairs, args.seed, bootstrap=args.bootstrap, workers=args.workers
    )
    scored = report.pairs_intra + report.pairs_inter
    logger.info(
        "scored %d pairs in %.1f s (%.1f ms/pair, %d worker(s))",
        scored,
        report.seconds,
        1000 * report.seconds / scored,
        args.workers,
    )
    result = report.to_dict()
    result["metrics"] = {m: result["metrics"][m] for m in ORDER if m in result["metrics"]}
    result["ngrams"] = {
        "source": args.ngrams,
        "k": s_set.k,
        "corpus_size": s_set.corpus_size,
        "seconds": round(s_seconds, 2),
    }
    result["graph_tier"] = graph_tier

    if args.compare_sets and "crystalbleu" in metrics and args.ngrams in ("gcj", "shipped"):
        other = "shipped" if args.ngrams == "gcj" else "gcj"
        alt = RubyScorer(
            language="java", ngrams=ngram_set(other, programs, args.k), metrics=["crystalbleu"]
        )
        alt_report = distinguishability(
            programs, alt, args.pairs, args.seed, bootstrap=args.bootstrap, workers=args.workers
        )
        result["crystalbleu_other_set"] = {"source": other, **alt_report["crystalbleu"].to_dict()}

    text = json.dumps(result, indent=2)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    md = markdown(result)
    if args.markdown:
        args.markdown.write_text(md + "\n", encoding="utf-8")
    print(md)
    print()
    for name, r in result["metrics"].items():
        if r.get("corpus_d") is not None:
            print(
                f"{NAMES[name]} corpus-level: intra {r['corpus_intra']:.3f}, "
                f"inter {r['corpus_inter']:.3f}, d {r['corpus_d']:.2f}"
            )
    if "crystalbleu_other_set" in result:
        o = result["crystalbleu_other_set"]
        print(
            f"CrystalBLEU with S = {o['source']}: intra {o['intra']:.3f}, inter "
            f"{o['inter']:.3f}, d {o['d']:.2f} [{o['d_ci'][0]:.2f}, {o['d_ci'][1]:.2f}]"
        )
    for metric, reasons in result["reasons"].items():
        print(f"{metric} undefined: {reasons}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
