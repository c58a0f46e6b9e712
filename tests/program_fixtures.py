"""Whole stdin/stdout Java programs generated from a seed, for tests of pages that show
whole programs (no dataset needed: the statements are drawn from a fixed menu)."""

from __future__ import annotations

import random


def program(rng: random.Random, name: str) -> str:
    """A whole stdin/stdout Java program of 40-90 lines, its statements drawn by rng."""
    helpers = []
    for h in range(rng.randint(2, 4)):
        body = []
        for k in range(rng.randint(3, 8)):
            v = f"v{h}{k}"
            body.append(rng.choice([
                f"        int {v} = a * {rng.randint(2, 9)} + b;",
                f"        long {v} = (long) a * b % {rng.randint(7, 1000003)};",
                f"        for (int i = 0; i < a; i++) {{ b += i * {rng.randint(1, 5)}; }}",
                "        if (a > b) { a -= b; } else { b -= a; }",
                f"        StringBuilder {v} = new StringBuilder(); "
                f"{v}.append(a).append(' ').append(b);",
            ]))
        helpers.append(f"    static int helper{h}(int a, int b) {{\n" + "\n".join(body)
                       + f"\n        return a + b * {rng.randint(1, 9)};\n    }}\n")
    main = ["        Scanner sc = new Scanner(System.in);",
            "        int t = sc.nextInt();",
            "        for (int c = 1; c <= t; c++) {",
            "            int n = sc.nextInt();",
            "            int m = sc.nextInt();"]
    for _ in range(rng.randint(3, 9)):
        main.append(rng.choice([
            f"            n = helper{rng.randint(0, len(helpers) - 1)}(n, m);",
            f"            m = Math.max(m, n % {rng.randint(2, 97)});",
            "            int[] arr = new int[n + 1]; "
            "for (int i = 0; i <= n; i++) arr[i] = sc.nextInt();",
            f"            while (n > {rng.randint(1, 9)}) {{ n /= 2; m++; }}",
        ]))
    main.append('            System.out.println("Case #" + c + ": " + n + " " + m);')
    main.append("        }")
    return ("import java.util.*;\nimport java.io.*;\n\npublic class " + name + " {\n"
            + "\n".join(helpers) + "\n    public static void main(String[] args) {\n"
            + "\n".join(main) + "\n    }\n}\n")


def program_pairs(count: int, seed: int = 7) -> tuple[list[str], list[str], list[str]]:
    """``count`` pairs of unrelated whole programs: references, candidates, and long ids
    shaped like paths (``solutions/model-0/problem_000/Solution0.java~Main0.java``)."""
    rng = random.Random(seed)
    refs = [program(rng, f"Solution{i}") for i in range(count)]
    cands = [program(rng, f"Main{i}") for i in range(count)]
    ids = [f"solutions/model-{i % 3}/problem_{i:03d}/Solution{i}.java~Main{i}.java"
           for i in range(count)]
    return refs, cands, ids
