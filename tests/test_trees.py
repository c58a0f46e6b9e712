"""Tree arrays and normalized ASTs."""

import pickle

import pytest

from graphs import Tree, normalized_ast, parse, tree_edit_distance

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
