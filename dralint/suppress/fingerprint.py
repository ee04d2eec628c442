"""Stable fingerprints of findings: the same defect keeps its fingerprint when lines move.

Used by baselines (``--baseline``) and SARIF ``partialFingerprints``. A fingerprint hashes the
rule, the file, the object's identity (group, kind, namespace, name), the field path and the
message, never a line or column; line numbers quoted inside a message are masked too.
"""

from __future__ import annotations

import hashlib
import re

from dralint.findings import Finding

_LINE_NUMBERS = re.compile(r"\b(lines?) \d+(?:-\d+)?")


def fingerprint(finding: Finding, file: str | None = None) -> str:
    """Hex digest of the finding's identity; ``file`` overrides the file name (e.g. made relative)."""
    obj = finding.object
    identity = ""
    if obj is not None:
        group = obj.api_version.rpartition("/")[0] if "/" in obj.api_version else ""
        identity = f"{group}/{obj.kind}/{obj.namespace or ''}/{obj.name or ''}"
    parts = (
        finding.rule,
        (file if file is not None else finding.location.file).replace("\\", "/"),
        identity,
        finding.path_text,
        _LINE_NUMBERS.sub(r"\1 N", finding.message),
    )
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]
