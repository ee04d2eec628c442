"""kubectl as the judge of how YAML reads: what it makes of files, and where dralint's reader disagrees.

``kubectl label --local -f DIR KEY=1 -o json`` reads every file of a directory offline, the way
``kubectl apply`` reads them, and prints each object it decoded, or the error that made it stop
reading a file (it goes on with the next file). Objects are printed as JSON, after a round trip
through Kubernetes' unstructured objects: integers are int64, other numbers float64. So kubectl
is run once for many files, its objects are told apart by ``metadata.name`` (the generator
names each object after its file), and the label it adds is taken off again.

The comparison (:func:`disagreements`) holds dralint's reader to the same: for each file, the
documents it decodes before the first document kubectl refuses must be the objects kubectl
printed, with equal values; kubectl must refuse a file exactly when dralint reports a refusal,
and with the same words (dralint keeps go-yaml's in ``DecodeIssue.upstream``; a conversion
error names Go types and values, and only its start is compared). Positions are dralint's own
(go-yaml numbers lines from the start of each document, and some of its errors name none).

Tests using kubectl skip, saying so, where it is not installed; ``DRALINT_REQUIRE_KUBECTL=1``
(set by ``.ci/run``) makes that an error.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dralint.read import stream
from dralint.read.issues import DecodeIssue
from dralint.read.sources import decode_bytes
from dralint.read.yamldoc import decode

KUBECTL = shutil.which("kubectl")
if KUBECTL is None and os.environ.get("DRALINT_REQUIRE_KUBECTL") == "1":
    raise RuntimeError("DRALINT_REQUIRE_KUBECTL=1 but kubectl is not installed")
needs_kubectl = pytest.mark.skipif(
    KUBECTL is None, reason="kubectl is not installed (the differential YAML tests need it); CI requires it"
)
LABEL = "dralint.test/oracle"
_INT64 = (-(2**63), 2**63 - 1)
_ERROR = re.compile(r"^(?:error: )?error parsing (?P<path>.+?): (?P<message>.*)$")
# An object kubectl read but cannot decode; it goes on with the next one.
_UNDECODABLE = re.compile(r'^(?:error: )?unable to decode "(?P<path>.+?)": (?P<message>.*)$')
_CONVERTING = "error converting YAML to JSON: "
_SKIPPED = "json: cannot unmarshal"
# Errors whose end names Go values (%#v): only their start is compared.
_PREFIX_ONLY = ("unsupported map key of type: ", "yaml: invalid map key", "json: ")


@dataclass
class Verdict:
    """What a file reads as: its objects in order, and the error that stopped the reading (or ``None``)."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    skipped: list[str] = field(default_factory=list)  # objects read but not decodable, kubectl's words


def _number(text: str) -> Any:
    value = int(text)
    return value if _INT64[0] <= value <= _INT64[1] else float(text)


def _values(text: str) -> Iterable[Any]:
    decoder = json.JSONDecoder(parse_int=_number)
    index = 0
    text = text.strip()
    while index < len(text):
        value, index = decoder.raw_decode(text, index)
        yield value
        while index < len(text) and text[index].isspace():
            index += 1


def kubectl_verdicts(directory: Path, names: Iterable[str] | None = None) -> dict[str, Verdict]:
    """kubectl's verdict on each file of ``directory`` (or those ``names`` in it), by file name."""
    assert KUBECTL is not None
    paths = [directory / name for name in names] if names is not None else list(directory.iterdir())
    done = subprocess.run(
        [KUBECTL, "label", "--local", *(f"--filename={path}" for path in paths), f"{LABEL}=1", "-o", "json"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    verdicts: dict[str, Verdict] = {}
    by_stem = {path.stem: path.name for path in paths}
    for value in _values(done.stdout):
        items = value.get("items", [value]) if value.get("kind") == "List" and "items" in value else [value]
        for item in items:
            name = item["metadata"]["name"]
            labels = item["metadata"]["labels"]
            del labels[LABEL]
            if not labels:
                del item["metadata"]["labels"]
            verdicts.setdefault(by_stem[name.rsplit("-d", 1)[0]], Verdict()).objects.append(item)
    last: Verdict | None = None
    for line in done.stderr.split("\n")[:-1] if done.stderr else []:
        undecodable = _UNDECODABLE.match(line)
        if undecodable is not None:
            verdicts.setdefault(Path(undecodable.group("path")).name, Verdict()).skipped.append(
                undecodable.group("message")
            )
            last = None
            continue
        found = _ERROR.match(line)
        if found is None:  # an error quoting a value with a line break in it
            if last is None or last.error is None:
                raise AssertionError(f"unexpected kubectl output: {line}")
            last.error += "\n" + line
            continue
        last = verdicts.setdefault(Path(found.group("path")).name, Verdict())
        last.error = found.group("message").removeprefix(_CONVERTING)
    return verdicts


def dralint_verdict(name: str, text: str) -> Verdict:
    """What dralint's reader makes of a file, as kubectl would report it: objects up to the first refusal.

    kubectl reads a chunk whole before decoding it, so a refused ``---`` line (reported on
    that line) stops it before the chunk above is decoded: it comes first, and that chunk's
    document is not among the objects.
    """
    text, _ = decode_bytes(text.encode("utf-8", "surrogatepass"))  # as a file is read: its byte-order mark goes
    documents, issues = decode(name, text)
    lf = text.replace("\r\n", "\n")
    starts = [lf.count("\n", 0, chunk.start) + 1 for chunk in stream.yaml_chunks(lf)[0]]

    def reached(issue: DecodeIssue) -> int:
        """The line from which kubectl has nothing, when it stops at ``issue``."""
        if issue.upstream is not None and issue.upstream.startswith("invalid Yaml document separator"):
            return max((line for line in starts if line < issue.line), default=1)
        return issue.line

    skipped = [i for i in issues if i.upstream is not None and i.upstream.startswith(_SKIPPED)]
    refusals = sorted(
        (reached(issue), not issue.upstream.startswith("invalid Yaml"), n, issue)
        for n, issue in enumerate(issues)
        if issue.upstream is not None and issue not in skipped
    )
    if not refusals:
        return Verdict([document.data for document in documents], skipped=[i.upstream or "" for i in skipped])
    stop, _, _, first = refusals[0]
    if stream.is_json_stream(text):  # the values before the error are the documents (one line may hold several)
        return Verdict([d.data for d in documents], first.upstream, [i.upstream or "" for i in skipped])
    kept = [i.upstream or "" for i in skipped if i.line < stop]
    return Verdict([d.data for d in documents if d.line < stop], first.upstream, kept)


def same(left: Any, right: Any) -> bool:
    """JSON equality: numbers by value (kubectl prints integral floats as integers), booleans apart."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(same(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, str) and isinstance(right, str):
        return str(left) == str(right)
    return type(left) is type(right) and left == right


def recorded(path: Path) -> Verdict:
    """The verdict recorded beside a fixture (``scripts/record_kubectl.py`` writes it)."""
    data = json.loads(path.with_name(path.name + ".expected.json").read_text(encoding="utf-8"), parse_int=_number)
    return Verdict(data["objects"], data["error"], data["skipped"])


def record_text(verdict: Verdict) -> str:
    """A verdict as the fixtures record it."""
    data = {"error": verdict.error, "skipped": verdict.skipped, "objects": verdict.objects}
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _same_error(expected: str | None, found: str | None) -> bool:
    if expected is None or found is None:
        return expected is found
    for prefix in _PREFIX_ONLY:
        if expected.startswith(prefix):
            return found.startswith(prefix)
    return expected == found


def difference(name: str, theirs: Verdict, ours: Verdict) -> str | None:
    """How two verdicts on a file differ, in a line (``None``: they agree)."""
    if not _same_error(theirs.error, ours.error):
        return f"{name}: kubectl says {theirs.error!r}, dralint {ours.error!r}"
    if theirs.skipped != ours.skipped and not all(map(_same_error, theirs.skipped, ours.skipped)):
        return f"{name}: kubectl skips objects for {theirs.skipped!r}, dralint for {ours.skipped!r}"
    if not (len(theirs.objects) == len(ours.objects) and all(map(same, theirs.objects, ours.objects))):
        return f"{name}: values differ: kubectl {theirs.objects!r} dralint {ours.objects!r}"
    return None


def disagreements(texts: Mapping[str, str], verdicts: Mapping[str, Verdict]) -> list[str]:
    """Each file where dralint's reader and kubectl differ, said in a line."""
    found = (
        difference(name, verdicts.get(name, Verdict()), dralint_verdict(name, text)) for name, text in texts.items()
    )
    return [line for line in found if line is not None]
