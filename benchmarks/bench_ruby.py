"""Full RUBY throughput vs CodeBLEU on the CodeXGLUE Java->C# model outputs.

Measures, on the same 1,000 (gold, output) C# pairs:

* ruby-metric with every tier and CrystalBLEU, in one process (pairs/s), on all pairs and
  on the pairs whose output differs from the gold line;
* the same pairs repeated (5x) with 1 process and with 2 worker processes: the speed-up,
  with the pool's one-off start-up reported apart;
* the graph tier alone: PDG build of both sides + GED, per pair (median, p90 ms);
* CodeBLEU 0.7.0 (``calc_codebleu`` per pair, lang c_sharp) in its own venv, since it pins
  tree-sitter < 0.23: create it with ``benchmarks/setup_peers.sh`` (skipped if absent).

Run: ``python benchmarks/bench_ruby.py [--data DIR] [--peer-python PATH] [--pairs N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parents[1] / "shared" / "datasets" / "codexglue_code2code_trans"
DEFAULT_PEER = HERE / ".peers" / "bin" / "python"

# Runs inside the CodeBLEU venv: times calc_codebleu pair by pair on the same lines.
_CODEBLEU_SCRIPT = r"""
import json, sys, time
from codebleu import calc_codebleu
refs = open(sys.argv[1], encoding="utf-8").read().split("\n")[: int(sys.argv[3])]
hyps = open(sys.argv[2], encoding="utf-8").read().split("\n")[: int(sys.argv[3])]
calc_codebleu([refs[0]], [hyps[0]], lang="c_sharp")  # warm-up: parser construction
times = []
start = time.perf_counter()
for r, h in zip(refs, hyps):
    t = time.perf_counter()
    calc_codebleu([r], [h], lang="c_sharp")
    times.append(time.perf_counter() - t)
total = time.perf_counter() - start
print(json.dumps({"total": total, "times": times}))
"""


def _lines(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return f"median {1000 * statistics.median(values):.2f} ms, p90 {1000 * p90:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--peer-python", type=Path, default=DEFAULT_PEER)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="repeats for the worker run")
    args = parser.parse_args()

    gold = args.data / "model_outputs" / "java-cs-model1.gold"
    output = args.data / "model_outputs" / "java-cs-model1.output"
    if not gold.is_file():
        print(f"dataset not found: {gold} (pass --data)", file=sys.stderr)
        return 2
    refs, hyps = _lines(gold, args.pairs), _lines(output, args.pairs)

    import graphs
    from ruby_metric import RubyScorer
    from ruby_metric.tiers import grs_ged_options
    from ruby_metric.worker import start_pool

    scorer = RubyScorer(language="cs")
    # One-off costs, measured apart as CodeBLEU's parser construction is: loading the
    # numba kernels from their on-disk cache (every GED path; a few pairs would not reach
    # them all), then parsers and tables.
    kernels = graphs.ged.warm_up() + graphs.ted.warm_up()
    scorer.score_corpus(refs[:20], hyps[:20])
    print(f"one-off warm-up: numba kernels {kernels:.2f} s")
    start = time.perf_counter()
    one = scorer.score_corpus(refs, hyps)
    t_one = time.perf_counter() - start
    print(f"pairs: {len(refs)} (CodeXGLUE java-cs-model1, C# gold vs output)")
    print(f"ruby-metric, all tiers + CrystalBLEU, 1 process: {len(refs) / t_one:8.1f} pairs/s")
    # Over half of these model outputs equal their reference, which every tier scores from
    # one build: the pairs that differ are timed apart, so that share flatters nothing.
    differ = [i for i, (r, h) in enumerate(zip(refs, hyps, strict=True)) if r != h]
    start = time.perf_counter()
    scorer.score_corpus([refs[i] for i in differ], [hyps[i] for i in differ])
    t_differ = time.perf_counter() - start
    label = f"  the {len(differ)} pairs that differ:"
    print(f"{label:<49}{len(differ) / t_differ:8.1f} pairs/s")

    # Workers: a longer run (the pairs repeated) so the pool's one-off start-up (clean
    # server that imports and compiles once) is measured apart from the steady state.
    big_refs, big_hyps = refs * args.repeat, hyps * args.repeat
    start = time.perf_counter()
    serial = scorer.score_corpus(big_refs, big_hyps)
    t_serial = time.perf_counter() - start
    start = time.perf_counter()
    # the library's pool: clean interpreters, each checked to load the scorer; then the
    # kernels loaded in each (a few pairs per worker), all counted as start-up
    with start_pool(2, scorer) as pool:
        scorer.score_corpus(refs[:40], hyps[:40], executor=pool)
        t_startup = time.perf_counter() - start
        start = time.perf_counter()
        parallel = scorer.score_corpus(big_refs, big_hyps, executor=pool)
        t_parallel = time.perf_counter() - start
    assert serial.to_dict() == parallel.to_dict(), "workers changed the results"
    assert one.to_dict()["corpus"]["pairs"] == len(refs)
    n = len(big_refs)
    print(
        f"{n} pairs: 1 process {n / t_serial:.1f} pairs/s, 2 workers {n / t_parallel:.1f} "
        f"pairs/s: speed-up {t_serial / t_parallel:.2f}x (pool start-up {t_startup:.2f} s "
        f"once, not included; with it {t_serial / (t_parallel + t_startup):.2f}x)"
    )

    grs_times = []
    for ref, hyp in zip(refs, hyps, strict=True):
        a, b = graphs.parse(ref, "csharp"), graphs.parse(hyp, "csharp")
        if not (a.ok and b.ok):
            continue
        t = time.perf_counter()
        g1, g2 = graphs.build_pdg(a), graphs.build_pdg(b)
        graphs.graph_edit_distance(g1, g2, **grs_ged_options())
        grs_times.append(time.perf_counter() - t)
    print(f"GRS (PDG build both sides + GED), {len(grs_times)} parsed pairs: {_ms(grs_times)}")

    if not args.peer_python.is_file():
        print(f"CodeBLEU peer venv not found ({args.peer_python}); run benchmarks/setup_peers.sh")
        return 0
    proc = subprocess.run(
        [str(args.peer_python), "-c", _CODEBLEU_SCRIPT, str(gold), str(output), str(len(refs))],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        print(f"CodeBLEU failed: {proc.stderr.strip().splitlines()[-1:]}")
        return 0
    peer = json.loads(proc.stdout)
    rate = len(refs) / peer["total"]
    label = "CodeBLEU 0.7.0, per pair, 1 process:"
    print(f"{label:<49}{rate:8.1f} pairs/s ({_ms(peer['times'])})")
    differ_rate = len(differ) / sum(peer["times"][i] for i in differ)
    label = f"  the {len(differ)} pairs that differ:"
    print(f"{label:<49}{differ_rate:8.1f} pairs/s")
    print(f"ratio ruby-metric / CodeBLEU (1 process): {(len(refs) / t_one) / rate:.2f}x, "
          f"on the pairs that differ {(len(differ) / t_differ) / differ_rate:.2f}x")
    print(
        f"ratio GRS median / CodeBLEU median per pair: "
        f"{statistics.median(peer['times']) / statistics.median(grs_times):.2f}x faster"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
