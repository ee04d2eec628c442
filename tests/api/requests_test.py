"""The one walk over requests and their firstAvailable entries (model.DeviceRequest.parts and
friends, read.request_parts, api.requests.written_requests), on a claim read from a fixture."""

from __future__ import annotations

from dralint.api import model, read
from dralint.api.normalise import Normalised, normalise
from dralint.api.objects import identify
from dralint.api.requests import claim_specs, written_requests
from dralint.read.yamldoc import decode
from tests.conftest import FIXTURES

FIXTURE = FIXTURES / "requests" / "parts.yaml"


def _normalised() -> Normalised:
    documents, issues = decode(str(FIXTURE), FIXTURE.read_text(encoding="utf-8"))
    assert issues == []
    (obj,) = identify(documents).objects
    normalised = normalise(obj)
    assert normalised is not None
    return normalised


def _claim() -> tuple[model.ResourceClaim, dict[str, object]]:
    normalised = _normalised()
    assert isinstance(normalised.typed, model.ResourceClaim)
    return normalised.typed, normalised.data


def test_parts_lists_exactly_then_entries_as_written() -> None:
    claim, _ = _claim()
    walked = [[(p.label, p.name, p.parent, p.path) for p in r.parts()] for r in claim.spec.requests]
    assert walked == [
        [("nic", "nic", None, ("exactly",))],
        [("gpu/large", "large", "gpu", ("firstAvailable", 0)), ("gpu/small", "small", "gpu", ("firstAvailable", 1))],
        [("both", "both", None, ("exactly",)), ("both/only", "only", "both", ("firstAvailable", 0))],
        [],
    ]


def test_alternatives_prefer_entries_like_the_allocator() -> None:
    claim, _ = _claim()
    assert [[p.label for p in r.alternatives()] for r in claim.spec.requests] == [
        ["nic"],
        ["gpu/large", "gpu/small"],
        ["both/only"],
        [],
    ]


def test_find_part_by_label() -> None:
    requests = _claim()[0].spec.requests
    found = {label: model.find_part(requests, label) for label in ("gpu/small", "gpu", "nic", "gpu/none", "x")}
    assert {k: (v[0], v[1].spec.device_class_name if v[1] else None) if v else None for k, v in found.items()} == {
        "gpu/small": (1, "small.example.com"),
        "gpu": (1, None),  # a request with entries has no exactly block
        "nic": (0, "nic.example.com"),
        "gpu/none": (1, None),
        "x": None,
    }


def test_raw_request_parts_walk_the_same_paths() -> None:
    claim, data = _claim()
    raw = read.items(read.mapping(read.mapping(data, "spec"), "devices"), "requests")
    assert [[path for path, _ in read.request_parts(r)] for r in raw] == [
        [p.path for p in r.parts()] for r in claim.spec.requests
    ]


def test_written_requests_carry_owner_and_canonical_path() -> None:
    written = [(w.label, w.path, w.owner) for w in written_requests(claim_specs([_normalised()]))]
    assert written[:2] == [
        ("nic", ("spec", "devices", "requests", 0, "exactly"), "ResourceClaim ml/parts request nic"),
        (
            "gpu/large",
            ("spec", "devices", "requests", 1, "firstAvailable", 0),
            "ResourceClaim ml/parts request gpu/large",
        ),
    ]
    assert len(written) == 5
