"""Seed snippets per language and mutations of them, shared by the hostile-input tests.

The seeds are small functions with a branch, a loop and assignments, so that every tier
(PDG, AST, tokens) has something to build; the mutations turn them into the kind of text a
model or a broken pipeline produces: deleted, duplicated or swapped tokens, truncations,
unbalanced brackets, control characters, NUL, emoji and other scripts.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

#: The six languages of the registry, by canonical name.
LANGUAGES: tuple[str, ...] = ("java", "csharp", "python", "c", "cpp", "javascript")

SEEDS: dict[str, tuple[str, ...]] = {
    "java": (
        "int sum(int[] xs) {\n  int total = 0;\n  for (int i = 0; i < xs.length; i++) {\n"
        "    if (xs[i] > 0) total += xs[i];\n  }\n  return total;\n}",
        "public static int max(int a, int b) { if (a > b) { return a; } else { return b; } }",
        "void count(String s) { int n = 0; while (n < s.length()) { n++; } "
        "System.out.println(n); }",
        "boolean find(List<String> items, String key) {\n  for (String it : items) {\n"
        "    if (it.equals(key)) return true;\n  }\n  return false;\n}",
        "int fact(int n) { int r = 1; do { r *= n; n--; } while (n > 1); return r; }",
    ),
    "csharp": (
        "public int Sum(int[] values) { int total = 0; foreach (int v in values) { total += v; }"
        " return total; }",
        "static int Max(int a, int b) { if (a > b) return a; return b; }",
        "void Count(string s) { var n = 0; while (n < s.Length) { n++; } Console.WriteLine(n); }",
        "bool Find(List<string> items, string key) {\n  for (int i = 0; i < items.Count; i++) {\n"
        "    if (items[i] == key) { return true; }\n  }\n  return false;\n}",
        "int Fact(int n) { int r = 1; try { checked { while (n > 1) { r *= n--; } } }"
        " catch (OverflowException) { r = -1; } return r; }",
    ),
    "python": (
        "def total(xs):\n    acc = 0\n    for x in xs:\n        if x > 0:\n            acc += x\n"
        "    return acc\n",
        "def biggest(a, b):\n    if a > b:\n        return a\n    else:\n        return b\n",
        "def count(s):\n    n = 0\n    while n < len(s):\n        n += 1\n    print(n)\n",
        "def find(items, key):\n    for i, it in enumerate(items):\n        if it == key:\n"
        "            return i\n    return -1\n",
        "def fact(n):\n    r = 1\n    try:\n        while n > 1:\n            r, n = r * n, n - 1\n"
        "    except OverflowError:\n        r = None\n    return r\n",
    ),
    "c": (
        "int sum(int *xs, int n) {\n  int total = 0, i;\n  for (i = 0; i < n; i++) {\n"
        "    if (xs[i] > 0) total += xs[i];\n  }\n  return total;\n}",
        "int max(int a, int b) { if (a > b) return a; else return b; }",
        "void count(const char *s) { int n = 0; while (s[n] != '\\0') n++; printf(\"%d\", n); }",
        "int find(int *xs, int n, int key) { int i; for (i = 0; i < n; i++) { if (xs[i] == key)"
        " goto done; } return -1; done: return i; }",
        "long fact(int n) { long r = 1; switch (n) { case 0: return 1; default: break; }"
        " while (n > 1) r *= n--; return r; }",
    ),
    "cpp": (
        "int sum(const std::vector<int>& xs) {\n  int total = 0;\n  for (auto x : xs) {\n"
        "    if (x > 0) total += x;\n  }\n  return total;\n}",
        "template <typename T> T max(T a, T b) { if (a > b) { return a; } return b; }",
        "void count(const std::string& s) { size_t n = 0; while (n < s.size()) ++n;"
        " std::cout << n << std::endl; }",
        "bool find(const std::vector<std::string>& items, const std::string& key) {\n"
        "  for (size_t i = 0; i < items.size(); ++i) {\n    if (items[i] == key) return true;\n"
        "  }\n  return false;\n}",
        "long fact(int n) { long r = 1; auto mul = [&](int k) { r *= k; };"
        " for (int k = 2; k <= n; ++k) mul(k); return r; }",
    ),
    "javascript": (
        "function sum(xs) {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) {\n"
        "    if (xs[i] > 0) total += xs[i];\n  }\n  return total;\n}",
        "function max(a, b) { if (a > b) { return a; } else { return b; } }",
        "const count = (s) => { let n = 0; while (n < s.length) { n++; } console.log(n); };",
        "function find(items, key) {\n  for (const it of items) {\n"
        "    if (it === key) return true;\n  }\n  return false;\n}",
        "function fact(n) { let r = 1; try { while (n > 1) { r *= n--; } } catch (e) { r = -1; }"
        " return r; }",
    ),
}

#: Characters that tend to break lexers, parsers and position mapping: NUL and other
#: controls, line and paragraph separators, BOM, surrogate-free astral characters (emoji take
#: two UTF-16 units and four UTF-8 bytes), combining marks, right-to-left text, brackets.
NASTY_CHARS: tuple[str, ...] = (
    "\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\r", "\t",
    "\u2028", "\u2029", "\ufeff", "\u200b", "\u202e", "\ufffd", "\U0001f600", "\U0001f9ec",
    "\u0301", "é", "ß", "Ж", "λ", "中", "ش", "😀", "{", "}", "(", ")", "[", "]", "<", ">", "\"",
    "'", "`", "\\", "/*", "*/", "//", "#", "\"\"\"", ";", ":", ",", "@", "$", "\n",
)

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def fixture_snippets() -> list[tuple[str, str]]:
    """Real-looking (language, code) lines from the project's fixtures."""
    root = Path(__file__).resolve().parent.parent / "fixtures"
    out: list[tuple[str, str]] = []
    for path, language in sorted(
        [(p, "java") for p in root.glob("*/*.java")] + [(p, "csharp") for p in root.glob("*/*.cs")]
    ):
        out.extend((language, line) for line in path.read_text("utf-8").splitlines() if line)
    return out


def mutate(code: str, rng: random.Random, steps: int = 3) -> str:
    """``code`` after ``steps`` random edits of tokens or characters."""
    for _ in range(steps):
        code = _MUTATIONS[rng.randrange(len(_MUTATIONS))](code, rng)
    return code


def _tokens(code: str) -> list[str]:
    return _TOKEN.findall(code)


def _delete_token(code: str, rng: random.Random) -> str:
    toks = _tokens(code)
    if toks:
        del toks[rng.randrange(len(toks))]
    return "".join(toks)


def _duplicate_token(code: str, rng: random.Random) -> str:
    toks = _tokens(code)
    if toks:
        i = rng.randrange(len(toks))
        toks.insert(i, toks[i])
    return "".join(toks)


def _swap_tokens(code: str, rng: random.Random) -> str:
    toks = _tokens(code)
    if len(toks) > 1:
        i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
        toks[i], toks[j] = toks[j], toks[i]
    return "".join(toks)


def _insert_char(code: str, rng: random.Random) -> str:
    i = rng.randint(0, len(code))
    return code[:i] + rng.choice(NASTY_CHARS) + code[i:]


def _delete_char(code: str, rng: random.Random) -> str:
    if not code:
        return code
    i = rng.randrange(len(code))
    return code[:i] + code[i + 1 :]


def _truncate(code: str, rng: random.Random) -> str:
    return code[: rng.randint(0, len(code))]


def _random_unicode(code: str, rng: random.Random) -> str:
    # Any code point but surrogates (a str holding one cannot be encoded to UTF-8 at all,
    # which the caller's file reader never produces).
    chars = []
    for _ in range(rng.randint(1, 8)):
        cp = rng.randrange(0x110000)
        chars.append(chr(cp) if not 0xD800 <= cp < 0xE000 else "\ufffd")
    i = rng.randint(0, len(code))
    return code[:i] + "".join(chars) + code[i:]


def _unbalance(code: str, rng: random.Random) -> str:
    brackets = [i for i, c in enumerate(code) if c in "{}()[]"]
    if brackets and rng.random() < 0.5:
        i = rng.choice(brackets)
        return code[:i] + code[i + 1 :]
    return code + rng.choice("{([") * rng.randint(1, 5)


def _splice(code: str, rng: random.Random) -> str:
    # Another language's seed pasted in: models do mix languages up.
    other = rng.choice(SEEDS[rng.choice(LANGUAGES)])
    i = rng.randint(0, len(code))
    return code[:i] + other + code[i:]


_MUTATIONS = (
    _delete_token,
    _duplicate_token,
    _swap_tokens,
    _insert_char,
    _delete_char,
    _truncate,
    _random_unicode,
    _unbalance,
    _splice,
)
