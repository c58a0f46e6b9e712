"""HTML pages, as self-contained strings: the one-pair page, the corpus report page, the
A-vs-B comparison page, and the SVG they draw (plots, PDGs). Rendering only: every number on a
page was computed below, in :mod:`ruby_metric.scoring`, or above, by the report builders."""
