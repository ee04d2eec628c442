"""Every shipped profile agrees with its driver's own published manifests in the corpus (scripts/check_profiles.py)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from types import ModuleType

import pytest

from dralint.profiles.load import builtin
from testing.run import ROOT
from tests.conftest import CORPUS, require_shared


@cache
def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_profiles", ROOT / "scripts" / "check_profiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def surveys() -> dict[str, object]:
    script = _script()
    return {s.driver: s for s in script.survey(require_shared(CORPUS))}


@pytest.mark.parametrize("driver", sorted(builtin()))
def test_profile_is_exercised_by_its_drivers_published_manifests(driver: str, surveys: dict[str, object]) -> None:
    survey = surveys[driver]
    assert survey.files, f"no corpus file comes from a repository the {driver} profile cites"  # type: ignore[attr-defined]


@pytest.mark.parametrize("driver", sorted(builtin()))
def test_valid_published_manifests_read_only_what_the_profile_knows(driver: str, surveys: dict[str, object]) -> None:
    decided = _script()._decided()
    disagreements = [
        d
        for d in surveys[driver].disagreements  # type: ignore[attr-defined]
        if d["label"] == "valid" and d["file"] not in decided
    ]
    assert disagreements == []


def test_the_survey_reads_the_selectors_and_configurations_of_the_drivers(surveys: dict[str, object]) -> None:
    # The corpus files of NVIDIA's, Intel's and dranet's repositories select on their attributes and
    # configure their devices: a survey that saw none of it would be reading nothing.
    assert surveys["gpu.nvidia.com"].references > 0 and surveys["gpu.nvidia.com"].configs > 0  # type: ignore[attr-defined]
    assert surveys["qat.intel.com"].references > 0  # type: ignore[attr-defined]
    assert surveys["dra.net"].configs > 0  # type: ignore[attr-defined]
