"""``ruby-metric score``: score candidates against references, as a table, JSON, JSONL or CSV.

Streams JSONL and CSV one line per pair as it is scored; the table and JSON need every pair
first. A signal stops the run between lines, never inside one.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ..io.formats import FORMATS, PairWriter, with_extra, write
from ..io.systems import SystemsInput
from ..meta.pair_scores import scoring_metric
from ..meta.systems import system_corpora
from ..scoring.results import CorpusResult
from .args import (
    EXAMPLES_FORMATTER,
    add_pair_input,
    add_quiet,
    add_scorer_options,
    add_source_language,
    add_workers,
    corpus_line,
    output_file,
    pair_input,
    pairs_text,
    score_text,
    scorer_from_args,
)
from .progress import Progress
from .resume import Resumed, check_options, file_ruby_lines, resumed
from .signals import SignalGuard
from .systems import (
    add_system_options,
    check_extra_names,
    check_field_names,
    extra_fields,
    row_extras,
    systems_input,
)

FORMAT_HELP = (
    "table (default): every pair, then the corpus scores; json: one object with 'corpus' "
    "and 'pairs'; jsonl and csv: one line per pair, written as it is scored"
)

SCORE_EXAMPLES = """\
examples:
  ruby-metric score refs.cs hyps.cs --lang cs                 # table: every pair + corpus
  ruby-metric score refs.cs hyps.cs --lang cs -b              # the corpus RUBY alone
  ruby-metric score refs.cs hyps.cs -l cs --metrics bleu -b   # the corpus BLEU alone
  model | ruby-metric score refs.cs - -l cs -f jsonl          # candidates from stdin
  ruby-metric score --jsonl pairs.jsonl -l java -f jsonl -o scores.jsonl -j 2
  cat pairs.jsonl | ruby-metric score --jsonl - --lang java --strict
  ruby-metric score refs/ hyps/ -l java                       # two folders of programs
  ruby-metric score java/ python/ -l python --source-lang java  # Foo.java <-> Foo.py
  ruby-metric score Ref.java Cand.java -l java --unit file    # two programs, one pair
  ruby-metric score refs/ sys/a sys/b sys/c -l python \\
      --labels labels.jsonl --label-field passed              # a folder per system
  ruby-metric score --jsonl p.jsonl -l java -f jsonl -o s.jsonl --resume  # after Ctrl-C

exit status: 0 ok; 2 bad usage or input (nothing readable, or with --strict anything
unreadable); 1 workers cannot start; 130 Ctrl-C; 143 SIGTERM (written lines stay whole)
"""


def add_score_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand to ``sub`` (the ``ruby-metric`` subparsers)."""
    score = sub.add_parser(
        "score",
        help="score candidates against references",
        description="Score line-aligned REFS and HYPS files (one snippet per line; --unit "
        "file: the two whole files as one pair), two folders (one file each, paired by "
        "relative path, which is the pair's id), or a JSONL "
        'file of {"reference", "candidate", "language"?, "id"?} objects. A pair without an id '
        "gets its 0-based position (blank JSONL lines are not pairs). '-' reads standard "
        "input.",
        epilog=SCORE_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    add_pair_input(score, several=True)
    add_scorer_options(score)
    add_source_language(score)
    score.add_argument("--format", "-f", choices=FORMATS, default="table", help=FORMAT_HELP)
    score.add_argument(
        "--score-only",
        "-b",
        action="store_true",
        help="print only the corpus score of the first of --metrics (RUBY by default), as "
        "one number (- when undefined)",
    )
    score.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    add_system_options(score)
    score.add_argument(
        "--resume",
        action="store_true",
        help="with -f jsonl -o FILE: skip the pairs whose ids FILE already holds (from a run "
        "that was stopped; with several systems, whose system and id; ids that repeat: by "
        "position) and append the others; a last line cut short is scored again. Needs the "
        "options FILE was written with (its last line is scored again to check); the corpus "
        "line then covers only the pairs scored in this run",
    )
    add_workers(score)
    add_quiet(score)
    return score


def run_score(args: argparse.Namespace, guard: SignalGuard) -> int:
    """Run ``ruby-metric score``; returns the exit status."""
    check_field_names((args.system_field, args.label_field))
    systems = systems_input(args)
    pairs, total = pair_input(args, systems)
    check_extra_names(systems)
    split = systems is not None and bool(systems.system_field)
    skipped, done, resume = 0, None, None
    if args.resume:
        resume = resumed(args, pairs, systems)
        pairs, done, skipped, systems = resume.pairs, resume.done, resume.skipped, resume.systems
        total = None if total is None else max(total - skipped, 0)
    scorer = scorer_from_args(args)
    if resume is not None:
        try:
            check_options(scorer, resume, args.output)
        except BaseException:
            scorer.close()
            raise
    # JSONL and CSV stream one line per pair as it is scored (constant memory, and an
    # interrupted run leaves valid lines); JSON and the table need every pair first.
    streaming = args.format in ("jsonl", "csv") and not args.score_only
    progress = Progress(total, enabled=False if args.quiet else None)
    run = scorer.stream(pairs, workers=args.workers, keep_pairs=not streaming or split,
                        skip=done, heartbeat=None if args.quiet else progress.heartbeat)
    try:
        with output_file(args.output, whole=not streaming, append=args.resume) as out:
            try:
                if streaming:
                    writer = PairWriter(out, args.format, extra_fields(systems))
                    for index, result in enumerate(run):
                        with guard.held():  # a line is written whole or not at all
                            writer.write(result, row_extras(systems, index))
                        progress.update(run.count)
                else:
                    for _ in run:
                        progress.update(run.count)
            finally:
                progress.close()
            corpus = run.corpus()
            blocks = (
                system_corpora(systems, corpus, scoring_metric(scorer))
                if split and systems is not None else {}
            )
            with guard.held():
                if args.score_only:
                    first = args.metrics[0] if getattr(args, "metrics", None) else "ruby"
                    if blocks:
                        for name, block in blocks.items():
                            out.write(f"{name}\t{score_text(block.score(first))}\n")
                    else:
                        out.write(f"{score_text(corpus.score(first))}\n")
                elif not streaming:
                    _write_whole(corpus, blocks, systems, out, args)
    finally:
        run.close()
        scorer.close()
    if run.boms and not args.quiet:
        print(f"ruby-metric: dropped {run.boms} UTF-8 byte-order mark(s)", file=sys.stderr)
    if (streaming or args.output) and not args.quiet:
        # the scores went to a stream or a file: the terminal still gets the corpus line
        for name, block in {**blocks, "": corpus}.items():  # each system's, then the whole
            summary = block.summary()
            note = _resumed_note(resume, name, args.output)
            print(
                f"ruby-metric: {name + ': ' if name else ''}"
                f"{corpus_line(summary, note)} | {summary['signature']}",
                file=sys.stderr,
            )
        if resume is not None:
            for line in file_ruby_lines(args.output, systems.system_field if split and
                                        systems is not None else None):
                print(f"ruby-metric: {line}", file=sys.stderr)
    return 0


def _resumed_note(resume: Resumed | None, system: str, output: str) -> str:
    """What a resumed run's corpus line covers: only the pairs scored in this run (corpus
    BLEU and CrystalBLEU need n-gram counts that the written lines do not hold, so the whole
    file's corpus scores cannot be read back from it)."""
    if resume is None:
        return ""
    skipped = resume.skipped_by_system.get(system, 0) if system else resume.skipped
    return (f" scored in this run only (resumed: {pairs_text(skipped)} already in {output} "
            "skipped, not in these scores)")


def _write_whole(
    corpus: CorpusResult,
    blocks: dict[str, CorpusResult],
    systems: SystemsInput | None,
    out: TextIO,
    args: argparse.Namespace,
) -> None:
    """The table or JSON of a whole run: with systems, a corpus block per system (the table)
    or a ``systems`` object of their corpus summaries beside the whole run's (JSON); rows
    carry their system and label."""
    metrics = getattr(args, "metrics", None)
    if args.format == "json" and systems is not None:
        data = corpus.to_dict()
        data["pairs"] = [
            with_extra(pair, row_extras(systems, i)) for i, pair in enumerate(data["pairs"])
        ]
        if blocks:
            data["systems"] = {name: block.summary() for name, block in blocks.items()}
        out.write(json.dumps(data, ensure_ascii=False, allow_nan=False, indent=2) + "\n")
    elif args.format == "table" and blocks:
        field = systems.system_field if systems is not None else "system"
        for number, (name, block) in enumerate(blocks.items()):
            out.write(("\n" if number else "") + f"== {field} {name} ==\n")
            write(block, out, "table", metrics, _labels(systems, systems.indices(name)))
    else:
        write(corpus, out, args.format, metrics, _labels(systems))


def _labels(systems: SystemsInput | None, rows: list[int] | None = None
            ) -> tuple[str, list[Any]] | None:
    """The table's label column for these rows of ``systems`` (default: all of them):
    ``(field, labels)``, or ``None`` when no label field was asked for."""
    if systems is None or not systems.label_field:
        return None
    chosen = systems.rows if rows is None else [systems.rows[i] for i in rows]
    return systems.label_field, [row.label for row in chosen]
