"""The pre-commit hooks, for real: ``pre-commit try-repo`` against this checkout, offline.

pre-commit creates the hook's virtual environment with virtualenv and installs this checkout
with pip; :mod:`testing.precommit` gives pip the installed dependencies as a wheelhouse, so this
runs wherever ``pip install -e '.[dev]'`` was run (a virtualenv, a user install, root).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from testing import precommit
from testing.git import AUTHOR, git
from testing.run import ROOT
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow

LEGACY = (FIXTURES / "check" / "legacy.yaml").read_text()
OTHER_TOOLS = ("charts/gpu/Chart.yaml", "charts/gpu/templates/claim.yaml", "docker-compose.yml", "web/tsconfig.json")
CLAIM = "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\nmetadata:\n  name: {name}\n  namespace: ml\n"


def test_hooks_file_is_generated() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("generate_hooks", ROOT / "scripts" / "generate_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / ".pre-commit-hooks.yaml").read_text() == module.render(), "run python scripts/generate_hooks.py"
    assert YAML(typ="safe", pure=True).load(module.render()) == module.HOOKS


def test_hook_manifest_is_valid_for_pre_commit() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_hooks_run_the_dralint_check_command() -> None:
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == ["dralint", "dralint-all"]
    assert '[project.scripts]\ndralint = "dralint.cli:entry"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    changed, everything = hooks
    assert changed["entry"].split() == ["dralint", "check"]
    assert (changed["language"], changed["types_or"], changed["require_serial"]) == ("python", ["yaml", "json"], True)
    assert everything["entry"].split() == ["dralint", "check", "."]
    assert (everything["pass_filenames"], everything["always_run"]) == (False, True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A manifests repository: an inventory, a committed manifest, and a staged new one."""
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = tmp_path_factory.mktemp("hooks") / "repo"
    (repo / "apps").mkdir(parents=True)
    (repo / "cluster").mkdir()
    # Only DRA200: the other rules must not change what this test is about.
    (repo / ".dralint.yaml").write_text("inventory: [cluster]\nrules:\n  select: [DRA200]\n")
    (repo / "cluster" / "classes.yaml").write_text(LEGACY)
    (repo / "apps" / "old.yaml").write_text(CLAIM.format(name="old"))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    (repo / "apps" / "new.yaml").write_text(CLAIM.format(name="new"))
    # Staged beside it, files of other tools the hook must skip rather than fail on.
    others = FIXTURES / "notmanifests" / "repo"
    for name in OTHER_TOOLS:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(others / name, repo / name)
    git(repo, "add", "apps/new.yaml", *OTHER_TOOLS)
    return repo


@pytest.fixture(scope="module")
def try_repo(repo: Path) -> dict[str, str]:
    """``pre-commit try-repo`` with every hook of this checkout (one environment): output per hook id."""
    wheels = precommit.wheelhouse(repo.parent / "wheels")
    environment = precommit.environment(repo.parent / "pre-commit-home", wheels)
    result = precommit.run(["try-repo", str(ROOT), "--color", "never"], repo, environment)
    assert result.returncode == 1, result.stdout + result.stderr
    sections = result.stdout.split("- hook id: ")[1:]
    return {section.split("\n", 1)[0]: section for section in sections}


def _findings(output: str) -> list[str]:
    return [line.split(": error ")[0] + " " + line.split()[2] for line in output.splitlines() if ": error DRA" in line]


def test_dralint_hook_reports_only_the_changed_files(try_repo: dict[str, str]) -> None:
    output = try_repo["dralint"]
    assert "- exit code: 1" in output
    assert _findings(output) == ["apps/new.yaml:1:1 DRA200"]
    assert (
        "1 file, 1 object: 1 error, 0 warnings, 0 info; 4 files skipped, not Kubernetes manifests "
        "(charts/gpu/Chart.yaml, charts/gpu/templates/claim.yaml, docker-compose.yml and 1 more); "
        "2 are of a Helm chart: check the chart with dralint check --helm-chart CHART (or helm template CHART | dralint check -)"
    ) in output


def test_dralint_all_hook_checks_the_whole_repository(try_repo: dict[str, str]) -> None:
    output = try_repo["dralint-all"]
    assert "- exit code: 1" in output
    assert _findings(output) == [
        "apps/new.yaml:1:1 DRA200",
        "apps/old.yaml:1:1 DRA200",
        "cluster/classes.yaml:1:1 DRA200",
    ]


WORKFLOW = FIXTURES / "workflow" / "repo"


def test_commit_that_oversubscribes_across_two_files_is_refused(tmp_path: Path) -> None:
    """End to end: the hooks of this checkout installed with pre-commit in a manifests repository.

    The Deployment's template lives in apps/template.yaml and the GPUs in cluster/; raising the
    replicas from 4 to 5 changes only apps/deploy.yaml, and the hook must still see the rest.
    """
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    hooks, revision = precommit.snapshot(tmp_path / "hooks")
    repo = tmp_path / "repo"
    shutil.copytree(WORKFLOW, repo)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks}\n  rev: {revision}\n  hooks:\n  - id: dralint\n"
    )
    environment = precommit.environment(tmp_path / "pre-commit-home", precommit.wheelhouse(tmp_path / "wheels"))

    def commit(message: str) -> subprocess.CompletedProcess[str]:
        git(repo, "add", "-A")
        return subprocess.run(
            ["git", *AUTHOR, "commit", "-m", message],
            cwd=repo,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )

    git(repo, "init", "-q")
    installed = precommit.run(["install"], repo, environment)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    first = commit("four replicas")
    assert first.returncode == 0, first.stdout + first.stderr
    # git shows a hook's output on standard error.
    assert "\ndralint....." in first.stderr and first.stderr.endswith("Passed\n")

    deploy = repo / "apps" / "deploy.yaml"
    deploy.write_text(deploy.read_text().replace("replicas: 4", "replicas: 5"))
    second = commit("five replicas")
    assert second.returncode == 1, second.stdout + second.stderr
    assert second.stderr.startswith("dralint.....") and "Failed\n- hook id: dralint\n- exit code: 1\n" in second.stderr
    assert [line for line in second.stderr.splitlines() if " DRA" in line] == [
        "apps/deploy.yaml:17:9: error DRA501 1 of 5 pods of Deployment ml/trainer get no devices: earlier pods hold "
        "them (demand for class gpu.example.com: Deployment ml/trainer 5 pods × 1 = 5; matching devices = 4; no "
        "order fits them: pods that can use no other devices need 5 of the 4 devices the request can use) "
        "(Deployment/ml/trainer); add devices to the inventory, lower the replicas, or request fewer devices per pod"
    ]
    assert git(repo, "log", "--format=%s") == "four replicas"  # the hook refused the second commit
