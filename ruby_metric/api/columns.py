"""What a scorer is given, checked and made plain: one pair's texts, and a corpus's columns
(any iterable, a pandas Series) turned into :class:`~ruby_metric.io.inputs.PairInput` items
with the ids a Series's index gives."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from ..io.inputs import PairInput, no_output
from ..scoring.pair_scorer import pair_references

logger = logging.getLogger(__name__)

__all__ = ["aligned_pairs", "as_list", "pair_references", "series_index"]


def as_list(items: Any, name: str) -> list[Any]:
    """Any iterable as a list (a string is one snippet, not an iterable of pairs).

    >>> as_list((x for x in "ab"), "candidates")
    ['a', 'b']
    >>> as_list("int f();", "candidates")
    Traceback (most recent call last):
    ...
    TypeError: candidates must be an iterable with one item per pair, not a string
    """
    if isinstance(items, str):
        raise TypeError(f"{name} must be an iterable with one item per pair, not a string")
    if isinstance(items, list):
        return items
    tolist = getattr(items, "tolist", None)  # pandas and numpy: Python scalars, not numpy's
    if callable(tolist):
        return list(tolist())
    try:
        return list(items)
    except TypeError:
        raise TypeError(
            f"{name} must be an iterable with one item per pair, not {type(items).__name__}"
        ) from None


def series_index(references: Any, candidates: Any) -> list[Any] | None:
    """The ids a pandas Series gives: the candidates' index, else the references', else
    ``None`` (neither is a Series).

    Raises
    ------
    ValueError : both are Series and their indexes differ. Pandas pairs such columns by
        index label, this scorer by position: the pairs would silently not be the rows the
        caller meant.
    """
    cand_index, ref_index = _index(candidates), _index(references)
    if cand_index is not None and ref_index is not None and not _same(cand_index, ref_index):
        refs, cands = ref_index.tolist(), cand_index.tolist()
        # NaN labels (a != a) are equal ones here, as for Index.equals
        at = next((i for i, (a, b) in enumerate(zip(refs, cands, strict=True))
                   if a != b and not (a != a and b != b)), 0)
        raise ValueError(
            f"the indexes of references and candidates differ (at position {at}: "
            f"{refs[at]!r} vs {cands[at]!r}): pairs are made by position, not by index "
            "label; align them first, or pass ids= (for example ids=candidates.index) to "
            "pair them by position knowingly"
        )
    index = cand_index if cand_index is not None else ref_index
    return None if index is None else list(index.tolist())


def _index(column: Any) -> Any:
    """A pandas Series's index (anything with a ``tolist``); ``None`` for anything else."""
    index = getattr(column, "index", None)
    if index is not None and not callable(index) and hasattr(index, "tolist"):
        return index
    return None


def _same(a: Any, b: Any) -> bool:
    """Whether two indexes hold the same labels in the same order, NaN equal to NaN (what
    pandas' ``Index.equals`` says, for objects that have it)."""
    if a is b:
        return True
    equals = getattr(a, "equals", None)
    if callable(equals):
        return bool(equals(b))
    left, right = a.tolist(), b.tolist()
    return len(left) == len(right) and all(
        x == y or (x != x and y != y) for x, y in zip(left, right, strict=True)
    )


def aligned_pairs(
    references: Iterable[Any],
    candidates: Iterable[Any],
    ids: Iterable[Any] | None = None,
    languages: Iterable[str | None] | None = None,
) -> list[PairInput]:
    """The pairs of aligned columns, in order: ids from ``ids``, else a pandas Series's
    index (:func:`series_index`), else 0-based positions; languages from ``languages``
    (``None`` entries: the scorer's).

    Raises
    ------
    TypeError : a column is not iterable (or is a single string).
    ValueError : the columns have different lengths, or two Series' indexes differ.

    >>> [(p.id, p.reference, p.candidate) for p in aligned_pairs(["a", "b"], ["c", "d"])]
    [(0, 'a', 'c'), (1, 'b', 'd')]
    """
    refs = as_list(references, "references")
    cands = as_list(candidates, "candidates")
    if len(refs) != len(cands):
        raise ValueError(f"{len(refs)} references but {len(cands)} candidates")
    pair_ids = series_index(references, candidates) if ids is None else None
    if ids is not None:
        pair_ids = as_list(ids, "ids")
        if len(pair_ids) != len(refs):
            raise ValueError(f"{len(pair_ids)} ids for {len(refs)} pairs")
    if pair_ids is None:
        pair_ids = list(range(len(refs)))
    pair_langs: list[str | None] = [None] * len(refs)
    if languages is not None:
        pair_langs = as_list(languages, "languages")
        if len(pair_langs) != len(refs):
            raise ValueError(f"{len(pair_langs)} languages for {len(refs)} pairs")
    pairs = [
        PairInput(pair_id, ref, cand, lang) if not no_output(cand)
        else PairInput(pair_id, ref, "", lang, missing=f"no output ({cand!r})")
        for pair_id, ref, cand, lang in zip(pair_ids, refs, cands, pair_langs, strict=True)
    ]
    silent = [p.id for p in pairs if p.missing is not None]
    if silent:
        # a model that wrote nothing on the hard items must not gain by it: 0, said once
        logger.warning(
            "%s None or NaN (no output): each scored as a missing translation, 0 (first: "
            "pair %s)", "1 candidate is" if len(silent) == 1 else f"{len(silent):,} candidates are",
            silent[0])
    return pairs
