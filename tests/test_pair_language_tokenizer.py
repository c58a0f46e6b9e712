"""A pair's own language chooses its default tokenizer, as the scorer's language does."""

import pytest

import crystal
from ruby_metric import RubyScorer
from ruby_metric.io.inputs import PairInput

PY_REF = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"
PY_CAND = "def total(xs):\n    return sum(xs)\n"
PY_STS = 0.3913043478260869  # 1 - 14 / 23 (23 code-python tokens, 14 edits)
CS = "int Sum(int a, int b) { return a + b; }"
CS_CAND = "int Sum(int x, int y) { return x + y; }"


def test_python_pair_in_a_java_run_scores_as_with_the_python_scorer():
    alone = RubyScorer("python").score(PY_REF, PY_CAND)
    assert alone.sts == PY_STS and alone.bleu == pytest.approx(0.23828313880553298, abs=1e-15)
    for scorer in (RubyScorer("java"), RubyScorer()):
        mixed = scorer.score_corpus([CS, PY_REF], [CS_CAND, PY_CAND], languages=["cs", "python"])
        assert mixed.pairs[1].sts == alone.sts and mixed.pairs[1].bleu == alone.bleu
        assert mixed.signature.split("|")[2] == "tok:csharp=code+python=code-python"
    # the code tokenizer (indentation not tokens) gives 1 - 12 / 19
    generic = RubyScorer("java", tokenizer="code").score_corpus(
        [PY_REF], [PY_CAND], languages=["python"])
    assert generic.pairs[0].sts == 0.368421052631579
    assert generic.signature.split("|")[2] == "tok:code"


def test_python_only_run_without_a_scorer_language_says_code_python():
    c = RubyScorer().score_corpus([PY_REF], [PY_CAND], languages=["python"])
    assert c.signature.split("|")[1:3] == ["lang:python", "tok:code-python"]


def test_workers_tokenize_by_the_pair_language_too():
    pairs = [PairInput(i, PY_REF, PY_CAND, "python") for i in range(65)]  # two chunks
    with RubyScorer("java", metrics=["sts", "bleu"]) as scorer:
        out = scorer.score_pairs(pairs, workers=2)
    assert {p.sts for p in out.pairs} == {PY_STS}


def test_with_language_takes_the_new_language_default_unless_set():
    assert RubyScorer("java").with_language("python").tokenizer == "code-python"
    assert RubyScorer("python").with_language("java").tokenizer == "code"
    assert RubyScorer("java", tokenizer="whitespace").with_language("python").tokenizer == (
        "whitespace")


def test_corpus_ngram_set_is_counted_with_the_pair_tokenizer():
    refs = [PY_REF] * 3
    run = RubyScorer("java").stream(
        lambda: [PairInput(i, r, PY_CAND, "python") for i, r in enumerate(refs)])
    list(run)
    built = run.ngram_set_for("python")
    assert built is None or built.tokenizer == "code-python"


def test_given_ngram_set_applies_only_to_pairs_tokenized_as_it_was_counted():
    ngrams = crystal.build_ngram_set([CS] * 3, k=5, tokenizer="code")
    scorer = RubyScorer("cs", ngrams=ngrams)
    c = scorer.score_corpus([CS, PY_REF], [CS_CAND, PY_CAND], languages=[None, "python"])
    assert c.pairs[0].crystalbleu is not None
    assert c.pairs[1].crystalbleu is None
    assert c.pairs[1].reasons["crystalbleu"] == (
        "the n-gram set given was counted with the code tokenizer, but python pairs are "
        "tokenized with code-python: pass tokenizer='code' (--tokenizer code) or a set "
        "counted with code-python")
    assert c.pairs[1].sts == PY_STS


def _python_set() -> crystal.NgramSet:
    return crystal.build_ngram_set([PY_REF, PY_CAND] * 3, k=5, tokenizer="code-python")


def test_a_given_python_set_in_a_run_without_a_language_applies_to_the_python_pairs():
    # RubyScorer(None, ngrams=...) took the set for the "code" tokenizer and raised
    py_set = _python_set()
    scorer = RubyScorer(ngrams=py_set)
    mixed = scorer.score_corpus([CS, PY_REF], [CS_CAND, PY_CAND], languages=["cs", "python"])
    alone = RubyScorer("python", ngrams=py_set).score(PY_REF, PY_CAND)
    assert mixed.pairs[1].crystalbleu == alone.crystalbleu is not None
    assert mixed.pairs[0].crystalbleu is None
    assert mixed.pairs[0].reasons["crystalbleu"].startswith(
        "the n-gram set given was counted with the code-python tokenizer, but csharp pairs")
    # a pair with no language is tokenized with "code": the set cannot apply
    one = scorer.score("x = 1", "x = 2")
    assert one.crystalbleu is None and "code-python" in one.reasons["crystalbleu"]


def test_cli_takes_a_python_set_for_a_jsonl_run_without_lang(tmp_path):
    import json
    import subprocess
    import sys

    set_file = tmp_path / "py.json"
    _python_set().save(set_file)
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        json.dumps({"reference": PY_REF, "candidate": PY_CAND, "language": "python"}) + "\n"
        + json.dumps({"reference": CS, "candidate": CS_CAND, "language": "cs"}) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "ruby_metric", "score", "--jsonl", str(pairs), "--ngrams",
         str(set_file), "-f", "jsonl"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    expected = RubyScorer("python", ngrams=_python_set()).score(PY_REF, PY_CAND).crystalbleu
    assert rows[0]["crystalbleu"] == expected and rows[1]["crystalbleu"] is None
