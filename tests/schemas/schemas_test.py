"""The generated schema store: up to date with its source, complete, and walkable along paths."""

from __future__ import annotations

import gzip
import importlib.util
import json
from types import ModuleType

import pytest

from dralint import schemas
from dralint.api.versions import RELEASES, SERVED
from dralint.apimachinery.fieldpath import Key
from tests.conftest import ROOT

WORKLOADS = {
    ("v1", "Pod"),
    ("v1", "PodTemplate"),
    ("v1", "ReplicationController"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
}


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_schemas", ROOT / "scripts" / "generate_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_store_equals_a_fresh_generation() -> None:
    pytest.importorskip("kubernetes_validate", reason="kubernetes-validate (dev extra) regenerates the schemas")
    generator = _generator()
    committed = json.loads(gzip.decompress((ROOT / "schemas" / schemas.STORE_FILE).read_bytes()))
    assert committed == generator.generate(), "run scripts/generate_schemas.py"


def test_generator_output_is_byte_for_byte_deterministic() -> None:
    generator = _generator()
    store = {"format": 1, "releases": {}, "definitions": {"b": {"type": "string"}, "a": {}}}
    assert generator.encode(store) == generator.encode(dict(reversed(list(store.items()))))


def test_store_read_by_line_is_the_json_of_the_file() -> None:
    # Definitions are decoded one by one when first used; together they are the file's JSON.
    whole = json.loads(gzip.decompress((ROOT / "schemas" / schemas.STORE_FILE).read_bytes()))
    store = schemas.store()
    assert {name: store["definitions"][name] for name in store["definitions"]} == whole["definitions"]
    assert {key: value for key, value in store.items() if key != "definitions"} == {
        key: value for key, value in whole.items() if key != "definitions"
    }


@pytest.mark.parametrize(
    "store",
    [
        {"format": 1, "releases": {"1.37": {"v1": {"Pod": "a"}}}, "definitions": {"a": {"type": "object"}, "b": {}}},
        {"format": 1, "definitions": {}},
        {"definitions": {"a:b": {"$ref": "#/$defs/c,d"}}},
    ],
)
def test_generator_layout_reads_back_by_line(store: dict[str, object]) -> None:
    text = gzip.decompress(_generator().encode(store)).decode()
    loaded = schemas._by_line(text)
    assert loaded is not None
    assert {**loaded, "definitions": dict(loaded["definitions"])} == store == json.loads(text)


@pytest.mark.parametrize("release", RELEASES)
def test_store_has_every_served_dra_kind_and_every_workload_kind(release: str) -> None:
    served = {
        (f"resource.k8s.io/{version}", kind) for (kind, version), releases in SERVED.items() if release in releases
    }
    assert set(schemas.kinds(release)) == served | WORKLOADS


def test_store_shares_definitions_that_did_not_change_between_releases() -> None:
    names = {schemas.root_name(release, "resource.k8s.io/v1", "DeviceClass") for release in ("1.34", "1.35")}
    assert len(names) == 1
    assert schemas.root_name("1.36", "resource.k8s.io/v1", "ResourceSlice") != schemas.root_name(
        "1.37", "resource.k8s.io/v1", "ResourceSlice"
    )


def test_at_path_walks_fields_map_entries_and_list_items() -> None:
    path = ("spec", "devices", 3, "attributes", Key("gpu.example.com/model"), "string")
    assert schemas.at_path("1.37", "resource.k8s.io/v1", "ResourceSlice", path) == {"type": ["string", "null"]}
    assert schemas.at_path("1.37", "resource.k8s.io/v1", "ResourceSlice", ("spec", "devices", 0, "basic")) is None
    assert schemas.at_path("1.33", "resource.k8s.io/v1", "ResourceSlice", ("spec",)) is None


def test_typed_path_marks_map_keys_only() -> None:
    steps = ("spec", "devices", 0, "capacity", "memory", "value")
    typed = schemas.typed_path("1.37", "resource.k8s.io/v1", "ResourceSlice", steps)
    assert typed == steps
    assert [type(step) for step in typed] == [str, str, int, str, Key, str]


def test_quantities_are_a_type_list_with_a_format() -> None:
    value = schemas.at_path(
        "1.37", "resource.k8s.io/v1", "ResourceSlice", ("spec", "devices", 0, "capacity", Key("x"), "value")
    )
    assert value is not None
    assert schemas.resolve(value) == {"type": ["string", "number", "null"], "format": "quantity"}
