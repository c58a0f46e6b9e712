"""Deprecated path of :mod:`ruby_metric.scoring.grs_cost`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.grs_cost import *  # noqa: F403

warn_moved("ruby_metric.grs_cost", "ruby_metric.scoring.grs_cost")
