"""Deprecated path of :mod:`ruby_metric.scoring.code`; goes away in 0.6."""

from .deprecations import warn_moved
from .scoring.code import *  # noqa: F403

warn_moved("ruby_metric.code", "ruby_metric.scoring.code")
