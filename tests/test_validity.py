"""The validity benchmark: mutation operators, statistics, chrF and the judged-set loaders."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import graphs
from validity import mutations as mu
from validity.benchmark import (
    Candidate,
    Reference,
    ScoredCandidate,
    auc_counts,
    bootstrap_ratio,
    chrf,
    evaluate_mutations,
    generate_candidates,
    load_conala,
    load_humaneval_judged,
    load_references,
    mutation_auc,
    operator_failures,
    with_fallback,
)
from validity.mutations.sites import _WORD
from validity.snippets import snippets

DATASETS = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets"


def rng() -> random.Random:
    return random.Random(0)


# ----------------------------------------------------------------------------- variants


@pytest.mark.parametrize(
    ("code", "lang", "expected"),
    [
        ("x += 1", "python", "x = x + 1"),
        ("x = x + 1", "python", "x += 1"),
    ],
)
def test_increment_style_python(code: str, lang: str, expected: str) -> None:
    assert mu.increment_style(code, lang, rng()) == expected


def test_increment_style_java_gives_every_other_form() -> None:
    outs = {mu.increment_style("i++;", "java", random.Random(s)) for s in range(40)}
    assert outs == {"++i;", "i += 1;", "i = i + 1;"}


def test_increment_style_no_full_form_for_byte() -> None:
    code = "void f() { byte b = 0; b++; }"
    outs = {mu.increment_style(code, "java", random.Random(s)) for s in range(40)}
    assert outs == {"void f() { byte b = 0; ++b; }", "void f() { byte b = 0; b += 1; }"}


def test_compound_assignment_both_ways() -> None:
    assert mu.compound_assignment("x *= a + b", "python", rng()) == "x = x * (a + b)"
    assert mu.compound_assignment("x -= y;", "java", rng()) == "x = x - y;"
    assert mu.compound_assignment("x = x * (a + b);", "java", rng()) == "x *= a + b;"
    assert mu.compound_assignment("x = y * 2;", "java", rng()) is None


def test_redundant_parens() -> None:
    assert mu.redundant_parens("return a + b;", "java", rng()) == "return (a + b);"
    assert mu.redundant_parens("return a;", "java", rng()) is None


def test_for_to_while() -> None:
    assert (
        mu.for_to_while("for (int i = 0; i < n; i++) { s += i; }", "java", rng())
        == "int i = 0; while (i < n) { s += i; i++; }"
    )
    # a continue would skip the moved update
    assert mu.for_to_while("for (i = 0; i < n; i++) { if (a) continue; s++; }", "c", rng()) is None
    # an empty condition is 'true' (1 in C); two updates become two statements
    assert (
        mu.for_to_while("for (i = 0, j = n;; i++, j--) { s++; }", "c", rng())
        == "i = 0; j = n; while (1) { s++; i++; j--; }"
    )


def test_for_to_while_keeps_layout() -> None:
    code = (
        "function f(n) {\n  let s = 0;\n  for (let i = 0; i < n; i++) {\n    s += i;\n  }\n"
        "  return s;\n}"
    )
    assert mu.for_to_while(code, "javascript", rng()) == (
        "function f(n) {\n  let s = 0;\n  let i = 0;\n  while (i < n) {\n    s += i;\n"
        "    i++;\n  }\n  return s;\n}"
    )


def test_for_to_while_not_when_name_declared_twice() -> None:
    code = (
        "void f() { for (int i = 0; i < 3; i++) { g(i); } "
        "for (int i = 0; i < 4; i++) { g(i); } }"
    )
    assert mu.for_to_while(code, "java", rng()) is None


def test_conditional_to_if_both_ways() -> None:
    assert mu.conditional_to_if("r = c ? a : b;", "java", rng()) == "if (c) r = a; else r = b;"
    assert (
        mu.conditional_to_if("if (c) { return a; } else { return b; }", "java", rng())
        == "return c ? a : b;"
    )
    assert (
        mu.conditional_to_if("int f(int x) { int r = x > 0 ? 1 : 2; return r; }", "java", rng())
        == "int f(int x) { int r; if (x > 0) r = 1; else r = 2; return r; }"
    )


def test_conditional_to_if_python() -> None:
    code = "def f(c):\n    r = 1 if c else 2\n    return r"
    assert mu.conditional_to_if(code, "python", rng()) == (
        "def f(c):\n    if c:\n        r = 1\n    else:\n        r = 2\n    return r"
    )
    back = "def f(c):\n    if c:\n        r = 1\n    else:\n        r = 2\n    return r"
    assert mu.conditional_to_if(back, "python", rng()) == (
        "def f(c):\n    r = 1 if c else 2\n    return r"
    )


def test_rename_local() -> None:
    out = mu.rename_local("int f(int a) { int s = a; return s; }", "java", random.Random(1))
    assert out == "int f(int a) { int tmp1 = a; return tmp1; }"
    # a parameter is not renamed, and a name also used as a member is left alone
    assert mu.rename_local("int f(int a) { return a; }", "java", rng()) is None
    assert mu.rename_local("int f() { int n = 1; return this.n + n; }", "java", rng()) is None


def test_rename_local_fresh_name_is_unused() -> None:
    code = "def f(xs):\n    value = 0\n    for x in xs:\n        value += x\n    return value"
    out = mu.rename_local(code, "python", rng())
    assert out is not None
    before, after = set(_WORD.findall(code)), set(_WORD.findall(out))
    assert len(after - before) == 1 and len(before - after) == 1  # one name, all occurrences


def test_swap_independent() -> None:
    assert (
        mu.swap_independent("x = 1; y = 2; return x + y;", "java", rng())
        == "y = 2; x = 1; return x + y;"
    )
    # def-use, a call, or a shared object root: not independent
    assert mu.swap_independent("x = 1; y = x; return y;", "java", rng()) is None
    assert mu.swap_independent("x = f(); y = 2; return y;", "java", rng()) is None
    assert mu.swap_independent("a.b = 1; a.c = 2;", "java", rng()) is None


def test_extract_temp() -> None:
    assert (
        mu.extract_temp("int f(int a) { return a * 2; }", "java", rng())
        == "int f(int a) { int value = a * 2; return value; }"
    )
    assert mu.extract_temp("int f(int a) { return a; }", "java", rng()) is None
    assert (
        mu.extract_temp("int f(int a) { if (a > 0) return a - 1; return 0; }", "cpp", rng())
        == "int f(int a) { if (a > 0) { auto value = a - 1; return value; } return 0; }"
    )
    code = "def f(a):\n    return a * 2"
    assert mu.extract_temp(code, "python", rng()) == (
        "def f(a):\n    value = a * 2\n    return value"
    )


# ------------------------------------------------------------------------------ mutants


def test_relational_and_arithmetic() -> None:
    assert mu.relational_op("if (a < b) x = 1;", "java", rng()) == "if (a <= b) x = 1;"
    assert mu.relational_op("ok = a === b;", "javascript", rng()) == "ok = a !== b;"
    assert mu.arithmetic_op("return a * b;", "java", rng()) == "return a / b;"
    # neutral operands and string concatenation are skipped
    assert mu.arithmetic_op("return a + 0;", "java", rng()) is None
    assert mu.arithmetic_op('return "n=" + n;', "java", rng()) is None


def test_off_by_one() -> None:
    assert mu.off_by_one("return n - 1;", "java", rng()) == "return n - 2;"
    # an array size or a constructor argument (capacity) is not a value
    assert mu.off_by_one("int[] a = new int[10];", "java", rng()) is None
    assert mu.off_by_one("List<X> a = new ArrayList<X>(16);", "java", rng()) is None


def test_negate_condition() -> None:
    assert mu.negate_condition("if (a < b) x = 1;", "java", rng()) == "if (!(a < b)) x = 1;"
    assert mu.negate_condition("while x > 0:\n    x -= 1", "python", rng()) == (
        "while not (x > 0):\n    x -= 1"
    )


def test_swap_branches() -> None:
    assert (
        mu.swap_branches("if (c) { x = 1; } else { x = 2; }", "java", rng())
        == "if (c) { x = 2; } else { x = 1; }"
    )
    assert mu.swap_branches("if (c) { x = 1; } else { x = 1; }", "java", rng()) is None
    assert mu.swap_branches("if (c) { x = 1; }", "java", rng()) is None


def test_delete_statement() -> None:
    assert (
        mu.delete_statement("int f(int a) { int x = a; x++; return x; }", "java", rng())
        == "int f(int a) { int x = a; return x; }"
    )
    # a dead store is not deleted (that would keep the meaning)
    assert mu.delete_statement("int f(int a) { int x = a; x++; return a; }", "java", rng()) is None
    # the only statement of a Python block becomes 'pass'
    assert mu.delete_statement("def f(xs):\n    xs.append(1)", "python", rng()) == (
        "def f(xs):\n    pass"
    )


def test_swap_dependent() -> None:
    assert (
        mu.swap_dependent("x = a; y = x; return y;", "java", rng()) == "y = x; x = a; return y;"
    )
    assert mu.swap_dependent('sb.append("a"); sb.append("b");', "java", rng()) == (
        'sb.append("b"); sb.append("a");'
    )
    # calls on different receivers, and independent statements, are not swapped
    assert mu.swap_dependent("a.add(1); b.add(2);", "java", rng()) is None
    assert mu.swap_dependent("x = 1; y = 2;", "java", rng()) is None


def test_wrong_variable() -> None:
    assert (
        mu.wrong_variable("int f(int a, int b) { return a; }", "java", rng())
        == "int f(int a, int b) { return b; }"
    )
    # a different declared type is not the same kind
    assert mu.wrong_variable("int f(int a, long b) { return a; }", "java", rng()) is None


def test_wrong_return() -> None:
    assert (
        mu.wrong_return("boolean f(int a) { return a > 0; }", "java", rng())
        == "boolean f(int a) { return false; }"
    )
    assert mu.wrong_return("def f(a):\n    return a + 1", "python", rng()) == (
        "def f(a):\n    return None"
    )
    assert mu.wrong_return("void f() { return; }", "java", rng()) is None


def test_every_operator_output_parses_and_differs() -> None:
    for lang in ("python", "c", "cpp", "csharp", "javascript"):
        for i, code in enumerate(snippets(lang)[:10]):
            for op in mu.OPERATORS:
                out = op.apply(code, lang, random.Random(f"{i}:{op.name}"))
                if out is not None:
                    assert graphs.parse(out, lang).ok, (lang, op.name, out)
                    assert mu.normalize_whitespace(out) != mu.normalize_whitespace(code)


def test_operator_on_broken_code_is_none() -> None:
    for op in mu.OPERATORS:
        assert op.apply("int f( {", "java", rng()) is None


# -------------------------------------------------------------------------- references


def test_snippets_parse_and_cover_languages() -> None:
    for lang in ("python", "c", "cpp", "csharp", "javascript"):
        codes = snippets(lang)
        assert len(codes) >= 40
        assert all(graphs.parse(c, lang).ok for c in codes)


def test_load_references_without_datasets_is_snippets_round_robin(tmp_path: Path) -> None:
    refs = load_references(10, seed=0, datasets=tmp_path / "absent")
    assert [r.language for r in refs] == ["c", "cpp", "csharp", "javascript", "python"] * 2
    assert refs == load_references(10, seed=0, datasets=tmp_path / "absent")
    assert refs != load_references(10, seed=1, datasets=tmp_path / "absent")


def test_generate_candidates_deduplicates() -> None:
    ref = Reference("r", "snippets", "java", "int f(int a, int b) { return a < b ? a : b; }")
    cands = generate_candidates(ref, seed=0)
    texts = [mu.normalize_whitespace(c.code) for c in cands]
    assert len(texts) == len(set(texts)) and mu.normalize_whitespace(ref.code) not in texts
    assert {c.preserving for c in cands} == {True, False}
    assert cands == generate_candidates(ref, seed=0)


# ---------------------------------------------------------------------------- statistics


def test_auc_hand_worked() -> None:
    # variant 0.9 beats both mutants, 0.8 beats 0.5 only: 3 of 4 pairs
    assert auc_counts([0.9, 0.8], [0.85, 0.5]) == (3.0, 4)
    assert mutation_auc([([0.9, 0.8], [0.85, 0.5])]) == 0.75


def test_auc_ties_count_half_and_pool() -> None:
    assert auc_counts([0.5, 0.7], [0.5]) == (1.5, 2)
    # pooled over references: (1 + 0.5) / (1 + 2)
    assert mutation_auc([([1.0], [0.2]), ([0.3], [0.3, 0.9])]) == pytest.approx(0.5)
    assert mutation_auc([([1.0], [])]) is None


def test_bootstrap_deterministic() -> None:
    num, den = [3.0, 1.0, 2.0, 0.0, 4.0], [4, 2, 2, 1, 4]
    a = bootstrap_ratio(num, den, resamples=300, seed=7)
    b = bootstrap_ratio(num, den, resamples=300, seed=7)
    c = bootstrap_ratio(num, den, resamples=300, seed=8)
    assert a == b and a != c
    assert a is not None and a[0] <= sum(num) / sum(den) <= a[1]
    assert bootstrap_ratio([], [], resamples=10) is None


def _sc(ref: str, op: str, keep: bool, value: float | None) -> ScoredCandidate:
    scores = dict.fromkeys(("ruby", "grs", "trs", "sts", "crystalbleu", "bleu"), value)
    return ScoredCandidate(ref, "java", "snippets", op, keep, scores)


def test_evaluate_mutations_and_operator_failures() -> None:
    scored = [
        _sc("r1", "rename_local", True, 0.9),
        _sc("r1", "for_to_while", True, 0.8),
        _sc("r1", "off_by_one", False, 0.85),
        _sc("r1", "relational_op", False, 0.5),
        _sc("r2", "rename_local", True, None),  # tier does not apply: excluded
        _sc("r2", "off_by_one", False, 1.0),
    ]
    res = evaluate_mutations(scored, resamples=50, seed=0)["grs"]
    assert res.auc == 0.75 and res.pairs == 4 and res.references == 1 and res.excluded == 1
    assert res.mutants_at_one == pytest.approx(1 / 3)
    assert res.by_language == {"java": (0.75, 4)}
    fails = operator_failures(scored)
    assert fails["off_by_one"]["grs"] == (0.5, 2)  # 0.85 >= 0.8 only
    assert fails["relational_op"]["grs"] == (0.0, 2)
    assert fails["for_to_while"]["grs"] == (0.5, 2)


def test_with_fallback() -> None:
    scores = {"grs": [None, 0.5, None], "trs": [0.7, 0.6, None], "sts": [0.1, 0.2, 0.3]}
    assert with_fallback(scores, "grs") == [0.7, 0.5, 0.3]
    assert with_fallback(scores, "trs") == [0.7, 0.6, 0.3]


def test_chrf() -> None:
    assert chrf("abc", "abc") == 1.0
    assert chrf("", "abc") == 0.0
    assert chrf("a b c", "abc") == 1.0  # whitespace is removed
    # 'ab' vs 'abc': orders 1 and 2 count; P = (1 + 1) / 2 = 1, R = (2/3 + 1/2) / 2 = 7/12
    p, r = 1.0, 7 / 12
    assert chrf("ab", "abc") == pytest.approx(5 * p * r / (4 * p + r))
    assert chrf("ab", ["zzz", "abc"]) == pytest.approx(chrf("ab", "abc"))


def test_candidate_dataclass_is_plain() -> None:
    c = Candidate("r", "off_by_one", False, "x")
    assert (c.ref_id, c.operator, c.preserving) == ("r", "off_by_one", False)


# ------------------------------------------------------------------------- judged sets


def _judged(name: str) -> Path:
    path = DATASETS / "judged_dev" / name
    if not path.is_file():
        pytest.skip(f"judged set {path} is absent (../shared/datasets not available)")
    return path


def test_load_conala() -> None:
    items = load_conala(_judged("conala-aggregated-grades.json"))
    assert len(items) == 2360
    refs, cand, grade, group = items[0]
    assert isinstance(refs, list) and isinstance(cand, str) and 0 <= grade <= 4
    assert len({it.group for it in items}) == 472


def test_load_humaneval_judged() -> None:
    items = load_humaneval_judged(_judged("humaneval_python_grade.json"))
    assert len(items) == 3220
    assert sum(it.judgment for it in items) == 1342
    assert len({it.group for it in items}) == 161  # the task id is kept
    again = load_humaneval_judged(_judged("humaneval_python_grade.json"), reindent=True)
    assert [it.group for it in again] == [it.group for it in items]
    # re-indenting only adds whitespace, to every completion (each lost its first indent)
    def bare(text: str) -> str:
        return "".join(text.split())

    assert all(bare(a.candidate) == bare(b.candidate) and len(b.candidate) > len(a.candidate)
               for a, b in zip(items, again, strict=True))


def test_loaders_raise_when_absent(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_conala(tmp_path / "none.json")
    with pytest.raises(FileNotFoundError):
        load_humaneval_judged(tmp_path / "none.json")
