"""Manifests that use what the drivers' current releases take are clean.

The fixtures are written after DraNet's own test manifests at kubernetes-sigs/dranet v1.4.0
(tests/manifests/resourceclaim_vrf.yaml, whereabouts-claim.yaml, python_webhook_pod.yaml): VRF and
IP forwarding settings, a profile resolved by a webhook, and a selector on an attribute a webhook
publishes. The driver takes all of them, so dralint reports nothing.
"""

from __future__ import annotations

from testing.run import check
from tests.conftest import FIXTURES


def test_dranet_manifests_using_v1_4_fields_get_no_finding() -> None:
    outcome = check([FIXTURES / "drivers" / "dranet-current"])
    assert [(f.rule, f.message) for f in outcome.report.findings] == []
