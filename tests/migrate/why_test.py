"""The migration's own reasons, on the slices of tests/fixtures/migrate (read as the dry-run reads them)."""

from __future__ import annotations

from pathlib import Path

from dralint.api import model
from dralint.api.workloads import PodSpec
from dralint.cluster.inventory import Inventory
from dralint.migrate import why
from dralint.migrate.resolve import Mapped, resolve
from dralint.profiles.load import load
from testing.simulate import build_inventory, context
from tests.conftest import ROOT

PROFILES = load([])
MIGRATE = ROOT / "tests" / "fixtures" / "migrate"


def _mapped(resource: str) -> Mapped:
    found = resolve(resource, PROFILES)
    assert isinstance(found, Mapped)
    return found


def _slices(path: Path) -> list[model.ResourceSlice]:
    return [e.slice for e in build_inventory(str(path)).slices]


def test_a_mig_profile_on_gpus_with_its_mig_devices_needs_no_reason() -> None:
    # migrate-example's node-b publishes two 1g.10gb MIG devices.
    slices = _slices(ROOT / "migrate-example" / "cluster.yaml")
    assert why.missing_devices(_mapped("nvidia.com/mig-1g.10gb"), PROFILES.get("gpu.nvidia.com"), slices) is None


def test_a_resource_whose_driver_publishes_nothing_says_so_without_counters() -> None:
    # The AMD partitions' cluster holds no NVIDIA slice: nothing about counters, which need devices first.
    slices = _slices(MIGRATE / "amd" / "partitions" / "cluster.yaml")
    assert why.missing_devices(_mapped("nvidia.com/gpu"), PROFILES.get("gpu.nvidia.com"), slices) == (
        "nvidia.com/gpu: gpu.nvidia.com publishes no device in the inventory's ResourceSlices: the driver publishes "
        "a full GPU: the NVIDIA device plugin's resource for GPUs, also for MIG devices with migStrategy single, and "
        "for shares of a GPU when time-slicing or MPS replicas are not renamed as devices of kind gpu (a full "
        "physical GPU)"
    )


def test_an_amd_partition_style_the_slices_do_not_hold() -> None:
    # Both MI300X run CPX/NPS4: no device of the DPX/NPS2 style, and no counters to make one.
    slices = _slices(MIGRATE / "amd" / "partitions" / "cluster.yaml")
    reason = why.missing_devices(_mapped("amd.com/dpx_nps2"), PROFILES.get("gpu.amd.com"), slices)
    assert reason is not None
    assert reason.startswith(
        "amd.com/dpx_nps2: none of the 16 gpu.amd.com devices in the inventory's ResourceSlices matches "
        'device.driver == "gpu.amd.com" && '
    )
    assert ", and no gpu.amd.com slice declares sharedCounters: the driver publishes a GPU or partition" in reason


def _legacy_and_inventory(path: Path) -> tuple[PodSpec, Inventory]:
    ctx = context(str(MIGRATE / "mixed" / "workloads.yaml"), str(path))
    spec = next(t.spec for t in ctx.pod_templates if t.owner.name == "legacy")
    return spec, build_inventory(str(path))


def test_a_node_selector_only_device_plugin_nodes_satisfy_is_named_with_the_nodes() -> None:
    spec, inventory = _legacy_and_inventory(MIGRATE / "mixed" / "cluster.yaml")
    nodes = why.driver_nodes(inventory)["gpu.nvidia.com"]
    assert why.selector_reason(spec, inventory.nodes, _mapped("nvidia.com/gpu"), nodes) == (
        "nodeSelector gpu-stack=device-plugin admits only node-dp-0, where gpu.nvidia.com publishes no devices; "
        "it refuses every node with them (node-dra-0, node-mig-0), so nvidia.com/gpu has no DRA node to go to"
    )


def test_a_node_only_a_slice_names_may_match_the_selector_and_nothing_is_said(tmp_path: Path) -> None:
    # Without its Node, node-dra-0's labels are unknown: the selector may admit it.
    text = (MIGRATE / "mixed" / "cluster.yaml").read_text(encoding="utf-8")
    documents = [d for d in text.split("\n---\n") if "kind: Node\nmetadata:\n  name: node-dra-0\n" not in d]
    (tmp_path / "cluster.yaml").write_text("\n---\n".join(documents), encoding="utf-8")
    spec, inventory = _legacy_and_inventory(tmp_path / "cluster.yaml")
    nodes = why.driver_nodes(inventory)["gpu.nvidia.com"]
    assert nodes == {"node-dra-0", "node-mig-0"}
    assert next(e for e in inventory.nodes if e.node.name == "node-dra-0").origin is None
    assert why.selector_reason(spec, inventory.nodes, _mapped("nvidia.com/gpu"), nodes) is None
