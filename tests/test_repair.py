"""Tolerant structure (issue 19): bounded repair and error-contained graphs.

Each repair kind in each language it applies to, and each kind of containment (a statement,
a compound statement's header, a function's header, a stray closer) in all six languages
(the early `}` in the five with braces): the broken candidate gets the structural tiers,
the reasons say what was done, ``repair=False`` restores the strict behaviour, and a
repaired or contained candidate never scores 1.0 against the clean reference it was
repaired into (only against its own text).
"""

from __future__ import annotations

import time

import pytest

import graphs
from graphs.parsing.parser import own_wrapper
from graphs.repair.containment import contain, contain_strays, stray_closers
from graphs.repair.insertions import MAX_REPAIR_ATTEMPTS, repair, repair_candidates
from graphs.repair.tolerant import tolerant_parse
from ruby_metric import RubyScorer

_CUT = "int f(int a) { if (a > 0) { return a;"  # a method cut off before its braces
# kind -> language -> (broken candidate, the clean text the repair makes of it)
REPAIRS = {
    "missing": {
        "java": ("int f(int a) { return g(a; }", "int f(int a) { return g(a); }"),
        "cs": ("int F(int a) { return a }", "int F(int a) { return a; }"),
        "c": ("int f(int a) { return g(a; }", "int f(int a) { return g(a); }"),
        "cpp": ("int f(int a) { return g(a; }", "int f(int a) { return g(a); }"),
        "javascript": ("function f(a) { return g(a; }", "function f(a) { return g(a); }"),
        # tree-sitter-python reports its errors as ERROR nodes, never a MISSING token (a
        # missing `:` or `)` included), so this kind has no Python case: those are repaired
        # by appending brackets or contained
    },
    "brackets": {
        "java": (_CUT, _CUT + "}}"),
        "cs": (_CUT.replace("f(", "F("), _CUT.replace("f(", "F(") + "}}"),
        "c": (_CUT, _CUT + "}}"),
        "cpp": (_CUT, _CUT + "}}"),
        "javascript": ("function f(a) { if (a > 0) { return a;",
                       "function f(a) { if (a > 0) { return a;}}"),
        "python": ("def f(a):\n    return g(a, [1, 2", "def f(a):\n    return g(a, [1, 2])"),
    },
    "indent": {
        "python": ('def f(x):\n    """doc"""\ny = x + 1\n    return y\n',
                   'def f(x):\n    """doc"""\n    y = x + 1\n    return y\n'),
    },
    "implicit_int": {
        "c": ('main() { printf("hi"); return 0; }', 'int main() { printf("hi"); return 0; }'),
    },
}
CASES = [(kind, lang, bad, good) for kind, per in REPAIRS.items()
         for lang, (bad, good) in per.items()]

# language -> (candidate with one broken statement, the reference it should have been)
CONTAINED = {
    "java": ("int f(int b) { int a = b + * 2; return g(a); }",
             "int f(int b) { int a = b + 2; return g(a); }"),
    "cs": ("int F(int b) { int a = b + * 2; return G(a); }",
           "int F(int b) { int a = b + 2; return G(a); }"),
    "c": ("int f(int b) { int a = b + / 2; return g(a); }",
          "int f(int b) { int a = b + 2; return g(a); }"),
    "cpp": ("int f(int b) { int a = b + / 2; return g(a); }",
            "int f(int b) { int a = b + 2; return g(a); }"),
    "javascript": ("function f(b) { let a = b + * 2; return g(a); }",
                   "function f(b) { let a = b + 2; return g(a); }"),
    "python": ("def f(b):\n    a = b\n    c = a $ 2\n    return c\n",
               "def f(b):\n    a = b\n    c = a * 2\n    return c\n"),
}

# containment kind -> language -> (broken candidate, the clean reference), what the reason
# says of it
CONTAINMENT_KINDS = {
    # a compound statement's header broken, its body structured
    "header": ("1 header unparsed, kept as text", {
        "java": ("int f(int b) { if (b > * 1) { b = g(b); } return b; }",
                 "int f(int b) { if (b > 1) { b = g(b); } return b; }"),
        "cs": ("int F(int b) { if (b > * 1) { b = G(b); } return b; }",
               "int F(int b) { if (b > 1) { b = G(b); } return b; }"),
        "c": ("int f(int b) { while (b > / 1) { b = g(b); } return b; }",
              "int f(int b) { while (b > 1) { b = g(b); } return b; }"),
        "cpp": ("int f(int b) { while (b > / 1) { b = g(b); } return b; }",
                "int f(int b) { while (b > 1) { b = g(b); } return b; }"),
        "javascript": ("function f(b) { if (b > * 1) { b = g(b); } return b; }",
                       "function f(b) { if (b > 1) { b = g(b); } return b; }"),
        "python": ("def f(b):\n    if b > * 1:\n        b = g(b)\n    return b\n",
                   "def f(b):\n    if b > 1:\n        b = g(b)\n    return b\n"),
    }),
    # a function's header broken (a Java `throws` in C#, a mangled parameter list)
    "function": ("1 function header unparsed, kept as text", {
        "java": ("int f(int b) throws { b = g(b); return b; }",
                 "int f(int b) { b = g(b); return b; }"),
        "cs": ("int F(int b) where { b = G(b); return b; }",
               "int F(int b) { b = G(b); return b; }"),
        "c": ("int f(int b) + { b = g(b); return b; }", "int f(int b) { b = g(b); return b; }"),
        "cpp": ("int f(int b) + { b = g(b); return b; }",
                "int f(int b) { b = g(b); return b; }"),
        "javascript": ("function f(b) * { b = g(b); return b; }",
                       "function f(b) { b = g(b); return b; }"),
        "python": ("def f(b) -> :\n    b = g(b)\n    return b\n",
                   "def f(b):\n    b = g(b)\n    return b\n"),
    }),
    # a closer with no opener
    "stray": ('1 unmatched ")" kept as text', {
        "java": ("int f(int b) { int a = (b + 1)); return g(a); }",
                 "int f(int b) { int a = (b + 1); return g(a); }"),
        "cs": ("int F(int b) { int a = (b + 1)); return G(a); }",
               "int F(int b) { int a = (b + 1); return G(a); }"),
        "c": ("int f(int b) { int a = (b + 1)); return g(a); }",
              "int f(int b) { int a = (b + 1); return g(a); }"),
        "cpp": ("int f(int b) { int a = (b + 1)); return g(a); }",
                "int f(int b) { int a = (b + 1); return g(a); }"),
        "javascript": ("function f(b) { let a = (b + 1)); return g(a); }",
                       "function f(b) { let a = (b + 1); return g(a); }"),
        "python": ("def f(b):\n    a = (b + 1))\n    return g(a)\n",
                   "def f(b):\n    a = (b + 1)\n    return g(a)\n"),
    }),
    # a `}` that ends the method early (Python has no braces)
    "early-brace": ('1 unmatched "}" kept as text', {
        lang: (f"{head} {{ if (b > 1) {{ b = {call}(b); }}}} return b; }}",
               f"{head} {{ if (b > 1) {{ b = {call}(b); }} return b; }}")
        for lang, head, call in (("java", "int f(int b)", "g"), ("cs", "int F(int b)", "G"),
                                 ("c", "int f(int b)", "g"), ("cpp", "int f(int b)", "g"),
                                 ("javascript", "function f(b)", "g"))
    }),
}
CONTAINMENT_CASES = [(kind, lang, bad, good) for kind, (_, per) in CONTAINMENT_KINDS.items()
                     for lang, (bad, good) in per.items()]


@pytest.mark.parametrize(("kind", "lang", "bad", "good"), CASES,
                         ids=[f"{k}-{lang}" for k, lang, _, _ in CASES])
def test_each_repair_kind_in_each_language(kind, lang, bad, good):
    parsed = graphs.parse(bad, lang)
    assert not parsed.ok
    fixed = repair(parsed)
    assert fixed is not None and fixed.parsed.ok
    assert fixed.text == good
    # a closing bracket tree-sitter reports MISSING at the end is the same append
    assert fixed.kinds[0] == kind or (kind == "brackets" and fixed.kinds[0] == "missing"
                                      and fixed.description.startswith("appended"))
    # only insertions: the broken text is a subsequence of the repaired one
    it = iter(fixed.text)
    assert all(ch in it for ch in bad)


@pytest.mark.parametrize(("kind", "lang", "bad", "good"), CASES,
                         ids=[f"{k}-{lang}" for k, lang, _, _ in CASES])
def test_repaired_candidate_never_equals_the_clean_reference(kind, lang, bad, good):
    scorer = RubyScorer(lang, metrics=("ruby", "grs", "trs"))
    r = scorer.score(good, bad)
    assert r.tier == "graph"
    assert r.grs < 1.0 and r.trs < 1.0
    assert r.reasons["grs"].startswith("candidate: repaired (")
    # its own text scores 1.0: the texts are equal
    assert scorer.score(bad, bad).grs == 1.0
    strict = RubyScorer(lang, metrics=("ruby", "grs", "trs"), repair=False).score(good, bad)
    assert strict.tier == "string" and strict.grs is None
    assert "repaired" not in strict.reasons["grs"]


@pytest.mark.parametrize("lang", sorted(CONTAINED))
def test_contained_statement_in_each_language(lang):
    bad, good = CONTAINED[lang]
    scorer = RubyScorer(lang, metrics=("ruby", "grs", "trs"))
    r = scorer.score(good, bad)
    assert r.tier == "graph" and r.grs < 1.0 and r.trs < 1.0
    assert "1 statement unparsed, kept as text" in r.reasons["grs"]
    assert "data edges from the identifiers it mentions" in r.reasons["grs"]
    assert "each ERROR one leaf" in r.reasons["trs"]
    assert scorer.score(bad, bad).grs == 1.0
    assert RubyScorer(lang, repair=False).score(good, bad).tier == "string"


def test_truncated_candidate_scores_by_hand():
    # reference: entry 'int f()' (4 label tokens) + 'return 1' (2) + the control edge (1):
    # S_ref = 7; the repaired candidate is the same graph plus the unconnected repair node
    # '⁇ }' (2 tokens): S_cand = 9. GED = 2 (insert that node), M = (7 + 9 - 2) / 2 = 7,
    # GRS = (1 + 4) * 7 / (4 * 7 + 9) = 35/37.
    scorer = RubyScorer("java")
    r = scorer.score("int f() { return 1; }", "int f() { return 1;")
    assert r.grs == pytest.approx(35 / 37)
    assert r.reasons["grs"] == 'candidate: repaired (appended "}")'
    text = scorer.explain("int f() { return 1; }", "int f() { return 1;").to_text()
    assert "S_ref 7 + S_cand 9" in text and "'⁇ }'" in text


@pytest.mark.parametrize(("kind", "lang", "bad", "good"), CONTAINMENT_CASES,
                         ids=[f"{k}-{lang}" for k, lang, _, _ in CONTAINMENT_CASES])
def test_each_containment_kind_in_each_language(kind, lang, bad, good):
    scorer = RubyScorer(lang, metrics=("ruby", "grs", "trs"))
    r = scorer.score(good, bad)
    # the structural tiers apply, never at 1.0 against the clean reference
    assert r.tier == "graph" and r.grs < 1.0 and r.trs < 1.0
    assert CONTAINMENT_KINDS[kind][0] in r.reasons["grs"]
    assert r.reasons["grs"].startswith("candidate: ")
    # its own text scores 1.0: the texts are equal
    assert scorer.score(bad, bad).grs == 1.0
    assert RubyScorer(lang, repair=False).score(good, bad).tier == "string"


def test_broken_header_keeps_its_body_structured():
    c = contain(graphs.parse("int f(int b) { if (b > * 1) { b = g(b); } return b; }", "java"))
    assert c is not None and [u.kind for u in c.unparsed] == ["header"]
    g = graphs.build_pdg(c.stand_in)
    assert graphs.relabel_unparsed(g, c) == 1
    labels = {d["label"]: d for _, d in g.nodes(data=True)}
    # the header is one opaque node of its kind; the body and the rest are statements
    assert labels["⁇ if (b > * 1)"]["kind"] == "if"
    assert "v0 = g(v0)" in labels and "return v0" in labels
    # a function header: the parameters that parsed still name the body's locals
    c = contain(graphs.parse("int f(int b) throws { return g(b); }", "java"))
    g = graphs.build_pdg(c.stand_in)
    assert graphs.relabel_unparsed(g, c) == 1
    assert [d["label"] for _, d in g.nodes(data=True)][:1] == ["⁇ int f(int b) throws"]
    assert "return g(v0)" in [d["label"] for _, d in g.nodes(data=True)]


def test_stray_closer_choice():
    # the `}` that ends the method early, not the last one, is the stray: one method left
    text = "int f(int b) { if (b > 1) { b = g(b); }} return b; }"
    assert stray_closers(graphs.parse(text, "java"))[0] == ((text.rindex("}"), "}"),)
    c = contain_strays(graphs.parse(text, "java"))
    assert c is not None and c.strays[0].start == text.index("}}") + 1
    assert len(c.stand_in.nodes) == 1
    # bounded: a few sets at most
    assert len(stray_closers(graphs.parse("f(a)" + ")" * 50, "java"))) == 0
    assert len(stray_closers(graphs.parse("int f() { g(a)); }" * 20, "java"))) <= 3


def test_invented_identifier_is_contained():
    # `a.;`: tree-sitter invents an identifier of no width without flagging it MISSING
    r = RubyScorer("cs").score("char F(string s) { var c = G(s)[0]; return c; }",
                               "char F(string s) { var c = G(s).[0]; return c; }")
    assert r.tier == "graph" and r.grs < 1.0
    assert "1 statement unparsed, kept as text" in r.reasons["grs"]


def test_what_the_repair_guessed_is_not_credited():
    # the statement the inserted `)` completes is compared as what the side wrote, and a
    # text label is credited only when equal: two candidates that differ only inside the
    # guessed statement (same weight, same variables read) score the same; the statement
    # before it is structure as usual, and the guessed one keeps its place (its edges)
    scorer = RubyScorer("python", metrics=("ruby", "grs"))
    ref = "y = f(x)\nprint(y)\n"
    near, far = scorer.score(ref, "y = f(x)\nprint(y\n"), scorer.score(ref, "y = f(x)\nshow(y\n")
    assert near.reasons["grs"] == 'candidate: repaired (appended ")")'
    assert near.grs == far.grs and 0 < near.grs < 1
    t = graphs.tolerant_parse(graphs.parse("y = f(x)\nprint(y\n", "python"))
    g = graphs.build_pdg(t.clean)
    assert graphs.mark_guessed(g, t) == 1
    assert sorted(d["label"] for _, d in g.nodes(data=True) if d.get("opaque")) == ["⁇ print(y"]
    # a stray closer belongs to the statement it ends (Python: no `;` after it)
    t = graphs.tolerant_parse(graphs.parse("y = f(x)\nprint(y))\n", "python"))
    g = graphs.build_pdg(t.contained.stand_in)
    assert graphs.mark_guessed(g, t) == 1
    # whitespace is no guess: a re-indented line stays structure
    t = graphs.tolerant_parse(graphs.parse(REPAIRS["indent"]["python"][0], "python"))
    assert graphs.mark_guessed(graphs.build_pdg(t.clean), t) == 0


def test_not_almost_code_is_not_tried():
    from graphs.repair.tolerant import MAX_ERRORS

    # more separate errors than repair and containment could ever fix
    many = "int f() { " + " ".join(f"a{i} = ;" for i in range(MAX_ERRORS + 1)) + " }"
    assert graphs.tolerant_parse(graphs.parse(many, "java")).describe() is None
    # a text longer than Limits.max_repair_chars is parsed strictly
    from ruby_metric import Limits

    text = "int f() { return 1;"
    small = Limits(max_repair_chars=len(text) - 1)
    assert RubyScorer("java", limits=small).score("int f() { return 1; }", text).tier != "graph"
    assert RubyScorer("java").score("int f() { return 1; }", text).tier == "graph"


def test_opaque_node_label_and_reference_side():
    c = contain(graphs.parse("void f(int b) { a = b + * 1; g(a); }", "java"))
    assert c is not None
    g = graphs.build_pdg(c.stand_in)
    assert graphs.relabel_unparsed(g, c) == 1
    opaque = [d for _, d in g.nodes(data=True) if d.get("opaque")]
    assert [d["label"] for d in opaque] == ["⁇ a = b + * 1;"]
    # a broken reference is contained too, and reported as the reference's
    r = RubyScorer("java").score("void f(int b) { a = b + * 1; g(a); }",
                                 "void f(int b) { a = b + 1; g(a); }")
    assert r.tier == "graph" and r.grs < 1.0
    assert r.reasons["grs"].startswith("reference: 1 statement unparsed")


def test_errors_outside_one_statement_are_not_contained():
    # a class member that is not a function
    assert contain(graphs.parse("class A { int x = * ; void f() { g(); } }", "java")) is None
    # a broken header that swallowed statements
    assert contain(graphs.parse("void f() { for (x = in y; ) { a = 1; b = 2; } }", "java")) is None
    # every statement broken: nothing would be left as structure
    assert contain(graphs.parse("int a = ;", "java")) is None
    assert contain(graphs.parse("x = a.; y = b.;", "cs")) is None
    # ...but a function whose only statement is broken keeps its signature as structure
    c = contain(graphs.parse("bool F() { return a.; }", "cs"))
    assert c is not None and [u.kind for u in c.unparsed] == ["statement"]
    # a Python ERROR swallowing the next line
    assert contain(graphs.parse("def f(b):\n    a = b + * 1\n    g(a)\n", "python")) is None


def test_signature_records_the_setting():
    assert "|repair:on|" in RubyScorer("java").signature()
    assert "|repair:off|" in RubyScorer("java", repair=False).signature()


def test_repair_is_bounded_on_hostile_input():
    # thousands of unclosed brackets: more than a few tokens, no candidate at all
    deep = "int f() { " + "g(" * 3000
    parsed = graphs.parse(deep, "java")
    assert all(len(c.tokens) <= 6 for c in repair_candidates(parsed))
    start = time.perf_counter()
    assert repair(parsed, max_attempts=MAX_REPAIR_ATTEMPTS) is None
    assert time.perf_counter() - start < 5
    r = RubyScorer("java").score("int f() { return 1; }", deep)
    assert r.ruby is not None and r.grs is None


def test_cli_no_repair_restores_strict_parsing(tmp_path, capsys):
    import json

    from ruby_metric.cli.app import main

    refs, hyps = tmp_path / "refs.java", tmp_path / "hyps.java"
    refs.write_text("int f() { return 1; }\n", encoding="utf-8")
    hyps.write_text("int f() { return 1;\n", encoding="utf-8")
    outputs = {}
    for flag in ([], ["--no-repair"]):
        assert main(["score", str(refs), str(hyps), "--lang", "java", "-f", "json",
                     *flag]) == 0
        outputs[bool(flag)] = json.loads(capsys.readouterr().out)
    on, off = outputs[False], outputs[True]
    assert on["pairs"][0]["tier"] == "graph" and on["pairs"][0]["grs"] == pytest.approx(35 / 37)
    assert on["corpus"]["structure"] == {"repaired": {"candidate": 1}}
    assert "|repair:on|" in on["corpus"]["signature"]
    assert off["pairs"][0]["tier"] == "string" and "structure" not in off["corpus"]
    assert "|repair:off|" in off["corpus"]["signature"]


# --- edits are parsed in the snippet's own wrapper (graphs.parsing.parser.own_wrapper) -----------


def test_a_cut_short_method_is_repaired_as_a_method():
    # read furthest as given (a C# local function, wrapper "none"), it is still a member:
    # its repair is parsed in the class body, as the method it is
    parsed = graphs.parse("public int F(int a) { if (a > 0) { return a; } return -a;", "cs")
    assert parsed.wrapper == "none" and own_wrapper(parsed) == "class_body"
    clean = tolerant_parse(parsed).clean
    assert clean.wrapper == "class_body" and clean.nodes[0].type == "method_declaration"


def test_a_constructor_with_a_stray_closer_is_contained_as_a_constructor():
    # a constructor cannot stand as given at all
    kept = tolerant_parse(graphs.parse("public Foo(int x) { X = x; } }", "cs")).contained
    assert kept.describe() == '1 unmatched "}" kept as text (line 1, col 30)'
    assert kept.stand_in.wrapper == "class_body"
    assert kept.stand_in.nodes[0].type == "constructor_declaration"


def test_statements_are_edited_in_the_wrapper_they_were_read_in():
    parsed = graphs.parse("x = f(a; y = 2;", "cs")
    assert own_wrapper(parsed) == parsed.wrapper == "none"
