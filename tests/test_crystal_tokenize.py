"""Tests of crystal.tokenize: the code lexers, the whitespace tokenizer and the registry."""

from __future__ import annotations

import time
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crystal
from crystal import register_tokenizer, tokenize
from crystal.tokenize import DEDENT, INDENT, available_tokenizers, get_tokenizer, token_spans
from ruby_metric import RubyScorer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a.b(c)", ["a", ".", "b", "(", "c", ")"]),
        ("x+=1;y++", ["x", "+=", "1", ";", "y", "++"]),
        ("a>>>=b<<=c>>=d", ["a", ">>>=", "b", "<<=", "c", ">>=", "d"]),
        ("p->q => r :: s", ["p", "->", "q", "=>", "r", "::", "s"]),
        (
            "a==b!=c<=d>=e&&f||g",
            ["a", "==", "b", "!=", "c", "<=", "d", ">=", "e", "&&", "f", "||", "g"],
        ),
        ("a??b?.c", ["a", "??", "b", "?.", "c"]),
        ("f(...args)", ["f", "(", "...", "args", ")"]),
        ("x<<2>>1", ["x", "<<", "2", ">>", "1"]),
        ("a %= b ^= c |= d &= e", ["a", "%=", "b", "^=", "c", "|=", "d", "&=", "e"]),
        ("i-- -1", ["i", "--", "-", "1"]),
    ],
)
def test_operators(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0x1F 0XffUL 0b1010 0o17", ["0x1F", "0XffUL", "0b1010", "0o17"]),
        ("1e-5 1.5e+10 2E3", ["1e-5", "1.5e+10", "2E3"]),
        ("1.5f 100L 3.14m 10UL 2j", ["1.5f", "100L", "3.14m", "10UL", "2j"]),
        ("1_000_000 .5 0.25", ["1_000_000", ".5", "0.25"]),
        ("a[0].length", ["a", "[", "0", "]", ".", "length"]),
        ("x-1", ["x", "-", "1"]),
    ],
)
def test_numbers(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('s = "a b";', ["s", "=", '"a b"', ";"]),
        (r's = "say \"hi\"";', ["s", "=", r'"say \"hi\""', ";"]),
        (r"c = '\'';", ["c", "=", r"'\''", ";"]),
        ("c = 'x' + '\\n'", ["c", "=", "'x'", "+", "'\\n'"]),
        ('p = @"C:\\dir\\""x""";', ["p", "=", '@"C:\\dir\\""x"""', ";"]),
        ('m($"{a} b", $@"v{c}")', ["m", "(", '$"{a} b"', ",", '$@"v{c}"', ")"]),
        ('d = """doc\nstring""" + 1', ["d", "=", '"""doc\nstring"""', "+", "1"]),
        ("d = '''x'''", ["d", "=", "'''x'''"]),
        ('r"\\d+" b"x" f"{y}" rb"z"', ['r"\\d+"', 'b"x"', 'f"{y}"', 'rb"z"']),
        ('L"wide" u8"utf"', ['L"wide"', 'u8"utf"']),
        ('url = "http://x/*y*/"; // c', ["url", "=", '"http://x/*y*/"', ";"]),
        ('return ""', ["return", '""']),
    ],
)
def test_string_literals_are_one_token(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_identifiers_and_keywords() -> None:
    assert tokenize("public static $scope _x1 ñandú") == [
        "public",
        "static",
        "$scope",
        "_x1",
        "ñandú",
    ]
    # A prefix letter starts a string only when a quote follows it.
    assert tokenize('buffer return fr"x"') == ["buffer", "return", 'fr"x"']


def test_comments_dropped_hash_kept() -> None:
    code = "int a; // line\n/* block\n comment */ int b; #include <x>\n"
    assert tokenize(code) == ["int", "a", ";", "int", "b", ";", "#", "include", "<", "x", ">"]
    assert tokenize("a /* unterminated comment") == ["a"]
    assert tokenize("a // only\n") == ["a"]


def test_code_python_tokenizer() -> None:
    code = "x //= 2  # comment\ny = a // b /* not a comment */"
    assert tokenize(code, "code-python") == [
        "x", "//=", "2", "y", "=", "a", "//", "b", "/", "*", "not", "a", "comment", "*", "/",
    ]  # fmt: skip
    assert tokenize('s = "#not a comment"', "code-python") == ["s", "=", '"#not a comment"']


def test_whitespace_insensitive() -> None:
    # The RUBY paper's complaint about BLEU.
    assert tokenize("IsSimilar(") == tokenize("IsSimilar (") == ["IsSimilar", "("]
    a = "if(x==1){return y;}"
    b = "if ( x == 1 )\n{\n\treturn   y ;\n}"
    assert tokenize(a) == tokenize(b)


def test_whitespace_tokenizer() -> None:
    assert tokenize(" a  b\tc\n", "whitespace") == ["a", "b", "c"]
    assert tokenize("IsSimilar (", "whitespace") != tokenize("IsSimilar(", "whitespace")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t ",
        'x = "unterminated',
        "c = 'unterminated\nnext",
        's = @"unterminated verbatim',
        's = """unterminated triple',
        "/* never closed",
        "a\x00b\x01c\x7f",
        "emoji 😀 = 🐍 + 1",
        "lone surrogate \ud800 here",
        "\\" * 1001,
        "\"'\"'\"'",
        "§¶•ªº –—",
    ],
)
def test_never_raises(text: str) -> None:
    tokens = tokenize(text)
    assert isinstance(tokens, list)
    assert all(isinstance(t, str) and t for t in tokens)


def test_broken_code_recovery() -> None:
    # An unterminated literal runs to the end of its line only.
    assert tokenize('x = "abc\ny = 1') == ["x", "=", '"abc', "y", "=", "1"]
    # Control characters are whitespace.
    assert tokenize("a\x00b") == ["a", "b"]
    assert tokenize("a 😀 b") == ["a", "😀", "b"]


@pytest.mark.parametrize(
    "text",
    [
        '"\\' * 20000,
        "'\\'" * 20000,
        '@"' * 20000,
        '"""' * 10001,
        "/*" * 20000,
        '"a\\"' * 20000,
        "(" * 100000,
    ],
)
def test_linear_time_on_pathological_input(text: str) -> None:
    start = time.perf_counter()
    tokenize(text)
    assert time.perf_counter() - start < 2.0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_tokens_are_substrings(text: str) -> None:
    for name in ("code", "code-python", "whitespace"):
        tokens = [t for t in tokenize(text, name) if t not in (INDENT, DEDENT)]
        assert all(token and token in text for token in tokens)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["foo", "bar1", "(", ")", "{", "}", ";", "==", "+=", "->", "0x1F", "1.5f"]),
        max_size=30,
    ),
    st.lists(st.sampled_from([" ", "\n", "\t", "  "]), min_size=30, max_size=30),
)
def test_spacing_between_tokens_does_not_matter(tokens: list[str], spaces: list[str]) -> None:
    spaced = "".join(t + s for t, s in zip(tokens, spaces, strict=False))
    assert tokenize(spaced) == tokens


def test_registry() -> None:
    assert {"code", "code-python", "whitespace"} <= set(available_tokenizers())
    name = f"test-chars-upper-{uuid.uuid4().hex}"
    register_tokenizer(name, lambda text: [c.upper() for c in text if not c.isspace()])
    assert tokenize("a b", name) == ["A", "B"]
    assert name in available_tokenizers()
    with pytest.raises(ValueError, match="already registered"):
        register_tokenizer(name, str.split)
    register_tokenizer(name, str.split, replace=True)
    assert tokenize("a b", name) == ["a", "b"]
    assert get_tokenizer(name) is str.split
    for builtin in ("code", "whitespace", "code-python"):
        with pytest.raises(ValueError, match="built in"):
            register_tokenizer(builtin, str.split, replace=True)
    with pytest.raises(ValueError):
        register_tokenizer("", str.split)
    with pytest.raises(TypeError):
        register_tokenizer("not-callable", "split")  # type: ignore[arg-type]


def test_unknown_tokenizer_and_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown tokenizer 'nope'.*code"):
        tokenize("x", "nope")
    with pytest.raises(TypeError):
        tokenize(b"bytes")  # type: ignore[arg-type]
    assert tokenize("a b", str.split) == ["a", "b"]


def test_exported() -> None:
    assert crystal.tokenize is tokenize
    assert crystal.register_tokenizer is register_tokenizer


# -- Python layout: INDENT / DEDENT ----------------------------------------------------------

I, D = INDENT, DEDENT  # noqa: E741


def py(text: str) -> list[str]:
    return tokenize(text, "code-python")


SUM_INSIDE = "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n        return t\n"
SUM_AFTER = "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"


def test_layout_token_spelling_cannot_collide() -> None:
    assert (INDENT, DEDENT) == ("<INDENT>", "<DEDENT>")
    # The lexer never yields these as code tokens: the text is split up.
    assert py("<INDENT> <DEDENT>") == ["<", "INDENT", ">", "<", "DEDENT", ">"]
    assert crystal.tokenize("if a:\n    b") == ["if", "a", ":", "b"]  # "code": no layout


def test_return_inside_vs_after_for_body() -> None:
    head = ["def", "total", "(", "xs", ")", ":", I, "t", "=", "0"]
    head += ["for", "x", "in", "xs", ":", I, "t", "+=", "x"]
    assert py(SUM_INSIDE) == [*head, "return", "t", D, D]
    assert py(SUM_AFTER) == [*head, D, "return", "t", D]


def test_python_scorer_sees_indentation() -> None:
    scorer = RubyScorer(language="python")
    assert scorer.tokenizer == "code-python"
    result = scorer.score(SUM_INSIDE, SUM_AFTER)
    # 23 tokens a side; one DEDENT moves before `return t`: 2 edits.
    assert result.sts == pytest.approx(1 - 2 / 23)
    # Candidate n-grams matched (1..4): 23/23, 20/22, 18/21, 16/20; same length, BP = 1.
    assert result.bleu == pytest.approx((20 / 22 * 18 / 21 * 16 / 20) ** 0.25)
    assert result.sts < 1.0 and result.bleu < 1.0
    same = scorer.score(SUM_AFTER, SUM_AFTER)
    assert same.sts == same.bleu == 1.0
    # CrystalBLEU, with any n-gram set, sees it too.
    crystal_scorer = RubyScorer(language="python", ngrams=[("(",), ("def",)])
    assert crystal_scorer.score(SUM_INSIDE, SUM_AFTER).crystalbleu < 1.0
    assert crystal_scorer.score(SUM_AFTER, SUM_AFTER).crystalbleu == 1.0


def test_nested_blocks() -> None:
    code = "class A:\n    def f(self):\n        if x:\n            y\n        z\nw\n"
    assert py(code) == [
        "class", "A", ":", I, "def", "f", "(", "self", ")", ":", I, "if", "x", ":", I, "y", D,
        "z", D, D, "w",
    ]  # fmt: skip


def test_brackets_spanning_lines() -> None:
    code = "x = f(a,\n        b,\n  c)\ny = [\n1,\n    2]\nif y:\n    z\n"
    assert py(code) == [
        "x", "=", "f", "(", "a", ",", "b", ",", "c", ")",
        "y", "=", "[", "1", ",", "2", "]", "if", "y", ":", I, "z", D,
    ]  # fmt: skip
    # An unmatched closer is ignored; an unclosed opener joins the rest into one line.
    assert py(")\n  x\n") == [")", I, "x", D]
    assert py("f(\nif a:\n    b\n") == ["f", "(", "if", "a", ":", "b"]


def test_backslash_continuation() -> None:
    code = "if a and \\\n        b:\n    c = 1 + \\\n  2\n    d\n"
    assert py(code) == ["if", "a", "and", "b", ":", I, "c", "=", "1", "+", "2", "d", D]
    assert py("x = 1 + \\\r\n    2") == ["x", "=", "1", "+", "2"]
    # Not at a line end, a backslash stays a token.
    assert py("a \\ b") == ["a", "\\", "b"]
    assert py("a \\") == ["a", "\\"]


def test_comments_and_blank_lines_do_not_indent() -> None:
    code = "if a:\n\n        # deep comment\n  \t \n    b\n# flush comment\n    c\n\n"
    assert py(code) == ["if", "a", ":", I, "b", "c", D]
    assert py("# only a comment\n\n   \n") == []
    assert py("x  # trailing\n") == ["x"]


def test_triple_quoted_string_across_lines() -> None:
    code = 'def f():\n    s = """a\nb\n        c\n"""\n    return s\n'
    assert py(code) == [
        "def", "f", "(", ")", ":", I, "s", "=", '"""a\nb\n        c\n"""', "return", "s", D,
    ]  # fmt: skip
    # Unterminated: runs to the end, still balanced.
    assert py("if a:\n    s = '''x\ny") == ["if", "a", ":", I, "s", "=", "'''x\ny", D]


def test_tabs_to_multiples_of_8() -> None:
    # A tab is column 8, as are 8 spaces and "    \t" (4 spaces then a tab).
    assert py("if a:\n\tb\n        c\n    \td\n") == ["if", "a", ":", I, "b", "c", "d", D]
    # Column 4 is not column 8.
    assert py("if a:\n\tb\n    c\n") == ["if", "a", ":", I, "b", D, "c"]
    # A form feed resets the column.
    assert py("if a:\n    b\n\x0cc\n") == ["if", "a", ":", I, "b", D, "c"]


def test_inconsistent_dedent_goes_to_nearest_enclosing_level() -> None:
    code = "def f():\n    if a:\n        x\n      y\n    z\n"
    # y (column 6) matches no level: it belongs to the `if`'s block (column 4).
    assert py(code) == [
        "def", "f", "(", ")", ":", I, "if", "a", ":", I, "x", D, "y", "z", D,
    ]  # fmt: skip
    # Deeper than the first line, then shallower than it: the base is lowered, no tokens.
    assert py("    a\n  b\n    c\n") == ["a", "b", I, "c", D]


def test_uniformly_indented_snippet_equals_dedented() -> None:
    method = "def f(self):\n    for x in self.xs:\n        yield x\n    return\n"
    for prefix in ("    ", "\t", "  \t  "):
        indented = "".join(prefix + line for line in method.splitlines(True))
        assert py(indented) == py(method)
    assert py("\n\n    # lead\n    x\n    y\n") == ["x", "y"]
    scorer = RubyScorer(language="python", metrics=["sts", "bleu"])
    indented = "".join("    " + line for line in method.splitlines(True))
    result = scorer.score(method, indented)
    assert result.sts == result.bleu == 1.0


def test_empty_and_trivial_texts() -> None:
    assert py("") == [] == token_spans("", "code-python")
    assert py("   ") == []
    assert py("a") == py("a\n") == py("  a  \n\n") == ["a"]
    assert py("if a:\n    b") == py("if a:\n    b\n\n  # end\n") == ["if", "a", ":", I, "b", D]


def test_crlf_line_ends() -> None:
    assert py("if a:\r\n    b\r\n\r\nc\r\n") == ["if", "a", ":", I, "b", D, "c"]


def test_python_token_spans() -> None:
    code = "if a:\n    b\nc"
    assert py(code) == ["if", "a", ":", I, "b", D, "c"]
    # INDENT: the indenting whitespace; DEDENT: empty, before its line's first token.
    assert token_spans(code, "code-python") == [
        (0, 2), (3, 4), (4, 5), (6, 10), (10, 11), (12, 12), (12, 13),
    ]  # fmt: skip
    # The closing DEDENTs sit at the end of the text.
    assert token_spans("if a:\n  b  \n", "code-python")[-1] == (12, 12)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", " ", "  ", "    ", "\t", " \t", "\x0c"]),
            st.sampled_from(
                ["x", "if a:", "f(", ")", "# c", "'''", "s = '''a", "b \\", "", "y = [1,", "]"]
            ),
        ),
        max_size=25,
    )
)
def test_layout_properties(lines: list[tuple[str, str]]) -> None:
    text = "\n".join(indent + line for indent, line in lines)
    tokens = py(text)
    spans = token_spans(text, "code-python")
    # Balanced, never below zero.
    level = 0
    for token in tokens:
        level += (token == INDENT) - (token == DEDENT)
        assert level >= 0
    assert level == 0
    # Spans: one per token, in order, never overlapping; exact text but for layout tokens.
    assert len(spans) == len(tokens)
    cursor = 0
    for token, (start, end) in zip(tokens, spans, strict=True):
        assert cursor <= start <= end
        cursor = end
        if token == INDENT:
            assert end > start and not text[start:end].strip()
        elif token == DEDENT:
            assert start == end
        else:
            assert text[start:end] == token
    # A uniform extra indentation changes nothing (outside multi-line strings, and but for
    # form feeds, which reset the column as in CPython).
    if "'''" not in text and "\x0c" not in text:
        shifted = "\n".join("  " + indent + line for indent, line in lines)
        assert py(shifted) == tokens


def test_python_layout_is_linear() -> None:
    # A guard against a quadratic layout pass (hours on these inputs), not a speed target:
    # linear, each takes a fraction of a second on an idle machine (benchmarks time speed).
    deep = "".join(" " * i + "if a:\n" for i in range(3000))
    ragged = "".join(" " * (i * 7919 % 97) + "x\n" for i in range(100000))
    for text in (deep, ragged, "(\n" * 100000, "\\\n" * 100000, "\n" * 200000):
        start = time.perf_counter()
        tokens = py(text)
        token_spans(text, "code-python")
        assert time.perf_counter() - start < 30.0
        assert tokens.count(INDENT) == tokens.count(DEDENT)


def test_python_ngram_sets_include_layout_tokens(tmp_path) -> None:
    grams = crystal.build_ngram_set([SUM_INSIDE, SUM_AFTER], k=1000, tokenizer="code-python")
    assert grams.tokenizer == "code-python"
    assert (INDENT,) in grams.ngrams and (D, "return", "t", D) in grams.ngrams
    # The command line builds Python sets with the scorer's Python tokenizer.
    from ruby_metric.cli.app import main

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.py").write_text(SUM_AFTER)
    out = tmp_path / "py.json"
    assert main(["ngrams", "build", str(corpus), "--lang", "python", "-q", "-o", str(out)]) == 0
    saved = crystal.NgramSet.load(out)
    assert saved.tokenizer == "code-python" and (INDENT,) in saved.ngrams
