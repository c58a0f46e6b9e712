"""Cross-language RUBY: scoring a translation against its source (SPEC section 9, issue 22).

Four measurements, each with the lexical baselines on the same pairs (token edit
similarity, i.e. STS, and sentence BLEU with NLTK method1, the source as reference):

1. **HumanEval-X, same problem vs different problem.** For each of the 12 ordered pairs of
   Python, Java, C++ and JavaScript: the canonical program (prompt + canonical solution)
   of a problem in language A against the same problem in language B (positive) and
   against another problem in B (negative, a seeded derangement). AUC (Mann-Whitney, ties
   count half) and distinguishability d = mean(same) / mean(different). GRS is reported at
   the default beta 2 (the source as reference: how a translation is scored) and at beta 1
   (``grs_b1``): two independent solutions of one problem are a symmetric question (are
   these two programs clones?), which the README measures with beta 1. ``--mask-names``
   also reports GRS with every function's own name replaced by one placeholder on both
   sides (a correct translation keeps names; this shows what structure alone does).
2. **CodeXGLUE Java -> C# test set.** Java source against its gold C# translation vs
   against another line's translation (AUC); and source against a model's output with
   "output equals gold" (whitespace-normalised) as the proxy label (AUC).
3. **Cross-language mutation benchmark.** Mutants of the gold translation (the
   semantics-changing operators of :mod:`validity.mutations`) against the source:
   the gold must score above each mutant (win rate; ties reported apart).
4. **Timing.** ``score_source`` (both sides parsed, PDG and AST built, mapped, compared)
   against the same work without the neutral map (the same-language tiers on the same two
   texts): the neutralisation overhead, as a ratio of medians.

    python benchmarks/cross_language.py              # everything
    python benchmarks/cross_language.py --quick      # a small run (smoke test)
    python benchmarks/cross_language.py --json out.json --mask-names
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from itertools import permutations
from pathlib import Path
from typing import Any

# this checkout's package, not whichever one is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import crystal  # noqa: E402
from ruby_metric.meta.correlation import roc_auc, within_group_auc  # noqa: E402
from ruby_metric.scoring.code import Code, Limits, NotApplicable  # noqa: E402
from ruby_metric.scoring.crosslang import NeutralGraphTier, NeutralTreeTier  # noqa: E402
from ruby_metric.scoring.tiers import GraphTier, StringTier, TreeTier  # noqa: E402
from validity.chrf_baseline import chrf  # noqa: E402
from validity.data import (  # noqa: E402
    Reference,
    dataset_references,
    default_datasets,
    derangement,
    generate_candidates,
)
from validity.execution import ALL_LANGUAGES, ExecutionChecker  # noqa: E402
from validity.mutations import OPERATORS, normalize_whitespace  # noqa: E402

HUMANEVAL_LANGS = ("python", "java", "cpp", "javascript")
METRICS = ("ruby", "grs", "grs_b1", "trs", "bleu", "sts", "bleu_code", "sts_code")
#: A gold translation this close to its source (RUBY-source) is a literal translation: its
#: mutants are reported apart (a gold that differs from the source, as many CodeXGLUE C#
#: ports do, can gain by losing a statement the source does not have).
CLOSE_GOLD = 0.9
#: Two HumanEval-X solutions of one problem are "of comparable size" when their neutral
#: PDGs' node counts are within this factor (a diagnostic, reported apart).
COMPARABLE = 1.5
#: Test verdicts of the within-task candidates (compiling Java and C++ is slow).
EXEC_CACHE = Path(__file__).resolve().parent / ".cache" / "cross_language_exec.json"


class Scorer:
    """Cross-language GRS/TRS and the lexical baselines, with one Code per text."""

    def __init__(self, mask_names: bool = False) -> None:
        self.limits = Limits()
        self.graph = NeutralGraphTier(self.limits)
        #: the same graphs at beta 1 (symmetric questions: two independent solutions)
        self.graph_b1 = NeutralGraphTier(self.limits, beta=1.0)
        self.tree = NeutralTreeTier(self.limits)
        self.sts = StringTier(self.limits)
        self.bleu = crystal.CrystalBLEU(None, smoothing="method1", epsilon=1e-4,
                                        tokenizer="code")
        self.mask_names = mask_names
        self._codes: dict[tuple[str, str], Code] = {}
        self._code_tokens: dict[tuple[str, str], list[str]] = {}

    def code(self, text: str, language: str) -> Code:
        key = (text, language)
        code = self._codes.get(key)
        if code is None:
            code = self._codes[key] = Code(text, language, limits=self.limits)
        return code

    def _rep(self, tier: Any, code: Code) -> Any:
        try:
            rep = tier.represent(code)
        except NotApplicable:
            return None
        if self.mask_names and tier is self.graph:
            rep = _masked(rep)
        return rep

    def scores(self, source: Code, candidate: Code) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        g1, g2 = self._rep(self.graph, source), self._rep(self.graph, candidate)
        out["grs"] = None if g1 is None or g2 is None else self.graph.similarity(g1, g2)
        out["grs_b1"] = (None if g1 is None or g2 is None
                         else self.graph_b1.similarity(g1, g2))
        t1, t2 = self._rep(self.tree, source), self._rep(self.tree, candidate)
        out["trs"] = None if t1 is None or t2 is None else self.tree.similarity(t1, t2)
        out["ruby"] = out["grs"] if out["grs"] is not None else out["trs"]
        out["sts"] = self.sts.similarity(source.tokens, candidate.tokens)
        out["bleu"] = float(self.bleu.sentence_score([source.tokens], candidate.tokens))
        # the lexical baselines on code alone: HumanEval-X prompts carry the same English
        # docstring in every language, which RUBY (comments dropped) never reads
        src_code, cand_code = self.code_tokens(source), self.code_tokens(candidate)
        out["sts_code"] = self.sts.similarity(src_code, cand_code)
        out["bleu_code"] = float(self.bleu.sentence_score([src_code], cand_code))
        return out

    def code_tokens(self, code: Code) -> list[str]:
        key = (code.text, code.language or "")
        tokens = self._code_tokens.get(key)
        if tokens is None:
            text = _without_comments(code.text, code.language)
            tokens = self._code_tokens[key] = crystal.tokenize(text, "code")
        return tokens


def _without_comments(text: str, language: str | None) -> str:
    """``text`` without its comments and docstrings (as parsed; unchanged if it does not
    parse as a whole program)."""
    import graphs

    if language is None:
        return text
    parsed = graphs.parse(text, language)
    if parsed.tree is None or not parsed.ok:
        return text
    cut: list[tuple[int, int]] = []
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if "comment" in node.type or _docstring(node):
            cut.append(parsed.source_range(node))  # characters of ``source``
            continue
        stack.extend(node.children)
    out = parsed.source
    for start, end in sorted(cut, reverse=True):
        out = out[:start] + " " + out[end:]
    return out


def _docstring(node: Any) -> bool:
    """A Python string statement first in its block or module: a docstring."""
    if node.type != "expression_statement" or node.named_child_count != 1:
        return False
    if node.named_children[0].type != "string":
        return False
    parent = node.parent
    return parent is not None and parent.named_children[0] == node


def _masked(graph: Any) -> Any:
    """The graph with its functions' own names replaced by ``f`` (ablation)."""
    from graphs.neutral.tokens import render_tokens, split_label

    names = set()
    for _, d in graph.nodes(data=True):
        toks = split_label(str(d.get("label", "")))
        if d.get("kind") in ("entry", "function") and len(toks) > 1 and toks[0] == "def":
            names.add(toks[1])
    if not names:
        return graph
    g = graph.copy()
    for n, d in g.nodes(data=True):
        toks = split_label(str(d.get("label", "")))
        if any(t in names for t in toks):
            g.nodes[n]["label"] = render_tokens(["f" if t in names else t for t in toks])
    return g


def _auc(pos: list[float], neg: list[float]) -> float | None:
    if not pos or not neg:
        return None
    return roc_auc([*pos, *neg], [1] * len(pos) + [0] * len(neg))


def _d(pos: list[float], neg: list[float]) -> float | None:
    if not pos or not neg or statistics.fmean(neg) == 0:
        return None
    return statistics.fmean(pos) / statistics.fmean(neg)


# ------------------------------------------------------------------------- HumanEval-X


def humaneval(scorer: Scorer, limit: int | None, seed: int) -> list[dict[str, Any]]:
    pools = dataset_references()
    by_lang: dict[str, dict[str, Reference]] = {}
    for lang in HUMANEVAL_LANGS:
        refs = pools.get(f"humaneval-{lang}", [])
        by_lang[lang] = {r.id.rsplit("-", 1)[1]: r for r in refs}
    rows = []
    for a, b in permutations(HUMANEVAL_LANGS, 2):
        tasks = sorted(set(by_lang[a]) & set(by_lang[b]), key=int)
        if limit is not None:
            tasks = tasks[:limit]
        rng = random.Random(f"{seed}:{a}:{b}")
        perm = derangement(len(tasks), rng)
        pos: dict[str, list[float]] = {m: [] for m in METRICS}
        neg: dict[str, list[float]] = {m: [] for m in METRICS}
        comparable: list[float] = []  # GRS of same-problem pairs of comparable size
        for i, task in enumerate(tasks):
            src = scorer.code(by_lang[a][task].code, a)
            same = scorer.code(by_lang[b][task].code, b)
            other = scorer.code(by_lang[b][tasks[perm[i]]].code, b)
            s_same, s_other = scorer.scores(src, same), scorer.scores(src, other)
            for m in METRICS:
                # a metric's AUC is over the pairs where it applies on both sides
                if s_same[m] is not None and s_other[m] is not None:
                    pos[m].append(s_same[m])
                    neg[m].append(s_other[m])
            if s_same["grs"] is not None and s_other["grs"] is not None:
                n1 = scorer.graph.represent(src).number_of_nodes()
                n2 = scorer.graph.represent(same).number_of_nodes()
                if max(n1, n2) <= COMPARABLE * min(n1, n2):
                    comparable.append(s_same["grs"])
        row: dict[str, Any] = {"source": a, "target": b, "n": len(tasks)}
        # the same problem where the two solutions are of comparable size (node counts
        # within COMPARABLE x) against every different-problem pair: how far structure
        # goes when the two are not different algorithms
        row["grs_comparable_n"] = len(comparable)
        row["grs_comparable_auc"] = _auc(comparable, neg["grs"])
        for m in METRICS:
            row[f"{m}_n"] = len(pos[m])
            row[f"{m}_auc"] = _auc(pos[m], neg[m])
            row[f"{m}_d"] = _d(pos[m], neg[m])
            row[f"{m}_same"] = statistics.fmean(pos[m]) if pos[m] else None
            row[f"{m}_different"] = statistics.fmean(neg[m]) if neg[m] else None
        rows.append(row)
        print(f"  {a} -> {b}: n={len(tasks)} GRS AUC {_fmt(row['grs_auc'])} "
              f"(beta 1: {_fmt(row['grs_b1_auc'])}) "
              f"TRS {_fmt(row['trs_auc'])} BLEU {_fmt(row['bleu_auc'])} "
              f"STS {_fmt(row['sts_auc'])} BLEU-code {_fmt(row['bleu_code_auc'])} "
              f"STS-code {_fmt(row['sts_code_auc'])}", file=sys.stderr, flush=True)
    return rows


# -------------------------------------------------------------------------- CodeXGLUE


def _lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.rstrip("\n") for line in fh]


def codexglue(scorer: Scorer, limit: int | None, seed: int) -> dict[str, Any]:
    root = default_datasets() / "codexglue_code2code_trans"
    java = _lines(root / "test.java-cs.txt.java")
    cs = _lines(root / "test.java-cs.txt.cs")
    model_path = root / "model_outputs" / "java-cs-model1.output"
    model = _lines(model_path) if model_path.is_file() else []
    idx = [i for i in range(min(len(java), len(cs))) if java[i].strip() and cs[i].strip()]
    if limit is not None:
        idx = idx[:limit]
    perm = derangement(len(idx), random.Random(f"{seed}:codexglue"))
    pos: dict[str, list[float]] = {m: [] for m in METRICS}
    neg: dict[str, list[float]] = {m: [] for m in METRICS}
    proxy_scores: dict[str, list[float]] = {m: [] for m in METRICS}
    proxy_labels: dict[str, list[int]] = {m: [] for m in METRICS}
    for k, i in enumerate(idx):
        src = scorer.code(java[i], "java")
        gold = scorer.code(cs[i], "csharp")
        other = scorer.code(cs[idx[perm[k]]], "csharp")
        s_gold, s_other = scorer.scores(src, gold), scorer.scores(src, other)
        for m in METRICS:
            if s_gold[m] is not None and s_other[m] is not None:
                pos[m].append(s_gold[m])
                neg[m].append(s_other[m])
        if i < len(model) and model[i].strip():
            s_model = scorer.scores(src, scorer.code(model[i], "csharp"))
            label = int(normalize_whitespace(model[i]) == normalize_whitespace(cs[i]))
            for m in METRICS:
                if s_model[m] is not None:
                    proxy_scores[m].append(s_model[m])
                    proxy_labels[m].append(label)
    out: dict[str, Any] = {"n": len(idx), "model_n": len(proxy_labels["sts"]),
                           "model_exact": sum(proxy_labels["sts"])}
    for m in METRICS:
        out[f"{m}_n"] = len(pos[m])
        out[f"{m}_auc"] = _auc(pos[m], neg[m])
        out[f"{m}_d"] = _d(pos[m], neg[m])
        labels = proxy_labels[m]
        out[f"{m}_model_auc"] = (roc_auc(proxy_scores[m], labels)
                                 if 0 < sum(labels) < len(labels) else None)
    return out


# ------------------------------------------------------------------------- mutations


def mutations(scorer: Scorer, limit: int | None, seed: int) -> list[dict[str, Any]]:
    """Gold translation vs its mutants, both against the source."""
    pools = dataset_references()
    root = default_datasets() / "codexglue_code2code_trans"
    java = _lines(root / "test.java-cs.txt.java")
    cs = _lines(root / "test.java-cs.txt.cs")
    pairs: dict[str, list[tuple[Reference, Reference]]] = {"java -> csharp (CodeXGLUE)": []}
    for i in range(min(len(java), len(cs))):
        if java[i].strip() and cs[i].strip():
            pairs["java -> csharp (CodeXGLUE)"].append((
                Reference(f"cxg-java-{i}", "codexglue", "java", java[i]),
                Reference(f"cxg-cs-{i}", "codexglue", "csharp", cs[i])))
    by_lang = {lang: {r.id.rsplit("-", 1)[1]: r for r in pools.get(f"humaneval-{lang}", [])}
               for lang in HUMANEVAL_LANGS}
    for a, b in permutations(HUMANEVAL_LANGS, 2):
        tasks = sorted(set(by_lang[a]) & set(by_lang[b]), key=int)
        pairs[f"{a} -> {b} (HumanEval-X)"] = [(by_lang[a][t], by_lang[b][t]) for t in tasks]
    mutants_ops = [op for op in OPERATORS if not op.preserving]
    rows = []
    for name, items in pairs.items():
        items = items[:limit] if limit is not None else items
        wins = ties = total = 0
        close_wins = close_total = 0
        per_op: dict[str, list[int]] = {}
        for src_ref, gold_ref in items:
            src = scorer.code(src_ref.code, src_ref.language)
            gold = scorer.code(gold_ref.code, gold_ref.language)
            g_gold = scorer.scores(src, gold)["ruby"]
            if g_gold is None:
                continue
            for cand in generate_candidates(gold_ref, seed=seed, operators=mutants_ops):
                g_mut = scorer.scores(src, scorer.code(cand.code, gold_ref.language))["ruby"]
                if g_mut is None:
                    continue
                total += 1
                win = g_gold > g_mut
                tie = g_gold == g_mut
                wins += win
                ties += tie
                if g_gold >= CLOSE_GOLD:
                    close_total += 1
                    close_wins += win
                per_op.setdefault(cand.operator, [0, 0])
                per_op[cand.operator][0] += win
                per_op[cand.operator][1] += 1
        rows.append({"pairs": name, "mutants": total,
                     "win_rate": wins / total if total else None,
                     "tie_rate": ties / total if total else None,
                     "close_mutants": close_total,
                     "close_win_rate": close_wins / close_total if close_total else None,
                     "per_operator": {k: v[0] / v[1] for k, v in sorted(per_op.items())}})
        print(f"  mutations {name}: {total} mutants, gold wins {_fmt(rows[-1]['win_rate'])}",
              file=sys.stderr, flush=True)
    return rows


# ------------------------------------------------------------------ within-task errors

#: LLM-style translation errors, each by a principle from what goes wrong in real
#: translations (a semantics a target language spells differently, a bound moved by one),
#: applied to the canonical solution of the target (never to its prompt). A bound or an
#: index moved by one is moved either way (``<`` -> ``<=`` and ``<=`` -> ``<``; ``+ 1`` and
#: ``- 1``): an error that only ever adds characters would favour any score that counts
#: added characters, which is not what an error is. One error per kind and task: first a
#: way (adding characters, removing them), each as likely where the kind finds both, then a
#: seeded site of that way (a site among all those found would add characters about 85% of
#: the time, ``x[i]`` being far more common than ``x[i - 1]``); with ``--exec`` (the default
#: when the toolchains are there) an error is kept only if the program then fails its tests, and a
#: task only if its canonical program passes them.
def _error_sites(code: str, language: str) -> dict[str, list[tuple[int, int, str]]]:
    """Per error kind, the edits ``(start, end, replacement)`` it could make in ``code``."""
    sites: dict[str, list[tuple[int, int, str]]] = {
        "integer division lost": [], "true division lost": [], "loop bound off by one": [],
        "boundary comparison": [], "index off by one": []}
    if language == "python":
        sites["integer division lost"] = [(m.start(), m.end(), "/")
                                          for m in re.finditer(r"//(?!=)", code)]
        for m in re.finditer(r"\brange\(", code):
            close = _closing(code, m.end() - 1)
            if close is not None:
                sites["loop bound off by one"] += [(close, close, " + 1"),
                                                  (close, close, " - 1")]
    else:
        if language == "javascript":
            for m in re.finditer(r"Math\.floor\(", code):
                close = _closing(code, m.end() - 1)
                if close is not None and "/" in code[m.end():close]:
                    sites["integer division lost"].append(
                        (m.start(), close + 1, code[m.end():close]))
        if language in ("java", "cpp"):
            sites["true division lost"] = _conversions_to_float(code)
        for m in re.finditer(r"\bfor\s*\(([^;()]*);([^;]*);", code):
            for k in re.finditer(r"(?<![<>=!])([<>])(=?)(?![<>=])", m.group(2)):
                at = m.start(2) + k.start()
                sites["loop bound off by one"].append(
                    (at, at + len(k.group(0)), k.group(1) + ("" if k.group(2) else "=")))
    for line in re.finditer(r"^[ \t]*(?:if|elif|while|return|\} else if)\b.*$", code, re.M):
        text = line.group(0)
        for k in re.finditer(r"(?<![<>=!-])([<>])(=?)(?![<>=])", text):
            at = line.start() + k.start()
            sites["boundary comparison"].append(
                (at, at + len(k.group(0)), k.group(1) + ("" if k.group(2) else "=")))
    sites["index off by one"] = [(m.start(), m.end(), "]")
                                 for m in re.finditer(r"\s*-\s*1\s*\]", code)]
    # the other way: a plain name as index, read one place earlier
    sites["index off by one"] += [(m.end(1), m.end(1), " - 1")
                                  for m in re.finditer(r"\w\[([A-Za-z_]\w*)\]", code)]
    return sites


#: a conversion to floating written to make a quotient true: a cast (Java's and C's
#: ``(double) a``, C++'s ``double(a)``) or a product with one (``1.0 * a``)
_TO_FLOAT = re.compile(r"\((?:double|float)\)\s*|\b(?:double|float)(?=\()|\b1\.0\s*\*\s*")


def _conversions_to_float(code: str) -> list[tuple[int, int, str]]:
    """The mirror of a lost integer division, into languages with integer types: a true
    division that the solution asks for with a conversion to floating (``(double) a / b``,
    ``a / (double) b``, ``1.0 * a / b``) loses the conversion, as a translation of
    Python's ``a / b`` into a plain ``a / b`` on ints does. Each edit deletes the
    conversion (a functional cast ``double(a)`` keeps its parentheses)."""
    out = []
    for m in _TO_FLOAT.finditer(code):
        end = _operand_end(code, m.end())
        after = code[end:].lstrip() if end is not None else ""
        before = code[:m.start()].rstrip()
        divides = after[:1] == "/" and after[1:2] not in ("/", "=", "*")
        divided = before[-1:] == "/" and before[-2:-1] not in ("/", "*")
        if divides or divided:
            out.append((m.start(), m.end(), ""))
    return out


def _operand_end(code: str, i: int) -> int | None:
    """Where the operand starting at ``i`` ends: a bracketed group or a name, then any
    ``.name``, call or index."""
    m = re.compile(r"\s*").match(code, i)
    j = m.end() if m else i
    if code[j:j + 1] == "(":
        close = _closing(code, j)
        if close is None:
            return None
        j = close + 1
    else:
        name = re.compile(r"[\w.]+").match(code, j)
        if name is None:
            return None
        j = name.end()
    while j < len(code) and code[j] in "([":
        close = _closing(code, j) if code[j] == "(" else code.find("]", j)
        if close is None or close < 0:
            return None
        j = close + 1
        dotted = re.compile(r"\.[\w.]+").match(code, j)
        if dotted:
            j = dotted.end()
    return j


def _closing(code: str, open_at: int) -> int | None:
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return None


def _erroneous(solution: str, language: str, rng: random.Random) -> list[tuple[str, str]]:
    """(error kind, the solution with that error) for each kind that applies: a way first
    (:func:`_growth`; each way the kind finds is as likely), then a site of that way."""
    out = []
    for kind, found in _error_sites(solution, language).items():
        ways: dict[str, list[tuple[int, int, str]]] = {}
        for site in found:
            ways.setdefault(_growth(site), []).append(site)
        if ways:
            sites = ways[sorted(ways)[rng.randrange(len(ways))]]
            start, end, text = sites[rng.randrange(len(sites))]
            out.append((kind, solution[:start] + text + solution[end:]))
    return out


def _growth(site: tuple[int, int, str]) -> str:
    """Which way an edit ``(start, end, replacement)`` goes: ``"adds"`` characters,
    ``"removes"`` them, or keeps their number (``"same"``)."""
    start, end, text = site
    return _way(len(text) - (end - start))


def _way(grow: int) -> str:
    """The way of an edit that changes a text's length by ``grow`` characters."""
    return "adds" if grow > 0 else "removes" if grow < 0 else "same"


def _humaneval_records(lang: str) -> dict[str, dict[str, str]]:
    short = {"javascript": "js"}.get(lang, lang)
    path = default_datasets() / "humaneval_x" / f"humaneval_{short}.jsonl"
    out = {}
    for line in _lines(path):
        if line.strip():
            rec = json.loads(line)
            out[rec["task_id"].split("/")[-1]] = rec
    return out


WITHIN_METRICS = ("ruby", "grs", "trs", "bleu", "crystalbleu", "sts", "chrf")


def _within_candidates(records: dict[str, dict[str, dict[str, str]]], limit: int | None,
                       seed: int) -> dict[tuple[str, str], list[tuple[str, str, str]]]:
    """Per direction, ``(task, kind, solution)``: the canonical and its seeded errors."""
    out = {}
    for a, b in permutations(HUMANEVAL_LANGS, 2):
        tasks = sorted(set(records[a]) & set(records[b]), key=int)[:limit]
        rng = random.Random(f"{seed}:{a}:{b}:errors")
        out[a, b] = [(t, kind, solution) for t in tasks for kind, solution in
                     [("canonical", records[b][t]["canonical_solution"])]
                     + _erroneous(records[b][t]["canonical_solution"], b, rng)]
    return out


def _verdicts(records: dict[str, dict[str, dict[str, str]]],
              cands: dict[tuple[str, str], list[tuple[str, str, str]]],
              checker: ExecutionChecker) -> dict[tuple[str, str, str], bool]:
    """``(language, task, solution) -> passes`` for every candidate (prompt + solution +
    the task's tests, one batch so the checker runs them in parallel)."""
    keys = sorted({(b, t, sol) for (_, b), rows in cands.items() for t, _, sol in rows
                   if checker.supports(b)})
    jobs = [(b, records[b][t]["prompt"] + sol, records[b][t]["test"]) for b, t, sol in keys]
    return dict(zip(keys, checker.passes_many(jobs), strict=True))


def within_task(scorer: Scorer, limit: int | None, seed: int,
                checker: ExecutionChecker | None = None) -> list[dict[str, Any]]:
    """Per direction, the canonical translation (passes) against its LLM-style errors
    (fail), all scored against the source program: within-task AUC (only pairs of a
    passing and a failing candidate of the same task; ties count half), overall and per
    error kind. With a ``checker`` an error that still passes the tests (an equivalent
    mutant: ``if (x >= m) m = x`` for ``>``) is no failing translation and is left out, as
    is a task whose canonical program fails; the counts are reported."""
    records = {lang: _humaneval_records(lang) for lang in HUMANEVAL_LANGS}
    cands = _within_candidates(records, limit, seed)
    verdict = _verdicts(records, cands, checker) if checker is not None else None
    rows = []
    for (a, b), rows_ab in cands.items():
        tasks = sorted({t for t, _, _ in rows_ab}, key=int)
        corpus = [records[x][t]["prompt"] + records[x][t]["canonical_solution"]
                  for x in (a, b) for t in tasks]
        cbleu = crystal.CrystalBLEU(crystal.build_ngram_set(corpus, k=500), smoothing="method1",
                                    epsilon=1e-4, tokenizer="code")
        scores: dict[str, list[float | None]] = {m: [] for m in WITHIN_METRICS}
        labels: list[int] = []
        groups: list[str] = []
        kinds: list[str] = []
        ways: list[str] = []
        dropped = {"canonical fails": 0, "error passes": 0}
        for t, kind, solution in rows_ab:
            if verdict is not None and checker is not None and checker.supports(b):
                if not verdict[b, t, records[b][t]["canonical_solution"]]:
                    dropped["canonical fails"] += kind == "canonical"
                    continue
                if kind != "canonical" and verdict[b, t, solution]:
                    dropped["error passes"] += 1
                    continue
            src = scorer.code(records[a][t]["prompt"] + records[a][t]["canonical_solution"], a)
            cand = scorer.code(records[b][t]["prompt"] + solution, b)
            s = scorer.scores(src, cand)
            s["crystalbleu"] = float(cbleu.sentence_score([src.tokens], cand.tokens))
            s["chrf"] = chrf(cand.text, src.text)
            for m in WITHIN_METRICS:
                scores[m].append(s[m])
            labels.append(int(kind == "canonical"))
            groups.append(t)
            kinds.append(kind)
            ways.append("canonical" if kind == "canonical" else
                        _way(len(solution) - len(records[b][t]["canonical_solution"])))
        row: dict[str, Any] = {"source": a, "target": b, "tasks": len(set(groups)),
                               "verified": checker is not None and checker.supports(b),
                               "errors": len(labels) - sum(labels), "dropped": dropped,
                               "kinds": {k: kinds.count(k) for k in sorted(set(kinds))
                                         if k != "canonical"},
                               "ways": {w: ways.count(w) for w in sorted(set(ways))
                                        if w != "canonical"}}
        for m in WITHIN_METRICS:
            row[f"{m}_auc"] = within_group_auc(scores[m], labels, groups, bootstrap=0).value
        row["by_kind"] = {k: _part_auc(scores, labels, groups, kinds, k) for k in row["kinds"]}
        # an error that adds characters against one that removes them: a score that counts
        # characters or tokens tells the first from the canonical more easily
        row["by_way"] = {w: _part_auc(scores, labels, groups, ways, w) for w in row["ways"]}
        rows.append(row)
        print(f"  within-task {a} -> {b}: {row['errors']} errors, RUBY "
              f"{_fmt(row['ruby_auc'])} BLEU {_fmt(row['bleu_auc'])} "
              f"chrF {_fmt(row['chrf_auc'])}", file=sys.stderr, flush=True)
    return rows


def _part_auc(scores: dict[str, list[float | None]], labels: list[int], groups: list[str],
              parts: list[str], part: str) -> dict[str, float | None]:
    """Within-task AUC per metric on the canonical candidates and the errors whose entry
    in ``parts`` is ``part`` (an error kind, a way)."""
    keep = [i for i, x in enumerate(parts) if x in ("canonical", part)]
    return {m: within_group_auc([scores[m][i] for i in keep], [labels[i] for i in keep],
                                [groups[i] for i in keep], bootstrap=0).value
            for m in WITHIN_METRICS}


# ----------------------------------------------------------------------------- timing


def timing(pairs: list[tuple[str, str, str, str]], repeat: int) -> dict[str, Any]:
    """Median seconds per pair: cross-language GRS+TRS vs the same tiers without the map."""
    from graphs.neutral.labels import _neutral_label

    limits = Limits()

    def run(neutral: bool) -> list[float]:
        graph = NeutralGraphTier(limits) if neutral else GraphTier(limits)
        tree = NeutralTreeTier(limits) if neutral else TreeTier(limits)
        times = []
        for src, sl, cand, cl in pairs:
            best = float("inf")
            for _ in range(repeat):
                a, b = Code(src, sl, limits=limits), Code(cand, cl, limits=limits)
                # no neutral label remembered from an earlier repetition or pair: the
                # mapping is paid in full every time
                _neutral_label.cache_clear()
                t0 = time.perf_counter()
                graph.score([a], b)
                tree.score([a], b)
                best = min(best, time.perf_counter() - t0)
            times.append(best)
        return times

    run(True)  # warm-up: grammars, caches of the GED
    plain = run(False)
    cross = run(True)
    ratios = [c / p for c, p in zip(cross, plain, strict=True) if p > 0]
    return {"pairs": len(pairs), "same_language_median_ms": 1000 * statistics.median(plain),
            "cross_language_median_ms": 1000 * statistics.median(cross),
            "ratio_of_medians": statistics.median(cross) / statistics.median(plain),
            "median_ratio": statistics.median(ratios),
            "p90_ratio": sorted(ratios)[int(0.9 * (len(ratios) - 1))]}


# ----------------------------------------------------------------------------- output


def _fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _best_lexical(row: dict[str, Any]) -> float:
    """The best lexical AUC of a HumanEval-X row (BLEU or token edit, with or without
    comments)."""
    return max(row[f"{m}_auc"] or 0.0 for m in ("bleu", "sts", "bleu_code", "sts_code"))


def render(result: dict[str, Any]) -> str:
    lines = []
    rows = result.get("humaneval", [])
    if rows:
        lines += ["### HumanEval-X: same problem vs a different problem (AUC; d)", "",
                  "| source -> candidate | n | RUBY-source GRS AUC | GRS AUC, beta 1 | "
                  "TRS AUC | BLEU AUC | "
                  "token-edit AUC | BLEU AUC, code only | token-edit AUC, code only | GRS d | "
                  "BLEU d | token-edit d |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            n = f"{r['n']}" + ("" if r["grs_n"] == r["n"] else f" (GRS {r['grs_n']})")
            lines.append(f"| {r['source']} -> {r['target']} | {n} | {_fmt(r['grs_auc'])} | "
                         f"{_fmt(r['grs_b1_auc'])} | "
                         f"{_fmt(r['trs_auc'])} | {_fmt(r['bleu_auc'])} | "
                         f"{_fmt(r['sts_auc'])} | {_fmt(r['bleu_code_auc'])} | "
                         f"{_fmt(r['sts_code_auc'])} | {_fmt(r['grs_d'], 2)} | "
                         f"{_fmt(r['bleu_d'], 2)} | {_fmt(r['sts_d'], 2)} |")
        lines.append("")
        for key, name in (("grs", "GRS"), ("grs_b1", "GRS at beta 1")):
            worst = min(rows, key=lambda r, k=key: r[f"{k}_auc"] or 0)
            above = sum(1 for r in rows if (r[f"{key}_auc"] or 0) > _best_lexical(r))
            lines.append(
                f"{name}: lowest AUC {worst['source']} -> {worst['target']} "
                f"{_fmt(worst[f'{key}_auc'])}; mean over pairs "
                f"{_fmt(statistics.fmean(r[f'{key}_auc'] for r in rows if r[f'{key}_auc']))};"
                f" above the best lexical baseline on {above} of {len(rows)} pairs")
        lines.append(
            f"GRS, same-problem pairs of comparable size (node counts within {COMPARABLE}x) "
            "against all different-problem pairs: " + ", ".join(
                f"{r['source']}->{r['target']} {_fmt(r['grs_comparable_auc'])} "
                f"(n={r['grs_comparable_n']})" for r in rows))
        masked = result.get("humaneval_masked")
        if masked:
            lines += ["", "GRS AUC with the functions' own names masked (ablation): " + ", ".join(
                f"{r['source']}->{r['target']} {_fmt(r['grs_auc'])}" for r in masked)]
        lines.append("")
    cx = result.get("codexglue")
    if cx:
        lines += ["### CodeXGLUE Java -> C# (test)", "",
                  "| metric | source vs gold vs random: AUC | d | source vs model output "
                  "(proxy: output = gold): AUC |", "|---|---:|---:|---:|"]
        for m in METRICS:
            lines.append(f"| {m.upper()} | {_fmt(cx[f'{m}_auc'])} | {_fmt(cx[f'{m}_d'], 2)} | "
                         f"{_fmt(cx[f'{m}_model_auc'])} |")
        lines += ["", f"{cx['n']} pairs (GRS on {cx['grs_n']}); model outputs: "
                  f"{cx['model_n']}, {cx['model_exact']} equal to gold", ""]
    mut = result.get("mutations")
    if mut:
        lines += ["### Cross-language mutation benchmark: gold above its mutants (RUBY-source)",
                  "", f"| pairs | mutants | gold wins | ties | mutants of golds with RUBY >= "
                  f"{CLOSE_GOLD} | gold wins there |", "|---|---:|---:|---:|---:|---:|"]
        for r in mut:
            lines.append(f"| {r['pairs']} | {r['mutants']} | {_fmt(r['win_rate'])} | "
                         f"{_fmt(r['tie_rate'])} | {r['close_mutants']} | "
                         f"{_fmt(r['close_win_rate'])} |")
        total = sum(r["mutants"] for r in mut)
        wins = sum((r["win_rate"] or 0) * r["mutants"] for r in mut)
        lines += ["", f"all: {total} mutants, gold wins {_fmt(wins / total if total else None)}",
                  ""]
    wt = result.get("within_task")
    if wt:
        lines += ["### Within-task: the canonical translation vs its LLM-style errors "
                  "(HumanEval-X, against the source)", "",
                  "| source -> candidate | errors | " + " | ".join(
                      m.upper() for m in WITHIN_METRICS) + " | best lexical |",
                  "|---|---:|" + "---:|" * (len(WITHIN_METRICS) + 1)]
        for r in wt:
            best = max(r[f"{m}_auc"] or 0.0 for m in ("bleu", "crystalbleu", "sts", "chrf"))
            lines.append(f"| {r['source']} -> {r['target']} | {r['errors']} | " + " | ".join(
                _fmt(r[f"{m}_auc"]) for m in WITHIN_METRICS) + f" | {_fmt(best)} |")
        kinds: dict[str, int] = {}
        dropped: dict[str, int] = {}
        for r in wt:
            for k, v in r["kinds"].items():
                kinds[k] = kinds.get(k, 0) + v
            for k, v in r.get("dropped", {}).items():
                dropped[k] = dropped.get(k, 0) + v
        lines += ["", "errors: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
                  + " (a line read for a token read: none, HumanEval-X programs read no "
                  "input)"]
        if result.get("within_exec"):
            run = sorted({r["target"] for r in wt if r.get("verified")})
            lines.append(f"left out after running the tests (targets {', '.join(run)}): "
                         + ", ".join(f"{k} {v}" for k, v in sorted(dropped.items())))
        for title, part, counts in (("error kind", "by_kind", "kinds"),
                                    ("way of the error (it adds or removes characters)",
                                     "by_way", "ways")):
            columns = sorted({k for r in wt for k in r.get(counts, {})})
            lines += ["", f"Per {title} (RUBY / best lexical):", "",
                      "| source -> candidate | " + " | ".join(columns) + " |",
                      "|---|" + "---:|" * len(columns)]
            for r in wt:
                cells = []
                for k in columns:
                    a = r.get(part, {}).get(k)
                    if a is None:
                        cells.append("")
                        continue
                    lexical = max(a[m] or 0.0 for m in ("bleu", "crystalbleu", "sts", "chrf"))
                    cells.append(f"{_fmt(a['ruby'])} / {_fmt(lexical)} ({r[counts][k]})")
                lines.append(f"| {r['source']} -> {r['target']} | " + " | ".join(cells) + " |")
        lines.append("")
    t = result.get("timing")
    if t:
        lines += ["### Timing (GRS + TRS of one pair, fresh parse)", "",
                  f"{t['pairs']} pairs: same-language tiers {t['same_language_median_ms']:.1f} ms, "
                  f"cross-language {t['cross_language_median_ms']:.1f} ms (median); ratio of "
                  f"medians {t['ratio_of_medians']:.2f}, median ratio {t['median_ratio']:.2f}, "
                  f"90th percentile {t['p90_ratio']:.2f}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="a small run: 30 problems, 100 CodeXGLUE lines, 15 mutation pairs per set")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", choices=("humaneval", "codexglue", "mutations", "within",
                                      "timing"),
                   action="append", help="run only these parts (repeatable)")
    p.add_argument("--mask-names", action="store_true",
                   help="also HumanEval-X GRS with the functions' own names masked")
    p.add_argument("--json", type=Path, help="write the numbers here")
    p.add_argument("--no-exec", action="store_true",
                   help="within-task: keep every generated error without running the tests")
    p.add_argument("--exec-languages", default=",".join(ALL_LANGUAGES),
                   help="within-task: the target languages whose errors are run (compiling "
                        "Java and C++ is slow; the others' errors are kept unverified)")
    args = p.parse_args(argv)
    parts = set(args.only or ("humaneval", "codexglue", "mutations", "within", "timing"))
    he_limit = 30 if args.quick else None
    cx_limit = 100 if args.quick else None
    mut_limit = 15 if args.quick else None
    scorer = Scorer()
    result: dict[str, Any] = {"seed": args.seed, "quick": args.quick}
    t0 = time.perf_counter()
    if "humaneval" in parts:
        result["humaneval"] = humaneval(scorer, he_limit, args.seed)
        if args.mask_names:
            result["humaneval_masked"] = humaneval(Scorer(mask_names=True), he_limit, args.seed)
    if "codexglue" in parts:
        result["codexglue"] = codexglue(scorer, cx_limit, args.seed)
    if "mutations" in parts:
        result["mutations"] = mutations(scorer, mut_limit, args.seed)
    if "within" in parts:
        checker = None if args.no_exec else ExecutionChecker(
            EXEC_CACHE, timeout=20.0, languages=args.exec_languages.split(","))
        result["within_exec"] = checker is not None
        result["within_task"] = within_task(scorer, he_limit, args.seed, checker)
    if "timing" in parts:
        pool = dataset_references()
        py = {r.id.rsplit("-", 1)[1]: r for r in pool.get("humaneval-python", [])}
        jv = {r.id.rsplit("-", 1)[1]: r for r in pool.get("humaneval-java", [])}
        root = default_datasets() / "codexglue_code2code_trans"
        java = _lines(root / "test.java-cs.txt.java")
        cs = _lines(root / "test.java-cs.txt.cs")
        k = 10 if args.quick else 60
        tpairs = [(py[t].code, "python", jv[t].code, "java") for t in sorted(py, key=int)[:k]]
        tpairs += [(java[i], "java", cs[i], "csharp") for i in range(k)]
        result["timing"] = timing(tpairs, repeat=2 if args.quick else 3)
    result["seconds"] = time.perf_counter() - t0
    print(render(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
