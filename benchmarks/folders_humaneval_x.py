"""A folder of Java programs scored against a folder of the same problems in Python, in
source mode, on HumanEval-X: one result per file, ids that are paths (issue 29).

Each problem's prompt + canonical solution is written as ``NNN/Solution.java`` in one
temporary folder and ``NNN/Solution.py`` in another; ``ruby-metric score JAVA PY -l python
--source-lang java -f jsonl`` scores them. Prints the count, the first and last ids, the
tiers and the mean RUBY; exits 1 if a file has no result or an id is not its path.

Usage: python benchmarks/folders_humaneval_x.py [DATA_DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path("/work/shared/datasets/humaneval_x")


def write_folders(data: Path, root: Path, limit: int | None) -> list[str]:
    """Write each problem's Java and Python solution under ``root``; the expected ids."""
    ids = []
    for lang, ext in (("java", "java"), ("python", "py")):
        with open(data / f"humaneval_{lang}.jsonl", encoding="utf-8") as handle:
            for count, line in enumerate(handle):
                if limit is not None and count >= limit:
                    break
                row = json.loads(line)
                number = int(row["task_id"].split("/")[1])
                path = root / lang / f"{number:03d}" / f"Solution.{ext}"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(row["prompt"] + row["canonical_solution"], encoding="utf-8")
                if lang == "python":
                    ids.append(f"{number:03d}/Solution.py")
    return sorted(ids)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, help="the first N problems only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        expected = write_folders(args.data, root, args.limit)
        done = subprocess.run(
            [sys.executable, "-m", "ruby_metric", "score", str(root / "java"),
             str(root / "python"), "-l", "python", "--source-lang", "java", "-f", "jsonl"],
            capture_output=True, text=True, check=False,
        )
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    ids = [row["id"] for row in rows]
    tiers = collections.Counter(row["tier"] for row in rows)
    scored = [row["ruby"] for row in rows if row["ruby"] is not None]
    print(f"{len(rows)} results for {len(expected)} problems; ids {ids[0]} .. {ids[-1]}")
    print(f"tiers {dict(tiers)}; mean RUBY {sum(scored) / len(scored):.4f} over {len(scored)}")
    print(done.stderr.strip().splitlines()[-1])
    return 0 if ids == expected else 1


if __name__ == "__main__":
    sys.exit(main())
