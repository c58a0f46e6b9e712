"""Writing results: a table for people; JSON, JSONL and CSV for machines."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

from ..scoring.crosslang import NOT_COMPARABLE
from ..scoring.metrics import METRIC_TABLE, REASON_KEYS
from ..scoring.missing import missing_of
from ..scoring.results import CorpusResult, PairResult, mean_of
from ..scoring.structure_notes import structure_summary

FORMATS: tuple[str, ...] = ("table", "json", "jsonl", "csv")


def counted(count: int, noun: str) -> str:
    """``"1 pair"``, ``"2,000 pairs"``: a count and its noun for a message.

    >>> counted(1, "line"), counted(10000, "pair")
    ('1 line', '10,000 pairs')
    """
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _json(obj: Any) -> str:
    # allow_nan=False: a NaN would be a bug upstream, and must not become invalid JSON silently.
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def jsonl_line(pair: PairResult, extra: Mapping[str, Any] | None = None) -> str:
    """One pair as a JSONL line (without the newline); ``extra`` (its system, its label)
    comes right after the id."""
    return _json(with_extra(pair.to_dict(), extra))


def with_extra(record: dict[str, Any], extra: Mapping[str, Any] | None) -> dict[str, Any]:
    """``record`` with the ``extra`` columns after its ``id``.

    >>> with_extra({"id": 3, "ruby": 0.5}, {"model": "m", "passed": True})
    {'id': 3, 'model': 'm', 'passed': True, 'ruby': 0.5}
    """
    if not extra:
        return record
    return {"id": record["id"], **extra, **{k: v for k, v in record.items() if k != "id"}}


def write_jsonl(pairs: Iterable[PairResult], out: TextIO) -> None:
    """One JSON object per pair, flushed per line so an interrupted run leaves valid JSONL."""
    writer = PairWriter(out, "jsonl")
    for pair in pairs:
        writer.write(pair)


def write_json(corpus: CorpusResult, out: TextIO) -> None:
    """``{"corpus": {...}, "pairs": [...]}`` with the signature in the corpus part."""
    out.write(json.dumps(corpus.to_dict(), ensure_ascii=False, allow_nan=False, indent=2) + "\n")


#: CSV columns: the keys of :meth:`PairResult.to_record`, in its order.
CSV_FIELDS = [
    "id",
    *[k for m in METRIC_TABLE for k in ((m.key, "tier") if m.key == "ruby" else (m.key,))],
    *[f"reason_{key}" for key in REASON_KEYS],
]


class PairWriter:
    """Writes pairs one at a time as JSONL or CSV, flushing each line, so an interrupted
    run leaves a valid file of the pairs already scored."""

    def __init__(self, out: TextIO, fmt: str, extra_fields: Sequence[str] = ()) -> None:
        """``extra_fields``: columns each row carries after its id (a system, a label),
        given per row to :meth:`write`."""
        if fmt not in ("jsonl", "csv"):
            raise ValueError(f"cannot stream format {fmt!r}")
        self.out = out
        self.fmt = fmt
        self._csv = None
        if fmt == "csv":
            fields = [CSV_FIELDS[0], *extra_fields, *CSV_FIELDS[1:]]
            self._csv = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
            self._csv.writeheader()

    def write(self, pair: PairResult, extra: Mapping[str, Any] | None = None) -> None:
        if self._csv is not None:
            self._csv.writerow(with_extra(pair.to_record(), extra))
        else:
            self.out.write(jsonl_line(pair, extra) + "\n")
        self.out.flush()


def write_csv(corpus: CorpusResult, out: TextIO) -> None:
    """Per-pair records (:meth:`CorpusResult.to_records`) with a header row."""
    writer = PairWriter(out, "csv")
    for pair in corpus.pairs:
        writer.write(pair)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def write_table(
    corpus: CorpusResult,
    out: TextIO,
    *,
    max_reason: int = 60,
    metrics: Sequence[str] | None = None,
    labels: tuple[str, Sequence[Any]] | None = None,
) -> None:
    """Aligned per-pair rows, then the corpus summary and the signature.

    ``metrics``: the metrics that were asked for; the pair rows have columns for those only
    (with RUBY's, the tier it used) and the summary gives their corpus scores (a tier RUBY
    fell back to was scored on some pairs, but its mean over the few pairs that needed it is
    no corpus score). ``None``: every metric. ``labels``: ``(field, one label per pair)``, a
    column after the id (``--label-field passed``: whether each candidate passed).
    """
    shown = [m for m in METRIC_TABLE if metrics is None or m.key in metrics]
    header = ["id"] if labels is None else ["id", labels[0]]
    for m in shown:
        header += [m.short, "tier"] if m.key == "ruby" else [m.short]
    header.append("why not")
    rows = []
    for pair in corpus.pairs:
        # against a source, BLEU & co. are n/a on every row: the summary says so once
        # a missing candidate's zeros share one reason: it leads, once, before the others
        missing = missing_of(pair)
        why = "; ".join(
            ([missing] if missing is not None else [])
            + [f"{k}: {v}" for k, v in sorted(pair.reasons.items())
               if k != "ruby" and v != NOT_COMPARABLE and v != missing]
        )
        if len(why) > max_reason:
            why = why[: max_reason - 1] + "…"
        row = [str(pair.id)]
        if labels is not None:
            row.append(label_text(labels[1][len(rows)]))
        for m in shown:
            row.append(_fmt(getattr(pair, m.key)))
            if m.key == "ruby":
                row.append(pair.tier or "-")
        rows.append([*row, why])
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()
    out.write(line + "\n" + "-" * len(line) + "\n")
    for row in rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n")
    summary = corpus.summary()
    out.write("\n")
    out.write(f"pairs        {summary['pairs']}\n")
    for m in shown:
        how = (mean_of(summary["counts"][m.key], summary["pairs"]) if m.aggregate == "mean"
               else "corpus")
        reason = _shared_reason(corpus.pairs, m.key) if summary[m.key] is None else None
        out.write(f"{m.label:<12} {_fmt(summary[m.key])}  {reason or f'({how})'}\n")
    if any(m.key == "ruby" for m in shown):
        tiers = ", ".join(f"{tier} {n}" for tier, n in summary["tiers"].items())
        out.write(f"{'RUBY tiers':<12} {tiers}\n")
    structure = structure_summary(summary.get("structure", {}))
    if structure:
        out.write(f"{'structure':<12} {structure}\n")
    out.write(f"{'signature':<12} {summary['signature']}\n")


def label_text(value: object, none: str = "-") -> str:
    """A label or a system as JSON writes it (``true``, ``false``, ``0.5``, ``2`` for a
    whole float, text as it is), ``none`` for ``None`` (a table's ``-``, a page's ``null``).

    >>> [label_text(x) for x in (True, False, 0.5, 2.0, 3, None, "ok")]
    ['true', 'false', '0.5', '2', '3', '-', 'ok']
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return none
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _shared_reason(pairs: Sequence[PairResult], metric: str) -> str | None:
    """The one short reason every readable pair gives for not having ``metric`` (``not
    comparable across languages``, against sources), or ``None``: a summary line of
    ``-  (mean of 0 of 164)`` reads as a metric that failed on every pair, not as one that
    does not apply."""
    reasons = {p.reasons.get(metric) for p in pairs if "input" not in p.reasons}
    if len(reasons) != 1:
        return None
    (reason,) = reasons
    return reason if reason and len(reason) <= _SHORT_REASON else None


#: The longest reason the summary shows in place of "mean of 0 of N" (a longer one, such as
#: the missing n-gram set's advice, is in the pairs' rows and the warning).
_SHORT_REASON = 80


def write(
    corpus: CorpusResult, out: TextIO, fmt: str, metrics: Sequence[str] | None = None,
    labels: tuple[str, Sequence[Any]] | None = None,
) -> None:
    """Write ``corpus`` in one of :data:`FORMATS` (``metrics``, ``labels``: see
    :func:`write_table`; the other formats carry labels in their rows already)."""
    if fmt == "table":
        write_table(corpus, out, metrics=metrics, labels=labels)
    elif fmt == "json":
        write_json(corpus, out)
    elif fmt == "jsonl":
        write_jsonl(corpus.pairs, out)
    elif fmt == "csv":
        write_csv(corpus, out)
    else:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
