"""The rule catalogue: built-in rules are consistent with the check registry; rule files are validated."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import dralint.rules
from dralint import data
from dralint.checks import registry
from dralint.errors import ConfigError
from dralint.pipeline.context import Options
from dralint.read import userfile
from dralint.rules import CATALOGUE_FILES, builtin_rules, by_name_or_id, catalogue, load_file
from tests.conftest import FIXTURES

RULES = FIXTURES / "rules"


def test_builtin_rules_have_unique_ids_and_names_in_their_ranges() -> None:
    rules = builtin_rules()
    names = [r.name for r in rules.values()]
    assert len(names) == len(set(names))
    for rule in rules.values():
        assert re.fullmatch(r"DRA\d{3}", rule.id), rule.id
        assert rule.source.startswith("rules/") and rule.source.removeprefix("rules/") in CATALOGUE_FILES
    assert {r.id for r in rules.values() if r.source == "rules/input.yaml"} == {f"DRA00{n}" for n in range(1, 10)}
    assert {r.id for r in rules.values() if r.source == "rules/meta.yaml"} == {f"DRA80{n}" for n in range(5)}


def test_registered_checks_are_exactly_the_checks_rules_name() -> None:
    named = {r.check for r in builtin_rules().values() if r.check is not None}
    assert named - registry.ENGINE_CHECKS == set(registry.CHECKS) | set(registry.LATE_CHECKS)
    assert named & registry.ENGINE_CHECKS == registry.ENGINE_CHECKS


def test_by_name_or_id_finds_both_spellings() -> None:
    rules = builtin_rules()
    assert by_name_or_id(rules, "DRA801") is by_name_or_id(rules, "unused-suppression") is rules["DRA801"]
    assert by_name_or_id(rules, "DRA8") is None


def test_user_rules_load_from_files_and_directories() -> None:
    rules = catalogue([str(RULES / "good")])
    team, gpus = rules["ACME001"], rules["ACME002"]
    assert (team.category, team.builtin, team.source, team.line) == (
        "policy",
        False,
        str(RULES / "good" / "team.yaml"),
        1,
    )
    assert team.policy is not None and team.policy.match.kinds == ("ResourceClaim", "ResourceClaimTemplate")
    assert team.policy.path == ("metadata",) and team.policy.hint == "add metadata.labels.team"
    assert gpus.category == "custom" and gpus.policy is not None
    assert gpus.policy.conditions == (("v1-only", "object.apiVersion == 'resource.k8s.io/v1'"),)
    assert list(rules) == sorted(rules)


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        (
            "typo-key.yaml",
            "typo-key.yaml:3:3: [0].severty: unknown key 'severty'; did you mean 'severity'? (and 1 more problem)",
        ),
        (
            "bad-severity.yaml",
            "bad-severity.yaml:3:3: [0].severity: 'warn' is not one of error, warning, info; did you mean 'warning'?",
        ),
        (
            "bad-name.yaml",
            "bad-name.yaml:2:3: [0].name: 'Claims Need Team': a rule name is kebab-case: lower-case words joined by '-', e.g. claim-needs-team-label",
        ),
        (
            "reserved-id.yaml",
            "reserved-id.yaml:1:3: rule DRA999: ids starting with DRA are reserved for built-in rules; use your own prefix",
        ),
        (
            "duplicate-condition.yaml",
            "duplicate-condition.yaml:9:7: rule ACME001: policy.matchConditions[1].name: duplicate name 'is-claim'",
        ),
        (
            "bad-path.yaml",
            "bad-path.yaml:8:5: rule ACME001: policy.path: 'spec..devices[0' is not a field path; write fields with "
            "dots, indexes and map keys in brackets, e.g. spec.devices.requests[0].name",
        ),
        (
            "user-check.yaml",
            "user-check.yaml:5:3: rule ACME001: `check` names one of dralint's Python checks; user rules are CEL policies (`policy:`)",
        ),
        (
            "cel-syntax.yaml",
            "cel-syntax.yaml:8:78: rule ACME001: policy.expression: Syntax error: mismatched input '<EOF>' expecting "
            "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
            "IDENTIFIER}",
        ),
        (
            "cel-undeclared.yaml",
            "cel-undeclared.yaml:6:21: rule ACME001: policy.expression: undeclared reference to 'objects' "
            "(in container '')",
        ),
        (
            "cel-not-bool.yaml",
            "cel-not-bool.yaml:7:5: rule ACME001: policy.messageExpression: must evaluate to string, not int",
        ),
        ("no-message.yaml", "no-message.yaml:5:3: rule ACME001: a policy needs `message` or `messageExpression`"),
        (
            "duplicate-name.yaml",
            "duplicate-name.yaml:1:1: duplicate rule name yaml-syntax (already defined at rules/input.yaml:2)",
        ),
        ("not-a-list.yaml", "not-a-list.yaml:1:1: expected a list, got a mapping"),
        (
            "multiline-message.yaml",
            "multiline-message.yaml:7:5: [0].policy.message: 'two\\nlines\\n': a message is one line "
            "(as in a ValidatingAdmissionPolicy)",
        ),
        (
            "syntax.yaml",
            "syntax.yaml:3:1: invalid YAML: while parsing a flow sequence: did not find expected ',' or ']'",
        ),
    ],
)
def test_broken_user_rule_is_a_config_error_naming_file_and_line(fixture: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        catalogue([str(RULES / fixture)])
    assert str(raised.value) == f"{RULES / fixture}".removesuffix(fixture) + message


def test_duplicate_user_rule_ids_across_files_name_both_places(tmp_path: object) -> None:
    good = RULES / "good" / "team.yaml"
    with pytest.raises(ConfigError, match=r"duplicate rule id ACME001 \(already defined at .*team.yaml:1\)"):
        catalogue([str(good), str(good)])


def test_missing_user_rule_path_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"^nowhere/rules: no such rule file or directory$"):
        catalogue(["nowhere/rules"])


def test_rule_options_are_typed_with_defaults() -> None:
    (rule,) = load_file(userfile.read(str(RULES / "options.yaml")), builtin=True)
    assert {name: o.default for name, o in rule.options.items()} == {"maxConsumers": 128, "mode": "strict"}
    assert rule.options["maxConsumers"].json_schema() == {"type": "integer", "minimum": 1}
    assert rule.options["mode"].json_schema() == {"type": "string", "enum": ["strict", "lenient"]}
    options = Options(extra={"DRA990": {"maxConsumers": 4}})
    assert options.option("DRA990", "maxConsumers") == 4


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        (
            "bad-option-default.yaml",
            "bad-option-default.yaml:10:7: rule DRA990: default does not fit the option: expected an integer, got a string",
        ),
        (
            "unknown-check.yaml",
            "unknown-check.yaml:6:3: rule DRA990: no check is registered as 'inptu'; did you mean 'input'?",
        ),
    ],
)
def test_broken_builtin_rule_is_a_config_error(fixture: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_file(userfile.read(str(RULES / fixture)), builtin=True)
    assert str(raised.value).endswith(message)


def test_builtin_rule_files_pass_the_validation_skipped_at_run_time() -> None:
    # builtin_rules() trusts its own files (no JSON-schema validation per run); this is the check.
    rules = builtin_rules()
    for name in CATALOGUE_FILES:
        path = data.folder("rules") / name
        assert path.is_file(), f"rules/{name} is in CATALOGUE_FILES but not in rules/"
        for rule in load_file(userfile.parse(f"rules/{name}", path.read_text(encoding="utf-8")), builtin=True):
            assert rules[rule.id] == rule


def _rules_from(folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, dralint.rules.Rule]:
    monkeypatch.setattr(data, "folder", lambda name: folder)
    builtin_rules.cache_clear()
    try:
        return builtin_rules()
    finally:
        builtin_rules.cache_clear()


@pytest.mark.parametrize(
    "decoded",
    [
        None,  # absent
        "{not json",
        '{"format": 99, "files": {}}',
        '{"format": 1, "files": {"meta.yaml": {"crc": 1, "content": []}}}',  # written from other files
    ],
)
def test_builtin_rules_read_the_yaml_when_the_decoded_copy_is_absent_broken_or_stale(
    decoded: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = builtin_rules()
    for name in CATALOGUE_FILES:
        shutil.copy(data.folder("rules") / name, tmp_path / name)
    if decoded is not None:
        (tmp_path / data.DECODED_FILE).write_text(decoded, encoding="utf-8")
    assert _rules_from(tmp_path, monkeypatch) == expected


def test_builtin_rules_read_an_edited_yaml_file_rather_than_its_stale_decoded_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(data.folder("rules"), tmp_path / "rules")
    edited = tmp_path / "rules" / "meta.yaml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("severity: warning", "severity: error"))
    rules = _rules_from(tmp_path / "rules", monkeypatch)
    assert {rule.severity for rule in rules.values() if rule.source == "rules/meta.yaml"} == {"error"}
