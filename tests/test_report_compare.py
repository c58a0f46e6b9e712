"""``ruby-metric meta compare ... --html``: the model-vs-model page."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import FIXTURES, HYPS, REFS
from cli_helpers import run as _run_main
from test_html_report import _load

from ruby_metric import RubyScorer
from ruby_metric.meta import compare_systems
from ruby_metric.pages import compare_page
from ruby_metric.reports.compare import compare_report

# A = the fixture candidates, B = the references themselves (a perfect system)
ARGS = ("meta", "compare", REFS, HYPS, REFS, "--lang", "cs", "--trials", "999", "--bootstrap")


def run(capsys, *argv):
    try:
        return _run_main(capsys, *argv)
    except SystemExit as exc:
        out, err = capsys.readouterr()
        return exc.code, out, err


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """The page and the JSON of one ``meta compare --html`` run."""
    import contextlib
    import io

    from ruby_metric.cli.app import main

    folder = tmp_path_factory.mktemp("compare")
    page = folder / "compare.html"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([str(a) for a in (*ARGS, "200", "--html", page, "-f", "json", "-q")])
    assert code == 0
    return page, json.loads(out.getvalue())


def test_page_loads_cleanly_with_every_section(compared, tmp_path):
    page, _ = compared
    dom, console = _load(page, tmp_path)
    assert console == []
    for section in ("significance", "scatter", "differing"):
        assert f'<section id="{section}">' in dom
    assert dom.count('<svg class="plot scatter"') == 6
    # pairs 0, 2, 3 and 4 are exact copies of the reference and pair 8 scores RUBY 1.0 (a
    # switch against its if chain): RUBY differs on the other five
    assert dom.count('<details class="pair"') == 5
    assert f">{HYPS}</span>" in dom and f">{REFS}</span>" in dom


def test_numbers_equal_the_json_and_the_text_command(compared, capsys):
    page, data = compared
    html = page.read_text(encoding="utf-8")
    for metric, result in data["metrics"].items():
        row = re.search(rf'<tr id="cmp-{metric}">(.*?)</tr>', html).group(1)
        values = re.findall(r'data-value="([^"]+)"', row)
        assert [float(v) for v in values] == [
            result["score_a"],
            result["score_b"],
            result["difference"],
        ]
    ruby = re.search(r'<tr id="cmp-ruby">(.*?)</tr>', html).group(1)
    # system A's pair 5 is repaired (GRS 0.9353 instead of STS 0.8958)
    assert ">0.8260<" in ruby and ">-0.1740<" in ruby and "[-0.3897, -0.0391]" in ruby
    # B wins TRS with every test under 0.05; RUBY's t-test (0.1086) is not
    trs = re.search(r'<tr id="cmp-trs">(.*?)</tr>', html).group(1)
    assert 'class="num win" data-value="1.0"' in trs
    assert 'class="num win"' not in ruby
    # --html does not change what the command prints
    code, out, _ = run(capsys, *ARGS, "200", "-f", "json")
    assert code == 0 and json.loads(out)["metrics"] == data["metrics"]


def test_pairs_that_differ_most_show_both_candidates(compared):
    html = compared[0].read_text(encoding="utf-8")
    first = re.search(r'<details class="pair" id="differ-1">(.*?)</details>', html).group(1)
    assert 'pair <code class="pid">9</code>' in first and "B better by 1.0000" in first
    assert "RUBY tier: A string, B graph" in first
    refs = REFS.read_text(encoding="utf-8").splitlines()
    assert first.count("<pre>") == 3
    assert "<pre></pre>" in first  # A's empty output on line 10
    assert refs[9].replace('"', "&quot;") in first
    ranked = re.findall(r'id="differ-\d+"><summary>#\d+ · pair <code class="pid">(\d+)</code>',
                        html)
    # gaps 1.0, 0.2836, 0.2200 (pair 6, a swap through a temporary in the other order),
    # 0.1721, 0.0647 (pair 5, repaired: GRS 0.9353); pair 8 is a switch against its if
    # chain, the same graph: RUBY does not differ
    assert ranked == ["9", "1", "6", "7", "5"]


def test_same_input_same_page_and_top(tmp_path, capsys, compared):
    again = tmp_path / "again.html"
    code, _, err = run(capsys, *ARGS, "200", "--html", again, "-q", "--workers", "2")
    assert code == 0, err
    assert again.read_bytes() == compared[0].read_bytes()
    code, _, _ = run(capsys, *ARGS, "200", "--html", again, "-q", "--top", "2")
    assert code == 0 and again.read_text(encoding="utf-8").count('<details class="pair"') == 2


def test_bad_input(tmp_path, capsys):
    code, _, err = run(capsys, *ARGS, "200", "--html", tmp_path / "no" / "x.html")
    assert code == 2 and "cannot write" in err and "Traceback" not in err
    short = FIXTURES / "cs_to_java" / "candidates.java"
    code, _, err = run(
        capsys, "meta", "compare", REFS, HYPS, short, "--lang", "cs", "--html", tmp_path / "x.html"
    )
    assert code == 2 and "line-aligned" in err and not (tmp_path / "x.html").exists()
    code, _, err = run(capsys, *ARGS, "200", "--html", tmp_path / "x.html", "--top", "-1")
    assert code == 2 and "--top" in err


def test_library_equals_compare_systems_and_draws_density_when_large(monkeypatch):
    scorer = RubyScorer("java", metrics=["ruby", "sts", "bleu"])
    refs = ["int a = b + c;", "return x * y;", "f(1, 2);", "int s = 0;"]
    sys_a = ["int a = b + c;", "return x;", "f(1, 2);", "int s;"]
    sys_b = ["int a = b - c;", "return x * y;", "f();", "int s = 0;"]
    page = compare_report(scorer, refs, sys_a, sys_b, trials=99, bootstrap=50, names=("x", "y"))
    direct = compare_systems(scorer, refs, sys_a, sys_b, trials=99, bootstrap=50)
    assert page.comparison.to_dict()["metrics"] == direct.to_dict()["metrics"]
    # RUBY (GRS v4, locals aligned) gaps: 0.7309 (pair 2), 0.4444 (1), 0.4444 (3), 0.2305
    # (0: `int a = b - c` for `int a = b + c`, one operator, its local under one name)
    assert [d.index for d in page.differing] == [2, 1, 3, 0]
    assert [d.result_b.ruby for d in page.differing] == pytest.approx(
        [0.2690972222222222, 1.0, 1.0, 0.76953125])
    monkeypatch.setattr(compare_page, "MAX_POINTS", 2)
    html = page.to_html()
    assert "<circle" not in html and html.count('<svg class="plot density"') == 3
    with pytest.raises(ValueError, match="must be aligned"):
        compare_report(scorer, refs, sys_a[:2], sys_b)
    with pytest.raises(ValueError, match="not among the metrics"):
        compare_report(scorer, refs, sys_a, sys_b, differ_by="grs")


def test_p_values_at_the_floor_are_bounds_and_too_few_pairs_no_test():
    scorer = RubyScorer("java", metrics=["sts"])
    refs = ["int a = b + c;", "return x * y;", "f(1, 2);", "int s = 0;"] * 3
    bad = ["return 0;"] * len(refs)
    page = compare_report(scorer, refs, refs, bad, trials=199, bootstrap=300)
    sts = re.search(r'<tr id="cmp-sts">(.*?)</tr>', page.to_html()).group(1)
    # A wins all 12 pairs: 0 of 300 resamples, no trial as extreme as the observed split
    assert '<td class="num">&lt;= 5e-03</td><td class="num">&lt; 3.4e-03</td>' in sts
    assert "not applicable" not in page.to_html()
    one = compare_report(scorer, refs[:1], refs[:1], bad[:1], trials=199, bootstrap=300)
    html = one.to_html()
    sts = re.search(r'<tr id="cmp-sts">(.*?)</tr>', html).group(1)
    assert sts.count('<td class="num">-</td>') == 4  # the interval and the three p-values
    assert 'class="num win"' not in sts
    assert (
        '<p class="note not-applicable">p boot and CI not applicable for STS: 1 pair, needs 4: '
        "the only resample is the pair itself</p>" in html
    )
    assert html.count('<p class="note not-applicable">') == 3
