"""Deprecated path of :mod:`ruby_metric.scoring.metrics`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.metrics import *  # noqa: F403

warn_moved("ruby_metric.metrics", "ruby_metric.scoring.metrics")
