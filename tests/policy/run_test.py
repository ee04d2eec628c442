"""CEL policies run over the objects they match, like ValidatingAdmissionPolicies."""

from __future__ import annotations

import io

import pytest

from dralint.config.resolve import Layer, Ref
from dralint.report import text
from testing.run import check
from tests.conftest import FIXTURES

POLICY = FIXTURES / "policy"
RULES = FIXTURES / "rules"


def _lines(*rule_paths: str, select: str | None = None) -> list[str]:
    flags = Layer(
        rule_paths=rule_paths,
        select=(Ref(select, "--select"),) if select else None,
        release=Ref("1.34", "test"),
    )
    outcome = check([POLICY / "claims.yaml"], flags=flags)
    stream = io.StringIO()
    text.render(outcome.report, stream)
    return [line.replace(str(POLICY) + "/", "") for line in stream.getvalue().splitlines()]


def test_policies_report_objects_whose_expression_is_false() -> None:
    assert _lines(str(RULES / "good"), select="ACME") == [
        "claims.yaml:10:5: error ACME002 a request asks for more than eight devices (ResourceClaim/ml/labelled)",
        "claims.yaml:18:1: warning ACME001 claim anonymous has no team label (ResourceClaim/ml/anonymous); "
        "add metadata.labels.team",
        "1 file, 4 objects: 1 error, 1 warning, 0 info",
    ]


def test_policy_errors_are_findings_of_the_policy() -> None:
    assert _lines(str(POLICY / "errors.yaml"), select="ACME") == [
        "claims.yaml:11:7: warning ACME010 too many devices (ResourceClaim/ml/labelled)",
        "claims.yaml:24:7: warning ACME010 policy could not be evaluated: no such key: count "
        "(ResourceClaim/ml/anonymous); guard optional fields with has(...) in the policy expression",
        "claims.yaml:42:1: info ACME011 policy could not be evaluated: expression gave string 'gpu.example.com', "
        "not a bool (DeviceClass/gpu.example.com); guard optional fields with has(...) in the policy expression",
        "claims.yaml:42:1: info ACME012 policy could not be evaluated: expression gave map, not a bool "
        "(DeviceClass/gpu.example.com); guard optional fields with has(...) in the policy expression",
        "1 file, 4 objects: 0 errors, 2 warnings, 2 info",
    ]


def test_policies_can_be_selected_ignored_and_suppressed_like_built_in_rules(tmp_path: object) -> None:
    assert _lines(str(RULES / "good"), select="at-most-eight-gpus")[:-1] == [
        "claims.yaml:10:5: error ACME002 a request asks for more than eight devices (ResourceClaim/ml/labelled)",
    ]


@pytest.mark.parametrize(
    ("api_version", "kind", "expected"),
    [
        ("resource.k8s.io/v1", "ResourceClaim", True),
        ("resource.k8s.io/v1beta2", "ResourceClaimTemplate", True),
        ("apps/v1", "ResourceClaim", False),
        ("resource.k8s.io/v1", "DeviceClass", False),
    ],
)
def test_match_uses_api_version_and_kind_globs(api_version: str, kind: str, expected: bool) -> None:
    from dralint.api.objects import KubeObject
    from dralint.policy.run import matches
    from dralint.read.yamldoc import Document
    from dralint.rules import Match

    obj = KubeObject(Document("x.yaml", 0, 1, {}), (), api_version, kind, {})
    assert matches(Match(("resource.k8s.io/*",), ("ResourceClaim*",)), obj) is expected
    assert matches(Match(), obj) is True


def test_policies_use_the_kubernetes_cel_libraries() -> None:
    flags = Layer(rule_paths=(str(POLICY / "libraries.yaml"),), select=(Ref("ACME020", "--select"),))
    outcome = check([POLICY / "memory.yaml"], flags=flags)
    assert [(f.object.name if f.object else None, f.message, f.path_text) for f in outcome.report.findings] == [
        ("big", "memory 80Gi is more than 64Gi", "metadata.annotations"),
    ]
