"""Deprecated path of :mod:`ruby_metric.io.formats`; goes away in 0.6."""

from .deprecations import warn_moved
from .io.formats import *  # noqa: F403

warn_moved("ruby_metric.formats", "ruby_metric.io.formats")
