"""Deprecated path of :mod:`ruby_metric.api.explain`; goes away in 0.6."""

from .api.explain import *  # noqa: F403
from .deprecations import warn_moved

warn_moved("ruby_metric.explain", "ruby_metric.api.explain")
