"""The reproducibility signature printed with every score, after sacrebleu's.

Two runs with the same signature and the same inputs give the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import metadata

import crystal

from ..version import __version__


def _package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "none"


def ngram_set_id(ngram_set: crystal.NgramSet) -> str:
    """Short name of an n-gram set: size, order and the start of its content hash."""
    digest = ngram_set.content_hash.removeprefix("sha256:")[:12]
    return f"k{ngram_set.k}-n{ngram_set.max_n}-{digest}"


def signature(
    *,
    language: str | None,
    languages: Sequence[str | None] | None = None,
    tokenizer: str,
    tokenizers: Mapping[str | None, str] | None = None,
    ngram_sets: dict[str | None, crystal.NgramSet],
    variant: str,
    smoothing: str,
    epsilon: float,
    grs_beta: float = 2.0,
    repair: bool = True,
    source: tuple[str, str] | None = None,
) -> str:
    """Build the signature string.

    Parameters
    ----------
    language : canonical language name, or ``None``.
    languages : the canonical languages of the pairs actually scored, when known; a run of
        several languages names each one (``lang:cs+java``, and a grammar per language).
    tokenizer : the token splitter used by STS and the BLEUs.
    tokenizers : the tokenizer of each language scored, when known (a pair's language
        chooses its default tokenizer): one tokenizer for all gives ``tok:code``; several
        are named per language, ``tok:java=code+python=code-python``.
    ngram_sets : CrystalBLEU's trivially shared n-grams per language (empty when none).
    variant, smoothing, epsilon : CrystalBLEU/BLEU settings.
    grs_beta : GRS's recall weight (in the ``norm`` field: ``pdg8-...-beta2``). The
        ``reach`` in both norm tags: a program's code that never runs from its entry point
        is left out of the tree and the graph, and its entry is one node
        (:mod:`graphs.parsing.entry`).
    repair : whether almost-code is repaired or contained for the structural tiers
        (``repair:on``, ``repair:off``).
    source : when scoring against the source program, ``(its canonical language, the
        neutral map's fields)``: adds ``mode:source|srclang:...|map:...`` and the source
        grammar.

    Returns
    -------
    ``key:value`` fields joined by ``|``, e.g.
    ``ruby-metric:0.3.0|lang:java|tok:code|ngrams:k500-n4-3f2a…|cbleu:ignore|smooth:method1-eps0.0001|...``
    """
    ngrams = (
        "+".join(
            ("" if len(ngram_sets) == 1 else f"{lang}=") + ngram_set_id(s)
            for lang, s in sorted(ngram_sets.items(), key=lambda item: str(item[0]))
        )
        or "none"
    )
    scored = list(languages) if languages else [language]
    used = sorted(set(tokenizers.values())) if tokenizers else [tokenizer]
    if len(used) == 1:
        tok = used[0]
    else:
        assert tokenizers is not None
        tok = "+".join(
            f"{lang or 'none'}={name}"
            for lang, name in sorted(tokenizers.items(), key=lambda item: str(item[0]))
        )
    fields = [
        f"ruby-metric:{__version__}",
        "lang:" + "+".join(lang or "none" for lang in scored),
        f"tok:{tok}",
        f"ngrams:{ngrams}",
        f"cbleu:{variant}",
        f"smooth:{smoothing}-eps{epsilon:g}",
        f"norm:ast-named-nocomments-reach,pdg8-canonical-aligned-weighted-shared-reach-beta{grs_beta:g}",
        "repair:" + ("on" if repair else "off"),
    ]
    if source is not None:
        fields.append(source[1])
    fields.append(f"tree-sitter:{_package_version('tree-sitter')}")
    grammars = []
    for lang in dict.fromkeys(([source[0]] if source is not None else []) + scored):
        if lang is not None:
            import graphs

            package = graphs.get_language(lang).package
            grammars.append(f"{package}-{_package_version(package)}")
    if grammars:
        fields.append("grammar:" + "+".join(grammars))
    return "|".join(fields)
