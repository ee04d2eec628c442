"""Baselines: accept the findings of today, report only new ones.

``dralint check --write-baseline FILE`` records the fingerprint of every finding;
``--baseline FILE`` suppresses findings whose fingerprint is recorded (as many times as it
was recorded). Fingerprints use file paths relative to the baseline's directory, so the
baseline works from any working directory.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dralint.config import globs
from dralint.errors import ConfigError, UsageError
from dralint.findings import Finding
from dralint.read import json_stream, userfile
from dralint.read.sources import DEFAULT_MAX_FILE_BYTES
from dralint.suppress.fingerprint import fingerprint

VERSION = 1


def _key(finding: Finding, base: str) -> str:
    file = finding.location.file
    return fingerprint(finding, file if file == "-" else globs.relative_to(file, base))


@dataclass(slots=True)
class Baseline:
    path: str
    remaining: Counter[str] = field(default_factory=Counter)

    def take(self, finding: Finding) -> bool:
        """Whether ``finding`` is in the baseline (each recorded fingerprint is used once)."""
        key = _key(finding, os.path.dirname(os.path.abspath(self.path)))
        if self.remaining[key] > 0:
            self.remaining[key] -= 1
            return True
        return False


def read(path: str, *, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> Baseline:
    """The baseline at ``path``; read with the manifests' size limit and decoder (depth, long numbers)."""
    values, issue = json_stream.decode(userfile.read_text(path, max_bytes=max_bytes, what="baseline file"))
    if issue is not None:
        raise ConfigError(f"{path}:{issue.line}:{issue.column}: not a dralint baseline: {issue.message}")
    data: Any = values[0][0] if len(values) == 1 else None
    findings = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(findings, list):
        raise ConfigError(f'{path}: not a dralint baseline (expected {{"version": {VERSION}, "findings": [...]}})')
    counts: Counter[str] = Counter()
    for entry in findings:
        if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str):
            raise ConfigError(f"{path}: every baseline entry needs a fingerprint")
        counts[entry["fingerprint"]] += 1
    return Baseline(path, counts)


def write(path: str, findings: Iterable[Finding]) -> int:
    """Write the baseline of ``findings`` (those not suppressed otherwise); returns how many were written."""
    base = os.path.dirname(os.path.abspath(path))
    entries = []
    for finding in findings:
        relative = (
            finding.location.file if finding.location.file == "-" else globs.relative_to(finding.location.file, base)
        )
        entries.append(
            {
                "fingerprint": _key(finding, base),
                "rule": finding.rule,
                "file": relative,
                "object": finding.object.display() if finding.object else None,
                "path": finding.path_text,
                "message": finding.message,
            }
        )
    entries.sort(key=lambda e: (e["file"] or "", e["rule"], e["object"] or "", e["path"], e["message"]))
    document = {"version": VERSION, "tool": "dralint", "findings": entries}
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            json.dump(document, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    return len(entries)
