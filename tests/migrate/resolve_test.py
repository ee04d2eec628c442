"""Which driver's devices a device-plugin resource stands for, from the shipped profiles.

The expectations are the device plugins' and drivers' own names and attributes, as cited in
profiles/gpu.nvidia.com.yaml, gpu.amd.com.yaml and gpu.intel.com.yaml (NVIDIA/k8s-device-plugin
internal/rm/rm.go, ROCm/k8s-device-plugin main.go, intel-device-plugins-for-kubernetes
gpu_plugin.go; the DRA drivers' DeviceClasses and published attributes).
"""

from __future__ import annotations

import pytest

from dralint.migrate.resolve import Mapped, Unmapped, is_device_plugin_resource, resolve
from dralint.profiles.load import load

PROFILES = load([])


@pytest.mark.parametrize(
    ("resource", "driver", "device_class", "selectors", "own_class"),
    [
        ("nvidia.com/gpu", "gpu.nvidia.com", "gpu.nvidia.com", (), "gpu.nvidia.com"),
        (
            "nvidia.com/mig-3g.40gb",
            "gpu.nvidia.com",
            "mig.nvidia.com",
            ('device.attributes["gpu.nvidia.com"].profile == "3g.40gb"',),
            "mig-3g-40gb.gpu.nvidia.com",
        ),
        (
            "nvidia.com/mig-1g.10gb.me",
            "gpu.nvidia.com",
            "mig.nvidia.com",
            ('device.attributes["gpu.nvidia.com"].profile == "1g.10gb+me"',),
            "mig-1g-10gb-me.gpu.nvidia.com",
        ),
        (
            "amd.com/gpu",
            "gpu.amd.com",
            "gpu.amd.com",
            (
                'device.attributes["gpu.amd.com"].type == "amdgpu" '
                '|| device.attributes["gpu.amd.com"].type == "amdgpu-partition"',
            ),
            "amd-gpu.gpu.amd.com",
        ),
        (
            "gpu.intel.com/xe",
            "gpu.intel.com",
            "gpu.intel.com",
            ('device.attributes["gpu.intel.com"].driver == "xe"',),
            "xe.gpu.intel.com",
        ),
    ],
)
def test_resolve_maps_each_vendors_resource_to_the_drivers_devices(
    resource: str, driver: str, device_class: str, selectors: tuple[str, ...], own_class: str
) -> None:
    found = resolve(resource, PROFILES)
    assert isinstance(found, Mapped)
    assert (found.driver, found.device_class, found.selectors, found.own_class) == (
        driver,
        device_class,
        selectors,
        own_class,
    )


def test_resolve_names_the_class_the_nvidia_chart_installs_for_full_gpus() -> None:
    found = resolve("nvidia.com/gpu", PROFILES)
    assert isinstance(found, Mapped) and found.installed is not None
    assert (found.installed.name, found.installed.since) == ("gpu.nvidia.com", "v25.12.0")


@pytest.mark.parametrize(
    ("resource", "driver", "start"),
    [
        ("nvidia.com/gpu.shared", "gpu.nvidia.com", "a time-sliced or MPS replica of a GPU"),
        ("nvidia.com/mig-1g.10gb.shared", "gpu.nvidia.com", "a time-sliced or MPS replica of a MIG device"),
        ("gpu.intel.com/i915_monitoring", "gpu.intel.com", "access to every GPU of the node for monitoring"),
        ("nvidia.com/mig-one", None, "no driver profile names this resource"),  # not a MIG profile's name
        ("example.com/fpga", None, "no driver profile names this resource"),
    ],
)
def test_resolve_says_why_a_resource_has_no_dra_counterpart(resource: str, driver: str | None, start: str) -> None:
    found = resolve(resource, PROFILES)
    assert isinstance(found, Unmapped)
    assert (found.driver, found.reason.startswith(start)) == (driver, True)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("nvidia.com/gpu", True),
        ("cpu", False),
        ("hugepages-2Mi", False),
        ("ephemeral-storage", False),
        ("deviceclass.resource.kubernetes.io/gpu.example.com", False),
        ("kubernetes.io/batch-cpu", False),
    ],
)
def test_is_device_plugin_resource(name: str, expected: bool) -> None:
    assert is_device_plugin_resource(name) is expected
