"""The command line. Parsing only: each command builds its settings and calls ``commands.<name>.run``."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click

from dralint import __version__
from dralint.api.versions import DEFAULT_RELEASE, RELEASES
from dralint.errors import DralintError, UsageError

_RELEASES = f"{RELEASES[0]}-{RELEASES[-1]}"


def _run(function: Callable[[], int]) -> None:
    """Call a command and map errors to exit codes: 2 for dralint errors, 3 for internal ones."""
    debug = os.environ.get("DRALINT_DEBUG") == "1" or "--debug" in sys.argv
    try:
        code = function()
    except DralintError as error:
        click.echo(f"dralint: error: {error}", err=True)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (``dralint check . | head``); silence the flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    except Exception as error:
        if debug:
            raise
        click.echo(
            f"dralint: internal error: {type(error).__name__}: {error} "
            "(rerun with --debug for a traceback and report it at https://github.com/dralint/dralint/issues)",
            err=True,
        )
        sys.exit(3)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dralint")
@click.option("--debug", is_flag=True, hidden=True, help="Show tracebacks of internal errors.")
def main(debug: bool) -> None:
    """Lint Kubernetes Dynamic Resource Allocation manifests and dry-run their claims."""


def _outputs(formats: tuple[str, ...], outputs: tuple[str, ...]) -> tuple[tuple[str, str | None], ...]:
    """Pair ``--format`` and ``--output`` by position; formats without an output go to stdout."""
    if len(outputs) > max(len(formats), 1):
        raise UsageError("more --output than --format options")
    formats = formats or ("text",)
    pairs: list[tuple[str, str | None]] = [
        (fmt, outputs[i] if i < len(outputs) else None) for i, fmt in enumerate(formats)
    ]
    if sum(1 for _, path in pairs if path is None) > 1:
        raise UsageError("only one --format can go to standard output; give the others an --output")
    return tuple(pairs)


def _color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--format",
    "-f",
    "formats",
    multiple=True,
    metavar="FORMAT",
    help="Output format: text, json (repeatable; pair with --output).",
)
@click.option(
    "--output",
    "-o",
    "outputs",
    multiple=True,
    metavar="FILE",
    help="Write the matching --format to FILE instead of standard output.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info", "never"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@click.option(
    "--kubernetes-version",
    "release",
    default=DEFAULT_RELEASE,
    show_default=True,
    metavar="VERSION",
    help=f"Target Kubernetes release ({_RELEASES}).",
)
@click.option(
    "--feature-gates",
    default="",
    metavar="GATES",
    help="Feature gates as kube-apiserver takes them: Name=true,Other=false (AllAlpha, AllBeta too).",
)
@click.option(
    "--inventory",
    "-i",
    multiple=True,
    metavar="PATH",
    help="ResourceSlices, DeviceClasses, Nodes, ... to dry-run the claims against (repeatable).",
)
@click.option("--stdin-filename", default="-", metavar="NAME", help="File name to report for standard input.")
@click.option("--no-simulate", is_flag=True, help="Skip the allocation dry-run.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
def check(
    paths: tuple[str, ...],
    formats: tuple[str, ...],
    outputs: tuple[str, ...],
    fail_on: Any,
    release: str,
    feature_gates: str,
    inventory: tuple[str, ...],
    stdin_filename: str,
    no_simulate: bool,
    color: str,
) -> None:
    """Check manifests (files, directories, or - for standard input)."""
    from dralint.api.versions import normalise_release, parse_feature_gates
    from dralint.commands import check as command

    def go() -> int:
        settings = command.CheckSettings(
            paths=paths,
            inventory=inventory,
            outputs=_outputs(formats, outputs),
            fail_on=fail_on,
            release=normalise_release(release),
            feature_gates=parse_feature_gates(feature_gates),
            stdin_name=stdin_filename,
            simulate=not no_simulate,
            color=_color(color),
        )
        return command.run(settings)

    _run(go)


@main.command()
@click.argument("scenario", metavar="SCENARIO.json")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["json", "text"]),
    default="json",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--repeat",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Run the whole scenario N times (timing); adds totalSeconds and repeat to the output.",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=None,
    metavar="STEPS",
    help="Search steps per node before giving up (default 1,000,000).",
)
def allocate(scenario: str, fmt: Any, repeat: int, budget: int | None) -> None:
    """Run the allocator on a scenario's claims for every node of the scenario."""
    from dralint.allocator import DEFAULT_SEARCH_BUDGET
    from dralint.commands import allocate as command

    def go() -> int:
        steps = budget if budget is not None else DEFAULT_SEARCH_BUDGET
        return command.run(command.AllocateSettings(scenario=scenario, format=fmt, repeat=repeat, budget=steps))

    _run(go)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--inventory",
    "-i",
    multiple=True,
    metavar="PATH",
    help="ResourceSlices, DeviceClasses, Nodes, Inventory documents, ... (repeatable).",
)
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["text", "json", "html"]),
    default="text",
    show_default=True,
    help="Output format (html: one self-contained page with charts).",
)
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")
@click.option(
    "--kubernetes-version",
    "release",
    default="1.37",
    show_default=True,
    metavar="VERSION",
    help=f"Target Kubernetes release ({_RELEASES}).",
)
@click.option("--feature-gates", default="", metavar="GATES", help="Feature gates: Name=true,Other=false.")
@click.option(
    "--strategy",
    type=click.Choice(["pack", "spread"]),
    default="pack",
    show_default=True,
    help="pack: first node that fits; spread: continue after the node used last.",
)
@click.option("--stdin-filename", default="-", metavar="NAME", help="File name to report for standard input.")
def simulate(
    paths: tuple[str, ...],
    inventory: tuple[str, ...],
    fmt: str,
    output: str | None,
    release: str,
    feature_gates: str,
    strategy: Any,
    stdin_filename: str,
) -> None:
    """Dry-run every pod's claims against the inventory: placements, utilisation, unplaced pods."""
    from dralint.api.versions import normalise_release, parse_feature_gates
    from dralint.commands import simulate as command

    def go() -> int:
        settings = command.SimulateSettings(
            paths=paths,
            inventory=inventory,
            format=fmt,
            output=output,
            release=normalise_release(release),
            feature_gates=parse_feature_gates(feature_gates),
            strategy=strategy,
            stdin_name=stdin_filename,
        )
        return command.run(settings)

    _run(go)


@main.group()
def inventory() -> None:
    """Work with compact Inventory documents (dralint.io/v1alpha1)."""


@inventory.command()
@click.argument("path")
def expand(path: str) -> None:
    """Print the Nodes and ResourceSlices an Inventory document stands for (YAML for kubectl apply)."""
    from dralint.commands import inventory as command

    _run(lambda: command.expand(command.ExpandSettings(path=path)))
