"""Deprecated path of :mod:`ruby_metric.scoring.signature`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.signature import *  # noqa: F403

warn_moved("ruby_metric.signature", "ruby_metric.scoring.signature")
