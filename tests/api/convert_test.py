"""Older resource.k8s.io shapes → v1 (dralint/api/convert.py), and findings that still point at the user's line."""

from __future__ import annotations

import json

import pytest

from dralint.api.convert import PathMap, is_flat_exactly, to_v1
from dralint.api.objects import KubeObject, identify
from dralint.api.versions import make_target
from dralint.apimachinery.fieldpath import Key, Path, parse, render
from dralint.findings import Violation
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext
from dralint.read.workspace import Workspace
from dralint.read.yamldoc import decode
from dralint.rules import Rule
from tests.conftest import FIXTURES

CONVERT = FIXTURES / "convert"
RULE = Rule("DRA999", "test-rule", "test", "error", "a rule for tests", "none")


def object_of(name: str) -> KubeObject:
    documents, issues = decode(f"convert/{name}", (CONVERT / name).read_text(encoding="utf-8"))
    assert issues == []
    (obj,) = identify(documents).objects
    return obj


@pytest.mark.parametrize("name", ["v1beta1-claim", "v1alpha3-template", "v1beta1-slice", "v1alpha3-slice"])
def test_to_v1_converts_to_the_v1_shape_with_a_path_map(name: str) -> None:
    obj = object_of(f"{name}.yaml")
    expected = json.loads((CONVERT / f"{name}.expected.json").read_text(encoding="utf-8"))
    converted = to_v1(obj.kind, obj.version, obj.raw)
    assert json.dumps(converted.data, sort_keys=True) == json.dumps(expected["data"], sort_keys=True)
    assert [[render(c), render(s)] for c, s in converted.paths.rules] == expected["paths"]


def test_to_v1_leaves_the_input_untouched() -> None:
    obj = object_of("v1beta1-slice.yaml")
    before = json.dumps(obj.raw, sort_keys=True)
    to_v1(obj.kind, obj.version, obj.raw)
    assert json.dumps(obj.raw, sort_keys=True) == before


def test_to_v1_keeps_v1_objects_as_they_are() -> None:
    raw = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "spec": {"nodeName": "", "devices": [{"name": "a", "basic": {}}]},
    }
    converted = to_v1("ResourceSlice", "v1", raw)
    assert converted.data == raw
    assert converted.paths == PathMap()


@pytest.mark.parametrize(
    ("request_", "flat"),
    [
        ({"name": "a"}, False),
        ({"name": "a", "deviceClassName": ""}, False),
        ({"name": "a", "deviceClassName": None, "count": 0, "allocationMode": "", "selectors": None}, False),
        ({"name": "a", "selectors": []}, True),  # present, even empty
        ({"name": "a", "count": 3}, True),
        ({"name": "a", "adminAccess": False}, True),
        ({"name": "a", "capacity": {}}, True),
        ({"name": "a", "derivedAttributes": []}, True),
        ({"name": "a", "firstAvailable": [{"name": "b"}]}, False),
    ],
)
def test_is_flat_exactly_follows_the_server_conversion(request_: dict[str, object], flat: bool) -> None:
    assert is_flat_exactly(request_) is flat


def test_path_map_longest_prefix_wins() -> None:
    paths = PathMap(((("a",), ("x",)), (("a", "b"), ("y", "z"))))
    assert paths.to_source(("a", "b", 1)) == ("y", "z", 1)
    assert paths.to_source(("a", "c")) == ("x", "c")
    assert paths.to_source(("q",)) == ("q",)


FINDINGS_ON_CONVERTED_FIELDS = [
    ("v1beta1-claim.yaml", "spec.devices.requests[0].exactly.count", None, "spec.devices.requests[0].count", (11, 7)),
    ("v1beta1-claim.yaml", "spec.devices.requests[0].exactly.tolerations[0].effect", None,
     "spec.devices.requests[0].tolerations[0].effect", (17, 9)),
    ("v1beta1-claim.yaml", "spec.devices.requests[0].exactly.selectors[0].cel.expression", "model",
     "spec.devices.requests[0].selectors[0].cel.expression", (14, 60)),
    ("v1beta1-claim.yaml", "spec.devices.requests[2].exactly", None, "spec.devices.requests[2]", (25, 7)),
    ("v1beta1-claim.yaml", "spec.devices.requests[2].exactly.deviceClassName", None,
     "spec.devices.requests[2].deviceClassName", (25, 7)),
    ("v1alpha3-template.yaml", "spec.spec.devices.requests[0].exactly.count", None,
     "spec.spec.devices.requests[0].count", (15, 9)),
    ("v1beta1-slice.yaml", "spec.devices[0].attributes[model].string", None,
     "spec.devices[0].basic.attributes[model].string", (18, 11)),
    ("v1beta1-slice.yaml", "spec.devices[0].capacity[memory].value", None,
     "spec.devices[0].basic.capacity[memory].value", (23, 11)),
    ("v1beta1-slice.yaml", "spec.devices[0].taints", None, "spec.devices[0].basic.taints", (15, 5)),
    ("v1alpha3-slice.yaml", "spec.devices[0].capacity[memory].value", None,
     "spec.devices[0].basic.capacity[memory]", (18, 9)),
    ("v1alpha3-slice.yaml", "spec.devices[0].capacity[cores]", None, "spec.devices[0].basic.capacity[cores]", (19, 9)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "canonical", "inside", "source", "position"), FINDINGS_ON_CONVERTED_FIELDS)
def test_finding_on_a_converted_field_points_at_the_users_line(
    name: str, canonical: str, inside: str | None, source: str, position: tuple[int, int]
) -> None:
    obj = object_of(name)
    workspace = Workspace(objects=[obj], documents=[obj.document], checked_files=frozenset({obj.file}))
    ctx = CheckContext(workspace, make_target())
    path: Path = parse(canonical)
    offset = None
    if inside is not None:
        value = ctx.normalised[obj].data
        for step in path:
            value = value[step]
        offset = value.index(inside)
    finding = engine.resolve(
        ctx, Violation("DRA999", "test", obj, path, offset=offset), RULE, engine.Selection(frozenset())
    )
    assert finding is not None
    assert render(finding.path) == source
    assert (finding.location.file, finding.location.line, finding.location.column) == (f"convert/{name}", *position)


def test_parse_keeps_map_keys_distinct_from_fields() -> None:
    assert parse("spec.devices[0].capacity[memory].value") == ("spec", "devices", 0, "capacity", Key("memory"), "value")
