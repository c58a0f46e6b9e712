"""Tests of crystal.tokenize: the code lexers, the whitespace tokenizer and the registry."""

from __future__ import annotations

import time
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crystal
from crystal import register_tokenizer, tokenize
from crystal.tokenize import available_tokenizers, get_tokenizer


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
        tokens = tokenize(text, name)
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
