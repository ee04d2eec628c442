from __future__ import annotations

from collections import Counter

from dralint.lsp.selectors import Completion, Facts, Reference, completions, reference_at
from dralint.profiles.load import load
from tests.conftest import FIXTURES

FACTS = Facts(
    values={
        ("attributes", "gpu.example.com", "model"): {"string": Counter({"A100": 12, "H100": 4})},
        ("attributes", "gpu.example.com", "cores"): {"int": Counter({"108": 16})},
        ("attributes", "nic.example.com", "rdma"): {"bool": Counter({"true": 2})},
        ("capacity", "gpu.example.com", "memory"): {"quantity": Counter({"80Gi": 16})},
    }
)


def test_reference_at_finds_the_reference_around_the_offset() -> None:
    expression = 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "A100"'
    assert reference_at(expression, expression.index("model")) == Reference("attributes", "gpu.example.com", "model")
    assert reference_at(expression, 3) is None
    assert reference_at('device.capacity["gpu.example.com"]["memory"] > 1', 20) == Reference(
        "capacity", "gpu.example.com", "memory"
    )


def test_facts_describe_types_and_values_most_common_first() -> None:
    assert FACTS.describe("attributes", "gpu.example.com", "model") == (
        "**gpu.example.com/model** (attribute)\n\n- type `string` on 16 devices: `A100` (12), `H100` (4)"
    )
    assert FACTS.describe("attributes", "gpu.example.com", "modle") == (
        "**gpu.example.com/modle** (attribute)\n\nno device of the inventory publishes it"
    )


def test_completions_offer_domains_then_names() -> None:
    assert completions('device.attributes["', FACTS) == [
        Completion("gpu.example.com", "attributes domain", 0),
        Completion("nic.example.com", "attributes domain", 0),
    ]
    assert completions('device.attributes["gpu.example.com"].mo', FACTS) == [
        Completion("model", "attribute of gpu.example.com", 2)
    ]
    assert completions('device.capacity["gpu.example.com"]["', FACTS) == [
        Completion("memory", "capacity of gpu.example.com", 0)
    ]
    assert completions("device.driver == ", FACTS) == []


PROFILED = Facts(values=dict(FACTS.values), profiles=load([str(FIXTURES / "profiles")], shipped=False))


def test_a_driver_without_inventory_devices_is_described_by_its_profile() -> None:
    assert PROFILED.describe("attributes", "accel.example.org", "profile") == (
        "**accel.example.org/profile** (attribute)\n\n"
        f"from the profile of accel.example.org ({FIXTURES / 'profiles' / 'accel.example.org.yaml'}:2:1):\n\n"
        "- type `string`\n- published by `part` devices\n- values: `1g`, `2g`, `4g`"
    )
    assert PROFILED.describe("attributes", "accel.example.org", "profil").endswith("does not list it")


def test_completions_offer_the_profiles_drivers_and_names() -> None:
    assert completions('device.attributes["acc', PROFILED) == [
        Completion("accel.example.org", "attributes domain (driver profile)", 3)
    ]
    assert completions('device.attributes["accel.example.org"].f', PROFILED) == [
        Completion("firmware", "attribute of accel.example.org", 1)
    ]
    # the inventory's names win where it has devices of the driver
    assert [c.label for c in completions('device.attributes["gpu.example.com"].', PROFILED)] == ["cores", "model"]
