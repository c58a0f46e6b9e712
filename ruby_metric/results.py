"""Deprecated path of :mod:`ruby_metric.scoring.results`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.results import *  # noqa: F403

warn_moved("ruby_metric.results", "ruby_metric.scoring.results")
