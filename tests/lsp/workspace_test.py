"""The language server at repository scale, through a real ``dralint lsp`` process and its pipes.

The repository (:mod:`testing.workspaces`) has 1,201 files ``dralint check .`` reads, 400
fixture files its ``.dralint.yaml`` excludes and 100 files in a git-ignored ``build/``; the
fixtures and the build output define the DeviceClass again and add devices of another driver,
so reading them would change the findings. How fast the first diagnostics come is measured by
``benchmarks/lsp_bench.py``; here, the order in which things happen and what is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dralint.lsp.server import CHECKED_ACROSS_FILES, INDEXED, MAX_FILES, _bounded
from testing.lspclient import Client, Message, diagnostics_of, logged
from testing.workspaces import write_repository

TIMEOUT = 120  # seconds: the suite shares a busy machine


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("large") / "repo"
    read = write_repository(root, apps=600, fixtures=400, ignored=100)
    assert read == 1201
    return root


@pytest.fixture
def client(repository: Path) -> Iterator[Client]:
    started = Client(repository)
    yield started
    if started.process.poll() is None:
        started.process.kill()
        started.process.wait()


def codes(message: Message) -> list[str]:
    return [d["code"] for d in message["params"]["diagnostics"]]


def log_messages(client: Client) -> list[str]:
    return [m["params"]["message"] for m in client.received if m.get("method") == "window/logMessage"]


def test_lsp_opened_file_is_checked_before_the_index_is_complete_and_again_after(
    client: Client, repository: Path
) -> None:
    client.initialize(repository)
    deployment = repository / "apps" / "app-3" / "deploy.yaml"
    # A replica count that is not a number (a finding of the file alone) and a template that does
    # not exist (a finding across files).
    text = deployment.read_text().replace("replicas: 1", "replicas: one").replace("app-3-gpu", "app-3-gpux")
    client.open(deployment, text)
    first = client.until(diagnostics_of(deployment.as_uri()))
    assert not [m for m in log_messages(client) if m.startswith((INDEXED, CHECKED_ACROSS_FILES))]
    assert codes(first) == ["DRA101"]
    client.until(logged(CHECKED_ACROSS_FILES))
    indexed = [m for m in log_messages(client) if m.startswith(INDEXED)]
    assert len(indexed) == 1 and indexed[0].startswith(f"{INDEXED} 1201 files in {repository} (")
    latest = [m for m in client.received if diagnostics_of(deployment.as_uri())(m)][-1]
    assert codes(latest) == ["DRA101", "DRA302"]
    assert client.stop() == 0
    assert client.errors() == ""


def test_lsp_ignores_what_check_ignores(client: Client, repository: Path) -> None:
    client.initialize(repository)
    client.until(logged(CHECKED_ACROSS_FILES))
    # The first definition of the DeviceClass: had build/ been read, this one would be DRA308.
    inventory = repository / "cluster" / "inventory.yaml"
    client.open(inventory)
    assert codes(client.until(diagnostics_of(inventory.as_uri()))) == []
    # An excluded file opened in the editor: not checked, as `dralint check` does not read it.
    fixture = repository / "tests" / "fixtures" / "case-0" / "fixture-0.yaml"
    client.open(fixture)
    client.until(logged("dralint: tests/fixtures/case-0/fixture-0.yaml is excluded"))
    assert codes(client.until(diagnostics_of(fixture.as_uri()))) == []
    assert "dralint: tests/fixtures/case-0/fixture-0.yaml is excluded by the configuration (exclude): not checked" in (
        log_messages(client)
    )
    assert client.stop() == 0


def test_lsp_indexes_at_most_max_files_and_says_so(client: Client, repository: Path) -> None:
    client.initialize(repository, {"maxFiles": 100})
    warning = client.until(lambda m: m.get("method") == "window/showMessage")
    assert warning["params"] == {
        "type": 2,
        "message": "dralint: the workspace has 1201 manifests, more than maxFiles (100): 100 are read for the "
        "checks across files (the inventory first); exclude folders in .dralint.yaml (exclude:) or raise "
        "initializationOptions.maxFiles",
    }
    client.until(logged(CHECKED_ACROSS_FILES))
    assert next(m for m in log_messages(client) if m.startswith(INDEXED)).startswith(f"{INDEXED} 100 files in ")
    assert client.stop() == 0


def test_lsp_bounded_index_keeps_the_inventory_and_the_order() -> None:
    files = [(f"apps/{n}.yaml", True) for n in range(5)] + [("cluster/inventory.yaml", True)]
    assert _bounded(files, {"cluster/inventory.yaml"}, 3) == [
        ("apps/0.yaml", True),
        ("apps/1.yaml", True),
        ("cluster/inventory.yaml", True),
    ]
    assert MAX_FILES == 2000


def test_lsp_exit_does_not_wait_for_the_index_or_the_checks_across_files(client: Client, repository: Path) -> None:
    client.initialize(repository)
    assert client.stop(timeout=TIMEOUT) == 0
    assert client.errors() == ""
    assert not [m for m in log_messages(client) if m.startswith(CHECKED_ACROSS_FILES)]


def test_lsp_exit_without_shutdown_is_exit_code_1(client: Client, repository: Path) -> None:
    client.initialize(repository)
    client.send("exit", None)
    assert client.process.wait(timeout=TIMEOUT) == 1
    assert client.errors() == ""
