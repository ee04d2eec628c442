"""Recognise unrendered Helm/Go templates in manifest text.

A chart's ``templates/*.yaml`` is not a manifest until ``helm template`` renders it. But
``{{ ... }}`` also appears legitimately in rendered manifests: Prometheus alert texts
(``"{{ $labels.pod }} is down"``), Argo parameters (``"{{inputs.parameters.gpu}}"``). So a
directive only makes a document a template when it is Helm-specific (``.Values``,
``.Release``, ``include``, ``toYaml``, control words, ``{{-`` trim markers) or when it is not
inside a string value at all (``image: {{ .image }}`` parses as a mapping, or not at all).
The second test needs the parsed values, so this module only finds and classifies directives;
:mod:`dralint.read.yamldoc` combines them with the documents.
"""

from __future__ import annotations

import re
from typing import Any

from dralint.dataclass import dataclass
from dralint.regex import compiled_on_first_use

__all__ = ["Directive", "directives", "string_directive_count"]

_OPEN = re.compile(r"\{\{")
_helm_re = compiled_on_first_use(
    r"""\{\{-|-\}\}                                              # whitespace trim markers
        |\{\{\s*(?:
            \.(?:Values|Release|Chart|Capabilities|Files|Template)\b  # Helm's built-in objects
          | (?:if|else|end|range|with|define|block|template|include|tpl|toYaml|toJson|fromYaml
              |required|default|quote|squote|nindent|indent|printf|lookup|trim|lower|upper)\b
          | /\*                                                       # template comments
        )""",
    re.VERBOSE,
)
_MAX_SHOWN = 40


@dataclass(frozen=True, slots=True)
class Directive:
    """A ``{{`` found outside YAML comments: 1-based position, its text, and whether it is Helm-specific."""

    line: int
    column: int
    text: str
    helm: bool


def directives(text: str) -> list[Directive]:
    """Every ``{{`` of ``text`` outside comments, in order (lines split on ``\\n`` only)."""
    if "{{" not in text:
        return []
    found: list[Directive] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "{{" not in line:
            continue
        limit = _comment_start(line)
        for match in _OPEN.finditer(line, 0, limit):
            start = match.start()
            close = line.find("}}", start)
            shown = line[start : close + 2] if close >= 0 else line[start:].rstrip()
            if len(shown) > _MAX_SHOWN:
                shown = shown[: _MAX_SHOWN - 3] + "..."
            helm = bool(_helm_re().match(line, start)) or (close >= 0 and line[close - 1 : close] == "-")
            found.append(Directive(number, start + 1, shown, helm))
    return found


def _comment_start(line: str) -> int:
    """Index where a YAML comment starts on ``line`` (``len(line)`` when there is none).

    A ``#`` starts a comment at the start of a line or after whitespace, outside quotes. Block
    scalar content can contain ``" #"`` too; missing a directive there only makes the string
    test below more lenient, never stricter.
    """
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'" and (index == 0 or line[index - 1] in " \t[{,:-"):
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return index
    return len(line)


def string_directive_count(data: Any) -> int:
    """How many ``{{`` occur inside string values and keys of decoded ``data``."""
    if isinstance(data, str):
        return data.count("{{")
    if isinstance(data, dict):
        return sum(key.count("{{") + string_directive_count(value) for key, value in data.items())
    if isinstance(data, list):
        return sum(string_directive_count(item) for item in data)
    return 0
