"""Field paths: where in an object a finding points, rendered the way kube-apiserver prints them.

A path is a tuple of steps. A ``str`` step is a struct field (rendered ``.name``), an ``int`` an
index (``[3]``) and a :class:`Key` a map key (``[gpu.example.com/model]``). Keeping map keys
distinct from fields is what lets ``attributes[gpu.example.com/model]`` render as the API server
renders it while both still resolve to the same YAML mapping lookup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Key", "Path", "is_path", "join", "parse", "render", "value_at"]


class Key(str):
    """A map key in a field path (as opposed to a struct field name)."""

    __slots__ = ()


Step = str | int
Path = tuple[Step, ...]


def join(*parts: Step | Iterable[Step]) -> Path:
    """Concatenate steps and paths into one path."""
    out: list[Step] = []
    for part in parts:
        if isinstance(part, (str, int)):
            out.append(part)
        else:
            out.extend(part)
    return tuple(out)


def render(path: Path) -> str:
    """Render ``("spec", "devices", "requests", 1, "name")`` as ``spec.devices.requests[1].name``."""
    out: list[str] = []
    for step in path:
        if isinstance(step, (int, Key)):
            out.append(f"[{step}]")
        elif out:
            out.append("." + step)
        else:
            out.append(step)
    return "".join(out)


_STEP = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")


def parse(text: str) -> Path:
    """Inverse of :func:`render`: digits in brackets are indexes, other bracketed text map keys."""
    steps: list[Step] = []
    for match in _STEP.finditer(text):
        field, bracket = match.groups()
        if field is not None:
            steps.append(field)
        elif bracket is not None and bracket.isdigit():
            steps.append(int(bracket))
        else:
            steps.append(Key(bracket or ""))
    return tuple(steps)


def is_path(text: str) -> bool:
    """Whether ``text`` is a path as :func:`render` writes it: :func:`parse` skips what is not
    (``spec..name``, an unclosed ``[``), so a path written by hand is checked before it is used."""
    return render(parse(text)) == text


def value_at(data: Any, path: Path) -> Any:
    """The value at ``path`` in plain data (mappings and lists), or ``None`` where it does not exist."""
    for step in path:
        if isinstance(data, Mapping) and isinstance(step, str):
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return None
    return data
