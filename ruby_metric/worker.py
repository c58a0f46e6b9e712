"""Deprecated path of :mod:`ruby_metric.batch.worker`; goes away in 0.6."""

from .batch.worker import *  # noqa: F403
from .deprecations import warn_moved

warn_moved("ruby_metric.worker", "ruby_metric.batch.worker")
