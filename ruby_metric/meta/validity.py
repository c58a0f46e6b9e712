"""Validity: does a higher score mean a closer meaning? (SPEC section 8, items 1 and 2.)

**Mutation benchmark.** From real references (CodeXGLUE Java and C# methods, HumanEval-X in
Python, Java, C++ and JavaScript, and the hand-written snippets of
:mod:`.validity_snippets` in Python, C, C++, C# and JavaScript), every operator of
:mod:`.mutations` makes at most one candidate: semantics-preserving *variants* and
semantics-changing *mutants*. Each candidate is scored against its reference with
:class:`ruby_metric.RubyScorer`. For every tier, the **mutation AUC** is the share of
(variant, mutant) pairs *of the same reference* where the variant scores higher (ties count
one half), pooled over references; 1.0 is perfect, 0.5 is chance. Also: the share of
mutants scoring exactly 1.0 (a metric that cannot see the change at all), per-language
AUCs, and per operator the share of (variant, mutant) pairs where the mutant scores at
least as high as the variant (which mutants each tier misses). Intervals are percentile
bootstraps over references (fixed seed).

Meaning is checked where it can be: HumanEval-X Python and JavaScript candidates are run
against the problem's tests in a subprocess with a timeout (:class:`ExecutionChecker`,
results cached in a JSON file); only variants that pass and mutants that fail are kept. For
the other references the mutation operators are designed not to preserve meaning (see
:mod:`.mutations`).

**Judged development sets** (``judged_dev``): Spearman with CoNaLa human grades and ROC AUC
against HumanEval-Python execution, for every tier, BLEU and a chrF baseline
(:func:`chrf`). Each tier is reported on the pairs where it applies (with their count), and
with a missing tier falling back to the next lower one (GRS -> TRS -> STS), as RUBY does.

>>> mutation_auc([([0.9, 0.8], [0.85, 0.5])])
0.75
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

import crystal
import graphs

from ..metrics import METRICS
from ..scorer import RubyScorer
from ._util import percentile_interval
from .correlation import correlate
from .mutations import OPERATORS, Operator, normalize_whitespace
from .validity_snippets import snippets

__all__ = [
    "TIERS",
    "FALLBACK",
    "Reference",
    "Candidate",
    "ScoredCandidate",
    "TierValidity",
    "JudgedResult",
    "MutationReport",
    "ExecutionChecker",
    "load_references",
    "generate_candidates",
    "filter_by_execution",
    "score_candidates",
    "mutation_auc",
    "auc_counts",
    "bootstrap_ratio",
    "evaluate_mutations",
    "operator_failures",
    "chrf",
    "load_conala",
    "load_humaneval_judged",
    "score_judged",
    "judged_validity",
    "with_fallback",
    "default_datasets",
    "ExecutionStats",
    "run_mutation_benchmark",
]

log = logging.getLogger(__name__)

#: The scores compared, RUBY first.
TIERS: tuple[str, ...] = METRICS
#: Where a tier that does not apply falls back to (RUBY's own order).
FALLBACK: dict[str, tuple[str, ...]] = {
    "ruby": ("ruby",),
    "grs": ("grs", "trs", "sts"),
    "trs": ("trs", "sts"),
    "sts": ("sts",),
    "crystalbleu": ("crystalbleu",),
    "bleu": ("bleu",),
    "chrf": ("chrf",),
}
_DATASETS = Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets"
_HUMANEVAL_LANGS = {"python": "python", "java": "java", "cpp": "cpp", "javascript": "js"}
_SNIPPET_LANGS = ("python", "c", "cpp", "csharp", "javascript")


def default_datasets() -> Path:
    """``$RUBY_METRIC_DATASETS`` or ``../shared/datasets`` next to the project."""
    env = os.environ.get("RUBY_METRIC_DATASETS")
    return Path(env) if env else _DATASETS.resolve()


# ---------------------------------------------------------------------------------------
# references and candidates


@dataclass(frozen=True)
class Reference:
    """A reference snippet of the benchmark.

    ``test`` holds the problem's tests for HumanEval-X references (else None).
    """

    id: str
    source: str
    language: str
    code: str
    test: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A variant (``preserving``) or mutant of a reference, made by ``operator``."""

    ref_id: str
    operator: str
    preserving: bool
    code: str


@dataclass(frozen=True)
class ScoredCandidate:
    """A candidate's scores against its reference (``None`` where a tier does not apply)."""

    ref_id: str
    language: str
    source: str
    operator: str
    preserving: bool
    scores: dict[str, float | None]


def _read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.rstrip("\n") for line in fh]


def _pool(datasets: Path | None) -> dict[str, list[Reference]]:
    """Every candidate reference, grouped by source, in file order."""
    pools: dict[str, list[Reference]] = {}
    if datasets is not None:
        cxg = datasets / "codexglue_code2code_trans"
        for lang, ext in (("java", "java"), ("csharp", "cs")):
            path = cxg / f"test.java-cs.txt.{ext}"
            if path.is_file():
                pools[f"codexglue-{lang}"] = [
                    Reference(f"codexglue-{lang}-{i}", "codexglue", lang, line)
                    for i, line in enumerate(_read_lines(path))
                    if line.strip()
                ]
        for lang, short in _HUMANEVAL_LANGS.items():
            path = datasets / "humaneval_x" / f"humaneval_{short}.jsonl"
            if not path.is_file():
                continue
            refs = []
            for line in _read_lines(path):
                if not line.strip():
                    continue
                rec = json.loads(line)
                refs.append(
                    Reference(
                        f"humaneval-{lang}-{rec['task_id'].split('/')[-1]}",
                        "humaneval-x",
                        lang,
                        rec["prompt"] + rec["canonical_solution"],
                        rec.get("test"),
                    )
                )
            pools[f"humaneval-{lang}"] = refs
    for lang in _SNIPPET_LANGS:
        pools[f"snippets-{lang}"] = [
            Reference(f"snippets-{lang}-{i}", "snippets", lang, code)
            for i, code in enumerate(snippets(lang))
        ]
    return pools


def load_references(
    n: int | None = 2000, *, seed: int = 0, datasets: Path | None = None
) -> list[Reference]:
    """Up to ``n`` cleanly parsing references, chosen deterministically.

    Each source (CodeXGLUE Java, CodeXGLUE C#, HumanEval-X per language, snippets per
    language) is shuffled with ``seed``; references are then taken round-robin over the
    sources, so small sources are used completely before the large ones fill the rest.
    ``datasets`` defaults to :func:`default_datasets`; when it is missing only the snippets
    are used. ``n=None`` takes every reference.
    """
    datasets = default_datasets() if datasets is None else datasets
    pools = _pool(datasets if datasets.is_dir() else None)
    queues = []
    for key in sorted(pools):
        refs = [r for r in pools[key] if graphs.parse(r.code, r.language).ok]
        if len(refs) < len(pools[key]):
            log.info("%s: %d references without a clean parse left out", key,
                     len(pools[key]) - len(refs))
        random.Random(f"{seed}:{key}").shuffle(refs)
        queues.append(refs)
    out: list[Reference] = []
    limit = sum(len(q) for q in queues) if n is None else n
    depth = 0
    while len(out) < limit and any(depth < len(q) for q in queues):
        for q in queues:
            if depth < len(q) and len(out) < limit:
                out.append(q[depth])
        depth += 1
    return out


def generate_candidates(
    ref: Reference, *, seed: int = 0, operators: Sequence[Operator] = OPERATORS
) -> list[Candidate]:
    """One candidate per applicable operator (seeded per reference and operator).

    Candidates equal to the reference, or to an earlier candidate, after whitespace
    normalization are dropped. An operator that raises is logged and skipped.
    """
    seen = {normalize_whitespace(ref.code)}
    out: list[Candidate] = []
    for op in operators:
        rng = random.Random(f"{seed}:{ref.id}:{op.name}")
        try:
            code = op.apply(ref.code, ref.language, rng)
        except Exception:  # an operator bug must not stop the benchmark
            log.exception("operator %s failed on %s", op.name, ref.id)
            continue
        if code is None:
            continue
        key = normalize_whitespace(code)
        if key in seen:
            continue
        seen.add(key)
        out.append(Candidate(ref.id, op.name, op.preserving, code))
    return out


# ---------------------------------------------------------------------------------------
# execution checks

_JS_PRELUDE = (
    "console.assert = (cond, ...msg) => {"
    " if (!cond) { throw new Error('assertion failed: ' + msg.join(' ')); } };\n"
)


class ExecutionChecker:
    """Runs HumanEval-X tests in a subprocess, with a timeout and a JSON cache.

    Python: ``python3 -I`` on ``program + test`` (the test calls ``check(entry_point)``).
    JavaScript: ``node`` with ``console.assert`` made to throw, on ``program + test``.
    A run passes when it exits with status 0 within ``timeout`` seconds.
    """

    def __init__(
        self,
        cache_path: Path | None = None,
        *,
        timeout: float = 5.0,
        workers: int = 2,
        python: str | None = None,
        node: str | None = None,
    ) -> None:
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

    @staticmethod
    def supports(language: str) -> bool:
        return language in ("python", "javascript")

    def _key(self, language: str, program: str, test: str) -> str:
        digest = hashlib.sha256(f"{language}\0{program}\0{test}".encode()).hexdigest()
        return f"{language}:{digest}"

    def _run(self, language: str, program: str, test: str) -> bool:
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


# ---------------------------------------------------------------------------------------
# scoring


def _scorer_for(language: str, references: Iterable[str]) -> RubyScorer:
    """A scorer for ``language``; without a shipped n-gram set, one built from references."""
    scorer = RubyScorer(language=language)
    if scorer.ngram_set is None:
        unique = sorted(set(references))
        ngrams = crystal.build_ngram_set(unique, tokenizer=scorer.tokenizer)
        scorer = RubyScorer(language=language, ngrams=ngrams)
    return scorer


def score_candidates(
    refs: Sequence[Reference], candidates: Sequence[Candidate], *, workers: int = 1
) -> list[ScoredCandidate]:
    """Score every candidate against its reference, one scorer per language.

    CrystalBLEU uses the shipped n-gram set of the language (Java, C#) or one built from the
    benchmark's references of that language.
    """
    by_id = {r.id: r for r in refs}
    by_lang: dict[str, list[int]] = defaultdict(list)
    for i, cand in enumerate(candidates):
        by_lang[by_id[cand.ref_id].language].append(i)
    out: list[ScoredCandidate | None] = [None] * len(candidates)
    for lang in sorted(by_lang):
        idx = by_lang[lang]
        scorer = _scorer_for(lang, (r.code for r in refs if r.language == lang))
        corpus = scorer.score_corpus(
            [by_id[candidates[i].ref_id].code for i in idx],
            [candidates[i].code for i in idx],
            workers=workers,
        )
        for i, pair in zip(idx, corpus.pairs, strict=True):
            cand = candidates[i]
            ref = by_id[cand.ref_id]
            out[i] = ScoredCandidate(
                cand.ref_id, lang, ref.source, cand.operator, cand.preserving,
                {t: getattr(pair, t) for t in TIERS},
            )
    return [s for s in out if s is not None]


# ---------------------------------------------------------------------------------------
# statistics


def auc_counts(variants: Sequence[float], mutants: Sequence[float]) -> tuple[float, int]:
    """(wins, pairs): variant-above-mutant pairs (ties count 1/2) and the number of pairs.

    >>> auc_counts([0.9, 0.8], [0.85, 0.5])
    (3.0, 4)
    >>> auc_counts([0.5], [0.5])
    (0.5, 1)
    """
    v = np.asarray(variants, dtype=float)[:, None]
    m = np.asarray(mutants, dtype=float)[None, :]
    if v.size == 0 or m.size == 0:
        return 0.0, 0
    wins = float((v > m).sum() + 0.5 * (v == m).sum())
    return wins, int(v.size * m.size)


def mutation_auc(groups: Iterable[tuple[Sequence[float], Sequence[float]]]) -> float | None:
    """Pooled pairwise AUC over references: ``groups`` holds (variant scores, mutant scores).

    None when no reference has both a variant and a mutant.
    """
    wins = pairs = 0.0
    for v, m in groups:
        w, p = auc_counts(v, m)
        wins += w
        pairs += p
    return wins / pairs if pairs else None


def bootstrap_ratio(
    numerators: Sequence[float],
    denominators: Sequence[float],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile interval of ``sum(num) / sum(den)`` resampling the units with replacement.

    The units are references (one numerator and denominator each); the same ``seed`` and
    number of units resample the same units.
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    n = len(num)
    if n == 0 or resamples <= 0:
        return None
    rng = np.random.default_rng(seed)
    stats = np.empty(resamples)
    block = max(1, 2_000_000 // n)
    for start in range(0, resamples, block):
        rows = min(block, resamples - start)
        idx = rng.integers(0, n, size=(rows, n))
        d = den[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            stats[start:start + rows] = np.where(d > 0, num[idx].sum(axis=1) / d, np.nan)
    return percentile_interval(stats, confidence)


@dataclass(frozen=True)
class TierValidity:
    """Mutation-benchmark numbers of one tier.

    Attributes
    ----------
    tier : the score's name.
    auc, auc_ci : pooled pairwise variant-above-mutant AUC and its bootstrap interval.
    mutants_at_one, mutants_at_one_ci : share of mutants scoring exactly 1.0.
    references : references with both a variant and a mutant where the tier applies.
    pairs : (variant, mutant) pairs counted.
    excluded : candidates where the tier does not apply (left out).
    by_language : language -> (AUC, pairs).
    """

    tier: str
    auc: float | None
    auc_ci: tuple[float, float] | None
    mutants_at_one: float | None
    mutants_at_one_ci: tuple[float, float] | None
    references: int
    pairs: int
    excluded: int
    by_language: dict[str, tuple[float | None, int]]


def evaluate_mutations(
    scored: Sequence[ScoredCandidate],
    *,
    tiers: Sequence[str] = TIERS,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, TierValidity]:
    """Per tier: mutation AUC, mutants at 1.0, bootstrap intervals, per-language AUC."""
    out = {}
    for tier in tiers:
        groups: dict[str, tuple[list[float], list[float]]] = {}
        lang_of: dict[str, str] = {}
        excluded = 0
        for s in scored:
            value = s.scores.get(tier)
            if value is None:
                excluded += 1
                continue
            group = groups.setdefault(s.ref_id, ([], []))
            group[0 if s.preserving else 1].append(value)
            lang_of[s.ref_id] = s.language
        refs = sorted(k for k, (v, m) in groups.items() if v and m)
        counts = [auc_counts(*groups[k]) for k in refs]
        wins = [c[0] for c in counts]
        pairs = [c[1] for c in counts]
        mut_refs = sorted(k for k, (_, m) in groups.items() if m)
        at_one = [sum(1 for x in groups[k][1] if x == 1.0) for k in mut_refs]
        n_mut = [len(groups[k][1]) for k in mut_refs]
        by_lang: dict[str, tuple[float | None, int]] = {}
        for lang in sorted(set(lang_of.values())):
            sel = [i for i, k in enumerate(refs) if lang_of[k] == lang]
            p = sum(pairs[i] for i in sel)
            by_lang[lang] = (sum(wins[i] for i in sel) / p if p else None, p)
        total_pairs = sum(pairs)
        out[tier] = TierValidity(
            tier=tier,
            auc=sum(wins) / total_pairs if total_pairs else None,
            auc_ci=bootstrap_ratio(wins, pairs, resamples=resamples, seed=seed),
            mutants_at_one=sum(at_one) / sum(n_mut) if sum(n_mut) else None,
            mutants_at_one_ci=bootstrap_ratio(at_one, n_mut, resamples=resamples, seed=seed),
            references=len(refs),
            pairs=total_pairs,
            excluded=excluded,
            by_language=by_lang,
        )
    return out


def operator_failures(
    scored: Sequence[ScoredCandidate], *, tiers: Sequence[str] = TIERS
) -> dict[str, dict[str, tuple[float | None, int]]]:
    """Per operator and tier: how often the tier gets it wrong.

    For a mutant operator: the share of (variant, mutant) pairs of the same reference where
    the mutant scores at least as high as the variant (``>=``). For a variant operator: the
    share of its (variant, mutant) pairs where the variant scores at most as high as the
    mutant (``<=``). Each value comes with the number of pairs.
    """
    out: dict[str, dict[str, tuple[float | None, int]]] = {}
    for tier in tiers:
        groups: dict[str, tuple[list[ScoredCandidate], list[ScoredCandidate]]] = {}
        for s in scored:
            if s.scores.get(tier) is not None:
                groups.setdefault(s.ref_id, ([], []))[0 if s.preserving else 1].append(s)
        bad: Counter = Counter()
        total: Counter = Counter()
        for variants, mutants in groups.values():
            for v in variants:
                for m in mutants:
                    wrong = m.scores[tier] >= v.scores[tier]  # type: ignore[operator]
                    for op in (v.operator, m.operator):
                        total[op] += 1
                        bad[op] += int(wrong)
        for op in sorted(total):
            out.setdefault(op, {})[tier] = (bad[op] / total[op], total[op])
    order = {op.name: i for i, op in enumerate(OPERATORS)}
    return dict(sorted(out.items(), key=lambda kv: order.get(kv[0], len(order))))


# ---------------------------------------------------------------------------------------
# chrF


def _char_ngrams(text: str, n: int) -> Counter:
    return Counter(text[i:i + n] for i in range(len(text) - n + 1))


def chrf(hypothesis: str, references: str | Sequence[str], *, order: int = 6,
         beta: float = 2.0) -> float:
    """Sentence chrF in [0, 1] (sacrebleu's default chrF: n = 1..6, beta = 2, spaces removed).

    Character n-gram precision and recall are averaged over the orders where both sides
    have n-grams, then combined as an F-beta score. With several references, the best.

    >>> chrf("abc", "abc")
    1.0
    >>> chrf("", "abc")
    0.0
    """
    refs = [references] if isinstance(references, str) else list(references)
    hyp = "".join(hypothesis.split())
    best = 0.0
    for ref in refs:
        r = "".join(ref.split())
        precs, recs = [], []
        for n in range(1, order + 1):
            h_grams, r_grams = _char_ngrams(hyp, n), _char_ngrams(r, n)
            h_total, r_total = sum(h_grams.values()), sum(r_grams.values())
            if h_total == 0 or r_total == 0:
                continue
            match = sum((h_grams & r_grams).values())
            precs.append(match / h_total)
            recs.append(match / r_total)
        if not precs:
            continue
        p, rc = sum(precs) / len(precs), sum(recs) / len(recs)
        factor = beta**2
        if p + rc > 0:
            best = max(best, (1 + factor) * p * rc / (factor * p + rc))
    return best


# ---------------------------------------------------------------------------------------
# judged development sets

_CONALA_SYSTEMS = ("baseline", "tranx-annot", "best-tranx", "best-tranx-rerank", "codex")


def load_conala(path: Path | None = None) -> list[tuple[list[str], str, float]]:
    """CoNaLa items: (references, candidate, human grade 0-4). 2,360 items.

    Raises FileNotFoundError when the file is missing.
    """
    path = path or default_datasets() / "judged_dev" / "conala-aggregated-grades.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return [(list(r["snippet"]), r[m], float(r["grade-" + m]))
            for r in data for m in _CONALA_SYSTEMS]


def load_humaneval_judged(path: Path | None = None, *, reindent: bool = False
                          ) -> list[tuple[list[str], str, int]]:
    """HumanEval-Python completions: ([reference], candidate, passed 0/1). 3,220 items.

    The candidate is ``intent + completion``, as the dataset's README says. Every completion
    in the file has lost the indentation of its first line (it starts at column 0, the rest
    of its lines are indented), so that text is not valid Python (an unexpected indent); the
    tests were evidently run on the indented code. ``reindent=True`` gives the first line
    the indentation of the completion's next indented line (4 spaces if none), which is
    what ran.

    Raises FileNotFoundError when the file is missing.
    """
    path = path or default_datasets() / "judged_dev" / "humaneval_python_grade.json"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return [
        ([r["intent"] + r["snippet"][0]],
         r["intent"] + (_reindent_first_line(r[k]) if reindent else r[k]),
         int(r["grade-" + k]["execution"]))
        for r in data
        for k in r
        if k.isdigit()
    ]


def _reindent_first_line(completion: str) -> str:
    r"""Indent the first line like the next indented one (4 spaces when there is none).

    >>> _reindent_first_line("x = 1\n    return x\n")
    '    x = 1\n    return x\n'
    """
    if completion[:1] in (" ", "\t"):
        return completion
    for line in completion.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)] + completion
    return "    " + completion


def score_judged(
    items: Sequence[tuple[Sequence[str], str, float]], *, language: str = "python",
    workers: int = 1,
) -> dict[str, list[float | None]]:
    """Every tier and chrF per item (``None`` where a tier does not apply)."""
    refs = [list(r) for r, _, _ in items]
    cands = [c for _, c, _ in items]
    scorer = _scorer_for(language, (s for r in refs for s in r))
    corpus = scorer.score_corpus(refs, cands, workers=workers)
    scores: dict[str, list[float | None]] = {t: [getattr(p, t) for p in corpus.pairs]
                                             for t in TIERS}
    scores["chrf"] = [chrf(c, r) for r, c in zip(refs, cands, strict=True)]
    return scores


def with_fallback(scores: dict[str, list[float | None]], tier: str) -> list[float | None]:
    """``tier``'s scores with a missing value replaced by the next lower tier's (FALLBACK)."""
    chain = FALLBACK.get(tier, (tier,))
    out = []
    for i in range(len(scores[tier])):
        value = None
        for t in chain:
            value = scores[t][i]
            if value is not None:
                break
        out.append(value)
    return out


@dataclass(frozen=True)
class JudgedResult:
    """Agreement of one score with judgments.

    ``value``/``ci``/``n`` on the pairs where the tier applies; ``fallback_value``/
    ``fallback_ci`` on every pair with a missing tier replaced by the next lower tier.
    ``statistic`` is ``"spearman"`` or ``"auc"``.
    """

    metric: str
    statistic: str
    value: float | None
    ci: tuple[float, float] | None
    n: int
    excluded: int
    fallback_value: float | None
    fallback_ci: tuple[float, float] | None


def judged_validity(
    scores: dict[str, list[float | None]],
    judgments: Sequence[float],
    *,
    statistic: str,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, JudgedResult]:
    """Spearman (``statistic="spearman"``) or ROC AUC (``"auc"``) per score, with CIs."""
    out = {}
    binary = statistic == "auc"
    for metric in (*TIERS, "chrf"):
        if metric not in scores:
            continue
        plain = correlate(scores[metric], judgments, bootstrap=resamples, seed=seed,
                          metric=metric, binary=binary)
        full = correlate(with_fallback(scores, metric), judgments, bootstrap=resamples,
                         seed=seed, metric=metric, binary=binary)

        def pick(r: Any) -> tuple[float | None, tuple[float, float] | None]:
            est = r.auc if binary else r.spearman
            return (est.value, est.ci) if est is not None else (None, None)

        value, ci = pick(plain)
        f_value, f_ci = pick(full)
        out[metric] = JudgedResult(metric, statistic, value, ci, plain.n, plain.excluded,
                                   f_value, f_ci)
    return out


# ---------------------------------------------------------------------------------------
# the whole mutation benchmark


@dataclass
class MutationReport:
    """Everything the mutation benchmark measured."""

    references: int
    references_by_language: dict[str, int]
    variants: int
    mutants: int
    candidates_by_operator: dict[str, int]
    tiers: dict[str, TierValidity]
    operators: dict[str, dict[str, tuple[float | None, int]]]
    execution: dict[str, dict[str, int]]
    variants_at_one: dict[str, float | None]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["tiers"] = {k: asdict(v) for k, v in self.tiers.items()}
        return out


def run_mutation_benchmark(
    n_refs: int | None = 2000,
    *,
    seed: int = 0,
    datasets: Path | None = None,
    checker: ExecutionChecker | None = None,
    resamples: int = 1000,
    workers: int = 1,
) -> tuple[MutationReport, list[ScoredCandidate]]:
    """Load references, make candidates, check them by execution, score, and summarize."""
    refs = load_references(n_refs, seed=seed, datasets=datasets)
    candidates = [c for r in refs for c in generate_candidates(r, seed=seed)]
    stats = ExecutionStats()
    if checker is not None:
        candidates, stats = filter_by_execution(refs, candidates, checker)
    scored = score_candidates(refs, candidates, workers=workers)
    variants_at_one = {}
    for tier in TIERS:
        vals = [s.scores[tier] for s in scored if s.preserving and s.scores[tier] is not None]
        variants_at_one[tier] = (sum(1 for v in vals if v == 1.0) / len(vals)) if vals else None
    report = MutationReport(
        references=len(refs),
        references_by_language=dict(sorted(Counter(r.language for r in refs).items())),
        variants=sum(1 for c in candidates if c.preserving),
        mutants=sum(1 for c in candidates if not c.preserving),
        candidates_by_operator=dict(Counter(c.operator for c in candidates)),
        tiers=evaluate_mutations(scored, resamples=resamples, seed=seed),
        operators=operator_failures(scored),
        execution=stats.to_dict(),
        variants_at_one=variants_at_one,
    )
    return report, scored
