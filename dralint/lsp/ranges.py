"""Where a finding's diagnostic ends: the end of the offending token or value, not just its first column.

Positions here are 0-based (line, character) in code points, as Python indexes the text; the
server converts them to the client's units. A finding points at a field's key (the value, when
it is a scalar on the same line, is part of the range), at a character inside a string (the
token that starts there), or at a line of the file.
"""

from __future__ import annotations

import re

from ruamel.yaml.nodes import ScalarNode

from dralint.api.objects import KubeObject
from dralint.findings import Finding

Position = tuple[int, int]  # 0-based line, character (code points)

# A key as YAML writes it at the start of a field: `name:`, `"quoted key":` (followed by a space or the end).
_KEY = re.compile(r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s:#'"][^:#]*?)\s*:(?=\s|$)""")
# A token inside a value: a quoted string, or a run of characters that are not CEL/YAML punctuation.
_TOKEN = re.compile(r""""(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[^\s,\[\]{}()"'=!<>&|+*?:;]+""")


def finding_range(finding: Finding, line_text: str, obj: KubeObject | None) -> tuple[Position, Position]:
    """The range of ``finding`` on its line (``line_text``, without the line break)."""
    line, column = finding.location.line - 1, max(0, finding.location.column - 1)
    column = min(column, len(line_text))
    start = (line, column)
    value = _scalar_value_end(finding, obj, start)
    if value is not None:
        return start, value
    key = _KEY.match(line_text, column)
    if key is not None:
        end = key.end()
        rest = line_text[end:].split(" #", 1)[0].rstrip()
        if rest.strip() and rest.strip()[0] not in "|>&*!" and not rest.strip().startswith(("{", "[")):
            end += len(rest)
        return start, (line, end)
    token = _TOKEN.match(line_text, column)
    if token is not None and token.end() > column:
        return start, (line, token.end())
    end = len(line_text.rstrip())
    return start, (line, end if end > column else column + 1)


def _scalar_value_end(finding: Finding, obj: KubeObject | None, start: Position) -> Position | None:
    """The end of the scalar at the finding's path, when the finding points at its key or its start on one line."""
    if obj is None or finding.object is None:
        return None
    document = obj.document
    node = document.value_node(obj.prefix + finding.path)
    if not isinstance(node, ScalarNode):
        return None
    offset = document.line_offset
    first, last = node.start_mark.line + offset, node.end_mark.line + offset
    if first != last or first != start[0]:
        return None  # a multi-line value, or a finding inside it: the token at the position says more
    key_line = document.position(obj.prefix + finding.path)[0] - 1
    if start[1] > node.start_mark.column or (start[1] < node.start_mark.column and key_line != start[0]):
        return None
    return (last, node.end_mark.column)
