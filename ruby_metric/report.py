"""Deprecated path of :mod:`ruby_metric.reports.corpus`; goes away in 0.6."""

from .deprecations import warn_moved
from .reports.corpus import *  # noqa: F403

warn_moved("ruby_metric.report", "ruby_metric.reports.corpus")
