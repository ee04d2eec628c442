"""Helm charts in the editor, through a real ``dralint lsp`` process: a chart's file opened renders the chart.

helm is the stand-in of :mod:`testing.helm` (real ``helm template`` output replayed), or the real
one when ``DRALINT_HELM`` or PATH has it. The workspace holds two fixture charts under ``charts/``:
``twice`` (two templates define the same DeviceClass, the second with a label value the API server
refuses) and ``unrendered`` (a ``required`` value its values.yaml does not give).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from dralint.lsp.server import CHECKED_ACROSS_FILES
from dralint.pipeline.session import HELM_MISSING
from testing.helm import RECORDINGS, on_path, real_helm, stand_in
from testing.lspclient import Client, Message, diagnostics_of, logged


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for chart in ("twice", "unrendered"):
        shutil.copytree(RECORDINGS / chart, root / "charts" / chart)
    return root


def _start(workspace: Path, path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    monkeypatch.setenv("PATH", path)  # the server's (it inherits the environment)
    client = Client(workspace)
    yield client
    if client.process.poll() is None:
        client.process.kill()
        client.process.wait()


@pytest.fixture(params=["stand-in", "helm"])
def client(request: pytest.FixtureRequest, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[Client]:  # fmt: skip
    folder = tmp_path / "bin"
    folder.mkdir()
    if request.param == "helm":
        helm = real_helm()
        if helm is None:
            pytest.skip("helm is not installed (DRALINT_HELM, PATH): the stand-in is tested")
        (folder / "helm").symlink_to(helm)
    else:
        stand_in(folder)
    yield from _start(workspace, on_path(folder), monkeypatch)


def _diagnostics(message: Message) -> list[tuple[int, int, str]]:
    return [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"])
            for d in message["params"]["diagnostics"]]  # fmt: skip


def _until_codes(client: Client, path: Path, wanted: list[str]) -> Message:
    """The diagnostics of ``path`` once they have the ``wanted`` rules (the checks across files come later)."""
    return client.until(lambda m: diagnostics_of(path.as_uri())(m) and sorted(c for *_, c in _diagnostics(m)) == wanted)


def test_lsp_renders_the_chart_of_an_opened_template(client: Client, workspace: Path) -> None:
    client.initialize(workspace)
    client.until(logged(CHECKED_ACROSS_FILES))
    second = workspace / "charts" / "twice" / "templates" / "b.yaml"
    client.open(second)
    published = _until_codes(client, second, ["DRA120", "DRA308"])
    # 0-based: the name (line 5 of the template, where DRA308 says the definition is) and the label (line 8)
    assert _diagnostics(published) == [(4, 2, "DRA308"), (7, 4, "DRA120")]
    message = next(d["message"] for d in published["params"]["diagnostics"] if d["code"] == "DRA308")
    assert message.startswith(
        "DeviceClass gpu.example.com is defined more than once (they differ): first at charts/twice/templates/a.yaml:2;"
    )
    # The first template, opened too, has its own diagnostics: none.
    first = workspace / "charts" / "twice" / "templates" / "a.yaml"
    client.open(first)
    assert _diagnostics(client.until(diagnostics_of(first.as_uri()))) == []
    assert client.stop() == 0


def test_lsp_shows_a_chart_that_does_not_render_where_helm_says(client: Client, workspace: Path) -> None:
    client.initialize(workspace)
    client.until(logged(CHECKED_ACROSS_FILES))
    chart = workspace / "charts" / "unrendered"
    client.open(chart / "values.yaml")  # what the user edits: the template helm names gets the diagnostic
    template = chart / "templates" / "deviceclass.yaml"
    client.open(template)
    published = _until_codes(client, template, ["DRA009"])
    (diagnostic,) = published["params"]["diagnostics"]
    assert (diagnostic["range"]["start"], diagnostic["message"]) == (
        {"line": 3, "character": 11},  # helm's "deviceclass.yaml:4:11" (its column counts from 0)
        "helm template failed: execution error at (unrendered/templates/deviceclass.yaml:4:11): className is "
        "required\nhint: fix the chart so that helm template succeeds",
    )
    # The value given and saved: the chart renders, and the diagnostic goes.
    values = chart / "values.yaml"
    text = values.read_text() + "className: gpu.example.com\n"
    values.write_text(text)
    client.send("textDocument/didChange", {
        "textDocument": {"uri": values.as_uri(), "version": 2}, "contentChanges": [{"text": text}]})  # fmt: skip
    client.send("textDocument/didSave", {"textDocument": {"uri": values.as_uri()}})
    if (workspace.parent / "bin" / "helm").is_symlink():  # the real helm (the stand-in replays the failure)
        assert _until_codes(client, template, [])["params"]["diagnostics"] == []
    assert client.stop() == 0


def test_lsp_without_helm_says_so_once(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    for client in _start(workspace, str(empty), monkeypatch):
        client.initialize(workspace)
        client.until(logged(CHECKED_ACROSS_FILES))
        for name in ("twice/templates/a.yaml", "twice/templates/b.yaml", "unrendered/values.yaml"):
            path = workspace / "charts" / name
            client.open(path)
            assert _diagnostics(client.until(diagnostics_of(path.as_uri()))) == []
        shown = [m["params"] for m in client.received if m.get("method") == "window/showMessage"]
        assert shown == [{"type": 2, "message": f"dralint: {HELM_MISSING}"}]
        assert client.stop() == 0
