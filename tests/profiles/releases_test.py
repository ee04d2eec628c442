"""Which releases of a driver a cluster runs: read from the inventory's devices, or pinned in the configuration.

The expected releases follow from the shipped profiles' since/until, which cite the drivers' code
(profiles/dra.net.yaml: isSriovVf from v1.1.0, kind and name until v0.3.1, the webhook's names from
v1.4.0).
"""

from __future__ import annotations

import pytest

from dralint.api.versions import make_target
from dralint.pipeline.context import CheckContext, Options
from dralint.profiles.load import load
from dralint.profiles.releases import Known
from dralint.read.load import load as load_files
from tests.conftest import FIXTURES

RELEASES = FIXTURES / "drivers" / "releases"


def _known(file: str, driver: str, pins: dict[str, str] | None = None) -> Known | None:
    ctx = CheckContext(load_files([str(RELEASES / file)]), make_target("1.37"), Options(profiles=load([], pins=pins)))
    return ctx.driver_releases.of(driver)


@pytest.mark.parametrize(
    ("file", "driver", "releases"),
    [
        ("dranet-sriov-vf.yaml", "dra.net", ("v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0")),
        ("dranet-v0.3.yaml", "dra.net", ("v0.3.0", "v0.3.1")),
        ("dranet-webhook.yaml", "dra.net", ("v1.4.0",)),
    ],
)
def test_inventory_devices_narrow_the_releases_to_those_publishing_their_names(
    file: str, driver: str, releases: tuple[str, ...]
) -> None:
    assert _known(file, driver) == Known(releases, "the inventory's devices")


def test_a_device_publishing_a_name_no_release_publishes_runs_a_release_the_profile_lacks() -> None:
    known = _known("nvidia-newer.yaml", "gpu.nvidia.com")
    assert known == Known((), "the inventory's devices")
    assert not known.described


def test_a_driver_without_devices_in_the_inventory_is_unknown() -> None:
    assert _known("nvidia-newer.yaml", "dra.net") is None


def test_a_pin_wins_over_the_inventory() -> None:
    assert _known("dranet-sriov-vf.yaml", "dra.net", {"dra.net": "v1.0.1"}) == Known(
        ("v1.0.1",), "driverVersions in the configuration", "v1.0.1"
    )


def test_a_pin_to_a_release_the_profile_does_not_describe_is_known_but_not_described() -> None:
    known = _known("dranet-sriov-vf.yaml", "dra.net", {"dra.net": "v1.5.0"})
    assert known == Known((), "driverVersions in the configuration", "v1.5.0")
    assert not known.described
