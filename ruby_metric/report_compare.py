"""Deprecated path of :mod:`ruby_metric.reports.compare` and :mod:`ruby_metric.pages.compare_page`;
goes away in 0.6."""

from .deprecations import warn_moved
from .pages.compare_page import *  # noqa: F403
from .reports.compare import *  # noqa: F403

warn_moved("ruby_metric.report_compare", "ruby_metric.reports.compare")
