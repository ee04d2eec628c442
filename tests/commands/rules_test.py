"""``dralint rules`` and ``dralint explain``."""

from __future__ import annotations

import json

from dralint.rules import builtin_rules
from dralint.rules.render import markdown
from testing.run import cli
from tests.conftest import FIXTURES

GOOD = str(FIXTURES / "rules" / "good")


def test_rules_text_lists_every_rule_one_per_line() -> None:
    result = cli("rules", "--no-config")
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert [line.split()[0] for line in lines] == list(builtin_rules())
    assert lines[0].split()[:4] == ["DRA001", "yaml-syntax", "error", "input"]
    assert lines[0].endswith("the file is not valid YAML or JSON")


def test_rules_json_includes_user_rules() -> None:
    rules = json.loads(cli("rules", "--no-config", "--format", "json", "--rules", GOOD).stdout)
    by_id = {rule["id"]: rule for rule in rules}
    assert set(by_id) == set(builtin_rules()) | {"ACME001", "ACME002"}
    assert by_id["ACME001"]["builtin"] is False
    assert by_id["ACME001"]["policy"]["match"] == {
        "apiVersions": ["resource.k8s.io/*"],
        "kinds": ["ResourceClaim", "ResourceClaimTemplate"],
    }
    assert by_id["DRA801"]["check"] == "suppressions"
    assert set(by_id["DRA801"]["docs"]) >= {"what", "why", "example", "use_instead"}


def test_rules_markdown_is_a_table() -> None:
    lines = cli("rules", "--no-config", "-f", "markdown").stdout.splitlines()
    assert lines[4:6] == ["| ID | Name | Category | Severity | Summary |", "| --- | --- | --- | --- | --- |"]
    assert lines[6] == "| DRA001 | yaml-syntax | input | error | the file is not valid YAML or JSON |"


def test_explain_by_id_or_name_prints_the_rule_docs() -> None:
    by_id = cli("explain", "DRA801", "--no-config")
    by_name = cli("explain", "unused-suppression", "--no-config")
    assert by_id.returncode == 0
    assert by_id.stdout == by_name.stdout == markdown(builtin_rules()["DRA801"])
    assert cli("explain", "dra801", "--no-config").stdout == by_id.stdout


def test_explain_user_rule_and_unknown_rule() -> None:
    assert cli("explain", "ACME001", "--rules", GOOD).stdout.startswith("# ACME001 claims-need-team\n")
    unknown = cli("explain", "unused-supression", "--no-config")
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "dralint: error: unknown rule 'unused-supression'; did you mean 'unused-suppression'?\n",
    )


def test_rules_honours_the_configured_user_rules(tmp_path: object) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / ".git").mkdir()
    (root / ".dralint.yaml").write_text(f"rules:\n  custom: [{GOOD}]\n")
    assert "ACME002" in cli("rules", cwd=root).stdout
