"""Finding, reading and validating the configuration file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dralint.config import discover, load
from dralint.config.resolve import Ref, from_file
from dralint.errors import ConfigError
from dralint.read.tomlkeys import key_positions
from tests.conftest import FIXTURES

CONFIGS = FIXTURES / "config"


def _repo(tmp_path: Path) -> Path:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    return tmp_path / "repo"


def test_discover_walks_up_to_the_git_root(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    deep = repo / "apps" / "ml"
    deep.mkdir(parents=True)
    (tmp_path / ".dralint.yaml").write_text("failOn: never\n")  # above the git root: never used
    assert discover(str(deep)) is None
    (repo / ".dralint.yml").write_text("failOn: warning\n")
    assert discover(str(deep)) == str(repo / ".dralint.yml")
    (repo / "apps" / ".dralint.yaml").write_text("failOn: info\n")
    assert discover(str(deep)) == str(repo / "apps" / ".dralint.yaml")


def test_discover_prefers_dralint_yaml_and_reads_pyproject_only_with_a_tool_table(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert discover(str(repo)) is None
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.dralint]\nfailOn = 'warning'\n")
    assert discover(str(repo)) == str(repo / "pyproject.toml")
    (repo / ".dralint.yaml").write_text("failOn: info\n")
    assert discover(str(repo)) == str(repo / ".dralint.yaml")


PYPROJECTS = FIXTURES / "config" / "pyproject"


def _pyproject_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixture: str) -> Path:
    """A repository holding the fixture as its pyproject.toml, made the current directory."""
    repo = _repo(tmp_path)
    shutil.copy(PYPROJECTS / fixture, repo / "pyproject.toml")
    monkeypatch.chdir(repo)
    return repo


@pytest.mark.parametrize(
    ("fixture", "release"),
    [
        ("dotted-key.toml", Ref("1.34", "pyproject.toml:1:1")),  # tool.dralint.kubernetesVersion = ...
        ("inline-table.toml", Ref("1.34", "pyproject.toml:5:1")),  # [tool] dralint = { ... }
        ("byte-order-mark.toml", Ref("1.34", "pyproject.toml:2:1")),  # read as manifests are: the mark is dropped
    ],
)
def test_pyproject_sets_tool_dralint_in_any_toml_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixture: str, release: Ref
) -> None:
    repo = _pyproject_repo(tmp_path, monkeypatch, fixture)
    assert discover(".") == str(repo / "pyproject.toml")
    assert from_file(load("pyproject.toml")).release == release


@pytest.mark.parametrize("fixture", ["dependency-only.toml", "broken-other-tool.toml", "scripts-entry.toml"])
def test_pyproject_that_only_mentions_dralint_is_not_a_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixture: str
) -> None:
    _pyproject_repo(tmp_path, monkeypatch, fixture)
    assert discover(".") is None


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        (
            "unclosed-header.toml",
            "pyproject.toml: invalid TOML: Expected ']' at the end of a table declaration (at line 4, column 14)",
        ),
        ("not-a-table.toml", "pyproject.toml:2:1: tool.dralint: expected a table, got an integer"),
        ("tool-not-a-table.toml", "pyproject.toml:3:1: tool: expected a table, got an integer"),
        ("deep.toml", "pyproject.toml: invalid TOML: nested too deeply"),
    ],
)
def test_pyproject_naming_dralint_that_cannot_be_read_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixture: str, message: str
) -> None:
    repo = _pyproject_repo(tmp_path, monkeypatch, fixture)
    assert discover(".") == str(repo / "pyproject.toml")  # never skipped in silence
    with pytest.raises(ConfigError) as raised:
        load("pyproject.toml")
    assert str(raised.value) == message


def test_pyproject_tool_table_is_read_and_validated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n\n[tool.dralint]\nkubernetesVersion = '1.34'\n\n"
        "[[tool.dralint.exceptions]]\nrules = ['DRA200']\nreason = 'old'\nexpires = 2030-01-31\n"
    )
    layer = from_file(load("pyproject.toml"))
    assert layer.release == Ref("1.34", "pyproject.toml:5:1")  # the key's line, not the table's
    assert layer.exceptions is not None and layer.exceptions[0].expires == "2030-01-31"
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.dralint]\nfail-on = 'warning'\n")
    with pytest.raises(ConfigError) as raised:
        load("pyproject.toml")
    assert str(raised.value) == "pyproject.toml:5:1: fail-on: unknown key 'fail-on'; did you mean 'failOn'?"


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        ("typo.yaml", "typo.yaml:3:3: rules.selct: unknown key 'selct'; did you mean 'select'?"),
        (
            "version-number.yaml",
            "version-number.yaml:1:1: kubernetesVersion: expected a string, got a number; "
            'write a release such as "1.34", quoted (YAML reads 1.30 as the number 1.3)',
        ),
        (
            "bad-fail-on.yaml",
            "bad-fail-on.yaml:1:1: failOn: 'warnings' is not one of error, warning, info, never; "
            "did you mean 'warning'?",
        ),
        ("exception-no-reason.yaml", "exception-no-reason.yaml:2:3: exceptions[0]: missing required key 'reason'"),
    ],
)
def test_invalid_configuration_names_file_line_and_key(
    fixture: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(CONFIGS)
    with pytest.raises(ConfigError) as raised:
        load(fixture)
    assert str(raised.value) == message


def test_empty_configuration_is_valid(tmp_path: Path) -> None:
    (tmp_path / ".dralint.yaml").write_text("# nothing configured yet\n")
    assert load(str(tmp_path / ".dralint.yaml")).data == {}


def test_missing_configuration_file_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"^nowhere\.yaml: no such file$"):
        load("nowhere.yaml")


def test_every_key_becomes_a_layer_with_paths_relative_to_the_current_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(FIXTURES)
    layer = from_file(load(os.path.join("config", "full.yaml")))
    assert layer.release == Ref("1.34", "config/full.yaml:2:1")
    assert layer.feature_gates == {"DRAConsumableCapacity": True}
    assert layer.inventory == ("config/cluster",)
    assert layer.context == ("config/shared",)
    assert layer.rule_paths == ("config/policies",)
    assert layer.exclude == ("vendor/**", "*.tmpl.yaml")
    assert layer.select == (Ref("all", "config/full.yaml:9:12"),)
    assert layer.ignore == (Ref("DRA6", "config/full.yaml:10:12"), Ref("inventory", "config/full.yaml:10:18"))
    assert layer.severity == ((Ref("unused-suppression", "config/full.yaml:12:5"), "error"),)
    assert layer.path_ignores == (("legacy/**", (Ref("DRA200", "config/full.yaml:15:17"),)),)
    assert layer.limits == {"maxFileBytes": 1048576, "maxValuesPerDocument": 100000, "maxDepth": 64}
    assert layer.fail_on == Ref("warning", "config/full.yaml:28:1")
    assert layer.baseline == "config/.dralint-baseline.json"
    assert layer.exceptions is not None
    (exception,) = layer.exceptions
    assert (exception.paths, exception.kinds, exception.namespaces, exception.names) == (
        ("apps/legacy/**",),
        ("ResourceClaim",),
        ("team-*",),
        ("old-*",),
    )
    assert (exception.reason, exception.expires, exception.origin) == (
        "migrating (TICKET-1)",
        "2030-01-01",
        "config/full.yaml:17:3",
    )


def test_a_configuration_file_is_decoded_as_manifests_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path(".dralint.yaml").write_bytes("failOn: warning\n".encode("utf-16"))  # with its byte-order mark
    assert from_file(load(".dralint.yaml")).fail_on == Ref("warning", ".dralint.yaml:1:1")
    Path(".dralint.yaml").write_bytes(b"failOn: w\xffarning\n")
    with pytest.raises(ConfigError) as raised:
        load(".dralint.yaml")
    assert str(raised.value) == ".dralint.yaml:1:10: byte 0xff is not valid UTF-8"


def test_a_pyproject_error_points_at_its_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _pyproject_repo(tmp_path, monkeypatch, "positions.toml")
    with pytest.raises(ConfigError) as raised:
        load("pyproject.toml")
    assert (
        str(raised.value) == "pyproject.toml:14:3: exceptions[1].expires: 'soon': write a date such as \"2026-12-31\""
    )


def test_toml_key_positions_follow_tables_arrays_of_tables_and_dotted_keys() -> None:
    text = (PYPROJECTS / "positions.toml").read_text(encoding="utf-8")
    assert key_positions(text, ("tool", "dralint")) == {
        (): (4, 1),
        ("kubernetesVersion",): (5, 1),
        ("exceptions",): (7, 1),
        ("exceptions", 0): (7, 1),
        ("exceptions", 0, "rules"): (8, 1),
        ("exceptions", 0, "reason"): (9, 1),
        ("exceptions", 1): (11, 1),
        ("exceptions", 1, "rules"): (12, 1),
        ("exceptions", 1, "reason"): (13, 1),
        ("exceptions", 1, "expires"): (14, 3),
        ("limits",): (16, 1),
        ("limits", "maxDepth"): (17, 1),
    }
    dotted = (PYPROJECTS / "dotted-key.toml").read_text(encoding="utf-8")
    assert key_positions(dotted, ("tool", "dralint")) == {(): (1, 1), ("kubernetesVersion",): (1, 1)}
