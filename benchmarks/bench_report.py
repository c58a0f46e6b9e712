"""Corpus report build time and page size on CodeXGLUE Java->C# model outputs.

Builds the ``ruby-metric report`` page (:func:`ruby_metric.reports.corpus.report_stream`) for
``--pairs`` (gold, output) C# pairs: the 1,000 model outputs, cycled with fresh ids to reach
10,000 by default (as bench_ruby.py repeats them for the worker run). Prints the time spent
scoring + aggregating, the time spent explaining the worst pairs and rendering, the page
size, and how the page's bytes split between sections. The page is written to ``--output``.

Run: ``python benchmarks/bench_report.py [--data DIR] [--pairs N] [--workers N] [-o FILE]``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parents[1] / "shared" / "datasets" / "codexglue_code2code_trans"


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worst", type=int, default=20)
    parser.add_argument(
        "--output",
        "-o",
        type=Path,
        default=Path(__file__).resolve().parent / ".cache" / "bench_report.html",
        help="where to write the page (default benchmarks/.cache/, which git ignores)",
    )
    args = parser.parse_args()

    gold = args.data / "model_outputs" / "java-cs-model1.gold"
    output = args.data / "model_outputs" / "java-cs-model1.output"
    if not gold.is_file():
        print(f"dataset not found: {gold} (pass --data)", file=sys.stderr)
        return 2
    refs, hyps = _lines(gold), _lines(output)
    if len(refs) != len(hyps):
        print(f"{gold} and {output} are not line-aligned", file=sys.stderr)
        return 2

    # this checkout's package, not whichever one is installed
    sys.path.insert(0, str(HERE.parent))
    from ruby_metric import RubyScorer
    from ruby_metric.io.inputs import PairInput
    from ruby_metric.reports.corpus import ReportBuilder, render_report

    n = args.pairs
    data = [PairInput(i, refs[i % len(refs)], hyps[i % len(hyps)]) for i in range(n)]
    scorer = RubyScorer(language="cs")
    scorer.score("int f(){return 1;}", "int f(){return 2;}")  # load the kernels apart

    start = time.perf_counter()
    builder = ReportBuilder(metrics=scorer.metrics, worst=args.worst)
    run = scorer.stream(lambda: iter(data), workers=args.workers)
    for result, pair in zip(run, data, strict=True):
        builder.add(result, pair)
    corpus = run.corpus()
    scored = time.perf_counter() - start

    start = time.perf_counter()
    rep = builder.finish(
        corpus,
        explain=lambda w: scorer.explain(w.reference, w.candidate),
        language=scorer.language,
    )
    explained = time.perf_counter() - start
    start = time.perf_counter()
    page = render_report(rep)
    rendered = time.perf_counter() - start
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(page, encoding="utf-8", newline="\n")
    size = len(page.encode("utf-8"))

    s = corpus.summary()
    print(f"pairs: {s['pairs']:,} ({len(refs):,} distinct), workers {args.workers}")
    print(f"RUBY {s['ruby']:.4f}  CrystalBLEU {s['crystalbleu']:.4f}  BLEU {s['bleu']:.4f}")
    print(f"score + aggregate: {scored:.1f} s ({n / scored:,.0f} pairs/s)")
    print(f"explain {len(rep.worst)} worst pairs: {explained:.2f} s; render: {rendered:.2f} s")
    print(f"total: {scored + explained + rendered:.1f} s")
    print(f"page: {size:,} bytes ({size / 1e6:.2f} MB) -> {args.output}")
    for section in ("summary", "histograms", "reasons", "scatter", "worst"):
        match = re.search(rf'<section id="{section}">.*?</section>', page, re.S)
        if match:
            print(f"  {section:<11} {len(match.group(0).encode('utf-8')):>10,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
