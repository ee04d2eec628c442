"""Schema validation of single objects: decoding formats, hints from other releases, compiled once."""

from __future__ import annotations

from typing import Any

import pytest

from dralint.apimachinery.fieldpath import render
from dralint.read.yamldoc import decode
from dralint.validate.schema import validate, validator
from tests.conftest import FIXTURES


def _object(name: str) -> dict[str, Any]:
    path = FIXTURES / "schema" / name
    documents, issues = decode(str(path), path.read_text(encoding="utf-8"))
    assert issues == []
    data: dict[str, Any] = documents[0].data
    return data


def _errors(release: str, raw: dict[str, Any]) -> list[tuple[str, str, str, str | None]]:
    errors = validate(release, raw["apiVersion"], raw["kind"], raw)
    return sorted((e.problem, render(e.path), e.message, e.hint) for e in errors)


def test_validate_checks_quantities_timestamps_and_integer_ranges() -> None:
    assert _errors("1.37", _object("formats.yaml")) == [
        (
            "invalid-format",
            "spec.devices[1].taints[2].timeAdded",
            'spec.devices[1].taints[2].timeAdded is not an RFC 3339 timestamp: string "2025-01-31T12:00:00z"',
            "write the time like 2025-01-31T12:00:00Z",
        ),
        (
            "invalid-format",
            "spec.devices[1].taints[3].timeAdded",
            'spec.devices[1].taints[3].timeAdded is not an RFC 3339 timestamp: string "2025-02-30T12:00:00Z"',
            "write the time like 2025-01-31T12:00:00Z",
        ),
        (
            "invalid-format",
            "spec.devices[1].taints[4].timeAdded",
            'spec.devices[1].taints[4].timeAdded is not an RFC 3339 timestamp: string "2025-01-31"',
            "write the time like 2025-01-31T12:00:00Z",
        ),
        (
            "invalid-format",
            "spec.pool.generation",
            # 2**63 is beyond int64: kubectl (so dralint) reads it as the float64 Kubernetes' JSON makes of it
            "spec.pool.generation is out of range for int64: number 9.223372036854776e+18",
            "use a value from -9223372036854775808 to 9223372036854775807",
        ),
        *(
            (
                "invalid-quantity",
                f"spec.devices[0].capacity[{key}].value",
                f"spec.devices[0].capacity[{key}].value is not a valid quantity: {shown}",
                "write a number with an optional suffix, such as 10Gi, 500m, 2 or 1e3",
            )
            for key, shown in (("f", 'string "1.5 Gi"'), ("g", 'string ""'), ("i", 'string "1Gb"'))
        ),
    ]


def test_validate_hints_at_the_release_that_has_an_unknown_field() -> None:
    assert _errors("1.36", _object("hints.yaml")) == [
        (
            "unknown-field",
            "spec.devices.requests[0].exactly.derivedAttributes",
            'unknown field "spec.devices.requests[0].exactly.derivedAttributes"',
            "derivedAttributes exists in resource.k8s.io/v1 ResourceClaim from Kubernetes 1.37",
        ),
        (
            "unknown-field",
            "spec.devices.requests[0].exactly.tolerattions",
            'unknown field "spec.devices.requests[0].exactly.tolerattions"',
            'did you mean "tolerations"?',
        ),
    ]


def test_validate_knows_nothing_of_kinds_the_release_does_not_have() -> None:
    raw = _object("hints.yaml")
    assert validate("1.33", raw["apiVersion"], raw["kind"], raw) == []
    assert validate("1.37", "example.com/v1", "Widget", {"spec": {"anything": 1}}) == []


def test_validator_is_compiled_once_per_release_and_kind() -> None:
    first = validator("1.37", "resource.k8s.io/v1", "ResourceClaim")
    assert first is not None
    assert validator("1.37", "resource.k8s.io/v1", "ResourceClaim") is first
    assert validator("1.36", "resource.k8s.io/v1", "ResourceClaim") is not first


@pytest.mark.parametrize("release", ["1.34", "1.37"])
def test_validate_accepts_distinct_attribute_where_it_exists(release: str) -> None:
    raw = _object("hints.yaml")
    del raw["spec"]["devices"]["requests"][0]["exactly"]["tolerattions"]
    errors = [e for e in _errors(release, raw) if "derivedAttributes" not in e[1]]
    assert errors == []
