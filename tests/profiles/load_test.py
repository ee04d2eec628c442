"""Driver profiles: the shipped ones are valid and cite their sources; user profiles replace them; defects are exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint import data
from dralint.errors import ConfigError
from dralint.profiles.load import builtin, load, parse
from testing.run import ROOT
from tests.conftest import FIXTURES

SHIPPED = sorted(builtin())
INVALID: list[dict[str, Any]] = YAML(typ="safe").load((FIXTURES / "profile_cases" / "invalid.yaml").read_text())


@pytest.mark.parametrize("driver", SHIPPED)
def test_shipped_profile_loads_with_its_driver_as_file_name(driver: str) -> None:
    profile = load([]).get(driver)
    assert profile is not None, f"profiles/{driver}.yaml describes no driver {driver}"
    assert profile.origin.startswith(f"profiles/{driver}.yaml:")


@pytest.mark.parametrize("driver", SHIPPED)
def test_shipped_profile_is_valid_as_a_users_would_have_to_be(driver: str) -> None:
    # dralint reads the shipped profiles without the checks a user's profile gets (the schema, the
    # configuration schemas, the rules' CEL): this test does them instead.
    path = data.folder("profiles") / f"{driver}.yaml"
    assert [p.driver for p in parse(str(path), path.read_text(encoding="utf-8"))] == [driver]


@pytest.mark.parametrize("driver", SHIPPED)
def test_shipped_profile_cites_a_commit_of_a_repository_for_every_source(driver: str) -> None:
    document = YAML(typ="safe").load((data.folder("profiles") / f"{driver}.yaml").read_text())
    sources = document["spec"]["sources"]
    assert sources
    for source in sources:
        assert re.fullmatch(r"[0-9a-f]{40}", source.get("commit", "")), source
        assert source["repository"] and source["path"] and source["facts"], source


def test_profile_schema_is_a_valid_json_schema() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(json.loads((ROOT / "schemas" / "profile.schema.json").read_text()))


def test_a_user_profile_replaces_the_shipped_one(tmp_path: Path) -> None:
    text = (data.folder("profiles") / "gpu.intel.com.yaml").read_text()
    mine = tmp_path / "mine.yaml"
    mine.write_text(text.replace("  - name: family\n", "  - name: familyName\n"))
    profiles = load([str(tmp_path)])
    profile = profiles.get("gpu.intel.com")
    assert profile is not None and profile.origin.startswith(f"{mine}:")
    assert ("gpu.intel.com", "familyName") in profile.attributes
    assert load([str(mine)], shipped=False).drivers() == ["gpu.intel.com"]


@pytest.mark.parametrize("case", INVALID, ids=[str(n) for n in range(len(INVALID))])
def test_a_defective_profile_is_a_configuration_error_at_its_position(case: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(case["text"])
    with pytest.raises(ConfigError) as raised:
        load([str(path)])
    assert str(raised.value).replace(str(path), "p.yaml") == case["error"]


def test_a_missing_profile_file_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.yaml: no such profile$"):
        load([str(tmp_path / "missing.yaml")])
