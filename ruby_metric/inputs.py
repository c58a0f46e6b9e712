"""Deprecated path of :mod:`ruby_metric.io.inputs`; goes away in 0.6."""

from .deprecations import warn_moved
from .io.inputs import *  # noqa: F403

warn_moved("ruby_metric.inputs", "ruby_metric.io.inputs")
