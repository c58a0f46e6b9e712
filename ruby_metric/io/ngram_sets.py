"""Where a scorer's trivially shared n-grams come from: a file, a set, or a shipped default."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from importlib import resources
from os import PathLike
from pathlib import Path

import crystal

logger = logging.getLogger(__name__)

#: Languages with a default n-gram set shipped in ``ruby_metric/data/ngrams/<language>.json``
#: (Java, C#, Python).
_DATA_PACKAGE = "ruby_metric.data.ngrams"

NgramSource = str | PathLike | crystal.NgramSet | Iterable[tuple[str, ...]] | None


def shipped_ngram_set(language: str | None, tokenizer: str = "code") -> crystal.NgramSet | None:
    """The default n-gram set shipped for ``language``, or ``None`` when there is none.

    Java and C#: counted with the ``code`` tokenizer on the CodeXGLUE Java/C# training
    methods. Python: counted with ``code-python`` on the modules of CPython 3.11.7's
    standard library (``tools/python_ngrams.py``). For any other language or tokenizer
    there is no default.

    Examples
    --------
    >>> shipped_ngram_set("java").k
    500
    >>> shipped_ngram_set("python", "code-python").k, shipped_ngram_set("python") is None
    (500, True)
    """
    if language is None:
        return None
    resource = resources.files(_DATA_PACKAGE).joinpath(f"{language}.json")
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        ngram_set = crystal.NgramSet.load(path)
    return ngram_set if ngram_set.tokenizer == tokenizer else None


def resolve_ngram_set(
    source: NgramSource, language: str | None, tokenizer: str = "code"
) -> crystal.NgramSet | None:
    """Turn a user's ``ngrams=`` argument into an :class:`crystal.NgramSet` (or ``None``).

    Parameters
    ----------
    source : a path to a saved set, an ``NgramSet``, an iterable of n-gram tuples (counts
        unknown, so each gets count 1: use a built set for the log-weight variant), or ``None``
        for the shipped default of ``language`` (``None`` again when there is no default).
    language : canonical language name.
    tokenizer : the scorer's tokenizer (a shipped default must have been counted with it).

    Returns
    -------
    The n-gram set, or ``None`` when no set is given and none is shipped.

    Raises
    ------
    ValueError : the file is missing or is not a valid n-gram set.
    """
    if source is None:
        return shipped_ngram_set(language, tokenizer)
    if isinstance(source, crystal.NgramSet):
        return source
    if isinstance(source, (str, PathLike)):
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"n-gram file not found: {path}")
        return crystal.NgramSet.load(path)
    # A bare collection has no corpus counts: count 1 each (fine for the "ignore" variant).
    grams = {tuple(gram): 1 for gram in source}
    max_n = max((len(g) for g in grams), default=1)
    return crystal.NgramSet(grams, tokenizer=tokenizer, k=len(grams), max_n=max_n)


def load_ngram_file(path: str | PathLike) -> tuple[crystal.NgramSet, str | None]:
    """A set saved by :func:`save_ngram_set` (or :meth:`crystal.NgramSet.save`) and the
    language it was built for, ``None`` when the file does not say (older files).

    Raises
    ------
    ValueError : the file is missing or is not a valid n-gram set (the message names it).
    """
    file = Path(path)
    try:
        ngram_set, header = crystal.NgramSet.load_with_header(file)
    except FileNotFoundError:
        raise ValueError(f"n-gram file not found: {file}") from None
    except OSError as exc:
        raise ValueError(f"{file}: cannot read ({exc.strerror or exc})") from None
    language = header.get(LANGUAGE_KEY)
    return ngram_set, language if isinstance(language, str) and language else None


#: The header key :func:`save_ngram_set` adds: the language the corpus was in. Readers of the
#: format ignore keys they do not know, so files with it load everywhere.
LANGUAGE_KEY = "language"


def save_ngram_set(
    ngram_set: crystal.NgramSet, path: str | PathLike, language: str | None = None
) -> None:
    """Write ``ngram_set`` (:meth:`crystal.NgramSet.save`) with the ``language`` it was built
    for in the header."""
    ngram_set.save(path, header=None if language is None else {LANGUAGE_KEY: language})
