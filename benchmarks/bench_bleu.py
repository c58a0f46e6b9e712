"""Benchmark crystal's BLEU/CrystalBLEU against crystalbleu 0.2 and NLTK on CodeXGLUE.

Tokenizes the 1,000 java-cs-model1 predictions and gold lines with crystal's "code" tokenizer,
builds the trivially shared n-gram set S (top-500, orders 1-4) from train.java-cs.txt.cs, then
measures pairs/s for:

* sentence-level CrystalBLEU: crystal.sentence_bleu (S as the NgramSet, and as the same dict
  crystalbleu gets, one dict object passed on every call as in crystalbleu's own usage; the
  goal is at least 5x crystalbleu), crystal.CrystalBLEU.sentence_score, and
  crystalbleu.sentence_bleu with S as a dict of tuples (its fast path);
* sentence-level BLEU: crystal.sentence_bleu vs nltk's sentence_bleu;
* corpus-level CrystalBLEU and BLEU, likewise.

Smoothing is NLTK's method1 with epsilon 1e-4, as the CrystalBLEU authors used. Every
measurement is the best of --repeats runs, the implementations interleaved, because other
processes may share the CPU. The script also checks that the scores agree (max abs diff) and
exits with status 1 if they differ by more than 1e-9.

Usage: python benchmarks/bench_bleu.py [--data DIR] [--repeats N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import crystal

DEFAULT_DATA = (
    Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "codexglue_code2code_trans"
)
FILES = (
    "model_outputs/java-cs-model1.output",
    "model_outputs/java-cs-model1.gold",
    "train.java-cs.txt.cs",
)


TIMERS = {"wall": time.perf_counter, "cpu": time.process_time}
TIMER = TIMERS["wall"]


def best_of(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Fastest time of ``repeats`` calls (with the chosen timer), and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = TIMER()
        result = fn()
        best = min(best, TIMER() - start)
    return best, result


def interleaved(runs: dict[str, Callable[[], Any]], repeats: int) -> dict[str, tuple[float, Any]]:
    """Best time of each run, the runs taking turns so that load spikes hit all of them."""
    out: dict[str, tuple[float, Any]] = {name: (float("inf"), None) for name in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            elapsed, result = best_of(fn, 1)
            if elapsed < out[name][0]:
                out[name] = (elapsed, result)
    return out


def max_diff(a: Any, b: Any) -> float:
    if isinstance(a, list):
        return max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0)
    return abs(a - b)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help="CodeXGLUE code2code folder"
    )
    parser.add_argument("--repeats", type=int, default=5, help="best of N runs (default 5)")
    parser.add_argument("--k", type=int, default=500, help="size of S (default 500)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--timer",
        choices=sorted(TIMERS),
        default="wall",
        help="wall clock (default) or this process's CPU time, steadier on a shared machine",
    )
    args = parser.parse_args(argv)
    global TIMER
    TIMER = TIMERS[args.timer]

    missing = [name for name in FILES if not (args.data / name).is_file()]
    if missing:
        print(
            f"bench_bleu: CodeXGLUE data not found in {args.data} (missing {', '.join(missing)}); "
            "pass --data DIR",
            file=sys.stderr,
        )
        return 2
    try:
        import crystalbleu
        from nltk.translate import bleu_score as nltk_bleu
    except ImportError as exc:
        print(f"bench_bleu: needs crystalbleu and nltk ({exc})", file=sys.stderr)
        return 2
    warnings.simplefilter("ignore")  # NLTK's method0 warnings, should any fire

    results: dict[str, Any] = {"data": str(args.data), "repeats": args.repeats, "timer": args.timer}
    # One-off: the first count in a process loads the compiled kernel (numba's cache); the
    # rates below are steady state, as for the peers.
    start = time.perf_counter()
    crystal.sentence_bleu([["a", "b"]], ["a", "b"])
    results["first_call_s"] = time.perf_counter() - start
    lines_h = list(crystal.read_corpus(args.data / FILES[0]))
    lines_r = list(crystal.read_corpus(args.data / FILES[1]))
    texts = lines_h + lines_r
    elapsed, tokens = best_of(lambda: [crystal.tokenize(t) for t in texts], args.repeats)
    hyps, golds = tokens[: len(lines_h)], tokens[len(lines_h) :]
    refs = [[g] for g in golds]
    n_pairs = len(hyps)
    n_tokens = sum(map(len, tokens))
    results["pairs"] = n_pairs
    results["mean_tokens"] = n_tokens / len(tokens)
    results["tokenize"] = {
        "snippets_per_s": len(texts) / elapsed,
        "tokens_per_s": n_tokens / elapsed,
        "mb_per_s": sum(len(t.encode()) for t in texts) / elapsed / 1e6,
    }

    start = time.perf_counter()
    ngram_set = crystal.build_ngram_set(crystal.read_corpus(args.data / FILES[2]), k=args.k)
    results["build_ngram_set_s"] = time.perf_counter() - start
    as_dict = dict(ngram_set.counts)
    cb_sf = crystalbleu.SmoothingFunction(epsilon=1e-4).method1
    nltk_sf = nltk_bleu.SmoothingFunction(epsilon=1e-4).method1
    metric = crystal.CrystalBLEU(ngram_set)
    pairs = list(zip(refs, hyps, strict=True))

    sentence = interleaved(
        {
            "crystalbleu": lambda: [
                crystalbleu.sentence_bleu(r, h, smoothing_function=cb_sf, ignoring=as_dict)
                for r, h in pairs
            ],
            "ours_ngramset": lambda: [
                crystal.sentence_bleu(r, h, smoothing_function=cb_sf, ignoring=ngram_set)
                for r, h in pairs
            ],
            "ours_dict": lambda: [
                crystal.sentence_bleu(r, h, smoothing_function=cb_sf, ignoring=as_dict)
                for r, h in pairs
            ],
            "ours_CrystalBLEU": lambda: [metric.sentence_score(r, h) for r, h in pairs],
            "nltk_bleu": lambda: [
                nltk_bleu.sentence_bleu(r, h, smoothing_function=nltk_sf) for r, h in pairs
            ],
            "ours_bleu": lambda: [
                crystal.sentence_bleu(r, h, smoothing_function=nltk_sf) for r, h in pairs
            ],
        },
        args.repeats,
    )
    corpus = interleaved(
        {
            "crystalbleu": lambda: crystalbleu.corpus_bleu(
                refs, hyps, smoothing_function=cb_sf, ignoring=as_dict
            ),
            "ours_ngramset": lambda: crystal.corpus_bleu(
                refs, hyps, smoothing_function=cb_sf, ignoring=ngram_set
            ),
            "nltk_bleu": lambda: nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=nltk_sf),
            "ours_bleu": lambda: crystal.corpus_bleu(refs, hyps, smoothing_function=nltk_sf),
        },
        args.repeats,
    )

    # Agreement. CrystalBLEU.sentence_score differs by design on exact matches (1.0).
    exact = [h == r[0] for r, h in pairs]
    product = [s for s, e in zip(sentence["ours_CrystalBLEU"][1], exact, strict=True) if not e]
    reference = [s for s, e in zip(sentence["crystalbleu"][1], exact, strict=True) if not e]
    diffs = {
        "sentence_crystalbleu_ngramset": max_diff(
            sentence["ours_ngramset"][1], sentence["crystalbleu"][1]
        ),
        "sentence_crystalbleu_dict": max_diff(sentence["ours_dict"][1], sentence["crystalbleu"][1]),
        "sentence_CrystalBLEU_non_exact": max_diff(product, reference),
        "sentence_bleu": max_diff(sentence["ours_bleu"][1], sentence["nltk_bleu"][1]),
        "corpus_crystalbleu": max_diff(corpus["ours_ngramset"][1], corpus["crystalbleu"][1]),
        "corpus_bleu": max_diff(corpus["ours_bleu"][1], corpus["nltk_bleu"][1]),
    }
    results["max_abs_diff"] = diffs
    results["sentence_pairs_per_s"] = {k: n_pairs / t for k, (t, _) in sentence.items()}
    results["corpus_pairs_per_s"] = {k: n_pairs / t for k, (t, _) in corpus.items()}
    sps = results["sentence_pairs_per_s"]
    cps = results["corpus_pairs_per_s"]
    results["ratios"] = {
        "sentence_crystalbleu_ngramset": sps["ours_ngramset"] / sps["crystalbleu"],
        "sentence_crystalbleu_dict": sps["ours_dict"] / sps["crystalbleu"],
        "sentence_CrystalBLEU_class": sps["ours_CrystalBLEU"] / sps["crystalbleu"],
        "sentence_bleu_vs_nltk": sps["ours_bleu"] / sps["nltk_bleu"],
        "corpus_crystalbleu": cps["ours_ngramset"] / cps["crystalbleu"],
        "corpus_bleu_vs_nltk": cps["ours_bleu"] / cps["nltk_bleu"],
    }
    # Throughput by pair length (hypothesis + reference tokens), where the numpy path's fixed
    # cost matters most.
    buckets: dict[str, list[int]] = {"<60": [], "60-119": [], ">=120": []}
    for i, (r, h) in enumerate(pairs):
        size = len(h) + len(r[0])
        key = "<60" if size < 60 else "60-119" if size < 120 else ">=120"
        buckets[key].append(i)
    by_length = {}
    for key, idx in buckets.items():
        if not idx:
            continue
        sub = [pairs[i] for i in idx]
        timed = interleaved(
            {
                "crystalbleu": lambda sub=sub: [
                    crystalbleu.sentence_bleu(r, h, smoothing_function=cb_sf, ignoring=as_dict)
                    for r, h in sub
                ],
                "ours": lambda sub=sub: [
                    crystal.sentence_bleu(r, h, smoothing_function=cb_sf, ignoring=ngram_set)
                    for r, h in sub
                ],
            },
            args.repeats,
        )
        by_length[key] = {
            "pairs": len(idx),
            "mean_tokens_per_pair": sum(len(pairs[i][1]) + len(pairs[i][0][0]) for i in idx)
            / len(idx),
            "crystalbleu_pairs_per_s": len(idx) / timed["crystalbleu"][0],
            "ours_pairs_per_s": len(idx) / timed["ours"][0],
            "ratio": timed["crystalbleu"][0] / timed["ours"][0],
        }
    results["sentence_by_length"] = by_length
    ok = all(d <= 1e-9 for d in diffs.values())
    results["agree_1e-9"] = ok

    if args.json:
        print(json.dumps(results, indent=2))
    else:
        _report(results)
    return 0 if ok else 1


def _report(r: dict[str, Any]) -> None:
    tok = r["tokenize"]
    print(f"data: {r['data']}")
    print(f"one-off: first call in this process {r['first_call_s']:.2f} s (compiled kernel load)")
    print(
        f"{r['pairs']} pairs, {r['mean_tokens']:.1f} tokens per snippet, "
        f"best of {r['repeats']} ({r['timer']} time)"
    )
    print(
        f"tokenize: {tok['snippets_per_s']:,.0f} snippets/s, {tok['tokens_per_s']:,.0f} tokens/s, "
        f"{tok['mb_per_s']:.1f} MB/s"
    )
    print(f"build_ngram_set (k=500, train.java-cs.txt.cs): {r['build_ngram_set_s']:.2f} s")
    print()
    sps, cps, ratios = r["sentence_pairs_per_s"], r["corpus_pairs_per_s"], r["ratios"]
    print("sentence level                                   pairs/s    vs reference")
    rows = [
        ("crystalbleu.sentence_bleu (S as dict)", sps["crystalbleu"], None),
        (
            "crystal.sentence_bleu (S as NgramSet)",
            sps["ours_ngramset"],
            "sentence_crystalbleu_ngramset",
        ),
        (
            "crystal.sentence_bleu (S as the same dict)",
            sps["ours_dict"],
            "sentence_crystalbleu_dict",
        ),
        (
            "crystal.CrystalBLEU.sentence_score",
            sps["ours_CrystalBLEU"],
            "sentence_CrystalBLEU_class",
        ),
        ("nltk sentence_bleu (plain BLEU)", sps["nltk_bleu"], None),
        ("crystal.sentence_bleu (plain BLEU)", sps["ours_bleu"], "sentence_bleu_vs_nltk"),
    ]
    for name, value, ratio in rows:
        extra = f"{ratios[ratio]:6.2f}x" if ratio else ""
        print(f"  {name:<45} {value:10,.0f}    {extra}")
    print("corpus level")
    rows = [
        ("crystalbleu.corpus_bleu", cps["crystalbleu"], None),
        ("crystal.corpus_bleu (CrystalBLEU)", cps["ours_ngramset"], "corpus_crystalbleu"),
        ("nltk corpus_bleu", cps["nltk_bleu"], None),
        ("crystal.corpus_bleu (plain BLEU)", cps["ours_bleu"], "corpus_bleu_vs_nltk"),
    ]
    for name, value, ratio in rows:
        extra = f"{ratios[ratio]:6.2f}x" if ratio else ""
        print(f"  {name:<45} {value:10,.0f}    {extra}")
    print("sentence-level CrystalBLEU by pair size (hyp + ref tokens)")
    for key, b in r["sentence_by_length"].items():
        print(
            f"  {key:>7}: {b['pairs']:4d} pairs, {b['mean_tokens_per_pair']:5.0f} tokens/pair, "
            f"crystalbleu {b['crystalbleu_pairs_per_s']:8,.0f}/s, ours "
            f"{b['ours_pairs_per_s']:8,.0f}/s, {b['ratio']:5.2f}x"
        )
    print(
        "max abs diff vs reference: "
        + ", ".join(f"{k} {v:.1e}" for k, v in r["max_abs_diff"].items())
    )
    print("agreement to 1e-9: " + ("yes" if r["agree_1e-9"] else "NO"))


if __name__ == "__main__":
    sys.exit(main())
