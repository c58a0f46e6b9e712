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

``--split`` instead times where a full RUBY pair's time goes, for the pairs a real run can
meet at that size (a program regenerated with one token changed):

* ``2MB-java-one-token``: the CodeXGLUE Java methods (test, valid, then train file, one
  method a line, repeated if ever short) up to 2,000,000 characters, against the same
  text with its first ``==`` past the middle turned into ``!=``: real Java (its own
  identifiers: 419,226 tokens, 27,453 distinct);
* ``2MB-generated-one-token``: the generated 2 MB Java above (684,374 tokens, 1,108
  distinct) with the same one-token change.

Per input, in a fresh interpreter: tokenizing and the parse attempt of both sides
("parse"), then each tier and each BLEU alone on those prepared sides, and the full RUBY
score of a fresh pair (best of ``--repeat``); the bar is full RUBY at most 1.5x STS alone
plus parsing. The columns are CPU seconds of the process (scoring one pair runs on one
thread), which a machine shared with other work inflates far less than wall time; full
RUBY's wall time is given beside. Given ``--old PATH``, that tree's full wall time too.

Run: ``python benchmarks/bench_hostile.py [--repeat 3] [--old /tmp/old] [--only NAME]
[--split]``.
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

# Runs in a fresh interpreter: the per-tier split of one pair (see --split).
_SPLIT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import crystal
from ruby_metric import RubyScorer
from ruby_metric.scoring.code import Code, NotApplicable
ref = open(sys.argv[2], encoding="utf-8").read()
cand = open(sys.argv[3], encoding="utf-8").read()
repeat = int(sys.argv[4])
full = RubyScorer("java")
full.score("int f() { return 1; }", "int f() { return 1;")  # warm-up: parsers, kernels
times, cpu = {}, {}
def best(key, run):
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = run()
        times[key] = min(times.get(key, 1e9), time.perf_counter() - start)
        cpu[key] = min(cpu.get(key, 1e9), time.process_time() - start_cpu)
    return out
def prepared():
    codes = ([Code(ref, "java", full.tokenizer, full.limits, full.repair)],
             Code(cand, "java", full.tokenizer, full.limits, full.repair))
    for code in (codes[0][0], codes[1]):
        _ = code.tokens
        try:
            _ = code.structure
        except NotApplicable:
            pass
    return codes
codes = best("parse", prepared)
cbleu = crystal.CrystalBLEU(full.ngram_set, tokenizer=full.tokenizer)
for metric in ("sts", "trs", "grs", "crystalbleu", "bleu"):
    alone = RubyScorer("java", metrics=[metric])
    # a tier's representations are cached in the Code: each run gets fresh prepared sides
    fresh = [prepared() for _ in range(repeat)]
    runs = iter(fresh)
    best(metric, lambda: alone.score_detailed(ref, cand, None, "java", cbleu,
                                               codes=next(runs)))
r = best("full", lambda: full.score(ref, cand))
print(json.dumps({"times": times, "cpu": cpu, "tier": r.tier, "ruby": r.ruby,
                  "tokens": len(codes[1].tokens), "distinct": len(set(codes[1].tokens))}))
"""

# ``shared/datasets`` beside the project (a checkout), or beside its worktrees' folder
CODEXGLUE = next(
    (base / "shared" / "datasets" / "codexglue_code2code_trans"
     for base in (ROOT.parent, ROOT.parent.parent)
     if (base / "shared" / "datasets").is_dir()),
    ROOT.parent / "shared" / "datasets" / "codexglue_code2code_trans",
)


def codexglue_java(size: int, root: Path = CODEXGLUE) -> str:
    """The CodeXGLUE Java methods (test, valid, train files, one a line), whole lines up to
    ``size`` characters, repeated from the start if the files are ever shorter."""
    lines: list[str] = []
    for split in ("test", "valid", "train"):
        lines += (root / f"{split}.java-cs.txt.java").read_text(encoding="utf-8").splitlines()
    out, n = [], 0
    while True:
        for line in lines:
            if n + len(line) + 1 > size:
                return "\n".join(out)
            out.append(line)
            n += len(line) + 1


def one_token_changed(text: str) -> str:
    """``text`` with its first ``==`` past the middle turned into ``!=`` (one token)."""
    at = text.index("==", len(text) // 2)
    return text[:at] + "!=" + text[at + 2:]


def generated_java(seed: int, size: int) -> str:
    """About ``size`` characters of real-looking Java methods (the reliability tests' 2 MB
    generator), identifiers varied so the text is not periodic."""
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]  # the tests import the package
    from test_hostile import two_mb_java

    return two_mb_java(seed, size)


def garbage(seed: int, size: int) -> str:
    """Random brackets, quotes, operators and letters: nothing balances."""
    rng = random.Random(seed)
    return "".join(rng.choice("(){}[];=+ab \n\"'") for _ in range(size))


def unbalanced(text: str) -> str:
    """``text`` with three ``}`` removed and a stray ``)`` appended."""
    return text.replace("}", "", 3) + ")"


def split_inputs(only: set[str] | None) -> dict[str, tuple[str, str]]:
    """name -> (reference, candidate) for ``--split``."""
    out: dict[str, tuple[str, str]] = {}
    if only is None or "2MB-java-one-token" in only:
        text = codexglue_java(2_000_000)
        out["2MB-java-one-token"] = (text, one_token_changed(text))
    if only is None or "2MB-generated-one-token" in only:
        text = generated_java(1, 2_000_000)
        out["2MB-generated-one-token"] = (text, one_token_changed(text))
    return out


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


def split(only: set[str] | None, repeat: int, old: Path | None) -> None:
    """Print the per-tier split table (``--split``)."""
    tiers = ("parse", "sts", "trs", "grs", "crystalbleu", "bleu")
    print("| input | tokens (distinct) | " + " | ".join(tiers)
          + " | full RUBY | full / (parse + STS) |" + (" before |" if old else ""))
    print("|---|---|" + "---|" * (len(tiers) + 2) + ("---|" if old else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for name, (ref, cand) in split_inputs(only).items():
            rp, cp = Path(tmp) / "ref.txt", Path(tmp) / "cand.txt"
            rp.write_text(ref, encoding="utf-8")
            cp.write_text(cand, encoding="utf-8")
            out = subprocess.run([sys.executable, "-c", _SPLIT, str(ROOT), str(rp), str(cp),
                                  str(repeat)], capture_output=True, text=True, check=True)
            result = json.loads(out.stdout.strip().splitlines()[-1])
            t, c = result["times"], result["cpu"]
            cells = [f"{c[k]:.2f}" for k in tiers]
            ratio = c["full"] / (c["parse"] + c["sts"])
            before = (f" {run(old, rp, cp, 'default', repeat)['seconds']:.2f} s |"
                      if old else "")
            print(f"| {name} | {result['tokens']:,} ({result['distinct']:,}) | "
                  + " | ".join(cells) + f" | {c['full']:.2f} s ({t['full']:.2f} s wall, "
                  + f"{result['tier']}) | {ratio:.2f}x |" + before, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per setting (best counts)")
    ap.add_argument("--old", type=Path, default=None,
                    help="a checkout of the commit before repair existed")
    ap.add_argument("--only", action="append", default=None, help="an input's name")
    ap.add_argument("--split", action="store_true",
                    help="time each tier of the one-token-changed 2 MB pairs instead")
    args = ap.parse_args(argv)
    if args.split:
        split(set(args.only) if args.only else None, args.repeat, args.old)
        return 0
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
