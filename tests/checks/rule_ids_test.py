"""Rule ids are decided in one place: ``dralint/checks/rule_ids.py``, equal to the catalogue."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import dralint
from dralint import rules
from dralint.checks.rule_ids import RuleId

PACKAGE = Path(dralint.__file__).parent
HOME = PACKAGE / "checks" / "rule_ids.py"
BUILTIN_ID = re.compile(r"DRA\d{3}")


def _id_literals() -> Counter[tuple[str, str]]:
    """(file, id) for every string constant in the package that is exactly a built-in rule id."""
    found: Counter[tuple[str, str]] = Counter()
    for file in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and BUILTIN_ID.fullmatch(node.value):
                found[(str(file.relative_to(PACKAGE)), node.value)] += 1
    return found


def test_rule_id_literals_appear_only_in_rule_ids_module_once_each() -> None:
    found = _id_literals()
    home = str(HOME.relative_to(PACKAGE))
    elsewhere = sorted(f"{file}: {rule}" for file, rule in found if file != home)
    assert elsewhere == [], "rule ids written outside checks/rule_ids.py (use RuleId)"
    twice = sorted(rule for (file, rule), count in found.items() if count > 1)
    assert twice == []
    assert sorted(rule for _, rule in found) == sorted(member.value for member in RuleId)


def test_rule_ids_equal_the_builtin_catalogue() -> None:
    catalogue = {rule.id: rule.name for rule in rules.builtin_rules().values()}
    assert {member.value: member.name.lower().replace("_", "-") for member in RuleId} == catalogue


def test_rule_id_prints_as_its_id() -> None:
    assert (str(RuleId.YAML_SYNTAX), f"{RuleId.YAML_SYNTAX}") == ("DRA001", "DRA001")


def test_every_problem_kind_has_a_rule() -> None:
    from typing import get_args

    from dralint.checks import api_problems, capacity, input, inventory_defects
    from dralint.diagnose.candidates import CapacityKind
    from dralint.diagnose.defects import Kind as DefectKind
    from dralint.read.issues import IssueKind
    from dralint.validate.apiserver.errors import Kind as FieldErrorKind
    from dralint.validate.schema import Problem
    from dralint.validate.skew import Outcome

    assert set(api_problems.RULE_OF_KIND) == set(FieldErrorKind)
    assert set(capacity.rule_of_kind()) == set(CapacityKind)
    assert set(inventory_defects.rule_of_kind()) == set(DefectKind)
    assert set(input.RULE_OF_ISSUE) == set(get_args(IssueKind))
    assert set(api_problems.RULE_OF_PROBLEM) == set(get_args(Problem))
    assert set(api_problems.RULE_OF_OUTCOME) == set(get_args(Outcome))
