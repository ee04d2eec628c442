"""End to end: the real ``dralint lsp`` over stdio, driven by pytest-lsp's client as an editor drives it.

The workspace is ``tests/fixtures/lsp/workspace`` (a ResourceClaimTemplate, a Deployment using it,
a compact inventory and the driver profile of a driver without devices, both configured in
``.dralint.yaml``); edits are made in the client's buffers only, never on disk.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import shutil
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.io_ import StdoutWriter
from pytest_lsp import ClientServerConfig, LanguageClient

from dralint.lsp.server import CHECKED_ACROSS_FILES, DralintServer
from testing.run import ROOT

WORKSPACE = ROOT / "tests" / "fixtures" / "lsp" / "workspace"
TEMPLATE = WORKSPACE / "apps" / "template.yaml"
DEPLOYMENT = WORKSPACE / "apps" / "deploy.yaml"
TIMEOUT = 60  # seconds: the checks across files run after each edit, on a machine the suite shares


def uri(path: Path) -> str:
    return path.as_uri()


SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "dralint", "lsp"],
    server_env={**os.environ, "PYTHONPATH": str(ROOT)},
)


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await initialize(lsp_client, WORKSPACE)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def client_in_copy(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    """A client of the server in a copy of the workspace (for tests that change files on disk)."""
    shutil.copytree(WORKSPACE, tmp_path / "workspace")
    await initialize(lsp_client, tmp_path / "workspace")
    yield
    await lsp_client.shutdown_session()


async def initialize(client: LanguageClient, root: Path) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=uri(root),
            initialization_options={"debounce": 20},
        )
    )


async def diagnostics_until(
    client: LanguageClient, path: Path, wanted: Callable[[list[types.Diagnostic]], bool]
) -> list[types.Diagnostic]:
    """The diagnostics of ``path`` once ``wanted`` holds for them (each publication is looked at)."""

    async def wait() -> list[types.Diagnostic]:
        while True:
            found = client.diagnostics.get(uri(path))
            if found is not None and wanted(found):
                return list(found)
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    return await asyncio.wait_for(wait(), TIMEOUT)


async def checked_across_files(client: LanguageClient, runs: int = 1) -> None:
    """Wait until the server has logged ``runs`` completed runs of the checks across files."""

    def done() -> int:
        return sum(1 for m in client.log_messages if m.message.startswith(CHECKED_ACROSS_FILES))

    async def wait() -> None:
        while done() < runs:
            await client.wait_for_notification(types.WINDOW_LOG_MESSAGE)

    await asyncio.wait_for(wait(), TIMEOUT)


def open_file(client: LanguageClient, path: Path, text: str | None = None) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri(path), "yaml", 1, path.read_text() if text is None else text)
        )
    )


def replace_all(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version, uri(path)),
            [types.TextDocumentContentChangeWholeDocument(text)],
        )
    )


def edit(client: LanguageClient, path: Path, edits: list[types.TextEdit], version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version, uri(path)),
            [types.TextDocumentContentChangePartial(e.range, e.new_text) for e in edits],
        )
    )


def codes(diagnostics: list[types.Diagnostic]) -> list[object]:
    return [d.code for d in diagnostics]


@pytest.mark.asyncio
async def test_lsp_edit_in_one_file_updates_the_diagnostics_of_another(client: LanguageClient) -> None:
    open_file(client, TEMPLATE)
    open_file(client, DEPLOYMENT)
    assert await diagnostics_until(client, DEPLOYMENT, lambda found: True) == []
    # Rename the template in its buffer (line 4: "  name: one-gpu"): the Deployment's reference breaks.
    edit(client, TEMPLATE, [types.TextEdit(types.Range(types.Position(3, 15), types.Position(3, 15)), "x")], 2)
    found = await diagnostics_until(client, DEPLOYMENT, lambda found: bool(found))
    assert [(d.code, d.severity, d.message, d.range) for d in found] == [
        (
            "DRA302",
            types.DiagnosticSeverity.Warning,
            'ResourceClaimTemplate "one-gpu" does not exist in namespace "ml"\nhint: did you mean `one-gpux`?',
            types.Range(types.Position(15, 8), types.Position(15, 42)),
        )
    ]
    assert found[0].source == "dralint"
    assert found[0].code_description == types.CodeDescription(
        href="https://github.com/dralint/dralint/blob/main/docs/rules/DRA302.md"
    )
    # Undo the rename: the finding goes away again.
    edit(client, TEMPLATE, [types.TextEdit(types.Range(types.Position(3, 15), types.Position(3, 16)), "")], 3)
    assert await diagnostics_until(client, DEPLOYMENT, lambda found: not found) == []


async def open_misspelt_class(client: LanguageClient) -> types.Diagnostic:
    """Open the template with its DeviceClass misspelt (line 12) and wait for its DRA300."""
    text = TEMPLATE.read_text().replace("deviceClassName: gpu.example.com", "deviceClassName: gpu.exmaple.com")
    open_file(client, TEMPLATE, text)
    found = await diagnostics_until(client, TEMPLATE, lambda found: "DRA300" in codes(found))
    (diagnostic,) = [d for d in found if d.code == "DRA300"]
    return diagnostic


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Replace `gpu.exmaple.com` with `gpu.example.com`", [((11, 27), (11, 42), "gpu.example.com")]),
        (
            "Suppress DRA300 here (# dralint: ignore[DRA300])",
            [((11, 42), (11, 42), "  # dralint: ignore[DRA300] reason")],
        ),
    ],
)
async def test_lsp_code_action_edit_makes_the_diagnostic_go_away(
    client: LanguageClient, title: str, expected: list[tuple[tuple[int, int], tuple[int, int], str]]
) -> None:
    diagnostic = await open_misspelt_class(client)
    assert diagnostic.range == types.Range(types.Position(11, 10), types.Position(11, 42))
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri(TEMPLATE)), diagnostic.range, types.CodeActionContext([diagnostic])
        )
    )
    assert result is not None
    actions = {action.title: action for action in result if isinstance(action, types.CodeAction)}
    assert list(actions) == [
        "Replace `gpu.exmaple.com` with `gpu.example.com`",
        "Suppress DRA300 here (# dralint: ignore[DRA300])",
    ]
    chosen = actions[title].edit
    assert chosen is not None and chosen.changes is not None
    edits = chosen.changes[uri(TEMPLATE)]
    assert [((e.range.start.line, e.range.start.character), (e.range.end.line, e.range.end.character), e.new_text)
            for e in edits] == expected  # fmt: skip
    edit(client, TEMPLATE, edits, 2)
    assert await diagnostics_until(client, TEMPLATE, lambda found: "DRA300" not in codes(found)) == []


@pytest.mark.asyncio
async def test_lsp_hover_shows_rule_docs_and_inventory_attributes(client: LanguageClient) -> None:
    await open_misspelt_class(client)
    on_finding = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(TEMPLATE)), types.Position(11, 30))
    )
    assert on_finding is not None and isinstance(on_finding.contents, types.MarkupContent)
    assert on_finding.contents.value.startswith(
        'DRA300: DeviceClass "gpu.exmaple.com" is not defined in the inputs\n\n---\n\n# DRA300 '
    )
    assert "## What it does" in on_finding.contents.value
    # Line 15: `expression: device.attributes["gpu.example.com"].model == "A100"`, on `model`.
    on_attribute = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(TEMPLATE)), types.Position(14, 66))
    )
    assert on_attribute is not None and isinstance(on_attribute.contents, types.MarkupContent)
    assert on_attribute.contents.value == (
        "**gpu.example.com/model** (attribute)\n\n- type `string` on 4 devices: `A100` (4)"
    )


@pytest.mark.asyncio
async def test_lsp_completes_attribute_names_in_selectors(client: LanguageClient) -> None:
    text = TEMPLATE.read_text().replace('.model == "A100"', ".")
    await checked_across_files(client)  # the inventory is known
    open_file(client, TEMPLATE, text)
    line = text.splitlines()[14]
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri(TEMPLATE)), types.Position(14, len(line)))
    )
    assert isinstance(result, types.CompletionList)
    assert [(item.label, item.detail) for item in result.items] == [
        ("cores", "attribute of gpu.example.com"),
        ("model", "attribute of gpu.example.com"),
    ]
    domains = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri(TEMPLATE)), types.Position(14, line.index('"') + 1))
    )
    assert isinstance(domains, types.CompletionList)
    # The inventory's domain first; then the drivers only a profile describes (the workspace's, the shipped ones).
    labels = [item.label for item in domains.items]
    assert labels[0] == "gpu.example.com" and "fpga.example.com" in labels[1:]
    assert [item.sort_text for item in domains.items] == sorted(item.sort_text or "" for item in domains.items)


FPGA = WORKSPACE / "apps" / "fpga.yaml"  # never on disk: a new buffer
FPGA_TEXT = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: fpga.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "fpga.example.com" && device.attributes["fpga.example.com"].family == "agilex"
"""


@pytest.mark.asyncio
async def test_lsp_hover_and_completion_read_the_profile_of_a_driver_without_devices(client: LanguageClient) -> None:
    await checked_across_files(client)  # the inventory is known: it has no device of fpga.example.com
    open_file(client, FPGA, FPGA_TEXT)
    await diagnostics_until(client, FPGA, lambda found: True)
    line = FPGA_TEXT.splitlines()[7]
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(FPGA)), types.Position(7, line.index("family") + 2))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value == (
        "**fpga.example.com/family** (attribute)\n\n- type `string` in the driver profile of fpga.example.com "
        "(profiles/fpga.example.com.yaml): one of `agilex`, `stratix` (devices of kind card)\n"
        "  the FPGA family of the card"
    )
    typed = FPGA_TEXT.replace('.family == "agilex"', ".")
    replace_all(client, FPGA, typed, 2)
    await diagnostics_until(client, FPGA, lambda found: True)
    end = len(typed.splitlines()[7])
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri(FPGA)), types.Position(7, end))
    )
    assert isinstance(result, types.CompletionList)
    assert [(item.label, item.detail) for item in result.items] == [
        ("family", "attribute of fpga.example.com"),
        ("firmware", "attribute of fpga.example.com"),
        ("kind", "attribute of fpga.example.com"),
    ]


@pytest.mark.asyncio
async def test_lsp_bad_input_is_published_and_the_server_keeps_serving(client: LanguageClient) -> None:
    text = DEPLOYMENT.read_text()
    open_file(client, DEPLOYMENT, text)
    await diagnostics_until(client, DEPLOYMENT, lambda found: True)
    # A YAML syntax error mid-edit (an unclosed flow sequence on line 7): DRA001 where it is.
    replace_all(client, DEPLOYMENT, text.replace("replicas: 2", "replicas: [2"), 2)
    found = await diagnostics_until(client, DEPLOYMENT, lambda found: "DRA001" in codes(found))
    assert [(d.code, d.range.start.line) for d in found] == [("DRA001", 7)]
    # A half-typed document: published (nothing to say about a Deployment without a spec yet).
    replace_all(client, DEPLOYMENT, text[: text.index("spec:")] + "spec:\n  repl", 3)
    assert await diagnostics_until(client, DEPLOYMENT, lambda found: "DRA001" not in codes(found)) == []
    # A 10 MB paste (20,000 documents, over maxDocumentsPerFile): one finding, the file is not checked.
    pasted = "---\n".join([text] * 20_000)
    assert len(pasted.encode()) > 8_000_000
    replace_all(client, DEPLOYMENT, pasted, 4)
    found = await diagnostics_until(client, DEPLOYMENT, lambda found: "DRA005" in codes(found))
    assert [(d.code, d.range.start.line) for d in found] == [("DRA005", 0)]
    # Still serving: back to the original text, nothing to report.
    replace_all(client, DEPLOYMENT, text, 5)
    assert await diagnostics_until(client, DEPLOYMENT, lambda found: not found) == []
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(DEPLOYMENT)), types.Position(0, 0))
    )
    assert hover is None
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert errors == []


@pytest.mark.asyncio
async def test_lsp_reads_files_changed_on_disk_and_the_configuration_again(
    client_in_copy: LanguageClient, tmp_path: Path
) -> None:
    client = client_in_copy
    root = tmp_path / "workspace"
    deployment, template, config = (
        root / "apps" / "deploy.yaml",
        root / "apps" / "template.yaml",
        root / ".dralint.yaml",
    )
    open_file(client, deployment)
    await diagnostics_until(client, deployment, lambda found: True)
    # The template renamed on disk (not open in the editor): the Deployment's reference breaks.
    template.write_text(template.read_text().replace("name: one-gpu", "name: two-gpus"))
    changes = [types.FileEvent(uri(template), types.FileChangeType.Changed)]
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes))
    assert codes(await diagnostics_until(client, deployment, lambda found: bool(found))) == ["DRA302"]
    # The configuration now ignores that rule: the server starts again with it.
    config.write_text(config.read_text() + "rules:\n  ignore: [DRA302]\n")
    changes = [types.FileEvent(uri(config), types.FileChangeType.Changed)]
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes))
    assert await diagnostics_until(client, deployment, lambda found: not found) == []


def test_lsp_a_failed_send_is_reported_once_not_without_end(caplog: pytest.LogCaptureFixture) -> None:
    """The client closed the pipe (or the server is exiting) while a check still ran: pygls reports the
    failed send by sending, which fails again; dralint's server logs it once instead of recursing."""
    ls = DralintServer()
    closed = io.BytesIO()
    closed.close()
    ls.protocol.set_writer(StdoutWriter(closed))
    with caplog.at_level(logging.ERROR):
        ls.log("dralint: checks across files done: 3 files in 5 ms")
    ours = [record.getMessage() for record in caplog.records if record.name == "dralint.lsp"]
    assert ours == ["I/O operation on closed file."]
    # pygls logs the failed log message, then the failed report of it, and stops there
    assert [r.getMessage() for r in caplog.records if r.name.startswith("pygls")] == ["Error sending data"] * 2
    ls.stop()  # after shutdown nothing is sent at all
    assert ls.stopping
