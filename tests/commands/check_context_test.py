"""What ``dralint check`` reads besides the files it reports on: the repository under pre-commit and
``--changed``, ``.gitignore``, exclusions, and the inventory (never reported on)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from testing.git import git
from testing.run import cli
from tests.conftest import FIXTURES

REPO = FIXTURES / "workflow" / "repo"
SPLIT_POOL = FIXTURES.parent / "rules" / "DRA703" / "fail" / "split-pool.yaml"
OVERSUBSCRIBED = (
    "apps/deploy.yaml:17:9: error DRA501 1 of 5 pods of Deployment ml/trainer get no devices: earlier pods hold "
    "them (demand for class gpu.example.com: Deployment ml/trainer 5 pods × 1 = 5; matching devices = 4; no order "
    "fits them: pods that can use no other devices need 5 of the 4 devices the request can use) "
    "(Deployment/ml/trainer); add devices to the inventory, lower the replicas, or request fewer devices per pod"
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The issue's repository, committed: a template and a Deployment of 4 replicas in apps/, 4 GPUs in cluster/."""
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = tmp_path / "repo"
    shutil.copytree(REPO, repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "four replicas")
    return repo


def _raise_replicas(repo: Path) -> None:
    deploy = repo / "apps" / "deploy.yaml"
    deploy.write_text(deploy.read_text().replace("replicas: 4", "replicas: 5"))


def test_under_pre_commit_the_repository_is_context(repo: Path) -> None:
    _raise_replicas(repo)
    # A document of the context that is no Kubernetes object is not counted: only the checked file is.
    (repo / "charts").mkdir()
    (repo / "charts" / "Chart.yaml").write_text("apiVersion: v2\nname: trainer\nversion: 1.0.0\n")
    result = cli("check", "apps/deploy.yaml", cwd=repo, env={"PRE_COMMIT": "1"})
    assert (result.returncode, result.stdout) == (
        1,
        OVERSUBSCRIBED + "\n1 file, 1 object: 1 error, 0 warnings, 0 info\n",
    )
    summary = json.loads(cli("check", "apps/deploy.yaml", "-f", "json", cwd=repo, env={"PRE_COMMIT": "1"}).stdout)
    assert (summary["summary"]["documents"], summary["summary"]["skippedDocuments"]) == (1, 0)


def test_outside_pre_commit_a_named_file_is_checked_alone(repo: Path) -> None:
    _raise_replicas(repo)
    result = cli("check", "apps/deploy.yaml", "--select", "DRA5", cwd=repo)
    assert (result.returncode, result.stdout) == (0, "1 file, 1 object: 0 errors, 0 warnings, 0 info\n")


def test_configured_context_replaces_the_repository(repo: Path) -> None:
    _raise_replicas(repo)
    (repo / ".dralint.yaml").write_text("inventory: [cluster/]\ncontext: []\nrules:\n  select: [DRA5]\n")
    result = cli("check", "apps/deploy.yaml", cwd=repo, env={"PRE_COMMIT": "1"})
    assert (result.returncode, result.stdout) == (0, "1 file, 1 object: 0 errors, 0 warnings, 0 info\n")


def test_changed_checks_the_changed_files_with_the_rest_as_context(repo: Path) -> None:
    _raise_replicas(repo)
    (repo / "apps" / "notes.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\n")
    result = cli("check", "--changed", cwd=repo)
    assert (result.returncode, result.stdout) == (
        1,
        OVERSUBSCRIBED + "\n2 files, 2 objects: 1 error, 0 warnings, 0 info\n",
    )


def test_changed_since_a_ref_is_what_a_pull_request_shows(repo: Path) -> None:
    git(repo, "checkout", "-qb", "more-replicas")
    _raise_replicas(repo)
    git(repo, "commit", "-qam", "five replicas")
    # main moves on after the branch was made: its changes are not the branch's.
    git(repo, "checkout", "-q", "main")
    (repo / "apps" / "template.yaml").write_text((repo / "apps" / "template.yaml").read_text() + "# reviewed\n")
    git(repo, "commit", "-qam", "reviewed")
    git(repo, "checkout", "-q", "more-replicas")
    assert cli("check", "--changed", "main", cwd=repo).stdout.splitlines() == [
        OVERSUBSCRIBED,
        "1 file, 1 object: 1 error, 0 warnings, 0 info",
    ]
    assert cli("check", "--changed=main", "cluster", cwd=repo).stdout == (
        "0 files, 0 objects: 0 errors, 0 warnings, 0 info\n"
    )


def test_changed_without_changes_checks_nothing(repo: Path) -> None:
    result = cli("check", "--changed", cwd=repo)
    assert (result.returncode, result.stdout) == (0, "0 files, 0 objects: 0 errors, 0 warnings, 0 info\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--changed", "apps"],
            "dralint: error: --changed apps: not a git revision; paths go before --changed, or write --changed=REF\n",
        ),
        (["--changed", "v9"], "dralint: error: --changed v9: not a git revision\n"),
    ],
)
def test_changed_with_a_bad_revision_exits_2(repo: Path, args: list[str], message: str) -> None:
    result = cli("check", *args, cwd=repo)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)


def test_changed_outside_a_repository_exits_2(tmp_path: Path) -> None:
    result = cli("check", "--changed", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (
        2,
        f"dralint: error: --changed needs a git repository: {tmp_path} is not in one\n",
    )


def test_a_walk_skips_what_gitignore_ignores(repo: Path) -> None:
    (repo / ".gitignore").write_text("build/\n")
    (repo / "build" / "rendered").mkdir(parents=True)
    shutil.copy(SPLIT_POOL, repo / "build" / "rendered" / "slices.yaml")
    assert cli("check", ".", cwd=repo).stdout == "3 files, 4 objects: 0 errors, 0 warnings, 0 info\n"
    unignored = cli("check", ".", "--no-ignore-files", cwd=repo).stdout.splitlines()
    assert [line.split(" ")[0] for line in unignored[:-1]] == [
        "build/rendered/slices.yaml:29:5:",
        "build/rendered/slices.yaml:30:5:",
    ]


def test_when_every_checked_file_is_excluded_nothing_is_checked(repo: Path) -> None:
    # The inventory has errors of its own (DRA703): as context they are never reported.
    result = cli("check", "apps/deploy.yaml", "--exclude", "apps/", "--inventory", str(SPLIT_POOL), cwd=repo)
    assert (result.returncode, result.stdout) == (0, "0 files, 0 objects: 0 errors, 0 warnings, 0 info\n")


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    """The shipped examples/, committed as a repository of their own."""
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = tmp_path / "examples"
    shutil.copytree(FIXTURES.parent.parent / "examples", repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "examples")
    return repo


def _fifteen_chat_replicas(repo: Path) -> None:
    chat = repo / "apps" / "inference" / "chat.yaml"
    chat.write_text(chat.read_text().replace("replicas: 3", "replicas: 15"))
    git(repo, "add", "apps/inference/chat.yaml")


# 15 chat replicas take the eight A100s and seven H100s (file order), the embeddings' claim the last H100:
# the notebook in another file and the training Job get none, and their findings name the change.
CAUSED = " (reported because Deployment serving/chat-inference of the checked file apps/inference/chat.yaml takes part in it)"


def test_a_change_that_leaves_other_files_without_devices_is_reported_with_them(examples: Path) -> None:
    _fifteen_chat_replicas(examples)
    for args, env in (
        (["check", "--changed", "main"], None),
        (["check", "apps/inference/chat.yaml"], {"PRE_COMMIT": "1"}),
    ):
        result = cli(*args, cwd=examples, env=env)
        lines = result.stdout.splitlines()
        assert result.returncode == 1, result.stdout + result.stderr
        assert [line.split(" ", 3)[:3] for line in lines[:-1]] == [
            ["apps/notebooks/shared-gpu.yaml:21:5:", "error", "DRA501"],
            ["apps/training/job.yaml:17:9:", "error", "DRA501"],
        ]
        assert all(line.split("; add devices")[0].endswith(CAUSED + " (Pod/notebooks/notebook)") for line in lines[:1])
        assert CAUSED + " (Job/ml-training/llm-finetune)" in lines[1]
        assert lines[-1] == "1 file, 2 objects: 2 errors, 0 warnings, 0 info"


def test_a_change_that_takes_part_in_nothing_reports_only_its_own_file(examples: Path) -> None:
    benchmark = examples / "apps" / "legacy" / "benchmark.yaml"
    benchmark.write_text(benchmark.read_text().replace("gpu-burn:1.1", "gpu-burn:1.2"))
    result = cli("check", "--changed", "main", cwd=examples)
    assert [line.split(" ", 3)[:3] for line in result.stdout.splitlines()[:-1]] == [
        ["apps/legacy/benchmark.yaml:3:1:", "error", "DRA200"]
    ]


def test_a_suppression_in_the_other_file_applies_to_its_finding(examples: Path) -> None:
    notebook = examples / "apps" / "notebooks" / "shared-gpu.yaml"
    notebook.write_text(
        notebook.read_text().replace(
            "  name: notebook\n  namespace: notebooks\n",
            "  name: notebook\n  namespace: notebooks\n  annotations:\n    dralint.io/ignore: DRA501\n"
            "    dralint.io/ignore-reason: the notebook waits for a free GPU\n",
        )
    )
    git(examples, "commit", "-qam", "the notebook may wait")
    _fifteen_chat_replicas(examples)
    result = cli("check", "--changed", "main", cwd=examples)
    assert [line.split(" ", 3)[:3] for line in result.stdout.splitlines()[:-1]] == [
        ["apps/training/job.yaml:17:9:", "error", "DRA501"]
    ]
    assert result.stdout.splitlines()[-1] == "1 file, 2 objects: 1 error, 0 warnings, 0 info (1 suppressed)"
