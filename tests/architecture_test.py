"""docs/architecture.md names every folder of the package and every command: a newcomer's map must not miss a room."""

from __future__ import annotations

import click

from dralint.cli import main
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_architecture_names_every_package_folder() -> None:
    folders = sorted(p.parent.name for p in (ROOT / "dralint").glob("*/__init__.py"))
    assert [f for f in folders if f"`dralint/{f}/`" not in DOC] == []


def test_architecture_names_every_command() -> None:
    commands: list[str] = []
    for name, command in sorted(main.commands.items()):
        if isinstance(command, click.Group):
            commands += [f"dralint {name} {sub}" for sub in sorted(command.commands)]
        else:
            commands.append(f"dralint {name}")
    assert [c for c in commands if f"`{c}" not in DOC] == []
