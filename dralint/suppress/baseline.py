"""Baselines: accept the findings of today, report only new ones.

``dralint check --write-baseline FILE`` records the fingerprint of every finding;
``--baseline FILE`` suppresses findings whose fingerprint is recorded (as many times as it
was recorded). Fingerprints use file paths relative to the baseline's directory, so the
baseline works from any working directory.

Version 2 fingerprints ignore counts and parenthesised details (see
:mod:`dralint.suppress.fingerprint`); version 1 hashed the whole message. A version 1 file is
still read: its entries keep the rule, file, object, path and message as text, from which the
version 2 fingerprint is computed, so no finding comes back; ``--write-baseline`` writes version 2.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import field
from typing import Any

from dralint.config import globs
from dralint.dataclass import dataclass
from dralint.errors import ConfigError, UsageError
from dralint.findings import Finding
from dralint.read import json_stream, userfile
from dralint.read.sources import DEFAULT_MAX_FILE_BYTES
from dralint.suppress.fingerprint import fingerprint, identity

VERSION = 2
_MIGRATED = 1  # the version read by recomputing the fingerprint of each entry
_FIELDS = ("rule", "file", "object", "path", "message")


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
    version = data.get("version") if isinstance(data, dict) else None
    if version not in (VERSION, _MIGRATED) or not isinstance(findings, list):
        raise ConfigError(f'{path}: not a dralint baseline (expected {{"version": {VERSION}, "findings": [...]}})')
    counts: Counter[str] = Counter()
    for entry in findings:
        if version == _MIGRATED:
            counts[_migrate(path, entry)] += 1
        elif isinstance(entry, dict) and isinstance(entry.get("fingerprint"), str):
            counts[entry["fingerprint"]] += 1
        else:
            raise ConfigError(f"{path}: every baseline entry needs a fingerprint")
    return Baseline(path, counts)


def _migrate(path: str, entry: Any) -> str:
    """The version 2 fingerprint of a version 1 entry, from the parts it records as text."""
    if not isinstance(entry, dict) or not all(
        isinstance(entry.get(name), str) or (name == "object" and entry.get(name) is None) for name in _FIELDS
    ):
        raise ConfigError(
            f"{path}: every version 1 baseline entry needs {', '.join(_FIELDS)} (write it again with --write-baseline)"
        )
    return identity(entry["rule"], entry["file"], entry["object"], entry["path"], entry["message"])


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
