"""The README's "Editors" and "Schemas for editors" sections, checked rather than trusted.

The Neovim set-up is run as written: its ``cmd`` starts the server (the installed ``dralint``
script), its ``init_options`` go in ``initialize``, and the server must publish diagnostics; and
the installed Neovim (Debian's 0.7.2 here) runs the ``init.lua`` itself, headless, on a copy of the
test workspace.
Every schema the sections name exists, every schema of ``schemas/`` is named, and the
``yaml.schemas`` mapping points at them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import jsonschema
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from ruamel.yaml import YAML

from dralint.lsp.server import DEBOUNCE_SECONDS
from testing.run import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
WORKSPACE = ROOT / "tests" / "fixtures" / "lsp" / "workspace"


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.index("\n## ", start + 1)
    return README[start:end]


def fenced(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


EDITORS, SCHEMAS = section("Editors"), section("Schemas for editors")
(NEOVIM,) = fenced(EDITORS, "lua")
COMMAND = re.findall(r'"([^"]+)"', re.search(r"cmd = \{([^}]*)\}", NEOVIM).group(1))
INIT_OPTIONS = dict(re.findall(r"(\w+) = (\d+)", re.search(r"init_options = \{([^}]*)\}", NEOVIM).group(1)))


def test_readme_neovim_set_up_names_the_server_and_its_default_debounce() -> None:
    assert COMMAND == ["dralint", "lsp"]
    assert {"debounce": str(round(DEBOUNCE_SECONDS * 1000))} == INIT_OPTIONS
    assert f'({round(DEBOUNCE_SECONDS * 1000)} ms; `initializationOptions: {{"debounce":' in EDITORS.replace(
        "\n  ", " "
    )
    assert "give it the command `dralint lsp`" in EDITORS


def _installed(command: str) -> str | None:
    beside = Path(sys.executable).parent / command  # the environment running the tests
    return str(beside) if beside.is_file() else shutil.which(command)


SCRIPT = _installed(COMMAND[0])
SERVER = ClientServerConfig(server_command=[SCRIPT or COMMAND[0], *COMMAND[1:]], server_env=dict(os.environ))


@pytest_lsp.fixture(config=SERVER)
async def editor(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """The server as Neovim starts it with the README's set-up, in the test workspace."""
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=WORKSPACE.as_uri(),
            initialization_options={k: int(v) for k, v in INIT_OPTIONS.items()},
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.skipif(SCRIPT is None, reason="the dralint script is not installed beside the interpreter")
@pytest.mark.asyncio
async def test_readme_neovim_set_up_starts_a_server_that_publishes_diagnostics(editor: LanguageClient) -> None:
    template = WORKSPACE / "apps" / "template.yaml"
    text = template.read_text().replace("deviceClassName: gpu.example.com", "deviceClassName: gpu.exmaple.com")
    editor.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(template.as_uri(), "yaml", 1, text))
    )

    async def published() -> list[types.Diagnostic]:
        while not editor.diagnostics.get(template.as_uri()):
            await editor.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return editor.diagnostics[template.as_uri()]

    found = await asyncio.wait_for(published(), 60)
    assert [(d.code, d.range.start.line) for d in found] == [("DRA300", 11)]


NVIM = shutil.which("nvim")


@pytest.mark.skipif(SCRIPT is None or NVIM is None, reason="needs nvim and the dralint script")
def test_readme_neovim_init_lua_runs_in_the_installed_neovim(tmp_path: Path) -> None:
    """The README's init.lua in a headless Neovim: opening a file of a git repository starts one
    server rooted there, which publishes the file's diagnostics (probe.lua waits for them)."""
    workspace = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, workspace)
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    template = workspace / "apps" / "template.yaml"
    template.write_text(
        template.read_text().replace("deviceClassName: gpu.example.com", "deviceClassName: gpu.exmaple.com")
    )
    (tmp_path / "init.lua").write_text(NEOVIM, encoding="utf-8")
    probe = ROOT / "tests" / "fixtures" / "lsp" / "neovim" / "probe.lua"
    out = tmp_path / "out.txt"
    environment = {**os.environ, "PROBE_OUT": str(out), "HOME": str(tmp_path)}
    environment["PATH"] = f"{Path(str(SCRIPT)).parent}{os.pathsep}{environment['PATH']}"
    done = subprocess.run(
        [str(NVIM), "--headless", "-u", str(tmp_path / "init.lua"), "-c", f"luafile {probe}", "template.yaml"],
        cwd=template.parent,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines() == ["DRA300 11:10", f"clients 1 root {workspace}"]


def test_readme_names_every_schema_of_dralints_own_files() -> None:
    shipped = sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json"))
    named = sorted(set(re.findall(r"\(schemas/([\w.]+\.schema\.json)\)", SCHEMAS)))
    assert named == shipped


def test_readme_yaml_schemas_setting_maps_every_schema_to_the_files_it_describes() -> None:
    (setting,) = fenced(SCHEMAS, "json")
    mapping = json.loads(setting)["yaml.schemas"]
    prefix = "https://raw.githubusercontent.com/dralint/dralint/main/"
    assert sorted(url.removeprefix(prefix) for url in mapping) == sorted(
        f"schemas/{p.name}" for p in (ROOT / "schemas").glob("*.schema.json")
    )
    assert all(globs for globs in mapping.values())


def test_readme_modeline_example_is_valid_against_its_schema() -> None:
    (example,) = fenced(SCHEMAS, "yaml")
    modeline, _, body = example.partition("\n")
    schema_path = modeline.removeprefix("# yaml-language-server: $schema=")
    assert schema_path == "../schemas/config.schema.json"
    schema = json.loads((ROOT / "schemas" / Path(schema_path).name).read_text(encoding="utf-8"))
    jsonschema.validate(YAML(typ="safe").load(body), schema)
