"""Stable fingerprints of findings: the same defect keeps its fingerprint when its numbers change.

Used by baselines (``--baseline``), SARIF ``partialFingerprints`` and the JSON output. A
fingerprint hashes the rule, the file, the object (``Kind/namespace/name``), the field path and
the finding's *subject*: its message without the details that move while the defect stays the
same. Never a line or column, so editing a file keeps its findings' fingerprints; never a count,
so ``replicas: 2`` becoming ``3`` keeps DRA600's; never the parenthesised details, where messages
name the other objects involved (the pods of other workloads holding devices), so adding an
unrelated Pod keeps DRA501's. Two findings of one rule on one field of one object stay apart by
what the subject still says (which counter, which reason).
"""

from __future__ import annotations

import re

from dralint.findings import Finding

# Standalone numbers: the 0 of gpu-0 is one (the path tells such findings apart), the 3 of counter3 is not.
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_SPACES = re.compile(r"\s+")


def subject(message: str) -> str:
    """``message`` without parenthesised text and with standalone numbers as ``N``.

    ``all 3 replicas of Deployment ml/a share ...`` and ``all 4 replicas ...`` have one subject;
    so have ``1 of 5 pods ... (demand ...: Pod ml/x 1)`` and the same with another Pod listed.
    """
    kept: list[str] = []
    depth = 0
    for char in message:
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif not depth:
            kept.append(char)
    return _SPACES.sub(" ", _NUMBER.sub("N", "".join(kept))).strip()


def identity(rule: str, file: str, obj: str | None, path: str, message: str) -> str:
    """Hex digest of a finding's identity from its parts (a baseline entry holds them as text)."""
    import hashlib  # only for baselines, SARIF and JSON: loading OpenSSL costs a text report 2.5 ms

    parts = (rule, file.replace("\\", "/"), obj or "", path, subject(message))
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def fingerprint(finding: Finding, file: str | None = None) -> str:
    """Hex digest of the finding's identity; ``file`` overrides the file name (e.g. made relative)."""
    return identity(
        finding.rule,
        file if file is not None else finding.location.file,
        finding.object.display() if finding.object is not None else None,
        finding.path_text,
        finding.message,
    )
