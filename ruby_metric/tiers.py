"""Deprecated path of :mod:`ruby_metric.scoring.tiers`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.tiers import *  # noqa: F403

warn_moved("ruby_metric.tiers", "ruby_metric.scoring.tiers")
