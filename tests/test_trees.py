"""Tree arrays and normalized ASTs."""

import pickle
import random

import pytest

from graphs import Tree, get_language, normalized_ast, parse, tree_edit_distance
from graphs.trees.ted import _arrays

# Zhang & Shasha (1989), figure 1: T1 = f(d(a, c(b)), e), postorder a b c d e f.
ZS_T1 = ("f", [("d", [("a", []), ("c", [("b", [])])]), ("e", [])])


def test_postorder_arrays():
    t = Tree.from_nested(ZS_T1)
    assert t.labels == ("a", "b", "c", "d", "e", "f")
    assert t.parents == (3, 2, 3, 5, 5, -1)
    assert t.leftmost == (0, 1, 1, 0, 4, 0)
    assert t.keyroots == (2, 4, 5)
    assert t.children == ((), (), (1,), (0, 2), (), (3, 4))
    assert len(t) == t.size() == 6
    assert t.root == 5
    assert t.depth() == 4
    assert repr(t) == "Tree(size=6, root='f')"


def test_nested_round_trip_and_shorthands():
    t = Tree.from_nested(ZS_T1)
    assert Tree.from_nested(t.to_nested()) == t
    assert Tree.from_nested(("f", [("d", ["a", ("c", ["b"])]), ("e",)])) == t
    assert Tree.from_nested("leaf").labels == ("leaf",)
    assert Tree((), ()).to_nested() is None and len(Tree((), ())) == 0


@pytest.mark.parametrize(("labels", "parents", "message"), [
    (("a", "b"), (1,), "parents"),
    (("a", "b"), (1, 0), "parent -1"),
    (("a", "b"), (-1, -1), "later postorder"),
    (("a", "b", "c"), (2, 0, -1), "later postorder"),
    (("a", "b", "c", "d"), (3, 3, 1, -1), "later postorder"),
])
def test_invalid_arrays_are_rejected(labels, parents, message):
    with pytest.raises(ValueError, match=message):
        Tree(labels, parents)


def test_non_postorder_children_rejected():
    # node 2's children are 0 and 3?  3 is after 2: rejected; and a gap in the blocks
    with pytest.raises(ValueError):
        Tree(("a", "b", "c", "d"), (2, 3, 3, -1))


def test_pickle_and_hash():
    t = normalized_ast(parse("int f(int a) { return a * 2; }", "c"))
    tree_edit_distance(t, t)  # builds the cached numpy arrays
    tree_edit_distance(t, Tree.from_nested(("snippet", ["x"])))
    clone = pickle.loads(pickle.dumps(t))
    assert clone == t and hash(clone) == hash(t)
    assert clone.positions == t.positions and clone.kinds == t.kinds
    assert "_np" not in clone.__dict__
    assert tree_edit_distance(clone, t) == 0


def test_labels_and_structure():
    t = normalized_ast(parse("x = a + 1  # note", "python"))
    assert t.to_nested() == (
        "snippet", [("expression_statement", [("assignment", [
            ("x", []), ("binary_operator:+", [("a", []), ("1", [])])])])])
    assert t.kinds == ("identifier", "identifier", "integer", "binary_operator",
                       "assignment", "expression_statement", "snippet")
    assert t.positions == ((1, 1), (1, 5), (1, 9), (1, 5), (1, 1), (1, 1), None)


def test_comments_and_whitespace_do_not_matter():
    a = normalized_ast(parse("public static int f(int a) {\n  // twice\n  return a * 2; }",
                             "java"))
    b = normalized_ast(parse("public  static int f( int a ){ /* x */ return a*2;}", "java"))
    assert a == b
    assert "public static" in a.labels


def test_operators_are_part_of_labels():
    def labels(code, lang="java"):
        return normalized_ast(parse(code, lang)).labels

    assert labels("y = a + b;") != labels("y = a - b;")
    assert labels("i++;") != labels("++i;")
    assert labels("i++;") != labels("i--;")
    assert "update_expression:_++" in labels("i++;")
    assert "update_expression:++" in labels("++i;")
    assert labels("x += 1;") != labels("x -= 1;")
    assert labels("i++;", "cs") != labels("++i;", "cs")
    assert labels("a and b", "python") != labels("a or b", "python")
    assert labels("a is not b", "python") != labels("a is b", "python")
    assert labels("!x", "c") != labels("-x", "c")


def test_literals_are_atomic_and_abstractable():
    code = 'String s = "a\\nb" + 42 + name;'
    t = normalized_ast(parse(code, "java"))
    assert '"a\\nb"' in t.labels and "42" in t.labels
    assert "string_fragment" not in t.kinds
    ab = normalized_ast(parse(code, "java"), abstract_literals=True)
    assert "string_literal" in ab.labels and "decimal_integer_literal" in ab.labels
    assert "name" in ab.labels
    ai = normalized_ast(parse(code, "java"), abstract_identifiers=True)
    assert "name" not in ai.labels and "s" not in ai.labels
    assert "identifier" in ai.labels and "type_identifier" in ai.labels
    # renaming identifiers and changing literals: distance 0 once both are abstracted
    other = 'Text t = "zz" + 7 + other;'
    both = {"abstract_identifiers": True, "abstract_literals": True}
    assert normalized_ast(parse(code, "java"), **both) == normalized_ast(
        parse(other, "java"), **both)


def test_interpolated_strings_keep_their_expressions():
    t = normalized_ast(parse('f"total {a + b}"', "python"))
    assert "binary_operator:+" in t.labels
    t = normalized_ast(parse("`x ${a + b}`", "js"))
    assert "binary_expression:+" in t.labels
    t = normalized_ast(parse('var s = $"x {a + b}";', "cs"))
    assert "binary_expression:+" in t.labels


def test_wrapper_never_reaches_the_tree():
    method = "public int size() { return n; }"
    as_given = normalized_ast(parse(method, "java", wrapper="none"))
    in_class = normalized_ast(parse(method, "java", wrapper="class_body"))
    assert as_given == in_class
    assert in_class.labels[-1] == "snippet" and "class_body" not in in_class.labels
    stmts = "int x = 1; Foo(x);"
    assert normalized_ast(parse(stmts, "cs")) == normalized_ast(
        parse(stmts, "cs", wrapper="method_body"))


@pytest.mark.parametrize("lang", ["c", "cpp", "csharp", "java", "javascript", "python"])
def test_identical_code_identical_tree(lang):
    code = {
        "python": "def f(xs):\n    return [x * 2 for x in xs if x]\n",
        "javascript": "function f(xs) { return xs.map(x => x * 2); }",
    }.get(lang, "int f(int a) { if (a > 0) { return a * 2; } return -a; }")
    a, b = normalized_ast(parse(code, lang)), normalized_ast(parse(code, lang))
    assert a == b
    assert len(a) > 10


def test_deep_tree_round_trip():
    depth = 5000
    nested = ("leaf", [])
    for _ in range(depth):
        nested = ("n", [nested])
    t = Tree.from_nested(nested)
    assert t.depth() == depth + 1
    back = t.to_nested()
    for _ in range(depth):
        back = back[1][0]
    assert back == ("leaf", [])


AST_CASES = [
    ("java", "public static int f(int a) {\n  // twice\n  return a * 2 + g(\"é\", 'x'); }"),
    ("cs", 'public override string F(int i){ var s = $"x {i++}"; return s ?? "ü"; }'),
    ("python", "def f(xs):\n    return [x * 2 for x in xs if x is not None]\n"),
    ("javascript", "function f(a) { return `x ${a + 1}` + /re/g.test(a); }"),
    ("c", "int f(int a) { if (!a) { return -a; } return a--; }"),
    ("cpp", "int f() { std::vector<int> v{1, 2}; return v[0]; }"),
    ("java", "int x = ;"),  # not clean: ERROR nodes, MISSING ones dropped
    ("java", "int x = 1"),
]


@pytest.mark.parametrize(("lang", "code"), AST_CASES)
def test_normalized_ast_arrays_equal_the_checked_constructor(lang, code):
    # normalized_ast skips the validation and derives arrays lazily; the public
    # constructor must accept its output and derive the same arrays
    parsed = parse(code, lang)
    t = normalized_ast(parsed)
    checked = Tree(t.labels, t.parents, t.kinds, t.positions)
    assert checked == t
    assert (t.children, t.leftmost, t.keyroots) == (
        checked.children, checked.leftmost, checked.keyroots)
    assert t.kinds == checked.kinds and t.positions == checked.positions


def reference_normalized_ast(parsed, abstract_identifiers=False, abstract_literals=False):
    """The straightforward form of normalized_ast (eager positions, checked constructor)."""
    lang = get_language(parsed.language)

    def keep(node):
        return node.is_named and not node.is_missing and not (
            node.type in lang.comment_types or (node.is_extra and "comment" in node.type))

    def operator(node, kept):
        if node.type in lang.operator_types:
            tokens = [c for c in node.children if not c.is_named]
        else:
            tokens = node.children_by_field_name("operator") or node.children_by_field_name(
                "operators")
            tokens = [c for c in tokens if not c.is_named]
        if not tokens:
            return ""
        op = " ".join(c.type for c in tokens)
        if len(kept) == 1 and tokens[0].start_byte >= kept[0].end_byte:
            return "_" + op
        return op

    labels, kinds, positions, parents = [], [], [], []
    stack = [[None, [n for n in parsed.nodes if keep(n)], 0, [], "snippet"]]
    while stack:
        frame = stack[-1]
        if frame[2] < len(frame[1]):
            node = frame[1][frame[2]]
            frame[2] += 1
            t = node.type
            if t in lang.literal_types and (abstract_literals or not any(
                    c.type in lang.interpolation_types for c in node.named_children)):
                kept = []
                label = t if abstract_literals else parsed.node_text(node) or t
            else:
                kept = [c for c in node.children if keep(c)]
                if kept:
                    op = operator(node, kept)
                    label = f"{t}:{op}" if op else t
                elif (abstract_identifiers and "identifier" in t) or (
                        abstract_literals and t in lang.literal_types):
                    label = t
                elif node.child_count:
                    label = " ".join(parsed.node_text(c) for c in node.children
                                     if not c.is_named) or t
                else:
                    label = parsed.node_text(node) or t
            stack.append([node, kept, 0, [], label])
            continue
        stack.pop()
        index = len(labels)
        labels.append(frame[4])
        kinds.append("snippet" if frame[0] is None else frame[0].type)
        positions.append(None if frame[0] is None else parsed.position(frame[0]))
        parents.append(-1)
        for c in frame[3]:
            parents[c] = index
        if stack:
            stack[-1][3].append(index)
    return Tree(tuple(labels), tuple(parents), tuple(kinds), tuple(positions))


def _fuzz_cases():
    rng = random.Random(11)
    alphabet = list("{}()[];:,.<>=+-*/&|!?'\"`#@$\\\n\t ") + [
        "class", "def", "if", "x", "1", "é", "\ud800", "𝔘", "/*", "//", "i++", "--"]
    for lang in ("c", "cpp", "csharp", "java", "javascript", "python"):
        for _ in range(25):
            yield lang, "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))


@pytest.mark.parametrize(("lang", "code"), AST_CASES + list(_fuzz_cases()))
def test_normalized_ast_equals_the_reference_form(lang, code):
    parsed = parse(code, lang)
    for flags in ({}, {"abstract_identifiers": True, "abstract_literals": True}):
        t = normalized_ast(parsed, **flags)
        ref = reference_normalized_ast(parsed, **flags)
        assert (t.labels, t.parents, t.kinds) == (ref.labels, ref.parents, ref.kinds)
        # lazily mapped start offsets give ParsedCode.position's answers
        assert t.positions == ref.positions
    # pickling before the first access ships the positions, not the parse
    fresh, ref = normalized_ast(parsed), reference_normalized_ast(parsed)
    clone = pickle.loads(pickle.dumps(fresh))
    assert "_lazy_positions" not in clone.__dict__
    assert clone.positions == ref.positions and clone.children == ref.children
    assert (clone.leftmost, clone.keyroots) == (ref.leftmost, ref.keyroots)


def test_mirror_arrays_describe_the_mirrored_tree():
    rng = random.Random(3)
    for size in [1, 2, 3, 5, 8, 30, 120]:
        for _ in range(20):
            kids: list[list[int]] = [[] for _ in range(size)]
            for node in range(1, size):
                kids[rng.randrange(node)].append(node)
            built: dict[int, tuple] = {}
            mirrored: dict[int, tuple] = {}
            for node in range(size - 1, -1, -1):
                built[node] = (node, [built[c] for c in kids[node]])
                mirrored[node] = (node, [mirrored[c] for c in reversed(kids[node])])
            t, m = Tree.from_nested(built[0]), Tree.from_nested(mirrored[0])
            perm, leftmost, keyroots, work = _arrays(t, mirrored=True)
            assert [t.labels[i] for i in perm] == list(m.labels)
            assert leftmost.tolist() == list(m.leftmost)
            assert keyroots.tolist() == list(m.keyroots)
            assert work == _arrays(m)[3]
