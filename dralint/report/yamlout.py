"""YAML documents for kubectl and for dralint's own files (``inventory expand``, ``profile extract``).

ruamel writes YAML 1.2, where ``0000:10`` or ``yes`` is a plain string; kubectl (go-yaml v2)
and dralint read YAML 1.1, where they are a number and a boolean. Every string that would not
read back as itself is quoted, as ruamel quotes YAML 1.2's own look-alikes (``'7'``); lists of
scalars may be written on one line, where strings with flow indicators are quoted too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["dump_all"]


def dump_all(documents: Sequence[Any], *, header: str = "", flow_scalar_lists: bool = False) -> str:
    """The documents as multi-document YAML, each after ``header`` (comment lines)."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.default_flow_style = False
    out = io.StringIO()
    for index, document in enumerate(documents):
        out.write("---\n" if index else "")
        out.write(header)
        yaml.dump(_prepared(document, flow_scalar_lists), out)
    return out.getvalue()


_FLOW_PLAIN = re.compile(r"[\w][\w .\-/+]*")  # safe unquoted inside [...]


def _prepared(data: Any, flow: bool, *, in_flow: bool = False) -> Any:
    from ruamel.yaml.comments import CommentedSeq
    from ruamel.yaml.scalarstring import SingleQuotedScalarString

    from dralint.read.scalars import resolve_plain

    if isinstance(data, str):
        plain = resolve_plain(data) == data and "\n" not in data
        if plain and (not in_flow or _FLOW_PLAIN.fullmatch(data)):
            return data
        return SingleQuotedScalarString(data)
    if isinstance(data, dict):
        return {key: _prepared(value, flow) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        one_line = flow and bool(data) and all(isinstance(item, (str, int, float, bool)) for item in data)
        items = [_prepared(item, flow, in_flow=one_line) for item in data]
        if one_line:
            seq = CommentedSeq(items)
            seq.fa.set_flow_style()
            return seq
        return items
    return data
