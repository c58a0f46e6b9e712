"""The one table of metrics: key, display label, tier, how a corpus aggregates it.

Results, output formats, the CLI, the meta-evaluation and the benchmarks all derive their
metric lists from :data:`METRIC_TABLE`; adding a metric starts here.

>>> [m.key for m in METRIC_TABLE]
['ruby', 'grs', 'trs', 'sts', 'crystalbleu', 'bleu']
>>> metric_info("grs").label, metric_info("grs").tier
('GRS', 'graph')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetricInfo:
    """What identifies a metric everywhere it appears.

    Attributes
    ----------
    key : the name in results, JSON, CSV columns and ``--metrics`` (``"grs"``).
    label : the name people read in tables and reports (``"GRS"``).
    short : a column header for narrow tables (``"cbleu"``).
    tier : the RUBY tier that reports it (``"graph"``, ``"tree"``, ``"string"``), or ``None``.
    aggregate : ``"mean"`` (corpus score = mean over the pairs where it is defined) or
        ``"corpus"`` (statistics summed over pairs, then scored, as BLEU defines).
    description : one line for help texts and reports.
    """

    key: str
    label: str
    short: str
    tier: str | None
    aggregate: str
    description: str


#: Every score a pair can carry, in report order.
METRIC_TABLE: tuple[MetricInfo, ...] = (
    MetricInfo("ruby", "RUBY", "ruby", None, "mean", "the most structural tier that applies"),
    MetricInfo("grs", "GRS", "grs", "graph", "mean", "program dependence graph similarity"),
    MetricInfo("trs", "TRS", "trs", "tree", "mean", "syntax tree similarity"),
    MetricInfo("sts", "STS", "sts", "string", "mean", "token string similarity"),
    MetricInfo(
        "crystalbleu",
        "CrystalBLEU",
        "cbleu",
        None,
        "corpus",
        "BLEU without the trivially shared n-grams",
    ),
    MetricInfo("bleu", "BLEU", "bleu", None, "corpus", "NLTK-compatible BLEU"),
)

_BY_KEY: dict[str, MetricInfo] = {m.key: m for m in METRIC_TABLE}

#: The metric keys, in report order.
METRICS: tuple[str, ...] = tuple(m.key for m in METRIC_TABLE)

#: Metric key -> display label, in report order.
LABELS: dict[str, str] = {m.key: m.label for m in METRIC_TABLE}

#: The structural tiers in RUBY's order of preference, with the metric each one reports.
TIER_METRICS: dict[str, str] = {m.tier: m.key for m in METRIC_TABLE if m.tier is not None}

#: Metrics whose corpus score is the mean of the pair scores.
MEAN_METRICS: tuple[str, ...] = tuple(m.key for m in METRIC_TABLE if m.aggregate == "mean")

#: Metrics whose corpus score comes from summed statistics (the BLEUs).
CORPUS_METRICS: tuple[str, ...] = tuple(m.key for m in METRIC_TABLE if m.aggregate == "corpus")

#: Keys a pair's ``reasons`` can have: a metric that is missing, or the whole pair
#: (``input``: the pair could not be read; ``error``: scoring it crashed a worker).
REASON_KEYS: tuple[str, ...] = (*METRICS, "input", "error")


def metric_info(key: str) -> MetricInfo:
    """The :class:`MetricInfo` of ``key``.

    Raises
    ------
    ValueError : ``key`` is not a metric; the message lists the known ones.

    >>> metric_info("bleu").aggregate
    'corpus'
    """
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"unknown metric {key!r}; known: {', '.join(METRICS)}") from None


def label(key: str) -> str:
    """The display label of a metric key (the key itself for anything else).

    >>> label("crystalbleu"), label("chrf")
    ('CrystalBLEU', 'chrf')
    """
    info = _BY_KEY.get(key)
    return info.label if info is not None else key


def parse_metrics(chosen: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A user's metric names, checked and put in report order.

    Parameters
    ----------
    chosen : metric names, any case, surrounding spaces ignored.

    Returns
    -------
    tuple of metric keys in :data:`METRICS` order.

    Raises
    ------
    ValueError : a name is unknown, or none is given.

    >>> parse_metrics(["BLEU", " grs"])
    ('grs', 'bleu')
    """
    names = [m.strip().lower() for m in chosen]
    unknown = [m for m in names if m not in _BY_KEY]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; known: {', '.join(METRICS)}")
    if not names:
        raise ValueError(f"no metric given; known: {', '.join(METRICS)}")
    return tuple(m for m in METRICS if m in names)
