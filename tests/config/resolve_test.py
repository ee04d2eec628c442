"""Flags, DRALINT_* environment variables and the configuration file combine with that precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from dralint.config.resolve import Layer, Ref, from_environment, merge
from dralint.errors import ConfigError
from testing.run import check, rules_of
from tests.conftest import FIXTURES

CHECK = FIXTURES / "check"


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".dralint.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_merge_takes_each_setting_from_the_first_layer_that_sets_it() -> None:
    flags = Layer(release=Ref("1.35", "--kubernetes-version"))
    env = from_environment(
        {"DRALINT_KUBERNETES_VERSION": "1.34", "DRALINT_SELECT": "DRA200, input", "DRALINT_FAIL_ON": ""}
    )
    file = Layer(release=Ref("1.33", "f:1:1"), fail_on=Ref("warning", "f:2:1"), select=(Ref("meta", "f:3:1"),))
    effective = merge(flags, env, file)
    assert effective.release == Ref("1.35", "--kubernetes-version")
    assert effective.select == (Ref("DRA200", "DRALINT_SELECT"), Ref("input", "DRALINT_SELECT"))
    assert effective.fail_on == Ref("warning", "f:2:1")  # an empty variable counts as unset
    assert merge().select is None and merge().ignore == ()


def test_environment_lists_split_on_commas_and_paths_on_the_path_separator() -> None:
    layer = from_environment({"DRALINT_INVENTORY": "a:b", "DRALINT_IGNORE": "DRA1,,DRA2 ", "DRALINT_EXCLUDE": "x/**,y"})
    assert layer.inventory == ("a", "b")
    assert layer.ignore == (Ref("DRA1", "DRALINT_IGNORE"), Ref("DRA2", "DRALINT_IGNORE"))
    assert layer.exclude == ("x/**", "y")


def test_release_precedence_flag_over_environment_over_file(tmp_path: Path) -> None:
    config = _config(tmp_path, 'kubernetesVersion: "1.33"\nrules:\n  select: [api-version-not-served]\n')
    legacy = CHECK / "legacy.yaml"  # v1alpha3: served by 1.33, not by 1.34
    assert check([legacy], config=config).report.target["kubernetesVersion"] == "1.33"
    assert rules_of(check([legacy], config=config)) == []
    env = {"DRALINT_KUBERNETES_VERSION": "1.34"}
    assert check([legacy], config=config, environment=env).report.target["kubernetesVersion"] == "1.34"
    flags = Layer(release=Ref("v1.35.2", "--kubernetes-version"))
    outcome = check([legacy], config=config, environment=env, flags=flags)
    assert outcome.report.target["kubernetesVersion"] == "1.35"
    assert rules_of(outcome) == ["DRA200"]


def test_dralint_config_names_the_file_when_no_flag_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dralint.commands.check import CheckSettings, analyse

    config = _config(tmp_path, 'kubernetesVersion: "1.33"\n')
    monkeypatch.chdir(tmp_path)
    settings = CheckSettings(paths=(str(CHECK / "legacy.yaml"),), environment={"DRALINT_CONFIG": str(config)})
    assert analyse(settings).report.target["kubernetesVersion"] == "1.33"


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        ("unknown-rule.yaml", "unknown-rule.yaml:4:5: unknown rule 'DRA2000'; did you mean 'DRA200'?"),
        (
            "unknown-severity-rule.yaml",
            "unknown-severity-rule.yaml:3:5: unknown rule 'unused-supression'; did you mean 'unused-suppression'?",
        ),
        ("unknown-option.yaml", "unknown-option.yaml:3:5: rule DRA801 (unused-suppression) has no options"),
        ("exception-bad-date.yaml", "exception-bad-date.yaml:2:3: expires: '2030-02-30' is not a valid date"),
        (
            "unsupported-version.yaml",
            "unsupported-version.yaml:1:1: unsupported Kubernetes version '1.29'; "
            "supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37",
        ),
    ],
)
def test_configuration_values_are_checked_where_they_are_written(
    fixture: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES / "config")
    with pytest.raises(ConfigError) as raised:
        check([CHECK / "current.yaml"], config=fixture)
    assert str(raised.value) == message


def test_unknown_feature_gate_names_the_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES / "config")
    with pytest.raises(
        ConfigError, match=r"^bad-gate.yaml: featureGates: unknown feature gate 'DRAPartitionableDevice'"
    ):
        check([CHECK / "current.yaml"], config="bad-gate.yaml")


@pytest.mark.parametrize(
    ("layer", "message"),
    [
        (Layer(select=(Ref("DRA2000", "--select"),)), "--select: unknown rule 'DRA2000'; did you mean 'DRA200'?"),
        (
            Layer(release=Ref("2.0", "--kubernetes-version")),
            "--kubernetes-version: unsupported Kubernetes version '2.0'",
        ),
        (Layer(feature_gates=Ref("DRAAdminAccess=yes", "--feature-gates")), "--feature-gates: invalid feature gate"),
    ],
)
def test_bad_flags_name_the_flag(layer: Layer, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        check([CHECK / "current.yaml"], flags=layer)
    assert str(raised.value).startswith(message)


def test_select_ignore_by_id_name_prefix_and_category(tmp_path: Path) -> None:
    files = [CHECK / "legacy.yaml", CHECK / "unused.yaml"]
    assert rules_of(check(files)) == ["DRA200", "DRA801"]
    select = Layer(select=(Ref("meta", "--select"), Ref("api-version-not-served", "--select")))
    assert rules_of(check(files, flags=select)) == ["DRA200", "DRA801"]
    assert rules_of(check(files, flags=Layer(ignore=(Ref("DRA8", "--ignore"),)))) == ["DRA200"]
    # A suppression of a rule that did not run is never "unused".
    assert rules_of(check(files, flags=Layer(select=(Ref("meta", "--select"),)))) == []
    assert rules_of(check(files, flags=Layer(ignore=(Ref("skew", "--ignore"),)))) == []
    config = _config(tmp_path, "rules:\n  select: DRA200,DRA801\n  ignore: [DRA200]\n")
    assert rules_of(check(files, config=config)) == []


def test_severity_override_changes_the_exit_code(tmp_path: Path) -> None:
    files = [CHECK / "unused.yaml"]
    outcome = check(files)
    assert [(f.rule, f.severity) for f in outcome.report.findings] == [("DRA801", "warning")]
    assert outcome.exit_code == 0
    outcome = check(files, config=_config(tmp_path, "rules:\n  severity:\n    unused-suppression: error\n"))
    assert [(f.rule, f.severity) for f in outcome.report.findings] == [("DRA801", "error")]
    assert outcome.exit_code == 1


def test_fail_on_from_configuration_and_flag(tmp_path: Path) -> None:
    files = [CHECK / "unused.yaml"]
    config = _config(tmp_path, "failOn: warning\n")
    assert check(files, config=config).exit_code == 1
    assert check(files, config=config, flags=Layer(fail_on=Ref("never", "--fail-on"))).exit_code == 0
    assert check([CHECK / "legacy.yaml"], flags=Layer(fail_on=Ref("never", "--fail-on"))).exit_code == 0


def test_exclude_and_path_ignores_are_relative_to_the_configuration(tmp_path: Path) -> None:
    config = CHECK / ".dralint-test.yaml"
    config.write_text('exclude: ["vendor/**"]\npathIgnores:\n  legacy: [DRA200]\n', encoding="utf-8")
    try:
        outcome = check([CHECK / "legacy.yaml", CHECK / "legacy", CHECK / "vendor"], config=config)
    finally:
        config.unlink()
    assert [(f.location.file, f.rule) for f in outcome.report.findings] == [(str(CHECK / "legacy.yaml"), "DRA200")]
    assert outcome.report.summary.files == 2  # vendor/chart.yaml is not read at all


def test_limits_from_configuration(tmp_path: Path) -> None:
    config = _config(tmp_path, "limits:\n  maxFileBytes: 100\n")
    outcome = check([CHECK / "legacy.yaml"], config=config)
    assert [(f.rule, f.message) for f in outcome.report.findings] == [
        ("DRA005", "file is larger than 100 bytes; not checked")
    ]


APPS = str(FIXTURES / "readme" / "manifests")


@pytest.mark.parametrize(
    ("config", "arguments", "environment", "message"),
    [
        (
            "inventory: [cluster/]\n",
            [],
            {},
            "dralint: error: .dralint.yaml:1:13: inventory: cluster/: no such file or directory",
        ),
        (
            "inventory:\n- cluster/\n- nodes.yaml\n",
            [],
            {},
            "dralint: error: .dralint.yaml:2:3: inventory: cluster/: no such file or directory",
        ),
        ("context: [shared/]\n", [], {}, "dralint: error: .dralint.yaml:1:11: context: shared/: no such file or directory"),
        (
            "rules:\n  custom: [policies/]\n",
            [],
            {},
            "dralint: error: .dralint.yaml:2:12: rules.custom: policies/: no such file or directory",
        ),
        ("profiles: [ours/]\n", [], {}, "dralint: error: .dralint.yaml:1:12: profiles: ours/: no such file or directory"),
        ("baseline: old.json\n", [], {}, "dralint: error: .dralint.yaml:1:1: baseline: old.json: no such file or directory"),
        ("", ["-i", "cluster/"], {}, "dralint: error: --inventory: cluster/: no such file or directory"),
        ("", ["--rules", "policies"], {}, "dralint: error: --rules: policies: no such file or directory"),
        ("", ["--profile", "ours.yaml"], {}, "dralint: error: --profile: ours.yaml: no such file or directory"),
        ("", ["--baseline", "old.json"], {}, "dralint: error: --baseline: old.json: no such file or directory"),
        ("", [], {"DRALINT_INVENTORY": "cluster/"}, "dralint: error: DRALINT_INVENTORY: cluster/: no such file or directory"),
        ("", [], {"DRALINT_RULES": "p.yaml"}, "dralint: error: DRALINT_RULES: p.yaml: no such file or directory"),
        ("", [], {"DRALINT_PROFILES": "p/"}, "dralint: error: DRALINT_PROFILES: p/: no such file or directory"),
        ("", [], {"DRALINT_BASELINE": "b.json"}, "dralint: error: DRALINT_BASELINE: b.json: no such file or directory"),
        ("", ["--config", "other.yaml"], {}, "dralint: error: --config: other.yaml: no such file"),
        ("", [], {"DRALINT_CONFIG": "other.yaml"}, "dralint: error: DRALINT_CONFIG: other.yaml: no such file"),
        # The flag names the path, not the file it overrides.
        ("inventory: [cluster/]\n", ["-i", "nodes/"], {}, "dralint: error: --inventory: nodes/: no such file or directory"),
    ],
)
def test_a_missing_path_says_which_flag_variable_or_key_named_it(
    tmp_path: Path, config: str, arguments: list[str], environment: dict[str, str], message: str
) -> None:
    from testing.run import cli

    (tmp_path / ".git").mkdir()
    if config:
        _config(tmp_path, config)
    result = cli("check", APPS, *arguments, cwd=tmp_path, env=environment)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message + "\n")


def test_a_missing_path_of_the_configuration_is_named_as_written_from_a_subfolder(tmp_path: Path) -> None:
    from testing.run import cli

    (tmp_path / ".git").mkdir()
    (tmp_path / "apps").mkdir()
    _config(tmp_path, "inventory: [cluster/]\n")
    result = cli("simulate", APPS, cwd=tmp_path / "apps")
    assert (result.returncode, result.stderr) == (
        2,
        f"dralint: error: {tmp_path / '.dralint.yaml'}:1:13: inventory: cluster/: no such file or directory\n",
    )
