"""RubyScorer: tier selection, reasons, multiple references, corpus aggregates."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import zss

import crystal
import graphs
from ruby_metric import Limits, RubyScorer
from ruby_metric.io.inputs import read_aligned
from ruby_metric.scoring.grs_cost import GRSCostModel
from ruby_metric.scoring.signature import ngram_set_id
from ruby_metric.scoring.tiers import grs_ged_options

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

SUM_CS = (
    "public int Sum(int[] values){int total = 0;"
    "foreach (int v in values){total += v;}return total;}"
)


@pytest.fixture(scope="module")
def cs() -> RubyScorer:
    return RubyScorer(language="cs")


def test_identical_code_scores_one_everywhere(cs):
    r = cs.score(SUM_CS, SUM_CS)
    assert (r.ruby, r.tier) == (1.0, "graph")
    assert r.grs == r.trs == r.sts == r.crystalbleu == r.bleu == 1.0
    assert r.reasons == {}
    assert all(isinstance(v, float) for v in (r.ruby, r.grs, r.trs, r.sts, r.crystalbleu, r.bleu))


def test_sts_is_token_levenshtein_by_hand(cs):
    # 8 code tokens each; one substitution: 1 - 1/8.
    r = cs.score("x = a + b ( ) ;", "x = a + c ( ) ;")
    assert r.sts == pytest.approx(1 - 1 / 8, abs=1e-12)
    # spacing does not matter to the code tokenizer: IsSimilar( == IsSimilar (
    assert cs.score("IsSimilar(a);", "IsSimilar (a);").sts == 1.0
    # one insertion against an empty side: distance = length
    assert cs.score("a b c", "").sts == 0.0
    assert cs.score("", "").sts == 1.0


def test_trs_matches_zss_on_the_same_trees(cs):
    ref = "int f(int a){ if (a > 0) { return a; } return -a; }"
    cand = "int f(int a){ return a > 0 ? a : -a; }"
    r = cs.score(ref, cand)
    ta = graphs.normalized_ast(graphs.parse(ref, "csharp"))
    tb = graphs.normalized_ast(graphs.parse(cand, "csharp"))

    def to_zss(nested):
        label, children = nested
        node = zss.Node(label)
        for child in children:
            node.addkid(to_zss(child))
        return node

    ted = zss.simple_distance(to_zss(ta.to_nested()), to_zss(tb.to_nested()))
    assert r.trs == pytest.approx(1 - ted / (len(ta) + len(tb)), abs=1e-12)


def test_broken_candidate_falls_back_to_string_with_reasons(cs):
    # every statement broken: neither repaired nor contained (a method whose only statement
    # is broken would be contained: its signature is structure)
    r = cs.score("bool b = Count == 0; return b;", "bool b = Count == ; return b == ;")
    assert r.tier == "string" and r.ruby == r.sts
    assert r.grs is None and r.trs is None
    assert r.reasons["grs"].startswith("candidate: ")
    assert "line 1" in r.reasons["trs"]


def test_ruby_equals_the_named_tier(cs):
    for ref, cand in read_pairs("java_to_cs", "cs"):
        r = cs.score(ref, cand)
        metric = {"graph": "grs", "tree": "trs", "string": "sts"}[r.tier]
        assert r.ruby == getattr(r, metric)
        assert 0.0 <= r.ruby <= 1.0


def read_pairs(folder, ext):
    return [
        (p.reference, p.candidate)
        for p in read_aligned(
            FIXTURES / folder / f"references.{ext}", FIXTURES / folder / f"candidates.{ext}"
        )
    ]


def test_multiple_references_take_the_best(cs):
    good = "public static int Max(int a, int b){return a > b ? a : b;}"
    other = "public static int Max(int a, int b){if (a > b){return a;}else{return b;}}"
    alone = cs.score(other, good)
    both = cs.score([other, good], good)
    assert both.sts == 1.0 and both.trs == 1.0 and both.ruby == 1.0
    assert alone.sts < 1.0
    # a broken reference among good ones does not hide the good ones
    mixed = cs.score(["int (", good], good)
    assert mixed.trs == 1.0


def test_metrics_subset_reports_only_those(cs):
    scorer = RubyScorer(language="cs", metrics=["sts", "bleu"])
    r = scorer.score(SUM_CS, SUM_CS)
    assert r.sts == 1.0 and r.bleu == 1.0
    assert r.ruby is None and r.grs is None and r.trs is None and r.crystalbleu is None
    with pytest.raises(ValueError, match="unknown metric"):
        RubyScorer(language="cs", metrics=["rouge"])


def test_unknown_language_lists_the_known_ones():
    with pytest.raises(ValueError, match="known: .*java"):
        RubyScorer(language="cobol")


def test_no_ngram_set_and_too_few_references_no_crystalbleu_in_score_or_corpus(caplog):
    # One or two references are far too few to say which n-grams every program shares:
    # CrystalBLEU does not apply (it would be 0.0 by construction), the same way for score
    # and score_corpus, with a reason saying how to get it. (JavaScript: no set is shipped.)
    assert crystal_default_exists("javascript") is False
    scorer = RubyScorer(language="javascript")
    r = scorer.score("x = 1;\n", "x = 1;\n")
    reason = (
        "no n-gram set for javascript with the code tokenizer, and the references being "
        "scored are too few to build one (fewer than 10 x k = 5000 distinct n-grams); pass "
        "ngrams= (--ngrams FILE) with a set built from a large corpus of javascript code "
        "(ruby-metric ngrams build)"
    )
    assert r.crystalbleu is None and r.reasons == {"crystalbleu": reason}
    with caplog.at_level("WARNING"):
        c = scorer.score_corpus(["x = 1;\n", "y = 2;\n"], ["x = 1;\n", "y = 3;\n"])
    assert c.crystalbleu is None and c.counts["crystalbleu"] == 0
    assert c.pairs[0].to_dict() == dict(r.to_dict(), id=0)
    assert "ngrams:none" in c.signature
    # x = 1 ; and y = 2 ; : 6 unigrams, 6 bigrams, 4 trigrams, 2 four-grams
    assert (
        "no n-gram set for javascript with the code tokenizer, and the 2 references being "
        "scored hold 18 distinct n-grams, too few to take their 500 most frequent as "
        "trivially shared (that needs 5000: 10 x k)" in caplog.text
    )


def test_enough_references_build_a_set_in_score_and_corpus(caplog):
    assert crystal_default_exists("javascript") is False
    refs = [f"function f{i}(a{i}, b) {{\n  const x{i} = a{i} * {i} + b;\n  return g{i}(x{i});\n}}\n"
            for i in range(300)]
    cands = [ref.replace("b", "c") for ref in refs]
    scorer = RubyScorer(language="javascript", metrics=["crystalbleu"])
    with caplog.at_level("WARNING"):
        c = scorer.score_corpus(refs, cands)
    assert "built one from the 300 references being scored (k=500)" in caplog.text
    built = crystal.build_ngram_set(refs, k=500, tokenizer="code")
    assert c.signature.split("|")[3] == "ngrams:" + ngram_set_id(built)
    expected = crystal.CrystalBLEU(built, tokenizer="code")
    assert c.pairs[7].crystalbleu == expected.sentence_score(
        [crystal.tokenize(refs[7], "code")], crystal.tokenize(cands[7], "code"))
    # one pair whose one reference holds enough n-grams: score agrees with score_corpus
    whole, changed = "".join(refs), "".join(cands)
    alone = scorer.score(whole, changed)
    assert alone.crystalbleu is not None
    assert alone.crystalbleu == scorer.score_corpus([whole], [changed]).pairs[0].crystalbleu


def test_python_has_a_shipped_set_counted_as_the_scorer_tokenizes():
    from ruby_metric.io.ngram_sets import shipped_ngram_set

    shipped = shipped_ngram_set("python", "code-python")
    assert shipped is not None and shipped.k == 500 and shipped.max_n == 4
    assert shipped_ngram_set("python", "code") is None  # counted with the other tokenizer
    # the standard library's most frequent n-grams are Python's punctuation and `self .`
    top = [gram for gram, _ in sorted(shipped.counts.items(), key=lambda kv: -kv[1])[:12]]
    assert ("self", ".") in top and (":", "<INDENT>") in top
    r = RubyScorer(language="python").score("x = 1\n", "x = 2\n")
    assert r.crystalbleu is not None and "crystalbleu" not in r.reasons


def test_shipped_set_for_another_tokenizer_is_named_in_the_warning(caplog):
    scorer = RubyScorer(language="cs", tokenizer="whitespace")
    with caplog.at_level("WARNING"):
        c = scorer.score_corpus([SUM_CS], [SUM_CS])
    assert c.crystalbleu is None
    assert c.pairs[0].reasons["crystalbleu"].startswith(
        "no n-gram set for csharp with the whitespace tokenizer (the one shipped for csharp "
        "is for the code tokenizer), and the references being scored are too few")
    assert "no n-gram set for csharp with the whitespace tokenizer (the one shipped" in (
        caplog.text)


def crystal_default_exists(language):
    from ruby_metric.io.ngram_sets import shipped_ngram_set

    return shipped_ngram_set(language) is not None


def test_corpus_aggregates_by_hand(cs):
    refs = [SUM_CS, "bool b = Count == 0; return b;"]
    cands = [SUM_CS, "bool b = Count == ; return b == ;"]
    c = cs.score_corpus(refs, cands)
    assert [p.id for p in c.pairs] == [0, 1]
    p0, p1 = c.pairs
    assert c.means["ruby"] == pytest.approx((p0.ruby + p1.ruby) / 2)
    assert c.means["trs"] == p0.trs and c.counts["trs"] == 1
    assert c.tiers == {"graph": 1, "tree": 0, "string": 1}
    bleu_ref = crystal.corpus_bleu(
        [[crystal.tokenize(r)] for r in refs],
        [crystal.tokenize(h) for h in cands],
        smoothing_function="method1",
    )
    assert c.bleu == pytest.approx(bleu_ref, abs=1e-12)
    assert "ruby-metric:" in c.signature and "lang:csharp" in c.signature


def test_bad_pair_in_a_batch_gets_a_reason(cs):
    c = cs.score_corpus([SUM_CS, None, SUM_CS], [SUM_CS, SUM_CS, 42])
    assert c.pairs[0].ruby == 1.0
    assert "reference must be" in c.pairs[1].reasons["input"]
    assert "candidate must be a string" in c.pairs[2].reasons["input"]
    assert c.counts["ruby"] == 1


def test_limits_skip_tiers_with_reasons():
    scorer = RubyScorer(language="cs", limits=Limits(max_ast_nodes=5, max_pdg_nodes=2))
    r = scorer.score(SUM_CS, SUM_CS)
    assert r.tier == "string"
    assert "larger than the limit" in r.reasons["trs"]
    assert "larger than the limit" in r.reasons["grs"]


def test_tree_check_agrees_with_the_build_at_every_limit():
    # an exact match checks the AST's size from tree-sitter's counts instead of building
    # it: at, below and above the real size the outcome and reason are the build's
    from ruby_metric.scoring.code import Code, NotApplicable
    from ruby_metric.scoring.tiers import TreeTier

    size = len(TreeTier(Limits()).represent(Code(SUM_CS, "csharp")))
    for limit in (1, size - 1, size, size + 1, 4 * size):
        tier = TreeTier(Limits(max_ast_nodes=limit))
        outcomes = []
        for probe in (tier.check, tier.represent):
            try:
                probe(Code(SUM_CS, "csharp", limits=tier.limits))
                outcomes.append(None)
            except NotApplicable as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1], limit
        assert (outcomes[0] is None) == (limit >= size)


def test_workers_give_identical_results(cs):
    pairs = read_pairs("java_to_cs", "cs") * 20
    refs = [a for a, _ in pairs]
    cands = [b for _, b in pairs]
    one = cs.score_corpus(refs, cands)
    two = cs.score_corpus(refs, cands, workers=2)
    assert one.to_dict() == two.to_dict()
    assert not math.isnan(one.means["ruby"])


def test_exact_match_reuses_the_candidate_representation(cs, monkeypatch):
    # a reference equal to the candidate is not parsed and built a second time: the exact
    # match needs only the tiers' applicability (the graph tier counts the CFG's statements
    # without building the PDG, the tree tier bounds the AST's size from the parse), and
    # the numbers are those of two separate builds
    from ruby_metric.scoring.code import Code
    from ruby_metric.scoring.tiers import TIER_ORDER

    built = []
    for tier_cls in TIER_ORDER:
        original = tier_cls.build

        def spy(self, code, _original=original):
            built.append((self.name, code.text))
            return _original(self, code)

        monkeypatch.setattr(tier_cls, "build", spy)
    other = SUM_CS.replace("total", "sum")
    cs.reference_cache.clear()  # this module's scorer keeps SUM_CS from the tests above
    r = cs.score([other, SUM_CS], SUM_CS)
    assert sorted(built) == [("string", SUM_CS)]
    assert r.tier == "graph" and r.ruby == r.grs == r.trs == r.sts == 1.0
    unrelated = cs.score([other], SUM_CS)
    assert unrelated.trs < 1.0
    assert sorted(built) == sorted(
        [("string", SUM_CS)]
        + [(name, text) for name in ("graph", "tree", "string") for text in (SUM_CS, other)])
    for tier_cls in TIER_ORDER:
        tier = tier_cls(cs.limits)
        a, b = Code(SUM_CS, "csharp"), Code(SUM_CS, "csharp")
        separate = tier.similarity(tier.represent(a), tier.represent(b))
        assert separate == getattr(r, tier.metric) == 1.0
    # a different language, tokenizer or limits is a different input
    built.clear()
    tier = TIER_ORDER[1](cs.limits)
    outcome = tier.score([Code(SUM_CS, "csharp", limits=Limits(max_chars=10))],
                         Code(SUM_CS, "csharp"))
    assert len(built) == 2  # built for the reference too, where the limit stops it
    assert outcome.value is None and "longer than the limit" in outcome.reason


GRS_BASE = "int f(int n){int a = 0, b = 0;a = n * 2;b = n + 1;int c = a + b;return c;}"


@pytest.mark.parametrize(
    "variant",
    [
        GRS_BASE,  # identical
        "int f(int m){int x = 0, y = 0;x = m * 2;y = m + 1;int z = x + y;return z;}",  # renamed
        "int f(int n){int a = 0, b = 0;b = n + 1;a = n * 2;int c = a + b;return c;}",  # swap
        "int f(int n) {\n  int a = 0, b = 0;\n  a = n * 2;   // double\n  b = n + 1;\n"
        "  int c = a + b;\n  return c;\n}",  # layout and comments
    ],
)
def test_grs_is_one_for_semantically_equal_variants(variant):
    r = RubyScorer(language="java", metrics=["ruby", "grs"]).score(GRS_BASE, variant)
    assert (r.grs, r.ruby, r.tier) == (1.0, 1.0, "graph")


def test_grs_drops_when_a_swap_breaks_a_def_use_order():
    # c now reads a and b before they are defined: different data dependences
    broken = "int f(int n){int a = 0, b = 0;int c = a + b;a = n * 2;b = n + 1;return c;}"
    r = RubyScorer(language="java", metrics=["grs"]).score(GRS_BASE, broken)
    assert r.grs is not None and r.grs < 1.0
    pdg = graphs.build_pdg(GRS_BASE, "java")
    other = graphs.build_pdg(broken, "java")
    model = GRSCostModel()
    ged = graphs.graph_edit_distance(pdg, other, **grs_ged_options()).distance
    s_ref, s_cand = model.size(pdg), model.size(other)
    # recall-weighted: 5 M / (4 S_ref + S_cand), M = (S_ref + S_cand - GED) / 2
    assert r.grs == pytest.approx(5 * (s_ref + s_cand - ged) / 2 / (4 * s_ref + s_cand),
                                  abs=1e-12)


def test_grs_beta_option_signature_and_errors():
    ref = "int f(int[] a){ int s = 0; for (int i = 0; i < a.length; i++) { s += a[i]; } return s; }"
    partial = "int f(int[] a){ int s = 0; return s; }"
    default, symmetric = RubyScorer("java"), RubyScorer("java", grs_beta=1)
    assert default.grs_beta == 2.0 and symmetric.grs_beta == 1.0
    assert "pdg8-canonical-aligned-weighted-shared-reach-beta2|" in default.signature()
    assert "pdg8-canonical-aligned-weighted-shared-reach-beta1|" in symmetric.signature()
    # recall-weighted: a candidate that carries part of the reference scores lower with
    # beta 2 than the symmetric form, and its mirror pair higher
    assert default.score(ref, partial).grs < symmetric.score(ref, partial).grs
    assert default.score(partial, ref).grs > symmetric.score(partial, ref).grs
    assert symmetric.score(ref, partial).grs == symmetric.score(partial, ref).grs
    # the other tiers do not depend on beta
    a, b = default.score(ref, partial), symmetric.score(ref, partial)
    assert (a.trs, a.sts, a.bleu, a.crystalbleu) == (b.trs, b.sts, b.bleu, b.crystalbleu)
    for bad in (0, -1, float("nan"), float("inf"), "x"):
        with pytest.raises(ValueError, match="beta"):
            RubyScorer("java", grs_beta=bad)


def test_cli_grs_beta(tmp_path, capsys):
    from ruby_metric.cli.app import main

    refs, hyps = tmp_path / "r.java", tmp_path / "h.java"
    refs.write_text("int f(int a){ int s = a * 2; return s + 1; }\n", encoding="utf-8")
    hyps.write_text("int f(int a){ return a; }\n", encoding="utf-8")
    outputs = {}
    for beta in ("1", "2"):
        assert main(["score", str(refs), str(hyps), "-l", "java", "-f", "json", "-q",
                     "--grs-beta", beta]) == 0
        outputs[beta] = json.loads(capsys.readouterr().out)
    assert outputs["1"]["pairs"][0]["grs"] > outputs["2"]["pairs"][0]["grs"]
    assert "beta1|" in outputs["1"]["corpus"]["signature"]
    with pytest.raises(SystemExit) as exc:
        main(["score", str(refs), str(hyps), "-l", "java", "--grs-beta", "0"])
    assert exc.value.code == 2 and "positive number" in capsys.readouterr().err


@pytest.mark.parametrize("field", ["max_tokens", "max_ast_nodes", "max_pdg_nodes",
                                   "max_chars", "max_repair_chars"])
@pytest.mark.parametrize("value", [-1, 0, 1.5, "10", True, None])
def test_limits_reject_anything_but_a_positive_integer(field, value):
    with pytest.raises(ValueError, match=rf"^Limits\.{field} must be a positive integer, got "):
        Limits(**{field: value})


def test_limits_accept_positive_integers():
    import numpy as np

    limits = Limits(max_tokens=1, max_ast_nodes=np.int64(7), max_pdg_nodes=2, max_chars=3,
                    max_repair_chars=4)
    assert (limits.max_tokens, limits.max_ast_nodes) == (1, 7)


def test_signature_names_no_ngram_set_when_crystalbleu_is_not_scored(tmp_path):
    """The n-gram set changes only CrystalBLEU: without it the signature says ``ngrams:none``,
    as the command line's does for the same options (it loads no set then)."""
    refs, cands = ["int f(){return 1;}"], ["int f(){return 2;}"]
    without = RubyScorer(language="java", metrics=["ruby", "bleu"]).score_corpus(refs, cands)
    with_set = RubyScorer(language="java").score_corpus(refs, cands)
    assert "|ngrams:none|" in without.signature
    assert "|ngrams:k500-n4-" in with_set.signature
    (tmp_path / "refs.java").write_text(refs[0] + "\n")
    (tmp_path / "cands.java").write_text(cands[0] + "\n")
    cli = subprocess.run(
        [sys.executable, "-m", "ruby_metric", "score", str(tmp_path / "refs.java"),
         str(tmp_path / "cands.java"), "--lang", "java", "--metrics", "ruby,bleu", "-f", "json"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[1],
    )
    assert json.loads(cli.stdout)["corpus"]["signature"] == without.signature
