"""Deprecated path of :mod:`ruby_metric.api.explanation`; goes away in 0.6."""

from .api.explanation import *  # noqa: F403
from .deprecations import warn_moved

warn_moved("ruby_metric.explanation", "ruby_metric.api.explanation")
