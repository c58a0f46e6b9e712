"""CrystalBLEU's RQ2 on CodeXGLUE Java->C#: can a metric tell a real model from a dummy?

The dummy (Eghbali & Pradel, ASE 2022, section 4.4) knows each gold translation's length, its
tokens in order, and the trivially shared n-grams S of C#. Until its prediction is as long
as the gold, with probability p it *prepends* a trivially shared n-gram (drawn uniformly
from S), else it *appends* the next correct token. p is tuned (bisection, with the same
random draws for every p) so that the dummy's corpus BLEU matches the model's. The output
is mostly common-but-meaningless n-grams followed by a fragment of the right code.

Then both systems are compared against the gold with every metric: corpus scores (summed
statistics for CrystalBLEU/BLEU, means for the others) and p-values of paired approximate
randomization, paired bootstrap and paired t-test.

Data: ``codexglue_code2code_trans/model_outputs/java-cs-model1.{output,gold}`` (1,000 C#
predictions of a published baseline, one method per line) and S = the 500 most frequent
1..4-grams of ``train.java-cs.txt.cs`` (the same set ruby-metric ships for C#).

Usage::

    python benchmarks/meta_dummy.py [--data DIR] [--seed 0] [--trials 10000]
                                    [--bootstrap 1000] [--workers 2] [--p P] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import crystal
import graphs
from ruby_metric import RubyScorer
from ruby_metric.io.inputs import read_text, split_lines
from ruby_metric.meta import compare_systems
from ruby_metric.scoring.metrics import LABELS, METRICS

DEFAULT_DATA = (
    Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "codexglue_code2code_trans"
)
ORDER = tuple(reversed(METRICS))  # cheapest first
NAMES = LABELS

logger = logging.getLogger("meta_dummy")


def dummy_prediction(
    gold: list[str], shared: list[tuple[str, ...]], p: float, rng: np.random.Generator
) -> list[str]:
    """One dummy output: shared n-grams prepended with probability p, gold tokens appended."""
    prefix: list[tuple[str, ...]] = []  # prepended n-grams, most recent last
    suffix: list[str] = []
    length = 0
    next_token = 0
    while length < len(gold):
        if rng.random() < p:
            gram = shared[int(rng.integers(len(shared)))]
            prefix.append(gram)
            length += len(gram)
        else:
            suffix.append(gold[next_token])
            next_token += 1
            length += 1
    return [tok for gram in reversed(prefix) for tok in gram] + suffix


def dummy_system(
    golds: list[list[str]], shared: list[tuple[str, ...]], p: float, seed: int
) -> list[str]:
    """The dummy's outputs as text (tokens joined by spaces), same draws for the same seed."""
    rng = np.random.default_rng(seed)
    return [" ".join(dummy_prediction(gold, shared, p, rng)) for gold in golds]


def tune_p(
    golds_text: list[str],
    golds: list[list[str]],
    shared: list[tuple[str, ...]],
    target: float,
    seed: int,
    steps: int = 30,
) -> tuple[float, float]:
    """Bisect p so the dummy's corpus BLEU is the target (BLEU falls as p grows)."""
    bleu = RubyScorer(language="csharp", metrics=["bleu"])
    low, high = 0.0, 0.999
    best = (0.0, 1.0)
    for _ in range(steps):
        mid = (low + high) / 2
        score = bleu.score_corpus(golds_text, dummy_system(golds, shared, mid, seed)).bleu
        if abs(score - target) < abs(best[1] - target):
            best = (mid, score)
        if score > target:
            low = mid
        else:
            high = mid
    return best


def _p(value: float | None, floor: float | None = None) -> str:
    """A p-value; at the test's resolution floor, say so instead of printing the floor."""
    if value is None:
        return "–"
    if floor is not None and value <= floor * (1 + 1e-9):
        return f"< {floor:.0e}" if value < floor else f"≤ {floor:.0e}"
    return f"{value:.1e}" if value < 1e-3 else f"{value:.3f}"


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "| metric | model | dummy | model − dummy | 95% CI | p (approx. rand.) | "
        "p (bootstrap) | p (t-test) | pairs |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    # The smallest p each resampling test can give: 1 / (trials + 1), and "0 of B resamples".
    ar_floor = 1 / (result["trials"] + 1)
    boot_floor = 1 / result["bootstrap"]
    for name, r in result["metrics"].items():
        ci = r["difference_ci"]
        ci_text = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "–"
        lines.append(
            f"| {NAMES.get(name, name)} | {r['score_a']:.3f} | {r['score_b']:.3f} | "
            f"{r['difference']:+.3f} | {ci_text} | {_p(r['p_value_randomization'], ar_floor)} | "
            f"{_p(r['p_value_bootstrap'], boot_floor)} | {_p(r['p_value_ttest'])} | {r['n']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="codexglue folder")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trials", type=int, default=10000)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("-k", type=int, default=500, help="size of S (500)")
    parser.add_argument(
        "--p", type=float, help="use this prepend probability instead of tuning it to BLEU"
    )
    parser.add_argument("--metrics", help="comma-separated (default: all available)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the full results here")
    parser.add_argument("--markdown", type=Path, help="write the README table here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)

    outputs = args.data / "model_outputs"
    if not outputs.is_dir():
        logger.error("CodeXGLUE data not found at %s; pass --data DIR", args.data)
        return 2
    golds_text = split_lines(read_text(outputs / "java-cs-model1.gold"))
    model = split_lines(read_text(outputs / "java-cs-model1.output"))
    train = [line for line in split_lines(read_text(args.data / "train.java-cs.txt.cs")) if line]
    s_set = crystal.build_ngram_set(train, k=args.k)
    shared = sorted(s_set.ngrams)  # sorted: the draws must not depend on set iteration order
    golds = [crystal.tokenize(g) for g in golds_text]

    bleu_only = RubyScorer(language="csharp", metrics=["bleu"])
    model_bleu = bleu_only.score_corpus(golds_text, model).bleu
    start = time.perf_counter()
    if args.p is None:
        p, dummy_bleu = tune_p(golds_text, golds, shared, model_bleu, args.seed)
    else:
        p = args.p
        dummy_bleu = bleu_only.score_corpus(
            golds_text, dummy_system(golds, shared, p, args.seed)
        ).bleu
    logger.info(
        "model BLEU %.4f; dummy p = %.4f gives BLEU %.4f (tuned in %.1f s)",
        model_bleu,
        p,
        dummy_bleu,
        time.perf_counter() - start,
    )
    dummy = dummy_system(golds, shared, p, args.seed)

    graph_tier = hasattr(graphs, "build_pdg")
    if args.metrics:
        metrics = [m.strip() for m in args.metrics.split(",")]
    else:
        metrics = [m for m in ORDER if graph_tier or m not in ("grs", "ruby")]
    scorer = RubyScorer(language="csharp", ngrams=s_set, metrics=metrics)
    start = time.perf_counter()
    report = compare_systems(
        scorer,
        golds_text,
        model,
        dummy,
        trials=args.trials,
        bootstrap=args.bootstrap,
        seed=args.seed,
        workers=args.workers,
    )
    seconds = time.perf_counter() - start
    logger.info("scored and tested in %.1f s (tests alone %.1f s)", seconds, report.seconds)
    result = report.to_dict()
    result["metrics"] = {m: result["metrics"][m] for m in ORDER if m in result["metrics"]}
    result.update(
        p=p,
        model_bleu=model_bleu,
        dummy_bleu=dummy_bleu,
        graph_tier=graph_tier,
        ngrams={"k": s_set.k, "corpus_size": s_set.corpus_size, "hash": s_set.content_hash},
        examples=[{"gold": golds_text[i], "model": model[i], "dummy": dummy[i]} for i in (0, 3)],
        seconds=round(seconds, 1),
    )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    md = markdown(result)
    if args.markdown:
        args.markdown.write_text(md + "\n", encoding="utf-8")
    print(md)
    for ex in result["examples"]:
        print(f"\ngold:  {ex['gold']}\nmodel: {ex['model']}\ndummy: {ex['dummy']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
