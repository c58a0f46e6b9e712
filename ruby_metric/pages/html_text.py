r"""Text for our HTML and SVG pages: escaping, truncation, compact coordinates, and
writing a page to a file.

>>> escape("<b> & \x00")
'&lt;b&gt; &amp; \ufffd'
>>> coord(12.50), coord(3.0)
('12.5', '3')
"""

from __future__ import annotations

import html
import os
import re

__all__ = ["coord", "escape", "truncate", "write_page"]

# Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/F): code may hold them.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def escape(text: object) -> str:
    """Escape for HTML text and attribute values; drop characters HTML cannot carry."""
    return html.escape(_INVALID_XML.sub("\ufffd", str(text)), quote=True)


def truncate(text: str, limit: int) -> str:
    r"""``text`` on one line, cut to ``limit`` characters with an ellipsis.

    >>> truncate("a  b\nc", 9), truncate("abcdef", 4)
    ('a b c', 'abc…')
    """
    text = " ".join(text.split())
    if limit < 2:
        return "\u2026"
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def coord(value: float) -> str:
    """An SVG coordinate to one decimal, trailing zeros dropped: small pages, stable bytes."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def write_page(path: str | os.PathLike[str], page: str) -> None:
    """Write a page to ``path``: UTF-8, ``\\n`` line ends whatever the platform, so equal
    pages are equal bytes.

    Raises
    ------
    OSError : the file cannot be written.
    """
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(page)
