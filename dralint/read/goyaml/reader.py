"""Where go-yaml v2's reader refuses a text: the characters YAML 1.1 does not allow, found a block at a time.

go-yaml decodes its input 512 bytes at a time, ahead of the scanner, and refuses the whole
text ("control characters are not allowed") as soon as a block holds a character outside the
printable set, even one after the end of the document it is reading. So what counts is the
block: :func:`reader_limit` gives the index of the first character of the block holding the
first refused character, and the scanner fails when it looks that far.
"""

from __future__ import annotations

import re

__all__ = ["reader_limit"]

# Tab, line feed, carriage return, printable ASCII, NEL, and the printable ranges above it.
_REFUSED = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BLOCK = 512  # bytes go-yaml reads at a time


def reader_limit(text: str) -> int | None:
    """The index where go-yaml's reader refuses ``text`` (``None``: nowhere)."""
    refused = _REFUSED.search(text)
    if refused is None:
        return None
    # Blocks end at the last whole character within 512 bytes of the previous end.
    block_start = 0  # a character index
    budget = _BLOCK
    for index, char in enumerate(text[: refused.start() + 1]):
        width = 1 if char < "\x80" else 2 if char < "\u0800" else 3 if char < "\U00010000" else 4
        if width > budget:  # this character starts the next block
            block_start = index
            budget = _BLOCK
        budget -= width
    return block_start
