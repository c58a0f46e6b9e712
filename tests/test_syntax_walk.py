"""graphs.lang.syntax.walk (plain and pruned) and graphs.lang.syntax.leaves against recursive
definitions, on code of every language, clean and broken."""

import pytest

from graphs import parse
from graphs.lang.syntax import leaves, walk
from graphs.repair.containment import error_count

SNIPPETS = {
    "java": ["int f(int[] a) { int s = 0; for (int x : a) { s += x; } return s; }",
             "void g() { if (a) { h(1; } else { k(); } }"],
    "csharp": ["public int F(int n) { var xs = new List<int>(); foreach (var x in xs) n++; "
               "return n; }", "void G() { H(a, ; }"],
    "python": ["def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
               "def g(:\n    return 1\n"],
    "c": ["int f(int n) { int s = 0; while (n--) s += n; return s; }", "int g() { h(1 }"],
    "cpp": ["int f(std::vector<int> v) { int s = 0; for (auto x : v) s += x; return s; }",
            "int g() { return (a + ; }"],
    "javascript": ["function f(xs) { let s = 0; for (const x of xs) s += x; return s; }",
                   "function g() { h([1, 2; }"],
}
CASES = [(lang, code) for lang, codes in SNIPPETS.items() for code in codes]


def _preorder(node, descend=None):
    out = [node]
    if descend is None or descend(node):
        for child in node.children:
            out.extend(_preorder(child, descend))
    return out


def _leaves(node, lo, hi):
    if node.end_byte <= lo or node.start_byte >= hi:
        return []
    if not node.child_count:
        return [] if node.is_missing else [node]
    return [leaf for child in node.children for leaf in _leaves(child, lo, hi)]


def _ids(nodes):
    return [(n.type, n.start_byte, n.end_byte) for n in nodes]


@pytest.mark.parametrize(("lang", "code"), CASES)
def test_walk_is_the_preorder(lang, code):
    root = parse(code, lang).tree.root_node
    assert _ids(walk(root)) == _ids(_preorder(root))


@pytest.mark.parametrize(("lang", "code"), CASES)
def test_pruned_walk_stops_below_the_nodes_it_is_told(lang, code):
    root = parse(code, lang).tree.root_node
    for descend in (lambda n: n.has_error, lambda n: "statement" not in n.type,
                    lambda n: n.is_named, lambda n: False):
        assert _ids(walk(root, descend)) == _ids(_preorder(root, descend))
    assert _ids(walk(root, lambda n: False)) == _ids([root])


@pytest.mark.parametrize(("lang", "code"), CASES)
def test_leaves_in_a_byte_range(lang, code):
    root = parse(code, lang).tree.root_node
    end = root.end_byte
    for lo, hi in ((0, end), (3, end - 4), (end // 2, end // 2 + 1), (5, 5)):
        assert _ids(leaves(root, lo, hi)) == _ids(_leaves(root, lo, hi))


def test_walk_by_hand():
    root = parse("x = f(a) + 1;", "java").nodes[0]
    assert [n.type for n in walk(root)] == [
        "expression_statement", "assignment_expression", "identifier", "=",
        "binary_expression", "method_invocation", "identifier", "argument_list", "(",
        "identifier", ")", "+", "decimal_integer_literal", ";"]
    # below the call nothing: its callee and arguments are left out, the call is not
    assert [n.type for n in walk(root, lambda n: n.type != "method_invocation")] == [
        "expression_statement", "assignment_expression", "identifier", "=",
        "binary_expression", "method_invocation", "+", "decimal_integer_literal", ";"]


def test_leaves_leave_out_missing_tokens():
    parsed = parse("int f() { return g(a; }", "java")
    root = parsed.tree.root_node
    every = [n for n in walk(root) if not n.child_count]
    assert any(n.is_missing for n in every)  # tree-sitter invented the `)`
    got = [n.text.decode() for n in leaves(root, 0, root.end_byte)]
    assert got == ["int", "f", "(", ")", "{", "return", "g", "(", "a", ";", "}"]
    # a range cuts leaves that overlap it in, not only those inside it
    assert [n.text.decode() for n in leaves(root, 1, 5)] == ["int", "f"]


def test_walk_does_not_recurse():
    code = "int x = " + "(" * 3000 + "1" + ")" * 3000 + ";"
    root = parse(code, "java").tree.root_node
    assert sum(1 for n in walk(root) if n.type == "parenthesized_expression") == 3000


def test_error_count_stops_past_the_limit():
    broken = "void f() { " + " ".join(f"a{i} = (b; " for i in range(6)) + "}"
    parsed = parse(broken, "java")
    total = error_count(parsed, 100)
    assert total >= 6
    assert error_count(parsed, 2) == 3
    assert error_count(parsed, total) == total
