"""apimachinery's validators return upstream's messages (table in tests/fixtures/k8svalidation.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.apimachinery import validation as k8svalidation
from tests.conftest import FIXTURES

CASES: list[dict[str, Any]] = YAML(typ="safe", pure=True).load((FIXTURES / "k8svalidation.yaml").read_text())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['function']}-{c['value'][:20]!r}")
def test_validator_returns_apimachinery_messages(case: dict[str, Any]) -> None:
    assert getattr(k8svalidation, case["function"])(case["value"]) == case["errors"]


def test_mask_trailing_dash_replaces_the_last_two_characters() -> None:
    assert k8svalidation.mask_trailing_dash("gpuB-") == "gpua"
    assert k8svalidation.mask_trailing_dash("-") == "-"
    assert k8svalidation.mask_trailing_dash("gpu") == "gpu"
