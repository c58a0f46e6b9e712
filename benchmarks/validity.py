"""Validity benchmark (SPEC section 8): does a higher score mean a closer meaning?

1. Mutation benchmark: semantics-preserving variants vs semantics-changing mutants of real
   references (CodeXGLUE Java/C#, HumanEval-X Python/Java/C++/JavaScript, hand-written
   snippets in Python/C/C++/C#/JavaScript); per tier the pooled pairwise AUC of "variant
   scores above mutant of the same reference" and the share of mutants scoring 1.0.
   HumanEval-X Python and JavaScript candidates are checked by running the tests (cached in
   benchmarks/.cache/).
2. Judged development sets: Spearman vs CoNaLa human grades, ROC AUC vs HumanEval-Python
   execution, per tier, BLEU and chrF.

    python benchmarks/validity.py                 # full run (about 2,000 references)
    python benchmarks/validity.py --quick         # a small run in well under a minute
    python benchmarks/validity.py --json out.json # also write every number as JSON

Intervals are 95% percentile bootstraps (references for the mutation AUC, items for the
judged sets), seeded.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from functools import partial
from pathlib import Path

from ruby_metric.meta.mutations import PRESERVING
from ruby_metric.meta.validity import (
    TIERS,
    ExecutionChecker,
    JudgedResult,
    default_datasets,
    judged_validity,
    load_conala,
    load_humaneval_judged,
    run_mutation_benchmark,
    score_judged,
)
from ruby_metric.metrics import LABELS

_PRESERVING_NAMES = {op.name for op in PRESERVING}
CACHE = Path(__file__).resolve().parent / ".cache" / "validity_exec.json"
NAMES = {**LABELS, "chrf": "chrF"}


def _ci(ci: tuple[float, float] | list[float] | None) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "[-]"


def _num(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _judged_cell(r: JudgedResult | None) -> tuple[str, str]:
    if r is None:
        return "not run", ""
    head = f"{_num(r.value)} {_ci(r.ci)} n={r.n}"
    return head, f"{_num(r.fallback_value)} {_ci(r.fallback_ci)}"


def _sample(items: list, n: int | None, seed: int) -> list:
    if n is None or n >= len(items):
        return items
    idx = sorted(random.Random(seed).sample(range(len(items)), n))
    return [items[i] for i in idx]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="small run: 150 references, 300 judged items per set, 200 resamples")
    ap.add_argument("--refs", type=int, default=None, help="references (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resamples", type=int, default=None, help="bootstrap resamples (1000)")
    ap.add_argument("--judged", type=int, default=None,
                    help="judged items per set (default: all; --quick: 300)")
    ap.add_argument("--no-exec", action="store_true", help="skip the test-execution check")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per test run")
    ap.add_argument("--datasets", type=Path, default=None,
                    help="shared datasets folder (default ../shared/datasets)")
    ap.add_argument("--workers", type=int, default=1, help="scoring worker processes")
    ap.add_argument("--json", type=Path, default=None, help="write every number here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    n_refs = args.refs or (150 if args.quick else 2000)
    resamples = args.resamples or (200 if args.quick else 1000)
    n_judged = args.judged or (300 if args.quick else None)
    datasets = args.datasets or default_datasets()

    t0 = time.perf_counter()
    checker = None if args.no_exec else ExecutionChecker(CACHE, timeout=args.timeout)
    report, _ = run_mutation_benchmark(n_refs, seed=args.seed, datasets=datasets,
                                       checker=checker, resamples=resamples,
                                       workers=args.workers)
    t_mut = time.perf_counter() - t0

    judged: dict[str, dict[str, JudgedResult]] = {}
    sizes: dict[str, int] = {}
    for name, loader, stat in (
            ("conala", load_conala, "spearman"),
            ("humaneval", load_humaneval_judged, "auc"),
            ("humaneval-reindented", partial(load_humaneval_judged, reindent=True), "auc")):
        try:
            items = loader(datasets / "judged_dev" / (
                "conala-aggregated-grades.json" if name == "conala"
                else "humaneval_python_grade.json"))
        except FileNotFoundError:
            print(f"({name}: judged set not found under {datasets}; skipped)", file=sys.stderr)
            continue
        items = _sample(items, n_judged, args.seed)
        sizes[name] = len(items)
        scores = score_judged(items, workers=args.workers)
        judged[name] = judged_validity(scores, [j for _, _, j in items], statistic=stat,
                                       resamples=resamples, seed=args.seed)
    t_all = time.perf_counter() - t0

    out = sys.stdout
    langs = ", ".join(f"{k} {v}" for k, v in report.references_by_language.items())
    print(f"Mutation benchmark: {report.references} references ({langs}); "
          f"{report.variants} variants, {report.mutants} mutants; seed {args.seed}, "
          f"{resamples} bootstrap resamples", file=out)
    ex = report.execution
    if ex.get("references_checked"):
        print("  execution check (HumanEval-X): references checked "
              f"{ex['references_checked']}, failing their own tests "
              f"{ex['references_failing']}; dropped variants {ex['variants_dropped']}, "
              f"dropped mutants {ex['mutants_dropped']}", file=out)
    print(f"Judged sets: CoNaLa {sizes.get('conala', 0)} items (Spearman vs grade), "
          f"HumanEval-Python {sizes.get('humaneval', 0)} (ROC AUC vs pass). "
          "Per tier: on the pairs where it applies (n); 'fallback': a missing tier "
          "falls back to the next lower one (GRS -> TRS -> STS) on every pair.", file=out)
    print("", file=out)
    header = (f"{'tier':<12} {'mutation AUC [95% CI]':<26} {'mut=1.0':>7} {'var=1.0':>7}  "
              f"{'CoNaLa Spearman [CI] (n)':<32} {'CoNaLa fallback':<24} "
              f"{'HumanEval AUC [CI] (n)':<32} {'HumanEval fallback':<24}")
    print(header, file=out)
    print("-" * len(header), file=out)
    for tier in (*TIERS, "chrf"):
        tv = report.tiers.get(tier)
        mut = f"{_num(tv.auc)} {_ci(tv.auc_ci)}" if tv else "-"
        at1 = _num(tv.mutants_at_one) if tv else "-"
        v1 = _num(report.variants_at_one.get(tier)) if tv else "-"
        c_head, c_fb = _judged_cell(judged.get("conala", {}).get(tier))
        h_head, h_fb = _judged_cell(judged.get("humaneval", {}).get(tier))
        print(f"{NAMES[tier]:<12} {mut:<26} {at1:>7} {v1:>7}  {c_head:<32} {c_fb:<24} "
              f"{h_head:<32} {h_fb:<24}", file=out)
    if "humaneval-reindented" in judged:
        print("", file=out)
        print("HumanEval-Python with each completion's first line re-indented (every "
              "completion in the file lost it, which Python rejects; see "
              "load_humaneval_judged):", file=out)
        for tier in (*TIERS, "chrf"):
            h_head, h_fb = _judged_cell(judged["humaneval-reindented"].get(tier))
            print(f"  {NAMES[tier]:<12} {h_head:<32} fallback {h_fb}", file=out)
    print("", file=out)
    print("mut=1.0: share of mutants scoring exactly 1.0; var=1.0: share of variants "
          "scoring 1.0. Pairs counted per tier / candidates where the tier does not apply:",
          file=out)
    print("  " + ", ".join(f"{NAMES[t]} {v.pairs}/{v.excluded}"
                           for t, v in report.tiers.items()), file=out)
    print("", file=out)

    langs = sorted({lang for v in report.tiers.values() for lang in v.by_language})
    print("Mutation AUC per language (pairs)", file=out)
    print(f"{'tier':<12} " + " ".join(f"{lang:>18}" for lang in langs), file=out)
    for tier, tv in report.tiers.items():
        cells = []
        for lang in langs:
            auc, pairs = tv.by_language.get(lang, (None, 0))
            cells.append(f"{_num(auc)} ({pairs})".rjust(18))
        print(f"{NAMES[tier]:<12} " + " ".join(cells), file=out)
    print("", file=out)

    print("Per operator: share of (variant, mutant) pairs of a reference that the tier "
          "orders wrongly (mutant >= variant); lower is better. n = candidates made.", file=out)
    print(f"{'operator':<22} {'kind':<9} {'n':>5} " + " ".join(f"{NAMES[t]:>11}" for t in TIERS),
          file=out)
    for op, per_tier in report.operators.items():
        kind = "variant" if op in _PRESERVING_NAMES else "mutant"
        cells = [_num(per_tier.get(t, (None, 0))[0]).rjust(11) for t in TIERS]
        n = report.candidates_by_operator.get(op, 0)
        print(f"{op:<22} {kind:<9} {n:>5} " + " ".join(cells), file=out)
    print("", file=out)
    print(f"time: mutation benchmark {t_mut:.0f} s, total {t_all:.0f} s", file=out)

    if args.json:
        payload = {
            "seed": args.seed,
            "resamples": resamples,
            "mutation": report.to_dict(),
            "judged": {name: {m: r.__dict__ for m, r in res.items()}
                       for name, res in judged.items()},
            "judged_sizes": sizes,
        }
        args.json.write_text(json.dumps(payload, indent=2, default=list))
    return 0



if __name__ == "__main__":
    sys.exit(main())
