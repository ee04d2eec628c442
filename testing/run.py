"""Run ``dralint check`` in-process, isolated from the developer's configuration and environment."""

from __future__ import annotations

import contextlib
import datetime
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dralint.commands.check import CheckSettings, Outcome, analyse
from dralint.config.resolve import Layer

ROOT = Path(__file__).resolve().parent.parent


def check(
    paths: Sequence[str | os.PathLike[str]],
    *,
    config: str | os.PathLike[str] | None = None,
    flags: Layer | None = None,
    environment: Mapping[str, str] | None = None,
    today: datetime.date | None = None,
    **settings: Any,
) -> Outcome:
    """``analyse`` with no configuration file unless ``config`` is given, and an empty environment."""
    return analyse(
        CheckSettings(
            paths=tuple(str(p) for p in paths),
            flags=flags or Layer(),
            config=str(config) if config is not None else None,
            no_config=config is None,
            environment=environment or {},
            today=today,
            **settings,
        )
    )


def rules_of(outcome: Outcome, *, suppressed: bool = False) -> list[str]:
    """Rule ids reported (or, with ``suppressed``, also those suppressed), in report order."""
    return [f.rule for f in outcome.report.findings if suppressed or f.suppressed is None]


def cli(
    *args: str,
    cwd: str | os.PathLike[str] | None = None,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    stdin_from: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m dralint ARGS`` in a subprocess running this checkout (from the repository root, without
    its configuration unless the test names one: see :func:`without_repository_config`).

    ``stdin`` is written to a pipe; ``stdin_from`` is a file standard input is redirected from.
    """
    if cwd is None or Path(cwd).resolve() == ROOT:
        args = without_repository_config(args)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DRALINT_", "GITHUB_", "PRE_COMMIT"))}
    environment.pop("NO_COLOR", None)
    environment["PYTHONPATH"] = str(ROOT)
    environment.update(env or {})
    # Without input, standard input is /dev/null, not the test runner's (which may be a pipe:
    # given no path, dralint reads standard input when it is piped in).
    with open(stdin_from, "rb") if stdin_from is not None else contextlib.nullcontext() as redirected:
        return subprocess.run(
            [sys.executable, "-m", "dralint", *args],
            cwd=cwd,
            input=stdin,
            stdin=redirected if redirected is not None else subprocess.DEVNULL if stdin is None else None,
            capture_output=True,
            text=True,
            env=environment,
            check=False,
        )


def in_root(*args: str) -> tuple[int, str]:
    """``dralint ARGS`` through click's test runner from the repository root (fixture paths are relative to it):
    the exit code and what it printed."""
    from click.testing import CliRunner

    from dralint.cli import main

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, list(without_repository_config(args)))
    finally:
        os.chdir(cwd)
    return result.exit_code, result.output


_GROUPS = ("inventory", "profile")  # commands whose subcommand takes the options


def without_repository_config(args: Sequence[str]) -> tuple[str, ...]:
    """``args`` with ``--no-config`` after the command, unless they name a configuration themselves.

    The repository's own ``.dralint.yaml`` excludes ``tests/`` (as a user's configuration would
    exclude their test fixtures), and a command run from the repository root finds it: the tests
    check their fixtures with the defaults, or with the configuration they name.
    """
    if any(a in ("--config", "--no-config") or a.startswith("--config=") for a in args):
        return tuple(args)
    names = [n for n, a in enumerate(args) if not a.startswith("-")]
    if not names or args[names[0]] == "lsp":
        return tuple(args)
    at = names[0] + 1
    if args[names[0]] in _GROUPS and len(names) > 1:
        at = names[1] + 1
    return (*args[:at], "--no-config", *args[at:])
