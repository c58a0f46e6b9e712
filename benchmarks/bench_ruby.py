"""Full RUBY throughput vs CodeBLEU on the CodeXGLUE Java->C# model outputs.

Measures, on the same 1,000 (gold, output) C# pairs:

* ruby-metric with every tier and CrystalBLEU, in one process (pairs/s), on all pairs and
  on the pairs whose output differs from the gold line;
* the same pairs repeated (10x: 10,000 pairs) with 1 process and with 2 worker processes,
  as a user runs them, in interleaved rounds: a fresh scorer's first
  ``score_corpus(..., workers=2)`` (start-up included), then a second call on the same
  scorer (its pool kept), with the output checked byte-identical to 1 process; the
  first-call and kept-pool ratios in wall time and, from the CPU seconds of the caller and
  of each worker, on two idle cores (the cores are shared); and what a worker's start-up
  costs step by step (interpreter, imports, payload check, the first pairs' grammar and
  kernels), in CPU seconds of a fresh interpreter;
* the graph tier alone: PDG build of both sides + GED, per pair (median, p90 ms);
* CodeBLEU 0.7.0 (``calc_codebleu`` per pair, lang c_sharp) in its own venv, since it pins
  tree-sitter < 0.23: create it with ``benchmarks/setup_peers.sh`` (skipped if absent),
  timed in rounds interleaved with ruby-metric's (the host's speed drifts within minutes);
* two workloads that repeat references, each with the reference cache on and off
  (``reference_cache=0``), runs interleaved, output checked byte-identical, and CodeBLEU on
  the same pairs: the repeated-reference workload (the shared HumanEval-Python completions,
  about 20 samples per reference: ``--humaneval-tasks`` tasks of 161) and the two-system
  workload (the CodeXGLUE model's outputs and the gold lines as two systems scored against
  the same references), the two-system workload also on 2 workers (CPU seconds of the
  caller and of each worker, first call and kept pool);
* with ``--memory``: the resident memory of a streamed 10,000-pair run (cache on and off,
  each in a fresh interpreter), sampled every 1,000 pairs: on the 10,000 CodeXGLUE pairs
  and on 10,000 distinct training references (which fill the cache to its bound).

Run: ``python benchmarks/bench_ruby.py [--data DIR] [--peer-python PATH] [--pairs N]
[--humaneval-tasks N] [--rounds N] [--memory]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this checkout's ruby_metric, not an installed one
# the shared data beside the checkout (or beside the directory of worktrees)
_SHARED = next((p / "shared" / "datasets" for p in HERE.parents
                if (p / "shared" / "datasets").is_dir()), HERE.parents[1] / "shared" / "datasets")
DEFAULT_DATA = _SHARED / "codexglue_code2code_trans"
DEFAULT_PEER = HERE / ".peers" / "bin" / "python"
DEFAULT_HUMANEVAL = _SHARED / "judged_dev" / "humaneval_python_grade.json"

# Runs inside the CodeBLEU venv: times calc_codebleu pair by pair on the same pairs (a JSON
# file of [reference, candidate] lists, read from stdin), in the given CodeBLEU language.
_CODEBLEU_SCRIPT = r"""
import json, sys, time
from codebleu import calc_codebleu
pairs, lang = json.load(sys.stdin), sys.argv[1]
calc_codebleu([pairs[0][0]], [pairs[0][1]], lang=lang)  # warm-up: parser construction
times = []
start, cpu = time.perf_counter(), time.process_time()
for r, h in pairs:
    t = time.perf_counter()
    calc_codebleu([r], [h], lang=lang)
    times.append(time.perf_counter() - t)
total, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"total": total, "cpu": cpu, "times": times}))
"""


def _codebleu(peer: Path, refs: list[str], hyps: list[str], lang: str) -> dict | None:
    """CodeBLEU's per-pair times on these pairs, in its venv; ``None`` (said why) when it
    cannot run."""
    if not peer.is_file():
        print(f"CodeBLEU peer venv not found ({peer}); run benchmarks/setup_peers.sh")
        return None
    proc = subprocess.run(
        [str(peer), "-c", _CODEBLEU_SCRIPT, lang],
        input=json.dumps([list(pair) for pair in zip(refs, hyps, strict=True)]),
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        print(f"CodeBLEU failed: {proc.stderr.strip().splitlines()[-1:]}")
        return None
    return json.loads(proc.stdout)


def _lines(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return f"median {1000 * statistics.median(values):.2f} ms, p90 {1000 * p90:.2f} ms"


_STARTUP_SCRIPT = r"""
import json, pickle, sys, time
clock = time.process_time  # CPU seconds: what a worker's start-up costs, whatever the load
steps, mark = {"interpreter": clock()}, clock()
def step(name):
    global mark
    steps[name], mark = clock() - mark, clock()
import graphs
step("import graphs")
import ruby_metric.batch.engine  # what a worker imports to run a chunk
from ruby_metric import RubyScorer
from ruby_metric.batch.worker import ready
from ruby_metric.io.inputs import PairInput
step("import ruby_metric")
scorer = RubyScorer(language="cs")
blob = pickle.dumps((scorer, {"csharp": scorer._crystal}))  # what a run sends its workers
assert ready(blob) is None  # the start-up check: the payload unpickled
step("payload check")
pairs = json.loads(sys.argv[1])
ruby_metric.batch.engine.score_payload_chunk(blob, [PairInput(0, *pairs[0], None)])
step("first pair (grammar, kernels)")
ruby_metric.batch.engine.score_payload_chunk(blob, [PairInput(1, *pairs[1], None)])
step("second pair (more kernels)")
print(json.dumps(steps))
"""


def _worker_startup(pairs: list[tuple[str, str]]) -> dict[str, float]:
    """A fresh interpreter's CPU seconds before it scores, step by step: what each worker
    pays once (the first two pairs: differing pairs that load the kernels)."""
    proc = subprocess.run(
        [sys.executable, "-c", _STARTUP_SCRIPT, json.dumps(pairs[:2])],
        capture_output=True, text=True, check=True, cwd=HERE.parent,
    )
    return json.loads(proc.stdout)


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a live process, from /proc (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pool_call(scorer, refs, hyps) -> tuple[object, float, float, list[float]]:  # noqa: ANN001
    """One ``score_corpus(..., workers=2)``: result, wall seconds, this process's CPU
    seconds, and each worker's CPU seconds so far."""
    cpu, start = time.process_time(), time.perf_counter()
    result = scorer.score_corpus(refs, hyps, workers=2)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return result, wall, cpu, [_process_cpu(p.pid) for p in scorer.worker_pool(2).processes]


def _idle_wall(caller: float, workers: list[float]) -> float:
    """The wall time of a run on two idle cores, from its CPU seconds: no less than its
    busiest worker, nor than all its CPU spread over both cores."""
    return max(max(workers), (sum(workers) + caller) / 2)


def _bench_workers(scorer_class, refs, hyps, repeat: int, rounds: int, one) -> None:  # noqa: ANN001
    """1 process against 2 workers on the pairs repeated, start-up included, as a user runs
    it: per round (interleaved), one process, then a fresh scorer's first call and its
    second call on the kept pool; output checked byte-identical. Shared cores make wall
    times depend on others' load, so each round also gives the ratios its CPU seconds
    imply on two idle cores."""
    big_refs, big_hyps = refs * repeat, hyps * repeat
    n = len(big_refs)
    print(f"{n} pairs, 1 process against 2 workers, {rounds} interleaved rounds:")
    ratios: dict[str, list[float]] = {"first": [], "kept": [], "first idle": [], "kept idle": []}
    for r in range(rounds):
        load = os.getloadavg()[0]
        serial_scorer = scorer_class(language="cs")
        serial_scorer.score_corpus(refs[:20], hyps[:20])  # its one-off loading, as a pool's
        cpu, start = time.process_time(), time.perf_counter()
        serial = serial_scorer.score_corpus(big_refs, big_hyps)
        t_serial, cpu_serial = time.perf_counter() - start, time.process_time() - cpu
        expected = json.dumps(serial.to_dict(), sort_keys=True)
        with scorer_class(language="cs") as scorer:  # a fresh scorer: no pool yet
            first, t_first, cpu_first, workers_first = _pool_call(scorer, big_refs, big_hyps)
            again, t_again, cpu_again, workers_total = _pool_call(scorer, big_refs, big_hyps)
        workers_again = [b - a for a, b in zip(workers_first, workers_total, strict=True)]
        for result in (first, again):
            assert json.dumps(result.to_dict(), sort_keys=True) == expected, "workers changed it"
        idle_first = cpu_serial / _idle_wall(cpu_first, workers_first)
        idle_again = cpu_serial / _idle_wall(cpu_again, workers_again)
        for key, value in (("first", t_serial / t_first), ("kept", t_serial / t_again),
                           ("first idle", idle_first), ("kept idle", idle_again)):
            ratios[key].append(value)
        print(
            f"  round {r + 1} (load {load:.1f} -> {os.getloadavg()[0]:.1f}): wall 1 process "
            f"{t_serial:.1f} s, first call {t_first:.1f} s ({t_serial / t_first:.2f}x), kept "
            f"pool {t_again:.1f} s ({t_serial / t_again:.2f}x); CPU s: 1 process "
            f"{cpu_serial:.1f}, first call caller {cpu_first:.1f} + workers "
            f"{' + '.join(f'{w:.1f}' for w in workers_first)}, kept pool caller "
            f"{cpu_again:.1f} + workers {' + '.join(f'{w:.1f}' for w in workers_again)}; on "
            f"two idle cores: first call {idle_first:.2f}x, kept pool {idle_again:.2f}x"
        )
    print(
        "  median over rounds: wall first call {:.2f}x, kept pool {:.2f}x; on two idle "
        "cores (from CPU seconds) first call {:.2f}x, kept pool {:.2f}x; output "
        "byte-identical".format(*(statistics.median(v) for v in ratios.values()))
    )
    assert one.to_dict()["corpus"]["pairs"] == len(refs)
    differ = [(a, b) for a, b in zip(refs, hyps, strict=True) if a != b]
    costs = _worker_startup(differ)
    print(
        f"  one worker's start-up, CPU seconds in a fresh interpreter: {sum(costs.values()):.2f}"
        f" ({', '.join(f'{k} {v:.2f}' for k, v in costs.items())})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--peer-python", type=Path, default=DEFAULT_PEER)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument(
        "--repeat", type=int, default=10, help="repeats of the pairs for the worker run (10)"
    )
    parser.add_argument("--humaneval", type=Path, default=DEFAULT_HUMANEVAL)
    parser.add_argument(
        "--humaneval-tasks", type=int, default=161,
        help="HumanEval tasks for the repeated-reference run (161: all, 3,220 pairs)",
    )
    parser.add_argument("--rounds", type=int, default=2,
                        help="interleaved rounds of cache on/off, and of 1 process against "
                        "2 workers (2)")
    parser.add_argument("--memory", action="store_true",
                        help="also measure a streamed 10,000-pair run's memory")
    parser.add_argument("--skip-base", action="store_true",
                        help="skip the 1:1 throughput, worker and GRS runs")
    parser.add_argument("--skip-repeated", action="store_true",
                        help="skip the repeated-reference and two-system runs")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f} (2 cores)")
    logging.getLogger("ruby_metric").setLevel(logging.ERROR)  # the corpus n-gram set notice

    gold = args.data / "model_outputs" / "java-cs-model1.gold"
    output = args.data / "model_outputs" / "java-cs-model1.output"
    if not gold.is_file():
        print(f"dataset not found: {gold} (pass --data)", file=sys.stderr)
        return 2
    refs, hyps = _lines(gold, args.pairs), _lines(output, args.pairs)

    if not args.skip_base:
        _bench_base(args, refs, hyps)

    if not args.skip_repeated:
        _bench_both_workloads(args, refs, hyps)
    if args.memory:
        train = _lines(args.data / "train.java-cs.txt.cs", 10_001)
        for label, mem_refs, mem_hyps in (
            (f"the {len(refs) * args.repeat:,} CodeXGLUE pairs", refs * args.repeat,
             hyps * args.repeat),
            ("10,000 distinct training references (each against the next)", train[:-1],
             train[1:]),
        ):
            _bench_memory(label, mem_refs, mem_hyps)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores)")
    return 0


def _bench_both_workloads(args: argparse.Namespace, refs: list[str], hyps: list[str]) -> None:
    """The repeated-reference and the two-system workloads."""
    from ruby_metric import RubyScorer

    if args.humaneval.is_file():
        records = json.loads(args.humaneval.read_text(encoding="utf-8"))[: args.humaneval_tasks]
        pairs = [(r["intent"] + r["snippet"][0], r["intent"] + r[k])
                 for r in records for k in r if k.isdigit()]
        _bench_repeated(
            f"repeated references: HumanEval-Python, {len(records)} tasks",
            RubyScorer, "python", [p[0] for p in pairs], [p[1] for p in pairs],
            args.rounds, args.peer_python, "python",
        )
    else:
        print(f"HumanEval completions not found ({args.humaneval}): no repeated-reference run")
    _bench_repeated(
        "two systems (model outputs, gold) against the same CodeXGLUE references",
        RubyScorer, "cs", refs + refs, hyps + refs, args.rounds, args.peer_python, "c_sharp",
    )
    _bench_two_systems_workers(RubyScorer, refs + refs, hyps + refs, args.rounds)


def _bench_two_systems_workers(scorer_class, refs: list[str], hyps: list[str],  # noqa: ANN001
                               rounds: int) -> None:
    """The two-system workload on 2 workers: a fresh scorer's first call and a second call
    on its kept pool, in CPU seconds of the caller and of each worker (every reference
    comes back 1,000 pairs later, beyond one block: the workers build it once in all when
    its pairs are routed to the worker that built it)."""
    expected = json.dumps(scorer_class(language="cs").score_corpus(refs, hyps).to_dict(),
                          sort_keys=True)
    print(f"two systems on 2 workers: {len(refs)} pairs, {rounds} rounds (CPU seconds):")
    for r in range(rounds):
        with scorer_class(language="cs") as scorer:
            first, _, cpu_first, workers_first = _pool_call(scorer, refs, hyps)
            again, _, cpu_again, workers_total = _pool_call(scorer, refs, hyps)
        workers_again = [b - a for a, b in zip(workers_first, workers_total, strict=True)]
        for result in (first, again):
            assert json.dumps(result.to_dict(), sort_keys=True) == expected, "workers changed it"
        print(f"  round {r + 1}: first call caller {cpu_first:.1f} + workers "
              f"{' + '.join(f'{w:.1f}' for w in workers_first)} = "
              f"{sum(workers_first):.1f}; kept pool caller {cpu_again:.1f} + workers "
              f"{' + '.join(f'{w:.1f}' for w in workers_again)} = {sum(workers_again):.1f}; "
              "output byte-identical")


def _bench_base(args: argparse.Namespace, refs: list[str], hyps: list[str]) -> None:
    """1:1 throughput against CodeBLEU, the worker runs and the graph tier alone.

    The machine's speed drifts by a fifth within minutes (a shared host), so ruby-metric and
    CodeBLEU are timed in interleaved rounds (ruby-metric, then CodeBLEU, ``--rounds``
    times): each ratio is of the best of each, with every round's ratio beside it."""
    import graphs
    from ruby_metric import RubyScorer

    # One-off costs, measured apart as CodeBLEU's parser construction is: loading the
    # numba kernels from their on-disk cache (every GED path; a few pairs would not reach
    # them all), then parsers and tables.
    kernels = graphs.ged.warm_up() + graphs.trees.ted.warm_up()
    RubyScorer(language="cs").score_corpus(refs[-20:], hyps[-20:])
    print(f"one-off warm-up: numba kernels {kernels:.2f} s")
    print(f"pairs: {len(refs)} (CodeXGLUE java-cs-model1, C# gold vs output)")
    # Over half of these model outputs equal their reference, which every tier scores from
    # one build: the pairs that differ are timed apart, so that share flatters nothing. Each
    # run is a fresh scorer's: no reference is in its cache yet, as none is in CodeBLEU's.
    differ = [i for i, (r, h) in enumerate(zip(refs, hyps, strict=True)) if r != h]
    rounds: list[tuple[float, float, list[float], dict | None]] = []
    one = None
    for _ in range(args.rounds):
        start = time.perf_counter()
        one = RubyScorer(language="cs").score_corpus(refs, hyps)
        t_one = time.perf_counter() - start
        start = time.perf_counter()
        RubyScorer(language="cs").score_corpus([refs[i] for i in differ],
                                              [hyps[i] for i in differ])
        t_differ = time.perf_counter() - start
        rounds.append((t_one, t_differ, _grs_times(refs, hyps),
                       _codebleu(args.peer_python, refs, hyps, "c_sharp")))
    t_one, t_differ = min(r[0] for r in rounds), min(r[1] for r in rounds)
    print(f"ruby-metric, all tiers + CrystalBLEU, 1 process: {len(refs) / t_one:8.1f} pairs/s"
          " (best of the rounds)")
    label = f"  the {len(differ)} pairs that differ:"
    print(f"{label:<49}{len(differ) / t_differ:8.1f} pairs/s")
    grs_times = min((r[2] for r in rounds), key=statistics.median)
    print(f"GRS (PDG build both sides + GED), {len(grs_times)} parsed pairs: {_ms(grs_times)}")
    if all(r[3] is not None for r in rounds):
        _versus_codebleu(rounds, len(refs), differ)

    _bench_workers(RubyScorer, refs, hyps, args.repeat, args.rounds, one)


def _grs_times(refs: list[str], hyps: list[str]) -> list[float]:
    """Seconds of the graph tier alone per parsed pair: both PDGs built, then the GED."""
    import graphs
    from ruby_metric.scoring.tiers import grs_ged_options

    times = []
    for ref, hyp in zip(refs, hyps, strict=True):
        a, b = graphs.parse(ref, "csharp"), graphs.parse(hyp, "csharp")
        if not (a.ok and b.ok):
            continue
        t = time.perf_counter()
        g1, g2 = graphs.build_pdg(a), graphs.build_pdg(b)
        graphs.graph_edit_distance(g1, g2, **grs_ged_options())
        times.append(time.perf_counter() - t)
    return times

def _versus_codebleu(rounds: list[tuple[float, float, list[float], dict]], n: int,
                     differ: list[int]) -> None:
    """CodeBLEU's rates and the ratios, from interleaved rounds of ``(ruby-metric seconds,
    seconds on the pairs that differ, GRS seconds per pair, CodeBLEU's times)``."""
    peer_total = [r[3]["total"] for r in rounds]
    peer_differ = [sum(r[3]["times"][i] for i in differ) for r in rounds]
    rate, differ_rate = n / min(peer_total), len(differ) / min(peer_differ)
    best_peer = min((r[3]["times"] for r in rounds), key=statistics.median)
    label = "CodeBLEU 0.7.0, per pair, 1 process:"
    print(f"{label:<49}{rate:8.1f} pairs/s ({_ms(best_peer)}; best of the rounds)")
    label = f"  the {len(differ)} pairs that differ:"
    print(f"{label:<49}{differ_rate:8.1f} pairs/s")
    t_one, t_differ = min(r[0] for r in rounds), min(r[1] for r in rounds)
    grs = min((r[2] for r in rounds), key=statistics.median)

    def each(values: list[float]) -> str:
        return ", ".join(f"{v:.2f}x" for v in values)

    print(f"ratio ruby-metric / CodeBLEU (1 process): {min(peer_total) / t_one:.2f}x "
          f"(rounds {each([r[3]['total'] / r[0] for r in rounds])}), on the pairs that differ "
          f"{min(peer_differ) / t_differ:.2f}x (rounds "
          f"{each([p / r[1] for p, r in zip(peer_differ, rounds, strict=True)])})")
    print(f"ratio GRS median / CodeBLEU median per pair: "
          f"{statistics.median(best_peer) / statistics.median(grs):.2f}x faster (rounds "
          f"{each([statistics.median(r[3]['times']) / statistics.median(r[2]) for r in rounds])})")


def _bench_repeated(label: str, scorer_class, lang: str, refs: list[str], hyps: list[str],  # noqa: ANN001
                    rounds: int, peer_python: Path, peer_lang: str) -> None:
    """Full RUBY with the reference cache on and off, a fresh scorer per run (a run's first
    call), and CodeBLEU on the same pairs, runs interleaved (on, off, CodeBLEU, ``rounds``
    times); the best of each, output checked byte-identical. Rates are given in CPU seconds
    of the scoring process (on a shared machine wall time mixes in the others' load) and in
    wall time."""
    times: dict[bool, list[float]] = {True: [], False: []}
    cpus: dict[bool, list[float]] = {True: [], False: []}
    peers: list[dict | None] = []
    outputs = set()
    hits = 0
    for _ in range(rounds):
        for cache in (True, False):
            scorer = scorer_class(language=lang, **({} if cache else {"reference_cache": 0}))
            start, cpu = time.perf_counter(), time.process_time()
            result = scorer.score_corpus(refs, hyps)
            times[cache].append(time.perf_counter() - start)
            cpus[cache].append(time.process_time() - cpu)
            outputs.add(json.dumps(result.to_dict(), sort_keys=True))
            hits = max(hits, scorer.reference_cache.hits)
        peers.append(_codebleu(peer_python, refs, hyps, peer_lang))
    assert len(outputs) == 1, "the reference cache changed the output"
    n = len(refs)
    print(f"{label}: {n} pairs, {len(set(refs))} distinct references ({hits} reused)")
    best = {}
    for clock, spent in (("CPU", cpus), ("wall", times)):
        on, off = min(spent[True]), min(spent[False])
        best[clock] = on, off
        per_round = ", ".join(
            f"{b / a:.2f}x" for a, b in zip(spent[True], spent[False], strict=True))
        print(f"  {clock}: cache on {n / on:.1f} pairs/s, off {n / off:.1f} pairs/s: "
              f"{off / on:.2f}x (per round {per_round})")
    print("  output byte-identical with and without the cache")
    if all(peer is not None for peer in peers):
        for clock, key, spent in (("CPU", "cpu", cpus), ("wall", "total", times)):
            peer_spent = [peer[key] for peer in peers]  # type: ignore[index]
            rate = n / min(peer_spent)
            on, off = best[clock]
            per_round = ", ".join(f"{p / a:.2f}x" for a, p in zip(spent[True], peer_spent,
                                                                   strict=True))
            print(f"  CodeBLEU 0.7.0 on the same pairs, 1 process, {clock}: {rate:.1f} pairs/s; "
                  f"ruby-metric / CodeBLEU: cache on {(n / on) / rate:.2f}x (per round "
                  f"{per_round}), off {(n / off) / rate:.2f}x")


# Runs in a fresh interpreter: a streamed run's resident memory every 1,000 pairs.
_MEMORY_SCRIPT = r"""
import json, resource, sys
from ruby_metric import RubyScorer
from ruby_metric.io.inputs import PairInput
refs, hyps = json.load(sys.stdin)
def rss():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmRSS:")) / 1024
scorer = RubyScorer(language="cs", reference_cache=int(sys.argv[1]))
pairs = lambda: (PairInput(i, r, h) for i, (r, h) in enumerate(zip(refs, hyps)))
samples = [round(rss(), 1) for i, _ in enumerate(scorer.stream(pairs), 1) if i % 1000 == 0]
print(json.dumps({"rss": samples, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                  / 1024, "kept": len(scorer.reference_cache),
                  "chars": scorer.reference_cache.chars}))
"""


def _bench_memory(label: str, refs: list[str], hyps: list[str]) -> None:
    """Resident memory of a streamed run with the cache on (default bound) and off."""
    from ruby_metric.scoring.reference_cache import DEFAULT_REFERENCE_CACHE

    print(f"streamed run, memory: {label}")
    for cache in (DEFAULT_REFERENCE_CACHE, 0):
        proc = subprocess.run(
            [sys.executable, "-c", _MEMORY_SCRIPT, str(cache)],
            input=json.dumps([refs, hyps]), capture_output=True, text=True, check=True,
            cwd=HERE.parent,
        )
        got = json.loads(proc.stdout)
        rss = got["rss"]
        half = rss[len(rss) // 2 - 1:]  # once a bounded cache is full
        print(f"  cache {cache:,} chars: RSS (MB) every 1,000 pairs {rss}; after the first "
              f"1,000 it moves {min(rss[1:]) - rss[0]:+.1f}..{max(rss[1:]) - rss[0]:+.1f} MB, "
              f"over the second half {max(half) - min(half):.1f} MB; peak {got['peak']:.0f} "
              f"MB; {got['kept']} references kept ({got['chars']:,} chars)")


if __name__ == "__main__":
    sys.exit(main())
