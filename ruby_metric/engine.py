"""Deprecated path of :mod:`ruby_metric.batch.engine`; goes away in 0.6."""

from .batch.engine import *  # noqa: F403
from .deprecations import warn_moved

warn_moved("ruby_metric.engine", "ruby_metric.batch.engine")
