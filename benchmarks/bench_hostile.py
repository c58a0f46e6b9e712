"""What tolerant structure (repair and containment) costs on hostile inputs.

Times one full RUBY pair (every tier, CrystalBLEU, BLEU) in a fresh interpreter, best of
``--repeat``, for each input below, with repair on (the default), with ``repair=False``, and,
given ``--old PATH`` (a checkout of the commit before repair existed, e.g. ``git worktree
add /tmp/old b06828f``), with that tree's scorer:

* ``2MB-java-near``: about 2 MB of generated Java methods against a copy with a few local
  changes (no parse is tried: longer than ``Limits.max_chars``; STS proves the distance
  in a band);
* ``2MB-garbage``: 2 MB of random brackets, quotes, operators and letters against a
  generated 2 MB Java file (STS over the full table: the slowest pair);
* ``199k-unbalanced``: 199,000 characters of generated Java (just under
  ``Limits.max_chars``: parsed) with three ``}`` removed and a stray ``)`` appended,
  against the balanced text;
* ``49k-unbalanced`` and ``49k-garbage``: the same kinds just under
  ``Limits.max_repair_chars``, where repair is tried (the most it can cost).

Run: ``python benchmarks/bench_hostile.py [--repeat 3] [--old /tmp/old] [--only NAME]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Runs in a fresh interpreter with the tree to measure first on sys.path.
_RUN = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from ruby_metric import RubyScorer
ref = open(sys.argv[2], encoding="utf-8").read()
cand = open(sys.argv[3], encoding="utf-8").read()
opts = {} if sys.argv[4] == "default" else {"repair": sys.argv[4] == "on"}
scorer = RubyScorer("java", **opts)
scorer.score("int f() { return 1; }", "int f() { return 1;")  # warm-up: parsers, kernels
start = time.perf_counter()
r = scorer.score(ref, cand)
elapsed = time.perf_counter() - start
print(json.dumps({"seconds": elapsed, "tier": r.tier, "ruby": r.ruby,
                  "grs": r.reasons.get("grs", "")[:80]}))
"""


def generated_java(seed: int, size: int) -> str:
    """About ``size`` characters of real-looking Java methods (the reliability tests' 2 MB
    generator), identifiers varied so the text is not periodic."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_hostile import two_mb_java

    return two_mb_java(seed, size)


def garbage(seed: int, size: int) -> str:
    """Random brackets, quotes, operators and letters: nothing balances."""
    rng = random.Random(seed)
    return "".join(rng.choice("(){}[];=+ab \n\"'") for _ in range(size))


def unbalanced(text: str) -> str:
    """``text`` with three ``}`` removed and a stray ``)`` appended."""
    return text.replace("}", "", 3) + ")"


def inputs(only: set[str] | None) -> dict[str, tuple[str, str]]:
    """name -> (reference, candidate)."""
    out: dict[str, tuple[str, str]] = {}

    def want(name: str) -> bool:
        return only is None or name in only

    if want("2MB-java-near"):
        big = generated_java(1, 2_000_000)
        out["2MB-java-near"] = (big, big.replace("return", "return  0 +", 50)
                                .replace("int ", "long ", 30))
    if want("2MB-garbage"):
        out["2MB-garbage"] = (generated_java(1, 2_000_000), garbage(0, 2_000_000))
    for size, label in ((199_000, "199k"), (49_000, "49k")):
        if want(f"{label}-unbalanced"):
            text = generated_java(1, size)
            out[f"{label}-unbalanced"] = (text, unbalanced(text))
        if want(f"{label}-garbage") and label == "49k":
            out[f"{label}-garbage"] = (generated_java(1, size), garbage(0, size))
    return out


def run(tree: Path, ref: Path, cand: Path, setting: str, repeat: int) -> dict:
    """Best of ``repeat`` fresh-interpreter runs."""
    best = None
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _RUN, str(tree), str(ref), str(cand),
                              setting], capture_output=True, text=True, check=True)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if best is None or result["seconds"] < best["seconds"]:
            best = result
    assert best is not None
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per setting (best counts)")
    ap.add_argument("--old", type=Path, default=None,
                    help="a checkout of the commit before repair existed")
    ap.add_argument("--only", action="append", default=None, help="an input's name")
    args = ap.parse_args(argv)
    settings = [("repair on", ROOT, "on"), ("repair=False", ROOT, "off")]
    if args.old is not None:
        settings.append(("before repair", args.old, "default"))
    print("| input | sizes (chars) | " + " | ".join(s[0] for s in settings)
          + " | on / off | on / before |")
    print("|---|---|" + "---|" * (len(settings) + 2))
    with tempfile.TemporaryDirectory() as tmp:
        for name, (ref, cand) in inputs(set(args.only) if args.only else None).items():
            rp, cp = Path(tmp) / "ref.txt", Path(tmp) / "cand.txt"
            rp.write_text(ref, encoding="utf-8")
            cp.write_text(cand, encoding="utf-8")
            times = {}
            for label, tree, setting in settings:
                times[label] = run(tree, rp, cp, setting, args.repeat)
            cells = [f"{times[s[0]]['seconds']:.2f} s ({times[s[0]]['tier']})"
                     for s in settings]
            on = times["repair on"]["seconds"]
            ratios = [f"{on / times['repair=False']['seconds']:.2f}x"]
            ratios.append(f"{on / times['before repair']['seconds']:.2f}x"
                          if "before repair" in times else "-")
            print(f"| {name} | {len(ref):,} / {len(cand):,} | " + " | ".join(cells)
                  + " | " + " | ".join(ratios) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
