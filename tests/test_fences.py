"""Model output in a markdown code fence is read as the code inside it, by every tier."""

from __future__ import annotations

import pytest

from ruby_metric import RubyScorer
from ruby_metric.scoring.code import Code
from ruby_metric.scoring.fences import unfence

PY = "def add(a, b):\n    return a + b\n"
JAVA_SOURCE = ("public class Main { public static void main(String[] args) { "
               "java.util.Scanner sc = new java.util.Scanner(System.in); int a = sc.nextInt(); "
               "int b = sc.nextInt(); System.out.println(a + b); } }")
PY_PROGRAM = "a, b = map(int, input().split())\nprint(a + b)\n"


def test_the_fence_lines_and_the_prose_after_are_blanked_in_place():
    text = "```python\n" + PY + "```\nIt adds.\n"
    u = unfence(text)
    assert len(u.code) == len(text) and u.code.count("\n") == text.count("\n")
    lines = u.code.split("\n")
    assert lines[0].strip() == "" and lines[1:3] == PY.split("\n")[:2]
    assert lines[3].strip() == lines[4].strip() == ""
    assert (u.fence, u.trailing) == ("```python", True)
    assert u.describe() == ("code read from its markdown fence (```python); "
                            "the text after it left out")


@pytest.mark.parametrize("text,fence,trailing", [
    ("\n\n  ```py\n" + PY + "  ```\n", "  ```py", False),  # blank lines, indented fence
    ("~~~\n" + PY + "~~~\n", "~~~", False),  # tildes
    ("```java\n" + PY, "```java", False),  # cut off: no closing fence
    ("````\n" + PY + "```\n" + "````\n", "````", False),  # a longer fence holds a shorter one
])
def test_fences_of_every_kind(text, fence, trailing):
    u = unfence(text)
    assert (u.fence, u.trailing) == (fence, trailing)
    assert u.code.split() == PY.split() + (["```"] if text.startswith("````") else [])


@pytest.mark.parametrize("text", [
    PY, "", "   \n", "x = '''\n```\n'''\n", "print('```python')\n", "```python is a fence```\n"])
def test_a_text_that_does_not_start_with_a_fence_is_left_alone(text):
    u = unfence(text)
    assert u.code is text and u.fence is None and u.describe() is None


def test_every_tier_reads_the_code_inside_and_the_reasons_say_so():
    scorer = RubyScorer(language="python")
    bare = scorer.score(PY, PY)
    fenced = scorer.score(PY, "```python\n" + PY + "```\n\nThis function adds.\n")
    # 0.8 read the fence as a parse error: no structural tier, STS 0.8
    assert (fenced.ruby, fenced.tier, fenced.grs, fenced.trs, fenced.sts, fenced.bleu) == (
        bare.ruby, bare.tier, bare.grs, bare.trs, bare.sts, bare.bleu) == (
        1.0, "graph", 1.0, 1.0, 1.0, 1.0)
    note = "candidate: code read from its markdown fence (```python); the text after it left out"
    assert fenced.reasons["grs"] == fenced.reasons["trs"] == note


def test_a_fenced_translation_scores_against_its_source_as_the_bare_one():
    scorer = RubyScorer(language="python", source_language="java")
    bare = scorer.score_source(JAVA_SOURCE, PY_PROGRAM)
    fenced = scorer.score_source(JAVA_SOURCE, "```python\n" + PY_PROGRAM + "```")
    assert fenced.ruby == bare.ruby == 1.0
    assert fenced.reasons["grs"] == "candidate: code read from its markdown fence (```python)"


def test_positions_point_into_the_text_as_given():
    # the broken statement is the code's line 2, the text's line 3, at the same column
    body = "int f() {\n  int x = ;\n  return 1;\n}\n"
    assert Code(body, "java").unparsed() == "1 statement unparsed, kept as text (line 2, col 9)"
    code = Code("```java\n" + body + "```\n", "java")
    assert code.unparsed() == "1 statement unparsed, kept as text (line 3, col 9)"
    assert code.note() is not None and code.note().startswith(
        "code read from its markdown fence (```java)")
