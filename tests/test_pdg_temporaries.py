"""Single-use temporaries fold into their reader wherever the meaning stays (SPEC section 3,
"equal meaning, equal graph"): inside a branch or loop body, before the ``if``/``else`` ->
conditional-expression fold (so that fold sees through them), and after a guard
``if (c) return a;``. They do not fold when read twice, when what they read is redefined in
between, or when an effectful value would move into one branch of ``&&``/``?:``.

Each language of the registry, with hand-checked graphs (labels) and GRS scores.
"""

from __future__ import annotations

import pytest

from graphs import graph_edit_distance
from graphs.pdg.build import build_pdg
from ruby_metric import RubyScorer

C_FAMILY = ["java", "csharp", "c", "cpp", "javascript"]
ALL = [*C_FAMILY, "python"]


def ged(code1: str, code2: str, lang: str):
    return graph_edit_distance(build_pdg(code1, lang), build_pdg(code2, lang),
                               edge_label="dep", exact_max_nodes=20,
                               exact_max_expansions=500_000)


def assert_same(code1: str, code2: str, lang: str) -> None:
    result = ged(code1, code2, lang)
    assert result.distance == 0, (result, code1, code2)


def assert_different(code1: str, code2: str, lang: str) -> None:
    result = ged(code1, code2, lang)
    assert result.lower > 0, (result, code1, code2)


def grs(code1: str, code2: str, lang: str) -> float:
    return RubyScorer(language=lang, metrics=["grs"]).score(code1, code2).grs


def fn(lang: str, body: str, params: str = "a, b") -> str:
    """A function ``f(params)`` with a C-family ``body`` (locals ``int``) or, for Python, a
    body of lines separated by ``;`` with ``{``/``}`` marking indentation."""
    if lang == "python":
        lines, depth = [], 1
        for part in body.replace("{", ";{;").replace("}", ";};").split(";"):
            part = part.strip()
            if part == "{":
                depth += 1
            elif part == "}":
                depth -= 1
            elif part:
                lines.append("    " * depth + part)
        return f"def f({params}):\n" + "\n".join(lines) + "\n"
    if lang == "javascript":
        return f"function f({params}) {{ {body.replace('int ', 'let ')} }}"
    typed = ", ".join(f"int {p.strip()}" for p in params.split(","))
    name = "F" if lang == "csharp" else "f"
    return f"int {name}({typed}) {{ {body} }}"


def py(code: str) -> str:
    """C-family statements as Python (the tests' bodies use a small common subset)."""
    for a, b in (("int ", ""), ("if (", "if "), (") {", ": {"), ("else {", "else: {"),
                 ("while (", "while "), ("return g(a) > 0 && b > 0", "return g(a) > 0 and b > 0"),
                 ("&&", "and"), ("a--", "a -= 1")):
        code = code.replace(a, b)
    return code


def body(lang: str, code: str) -> str:
    return fn(lang, py(code) if lang == "python" else code)


def labels(code: str, lang: str) -> list[str]:
    g = build_pdg(code, lang)
    return [g.nodes[n]["label"] for n in g][3:]  # after the entry and the two parameters


# ---------------------------------------------------------------------------------------
# equal meaning, equal graph


@pytest.mark.parametrize("lang", ALL)
def test_a_temporary_in_a_branch_folds_into_its_reader(lang):
    code = body(lang, "int x = 0; if (a > b) { int t = a * b; x = t + 1; } return x;")
    other = body(lang, "int x = 0; if (a > b) { x = a * b + 1; } return x;")
    assert_same(code, other, lang)
    assert grs(code, other, lang) == 1.0
    assert labels(code, lang)[1:3] == ["if (v1 < v0)" if lang != "python" else "if v1 < v0",
                                       labels(other, lang)[2]]
    assert labels(code, lang)[2].endswith("= v0 * v1 + 1")  # no parentheses left


@pytest.mark.parametrize("lang", ALL)
def test_a_temporary_in_a_loop_body_folds_into_its_reader(lang):
    code = body(lang, "int s = 0; while (a > b) { int t = a * b; s += t + 1; a--; } return s;")
    other = body(lang, "int s = 0; while (a > b) { s += a * b + 1; a--; } return s;")
    assert_same(code, other, lang)
    assert grs(code, other, lang) == 1.0


@pytest.mark.parametrize("lang", ALL)
def test_temporaries_in_branches_fold_before_the_conditional(lang):
    # if/else whose branches compute through temporaries is the conditional expression
    code = body(lang, "if (a > b) { int t = a * b; int u = t - 2; return u + 1; } "
                      "else { int w = b * 3; return w; }")
    if lang == "python":
        other = fn(lang, "return a * b - 2 + 1 if a > b else b * 3")
    else:
        other = fn(lang, "return a > b ? a * b - 2 + 1 : b * 3;")
    assert_same(code, other, lang)
    assert grs(code, other, lang) == 1.0
    want = ("return v0 * v1 - 2 + 1 if v1 < v0 else v1 * 3" if lang == "python"
            else "return v1 < v0 ? v0 * v1 - 2 + 1 : v1 * 3")
    assert labels(code, lang) == [want]


@pytest.mark.parametrize("lang", ALL)
def test_a_temporary_after_a_guard_folds_into_the_return(lang):
    code = body(lang, "if (a > b) { return 1; } int t = (a + b) * 2; return t;")
    other = body(lang, "if (a > b) { return 1; } return (a + b) * 2;")
    assert_same(code, other, lang)
    assert grs(code, other, lang) == 1.0
    want = ("return 1 if v1 < v0 else (v0 + v1) * 2" if lang == "python"
            else "return v1 < v0 ? 1 : (v0 + v1) * 2")
    assert labels(code, lang) == [want]


@pytest.mark.parametrize("lang", ALL)
def test_parenthesized_branch_values_are_the_conditionals(lang):
    code = body(lang, "if (a > 0) { return (a / b); } else { return 1; }")
    other = (fn(lang, "return a / b if a > 0 else 1") if lang == "python"
             else fn(lang, "return a > 0 ? (a / b) : 1;"))
    assert_same(code, other, lang)


# ---------------------------------------------------------------------------------------
# different meaning, different graph


@pytest.mark.parametrize("lang", ALL)
def test_a_temporary_read_twice_does_not_fold(lang):
    code = body(lang, "int x = 0; if (a > b) { int t = a * b; x = t + t; } return x;")
    other = body(lang, "int x = 0; if (a > b) { x = a * b + a * b; } return x;")
    assert_different(code, other, lang)
    assert grs(code, other, lang) < 1.0
    code = body(lang, "if (a > b) { int t = a * b; return t + t; } else { return b; }")
    assert len(labels(code, lang)) == 4  # the if, the temporary, two returns


@pytest.mark.parametrize("lang", ALL)
def test_a_temporary_does_not_fold_across_a_redefinition(lang):
    code = body(lang, "int x = 0; if (a > b) { int t = a * b; a = 3; x = t + 1; } return x;")
    other = body(lang, "int x = 0; if (a > b) { a = 3; x = a * b + 1; } return x;")
    assert_different(code, other, lang)
    assert grs(code, other, lang) < 1.0
    code = body(lang, "if (a > b) { int t = a * b; a = 3; return t + 1; } else { return b; }")
    assert len(labels(code, lang)) == 5  # not a conditional expression


@pytest.mark.parametrize("lang", ALL)
def test_an_effectful_temporary_does_not_move_into_a_short_circuit(lang):
    code = body(lang, "if (a > b) { int t = g(a); return b > 0 && t > 0; } else { return 1; }")
    other = body(lang, "if (a > b) { return b > 0 && g(a) > 0; } else { return 1; }")
    assert_different(code, other, lang)
    # a pure value may: it is evaluated or not, with no effect either way
    code = body(lang, "if (a > b) { int t = a * 2; return b > 0 && t > 0; } else { return 1; }")
    other = body(lang, "if (a > b) { return b > 0 && a * 2 > 0; } else { return 1; }")
    assert_same(code, other, lang)


@pytest.mark.parametrize("lang", ALL)
def test_two_calls_keep_their_order(lang):
    code = body(lang, "if (a > b) { int t = g(a); return h(b) + t; } else { return 1; }")
    other = body(lang, "if (a > b) { return h(b) + g(a); } else { return 1; }")
    assert_different(code, other, lang)


@pytest.mark.parametrize("lang", ALL)
def test_an_assignment_branch_is_not_a_returned_value(lang):
    # if (c) x = v; return e;  is not  return c ? v : e
    if lang == "python":
        code = fn(lang, "x = a; if a > b: {x = b}; return x if x > 0 else b")
        other = fn(lang, "x = a; return b if a > b else x if x > 0 else b")
    else:
        code = fn(lang, "int x = a; if (a > b) { x = b; } return x > 0 ? x : b;")
        other = fn(lang, "int x = a; return a > b ? b : x > 0 ? x : b;")
    assert len(labels(code, lang)) == 4
    assert_different(code, other, lang)


@pytest.mark.parametrize("lang", ALL)
def test_a_straight_line_effectful_temporary_stays_out_of_a_short_circuit(lang):
    if lang == "python":
        code = fn(lang, "t = g(a); return b > 0 and t > 0")
        other = fn(lang, "return b > 0 and g(a) > 0")
        before = fn(lang, "t = g(a); return t > 0 and b > 0")
        folded = fn(lang, "return g(a) > 0 and b > 0")
    else:
        code = fn(lang, "int t = g(a); return b > 0 && t > 0;")
        other = fn(lang, "return b > 0 && g(a) > 0;")
        before = fn(lang, "int t = g(a); return t > 0 && b > 0;")
        folded = fn(lang, "return g(a) > 0 && b > 0;")
    assert_different(code, other, lang)
    assert_same(before, folded, lang)  # read before the operator: evaluated every time
