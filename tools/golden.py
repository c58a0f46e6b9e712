"""Capture every user-visible output of ruby-metric into a folder, to compare before/after.

Used around refactors that must not change behaviour: run it on the commit before and the
commit after, then ``diff -r`` the two folders. Covers ``score`` in every format, ``explain``
(text, JSON, HTML), ``report``, ``meta`` (distinguishability, correlate, compare) on the
bundled fixtures and on 300 CodeXGLUE Java->C# pairs, and the Python API's results.

    python tools/golden.py OUT_DIR [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(out: Path, name: str, args: list[str], stdin: str | None = None) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruby_metric", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT,
    )
    (out / f"{name}.out").write_text(proc.stdout)
    (out / f"{name}.err").write_text(f"exit {proc.returncode}\n{proc.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "_inputs"
    tmp.mkdir(exist_ok=True)

    cx = args.shared / "datasets" / "codexglue_code2code_trans"
    refs = (cx / "test.java-cs.txt.cs").read_text().splitlines()[:300]
    hyps = (cx / "model_outputs" / "java-cs-model1.output").read_text().splitlines()[:300]
    srcs = (cx / "test.java-cs.txt.java").read_text().splitlines()[:300]
    (tmp / "refs.cs").write_text("\n".join(refs) + "\n")
    (tmp / "hyps.cs").write_text("\n".join(hyps) + "\n")
    (tmp / "hyps_b.cs").write_text("\n".join(refs[1:] + refs[:1]) + "\n")
    classes = [{"class": i % 10, "code": s} for i, s in enumerate(srcs[:60])]
    (tmp / "classes.jsonl").write_text("".join(json.dumps(c) + "\n" for c in classes))
    judged = [
        {"reference": r, "candidate": h, "score": (i * 7) % 5, "lang": "cs"}
        for i, (r, h) in enumerate(zip(refs[:120], hyps[:120], strict=False))
    ]
    (tmp / "judged.jsonl").write_text("".join(json.dumps(j) + "\n" for j in judged))

    sets = {
        "j2cs": ["fixtures/java_to_cs/references.cs", "fixtures/java_to_cs/candidates.cs", "cs"],
        "cs2j": ["fixtures/cs_to_java/references.java", "fixtures/cs_to_java/candidates.java",
                 "java"],
        "cx300": [str(tmp / "refs.cs"), str(tmp / "hyps.cs"), "cs"],
    }
    for name, (r, h, lang) in sets.items():
        for fmt in ("table", "json", "jsonl", "csv"):
            run(out, f"score_{name}_{fmt}", ["score", r, h, "--lang", lang, "-f", fmt])
        run(out, f"score_{name}_b", ["score", r, h, "--lang", lang, "-b"])
        run(out, f"score_{name}_norepair", ["score", r, h, "--lang", lang, "--no-repair",
                                            "-f", "json"])
        run(out, f"score_{name}_beta1", ["score", r, h, "--lang", lang, "--grs-beta", "1",
                                         "-f", "json"])
        for pair in ("0", "3", "7"):
            for fmt in ("text", "json"):
                extra = ["--html", str(out / f"explain_{name}_{pair}.html")] * (fmt == "json")
                run(out, f"explain_{name}_{pair}_{fmt}",
                    ["explain", "--pair", pair, r, h, "--lang", lang, "--format", fmt, *extra])
        run(out, f"report_{name}", ["report", r, h, "--lang", lang, "-o",
                                    str(out / f"report_{name}.html")])
    run(out, "score_jsonl_fixture", ["score", "--jsonl", "fixtures/pairs.jsonl", "-f", "json"])
    run(out, "score_stdin", ["score", sets["j2cs"][0], "-", "--lang", "cs", "-f", "jsonl"],
        stdin=Path(ROOT / sets["j2cs"][1]).read_text())
    run(out, "ngrams", ["ngrams", "build", str(tmp / "refs.cs"), "--lang", "cs", "--per-line", "-o",
                        str(out / "ngrams.out.json")])
    run(out, "meta_dist", ["meta", "distinguishability", "--classes", str(tmp / "classes.jsonl"),
                           "--lang", "java", "--pairs", "50", "--bootstrap", "50",
                           "--format", "json"])
    run(out, "meta_corr", ["meta", "correlate", "--jsonl", str(tmp / "judged.jsonl"),
                           "--lang", "cs", "--human-field", "score", "--format", "json",
                           "--bootstrap", "200"])
    run(out, "meta_compare", ["meta", "compare", str(tmp / "refs.cs"), str(tmp / "hyps.cs"),
                              str(tmp / "hyps_b.cs"), "--lang", "cs", "--format", "json",
                              "--trials", "1000", "--bootstrap", "200",
                              "--html", str(out / "compare.html")])
    for bad in (["score", "nope.cs", "nope2.cs", "--lang", "cs"],
                ["score", sets["j2cs"][0], sets["cs2j"][1], "--lang", "cs"],
                ["explain", "--pair", "99", *sets["j2cs"][:2], "--lang", "cs"]):
        run(out, "bad_" + "_".join(b.replace("/", "-") for b in bad[:2]), bad)

    api = subprocess.run([sys.executable, "-c", API], capture_output=True, text=True, cwd=ROOT)
    (out / "api.out").write_text(api.stdout + api.stderr)


API = r"""
import json
from ruby_metric import RubyScorer
s = RubyScorer(language="cs")
refs = open("fixtures/java_to_cs/references.cs").read().splitlines()
hyps = open("fixtures/java_to_cs/candidates.cs").read().splitlines()
for r, h in zip(refs, hyps):
    print(repr(s.score(r, h)))
c = s.score_corpus(refs, hyps)
print(repr(c))
e = s.explain(refs[3], hyps[3])
print(e.to_text())
print(json.dumps(e.to_dict(), sort_keys=True))
"""

if __name__ == "__main__":
    main()
