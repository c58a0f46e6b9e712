"""Build the shipped Python n-gram set (``ruby_metric/data/ngrams/python.json``) from the
Python standard library of the interpreter that runs this script.

CrystalBLEU ignores the k most frequent n-grams of a large corpus of the language. Java and
C# have theirs from the CodeXGLUE training methods; for Python the corpus is the standard
library's own modules (PSF licence; only the counts are shipped): real code of every kind,
on every machine that has Python. Left out, because they are not code a program is made
of: the test suites (``test``, ``tests``, ``idle_test``), generated tables and data
(``encodings``, ``pydoc_data``, ``html/entities.py``, ``unicodedata`` data), the bundled
third-party packages (``site-packages``, ``ensurepip``), demos, and ``lib2to3``'s fixers.

    python tools/python_ngrams.py [--output ruby_metric/data/ngrams/python.json]

The shipped set was built with CPython 3.11.7 (see docs/cli.md).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Folders (anywhere in the path) and files left out of the corpus: see the docstring.
LEFT_OUT_DIRS = frozenset({
    "test", "tests", "idle_test", "encodings", "pydoc_data", "site-packages", "ensurepip",
    "turtledemo", "lib2to3", "__pycache__", "__phello__",
})
LEFT_OUT_FILES = frozenset({"html/entities.py"})


def corpus_files(stdlib: Path) -> list[Path]:
    """The standard library modules of the corpus, in sorted order."""
    out = []
    for path in sorted(stdlib.rglob("*.py")):
        rel = path.relative_to(stdlib)
        if LEFT_OUT_DIRS.intersection(rel.parts[:-1]) or rel.as_posix() in LEFT_OUT_FILES:
            continue
        if rel.parts[0].startswith("config-"):
            continue  # the build configuration of the interpreter
        out.append(path)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", "-o", type=Path,
                        default=ROOT / "ruby_metric" / "data" / "ngrams" / "python.json")
    args = parser.parse_args()
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = corpus_files(stdlib)
    with tempfile.TemporaryDirectory() as tmp:
        # one folder of links, so the corpus is one argument and files keep their names
        for i, path in enumerate(files):
            (Path(tmp) / f"{i:05d}_{path.name}").symlink_to(path)
        subprocess.run(
            [sys.executable, "-m", "ruby_metric", "ngrams", "build", tmp, "--lang", "python",
             "-k", "500", "--output", str(args.output)],
            check=True, cwd=ROOT,
        )
    print(f"{len(files)} modules of {stdlib} (Python {sys.version.split()[0]}) -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
