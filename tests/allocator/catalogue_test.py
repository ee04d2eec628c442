"""The upstream allocator test catalogue (spec/allocator.md §14), rebuilt as YAML fixtures."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.allocator import DEFAULT_SEARCH_BUDGET, Allocator, AllocatorError, cancelled, deadline
from dralint.api import model, serialize
from testing import allocator_builders as builders

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "allocator"


def _load(folder: str) -> list[tuple[str, dict[str, Any]]]:
    yaml = YAML(typ="safe")
    cases = []
    for path in sorted((FIXTURES / folder).glob("*.yaml")):
        for case in yaml.load(path.read_text()) or []:
            cases.append((f"{path.stem}:{case['name']}", case))
    return cases


CASES = _load("catalogue")
QUIRKS = _load("quirks")
LIMITS = _load("limits")
FEATURES = _load("features")  # the allocator features of 1.37
RELEASES = _load("releases")  # the allocators of older releases, where they differ


def test_catalogue_has_every_upstream_case_once() -> None:
    names = [case["name"] for _, case in CASES]
    assert len(names) == 227
    assert len(set(names)) == 227


def _device(text_or_spec: Any) -> dict[str, Any]:
    """An expected device result: ``"req driver/pool/device [admin] [shared]"`` or a mapping."""
    if isinstance(text_or_spec, str):
        request, device, *flags = text_or_spec.split()
        spec: dict[str, Any] = {"request": request, "device": device}
        spec.update(dict.fromkeys(flags, True))
    else:
        spec = dict(text_or_spec)
    driver, pool, name = spec["device"].split("/")
    return {
        "request": spec["request"],
        "driver": driver,
        "pool": pool,
        "device": name,
        "admin": bool(spec.get("admin")),
        "tolerations": spec.get("tolerations") or [],
        "bindingConditions": spec.get("bindingConditions") or [],
        "bindingFailureConditions": spec.get("bindingFailureConditions") or [],
        "shared": bool(spec.get("shared")),
        "consumedCapacity": {
            k: Fraction(model.quantity(str(v)).value) for k, v in (spec.get("consumed") or {}).items()
        },  # type: ignore[union-attr]
    }


def _actual_device(result: model.DeviceRequestAllocationResult) -> dict[str, Any]:
    return {
        "request": result.request,
        "driver": result.driver,
        "pool": result.pool,
        "device": result.device,
        "admin": bool(result.admin_access),
        "tolerations": [serialize.toleration(t) for t in result.tolerations or ()],
        "bindingConditions": list(result.binding_conditions),
        "bindingFailureConditions": list(result.binding_failure_conditions),
        "shared": result.share_id is not None,
        "consumedCapacity": {k: q.value for k, q in (result.consumed_capacity or {}).items()},
    }


def _selector(spec: Any) -> Any:
    """Expected node selector: ``node-1`` (pinned), ``null``, or ``{labels: ..., fields: ...}``."""
    if spec is None:
        return None
    if isinstance(spec, str):
        spec = {"fields": {"metadata.name": [spec]}}
    return {
        "matchExpressions": sorted((k, "In", tuple(sorted(v))) for k, v in (spec.get("labels") or {}).items()),
        "matchFields": sorted((k, "In", tuple(sorted(v))) for k, v in (spec.get("fields") or {}).items()),
    }


def _actual_selector(selector: model.NodeSelector | None) -> Any:
    if selector is None:
        return None
    assert len(selector.terms) == 1
    term = selector.terms[0]
    return {
        "matchExpressions": sorted((r.key, r.operator, tuple(sorted(r.values))) for r in term.match_expressions),
        "matchFields": sorted((r.key, r.operator, tuple(sorted(r.values))) for r in term.match_fields),
    }


def _config(spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "source": spec["source"],
        "requests": list(spec.get("requests") or []),
        "opaque": builders.configuration(spec["driver"], spec["attribute"])["opaque"],
    }


def _actual_config(config: model.DeviceAllocationConfiguration) -> dict[str, Any]:
    assert config.opaque is not None
    return {
        "source": config.source,
        "requests": list(config.requests),
        "opaque": {"driver": config.opaque.driver, "parameters": config.opaque.parameters},
    }


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_catalogue_case(case: dict[str, Any]) -> None:
    _run(case)


@pytest.mark.parametrize("case", [c for _, c in QUIRKS], ids=[i for i, _ in QUIRKS])
def test_quirk_case(case: dict[str, Any]) -> None:
    """Upstream quirks (spec §13) reproduced; each case's outcome differs from a bug-free allocator."""
    _run(case)


@pytest.mark.parametrize("case", [c for _, c in LIMITS], ids=[i for i, _ in LIMITS])
def test_limit_case(case: dict[str, Any]) -> None:
    """dralint's own limits (the search budget) and the upstream 32-device limit at its edges."""
    _run(case)


@pytest.mark.parametrize("case", [c for _, c in FEATURES], ids=[i for i, _ in FEATURES])
def test_feature_case(case: dict[str, Any]) -> None:
    """Derived attributes, compatibility groups and fractional capacity ranges (1.37)."""
    _run(case)


@pytest.mark.parametrize("case", [c for _, c in RELEASES], ids=[i for i, _ in RELEASES])
def test_release_case(case: dict[str, Any]) -> None:
    """The allocator of the case's ``release`` where it differs from the newest."""
    assert "release" in case
    _run(case)


def _run(case: dict[str, Any]) -> None:
    """One allocator; one ``allocate`` per run (``runs: [{node, expect}]``, else the case itself)."""
    classes = {c.name: c for c in map(builders.device_class, case.get("classes", []))}
    slices = [builders.resource_slice(s) for s in case.get("slices", [])]
    claims = [builders.claim(c) for c in case.get("claims", [])]
    features, state = builders.features(case.get("features")), builders.allocated_state(case)
    allocator = Allocator(
        features,
        state,
        classes,
        slices,
        budget=case.get("budget", DEFAULT_SEARCH_BUDGET),
        release=builders.release(case.get("release")),
    )
    for run in case.get("runs", [case]):
        _check(allocator, claims, run)


def _check(allocator: Allocator, claims: list[model.ResourceClaim], run: dict[str, Any]) -> None:
    context = {"timeout": lambda: deadline(1e-9), "deadline": lambda: deadline(0), "cancel": cancelled}.get(
        run.get("context", ""), lambda: None
    )()
    if run.get("context") == "timeout":
        time.sleep(1e-6)
    expect = run["expect"]
    try:
        results = allocator.allocate(builders.node(run.get("node")), claims, context=context)
    except AllocatorError as error:
        assert isinstance(expect, dict) and "error" in expect, f"unexpected error: {error.message}"
        assert expect["error"] in error.message
        return
    assert not (isinstance(expect, dict) and "error" in expect), f"expected an error, got {results}"
    if expect == "unsatisfiable":
        assert results is None
    else:
        assert results is not None
        actual = [
            {
                "devices": [_actual_device(r) for r in result.results],
                "nodeSelector": _actual_selector(result.node_selector),
                "config": [_actual_config(c) for c in result.config],
            }
            for result in results
        ]
        wanted = [
            {
                "devices": [_device(d) for d in claim.get("devices", [])],
                "nodeSelector": _selector(claim.get("nodeSelector")),
                "config": [_config(c) for c in claim.get("config", [])],
            }
            for claim in expect["results"]
        ]
        assert actual == wanted
    if "steps" in run:
        assert allocator.last_steps == run["steps"]
