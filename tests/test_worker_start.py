"""Workers never run the caller's ``__main__``, and a pool that cannot start fails at once.

The caller's program is run as a subprocess in every way a pipeline author runs Python: a
script without a main guard, the same code on stdin, ``python -c``, ``python -m``, and a
Jupyter-style ``__main__`` module with no file. Each run scores the same pairs with
``score_corpus``, ``stream`` and the CLI, with 1 and 2 workers, and reports whether the
outputs are byte-identical; the script also counts how many times its own top level ran.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ruby_metric import Limits, RubyScorer
from ruby_metric.batch.worker import WorkerStartError, clean_preparation_data, start_pool
from ruby_metric.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
REFS = ROOT / "fixtures" / "java_to_cs" / "references.cs"
HYPS = ROOT / "fixtures" / "java_to_cs" / "candidates.cs"

# No main guard: every line below runs whenever this module is executed or imported.
CALLER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from ruby_metric import RubyScorer
    from ruby_metric.cli.app import main

    work = Path(WORK)
    with open(work / "ran.txt", "a") as marker:  # counts how often the top level runs
        marker.write("ran\\n")
    refs = Path(REFS).read_text().splitlines() * 20     # 200 pairs: several chunks
    hyps = Path(HYPS).read_text().splitlines() * 20
    s = RubyScorer(language="cs")
    one = s.score_corpus(refs, hyps, workers=1).to_dict()
    two = s.score_corpus(refs, hyps, workers=2).to_dict()

    def pairs():
        from ruby_metric.io.inputs import PairInput
        return (PairInput(i, r, h) for i, (r, h) in enumerate(zip(refs, hyps)))

    streamed = [p.to_dict() for p in s.stream(pairs, workers=2)]
    (work / "refs.txt").write_text("\\n".join(refs) + "\\n")
    (work / "hyps.txt").write_text("\\n".join(hyps) + "\\n")
    status = []
    for n in (1, 2):
        status.append(main(["score", str(work / "refs.txt"), str(work / "hyps.txt"), "-l", "cs",
                            "-f", "jsonl", "-q", "-j", str(n), "-o", str(work / f"cli{n}.jsonl")]))
    print(json.dumps({
        "corpus_identical": json.dumps(one) == json.dumps(two),
        "stream_identical": json.dumps(streamed) == json.dumps(one["pairs"]),
        "cli_identical": (work / "cli1.jsonl").read_bytes() == (work / "cli2.jsonl").read_bytes(),
        "cli_status": status,
        "pairs": len(two["pairs"]),
        "ruby": two["corpus"]["ruby"],
    }))
    """
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _source(work: Path) -> str:
    return f"WORK = {str(work)!r}\nREFS = {str(REFS)!r}\nHYPS = {str(HYPS)!r}\n" + CALLER


def _run(mode: str, work: Path) -> subprocess.CompletedProcess:
    source = _source(work)
    stdin = None
    if mode == "script":
        (work / "caller.py").write_text(source)
        argv = [sys.executable, str(work / "caller.py")]
    elif mode == "module":
        (work / "caller_mod.py").write_text(source)
        argv = [sys.executable, "-m", "caller_mod"]
    elif mode == "stdin":
        argv, stdin = [sys.executable, "-"], source
    elif mode == "dash-c":
        argv = [sys.executable, "-c", source]
    else:  # a notebook: code exec'd in a fresh __main__ module that has no file and no spec
        notebook = (
            "import sys, types\n"
            "main = types.ModuleType('__main__')\n"
            "sys.modules['__main__'] = main\n"
            f"exec(compile({source!r}, '<ipython-input-1>', 'exec'), main.__dict__)\n"
        )
        argv = [sys.executable, "-c", notebook]
    return subprocess.run(
        argv, input=stdin, cwd=work, env=_env(), capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("mode", ["script", "stdin", "dash-c", "module", "notebook"])
def test_workers_never_rerun_the_callers_main(tmp_path, mode):
    done = _run(mode, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {
        "corpus_identical": True,
        "stream_identical": True,
        "cli_identical": True,
        "cli_status": [0, 0],
        "pairs": 200,
        "ruby": report["ruby"],
    }
    assert 0.3 < report["ruby"] < 1.0  # real scores, not a run of lost pairs
    # the caller's top level ran once, in the caller: never again inside a worker
    assert (tmp_path / "ran.txt").read_text() == "ran\n"


def test_preparation_data_names_no_main_module():
    data = clean_preparation_data("w")
    assert "init_main_from_path" not in data and "init_main_from_name" not in data
    assert "start_method" not in data
    assert data["sys_path"][: len(sys.path)] == [p or data["orig_dir"] for p in sys.path]


def test_a_pool_whose_workers_cannot_start_fails_at_once(tmp_path, monkeypatch):
    # Workers take the parent's sys.path: put a ruby_metric first that cannot be imported.
    broken = tmp_path / "ruby_metric"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('this worker cannot start')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(WorkerStartError, match="worker processes died at start-up"):
        start_pool(2, None)
    refs = [REFS.read_text().splitlines()[0]] * 100
    with pytest.raises(WorkerStartError, match="died at start-up"):
        RubyScorer(language="cs").score_corpus(refs, refs, workers=2)


def test_the_cli_reports_workers_that_cannot_start(tmp_path, monkeypatch, capsys):
    broken = tmp_path / "ruby_metric"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('this worker cannot start')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    # more than one chunk of pairs: a single chunk is scored without a pool
    refs, hyps = tmp_path / "refs.cs", tmp_path / "hyps.cs"
    refs.write_text(REFS.read_text() * 20)
    hyps.write_text(HYPS.read_text() * 20)
    status = main(["score", str(refs), str(hyps), "-l", "cs", "-f", "jsonl", "-j", "2"])
    out, err = capsys.readouterr()
    assert status == 1
    assert out == ""  # no pair reported as scored
    assert err.splitlines()[-1].startswith("ruby-metric: error: worker processes died at start-up")


class MainLimits(Limits):
    """Stands for a class defined in a guard-less main script (workers cannot import it),
    in what the workers receive: the scorer's configuration."""


def test_a_scorer_the_workers_cannot_load_fails_at_once(monkeypatch):
    monkeypatch.setattr(MainLimits, "__module__", "__main__")
    monkeypatch.setattr(sys.modules["__main__"], "MainLimits", MainLimits, raising=False)
    refs = [REFS.read_text().splitlines()[0]] * 200  # several chunks: a pool is needed
    with pytest.raises(WorkerStartError, match="cannot load the scorer.*importable module"):
        RubyScorer(language="cs", limits=MainLimits()).score_corpus(refs, refs, workers=2)


def test_the_kernel_builder_loads_every_group():
    from ruby_metric.kernels import build

    timings = build()
    assert list(timings) == ["ged", "ted", "crystal", "pairs"]
    assert all(seconds >= 0 for seconds in timings.values())


def test_the_kernel_builder_reaches_every_kernel_module():
    from ruby_metric.kernels import build, uncompiled

    build()
    assert uncompiled() == []
