"""``dralint convert`` over the corpus's valid files and the repository's fixtures, for every target
version and every release that serves it: the output passes ``check`` at that release and means
what the input meant.

The assertion, per (version, release):

- *no new errors*: every DRA1xx/DRA2xx error ``check`` reports on a converted file at the release
  is one the input file gets at that release too (same rule, same object). The input is
  usually rejected whole there (DRA200: the release does not serve its version), which hides
  what the release's feature gates do to its fields; those findings (DRA210-DRA212) describe
  the content, not its version, and are compared across the versions instead: every version
  the release serves gets the same ones for the same object;
- *faithful*: each converted object, read back, is the input object (both in the v1 shape the
  API server validates: ``to_v1``), and converting it back into its own version gives it again;
- *refusals say why*: an object the version cannot hold at that release stops the file with one
  line naming the file, the object and the field (or that the release does not serve the
  version), and is not counted as output.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dralint.api.convert import to_v1
from dralint.api.rewrite_text import Converted, convert_text, fit, rewrite_text
from dralint.api.versions import GROUP, RELEASES, SERVED, VERSIONS
from dralint.errors import InputError
from dralint.read.sources import decode_bytes
from dralint.read.yamldoc import decode
from testing.run import ROOT, check
from tests.conftest import CORPUS, require_shared

pytestmark = pytest.mark.slow

GATED_FIELD_RULES = frozenset({"DRA210", "DRA211", "DRA212"})
COMBINATIONS = [
    (version, release) for version in VERSIONS for release in RELEASES if release in SERVED[("ResourceClaim", version)]
]


def _fixtures() -> list[Path]:
    found = [
        *ROOT.glob("tests/rules/DRA*/pass/*.yaml"),
        *ROOT.glob("tests/rules/DRA*/pass/*.json"),
        *ROOT.glob("tests/commands/*.yaml"),
        *ROOT.glob("examples/**/*.yaml"),
    ]
    return sorted(p for p in found if not p.name.endswith(".dralint.yaml"))


def _corpus() -> list[Path]:
    index = require_shared(CORPUS / "INDEX.tsv")
    with open(index, encoding="utf-8") as handle:
        return [CORPUS / row["file"] for row in csv.DictReader(handle, delimiter="\t") if row["expected"] == "valid"]


def _inputs() -> dict[str, str]:
    """Each file's text, decoded as dralint decodes it (a byte-order mark says UTF-16)."""
    return {str(path): decode_bytes(path.read_bytes())[0] for path in [*_corpus(), *_fixtures()]}


def _documents(path: str, text: str) -> Iterator[dict[str, Any]]:
    """The objects of a file (List items included), as plain data, read as ``check`` reads them."""
    documents, _ = decode(path, text)
    for document in documents:
        data = document.data
        if isinstance(data, dict) and str(data.get("kind", "")).endswith("List") and "items" in data:
            yield from (item for item in data["items"] if isinstance(item, dict))
        elif isinstance(data, dict):
            yield data


def _dra_objects(path: str, text: str) -> dict[tuple[str, str, str], tuple[str, dict[str, Any]]]:
    """(kind, namespace, name) -> (version, document) of the DRA objects of a file."""
    found = {}
    for document in _documents(path, text):
        api_version = document.get("apiVersion", "")
        if isinstance(api_version, str) and api_version.startswith(f"{GROUP}/"):
            metadata = document.get("metadata") or {}
            key = (document["kind"], metadata.get("namespace") or "", metadata.get("name") or "")
            found[key] = (api_version.removeprefix(f"{GROUP}/"), document)
    return found


def _meaning(version: str, document: dict[str, Any]) -> dict[str, Any]:
    """The object in the v1 shape the API server validates, without its apiVersion."""
    data = to_v1(document["kind"], version, document).data
    data.pop("apiVersion", None)
    return data


def _errors(
    paths: list[Path], release: str, key: Callable[[Path], str] = lambda path: path.name
) -> Counter[tuple[str, str, tuple[str, str, str]]]:
    """(file, rule, object) of the DRA1xx/DRA2xx errors ``check`` reports at ``release``."""
    outcome = check(paths, release=release, simulate=False)
    found: Counter[tuple[str, str, tuple[str, str, str]]] = Counter()
    for finding in outcome.report.findings:
        if finding.severity == "error" and finding.rule.startswith(("DRA1", "DRA2")) and finding.object is not None:
            obj = finding.object
            where = key(Path(finding.location.file))
            found[(where, finding.rule, (obj.kind, obj.namespace or "", obj.name))] += 1
    return found


@pytest.fixture(scope="module")
def inputs() -> dict[str, str]:
    return _inputs()


@pytest.fixture(scope="module")
def converted(
    inputs: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> dict[tuple[str, str], tuple[Path, dict[str, str], dict[str, str]]]:
    """Per (version, release): the folder of the converted files, which input each one is (name ->
    input path), and the refusals (input path -> message)."""
    results = {}
    for version in VERSIONS:
        # What convert_text does, with the rewrite (the slow part, the same for every release) done once.
        rewritten: dict[str, Converted | InputError] = {}
        for path, text in inputs.items():
            try:
                rewritten[path] = rewrite_text(text, path, version)
            except InputError as error:
                rewritten[path] = error
        for release in [r for v, r in COMBINATIONS if v == version]:
            folder = tmp_path_factory.mktemp(f"{version}-{release}")
            names, refused = {}, {}
            for number, (path, result) in enumerate(rewritten.items()):
                try:
                    if isinstance(result, InputError):
                        raise result
                    fit(result, version, release)
                except InputError as error:
                    refused[path] = str(error)
                    continue
                if result.objects:
                    name = f"{number:04d}-{Path(path).name}"
                    (folder / name).write_text(result.text, encoding="utf-8")
                    names[name] = path
            results[(version, release)] = (folder, names, refused)
    return results


@pytest.fixture(scope="module")
def input_errors(inputs: dict[str, str]) -> dict[str, Counter[tuple[str, str, tuple[str, str, str]]]]:
    """Per release: the errors of the input files (keyed by their path) that hold DRA objects."""
    paths = [Path(path) for path, text in inputs.items() if f"{GROUP}/" in text]
    return {release: _errors(paths, release, key=str) for release in RELEASES}


@pytest.fixture(scope="module")
def output_errors(
    converted: dict[tuple[str, str], tuple[Path, dict[str, str], dict[str, str]]],
) -> dict[tuple[str, str], Counter[tuple[str, str, tuple[str, str, str]]]]:
    """Per (version, release): the errors of the converted files."""
    return {key: _errors([folder / name for name in names], key[1]) for key, (folder, names, _) in converted.items()}


@pytest.mark.parametrize(("version", "release"), COMBINATIONS, ids=[f"{v}@{r}" for v, r in COMBINATIONS])
def test_converted_files_get_no_error_their_input_does_not_get(
    version: str,
    release: str,
    converted: dict[tuple[str, str], tuple[Path, dict[str, str], dict[str, str]]],
    output_errors: dict[tuple[str, str], Counter[tuple[str, str, tuple[str, str, str]]]],
    input_errors: dict[str, Counter[tuple[str, str, tuple[str, str, str]]]],
) -> None:
    _, names, _ = converted[(version, release)]
    assert names, "something was converted"
    before = input_errors[release]
    new = {
        (names[name], rule, obj)
        for name, rule, obj in output_errors[(version, release)]
        if rule not in GATED_FIELD_RULES and (names[name], rule, obj) not in before
    }
    assert not new, f"errors the inputs do not have: {sorted(new)[:5]}"


@pytest.mark.parametrize("release", RELEASES)
def test_every_version_of_a_release_gets_the_same_gated_field_findings(
    release: str,
    converted: dict[tuple[str, str], tuple[Path, dict[str, str], dict[str, str]]],
    output_errors: dict[tuple[str, str], Counter[tuple[str, str, tuple[str, str, str]]]],
) -> None:
    per_version = {}
    for (version, at), errors in output_errors.items():
        if at != release:
            continue
        names = converted[(version, at)][1]
        # Objects converted for every version of the release: a file written in one of them is
        # not converted into that one.
        per_version[version] = (set(names), {key for key in errors if key[1] in GATED_FIELD_RULES})
    common = set.intersection(*(names for names, _ in per_version.values()))
    seen = {version: {key for key in found if key[0] in common} for version, (_, found) in per_version.items()}
    assert len({frozenset(found) for found in seen.values()}) == 1, seen


@pytest.mark.parametrize(("version", "release"), COMBINATIONS, ids=[f"{v}@{r}" for v, r in COMBINATIONS])
def test_converted_objects_mean_what_the_input_meant(
    version: str,
    release: str,
    inputs: dict[str, str],
    converted: dict[tuple[str, str], tuple[Path, dict[str, str], dict[str, str]]],
) -> None:
    folder, names, _ = converted[(version, release)]
    for name in names:
        before = _dra_objects(name, inputs[names[name]])
        after = _dra_objects(name, (folder / name).read_text(encoding="utf-8"))
        assert after.keys() == before.keys(), name
        for key, (source, document) in before.items():
            written, output = after[key]
            assert written == version, (name, key)
            assert _meaning(written, output) == _meaning(source, document), (name, key)
            if source == version:
                continue
            # ... and converting it back into the version it was written in gives it again.
            back = convert_text(json.dumps(output), "object.json", source)
            assert _meaning(source, json.loads(back.text)) == _meaning(source, document), (name, key)


@pytest.mark.parametrize(("version", "release"), COMBINATIONS, ids=[f"{v}@{r}" for v, r in COMBINATIONS])
def test_refusals_name_the_file_the_object_and_the_reason(
    version: str, release: str, converted: dict[tuple[str, str], tuple[Path, dict[str, str], dict[str, str]]]
) -> None:
    _, _, refused = converted[(version, release)]
    for path, message in refused.items():
        assert "\n" not in message
        assert message.startswith(f"{path}:"), message
        assert (
            "cannot be represented" in message
            or "does not serve" in message
            or "no Kubernetes release serves" in message
        ), message
