"""Full RUBY throughput vs CodeBLEU on the CodeXGLUE Java->C# model outputs.

Measures, on the same 1,000 (gold, output) C# pairs:

* ruby-metric with every tier and CrystalBLEU, in one process (pairs/s), on all pairs and
  on the pairs whose output differs from the gold line;
* the same pairs repeated (10x: 10,000 pairs) with 1 process and with 2 worker processes,
  as a user runs them: a fresh scorer's first ``score_corpus(..., workers=2)`` (start-up
  included), then a second call on the same scorer (its pool reused), with the output
  checked byte-identical to 1 process; and what a worker's start-up costs (interpreter,
  imports, loading the compiled kernels), measured in a fresh interpreter;
* the graph tier alone: PDG build of both sides + GED, per pair (median, p90 ms);
* CodeBLEU 0.7.0 (``calc_codebleu`` per pair, lang c_sharp) in its own venv, since it pins
  tree-sitter < 0.23: create it with ``benchmarks/setup_peers.sh`` (skipped if absent).

Run: ``python benchmarks/bench_ruby.py [--data DIR] [--peer-python PATH] [--pairs N]``.
"""

from __future__ import annotations

import argparse
import json
import resource
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


_STARTUP_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import ruby_metric.batch.engine  # what a worker imports to run a chunk
t1 = time.perf_counter()
from ruby_metric import RubyScorer
scorer = RubyScorer(language="cs")
t2 = time.perf_counter()
scorer.score_corpus([sys.argv[1]], [sys.argv[2]])  # parsers, kernels from the cache
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "scorer": t2 - t1, "first_pair": t3 - t2}))
"""


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its reaped children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN
    )
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def _worker_startup(ref: str, hyp: str) -> dict[str, float]:
    """A fresh interpreter's costs before it scores: what each worker pays once."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _STARTUP_SCRIPT, ref, hyp],
        capture_output=True,
        text=True,
        check=True,
    )
    costs = json.loads(proc.stdout)
    costs["process"] = time.perf_counter() - start
    return costs


def _bench_workers(scorer_class, refs, hyps, repeat: int, one) -> None:  # noqa: ANN001
    """1 process against 2 workers on the pairs repeated, start-up included, as a user runs
    it; output checked byte-identical."""
    big_refs, big_hyps = refs * repeat, hyps * repeat
    n = len(big_refs)
    serial_scorer = scorer_class(language="cs")
    serial_scorer.score_corpus(refs[:20], hyps[:20])  # its one-off loading, as in the pool
    start = time.perf_counter()
    serial = serial_scorer.score_corpus(big_refs, big_hyps)
    t_serial = time.perf_counter() - start
    expected = json.dumps(serial.to_dict(), sort_keys=True)

    cpu_before = _cpu()
    with scorer_class(language="cs") as scorer:  # a fresh scorer: no pool yet
        start = time.perf_counter()
        first = scorer.score_corpus(big_refs, big_hyps, workers=2)
        t_first = time.perf_counter() - start
        start = time.perf_counter()
        again = scorer.score_corpus(big_refs, big_hyps, workers=2)
        t_again = time.perf_counter() - start
        start = time.perf_counter()
        scorer.score_corpus(refs[:200], hyps[:200], workers=2)  # 4 chunks: latency of a call
        t_small = time.perf_counter() - start
    cpu_after = _cpu()
    cpu_parent, cpu_workers = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
    for result in (first, again):
        assert json.dumps(result.to_dict(), sort_keys=True) == expected, "workers changed it"
    assert one.to_dict()["corpus"]["pairs"] == len(refs)
    costs = _worker_startup(refs[0], hyps[0])
    serial_cpu = t_serial  # one busy process: its wall time is its CPU time
    # On a shared machine wall times mix in others' load: CPU seconds say what the run cost.
    print(
        f"  CPU seconds for the three 2-worker calls: workers {cpu_workers:.2f} s (start-up "
        f"included), this process {cpu_parent:.2f} s; 1 process, one call: ~{serial_cpu:.2f} s"
    )
    print(
        f"{n} pairs: 1 process {t_serial:.2f} s ({n / t_serial:.0f} pairs/s); 2 workers, "
        f"first call (start-up included) {t_first:.2f} s: {t_serial / t_first:.2f}x; "
        f"second call (pool reused) {t_again:.2f} s: {t_serial / t_again:.2f}x; "
        f"output byte-identical"
    )
    print(
        f"  start-up paid by the first call: ~{t_first - t_again:.2f} s; a later call of 200 "
        f"pairs on the same pool: {t_small:.3f} s"
    )
    print(
        f"  one worker's start-up, in a fresh interpreter: {costs['process']:.2f} s in all "
        f"(imports {costs['import']:.2f} s, scorer {costs['scorer']:.2f} s, first pair with "
        f"the kernels loaded from the cache {costs['first_pair']:.2f} s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--peer-python", type=Path, default=DEFAULT_PEER)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument(
        "--repeat", type=int, default=10, help="repeats of the pairs for the worker run (10)"
    )
    args = parser.parse_args()

    gold = args.data / "model_outputs" / "java-cs-model1.gold"
    output = args.data / "model_outputs" / "java-cs-model1.output"
    if not gold.is_file():
        print(f"dataset not found: {gold} (pass --data)", file=sys.stderr)
        return 2
    refs, hyps = _lines(gold, args.pairs), _lines(output, args.pairs)

    import graphs
    from ruby_metric import RubyScorer
    from ruby_metric.scoring.tiers import grs_ged_options

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

    _bench_workers(RubyScorer, refs, hyps, args.repeat, one)

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
