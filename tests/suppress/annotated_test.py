"""Annotations on objects and pod templates: the template's annotations override the workload's, key by key."""

from __future__ import annotations

from dralint.config.resolve import Layer, Ref
from testing.run import check
from tests.conftest import FIXTURES

SUPPRESS = FIXTURES / "suppress"


def test_pod_template_annotations_override_the_workload_key_by_key() -> None:
    rules = (str(FIXTURES / "rules" / "policies.yaml"), str(SUPPRESS / "pod-policies.yaml"))
    flags = Layer(rule_paths=rules, select=(Ref("ACME", "test"), Ref("DRA8", "test")))
    outcome = check([SUPPRESS / "workloads.yaml"], flags=flags)
    seen = [
        (
            f.location.line,
            f.rule,
            f.object.name if f.object else None,
            (f.suppressed.kind, f.suppressed.reason) if f.suppressed else None,
        )
        for f in outcome.report.findings
    ]
    assert seen == [
        # "inherits": the template has no ignore-check key, so the workload's applies to it...
        (3, "ACME002", "inherits", None),
        (9, "ACME001", "inherits", ("annotation", "the team label comes from the namespace")),
        # ...while the template's own dralint.io/ignore has nothing to suppress inside the template.
        (12, "DRA801", "inherits", None),
        # "overrides": the template's empty dralint.io/ignore replaces the workload's inside the template.
        (21, "ACME002", "overrides", ("annotation", "legacy workload")),
        (25, "DRA801", "overrides", None),  # ACME001 of the workload's list: only ACME002 was at workload level
        (28, "ACME001", "overrides", None),
        # a Pod's own annotations cover the whole pod
        (39, "ACME003", "pod", ("annotation", "a pod is its own template")),
    ]
    assert [f.message for f in outcome.report.findings if f.rule == "DRA801"] == [
        "suppression annotation for ACME002 matches no finding",
        "suppression annotation for ACME001 matches no finding",
    ]
