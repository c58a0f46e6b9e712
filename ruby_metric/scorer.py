"""Deprecated path of :mod:`ruby_metric.api.scorer`; goes away in 0.6."""

from .api.scorer import *  # noqa: F403
from .deprecations import warn_moved

warn_moved("ruby_metric.scorer", "ruby_metric.api.scorer")
