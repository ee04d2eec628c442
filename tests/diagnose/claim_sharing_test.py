"""The sharing a driver enforces on a claim, from its profile's declarations (``dralint/diagnose/claim_sharing.py``).

The profile is tests/fixtures/drivers/sharing-profile.yaml: NICs one pod per claim in every
release, functions one pod per claim from v2, accelerators one container per claim.
"""

from __future__ import annotations

import pytest

from dralint.diagnose.claim_sharing import strictest
from dralint.profiles.load import load
from tests.conftest import FIXTURES

PROFILE = load([str(FIXTURES / "drivers" / "sharing-profile.yaml")], shipped=False).get("share.example.org")


@pytest.mark.parametrize(
    ("kinds", "releases", "consumers", "description"),
    [
        (("nic",), ("v1", "v2", "v3"), "pod", "one pod per NIC claim"),
        (("accel",), ("v1", "v2", "v3"), "container", "one container per accelerator claim"),
        (("function",), ("v2", "v3"), "pod", "one pod per function claim"),
        (("function",), ("v1", "v2", "v3"), None, None),  # v1 lets any number of pods share it
        (("nic", "function"), ("v3",), "pod", "one pod per NIC claim; one pod per function claim"),
        (("nic", "accel"), ("v1",), "pod", "one pod per NIC claim"),  # the loosest level both share
        (None, ("v3",), "pod", "one pod per NIC claim; one pod per function claim"),  # any kind
        (None, ("v1",), None, None),
    ],
)
def test_strictest_is_what_every_kind_and_release_the_claim_may_get_enforces(
    kinds: tuple[str, ...] | None, releases: tuple[str, ...], consumers: str | None, description: str | None
) -> None:
    assert PROFILE is not None
    found = strictest(PROFILE, kinds, releases)
    assert (found.consumers if found else None, found.description if found else None) == (consumers, description)
