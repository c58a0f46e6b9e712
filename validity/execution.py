"""Checking meaning by execution: HumanEval-X candidates run against the problem's
tests in a subprocess (:class:`ExecutionChecker`, cached), keeping variants that pass
and mutants that fail (:func:`filter_by_execution`).

Python and JavaScript run by default; Java and C++ (compiled, slower) only when asked
(``languages=``), so the validity benchmark's filtering is what it always was.
"""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path

from .data import Candidate, Reference

log = logging.getLogger(__name__)

_JS_PRELUDE = (
    "console.assert = (cond, ...msg) => {"
    " if (!cond) { throw new Error('assertion failed: ' + msg.join(' ')); } };\n"
)
#: Languages run unless asked otherwise (interpreted: fast).
DEFAULT_LANGUAGES = ("python", "javascript")
#: Every language the checker can run.
ALL_LANGUAGES = ("python", "javascript", "java", "cpp")


class ExecutionChecker:
    """Runs HumanEval-X tests in a subprocess, with a timeout and a JSON cache.

    Python: ``python3 -I`` on ``program + test`` (the test calls ``check(entry_point)``).
    JavaScript: ``node`` with ``console.assert`` made to throw, on ``program + test``.
    Java (``languages`` naming it): ``javac`` then ``java`` on ``program + test`` as
    ``Main.java`` (the test is a ``public class Main``). C++: ``g++ -D_GLIBCXX_DEBUG``
    (a vector read past its end aborts, as it is wrong even when the test would not
    notice) then the binary. A run passes when it compiles and exits with status 0 within
    ``timeout`` seconds (compile and run each).

    >>> ExecutionChecker(languages=ALL_LANGUAGES).supports("cpp")
    True
    """

    def __init__(
        self,
        cache_path: Path | None = None,
        *,
        timeout: float = 5.0,
        workers: int = 2,
        python: str | None = None,
        node: str | None = None,
        languages: Sequence[str] = DEFAULT_LANGUAGES,
    ) -> None:
        unknown = sorted(set(languages) - set(ALL_LANGUAGES))
        if unknown:
            raise ValueError(f"ExecutionChecker: cannot run {', '.join(unknown)}")
        self.languages = tuple(languages)
        self.cache_path = cache_path
        self.timeout = timeout
        self.workers = workers
        self.python = python or sys.executable
        self.node = node or ("/usr/bin/node" if Path("/usr/bin/node").exists() else "node")
        self._cache: dict[str, bool] = {}
        self._lock = threading.Lock()
        if cache_path is not None and cache_path.is_file():
            try:
                self._cache = json.loads(cache_path.read_text())
            except (OSError, ValueError):
                log.warning("execution cache %s unreadable; starting afresh", cache_path)

    def supports(self, language: str) -> bool:
        """Whether this checker runs ``language``."""
        return language in self.languages

    def _key(self, language: str, program: str, test: str) -> str:
        digest = hashlib.sha256(f"{language}\0{program}\0{test}".encode()).hexdigest()
        return f"{language}:{digest}"

    def _run(self, language: str, program: str, test: str) -> bool:
        if language in ("java", "cpp"):
            return self._compile_and_run(language, program, test)
        if language == "python":
            text, suffix, cmd = f"{program}\n\n{test}\n", ".py", [self.python, "-I"]
        else:
            text, suffix, cmd = f"{_JS_PRELUDE}{program}\n\n{test}\n", ".js", [self.node]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"prog{suffix}"
            path.write_text(text, encoding="utf-8")
            try:
                proc = subprocess.run(
                    [*cmd, str(path)], cwd=tmp, capture_output=True, timeout=self.timeout
                )
            except subprocess.TimeoutExpired:
                return False
            except OSError as err:
                log.warning("cannot run %s: %s", cmd[0], err)
                raise
        return proc.returncode == 0

    def _compile_and_run(self, language: str, program: str, test: str) -> bool:
        if language == "java":
            name, build, run = "Main.java", ["javac", "Main.java"], ["java", "-cp", ".", "Main"]
        else:
            name = "prog.cpp"
            build = ["g++", "-std=c++17", "-D_GLIBCXX_DEBUG", "-o", "prog", "prog.cpp"]
            run = ["./prog"]
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / name).write_text(f"{program}\n\n{test}\n", encoding="utf-8")
            for cmd in (build, run):
                try:
                    proc = subprocess.run(cmd, cwd=tmp, capture_output=True,
                                          timeout=self.timeout)
                except subprocess.TimeoutExpired:
                    return False
                except OSError as err:
                    log.warning("cannot run %s: %s", cmd[0], err)
                    raise
                if proc.returncode != 0:
                    return False
        return True

    def passes_many(self, jobs: Sequence[tuple[str, str, str]]) -> list[bool]:
        """Run ``(language, program, test)`` jobs (cached ones are not rerun)."""
        keys = [self._key(*job) for job in jobs]
        todo = sorted({k: job for k, job in zip(keys, jobs, strict=True)
                       if k not in self._cache}.items())
        if todo:
            log.info("running %d test executions", len(todo))

            def work(item: tuple[str, tuple[str, str, str]]) -> None:
                key, job = item
                result = self._run(*job)
                with self._lock:
                    self._cache[key] = result

            with ThreadPoolExecutor(max_workers=max(1, self.workers)) as pool:
                list(pool.map(work, todo))
            self.save()
        return [self._cache[k] for k in keys]

    def save(self) -> None:
        if self.cache_path is None:
            return
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.cache_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._cache, sort_keys=True))
        tmp.replace(self.cache_path)


@dataclass
class ExecutionStats:
    """What the execution check did, per language."""

    references_checked: Counter = field(default_factory=Counter)
    references_failing: Counter = field(default_factory=Counter)
    variants_dropped: Counter = field(default_factory=Counter)
    mutants_dropped: Counter = field(default_factory=Counter)
    variants_kept: Counter = field(default_factory=Counter)
    mutants_kept: Counter = field(default_factory=Counter)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {f.name: dict(sorted(getattr(self, f.name).items())) for f in fields(self)}


def filter_by_execution(
    refs: Sequence[Reference],
    candidates: Sequence[Candidate],
    checker: ExecutionChecker,
) -> tuple[list[Candidate], ExecutionStats]:
    """Keep variants that pass the tests and mutants that fail them.

    Only references with tests in a language the checker runs are checked; a reference
    that fails its own tests is left unchecked (its candidates are kept) and counted.
    """
    by_id = {r.id: r for r in refs}
    stats = ExecutionStats()
    checkable = [r for r in refs if r.test and checker.supports(r.language)]
    ref_ok = dict(zip(
        [r.id for r in checkable],
        checker.passes_many([(r.language, r.code, r.test or "") for r in checkable]),
        strict=True,
    ))
    for r in checkable:
        stats.references_checked[r.language] += 1
        if not ref_ok[r.id]:
            stats.references_failing[r.language] += 1
    jobs, idx = [], []
    for i, cand in enumerate(candidates):
        ref = by_id[cand.ref_id]
        if ref_ok.get(ref.id):
            jobs.append((ref.language, cand.code, ref.test or ""))
            idx.append(i)
    results = dict(zip(idx, checker.passes_many(jobs), strict=True))
    kept = []
    for i, cand in enumerate(candidates):
        lang = by_id[cand.ref_id].language
        if i not in results:
            kept.append(cand)
            continue
        if results[i] == cand.preserving:
            kept.append(cand)
            (stats.variants_kept if cand.preserving else stats.mutants_kept)[lang] += 1
        else:
            (stats.variants_dropped if cand.preserving else stats.mutants_dropped)[lang] += 1
    return kept, stats

