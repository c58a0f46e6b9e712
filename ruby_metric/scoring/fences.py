"""Model output in a markdown code fence: the code inside it, at its own lines and columns.

Chat models answer with the program in a fence (```` ```python ```` ... ```` ``` ````), often
followed by a sentence about it; evaluation harnesses run the code inside. A text that
*starts* with a fence is read as the fence's content: the fence lines and anything after the
closing fence are blanked (every character but the line breaks becomes a space), so every
tier reads the code alone and every line and column still points into the text as given.
Only a fence on the first non-blank line counts: code never starts with three backticks, so
a program that writes fences inside a string literal is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Unfenced", "unfence"]

_OPEN = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*[\w+#.-]*[ \t]*")


@dataclass(frozen=True)
class Unfenced:
    """A text with its markdown fence blanked.

    Attributes
    ----------
    code : the text, fence lines and what follows the closing fence blanked (same length,
        same line breaks).
    fence : the opening fence line as written (``"```python"``), ``None`` when the text
        does not start with a fence (then ``code`` is the text itself).
    trailing : whether text after the closing fence (prose) was blanked too.
    """

    code: str
    fence: str | None = None
    trailing: bool = False

    def describe(self) -> str | None:
        """What was done, for reasons: ``'code read from its markdown fence (```python)'``,
        ``None`` when nothing was."""
        if self.fence is None:
            return None
        after = "; the text after it left out" if self.trailing else ""
        return f"code read from its markdown fence ({self.fence.strip()}){after}"


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def unfence(text: str) -> Unfenced:
    """The code of a text that starts with a markdown code fence; the text as it is otherwise.

    Parameters
    ----------
    text : model output or code.

    Returns
    -------
    :class:`Unfenced`; its ``code`` has the text's length and line breaks. An opening fence
    with no closing one (output cut off) blanks the opening line only.

    Examples
    --------
    >>> u = unfence("```python\\nprint(1)\\n```\\nThis prints 1.\\n")
    >>> u.code.split("\\n")[1], u.code.strip(), u.fence, u.trailing
    ('print(1)', 'print(1)', '```python', True)
    >>> unfence("x = '```'\\n").fence is None
    True
    """
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return Unfenced(text)
    opening = _OPEN.fullmatch(lines[first])
    if opening is None:
        return Unfenced(text)
    marker = opening.group(1)
    closing = next((i for i in range(first + 1, len(lines))
                    if lines[i].strip().startswith(marker[0] * len(marker))
                    and not lines[i].strip().strip(marker[0])), None)
    out = list(lines)
    out[first] = _blank(lines[first])
    trailing = False
    if closing is not None:
        trailing = any(line.strip() for line in lines[closing + 1:])
        for i in range(closing, len(lines)):
            out[i] = _blank(lines[i])
    return Unfenced("\n".join(out), lines[first], trailing)
