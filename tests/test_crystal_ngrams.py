"""Tests of crystal.ngrams (n-gram counting, NgramSet, build_ngram_set) and crystal.corpus."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from crystal import CorpusError, NgramSet, build_ngram_set, read_corpus
from crystal.ngrams import FORMAT, VERSION, count_ngrams, ngrams

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
CODEXGLUE = DATASETS / "codexglue_code2code_trans"
needs_codexglue = pytest.mark.skipif(
    not (CODEXGLUE / "train.java-cs.txt.cs").is_file(),
    reason=f"CodeXGLUE data not found at {CODEXGLUE} (shared datasets are optional)",
)

SNIPPETS = [
    "int add(int a, int b) { return a + b; }",
    "int sub(int a, int b) { return a - b; }",
    "void log(String s) { System.out.println(s); }",
    "if (x == null) { return; }",
]


# ----------------------------------------------------------------------------- counting


def test_ngrams_and_count_ngrams() -> None:
    assert list(ngrams(["a", "b", "c"], 1)) == [("a",), ("b",), ("c",)]
    assert list(ngrams(["a", "b", "c"], 3)) == [("a", "b", "c")]
    assert list(ngrams(["a", "b"], 3)) == []
    with pytest.raises(ValueError):
        ngrams(["a"], 0)
    counts = count_ngrams(["a", "a", "b", "a"], max_n=3)
    assert counts == Counter(
        {
            ("a",): 3,
            ("b",): 1,
            ("a", "a"): 1,
            ("a", "b"): 1,
            ("b", "a"): 1,
            ("a", "a", "b"): 1,
            ("a", "b", "a"): 1,
        }
    )
    assert count_ngrams(["x", "y"], max_n=2, min_n=2) == Counter({("x", "y"): 1})


# ----------------------------------------------------------------------------- building


def test_build_by_hand() -> None:
    s = build_ngram_set(["f(a);", "g(b);"], k=3, max_n=2)
    # Counts: ( ) ; and ")" ";" each twice; ties broken by the n-gram, all orders together.
    assert list(s.counts.items()) == [(("(",), 2), ((")",), 2), ((")", ";"), 2)]
    assert s.k == 3 and s.max_n == 2 and s.corpus_size == 2 and s.tokenizer == "code"
    assert s.ngrams == frozenset({("(",), (")",), (")", ";")})


def test_orders_ranked_together() -> None:
    s = build_ngram_set(["a b a b a b"], k=4, max_n=3, tokenizer="whitespace")
    assert list(s.counts.items()) == [
        (("a",), 3),
        (("a", "b"), 3),
        (("b",), 3),
        (("a", "b", "a"), 2),
    ]


def test_no_ngrams_across_snippets() -> None:
    s = build_ngram_set(["a b", "c d"], k=100, max_n=2, tokenizer="whitespace")
    assert ("b", "c") not in s
    assert len(s) == 6


def test_pretokenized_snippets_and_callable_tokenizer() -> None:
    a = build_ngram_set([["x", "=", "1"], ["x", "=", "2"]], k=5, tokenizer="whitespace")
    b = build_ngram_set(["x = 1", "x = 2"], k=5, tokenizer="whitespace")
    assert a == b
    c = build_ngram_set(["x = 1", "x = 2"], k=5, tokenizer=str.split)
    assert c.counts == b.counts and c.tokenizer == "split"


def test_tie_breaking_is_deterministic_under_reordering() -> None:
    corpus = [f"v{i} = f(v{i % 7}, {i % 3});" for i in range(200)] + SNIPPETS
    expected = build_ngram_set(corpus, k=50)
    rng = random.Random(0)
    for _ in range(5):
        shuffled = corpus[:]
        rng.shuffle(shuffled)
        got = build_ngram_set(shuffled, k=50)
        assert list(got.counts.items()) == list(expected.counts.items())
        assert got.content_hash == expected.content_hash


def test_same_set_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(f"x{i % 13} = y{i % 5} + {i % 3};" for i in range(300)))
    script = (
        "import sys; from crystal import build_ngram_set, read_corpus; "
        "print(build_ngram_set(read_corpus(sys.argv[1]), k=40).content_hash)"
    )
    hashes = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run(
            [sys.executable, "-c", script, str(corpus)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        hashes.add(out.stdout.strip())
    assert len(hashes) == 1
    assert hashes.pop() == build_ngram_set(read_corpus(corpus), k=40).content_hash


def test_k_edge_cases() -> None:
    assert len(build_ngram_set(SNIPPETS, k=0)) == 0
    everything = build_ngram_set(SNIPPETS, k=10_000)
    assert len(everything) < 10_000 and everything.k == 10_000
    assert len(build_ngram_set([], k=5)) == 0
    with pytest.raises(ValueError):
        build_ngram_set(SNIPPETS, k=-1)
    with pytest.raises(ValueError):
        build_ngram_set(SNIPPETS, max_n=0)


# ----------------------------------------------------------------------------- NgramSet


def test_ngramset_is_immutable_and_ranked() -> None:
    s = NgramSet({("b",): 1, ("a",): 5, ("a", "b"): 5}, k=3, max_n=2)
    assert list(s) == [("a",), ("a", "b"), ("b",)]
    assert ("a", "b") in s and ("c",) not in s and len(s) == 3
    with pytest.raises(TypeError):
        s.counts[("c",)] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        s.k = 4  # type: ignore[misc]
    assert "size=3" in repr(s)


def test_ngramset_pickles() -> None:
    # Worker processes receive sets by pickle.
    s = build_ngram_set(SNIPPETS, k=20)
    back = pickle.loads(pickle.dumps(s))
    assert back == s and list(back.counts.items()) == list(s.counts.items())
    assert back.ngrams == s.ngrams


def test_content_hash_is_canonical_and_stable() -> None:
    a = NgramSet({("(",): 10, (")",): 10, ("(", ")"): 7}, k=3, max_n=2)
    b = NgramSet({("(", ")"): 7, (")",): 10, ("(",): 10}, k=3, max_n=2)
    assert a.content_hash == b.content_hash and a == b and hash(a) == hash(b)
    assert a.content_hash.startswith("sha256:") and len(a.content_hash) == 7 + 64
    c = NgramSet({("(",): 10, (")",): 10, ("(", ")"): 8}, k=3, max_n=2)
    assert c.content_hash != a.content_hash
    d = NgramSet({("(",): 10, (")",): 10, ("(", ")"): 7}, k=3, max_n=2, tokenizer="whitespace")
    assert d.content_hash == a.content_hash and d != a


def test_content_hash_pinned_value() -> None:
    # Pinned: changing the canonical serialization changes every reproducibility signature.
    s = NgramSet({("a", "b"): 1, ("a",): 2}, k=2, max_n=2)
    payload = '[[["a"],2],[["a","b"],1]]'
    assert s.content_hash == "sha256:" + hashlib.sha256(payload.encode()).hexdigest()


@pytest.mark.parametrize(
    ("counts", "kwargs", "message"),
    [
        ({"a": 1}, {}, "not a tuple"),
        ({(): 1}, {}, "not a tuple"),
        ({("a", "b", "c"): 1}, {"max_n": 2}, "1..2 tokens"),
        ({("a", 1): 1}, {}, "not a string"),
        ({("a",): 0}, {}, "positive integer"),
        ({("a",): 1.5}, {}, "positive integer"),
        ({("a",): 1, ("b",): 1}, {"k": 1}, "more than k=1"),
        ({("a",): 1}, {"k": -1}, "k must be"),
        ({("a",): 1}, {"max_n": 0}, "max_n must be"),
        ({("a",): 1}, {"corpus_size": -2}, "corpus_size"),
        ({("a",): 1}, {"content_hash": "sha256:00"}, "content hash mismatch"),
        ({("a",): 1}, {"tokenizer": ""}, "tokenizer"),
    ],
)
def test_ngramset_validation(counts: dict, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NgramSet(counts, **kwargs)


def test_save_load_round_trip(tmp_path: Path) -> None:
    s = build_ngram_set(SNIPPETS + ['s = "ünïcödé 😀";'], k=60)
    path = tmp_path / "set.json"
    s.save(path)
    text = path.read_text(encoding="ascii")  # ASCII only, whatever the tokens
    doc = json.loads(text)
    assert doc["format"] == FORMAT == "ruby-metric-ngrams" and doc["version"] == VERSION == 1
    assert doc["content_hash"] == s.content_hash
    assert len(text.splitlines()) > len(s)  # one n-gram per line
    loaded = NgramSet.load(path)
    assert loaded == s
    assert list(loaded.counts.items()) == list(s.counts.items())
    assert loaded.ngrams == s.ngrams
    assert not list(tmp_path.glob("*.tmp"))
    empty = NgramSet({}, k=0)
    empty.save(path)
    assert NgramSet.load(path) == empty


def _doc(**changes: object) -> dict:
    doc = NgramSet({("a",): 3, ("a", "b"): 2}, k=2, max_n=2, corpus_size=4).to_json()
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([1, 2], "not a JSON object"),
        (_doc(format="something-else"), "not a ruby-metric-ngrams file"),
        (_doc(version=2), "unsupported version 2"),
        (_doc(version="1"), "version must be an integer"),
        (_doc(k="2"), "field 'k'"),
        (_doc(max_n=True), "field 'max_n'"),
        (_doc(tokenizer=None), "field 'tokenizer'"),
        (_doc(ngrams={"a": 1}), "field 'ngrams'"),
        (_doc(ngrams=[[["a"], 3], ["a", 2]]), r"ngrams\[1\]"),
        (_doc(ngrams=[[["a"], 3], [[], 2]]), r"ngrams\[1\]"),
        (_doc(ngrams=[[["a"], -3]]), r"ngrams\[0\]"),
        (_doc(ngrams=[[["a"], 3], [["a"], 3]]), "repeats the n-gram"),
        (_doc(ngrams=[[["a"], 4], [["a", "b"], 2]]), "content hash mismatch"),
        (_doc(content_hash=None), "field 'content_hash'"),
    ],
)
def test_load_rejects_invalid_files(tmp_path: Path, doc: object, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=message) as info:
        NgramSet.load(path)
    assert str(path) in str(info.value)


def test_load_rejects_non_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe not json")
    with pytest.raises(ValueError, match="not a JSON n-gram set") as info:
        NgramSet.load(path)
    assert str(path) in str(info.value)
    with pytest.raises(OSError):
        NgramSet.load(tmp_path / "missing.json")


# ----------------------------------------------------------------------------- corpus


def test_read_corpus_rules(tmp_path: Path) -> None:
    (tmp_path / "src" / "deep").mkdir(parents=True)
    (tmp_path / "src" / "B.java").write_text("class B {}\n")
    (tmp_path / "src" / "A.cs").write_text("class A {}")
    (tmp_path / "src" / "deep" / "c.py").write_text("def c(): pass\n")
    (tmp_path / "src" / "notes.md").write_text("not code")
    (tmp_path / "src" / "data.txt").write_text("not read from a folder")
    (tmp_path / "src" / ".hidden").mkdir()
    (tmp_path / "src" / ".hidden" / "H.java").write_text("hidden")
    (tmp_path / "src" / "empty.java").write_text("  \n")
    # Folders: sorted, recursive, code extensions only, hidden entries skipped, blank skipped.
    assert list(read_corpus(tmp_path / "src")) == ["class A {}", "class B {}\n", "def c(): pass\n"]
    # Line-per-snippet files: .txt anywhere in the suffixes; blank lines, CR and BOM handled.
    lines = tmp_path / "train.java-cs.txt.cs"
    lines.write_bytes(b"\xef\xbb\xbfint a;\r\n\r\nint b;\x0cstill b\n   \nint c;")
    assert list(read_corpus(lines)) == ["int a;", "int b;\x0cstill b", "int c;"]
    assert list(read_corpus(str(lines), per_line=False)) == [
        "int a;\r\n\r\nint b;\x0cstill b\n   \nint c;"
    ]
    model = tmp_path / "java-cs-model1.output"
    model.write_text("x\ny\n")
    assert list(read_corpus(model)) == ["x", "y"]
    plain = tmp_path / "One.java"
    plain.write_text("a\nb\n")
    assert list(read_corpus(plain)) == ["a\nb\n"]
    assert list(read_corpus(plain, per_line=True)) == ["a", "b"]
    # Several paths, in order; a folder's line files are read per line too.
    (tmp_path / "src" / "more.txt.java").write_text("m1\nm2\n")
    got = list(read_corpus([plain, tmp_path / "src"]))
    assert got[0] == "a\nb\n" and got[-2:] == ["m1", "m2"]


def test_read_corpus_invalid_utf8_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "bad.java"
    path.write_bytes(b'String s = "\xff\xfe";')
    assert list(read_corpus(path)) == ['String s = "\ufffd\ufffd";']


def test_read_corpus_errors_name_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nope.txt"
    with pytest.raises(CorpusError, match="nope.txt"):
        list(read_corpus(missing))
    assert issubclass(CorpusError, OSError)
    unreadable = tmp_path / "locked.java"
    unreadable.write_text("x")

    def deny(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", deny)
    with pytest.raises(CorpusError, match="locked.java.*Permission denied"):
        list(read_corpus(unreadable))


def test_read_corpus_is_lazy(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    it = read_corpus([tmp_path / "a.txt", tmp_path / "missing.txt"])
    assert next(it) == "one"
    with pytest.raises(CorpusError):
        next(it)


# ----------------------------------------------------------------------------- real data


@needs_codexglue
def test_codexglue_train_set() -> None:
    s = build_ngram_set(read_corpus(CODEXGLUE / "train.java-cs.txt.cs"), k=500)
    assert len(s) == 500 and s.corpus_size == 10295 and s.max_n == 4
    top = list(s.counts)[:4]
    assert {("(",), (")",), (";",)} <= set(top)
    assert {len(g) for g in s} == {1, 2, 3, 4}
    counts = list(s.counts.values())
    assert counts == sorted(counts, reverse=True)
