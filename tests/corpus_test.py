"""The shared corpus of real DRA manifests (../shared/corpus): everything loads and is recognised.

Expectations come from ``INDEX.tsv`` (each file's kinds, in order of first appearance, and its
``resource.k8s.io`` versions), never from dralint's own output. Two files hide objects from any
YAML reader; they are listed below with what a reader can see and why.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from functools import cache
from pathlib import Path

from dralint.api.normalise import BUILDERS, SUPPORTED_VERSIONS
from dralint.api.versions import make_target
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from dralint.read.workspace import Workspace
from dralint.rules import builtin_rules
from tests.conftest import CORPUS, require_shared

BROKEN_SNIPPET = "kubernetes__website/content__en__docs__concepts__scheduling-eviction__dynamic-resource-allocation.md__snippet01.yaml"
LOWERCASE_API_VERSION = (
    "intel__intel-resource-drivers-for-kubernetes/deployments__gpu__examples__pod-inline-aligned-gpus.yaml"
)

# file -> (kinds a YAML reader finds, resource.k8s.io versions it finds, why INDEX.tsv says more)
UNREADABLE_PARTS = {
    BROKEN_SNIPPET: (
        ["DeviceClass"],
        ["v1alpha3"],
        "an en-dash '–--' line is not a document separator, so the v1alpha2 template and the Pod "
        "form one document that does not parse (INDEX.tsv found them by a text scan)",
    ),
    LOWERCASE_API_VERSION: (
        ["ResourceClaim"],
        ["v1"],
        "the Pod writes 'apiversion:', so it has no apiVersion and is reported (DRA006), not identified",
    ),
}


@cache
def index_rows() -> tuple[dict[str, str], ...]:
    corpus = require_shared(CORPUS)
    with open(corpus / "INDEX.tsv", encoding="utf-8") as handle:
        return tuple(csv.DictReader(handle, delimiter="\t"))


@cache
def corpus_workspace() -> Workspace:
    return load([str(CORPUS / row["file"]) for row in index_rows()])


def split(cell: str) -> list[str]:
    return [] if cell == "-" else cell.split(",")


def expected(row: dict[str, str]) -> tuple[list[str], list[str]]:
    if row["file"] in UNREADABLE_PARTS:
        kinds, versions, _ = UNREADABLE_PARTS[row["file"]]
        return kinds, versions
    return split(row["kinds"]), sorted(split(row["resource_k8s_io_apiversions"]))


def found_by_file(workspace: Workspace) -> dict[str, tuple[list[str], list[str]]]:
    kinds: dict[str, list[str]] = {}
    versions: dict[str, set[str]] = {}
    for obj in workspace.objects:
        kinds.setdefault(obj.file, [])
        if obj.kind not in kinds[obj.file]:
            kinds[obj.file].append(obj.kind)
        if obj.is_dra:
            versions.setdefault(obj.file, set()).add(obj.version)
    return {file: (kinds[file], sorted(versions.get(file, ()))) for file in kinds}


def test_corpus_every_file_loads_with_only_the_known_defects() -> None:
    rows = index_rows()
    workspace = corpus_workspace()
    assert len(rows) == 299
    assert [f.name for f in workspace.files] == [str(CORPUS / row["file"]) for row in rows]
    assert [
        (Path(file).relative_to(CORPUS).as_posix(), issue.kind, issue.line, issue.column)
        for file, issue in workspace.issues
    ] == [(BROKEN_SNIPPET, "syntax", 25, 1)]
    assert [(Path(b.document.file).relative_to(CORPUS).as_posix(), b.missing) for b in workspace.broken] == [
        (LOWERCASE_API_VERSION, "apiVersion")
    ]
    # the dra-evolution prototype is a bare YAML list of (never served) ResourcePool objects
    assert [Path(d.file).name for d in workspace.list_documents] == [
        "dra-evolution__testdata__pools-two-nodes-dgxa100.yaml"
    ]


def test_corpus_kinds_and_versions_of_every_file_match_the_index() -> None:
    found = found_by_file(corpus_workspace())
    mismatches = []
    for row in index_rows():
        actual = found.get(str(CORPUS / row["file"]), ([], []))
        if actual != expected(row):
            mismatches.append((row["file"], actual, expected(row)))
    assert mismatches == []


def test_corpus_files_per_kind_and_version_match_the_index() -> None:
    rows = index_rows()
    expected_kinds = Counter(kind for row in rows for kind in expected(row)[0])
    expected_versions = Counter(version for row in rows for version in expected(row)[1])
    found = found_by_file(corpus_workspace()).values()
    assert Counter(kind for kinds, _ in found for kind in kinds) == expected_kinds
    assert Counter(version for _, versions in found for version in versions) == expected_versions
    # the index's own totals (README: 177 files use v1, 40 v1beta1, ...), less the unparsable v1alpha2 snippet
    assert expected_versions == Counter(
        {"v1": 177, "v1beta1": 40, "v1alpha3": 31, "v1alpha2": 17, "v1beta2": 15, "v1alpha1": 3, "v1alpha4": 1}
    )


def test_corpus_every_current_dra_object_normalises() -> None:
    workspace = corpus_workspace()
    ctx = CheckContext(workspace, make_target())
    current = [o for o in workspace.objects if o.is_dra and o.version in SUPPORTED_VERSIONS]
    assert len(current) > 300
    assert list(ctx.normalised) == current
    for obj, normalised in ctx.normalised.items():
        assert (normalised.typed is not None) == (obj.kind in BUILDERS), obj.ref()
        assert normalised.data["kind"] == obj.kind
    kinds = Counter(o.kind for o in current)
    # made-up kinds of design prototypes (ResourcePool, ResourceSlicePatch) normalise without a typed model
    assert set(kinds) == {
        "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice",
        "DeviceTaintRule", "ResourcePoolStatusRequest", "ResourceSlicePatch", "ResourcePool",
    }  # fmt: skip


def test_corpus_every_workload_yields_pod_templates() -> None:
    workspace = corpus_workspace()
    ctx = CheckContext(workspace, make_target())
    owners = {id(t.owner) for t in ctx.pod_templates}
    workload_kinds = {
        "Pod",
        "Deployment",
        "Job",
        "StatefulSet",
        "DaemonSet",
        "ReplicaSet",
        "JobSet",
        "MPIJob",
        "LeaderWorkerSet",
    }
    workloads = [o for o in workspace.objects if o.kind in workload_kinds and not o.is_dra]
    assert len(workloads) > 100
    assert [o.ref() for o in workloads if id(o) not in owners] == []
    # every pod template that references a claim names the claim in the pod spec
    claims = [c for t in ctx.pod_templates for c in t.spec.resource_claims]
    assert len(claims) > 100
    assert all(c.name for c in claims)


def target_release(notes: str) -> str:
    """The newest release a valid file targets ("targets 1.31-1.33 ..." → 1.33, "targets 1.34+" → 1.37)."""
    ranges = re.findall(r"targets (1\.\d+)(?:-(1\.\d+)|\+)", notes)
    return (ranges[-1][1] or "1.37") if ranges else "1.37"


def test_corpus_valid_files_have_no_input_findings() -> None:
    """No false input errors (DRA0xx) on any valid file, at the release it targets.

    tests/corpus_validation_test.py holds the same test for every rule, with its decisions table.
    """
    rules = builtin_rules()
    foundation = frozenset(rule_id for rule_id, rule in rules.items() if rule.check == "input")
    by_release: dict[str, list[str]] = {}
    for row in index_rows():
        if row["expected"] == "valid":
            by_release.setdefault(target_release(row["notes"]), []).append(str(CORPUS / row["file"]))
    assert sorted(by_release) == ["1.33", "1.37"]
    for release, files in sorted(by_release.items()):
        workspace = load(files)
        findings = engine.run(CheckContext(workspace, make_target(release)), rules, engine.Selection(foundation))
        assert [(release, f.location.file, f.rule, f.message) for f in findings] == []
