# ruff: noqa: E501  (data: one snippet per line)
"""Hand-written reference snippets for the validity benchmark (:mod:`.validity`).

Small functions written for this project: 40 in Python, and 40 algorithms written once in a
C-family notation and rendered for C, C++, C# and JavaScript by :func:`snippets` (``$int``
declares an integer local, ``$bool`` a boolean, ``$len(a)`` is the length of array ``a``,
``$print(x)`` prints a number, ``$true``/``$false``; a header ``@ret name(params)`` takes
``int``, ``double``, ``bool`` and ``int[]`` parameters). Each uses loops, conditions,
compound assignments, conditional expressions or calls, so that the mutation operators
have sites.
"""

from __future__ import annotations

import re

__all__ = ["PYTHON_SNIPPETS", "C_FAMILY_TEMPLATES", "snippets"]

PYTHON_SNIPPETS: tuple[str, ...] = (
    "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s",
    "def count_pos(xs):\n    n = 0\n    for x in xs:\n        if x > 0:\n            n += 1\n    return n",
    "def largest(xs):\n    best = xs[0]\n    for x in xs:\n        if x > best:\n            best = x\n    return best",
    "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x",
    "def sign(x):\n    r = 1 if x > 0 else -1\n    if x == 0:\n        r = 0\n    return r",
    "def fact(n):\n    r = 1\n    i = 2\n    while i <= n:\n        r *= i\n        i += 1\n    return r",
    "def fib(n):\n    a = 0\n    b = 1\n    for _ in range(n):\n        t = a + b\n        a = b\n        b = t\n    return a",
    "def is_prime(n):\n    if n < 2:\n        return False\n    d = 2\n    while d * d <= n:\n        if n % d == 0:\n            return False\n        d += 1\n    return True",
    "def mean(xs):\n    s = 0.0\n    for x in xs:\n        s = s + x\n    return s / len(xs)",
    "def reverse(xs):\n    out = []\n    i = len(xs) - 1\n    while i >= 0:\n        out.append(xs[i])\n        i -= 1\n    return out",
    "def gcd(a, b):\n    while b != 0:\n        t = b\n        b = a % b\n        a = t\n    return a",
    "def power(b, e):\n    r = 1\n    while e > 0:\n        if e % 2 == 1:\n            r *= b\n        b *= b\n        e //= 2\n    return r",
    "def digits(n):\n    c = 0\n    while n > 0:\n        n //= 10\n        c += 1\n    return c",
    "def evens(xs):\n    out = []\n    for x in xs:\n        if x % 2 == 0:\n            out.append(x)\n    return out",
    "def dot(a, b):\n    s = 0\n    for i in range(len(a)):\n        s += a[i] * b[i]\n    return s",
    "def index_of(xs, v):\n    for i in range(len(xs)):\n        if xs[i] == v:\n            return i\n    return -1",
    "def smallest_gap(xs):\n    best = abs(xs[1] - xs[0])\n    for i in range(2, len(xs)):\n        d = abs(xs[i] - xs[i - 1])\n        if d < best:\n            best = d\n    return best",
    "def report(xs):\n    n = len(xs)\n    s = sum(xs)\n    print(n)\n    print(s)\n    return s - n",
    "def abs_diff(a, b):\n    d = a - b\n    if d < 0:\n        d = -d\n    return d",
    "def tri(n):\n    s = 0\n    k = 1\n    while k <= n:\n        s += k\n        k = k + 1\n    return s",
    "def bounds(xs):\n    lo = xs[0]\n    hi = xs[0]\n    for x in xs:\n        lo = min(lo, x)\n        hi = max(hi, x)\n    return hi - lo",
    "def grade(score):\n    if score >= 90:\n        g = 4\n    else:\n        g = 3 if score >= 75 else 2\n    return g",
    "def squares(n):\n    out = []\n    for i in range(1, n + 1):\n        out.append(i * i)\n    return out",
    "def collatz(n):\n    steps = 0\n    while n != 1:\n        if n % 2 == 0:\n            n = n // 2\n        else:\n            n = 3 * n + 1\n        steps += 1\n    return steps",
    "def running(xs):\n    out = []\n    acc = 0\n    for x in xs:\n        acc += x\n        out.append(acc)\n    return out",
    "def count_char(s, ch):\n    n = 0\n    for c in s:\n        if c == ch:\n            n = n + 1\n    return n",
    "def is_sorted(xs):\n    for i in range(1, len(xs)):\n        if xs[i - 1] > xs[i]:\n            return False\n    return True",
    "def weighted(xs, w):\n    top = 0\n    bottom = 0\n    for i in range(len(xs)):\n        top += xs[i] * w[i]\n        bottom += w[i]\n    return top / bottom",
    "def swap_pair(p):\n    a = p[0]\n    b = p[1]\n    return (b, a)",
    "def area(w, h):\n    if w <= 0 or h <= 0:\n        return 0\n    a = w * h\n    return a",
    "def max_run(xs):\n    best = 0\n    cur = 0\n    for x in xs:\n        cur = cur + 1 if x > 0 else 0\n        best = max(best, cur)\n    return best",
    "def between(x, lo, hi):\n    ok = lo <= x\n    ok = ok and x < hi\n    return ok",
    "def sum_odd(n):\n    s = 0\n    for i in range(n):\n        if i % 2 == 1:\n            s += i\n    return s",
    "def scale(xs, k):\n    out = []\n    for x in xs:\n        y = x * k\n        out.append(y)\n    return out",
    "def log_all(xs):\n    for x in xs:\n        print(x)\n    print(len(xs))\n    return len(xs)",
    "def middle(a, b, c):\n    if a > b:\n        a, b = b, a\n    if b > c:\n        b = c\n    return max(a, b)",
    "def count_between(xs, lo, hi):\n    n = 0\n    for x in xs:\n        if lo < x and x < hi:\n            n += 1\n    return n",
    "def perimeter(w, h):\n    p = 2 * w\n    q = 2 * h\n    return p + q",
    "def first_neg(xs):\n    i = 0\n    while i < len(xs):\n        if xs[i] < 0:\n            return i\n        i += 1\n    return -1",
    "def tax(amount):\n    rate = 20\n    base = amount - 100\n    due = base * rate // 100\n    return due if due > 0 else 0",
)

#: Algorithms in the C-family notation rendered by :func:`snippets`.
C_FAMILY_TEMPLATES: tuple[str, ...] = (
    "@int total(int[] a) { $int s = 0; for ($int i = 0; i < $len(a); i++) { s += a[i]; } return s; }",
    "@int countPos(int[] a) { $int n = 0; for ($int i = 0; i < $len(a); i++) { if (a[i] > 0) { n++; } } return n; }",
    "@int largest(int[] a) { $int best = a[0]; for ($int i = 1; i < $len(a); i++) { if (a[i] > best) { best = a[i]; } } return best; }",
    "@int clamp(int x, int lo, int hi) { if (x < lo) { return lo; } if (x > hi) { return hi; } return x; }",
    "@int sign(int x) { $int r = x > 0 ? 1 : -1; if (x == 0) { r = 0; } return r; }",
    "@int fact(int n) { $int r = 1; $int i = 2; while (i <= n) { r *= i; i += 1; } return r; }",
    "@int fib(int n) { $int a = 0; $int b = 1; for ($int k = 0; k < n; k++) { $int t = a + b; a = b; b = t; } return a; }",
    "@bool isPrime(int n) { if (n < 2) { return $false; } for ($int d = 2; d * d <= n; d++) { if (n % d == 0) { return $false; } } return $true; }",
    "@double mean(int[] a) { $double s = 0; for ($int i = 0; i < $len(a); i++) { s = s + a[i]; } return s / $len(a); }",
    "@int gcd(int a, int b) { while (b != 0) { $int t = b; b = a % b; a = t; } return a; }",
    "@int power(int b, int e) { $int r = 1; while (e > 0) { if (e % 2 == 1) { r *= b; } b *= b; e /= 2; } return r; }",
    "@int digits(int n) { $int c = 0; while (n > 0) { n /= 10; c++; } return c; }",
    "@int countEven(int[] a) { $int c = 0; for ($int i = 0; i < $len(a); i++) { if (a[i] % 2 == 0) { c = c + 1; } } return c; }",
    "@int dot(int[] a, int[] b) { $int s = 0; for ($int i = 0; i < $len(a); i++) { s += a[i] * b[i]; } return s; }",
    "@int indexOf(int[] a, int v) { for ($int i = 0; i < $len(a); i++) { if (a[i] == v) { return i; } } return -1; }",
    "@int report(int[] a) { $int n = $len(a); $int s = $sum(a); $print(n); $print(s); return s - n; }",
    "@int absDiff(int a, int b) { $int d = a - b; if (d < 0) { d = -d; } return d; }",
    "@int tri(int n) { $int s = 0; $int k = 1; while (k <= n) { s += k; k = k + 1; } return s; }",
    "@int spread(int[] a) { $int lo = a[0]; $int hi = a[0]; for ($int i = 0; i < $len(a); i++) { if (a[i] < lo) { lo = a[i]; } if (a[i] > hi) { hi = a[i]; } } return hi - lo; }",
    "@int grade(int score) { $int g; if (score >= 90) { g = 4; } else { g = score >= 75 ? 3 : 2; } return g; }",
    "@int collatz(int n) { $int steps = 0; while (n != 1) { if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; } steps++; } return steps; }",
    "@int sumOdd(int n) { $int s = 0; for ($int i = 0; i < n; i++) { if (i % 2 == 1) { s += i; } } return s; }",
    "@bool isSorted(int[] a) { for ($int i = 1; i < $len(a); i++) { if (a[i - 1] > a[i]) { return $false; } } return $true; }",
    "@int area(int w, int h) { if (w <= 0 || h <= 0) { return 0; } $int r = w * h; return r; }",
    "@int maxRun(int[] a) { $int best = 0; $int cur = 0; for ($int i = 0; i < $len(a); i++) { cur = a[i] > 0 ? cur + 1 : 0; if (cur > best) { best = cur; } } return best; }",
    "@bool between(int x, int lo, int hi) { $bool ok = lo <= x; ok = ok && x < hi; return ok; }",
    "@int perimeter(int w, int h) { $int p = 2 * w; $int q = 2 * h; return p + q; }",
    "@int firstNeg(int[] a) { $int i = 0; while (i < $len(a)) { if (a[i] < 0) { return i; } i++; } return -1; }",
    "@int tax(int amount) { $int rate = 20; $int base = amount - 100; $int due = base * rate / 100; return due > 0 ? due : 0; }",
    "@int countBetween(int[] a, int lo, int hi) { $int n = 0; for ($int i = 0; i < $len(a); i++) { if (lo < a[i] && a[i] < hi) { n += 1; } } return n; }",
    "@int logAll(int[] a) { for ($int i = 0; i < $len(a); i++) { $print(a[i]); } $print($len(a)); return $len(a); }",
    "@int middle(int a, int b, int c) { if (a > b) { $int t = a; a = b; b = t; } if (b > c) { b = c; } return a > b ? a : b; }",
    "@int sumRange(int lo, int hi) { $int s = 0; for ($int i = lo; i <= hi; i++) { s += i; } return s; }",
    "@int lastIndex(int[] a, int v) { $int found = -1; for ($int i = 0; i < $len(a); i++) { if (a[i] == v) { found = i; } } return found; }",
    "@int countDown(int n) { $int c = 0; while (n > 0) { n -= 3; c += 1; } return c; }",
    "@int minOf(int a, int b) { $int m; if (a < b) { m = a; } else { m = b; } return m; }",
    "@int scoreOf(int hits, int misses) { $int s = hits * 10; s -= misses * 3; $print(s); return s < 0 ? 0 : s; }",
    "@int reverseNum(int n) { $int r = 0; while (n > 0) { r = r * 10 + n % 10; n /= 10; } return r; }",
    "@int steps(int a, int b) { $int k = 0; while (a < b) { a = a * 2; k++; } return k; }",
    "@int weighted(int[] a, int[] w) { $int top = 0; $int bottom = 0; for ($int i = 0; i < $len(a); i++) { top += a[i] * w[i]; bottom += w[i]; } return bottom == 0 ? 0 : top / bottom; }",
)

_TYPES = {
    # language: (int, double, bool, int-array param, true, false)
    "c": ("int", "double", "int", "const int *{0}, int {0}_n", "1", "0"),
    "cpp": ("int", "double", "bool", "const std::vector<int>& {0}", "true", "false"),
    "csharp": ("int", "double", "bool", "int[] {0}", "true", "false"),
    "javascript": ("let", "let", "let", "{0}", "true", "false"),
}
_LEN = {"c": "{0}_n", "cpp": "(int) {0}.size()", "csharp": "{0}.Length", "javascript": "{0}.length"}
_PRINT = {
    "c": 'printf("%d\\n", {0})',
    "cpp": 'printf("%d\\n", {0})',
    "csharp": "Console.WriteLine({0})",
    "javascript": "console.log({0})",
}


def _render(template: str, language: str) -> str:
    int_t, double_t, bool_t, array_p, true_v, false_v = _TYPES[language]
    header, body = template.split(" ", 1)[0][1:], template.split(" ", 1)[1]
    name_part, rest = body.split("(", 1)
    params, body = rest.split(")", 1)
    out_params = []
    for p in filter(None, (s.strip() for s in params.split(","))):
        kind, pname = p.split()
        if kind == "int[]":
            out_params.append(array_p.format(pname))
        elif language == "javascript":
            out_params.append(pname)
        else:
            out_params.append({"int": "int", "double": "double", "bool": bool_t}[kind] + " " + pname)
    ret = {"int": "int", "double": "double", "bool": bool_t}[header]
    if language == "javascript":
        head = f"function {name_part}({', '.join(out_params)})"
    elif language == "csharp":
        head = f"public static {ret} {name_part}({', '.join(out_params)})"
    else:
        head = f"{ret} {name_part}({', '.join(out_params)})"
    body = body.replace("$sum(a)", "total(a, a_n)" if language == "c" else "total(a)")
    body = re.sub(r"\$len\((\w+)\)", lambda m: _LEN[language].format(m.group(1)), body)
    body = re.sub(r"\$print\(([^;]*)\);", lambda m: _PRINT[language].format(m.group(1)) + ";",
                  body)
    body = (
        body.replace("$int", int_t)
        .replace("$double", double_t)
        .replace("$bool", bool_t)
        .replace("$true", true_v)
        .replace("$false", false_v)
    )
    if language == "javascript":
        body = re.sub(r"let (\w+);", r"let \1 = 0;", body)
    return head + body


def snippets(language: str) -> list[str]:
    """The hand-written snippets of ``language`` (python, c, cpp, csharp, javascript)."""
    if language == "python":
        return list(PYTHON_SNIPPETS)
    if language not in _TYPES:
        return []
    return [_render(t, language) for t in C_FAMILY_TEMPLATES]
