"""Server-side defaulting (dralint/api/defaults.py), applied through normalisation."""

from __future__ import annotations

import json

import pytest

from dralint.api.defaults import apply_defaults
from dralint.api.normalise import normalise
from dralint.api.objects import identify
from dralint.read.yamldoc import decode
from tests.conftest import FIXTURES

DEFAULTS = FIXTURES / "defaults"


@pytest.mark.parametrize("name", ["v1beta1-claim", "v1-claim"])
def test_normalise_applies_server_defaults(name: str) -> None:
    documents, _ = decode(name, (DEFAULTS / f"{name}.yaml").read_text(encoding="utf-8"))
    (obj,) = identify(documents).objects
    normalised = normalise(obj)
    assert normalised is not None
    expected = json.loads((DEFAULTS / f"{name}.expected.json").read_text(encoding="utf-8"))["data"]
    assert json.dumps(normalised.data, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_explicit_zero_count_becomes_one_for_exact_count() -> None:
    data = {"spec": {"devices": {"requests": [{"name": "a", "exactly": {"deviceClassName": "c", "count": 0}}]}}}
    apply_defaults("ResourceClaim", "v1", data)
    assert data["spec"]["devices"]["requests"][0]["exactly"] == {
        "deviceClassName": "c",
        "count": 1,
        "allocationMode": "ExactCount",
    }


def test_all_mode_keeps_count_unset() -> None:
    data = {
        "spec": {
            "spec": {
                "devices": {"requests": [{"name": "a", "exactly": {"deviceClassName": "c", "allocationMode": "All"}}]}
            }
        }
    }
    apply_defaults("ResourceClaimTemplate", "v1", data)
    assert data["spec"]["spec"]["devices"]["requests"][0]["exactly"] == {
        "deviceClassName": "c",
        "allocationMode": "All",
    }


def test_resource_pool_status_request_limit_defaults_to_100() -> None:
    data: dict[str, object] = {"spec": {"driver": "gpu.example.com"}}
    apply_defaults("ResourcePoolStatusRequest", "v1alpha3", data)
    assert data == {"spec": {"driver": "gpu.example.com", "limit": 100}}


def test_defaults_ignore_malformed_shapes() -> None:
    for spec in (None, "text", {"devices": None}, {"devices": {"requests": "x"}}, {"devices": {"requests": [1, None]}}):
        data = {"spec": spec}
        apply_defaults("ResourceClaim", "v1", data)
        assert data == {"spec": spec}
