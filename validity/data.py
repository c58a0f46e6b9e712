"""References and candidates of the mutation benchmark: loading the reference snippets
(CodeXGLUE, HumanEval-X, :mod:`.snippets`) and making one candidate per
mutation operator (:mod:`.mutations`).
"""

from __future__ import annotations

import json
import logging
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import graphs

from .mutations import OPERATORS, Operator, normalize_whitespace
from .snippets import snippets

log = logging.getLogger(__name__)

#: Where a checkout keeps the shared datasets: ``../shared/datasets`` beside the repository.
_DATASETS = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets"
_HUMANEVAL_LANGS = {"python": "python", "java": "java", "cpp": "cpp", "javascript": "js"}
_SNIPPET_LANGS = ("python", "c", "cpp", "csharp", "javascript")


def default_datasets() -> Path:
    """``$RUBY_METRIC_DATASETS`` or ``../shared/datasets`` next to the project."""
    env = os.environ.get("RUBY_METRIC_DATASETS")
    return Path(env) if env else _DATASETS.resolve()


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


def _read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.rstrip("\n") for line in fh]


def dataset_references(datasets: Path | None = None) -> dict[str, list[Reference]]:
    """Every reference of the shared datasets, per source, in file order.

    The sources: ``codexglue-java`` and ``codexglue-csharp`` (the CodeXGLUE code-to-code
    test references, one per non-blank line) and ``humaneval-<language>`` for Python, Java,
    C++ and JavaScript (HumanEval-X: prompt + canonical solution, with the tests). Sources
    whose file is missing are left out; parse failures are kept.

    Parameters
    ----------
    datasets : the shared datasets folder (default :func:`default_datasets`).

    Returns
    -------
    source name -> its references.
    """
    datasets = default_datasets() if datasets is None else datasets
    pools: dict[str, list[Reference]] = {}
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
    return pools


def _pool(datasets: Path | None) -> dict[str, list[Reference]]:
    """Every candidate reference, grouped by source, in file order."""
    pools = dataset_references(datasets) if datasets is not None else {}
    for lang in _SNIPPET_LANGS:
        pools[f"snippets-{lang}"] = [
            Reference(f"snippets-{lang}-{i}", "snippets", lang, code)
            for i, code in enumerate(snippets(lang))
        ]
    return pools


def derangement(n: int, rng: random.Random) -> list[int]:
    """A uniformly random permutation of ``range(n)`` with no fixed point (``n != 1``).

    Rejection sampling of shuffles (about e tries on average).

    Parameters
    ----------
    n : the size (0 gives ``[]``).
    rng : the random source.

    Returns
    -------
    ``perm`` with ``perm[i] != i`` for every ``i``.

    Raises
    ------
    ValueError : ``n == 1`` (no derangement exists) or ``n < 0``.

    >>> perm = derangement(5, random.Random(0))
    >>> sorted(perm) == list(range(5)) and all(p != i for i, p in enumerate(perm))
    True
    """
    if n < 0 or n == 1:
        raise ValueError(f"no derangement of {n} elements")
    perm = list(range(n))
    while True:
        rng.shuffle(perm)
        if all(p != i for i, p in enumerate(perm)):
            return perm


def unrelated_pairs(
    references: Sequence[Reference], pairs: int | None, *, seed: int = 0
) -> list[tuple[Reference, Reference]]:
    """(reference, another reference) pairs of one source: the chance level's pairs.

    The references are deduplicated by text, up to ``pairs`` of them drawn (seeded), and
    each is paired with the one a seeded derangement assigns: no reference meets itself,
    nor a copy of its own text.

    Parameters
    ----------
    references : the references of one source (one language).
    pairs : the number of pairs (at most the number of distinct texts; ``None``: all).
    seed : the seed of the draw and of the derangement.

    Returns
    -------
    ``(reference, unrelated other)`` pairs.
    """
    unique = list({r.code: r for r in references}.values())
    rng = random.Random(f"{seed}:chance")
    if pairs is not None and pairs < len(unique):
        unique = [unique[i] for i in sorted(rng.sample(range(len(unique)), pairs))]
    if len(unique) < 2:
        return []
    perm = derangement(len(unique), rng)
    return [(unique[i], unique[j]) for i, j in enumerate(perm)]


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

