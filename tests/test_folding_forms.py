"""Conditional folding sees increments as branches and if/else after a guard: each rewrite is
the same graph (GRS 1.0), and a near-miss mutant of it is not."""

from __future__ import annotations

import pytest

from ruby_metric import RubyScorer

SCORERS = {lang: RubyScorer(lang, metrics=["grs"]) for lang in
           ("java", "csharp", "cpp", "c", "javascript", "python")}

C_LIKE = {
    "java": "void f(int b){ int d = 0; if (b > 0) { d += 1; } else { d -= 1; } g(d); }",
    "csharp": "void F(int b){ int d = 0; if (b > 0) { d += 1; } else { d -= 1; } G(d); }",
    "cpp": "void f(int b){ int d = 0; if (b > 0) { d += 1; } else { d -= 1; } g(d); }",
    "c": "void f(int b){ int d = 0; if (b > 0) { d += 1; } else { d -= 1; } g(d); }",
    "javascript": "function f(b){ let d = 0; if (b > 0) { d += 1; } else { d -= 1; } g(d); }",
}


@pytest.mark.parametrize("lang", sorted(C_LIKE))
def test_increments_fold_like_compound_assignments(lang):
    ref = C_LIKE[lang]
    scorer = SCORERS[lang]
    for inc, dec in (("d++", "d--"), ("++d", "--d"), ("d++", "d -= 1"), ("d = d + 1", "--d")):
        cand = ref.replace("d += 1", inc).replace("d -= 1", dec)
        assert scorer.score(ref, cand).grs == 1.0, cand
    # the wrong direction in one branch is not the same graph
    assert scorer.score(ref, ref.replace("d -= 1", "d++")).grs < 1.0


GUARDED = {
    "java": ("int f(int a, int b){ if (a == b) return 0; if (a > b) return 1; else return -1; }",
             "int f(int a, int b){ if (a == b) return 0; return a > b ? 1 : -1; }",
             "int f(int a, int b){ if (a == b) return 0; if (a > b) return 1; return -1; }"),
    "javascript": (
        "function f(a, b){ if (a === b) return 0; if (a > b) { return 1; } else { return -1; } }",
        "function f(a, b){ if (a === b) return 0; return a > b ? 1 : -1; }",
        "function f(a, b){ if (a === b) return 0; if (a > b) return 1; return -1; }"),
    "python": (
        "def f(a, b):\n    if a == b:\n        return 0\n    if a > b:\n        return 1\n"
        "    else:\n        return -1\n",
        "def f(a, b):\n    if a == b:\n        return 0\n    return 1 if a > b else -1\n",
        "def f(a, b):\n    if a == b:\n        return 0\n    if a > b:\n        return 1\n"
        "    return -1\n"),
}


@pytest.mark.parametrize("lang", sorted(GUARDED))
def test_if_else_after_a_guard_is_the_conditional(lang):
    if_else, conditional, guards = GUARDED[lang]
    scorer = SCORERS[lang]
    assert scorer.score(if_else, conditional).grs == 1.0
    assert scorer.score(guards, conditional).grs == 1.0
    # swapped returns in the second test are a different function
    mutant = conditional.replace("1 : -1", "-1 : 1").replace("1 if a > b else -1",
                                                               "-1 if a > b else 1")
    assert mutant != conditional
    assert scorer.score(if_else, mutant).grs < 1.0


def test_no_temporary_moves_into_a_branch():
    # a temporary before the if is not folded into its branches (it would be evaluated in
    # one branch only): the if stays an if
    scorer = SCORERS["java"]
    ref = "int f(int a){ if (a == 0) return 0; int t = g(a); if (a > 1) return t; return -1; }"
    folded = "int f(int a){ if (a == 0) return 0; return a > 1 ? g(a) : -1; }"
    assert scorer.score(ref, folded).grs < 1.0


@pytest.mark.parametrize(("lang", "code"), [
    ("cpp", "void f(vector<vector<int>> s, int i){ s[i][i - 1] += 1; g(s); }"),
    ("java", "void f(int[][] s, int i){ s[i][i - 1] += 1; g(s); }"),
    ("javascript", "function f(s, i){ s[i][i - 1] += 1; g(s); }"),
])
def test_increment_of_an_element_with_a_spaced_index(lang, code):
    scorer = SCORERS[lang]
    for form in ("s[i][i - 1]++", "++s[i][i - 1]", "s[i][i - 1] = s[i][i - 1] + 1"):
        assert scorer.score(code, code.replace("s[i][i - 1] += 1", form)).grs == 1.0, form
    assert scorer.score(code, code.replace("s[i][i - 1] += 1", "s[i][i - 1]--")).grs < 1.0


SWITCHES = {
    "java": ('String f(int c){switch (c){case 0:return "ok";case 1: case 2:return "w";'
             'default:return "e";}}',
             'String f(int c){if (c == 0) return "ok"; if (c == 1 || c == 2) return "w"; '
             'return "e";}'),
    "csharp": ('string F(int c){switch (c){case 0:return "ok";case 1: case 2:return "w";'
               'default:return "e";}}',
               'string F(int c){if (c == 0){return "ok";}else if (c == 1 || c == 2)'
               '{return "w";}else{return "e";}}'),
    "c": ('char* f(int c){switch (c){case 0:return "ok";case 1: case 2:return "w";'
          'default:return "e";}}',
          'char* f(int c){return c == 0 ? "ok" : c == 1 || c == 2 ? "w" : "e";}'),
    "cpp": ('string f(int c){switch (c){case 0:return "ok";case 1: case 2:return "w";} '
            'return "e";}',
            'string f(int c){if (c == 0) return "ok"; if (c == 1 || c == 2) return "w"; '
            'return "e";}'),
    "javascript": ('function f(c){switch (c){case 0:return "ok";case 1: case 2:return "w";'
                   'default:return "e";}}',
                   'function f(c){if (c === 0) return "ok"; if (c === 1 || c === 2) return "w";'
                   ' return "e";}'),
}


@pytest.mark.parametrize("lang", sorted(SWITCHES))
def test_switch_of_returns_is_the_if_chain(lang):
    switch, chain = SWITCHES[lang]
    scorer = SCORERS[lang]
    assert scorer.score(switch, chain).grs == 1.0
    # another value under a case, or the returns swapped, is another function
    assert scorer.score(switch, switch.replace("case 0:", "case 3:")).grs < 1.0
    assert scorer.score(switch, switch.replace('"ok"', '"x"').replace('"w"', '"ok"')
                        .replace('"x"', '"w"')).grs < 1.0


def test_switch_folds_only_when_every_case_returns_and_the_subject_is_pure():
    scorer = SCORERS["java"]
    chain = 'String f(int c){if (c == 0) return "ok"; return "e";}'
    # a case that breaks out is a different shape: no fold
    breaks = 'String f(int c){String r = "e"; switch (c){case 0: r = "ok"; break;} return r;}'
    assert scorer.score(breaks, chain).grs < 1.0
    # a subject with effects would be evaluated once per test in the chain: no fold
    effect = 'String f(){switch (g()){case 0:return "ok";default:return "e";}}'
    chained = 'String f(){return g() == 0 ? "ok" : "e";}'
    assert scorer.score(effect, chained).grs < 1.0
