"""The HTML explanation page: escaping, self-containment, determinism, and a real browser.

The browser tests run Debian's ``chromium`` headless (``apt-get install chromium``; CI
installs it) and skip with a message where it is absent. A page is clean when chromium's
log has no console line at all: the page has no script, and its Content-Security-Policy
turns any attempt to fetch or run something into a console message, so any such line is an
error. Two tests inject a fault on purpose to prove the check catches it.
"""

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from ruby_metric import RubyScorer
from ruby_metric.api.explain import NodeMatch, Pdg
from ruby_metric.pages.pair_page import pdg_svg, render_html, write_html

REF = """int sum(int[] values) {
    int total = 0; // </script> <b>bold</b>
    for (int i = 0; i < values.length; i++) {
        if (values[i] > 0) {
            total += values[i];
        }
    }
    String s = "</script><script>alert(1)</script>";
    return total;
}
"""
CAND = """int sum(int[] xs) {
    int acc = 0;
    for (int i = 0; i < xs.length; i++) {
        acc += xs[i];
    }
    log("<b>done</b> & \\u0000");
    return acc;
}
"""
METRICS = ("ruby", "grs", "trs", "sts", "crystalbleu", "bleu")


@pytest.fixture(scope="module")
def explanation():
    return RubyScorer("java").explain(REF, CAND)


@pytest.fixture(scope="module")
def page(explanation):
    return render_html(explanation)


# -- without a browser ----------------------------------------------------------------------------


def test_code_text_is_escaped(page):
    assert re.search(r"<\s*script", page, re.IGNORECASE) is None
    assert "<b>" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page and "&lt;b&gt;done&lt;/b&gt; &amp;" in page


def test_control_characters_cannot_break_the_page():
    e = RubyScorer("java").explain("int a = 1;", "int a = 1; /* \x00\x07 \ud800 */")
    page = render_html(e)
    assert not re.search("[\x00-\x08\ud800-\udfff]", page)
    page.encode("utf-8")  # a lone surrogate would raise here


def test_page_is_self_contained(page):
    # The SVG namespace is a name, not a fetch; nothing else may point outside the page.
    outside = re.findall(r"(?:https?:|ftp:|//[a-z])[^\s\"'<>]*", page)
    assert set(outside) <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r"\b(?:src|href)\s*=", page)
    assert re.findall(r"url\(([^)]*)\)", page) and all(
        u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", page)
    )
    assert "default-src 'none'" in page


def test_page_shows_every_metric(page, explanation):
    r = explanation.result
    for metric in METRICS:
        value = getattr(r, metric)
        assert f'<div class="value" id="value-{metric}">{value:.4f}</div>' in page


def test_not_applicable_tiers_show_the_reason():
    e = RubyScorer("java").explain("int a = 1;", "int a = ;")
    page = render_html(e)
    assert '<div class="value" id="value-grs">n/a</div>' in page
    assert '<div class="note">candidate: parse error at line 1, col 7</div>' in page
    assert "n/a: parse error at line 1, col 7</div>" in page  # the candidate PDG panel
    assert page.count('<svg class="pdg"') == 1  # the reference PDG is still drawn


def test_token_differences_are_marked(page):
    assert '<span class="t-rep">values</span>' in page
    assert '<span class="t-rep">if</span><span class="t-del">(</span>' not in page  # spaced
    # a run of deleted tokens on one line is one span, the blanks between them marked too
    assert '<span class="t-rep">if</span> <span class="t-del">(values[i] &gt; 0) {</span>' in page
    assert '<span class="t-del">&quot;&lt;/script&gt;&lt;script&gt;' in page
    assert page.count('class="t-') >= 10


def test_deterministic_across_processes(page, tmp_path):
    # Hash randomization must not leak into the page: render in a fresh interpreter.
    target = tmp_path / "other.html"
    script = (
        "import sys; from ruby_metric import RubyScorer; from ruby_metric.pages.pair_page import "
        "write_html; write_html(RubyScorer('java').explain(sys.argv[1], sys.argv[2]), sys.argv[3])"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run([sys.executable, "-c", script, REF, CAND, str(target)], check=True, env=env)
    assert target.read_bytes() == page.encode("utf-8")
    write_html(RubyScorer("java").explain(REF, CAND), tmp_path / "again.html")
    assert (tmp_path / "again.html").read_bytes() == target.read_bytes()


def test_pdg_svg_of_a_hand_made_graph():
    g = nx.MultiDiGraph()
    g.add_node(0, label="entry", text="void f()", line=1, kind="entry")
    g.add_node(1, label="while (v0 > 0)", text="while (n > 0)", line=2, kind="while")
    g.add_node(2, label="v0--", text="n--; // " + "x" * 200, line=3, kind="statement")
    g.add_edge(0, 1, type="control")
    g.add_edge(1, 1, type="control")  # loop predicates control themselves
    g.add_edge(1, 2, type="control")
    g.add_edge(2, 1, type="data", var="v0")
    g.add_edge(2, 2, type="data", var="v0")
    g.add_edge(2, 1, type="data", var="v1")  # parallel data edge
    svg = pdg_svg(
        Pdg.from_graph(g),
        {0: "match", 1: "relabel", 2: "insert"},
        Counter({(2, 1, "data"): 1}),
        prefix="t",
    )
    assert svg.startswith('<svg class="pdg"') and svg.endswith("</svg>")
    assert svg.count("<rect") == 3 and svg.count('class="control') == 3
    assert svg.count('class="data unmatched"') == 1 and svg.count('class="data"') == 2
    assert 'class="node n-relabel"' in svg and 'class="node n-insert"' in svg
    assert 'marker-end="url(#t-ah-control)"' in svg
    shown = re.findall(r'<text x="[\d.]+" y="[\d.]+">([^<]*)</text>', svg)
    assert shown[2].startswith("n--; // xxx") and shown[2].endswith("\u2026")  # truncated
    assert len(shown[2]) < 60
    # nodes top to bottom in line order
    ys = [float(y) for y in re.findall(r'<rect x="[\d.]+" y="([\d.]+)"', svg)]
    assert ys == sorted(ys)


def test_pdg_svg_shows_branch_outcomes_effects_and_costs():
    g = nx.MultiDiGraph()
    g.add_node(0, label="void f(int)", text="void f(int x)", line=1, kind="entry")
    g.add_node(1, label="if (v0 > 0)", text="if (x > 0)", line=2, kind="if")
    g.add_node(2, label="a()", text="a();", line=3, kind="statement")
    g.add_node(3, label="b()", text="b();", line=5, kind="statement")
    g.add_node(4, label="c()", text="c();", line=6, kind="statement")
    g.add_edge(0, 1, type="control", dep="control")
    g.add_edge(1, 2, type="control", dep="control-true")
    g.add_edge(1, 3, type="control", dep="control-false")
    g.add_edge(0, 4, type="control", dep="control")
    g.add_edge(2, 4, type="data", var="<effects>", dep="effect")
    g.add_edge(3, 4, type="data", var="<effects>", dep="effect")
    status = {
        0: NodeMatch(0, 0, "match", 0.0),
        2: NodeMatch(2, 2, "relabel", 0.25),
        3: NodeMatch(3, 3, "replace", 1.0),
    }
    svg = pdg_svg(Pdg.from_graph(g), status, Counter({(3, 4, "effect"): 1}), prefix="t")
    # branch outcomes next to the controlled nodes
    assert re.findall(r'<text class="br"[^>]*>([TF])<title>', svg) == ["T", "F"]
    assert "<title>control (true) 1 \u2192 2</title>" in svg
    # effect edges: their own class, marker and colour; the unmatched one flagged
    assert svg.count('class="effect"') == 1 and svg.count('class="effect unmatched"') == 1
    assert 'marker-end="url(#t-ah-effect)"' in svg and "(&lt;effects&gt;)" not in svg
    assert 'class="data' not in svg
    # graded relabel cost and the unrelated replacement on the boxes
    assert 'class="node n-relabel"' in svg and 'class="node n-replace"' in svg
    assert re.search(r'<text class="cost"[^>]*>0.25</text>', svg)
    assert re.search(r'<text class="cost"[^>]*>unrelated</text>', svg)
    assert "mapping: relabel 0.25" in svg
    assert "mapping: replace 1 (unrelated statements: nothing in common)" in svg


def test_page_shows_graded_costs_branches_effects_and_replacements():
    java = RubyScorer("java")
    # a one-token change (a graded relabel) and an unrelated statement (replace) in one pair
    e = java.explain(
        "int f(int x) { print(x + 1); return x; }",
        "int f(int x) { print(x - 1); g(); }",
    )
    costs = sorted((m.status, m.cost) for m in e.graph.mapping if m.status != "match")
    # "print(v0 + 1)" vs "print(v0 - 1)" (6 tokens each, R = P = chrF): d = 1 - chrF =
    # 0.3213, (6 + 6) * d = 3.856 -> 247/64; "return v0" (2 tokens) vs "g()" (3): no
    # character in common, d = 1, both weights 2 + 3
    assert costs == [("relabel", 247 / 64), ("replace", 5.0)]
    page = render_html(e)
    assert ('<td class="k-relabel">relabel 3.85938</td><td>3.85938</td><td>6</td><td>6</td>'
            "<td>0.3213</td>") in page
    assert (
        '<td class="k-replace unrelated">replace 5 (unrelated statements: nothing in common)'
        "</td><td>5</td><td>2</td><td>3</td><td>1</td>" in page
    )
    assert '<span class="t-unr">replaced: unrelated statements</span>' in page
    assert "relabeled (cost 3.85938), 1 replaced by an unrelated statement" in page
    assert "GRS = (1 + 2^2) * " in page and "(beta 2)" in page  # the formula, by numbers
    assert '<span class="dep">effect</span>' in page  # g() joins the chain of effects
    assert '<span class="sw-eff"></span> effect' in page and "(T / F:" in page

    swapped = java.explain(
        "void f(int x, int y) { if (x > 0) { print(x); } else { print(y); } }",
        "void f(int x, int y) { if (x > 0) { print(y); } else { print(x); } }",
    )
    page = render_html(swapped)
    assert page.count('<text class="br"') == 4  # T and F in each PDG
    assert page.count('<path class="control unmatched"') == 4  # both retypes, both sides
    assert '<span class="dep">control (true)</span>' in page
    assert '<span class="dep">control (false)</span>' in page

    # (the locals are read from r: not temporaries, which would be folded into the prints)
    prints = java.explain(
        "void f(Reader r) { int a = r.read(); int b = r.read(); System.out.println(a); "
        "System.out.println(b); }",
        "void f(Reader r) { int a = r.read(); int b = r.read(); System.out.println(b); "
        "System.out.println(a); }",
    )
    page = render_html(prints)
    assert page.count('<path class="effect unmatched"') == 2  # deleted, and inserted
    assert '<td class="k-delete">delete</td><td><span class="dep">effect</span>' in page


# -- in a browser ---------------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
_CONSOLE = re.compile(r"CONSOLE|Uncaught", re.IGNORECASE)


def _chromium() -> str:
    path = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    if not path:
        pytest.skip("chromium not installed (apt-get install chromium); CI installs it")
    return path


def _load(html_file: Path, tmp_path: Path, *extra: str) -> tuple[str, list[str]]:
    """Dump the DOM of a page with headless chromium; return it and the console lines."""
    command = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--enable-logging=stderr",
        "--v=0",
        *extra,
        "--dump-dom",
        html_file.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if _CONSOLE.search(line)]
    return done.stdout, console


def test_page_loads_cleanly_in_chromium(explanation, tmp_path):
    target = tmp_path / "report.html"
    write_html(explanation, target)
    dom, console = _load(target, tmp_path)
    assert console == []
    r = explanation.result
    for metric in METRICS:
        value = getattr(r, metric)
        assert f'id="value-{metric}">{value:.4f}<' in dom
    # the code's markup stayed text: no element was made from it
    assert "<b>" not in dom and "&lt;b&gt;bold&lt;/b&gt;" in dom
    assert dom.count('<svg class="pdg"') == 2


def test_console_check_catches_an_uncaught_error(page, tmp_path):
    # Without the page's CSP the injected script runs, throws, and chromium logs it.
    broken = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
    broken = broken.replace(
        "<body>", '<body><script>throw new Error("deliberate-explain-test")</script>', 1
    )
    target = tmp_path / "broken.html"
    target.write_text(broken, encoding="utf-8")
    _, console = _load(target, tmp_path)
    assert any("Uncaught Error: deliberate-explain-test" in line for line in console), console


def test_console_check_catches_blocked_script_and_fetch(page, tmp_path):
    # With the page's CSP an injected script and image are refused, and that is logged too.
    broken = page.replace(
        "<body>",
        '<body><script>document.title = "ran"</script>'
        '<img src="http://example.invalid/x.png" alt="">',
        1,
    )
    target = tmp_path / "blocked.html"
    target.write_text(broken, encoding="utf-8")
    dom, console = _load(target, tmp_path)
    assert len(console) >= 2, console
    assert "<title>RUBY explanation</title>" in dom  # the script did not run
