"""``ruby-metric ngrams build``: the k most frequent n-grams of a corpus, for CrystalBLEU."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import crystal
import graphs

from ..io.formats import counted
from ..io.inputs import InputError
from ..io.ngram_sets import save_ngram_set
from ..scoring.signature import ngram_set_id
from .args import EXAMPLES_FORMATTER, Parser, add_quiet, int_at_least

NGRAMS_EXAMPLES = """\
examples:
  ruby-metric ngrams build train/ --lang java -k 500 -o java-ngrams.json
  ruby-metric ngrams build train.java-cs.txt.cs --per-line -o cs-ngrams.json
"""



def add_ngrams_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``ngrams`` subcommand (with ``build``) to ``sub``."""
    ngrams = sub.add_parser(
        "ngrams",
        help="trivially shared n-gram sets",
        description="Trivially shared n-gram sets for CrystalBLEU.",
        epilog=NGRAMS_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    ngrams_sub = ngrams.add_subparsers(dest="ngrams_command", required=True, parser_class=Parser)
    build = ngrams_sub.add_parser(
        "build",
        help="build the k most frequent n-grams of a corpus",
        description="Build the top-k n-grams (all orders ranked together) of a corpus of code: "
        "files, folders, or one-snippet-per-line files.",
        epilog=NGRAMS_EXAMPLES,
        formatter_class=EXAMPLES_FORMATTER,
    )
    build.add_argument("corpus", nargs="+", help="files or folders of code")
    build.add_argument("--lang", "-l", help="language: inside folders, read only its files")
    lines = build.add_mutually_exclusive_group()
    lines.add_argument(
        "--per-line",
        dest="per_line",
        action="store_const",
        const=True,
        help="every file holds one snippet per line (default: .txt/.output/.gold files do)",
    )
    lines.add_argument(
        "--whole-files",
        dest="per_line",
        action="store_const",
        const=False,
        help="every file is one snippet",
    )
    build.add_argument("-k", type=int_at_least(1), default=500, help="number of n-grams (500)")
    build.add_argument("--max-n", type=int_at_least(1), default=4, help="largest n (4)")
    build.add_argument(
        "--tokenizer",
        help="token splitter: code (default; code-python with --lang python, as the scorer)",
    )
    build.add_argument("--output", "-o", required=True, metavar="FILE", help="the JSON file")
    add_quiet(build)
    return ngrams


def run_ngrams(args: argparse.Namespace) -> int:
    """Run ``ruby-metric ngrams build``; returns the exit status."""
    extensions = None
    tokenizer = args.tokenizer
    language = None
    if args.lang:
        language = graphs.get_language(args.lang)
        extensions = language.extensions
        if tokenizer is None and language.name == "python":
            tokenizer = "code-python"  # the scorer's default for Python: the sets must match
    paths: list[Path] = []
    for item in map(Path, args.corpus):
        if not item.exists():
            raise InputError(f"{item}: no such file or folder")
        if item.is_dir() and extensions is not None:
            # Inside a folder, only the language's own files: a Java corpus folder often holds
            # build scripts and resources whose n-grams are not Java's.
            paths.extend(
                p for p in sorted(item.rglob("*")) if p.is_file() and p.suffix.lower() in extensions
            )
        else:
            paths.append(item)
    corpus = ", ".join(args.corpus)
    if not paths:  # only folders, none holding a file of the language
        raise InputError(
            f"{corpus}: no {args.lang} files ({', '.join(extensions or ())}) in the "
            "folder(s) given; nothing written"
        )
    snippets = crystal.read_corpus(paths, per_line=args.per_line)
    try:
        ngram_set = crystal.build_ngram_set(
            snippets, k=args.k, max_n=args.max_n, tokenizer=tokenizer or "code"
        )
    except OSError as exc:
        raise InputError(str(exc)) from None
    if not ngram_set.counts:  # an empty set would silently make CrystalBLEU plain BLEU
        raise InputError(
            f"{corpus}: no code to count n-grams in (the files are empty or blank, or the "
            "folders hold no code files); nothing written"
        )
    try:
        save_ngram_set(ngram_set, args.output, language.name if language else None)
    except OSError as exc:
        raise InputError(f"{args.output}: cannot write ({exc.strerror or exc})") from None
    if not args.quiet:
        print(
            f"wrote {counted(len(ngram_set.counts), 'n-gram')} ({ngram_set_id(ngram_set)}, "
            f"from {counted(ngram_set.corpus_size, 'snippet')}) to {args.output}",
            file=sys.stderr,
        )
    return 0
