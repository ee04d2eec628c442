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


PROFILES = load([str(FIXTURES / "lsp" / "workspace" / "profiles")], shipped=False)
WITH_PROFILES = Facts(values=dict(FACTS.values), profiles=PROFILES)


def test_facts_describe_what_the_driver_profile_says_for_a_driver_without_devices() -> None:
    where = FIXTURES / "lsp" / "workspace" / "profiles" / "fpga.example.com.yaml"
    assert WITH_PROFILES.describe("attributes", "fpga.example.com", "family") == (
        "**fpga.example.com/family** (attribute)\n\n"
        f"- type `string` in the driver profile of fpga.example.com ({where}): one of `agilex`, `stratix` "
        "(devices of kind card)\n  the FPGA family of the card"
    )
    assert WITH_PROFILES.describe("attributes", "fpga.example.com", "firmware") == (
        "**fpga.example.com/firmware** (attribute)\n\n"
        f"- type `version` in the driver profile of fpga.example.com ({where}): for example `1.2.0`, `2.0.1` "
        "(not on every device)"
    )
    assert WITH_PROFILES.describe("capacity", "fpga.example.com", "memory") == (
        "**fpga.example.com/memory** (capacity)\n\n"
        f"- type `quantity` in the driver profile of fpga.example.com ({where}): for example `16Gi` "
        "(devices of kind card)"
    )
    assert WITH_PROFILES.describe("attributes", "fpga.example.com", "famly") == (
        "**fpga.example.com/famly** (attribute)\n\nno device of the inventory publishes it, nor does a driver profile"
    )


def test_completions_offer_the_profile_names_of_drivers_without_devices() -> None:
    # The inventory's domains first, then those only a profile publishes in.
    assert [c.label for c in completions('device.attributes["', WITH_PROFILES)] == [
        "gpu.example.com",
        "nic.example.com",
        "fpga.example.com",
    ]
    assert completions('device.attributes["fpga.example.com"].f', WITH_PROFILES) == [
        Completion("family", "attribute of fpga.example.com", 1),
        Completion("firmware", "attribute of fpga.example.com", 1),
    ]
    assert completions('device.capacity["fpga.example.com"]["', WITH_PROFILES) == [
        Completion("memory", "capacity of fpga.example.com", 0)
    ]


def test_the_inventory_replaces_the_profile_of_a_driver_it_has_devices_of() -> None:
    facts = Facts(
        values={("attributes", "fpga.example.com", "family"): {"string": Counter({"agilex": 2})}},
        profiles=PROFILES,
        drivers={"fpga.example.com"},
    )
    assert facts.describe("attributes", "fpga.example.com", "family") == (
        "**fpga.example.com/family** (attribute)\n\n- type `string` on 2 devices: `agilex` (2)"
    )
    assert completions('device.attributes["fpga.example.com"].', facts) == [
        Completion("family", "attribute of fpga.example.com", 0)
    ]
