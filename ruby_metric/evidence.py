"""Deprecated path of :mod:`ruby_metric.scoring.evidence`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.evidence import *  # noqa: F403

warn_moved("ruby_metric.evidence", "ruby_metric.scoring.evidence")
