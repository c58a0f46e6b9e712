"""Tree edit distance: exactly zss's numbers, valid mappings, real ASTs."""

import random
from pathlib import Path

import pytest
import zss

from graphs import Tree, normalized_ast, parse, tree_edit_distance, tree_edit_mapping
from graphs.trees.ted import TEDResult, _arrays, _distance, _prepare, warm_up

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
CODEXGLUE = DATASETS / "codexglue_code2code_trans"

ZS_T1 = ("f", [("d", [("a", []), ("c", [("b", [])])]), ("e", [])])
ZS_T2 = ("f", [("c", [("d", [("a", []), ("b", [])])]), ("e", [])])


def zss_distance(a: Tree, b: Tree) -> int:
    """The reference: zss with unit insert/delete costs and a 0/1 rename cost."""

    def to_zss(t: Tree) -> zss.Node:
        nodes = [zss.Node(label) for label in t.labels]
        for i, kids in enumerate(t.children):
            for c in kids:
                nodes[i].addkid(nodes[c])
        return nodes[-1]

    return zss.distance(
        to_zss(a), to_zss(b), zss.Node.get_children,
        insert_cost=lambda n: 1, remove_cost=lambda n: 1,
        update_cost=lambda x, y: 0 if x.label == y.label else 1,
    )


def random_tree(rng: random.Random, size: int, alphabet: str) -> Tree:
    """A uniformly shaped random tree: each new node hangs under a random earlier one."""
    kids: list[list[int]] = [[] for _ in range(size)]
    for node in range(1, size):
        kids[rng.randrange(node)].append(node)
    nested: dict[int, tuple] = {}
    for node in range(size - 1, -1, -1):
        nested[node] = (rng.choice(alphabet), [nested[c] for c in kids[node]])
    return Tree.from_nested(nested[0])


def assert_valid_mapping(result: TEDResult, a: Tree, b: Tree) -> None:
    """Every node once; pairs preserve ancestry and left-to-right order; cost = distance."""
    mapped_a = [i for i, _ in result.mapping if i is not None]
    mapped_b = [j for _, j in result.mapping if j is not None]
    assert sorted(mapped_a) == list(range(len(a)))
    assert sorted(mapped_b) == list(range(len(b)))
    pairs = [(i, j) for i, j in result.mapping if i is not None and j is not None]

    def is_ancestor(t: Tree, x: int, y: int) -> bool:  # x is a proper ancestor of y
        return t.leftmost[x] <= y < x

    for i1, j1 in pairs:
        for i2, j2 in pairs:
            if i1 == i2:
                continue
            assert is_ancestor(a, i1, i2) == is_ancestor(b, j1, j2)
            # postorder: i1 before i2 and not an ancestor -> i1 is to the left
            assert (i1 < i2) == (j1 < j2)
    cost = sum(1 for i, j in result.mapping if i is None or j is None)
    cost += sum(1 for i, j in pairs if a.labels[i] != b.labels[j])
    assert cost == result.distance == len(result.operations)


def test_zhang_shasha_paper_example():
    assert tree_edit_distance(ZS_T1, ZS_T2) == 2
    assert tree_edit_distance(Tree.from_nested(ZS_T1), Tree.from_nested(ZS_T2)) == 2
    result = tree_edit_mapping(ZS_T1, ZS_T2)
    assert result.distance == 2
    assert_valid_mapping(result, Tree.from_nested(ZS_T1), Tree.from_nested(ZS_T2))


def test_small_cases():
    assert tree_edit_distance("a", "a") == 0
    assert tree_edit_distance("a", "b") == 1
    assert tree_edit_distance(("a", ["b"]), "a") == 1
    assert tree_edit_distance(Tree((), ()), ("a", ["b", "c"])) == 3
    assert tree_edit_distance(("a", ["b", "c"]), Tree((), ())) == 3
    assert tree_edit_distance(Tree((), ()), Tree((), ())) == 0
    empty = tree_edit_mapping(Tree((), ()), ("a", ["b"]))
    assert empty.distance == 2 and empty.mapping == ((None, 0), (None, 1))
    with pytest.warns(DeprecationWarning, match="normalized_similarity"):
        assert tree_edit_mapping(Tree((), ()), Tree((), ())).similarity == 1.0
    # labels need not be strings
    assert tree_edit_distance((1, [2, 3]), (1, [3])) == 1


def test_operations_are_readable():
    a = normalized_ast(parse("int f(int a) {\n  return a + 1;\n}", "c"))
    b = normalized_ast(parse("int f(int a) {\n  return a - 2;\n}", "c"))
    result = tree_edit_mapping(a, b)
    assert result.distance == 2
    text = sorted(str(op) for op in result.operations)
    assert text == ["rename '1' -> '2' at line 2, col 14",
                    "rename 'binary_expression:+' -> 'binary_expression:-' at line 2, col 10"]
    assert (result.size_a, result.size_b) == (len(a), len(b))
    # deprecated (normalization is ruby_metric's), still the TRS formula
    with pytest.warns(DeprecationWarning, match="graphs returns distances and sizes only"):
        assert result.similarity == 1 - 2 / (len(a) + len(b))


def test_equals_zss_on_random_trees():
    rng = random.Random(20240501)
    checked = 0
    orientations = set()
    for round_ in range(600):
        # small alphabets make matches common, which exercises every branch
        alphabet = "ab" if round_ % 3 == 0 else "abcdef"
        a = random_tree(rng, rng.randint(1, 30), alphabet)
        b = random_tree(rng, rng.randint(1, 30), alphabet)
        expected = zss_distance(a, b)
        assert tree_edit_distance(a, b) == expected, (a.to_nested(), b.to_nested())
        assert tree_edit_distance(b, a) == expected
        if round_ % 4 == 0:
            result = tree_edit_mapping(a, b)
            assert result.distance == expected
            assert_valid_mapping(result, a, b)
        # the kernel runs on the trees or on their mirror images, whichever is cheaper
        orientations.add(_prepare(a, b)[1][0] is None)
        checked += 1
    assert checked == 600
    assert orientations == {True, False}


def subtree(t: Tree, k: int) -> Tree:
    """The subtree rooted at node k: the postorder block ending at k."""
    first = t.leftmost[k]
    return Tree(t.labels[first:k + 1], [p - first for p in t.parents[first:k]] + [-1])


def test_tree_distance_table_is_exact_for_every_subtree_pair():
    # Leaf keyroots get closed-form rows and columns instead of Zhang–Shasha subproblems;
    # the mapping backtracks through the table, so every entry must be the exact distance,
    # including entries the final distance never reads.
    rng = random.Random(11)
    for round_ in range(60):
        alphabet = "ab" if round_ % 2 else "abcd"
        a = random_tree(rng, rng.randint(1, 12), alphabet)
        b = random_tree(rng, rng.randint(1, 12), alphabet)
        args, (p1, p2) = _prepare(a, b)
        p1 = range(len(a)) if p1 is None else p1.tolist()  # kernel index -> node
        p2 = range(len(b)) if p2 is None else p2.tolist()
        td = args[6]
        assert _distance(*args) == zss_distance(a, b)
        # mirroring both subtrees leaves their distance unchanged
        for k1, i in enumerate(p1):
            for k2, j in enumerate(p2):
                assert td[k1, k2] == zss_distance(subtree(a, i), subtree(b, j))


def test_kernel_arrays_of_an_empty_tree():
    for mirrored in (False, True):
        perm, leftmost, keyroots, work = _arrays(Tree((), ()), mirrored=mirrored)
        assert leftmost.size == keyroots.size == work == 0


def test_shapes_zss_handles_badly():
    # chains and stars: deepest and widest keyroot structures
    chain = ("x", [])
    for i in range(25):
        chain = ("ab"[i % 2], [chain])
    star = ("a", [("ab"[i % 2], []) for i in range(25)])
    for a, b in [(chain, star), (star, chain), (chain, chain), (star, ("a", ["b"]))]:
        ta, tb = Tree.from_nested(a), Tree.from_nested(b)
        assert tree_edit_distance(ta, tb) == zss_distance(ta, tb)
        assert_valid_mapping(tree_edit_mapping(ta, tb), ta, tb)


# Code written for these tests: a reference and two candidates a translation model might
# produce (restructured loop; renamed and partly wrong).
REFERENCE = """
public static int countMatches(List<String> words, String prefix, boolean ignoreCase) {
    int count = 0;
    for (String w : words) {
        if (w == null) { continue; }
        String a = ignoreCase ? w.toLowerCase() : w;
        String b = ignoreCase ? prefix.toLowerCase() : prefix;
        if (a.startsWith(b)) { count++; }
    }
    return count;
}
"""
CANDIDATES = [
    """
public static int countMatches(List<String> words, String prefix, boolean ignoreCase) {
    int count = 0;
    for (int i = 0; i < words.size(); i++) {
        String w = words.get(i);
        if (w == null) continue;
        if ((ignoreCase ? w.toLowerCase() : w).startsWith(prefix)) { count += 1; }
    }
    return count;
}
""",
    """
static int CountMatches(List<String> items, String p) {
    int n = 0;
    for (String s : items) { if (s.startsWith(p)) { n++; } }
    return n;
}
""",
]


def test_equals_zss_on_real_asts():
    ref = normalized_ast(parse(REFERENCE, "java"))
    assert 50 <= len(ref) <= 160
    for cand_code in CANDIDATES:
        cand = normalized_ast(parse(cand_code, "java"))
        expected = zss_distance(ref, cand)
        assert tree_edit_distance(ref, cand) == expected
        result = tree_edit_mapping(ref, cand)
        assert result.distance == expected
        assert_valid_mapping(result, ref, cand)


@pytest.mark.skipif(not CODEXGLUE.is_dir(),
                    reason=f"CodeXGLUE code2code data not found at {CODEXGLUE}")
def test_equals_zss_on_codexglue_pairs():
    gold = (CODEXGLUE / "model_outputs" / "java-cs-model1.gold").read_text("utf-8").split("\n")
    out = (CODEXGLUE / "model_outputs" / "java-cs-model1.output").read_text("utf-8").split("\n")
    checked = 0
    for ref_code, cand_code in zip(gold, out, strict=False):
        ref, cand = parse(ref_code, "cs"), parse(cand_code, "cs")
        if not (ref.ok and cand.ok):
            continue
        a, b = normalized_ast(ref), normalized_ast(cand)
        if not (80 <= len(a) <= 150 and 80 <= len(b) <= 150) or a == b:
            continue
        assert tree_edit_distance(a, b) == zss_distance(a, b)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize("lang,code", [
    ("java", REFERENCE),
    ("csharp", "public int Sum(int[] xs){int s = 0;foreach (var x in xs){s += x;}return s;}"),
    ("python", "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"),
    ("c", "int sum(int *xs, int n) { int s = 0; for (int i = 0; i < n; i++) s += xs[i]; "
          "return s; }"),
    ("cpp", "int sum(const std::vector<int>& xs) { int s = 0; for (int x : xs) s += x; "
            "return s; }"),
    ("javascript", "function sum(xs) { let s = 0; for (const x of xs) { s += x; } return s; }"),
])
def test_identical_code_distance_zero_similarity_one(lang, code):
    a, b = normalized_ast(parse(code, lang)), normalized_ast(parse(code, lang))
    assert tree_edit_distance(a, b) == 0
    result = tree_edit_mapping(a, b)
    assert result.distance == 0 and result.size_a == result.size_b == len(a)
    assert result.operations == ()
    # a different tree object with equal content goes through the kernel, not the shortcut
    c = Tree(a.labels[:-1] + ("other",), a.parents)
    assert tree_edit_distance(a, c) == 1


def test_deep_trees():
    depth = 5000
    nested = ("leaf", [])
    for _ in range(depth):
        nested = ("n", [nested])
    deep = Tree.from_nested(nested)
    assert tree_edit_distance(deep, ("n", ["leaf"])) == depth - 1
    result = tree_edit_mapping(deep, ("n", [("n", ["leaf"])]))
    assert result.distance == depth - 2
    parsed = parse("x = " + "(" * depth + "a" + ")" * depth + ";", "java")
    t = normalized_ast(parsed)
    assert tree_edit_distance(t, normalized_ast(parse("x = a;", "java"))) == depth


def test_warm_up_reports_time():
    assert warm_up() >= 0.0
