"""Validity benchmark (SPEC section 8): does a higher score mean a closer meaning?

1. Mutation benchmark: semantics-preserving variants vs semantics-changing mutants of real
   references (CodeXGLUE Java/C#, HumanEval-X Python/Java/C++/JavaScript, hand-written
   snippets in Python/C/C++/C#/JavaScript); per tier the pooled pairwise AUC of "variant
   scores above mutant of the same reference", the share of mutants scoring 1.0, and per
   operator the shares of its pairs ordered right / wrongly. HumanEval-X Python and
   JavaScript candidates are checked by running the tests (cached in benchmarks/.cache/).
2. Structural coverage (issue 19): on how many pairs RUBY scores with the graph, tree or
   string tier, with repair and error containment on and off: CodeXGLUE model outputs in
   both directions, HumanEval-Python as loaded, and single GCJ programs.
3. Judged development sets, like for like (every score on the same items, n stated):
   HumanEval-Python within-task AUC (a passing vs a failing completion of the same task) as
   the headline, pooled AUC beside it, as loaded and with the first line re-indented; and
   Spearman vs CoNaLa human grades. Two views: the items where GRS applies, and every item
   with RUBY's fallback (GRS -> TRS -> STS).

    python benchmarks/validity.py                 # full run (about 2,000 references)
    python benchmarks/validity.py --quick         # a small run in well under a minute
    python benchmarks/validity.py --json out.json # also write every number as JSON
    python benchmarks/validity.py --grs-beta 1 --also-beta 2
    python benchmarks/validity.py --no-repair     # scores without repair or containment
    python benchmarks/validity.py --repair-delta  # also: the judged sets scored both ways,
                                                  # RUBY's paired difference with its CI

Intervals are 95% percentile bootstraps (references for the mutation AUC, tasks for the
HumanEval AUCs, items for Spearman), seeded.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# this checkout's package, not whichever one is installed (an editable install may point at
# another worktree)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ruby_metric.scoring.metrics import LABELS  # noqa: E402
from validity.benchmark import (  # noqa: E402
    JUDGED_METRICS,
    TIERS,
    VIEWS,
    ExecutionChecker,
    JudgedItem,
    JudgedView,
    MutationReport,
    OperatorOrder,
    TierValidity,
    default_datasets,
    judged_validity,
    load_conala,
    load_humaneval_judged,
    run_mutation_benchmark,
    score_judged,
    scorer_for,
)
from validity.coverage import Coverage, pair_coverage, text_coverage  # noqa: E402
from validity.judged import with_fallback  # noqa: E402
from validity.paired_agreement import (  # noqa: E402
    PairedDifference,
    paired_auc_difference,
    paired_spearman_difference,
)

CACHE = Path(__file__).resolve().parent / ".cache" / "validity_exec.json"
NAMES = {**LABELS, "chrf": "chrF"}
#: The acceptance bars of the mutation benchmark (issue 18).
MAX_WRONG = 0.03
MIN_VARIANT_RIGHT = 0.95
VIEW_TITLES = {
    "grs": "items where GRS applies (both sides have a PDG); every score on exactly these",
    "fallback": "every item, a missing tier falling back to the next lower one "
                "(GRS -> TRS -> STS, RUBY's rule); every score on exactly these",
}
#: Judged sets: name -> (title, file, loader, statistic).
JUDGED_SETS: dict[str, tuple[str, str, Callable[..., list[JudgedItem]], dict[str, Any], str]] = {
    "humaneval": ("HumanEval-Python, as loaded", "humaneval_python_grade.json",
                  load_humaneval_judged, {}, "auc"),
    "humaneval-reindented": ("HumanEval-Python, first line re-indented",
                             "humaneval_python_grade.json", load_humaneval_judged,
                             {"reindent": True}, "auc"),
    "conala": ("CoNaLa", "conala-aggregated-grades.json", load_conala, {}, "spearman"),
}


def _ci(ci: Sequence[float] | None) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "[-]"


def _num(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]],
           align: Sequence[str] | None = None) -> str:
    """A markdown table; ``align`` per column: ``"l"`` or ``"r"``."""
    align = align or ["l"] * len(header)
    sep = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def sample_groups(items: list[JudgedItem], n: int | None, seed: int) -> list[JudgedItem]:
    """About ``n`` items, whole groups (tasks) at a time, chosen with ``seed``; order kept.

    Parameters
    ----------
    items : the judged items.
    n : the wanted number of items (``None`` or more than there are: all).
    seed : the draw's seed.

    Returns
    -------
    The items of the drawn groups, in their original order.
    """
    if n is None or n >= len(items):
        return items
    groups = list(dict.fromkeys(it.group for it in items))
    random.Random(seed).shuffle(groups)
    size: dict[str, int] = {}
    for it in items:
        size[it.group] = size.get(it.group, 0) + 1
    chosen: set[str] = set()
    total = 0
    for g in groups:
        if total >= n:
            break
        chosen.add(g)
        total += size[g]
    return [it for it in items if it.group in chosen]


def _beta_label(beta: float | None) -> str:
    return "default beta" if beta is None else f"beta={beta:g}"


def print_mutation(report: MutationReport, seed: int, resamples: int) -> None:
    """The mutation benchmark's tables: per tier, per language, per operator, the checks."""
    langs = ", ".join(f"{k} {v}" for k, v in report.references_by_language.items())
    print(f"## Mutation benchmark\n\n{report.references} references ({langs}); "
          f"{report.variants} variants, {report.mutants} mutants; seed {seed}, "
          f"{resamples} bootstrap resamples over references; GRS at "
          f"{_beta_label(report.grs_beta)}.")
    ex = report.execution
    if ex.get("references_checked"):
        def per_lang(counts: dict[str, int]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"

        print(f"Execution check (HumanEval-X): references checked "
              f"{per_lang(ex['references_checked'])}; failing their own tests "
              f"{per_lang(ex['references_failing'])}; dropped variants "
              f"{per_lang(ex['variants_dropped'])}; dropped mutants "
              f"{per_lang(ex['mutants_dropped'])}.")
    print()
    rows = []

    def tier_row(name: str, tv: TierValidity, var_one: float | None) -> list[str]:
        return [name, f"{_num(tv.auc)} {_ci(tv.auc_ci)}", _num(tv.mutants_at_one),
                _num(var_one), str(tv.references), str(tv.pairs), str(tv.excluded)]

    for tier, tv in report.tiers.items():
        rows.append(tier_row(NAMES[tier], tv, report.variants_at_one.get(tier)))
    for beta, res in report.other_betas.items():
        rows.append(tier_row(f"GRS, beta={beta:g}", res["tier"], None))
    print(_table(["score", "mutation AUC [95% CI]", "mut=1.0", "var=1.0", "refs", "pairs",
                  "excluded"], rows, ["l", "l", "r", "r", "r", "r", "r"]))
    print("\nmut=1.0 / var=1.0: share of mutants / variants scoring exactly 1.0; pairs: "
          "(variant, mutant) pairs of the same reference; excluded: candidates where the "
          "tier does not apply.\n")

    langs_all = sorted({lang for v in report.tiers.values() for lang in v.by_language})
    rows = []
    for tier, tv in report.tiers.items():
        rows.append([NAMES[tier]] + [
            f"{_num(tv.by_language.get(lang, (None, 0))[0])} "
            f"({tv.by_language.get(lang, (None, 0))[1]})" for lang in langs_all])
    print("### Mutation AUC per language (pairs)\n")
    print(_table(["score", *langs_all], rows, ["l"] + ["r"] * len(langs_all)))
    print()
    print_operators(report.operators, report.candidates_by_operator,
                    f"GRS at {_beta_label(report.grs_beta)}")
    for beta, res in report.other_betas.items():
        print_operators({op: {"grs": o["grs"]} for op, o in res["operators"].items()},
                        report.candidates_by_operator, f"GRS at beta={beta:g}",
                        tiers=("grs",))


def print_operators(operators: dict[str, dict[str, OperatorOrder]], made: dict[str, int],
                    title: str, tiers: Sequence[str] = TIERS) -> None:
    """Per operator: the share of its pairs each tier orders wrongly, and GRS's details."""
    print(f"### Per operator ({title})\n")
    print("wrong = share of the operator's (variant, mutant) pairs NOT ordered right "
          "(mutant >= variant; ties count as wrong); lower is better. GRS right / tied / "
          "reversed split beside. n = candidates made.\n")
    rows = []
    for op, per in operators.items():
        kind = next(iter(per.values())).kind
        g = per.get("grs")
        rows.append([op, kind, str(made.get(op, 0)), str(g.pairs if g else 0)]
                    + [_num(per[t].wrong) if t in per else "-" for t in tiers]
                    + ([_num(g.right), _num(g.tied), _num(g.reversed)] if g else ["-"] * 3))
    print(_table(["operator", "kind", "n", "pairs (GRS)"]
                 + [f"{NAMES[t]} wrong" for t in tiers]
                 + ["GRS right", "GRS tied", "GRS reversed"], rows,
                 ["l", "l", "r", "r"] + ["r"] * (len(tiers) + 3)))
    bad = [f"{op} {per['grs'].wrong:.3f}" for op, per in operators.items()
           if "grs" in per and per["grs"].wrong is not None and per["grs"].wrong > MAX_WRONG]
    weak = [f"{op} {per['grs'].right:.3f}" for op, per in operators.items()
            if "grs" in per and per["grs"].kind == "variant" and per["grs"].right is not None
            and per["grs"].right < MIN_VARIANT_RIGHT]
    print(f"\nCheck ({title}): operators ordered wrongly in more than {MAX_WRONG:.0%} of "
          f"their pairs: {', '.join(bad) or 'none'}.")
    print(f"Check ({title}): variant operators ordered right in fewer than "
          f"{MIN_VARIANT_RIGHT:.0%} of their pairs: {', '.join(weak) or 'none'}.\n")


def print_judged(judged: dict[str, dict[str, JudgedView]]) -> None:
    """One table per view: every metric on the same items of each judged set."""
    print("## Judged development sets (like for like)\n")
    for view in VIEWS:
        present = [name for name in JUDGED_SETS if name in judged]
        if not present:
            continue
        header = ["score"]
        for name in present:
            jv = judged[name][view]
            if jv.statistic == "auc":
                header += [f"{JUDGED_SETS[name][0]}: within-task AUC (n={jv.n:,}, "
                           f"{jv.mixed_groups} tasks, {jv.within_pairs:,} pairs)",
                           f"pooled AUC (n={jv.n:,}, {jv.positives:,} pass)"]
            else:
                header.append(f"{JUDGED_SETS[name][0]}: Spearman (n={jv.n:,})")
        rows = []
        for m in JUDGED_METRICS:
            row = [NAMES[m]]
            for name in present:
                a = judged[name][view].metrics.get(m)
                if judged[name][view].statistic == "auc":
                    row += [f"{_num(a.value)} {_ci(a.ci)}" if a else "-",
                            f"{_num(a.pooled)} {_ci(a.pooled_ci)}" if a else "-"]
                else:
                    row.append(f"{_num(a.value)} {_ci(a.ci)}" if a else "-")
            rows.append(row)
        print(f"### View: {VIEW_TITLES[view]}\n")
        print(_table(header, rows))
        totals = ", ".join(f"{name} {judged[name][view].n:,} of {judged[name][view].total:,}"
                           for name in present)
        print(f"\nItems: {totals}.\n")


def coverage_sets(datasets: Path, n: int | None) -> list[tuple[str, str, Any]]:
    """The coverage data: ``(name, language, (references, candidates) or texts)``, each
    cut to ``n`` items when given; sets whose files are missing are left out."""
    out: list[tuple[str, str, Any]] = []
    outputs = datasets / "codexglue_code2code_trans" / "model_outputs"
    for direction, lang in (("java-cs", "cs"), ("cs-java", "java")):
        gold = outputs / f"{direction}-model1.gold"
        hyp = outputs / f"{direction}-model1.output"
        if gold.exists() and hyp.exists():
            refs = gold.read_text(encoding="utf-8").split("\n")
            cands = hyp.read_text(encoding="utf-8").split("\n")
            k = min(len(refs), len(cands), n or 1000, 1000)
            out.append((f"CodeXGLUE {direction.replace('-', '->')} model outputs", lang,
                        (refs[:k], cands[:k])))
    try:
        items = load_humaneval_judged(datasets / "judged_dev" / "humaneval_python_grade.json")
        items = items[:n] if n else items
        out.append(("HumanEval-Python as loaded", "python",
                    ([list(it.references) for it in items], [it.candidate for it in items])))
    except FileNotFoundError:
        pass
    gcj = datasets / "gcj_googlejam4" / "googlejam4.jsonl.gz"
    if gcj.exists():
        with gzip.open(gcj, "rt", encoding="utf-8") as fh:
            texts = [json.loads(line)["code"] for line in fh]
        out.append(("GCJ programs (single texts)", "java", texts[:n] if n else texts))
    return out


def run_coverage(datasets: Path, n: int | None, workers: int) -> list[tuple[Coverage, Coverage]]:
    """Coverage of every set, ``(without repair, with repair)``."""
    out = []
    for name, lang, data in coverage_sets(datasets, n):
        pair = []
        for repair in (False, True):
            if isinstance(data, tuple):
                pair.append(pair_coverage(name, data[0], data[1], lang, repair=repair,
                                          workers=workers))
            else:
                pair.append(text_coverage(name, data, lang, repair=repair))
        out.append((pair[0], pair[1]))
    return out


def print_coverage(rows: list[tuple[Coverage, Coverage]]) -> None:
    """One row per set: RUBY's tier shares without and with repair, and what was done."""
    print("## Structural coverage (RUBY's tier), without / with repair and containment\n")

    def pct(c: Coverage, count: int) -> str:
        return f"{100 * c.share(count):.1f}%"

    table = []
    for off, on in rows:
        sides = ", ".join(f"{side} {on.repaired.get(side, 0)} / {on.contained.get(side, 0)}"
                          for side in sorted(set(on.repaired) | set(on.contained))) or "-"
        table.append([on.name, f"{on.items:,}",
                      f"{pct(off, off.grs)} -> **{pct(on, on.grs)}**",
                      f"{pct(off, off.trs)} -> {pct(on, on.trs)}",
                      f"{pct(off, off.tiers.get('string', 0))} -> "
                      f"{pct(on, on.tiers.get('string', 0))}", sides])
    print(_table(["data", "items", "GRS applies", "TRS applies", "STS only",
                  "repaired / contained (per side)"], table,
                 ["l", "r", "r", "r", "r", "l"]))
    print()


def repair_deltas(items: list[JudgedItem], off: dict[str, list[float | None]],
                  on: dict[str, list[float | None]], statistic: str, resamples: int,
                  seed: int) -> dict[str, PairedDifference]:
    """RUBY (every item, its fallback) without and with repair on the same judged items:
    the statistic of each and the paired bootstrap of the difference (tasks resampled for
    the AUCs, items for Spearman)."""
    a = [float(v) for v in with_fallback(off, "ruby")]  # type: ignore[arg-type]
    b = [float(v) for v in with_fallback(on, "ruby")]  # type: ignore[arg-type]
    if statistic == "auc":
        return paired_auc_difference(a, b, [int(it.judgment) for it in items],
                                     [it.group for it in items], resamples=resamples,
                                     seed=seed)
    return {"spearman": paired_spearman_difference(a, b, [it.judgment for it in items],
                                                   resamples=resamples, seed=seed)}


def print_repair_deltas(deltas: dict[str, dict[str, PairedDifference]]) -> None:
    """One row per judged set and statistic: without -> with repair, paired 95% CI."""
    print("## RUBY without and with repair, paired (same items, every item)\n")
    rows = []
    for name, per in deltas.items():
        for stat, d in per.items():
            rows.append([JUDGED_SETS[name][0], {"within": "within-task AUC",
                                                "pooled": "pooled AUC"}.get(stat, "Spearman"),
                         f"{d.n:,}", f"{d.a:.4f}", f"{d.b:.4f}", f"{d.difference:+.4f}",
                         f"[{d.ci[0]:+.4f}, {d.ci[1]:+.4f}]" if d.ci else "-",
                         f"{d.p:.3f}" if d.p is not None else "-"])
    print(_table(["judged set", "statistic", "n", "without", "with", "difference",
                  "95% CI (paired)", "p (paired bootstrap)"], rows,
                 ["l", "l", "r", "r", "r", "r", "l", "r"]))
    print()


def check_beta_support(grs_beta: float | None, also: Sequence[float]) -> bool:
    """False (with a message) when a beta is asked for but the scorer has no such option."""
    if grs_beta is None and not also:
        return True
    try:
        scorer_for("python", [], grs_beta=grs_beta if grs_beta is not None else also[0],
                   metrics=("grs",))
    except TypeError as exc:
        print(f"--grs-beta/--also-beta: {exc}", file=sys.stderr)
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the tables (markdown), optionally write JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="small run: 150 references, about 300 judged items (whole tasks) "
                         "per set, 200 resamples")
    ap.add_argument("--refs", type=int, default=None, help="references (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resamples", type=int, default=None, help="bootstrap resamples (1000)")
    ap.add_argument("--judged", type=int, default=None,
                    help="judged items per set, whole tasks (default: all; --quick: 300)")
    ap.add_argument("--no-exec", action="store_true", help="skip the test-execution check")
    ap.add_argument("--no-judged", action="store_true", help="skip the judged sets")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per test run")
    ap.add_argument("--datasets", type=Path, default=None,
                    help="shared datasets folder (default ../shared/datasets)")
    ap.add_argument("--workers", type=int, default=1, help="scoring worker processes")
    ap.add_argument("--grs-beta", type=float, default=None,
                    help="GRS's beta (passed to RubyScorer as grs_beta; default: the "
                         "scorer's own default)")
    ap.add_argument("--also-beta", type=float, action="append", default=[],
                    help="also report GRS's mutation AUC and operator orders at this beta "
                         "(reruns GRS only; repeatable)")
    ap.add_argument("--no-repair", action="store_true",
                    help="score without repair or error containment (RubyScorer "
                         "repair=False); the coverage table shows both either way")
    ap.add_argument("--no-coverage", action="store_true", help="skip the coverage table")
    ap.add_argument("--repair-delta", action="store_true",
                    help="also score the judged sets with the other repair setting and "
                         "print RUBY's paired difference (with - without) and its CI")
    ap.add_argument("--json", type=Path, default=None, help="write every number here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    n_refs = args.refs or (150 if args.quick else 2000)
    resamples = args.resamples or (200 if args.quick else 1000)
    n_judged = args.judged or (300 if args.quick else None)
    datasets = args.datasets or default_datasets()

    if not check_beta_support(args.grs_beta, args.also_beta):
        return 2
    repair = False if args.no_repair else None
    t0 = time.perf_counter()
    coverage = [] if args.no_coverage else run_coverage(datasets, 300 if args.quick else None,
                                                         args.workers)
    checker = None if args.no_exec else ExecutionChecker(CACHE, timeout=args.timeout)
    report, _ = run_mutation_benchmark(n_refs, seed=args.seed, datasets=datasets,
                                       checker=checker, resamples=resamples,
                                       workers=args.workers, grs_beta=args.grs_beta,
                                       also_betas=args.also_beta, repair=repair)
    t_mut = time.perf_counter() - t0

    judged: dict[str, dict[str, JudgedView]] = {}
    deltas: dict[str, dict[str, PairedDifference]] = {}
    for name, (_, filename, loader, opts, stat) in ({} if args.no_judged
                                                    else JUDGED_SETS).items():
        try:
            items = loader(datasets / "judged_dev" / filename, **opts)
        except FileNotFoundError:
            print(f"({name}: judged set not found under {datasets}; skipped)", file=sys.stderr)
            continue
        items = sample_groups(items, n_judged, args.seed)
        scores = score_judged(items, workers=args.workers, grs_beta=args.grs_beta,
                              repair=repair)
        judged[name] = judged_validity(scores, items, statistic=stat, resamples=resamples,
                                       seed=args.seed)
        if args.repair_delta:
            other = score_judged(items, workers=args.workers, grs_beta=args.grs_beta,
                                 repair=args.no_repair)
            off, on = (scores, other) if args.no_repair else (other, scores)
            deltas[name] = repair_deltas(items, off, on, stat, resamples, args.seed)
    t_all = time.perf_counter() - t0

    print(f"Scoring with repair and containment {'off' if args.no_repair else 'on'}.\n")
    if coverage:
        print_coverage(coverage)
    print_mutation(report, args.seed, resamples)
    if judged:
        print_judged(judged)
    if deltas:
        print_repair_deltas(deltas)
    print(f"time: mutation benchmark {t_mut:.0f} s, total {t_all:.0f} s")

    if args.json:
        payload = {
            "seed": args.seed,
            "resamples": resamples,
            "grs_beta": args.grs_beta,
            "also_beta": args.also_beta,
            "quick": args.quick,
            "repair": not args.no_repair,
            "coverage": [{"without_repair": off.to_dict(), "with_repair": on.to_dict()}
                         for off, on in coverage],
            "mutation": report.to_dict(),
            "judged": {name: {v: jv.to_dict() for v, jv in views.items()}
                       for name, views in judged.items()},
            "repair_delta": {name: {k: d.to_dict() for k, d in per.items()}
                             for name, per in deltas.items()},
            "seconds": {"mutation": t_mut, "total": t_all},
        }
        args.json.write_text(json.dumps(payload, indent=2, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
