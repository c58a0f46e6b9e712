"""Pieces every ``ruby-metric`` subcommand shares: argument types and the output file."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from .inputs import InputError
from .metrics import parse_metrics


def metrics_arg(text: str) -> list[str]:
    """``--metrics``: a comma-separated subset of :data:`~ruby_metric.metrics.METRICS`."""
    try:
        return list(parse_metrics([m for m in text.split(",") if m.strip()]))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argument type accepting integers >= ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}: {value}")
        return value

    return parse


@contextlib.contextmanager
def output_file(path: str | None) -> Iterator[TextIO]:
    """Standard output, or ``path`` opened for writing (an error names the file)."""
    if path is None:
        yield sys.stdout
        return
    try:
        handle = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    with handle:
        yield handle
