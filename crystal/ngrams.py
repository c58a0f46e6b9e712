"""N-gram counting and sets of trivially shared n-grams (CrystalBLEU's S).

:func:`build_ngram_set` counts every n-gram of order 1..max_n in a corpus of code and keeps
the k most frequent, all orders ranked together in one list, as the CrystalBLEU authors'
scripts do (one ``Counter`` over all orders, ``most_common(k)``). Two deliberate
differences from those scripts:

* n-grams never span two snippets (the scripts concatenate the whole corpus into one
  token stream, which creates n-grams across snippet boundaries);
* ties are broken deterministically, by count (descending) and then by the n-gram itself
  (ascending tuple order), so the same corpus gives the same set in every run and process.

An :class:`NgramSet` is immutable, hashable, and carries a content hash (sha256 of a
canonical serialization of its n-grams and counts) for reproducibility signatures. It is
saved and loaded as versioned JSON::

    {"format": "ruby-metric-ngrams", "version": 1, "tokenizer": "code", "k": 500,
     "max_n": 4, "corpus_size": 10295, "content_hash": "sha256:...",
     "ngrams": [[["(", ")"], 18734], ...]}      # in rank order
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from crystal.corpus import read_corpus
from crystal.tokenize import Tokenizer, tokenize

__all__ = [
    "NgramSet",
    "build_ngram_set",
    "count_ngrams",
    "ngrams",
    "read_corpus",
    "FORMAT",
    "VERSION",
]

FORMAT = "ruby-metric-ngrams"
"""Value of the ``"format"`` field of n-gram set files."""
VERSION = 1
"""Version of the n-gram set file format written by this library."""

Ngram = tuple[str, ...]


def ngrams(tokens: Sequence[str], n: int) -> Iterator[Ngram]:
    """Iterate over the n-grams of a token sequence, as tuples, in order.

    Parameters
    ----------
    tokens : sequence of str
    n : int
        The order, at least 1.

    Returns
    -------
    iterator of tuple of str
        ``len(tokens) - n + 1`` tuples (none when the sequence is shorter than n).

    Examples
    --------
    >>> from crystal.ngrams import ngrams
    >>> list(ngrams(["a", "b", "c"], 2))
    [('a', 'b'), ('b', 'c')]
    """
    if n < 1:
        raise ValueError(f"n-gram order must be at least 1, got {n}")
    return zip(*(tokens[i:] for i in range(n)), strict=False)


def count_ngrams(tokens: Sequence[str], max_n: int = 4, min_n: int = 1) -> Counter[Ngram]:
    """Count the n-grams of orders ``min_n..max_n`` of a token sequence, in one Counter.

    Parameters
    ----------
    tokens : sequence of str
    max_n : int, optional (default 4)
    min_n : int, optional (default 1)

    Returns
    -------
    collections.Counter
        Keys are tuples (their length is the order), values are occurrence counts.

    Examples
    --------
    >>> from crystal.ngrams import count_ngrams
    >>> count_ngrams(["a", "a", "b"], max_n=2)
    Counter({('a',): 2, ('b',): 1, ('a', 'a'): 1, ('a', 'b'): 1})
    """
    counts: Counter[Ngram] = Counter()
    _update_counts(counts, tokens, min_n, max_n)
    return counts


def clipped_matches(
    references: Sequence[str] | Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    n: int,
) -> list[tuple[Ngram, int]]:
    """The hypothesis's n-grams of order ``n`` found in a reference, with clipped counts.

    BLEU's modified precision counts a hypothesis n-gram at most as often as it occurs in
    the reference where it occurs most (the clip).

    Parameters
    ----------
    references : one token sequence, or a list of them.
    hypothesis : token sequence.
    n : the order, at least 1.

    Returns
    -------
    list of (n-gram, clipped count), clipped count > 0, in the hypothesis's reading order
    (each n-gram once, where it first occurs).

    Examples
    --------
    >>> from crystal.ngrams import clipped_matches
    >>> clipped_matches(["a", "b", "a"], ["a", "a", "a", "c"], 1)
    [(('a',), 2)]
    >>> clipped_matches([["a", "b"], ["b", "b"]], ["b", "b", "b"], 1)
    [(('b',), 2)]
    """
    if references and isinstance(references[0], str):
        references = [references]  # type: ignore[list-item]
    return clip_counts(references, Counter(ngrams(hypothesis, n)), n)  # type: ignore[arg-type]


def clip_counts(
    references: Sequence[Sequence[str]], counts: Mapping[Ngram, int], n: int
) -> list[tuple[Ngram, int]]:
    """:func:`clipped_matches` of a hypothesis already counted: ``counts`` holds its n-grams
    of order ``n`` (some may have been removed: those are never matched).

    Parameters
    ----------
    references : list of token sequences.
    counts : n-gram -> occurrences in the hypothesis, in its reading order.
    n : the order of the n-grams in ``counts``.

    Returns
    -------
    list of (n-gram, clipped count), clipped count > 0, in the order of ``counts``.

    Examples
    --------
    >>> from collections import Counter
    >>> from crystal.ngrams import clip_counts
    >>> clip_counts([["a", "b", "a"]], Counter({("a",): 3, ("c",): 1}), 1)
    [(('a',), 2)]
    """
    best: dict[Ngram, int] = {}
    for ref in references:
        for gram, count in Counter(ngrams(ref, n)).items():
            if count > best.get(gram, 0) and gram in counts:
                best[gram] = count
    # a Counter keeps first-insertion order: matches come in hypothesis reading order
    return [(g, min(c, best[g])) for g, c in counts.items() if g in best]


def _update_counts(counts: Counter[Ngram], tokens: Sequence[str], min_n: int, max_n: int) -> None:
    for n in range(min_n, max_n + 1):
        if len(tokens) < n:
            break
        counts.update(zip(*(tokens[i:] for i in range(n)), strict=False))


def _canonical_hash(counts: Mapping[Ngram, int]) -> str:
    # Sorted by n-gram, ASCII-only JSON: independent of insertion order, locale and platform.
    entries = sorted((list(g), int(c)) for g, c in counts.items())
    payload = json.dumps(entries, ensure_ascii=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(payload.encode("ascii")).hexdigest()


def _rank(item: tuple[Ngram, int]) -> tuple[int, Ngram]:
    return (-item[1], item[0])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, eq=False)
class NgramSet:
    """A set S of trivially shared n-grams with their corpus counts.

    Parameters
    ----------
    counts : mapping of tuple of str to int
        Corpus count of each n-gram in the set (positive integers). Stored read-only, in
        rank order (count descending, then n-gram ascending).
    tokenizer : str, optional (default "code")
        Name of the tokenizer that produced the n-grams.
    k : int, optional (default 500)
        The requested size; ``len(counts)`` is smaller when the corpus had fewer n-grams.
    max_n : int, optional (default 4)
        Highest n-gram order counted.
    corpus_size : int, optional (default 0)
        Number of snippets in the corpus the set was built from.
    content_hash : str, optional
        ``"sha256:<hex>"`` over the n-grams and counts. Computed when omitted; when given
        (e.g. from a file) it must match, else ``ValueError``.

    Attributes
    ----------
    ngrams : frozenset of tuple of str
        The n-grams, ready to pass as ``ignoring=`` to :func:`crystal.sentence_bleu`.

    Examples
    --------
    >>> from crystal import NgramSet
    >>> s = NgramSet({("(",): 10, (")",): 10, ("(", ")"): 7}, k=3, max_n=2)
    >>> ("(", ")") in s, len(s)
    (True, 3)
    >>> s.content_hash == NgramSet({("(", ")"): 7, (")",): 10, ("(",): 10}).content_hash
    True
    """

    counts: Mapping[Ngram, int]
    tokenizer: str = "code"
    k: int = 500
    max_n: int = 4
    corpus_size: int = 0
    content_hash: str = ""
    ngrams: frozenset[Ngram] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.tokenizer, str) or not self.tokenizer:
            raise ValueError("tokenizer must be a non-empty string")
        if not _is_int(self.k) or self.k < 0:
            raise ValueError(f"k must be a non-negative integer, got {self.k!r}")
        if not _is_int(self.max_n) or self.max_n < 1:
            raise ValueError(f"max_n must be a positive integer, got {self.max_n!r}")
        if not _is_int(self.corpus_size) or self.corpus_size < 0:
            raise ValueError(
                f"corpus_size must be a non-negative integer, got {self.corpus_size!r}"
            )
        checked: dict[Ngram, int] = {}
        for gram, count in self.counts.items():
            if not isinstance(gram, tuple) or not gram or len(gram) > self.max_n:
                raise ValueError(f"n-gram {gram!r} is not a tuple of 1..{self.max_n} tokens")
            if not all(isinstance(token, str) for token in gram):
                raise ValueError(f"n-gram {gram!r} has a token that is not a string")
            if not _is_int(count) or count < 1:
                raise ValueError(f"count of n-gram {gram!r} must be a positive integer")
            checked[gram] = int(count)
        if len(checked) > self.k:
            raise ValueError(f"{len(checked)} n-grams is more than k={self.k}")
        ranked = dict(sorted(checked.items(), key=_rank))
        digest = _canonical_hash(ranked)
        if self.content_hash and self.content_hash != digest:
            raise ValueError(
                f"content hash mismatch: recorded {self.content_hash}, computed {digest}"
            )
        object.__setattr__(self, "counts", MappingProxyType(ranked))
        object.__setattr__(self, "content_hash", digest)
        object.__setattr__(self, "ngrams", frozenset(ranked))

    def __len__(self) -> int:
        return len(self.ngrams)

    def __contains__(self, gram: object) -> bool:
        return gram in self.ngrams

    def __iter__(self) -> Iterator[Ngram]:
        """Iterate over the n-grams in rank order."""
        return iter(self.counts)

    def _key(self) -> tuple[str, str, int, int, int]:
        return (self.content_hash, self.tokenizer, self.k, self.max_n, self.corpus_size)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NgramSet):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[NgramSet], tuple[object, ...]]:
        # The read-only mapping proxy cannot be pickled; rebuild from a plain dict (the
        # recorded hash is re-checked on the way in).
        fields = (self.tokenizer, self.k, self.max_n, self.corpus_size, self.content_hash)
        return (type(self), (dict(self.counts), *fields))

    def __repr__(self) -> str:
        return (
            f"NgramSet(size={len(self)}, k={self.k}, max_n={self.max_n}, "
            f"tokenizer={self.tokenizer!r}, corpus_size={self.corpus_size}, "
            f"content_hash={self.content_hash[:19]!r}...)"
        )

    def to_json(self) -> dict[str, object]:
        """The JSON document :meth:`save` writes, as a dict.

        Returns
        -------
        dict
            With keys format, version, tokenizer, k, max_n, corpus_size, content_hash, ngrams.
        """
        return {
            "format": FORMAT,
            "version": VERSION,
            "tokenizer": self.tokenizer,
            "k": self.k,
            "max_n": self.max_n,
            "corpus_size": self.corpus_size,
            "content_hash": self.content_hash,
            "ngrams": [[list(g), c] for g, c in self.counts.items()],
        }

    def save(self, path: str | os.PathLike[str], *,
             header: Mapping[str, str] | None = None) -> None:
        """Write the set as versioned JSON (one n-gram per line, ASCII only).

        The file is written to a temporary name and renamed, so a crash never leaves a
        half-written set behind.

        Parameters
        ----------
        path : path-like
            Destination file; its parent folder must exist.
        header : mapping of str to str, optional
            More header fields, written after ``tokenizer`` (such as the language of the
            corpus): :meth:`load` ignores them, :meth:`load_with_header` returns them.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from crystal import NgramSet
        >>> s = NgramSet({("a",): 2}, k=1, max_n=1)
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.json"
        >>> s.save(p)
        >>> NgramSet.load(p) == s
        True
        """
        doc = self.to_json()
        del doc["ngrams"]
        if header:
            fields = list(doc.items())
            at = [key for key, _ in fields].index("tokenizer") + 1
            doc = dict(fields[:at] + [(k, v) for k, v in header.items() if k not in doc]
                       + fields[at:])
        # Header fields indented, then one n-gram per line: readable, diff-friendly files.
        head = json.dumps(doc, ensure_ascii=True, indent=1)[:-2]  # drop the closing "\n}"
        lines = ",\n".join(
            "  " + json.dumps([list(g), c], ensure_ascii=True) for g, c in self.counts.items()
        )
        text = head + ',\n "ngrams": [\n' + lines + ("\n" if lines else "") + " ]\n}\n"
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="ascii")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> NgramSet:
        """Read a set written by :meth:`save`, validating it.

        Parameters
        ----------
        path : path-like

        Returns
        -------
        NgramSet

        Raises
        ------
        OSError
            If the file cannot be read.
        ValueError
            If the file is not a valid n-gram set: not JSON, wrong format or version, a
            missing or ill-typed field, a malformed entry, a duplicate n-gram, or a content
            hash that does not match the n-grams (an edited or corrupted file). The message
            starts with the file name.

        Examples
        --------
        See :meth:`save`.
        """
        return cls.load_with_header(path)[0]

    @classmethod
    def load_with_header(cls, path: str | os.PathLike[str]) -> tuple[NgramSet, dict]:
        """:meth:`load`, and the file's header fields (those of :meth:`save`'s ``header``
        among them).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.json"
        >>> NgramSet({("a",): 2}, k=1, max_n=1).save(p, header={"language": "java"})
        >>> NgramSet.load_with_header(p)[1]["language"]
        'java'
        """
        path = Path(path)
        raw = path.read_bytes()
        try:
            doc = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a JSON n-gram set ({exc})") from None
        try:
            ngram_set = cls.from_json(doc)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        return ngram_set, {key: value for key, value in doc.items() if key != "ngrams"}

    @classmethod
    def from_json(cls, doc: object) -> NgramSet:
        """Build a set from the dict :meth:`to_json` returns, validating it.

        Parameters
        ----------
        doc : dict

        Returns
        -------
        NgramSet

        Raises
        ------
        ValueError
            Saying what is wrong (see :meth:`load`).
        """
        if not isinstance(doc, dict):
            raise ValueError("top level is not a JSON object")
        if doc.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file (format={doc.get('format')!r})")
        version = doc.get("version")
        if not _is_int(version):
            raise ValueError(f"version must be an integer, got {version!r}")
        if version != VERSION:
            raise ValueError(f"unsupported version {version} (this library reads {VERSION})")
        fields: dict[str, object] = {}
        for name, kind in (
            ("tokenizer", str),
            ("k", int),
            ("max_n", int),
            ("corpus_size", int),
            ("content_hash", str),
        ):
            value = doc.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise ValueError(f"field {name!r} missing or not a {kind.__name__}: {value!r}")
            fields[name] = value
        entries = doc.get("ngrams")
        if not isinstance(entries, list):
            raise ValueError("field 'ngrams' missing or not a list")
        counts: dict[Ngram, int] = {}
        for i, entry in enumerate(entries):
            ok = (
                isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], list)
                and entry[0]
                and all(isinstance(t, str) for t in entry[0])
                and _is_int(entry[1])
                and entry[1] >= 1
            )
            if not ok:
                raise ValueError(
                    f"ngrams[{i}] is not [[token, ...], positive count]: {entry!r:.80}"
                )
            gram = tuple(entry[0])
            if gram in counts:
                raise ValueError(f"ngrams[{i}] repeats the n-gram {gram!r}")
            counts[gram] = entry[1]
        return cls(counts, **fields)  # type: ignore[arg-type]


def build_ngram_set(
    snippets: Iterable[str | Sequence[str]],
    k: int = 500,
    max_n: int = 4,
    tokenizer: str | Tokenizer = "code",
) -> NgramSet:
    """Find the k most frequent n-grams (orders 1..max_n ranked together) of a corpus.

    Parameters
    ----------
    snippets : iterable of str or of token sequences
        Code snippets (tokenized with ``tokenizer``) or already tokenized snippets (lists
        of strings, used as they are). :func:`read_corpus` yields suitable snippets.
    k : int, optional (default 500)
        How many n-grams to keep (the paper's default).
    max_n : int, optional (default 4)
        Highest order.
    tokenizer : str or callable, optional (default "code")
        Tokenizer name (recorded in the set) or function.

    Returns
    -------
    NgramSet
        Ranked by count, ties broken by the n-gram (see the module documentation).

    Examples
    --------
    >>> from crystal import build_ngram_set
    >>> s = build_ngram_set(["f(a);", "g(b);"], k=3, max_n=2)
    >>> list(s.counts.items())
    [(('(',), 2), ((')',), 2), ((')', ';'), 2)]
    """
    if not _is_int(k) or k < 0:
        raise ValueError(f"k must be a non-negative integer, got {k!r}")
    if not _is_int(max_n) or max_n < 1:
        raise ValueError(f"max_n must be a positive integer, got {max_n!r}")
    fn = tokenizer if callable(tokenizer) else None
    name = getattr(tokenizer, "__name__", "custom") if callable(tokenizer) else tokenizer
    intern = sys.intern
    counts: Counter[Ngram] = Counter()
    size = 0
    for snippet in snippets:
        size += 1
        if isinstance(snippet, str):
            tokens = fn(snippet) if fn is not None else tokenize(snippet, name)
        else:
            tokens = snippet
        # Interning shares each token string between the many n-grams that contain it.
        tokens = list(map(intern, tokens))
        _update_counts(counts, tokens, 1, max_n)
    top = heapq.nsmallest(k, counts.items(), key=_rank) if k else []
    return NgramSet(dict(top), tokenizer=name, k=k, max_n=max_n, corpus_size=size)
