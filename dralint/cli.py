"""The command line. Parsing only: each command builds its settings and calls ``commands.<name>.run``."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from dralint import __version__
from dralint.api.versions import DEFAULT_RELEASE, RELEASES
from dralint.errors import DralintError, UsageError
from dralint.process import raise_recursion_limit, tune_garbage_collection

if TYPE_CHECKING:
    from dralint.commands.simulate import SimulateSettings
    from dralint.read.helm_template import HelmChart

F = TypeVar("F", bound=Callable[..., Any])

_RELEASES = f"{RELEASES[0]}-{RELEASES[-1]}"


def _run(function: Callable[[], int]) -> None:
    """Call a command and map errors to exit codes: 2 for dralint errors, 3 for internal ones.

    The process-wide settings dralint needs (a recursion limit for deep CEL and allocations;
    the garbage collector's, in ``_Group.main``) are applied here, at the entry point, never by
    library code.
    """
    debug = os.environ.get("DRALINT_DEBUG") == "1" or "--debug" in sys.argv
    raise_recursion_limit()
    try:
        code = function()
        sys.stdout.flush()  # here, not at exit, so that a full disk is reported as below
    except DralintError as error:
        from dralint.report.escape import bounded, for_terminal  # only on this path: keeps start-up lazy

        click.echo(f"dralint: error: {bounded(for_terminal(str(error)))}", err=True)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (``dralint check . | head``); silence the flush at exit.
        _discard_stdout()
        sys.exit(1)
    except OSError as error:
        if error.errno not in _WRITE_ERRORS:
            _internal_error(error, debug)
        # A report or standard output could not be written (a full disk, a quota): the user's
        # environment, not a bug. What stdout still buffers is dropped, so exit does not retry.
        _discard_stdout()
        click.echo(f"dralint: error: cannot write the output: {error.strerror or error}", err=True)
        sys.exit(2)
    except Exception as error:
        _internal_error(error, debug)
    sys.exit(code)


# Errors that only writing raises; opening an output that cannot be written is reported where it is opened.
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _discard_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _internal_error(error: Exception, debug: bool) -> NoReturn:
    """Exit 3 with one line (or the traceback with ``--debug``): a bug of dralint."""
    if debug:
        import traceback  # only on this path: it imports the source-reading machinery (2 ms)

        traceback.print_exc()
    else:
        text = " ".join(str(error).split())  # one line, whatever the exception says
        click.echo(
            f"dralint: internal error: {type(error).__name__}: {text} (rerun as dralint --debug COMMAND ... "
            "for a traceback and report it at https://github.com/dralint/dralint/issues)",
            err=True,
        )
    sys.exit(3)


class _Group(click.Group):
    """Click's usage errors in dralint's one-line form (``dralint: error: ...``, exit 2), like every other error."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        tune_garbage_collection()  # before the command imports its modules (see dralint/process.py)
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as error:  # plain `dralint`: the help, as click prints it
            error.show()
            sys.exit(error.exit_code)
        except click.UsageError as error:
            message = error.format_message().rstrip(".").replace(". Did you mean", "; did you mean")
            message = message[:1].lower() + message[1:]
            command = error.ctx.command_path if error.ctx is not None else "dralint"
            click.echo(f"dralint: error: {message} (see '{command} --help')", err=True)
            sys.exit(2)
        except click.ClickException as error:
            click.echo(f"dralint: error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except click.Abort:
            sys.exit(130)


def entry() -> NoReturn:
    """``dralint`` as a program (the console script, ``python -m dralint``): :func:`main`, then the
    ``atexit`` handlers and an exit that does not tear the interpreter down.

    Tearing it down frees every object of the run one by one (modules, decoded documents, the
    cluster model) for memory the operating system takes back anyway: 20 ms of a check of the
    corpus, more on larger inputs. The standard streams are flushed first, as at a normal exit.
    """
    import atexit

    try:
        main()
        status: object = 0
    except SystemExit as stop:
        status = stop.code
    if status is None:
        code = 0
    elif isinstance(status, int):
        code = status
    else:  # as the interpreter does with a message given to sys.exit
        print(status, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # as the interpreter does when the last flush fails
            code = code or 120
    os._exit(code)


@click.group(name="dralint", cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dralint")
@click.option("--debug", is_flag=True, hidden=True, help="Show tracebacks of internal errors.")
def main(debug: bool) -> None:
    """Lint Kubernetes Dynamic Resource Allocation manifests and dry-run their claims."""


def _outputs(
    formats: tuple[str, ...],
    outputs: tuple[str, ...],
    default: str = "auto",
    *,
    by_extension: Mapping[str, str] = MappingProxyType({".sarif": "sarif", ".xml": "junit", ".json": "json"}),
    terminal: bool | None = None,
) -> tuple[tuple[str, str | None], ...]:
    """Pair ``--format`` and ``--output`` by position; formats without an output go to stdout.

    One ``--output`` without ``--format`` takes the format its extension names (``by_extension``:
    ``-o report.sarif``), as other linters do; any other extension gets ``default``. A page (HTML)
    is not written to a terminal (``terminal``: standard output is one).
    """
    if len(outputs) > max(len(formats), 1):
        raise UsageError("more --output than --format options")
    if not formats and len(outputs) == 1:
        formats = (by_extension.get(os.path.splitext(outputs[0])[1].lower(), default),)
    formats = formats or (default,)
    pairs: list[tuple[str, str | None]] = [
        (fmt, outputs[i] if i < len(outputs) else None) for i, fmt in enumerate(formats)
    ]
    if sum(1 for _, path in pairs if path is None) > 1:
        raise UsageError("only one --format can go to standard output; give the others an --output")
    to_terminal = sys.stdout.isatty() if terminal is None else terminal
    if to_terminal and "html" in (fmt for fmt, path in pairs if path is None):
        raise UsageError("--format html writes a web page: give --output FILE.html (or redirect standard output)")
    for fmt, path in pairs:
        # Pairing is by position, so `-f github -f sarif -o x.sarif` sends github to x.sarif.
        meant = by_extension.get(os.path.splitext(path or "")[1].lower())
        if meant is not None and meant != fmt and meant in formats:
            raise UsageError(
                f"--output {path} pairs with --format {fmt} (they pair by position); "
                f"give --format {meant} first, or reorder the --output options"
            )
    return tuple(pairs)


def _color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def _layer(
    *,
    release: str | None,
    feature_gates: str | None,
    inventory: tuple[str, ...],
    rules: tuple[str, ...] = (),
    profiles: tuple[str, ...] = (),
    select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    fail_on: str | None = None,
    baseline: str | None = None,
) -> Any:
    """The command-line layer of the settings: only what was given (``None`` lets environment and file decide)."""
    from dralint.config.resolve import Layer, Ref, named_by

    def refs(values: tuple[str, ...], flag: str) -> tuple[Ref, ...] | None:
        parts = [p.strip() for value in values for p in value.split(",") if p.strip()]
        return tuple(Ref(p, flag) for p in parts) if values else None

    return Layer(
        release=Ref(release, "--kubernetes-version") if release is not None else None,
        feature_gates=Ref(feature_gates, "--feature-gates") if feature_gates is not None else None,
        inventory=inventory or None,
        rule_paths=rules or None,
        profile_paths=profiles or None,
        select=refs(select, "--select"),
        ignore=refs(ignore, "--ignore"),
        exclude=exclude or None,
        fail_on=Ref(fail_on, "--fail-on") if fail_on is not None else None,
        baseline=baseline,
        named=named_by(None, inventory=inventory, rule_paths=rules, profile_paths=profiles, baseline=baseline),
    )


# Options that ``check`` and ``simulate`` share, declared once so that both read the same way.
# check and simulate pair each --format with the --output at the same position (see _outputs).
_output_option = click.option(
    "--output",
    "-o",
    "outputs",
    multiple=True,
    metavar="FILE",
    help="Write the --format at the same position to FILE instead of standard output.",
)
_release_option = click.option(
    "--kubernetes-version",
    "release",
    default=None,
    metavar="VERSION",
    help=f"Target Kubernetes release ({_RELEASES}) [default: {DEFAULT_RELEASE}].",
)
_config_option = click.option(
    "--config",
    "config",
    default=None,
    metavar="FILE",
    help="Configuration file (default: .dralint.yaml found upwards).",
)
_no_config_option = click.option("--no-config", is_flag=True, help="Ignore configuration files.")
_stdin_filename_option = click.option(
    "--stdin-filename", default="-", metavar="NAME", help="File name to report for standard input."
)


def _helm_charts(charts: tuple[str, ...], values: tuple[str, ...], sets: tuple[str, ...]) -> tuple[HelmChart, ...]:
    """The --helm-chart charts, each with every --values and --set (which make no sense without a chart)."""
    from dralint.read.helm_template import HelmChart

    if (values or sets) and not charts:
        raise UsageError("--values and --set need --helm-chart")
    return tuple(HelmChart(chart, values, sets) for chart in charts)


_CHECK_EPILOG = """\b
Examples:
  dralint check manifests/                     check a directory (the current one by default)
  dralint check manifests/ -i cluster/         dry-run the claims against an inventory
  helm template chart/ | dralint check -       check rendered manifests from standard input
  dralint check . -f concise                   one finding per line, for scripts
  dralint check . -f sarif -o dralint.sarif -f github    code scanning and annotations in CI

\b
Exit codes:
  0  no finding at or above --fail-on (default: error)
  1  findings at or above --fail-on
  2  usage, configuration or input error (one line on standard error says why)
  3  internal error (a bug; dralint --debug COMMAND shows the traceback)
"""


@main.command(epilog=_CHECK_EPILOG)
@click.argument("paths", nargs=-1)
@click.option(
    "--format",
    "--output-format",
    "-f",
    "formats",
    multiple=True,
    metavar="FORMAT",
    help="Output format: auto (github under GitHub Actions; full on a terminal; else concise), full (each "
    "finding with its source line), concise (one finding per line; text is the same), json, sarif, junit, "
    "github. Repeatable; pair each with an --output.",
)
@_output_option
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info", "never"]),
    default=None,
    help="Lowest severity that makes the exit code 1 [default: error].",
)
@_release_option
@click.option(
    "--feature-gates",
    default=None,
    metavar="GATES",
    help="Feature gates as kube-apiserver takes them: Name=true,Other=false (AllAlpha, AllBeta too).",
)
@click.option(
    "--inventory",
    "-i",
    multiple=True,
    metavar="PATH",
    help="ResourceSlices, DeviceClasses, Nodes, ... to dry-run the claims against; read as context, "
    "not reported on (repeatable).",
)
@_config_option
@_no_config_option
@click.option("--rules", "rule_paths", multiple=True, metavar="PATH", help="User rule file or directory (repeatable).")
@click.option(
    "--profile",
    "profile_paths",
    multiple=True,
    metavar="PATH",
    help="Driver profile file or directory, beside the shipped ones (repeatable).",
)
@click.option(
    "--select",
    multiple=True,
    metavar="RULES",
    help="Only these rules: ids, names, id prefixes, categories (comma-separated).",
)
@click.option("--ignore", multiple=True, metavar="RULES", help="Not these rules (comma-separated).")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching GLOB (repeatable).")
@click.option(
    "--changed",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[REF]",
    help="Check the files changed since the git revision REF (default: the merge base with the default branch), "
    "with the repository's other manifests as context.",
)
@click.option(
    "--no-ignore-files",
    is_flag=True,
    help="Also read files that .gitignore or .git/info/exclude ignore when walking directories.",
)
@click.option("--show-suppressed", is_flag=True, help="Also print suppressed findings (text, json, github).")
@click.option("--baseline", default=None, metavar="FILE", help="Suppress the findings recorded in FILE.")
@click.option("--write-baseline", default=None, metavar="FILE", help="Record every current finding in FILE.")
@_stdin_filename_option
@click.option("--no-simulate", is_flag=True, help="Skip the allocation dry-run.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes that read and check files (default: one per core; small inputs use one). "
    "The output does not depend on it.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the results cache (.dralint_cache/ at the root of the git repository).",
)
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Print the findings and nothing else: no summary, no progress line.")
@click.option(
    "--statistics",
    is_flag=True,
    help="Print the number of findings per rule instead of the findings (text formats; github keeps its "
    "annotations and counts the rest).",
)
@click.option(
    "--helm-chart", "helm_charts", multiple=True, metavar="CHART",
    help="Render the local chart CHART with helm template and check it (repeatable).",
)  # fmt: skip
@click.option(
    "--values", "helm_values", multiple=True, metavar="FILE", help="Values file for --helm-chart (repeatable)."
)
@click.option("--set", "helm_sets", multiple=True, metavar="KEY=VALUE", help="A value for --helm-chart (repeatable).")
def check(
    paths: tuple[str, ...],
    formats: tuple[str, ...],
    outputs: tuple[str, ...],
    fail_on: str | None,
    release: str | None,
    feature_gates: str | None,
    inventory: tuple[str, ...],
    config: str | None,
    no_config: bool,
    rule_paths: tuple[str, ...],
    profile_paths: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    exclude: tuple[str, ...],
    changed: str | None,
    no_ignore_files: bool,
    show_suppressed: bool,
    baseline: str | None,
    write_baseline: str | None,
    stdin_filename: str,
    no_simulate: bool,
    jobs: int | None,
    no_cache: bool,
    color: str,
    quiet: bool,
    statistics: bool,
    helm_charts: tuple[str, ...],
    helm_values: tuple[str, ...],
    helm_sets: tuple[str, ...],
) -> None:
    """Check manifests (files, directories, or - for standard input; given none: standard input when it is
    piped in, else the current directory)."""
    from dralint.commands import check as command
    from dralint.read import sources

    def go() -> int:
        piped = not paths and changed is None and sources.stdin_is_piped()
        settings = command.CheckSettings(
            paths=(sources.STDIN,) if piped else paths,  # `cat a.yaml | dralint check` reads it, as `-` does
            outputs=_outputs(formats, outputs),
            flags=_layer(
                release=release,
                feature_gates=feature_gates,
                inventory=inventory,
                rules=rule_paths,
                profiles=profile_paths,
                select=select,
                ignore=ignore,
                exclude=exclude,
                fail_on=fail_on,
                baseline=baseline,
            ),
            config=config,
            no_config=no_config,
            stdin_name=stdin_filename,
            simulate=not no_simulate,
            color=_color(color),
            terminal=sys.stdout.isatty(),
            show_suppressed=show_suppressed,
            write_baseline=write_baseline,
            jobs=jobs,
            ignore_files=not no_ignore_files,
            changed=changed,
            freeze_loaded=True,
            quiet=quiet,
            helm_charts=_helm_charts(helm_charts, helm_values, helm_sets),
            statistics=statistics,
            progress=True,
            cache=not no_cache,
        )
        return command.run(settings)

    _run(go)


@main.command("rules")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True
)
@click.option(
    "--rules", "rule_paths", multiple=True, metavar="PATH", help="Also list user rules from PATH (repeatable)."
)
@click.option(
    "--config", "config", default=None, metavar="FILE", help="Configuration file (its user rules are listed)."
)
@_no_config_option
def rules_command(fmt: str, rule_paths: tuple[str, ...], config: str | None, no_config: bool) -> None:
    """List every rule: built-in ones and user rules."""
    from dralint.commands import rules as command

    _run(lambda: command.run(command.RulesSettings(fmt, rule_paths, config, no_config)))


@main.command()
@click.argument("rule")
@click.option("--rules", "rule_paths", multiple=True, metavar="PATH", help="Also look in user rules from PATH.")
@click.option("--config", "config", default=None, metavar="FILE", help="Configuration file (its user rules count).")
@_no_config_option
def explain(rule: str, rule_paths: tuple[str, ...], config: str | None, no_config: bool) -> None:
    """Print the documentation of RULE (an id such as DRA200, or a name)."""
    from dralint.commands import rules as command

    _run(lambda: command.explain(command.RulesSettings("markdown", rule_paths, config, no_config), rule))


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
    help="Search steps per node before giving up (default: limits.maxSearchSteps of the configuration, 1,000,000).",
)
@_config_option
@_no_config_option
def allocate(scenario: str, fmt: Any, repeat: int, budget: int | None, config: str | None, no_config: bool) -> None:
    """Run the allocator on a scenario's claims for every node of the scenario."""
    from dralint.commands import allocate as command

    def go() -> int:
        settings = command.AllocateSettings(
            scenario=scenario, format=fmt, repeat=repeat, budget=budget, config=config, no_config=no_config
        )
        return command.run(settings)

    _run(go)


def _dry_run_options(what: str, formats: str) -> Callable[[F], F]:
    """The options of the commands that dry-run manifests against an inventory (simulate, plan):
    PATHS, where the inventory is, the output formats and files, the target cluster, the configuration."""
    options = [
        click.argument("paths", nargs=-1),
        click.option("--inventory", "-i", multiple=True, metavar="PATH", help=f"{what} (repeatable)."),
        click.option(
            "--format",
            "-f",
            "formats",
            type=click.Choice(["text", "json", "html"]),
            multiple=True,
            help=f"Output format{formats} [default: text]. Repeatable; pair each with an --output.",
        ),
        _output_option,
        _release_option,
        click.option("--feature-gates", default=None, metavar="GATES", help="Feature gates: Name=true,Other=false."),
        _config_option,
        _no_config_option,
        _stdin_filename_option,
    ]

    def apply(function: F) -> F:
        for option in reversed(options):
            function = option(function)
        return function

    return apply


# What an --output's extension names for simulate and plan (check's: see _outputs).
_PAGES = MappingProxyType({".json": "json", ".html": "html", ".htm": "html"})


def _dry_run_inputs(
    command: str,
    paths: tuple[str, ...],
    options: Mapping[str, Any],
    *,
    strategy: Any = "pack",
) -> SimulateSettings:
    """The inputs of a dry-run command from the options of :func:`_dry_run_options`."""
    from dralint.commands.simulate import SimulateSettings
    from dralint.read import sources

    if not paths and sources.stdin_is_piped():
        paths = (sources.STDIN,)  # `helm template ... | dralint simulate` reads it, as `dralint simulate -` does
    if not paths:
        raise UsageError(
            f"{command} needs the manifests whose pods to place: give PATHS (files, directories, or - for "
            "standard input), or pipe them in"
        )
    return SimulateSettings(
        paths=paths,
        outputs=_outputs(options["formats"], options["outputs"], default="text", by_extension=_PAGES),
        flags=_layer(
            release=options["release"], feature_gates=options["feature_gates"], inventory=options["inventory"]
        ),
        strategy=strategy,
        stdin_name=options["stdin_filename"],
        config=options["config"],
        no_config=options["no_config"],
        freeze_loaded=True,
        progress=True,
    )


@main.command()
@_dry_run_options(
    "ResourceSlices, DeviceClasses, Nodes, Inventory documents, ...", " (html: one self-contained page with charts)"
)
@click.option(
    "--strategy",
    type=click.Choice(["pack", "spread"]),
    default="pack",
    show_default=True,
    help="pack: first node that fits; spread: continue after the node used last.",
)
def simulate(paths: tuple[str, ...], strategy: Any, **options: Any) -> None:
    """Dry-run every pod's claims against the inventory: placements, utilisation, unplaced pods."""
    from dralint.commands import simulate as command

    _run(lambda: command.run(_dry_run_inputs("simulate", paths, options, strategy=strategy)))


@main.command()
@_dry_run_options("ResourceSlices, Nodes, Inventory documents with node pools (minCount, maxCount), ...", "")
@click.option(
    "--expander",
    type=click.Choice(["least-waste", "most-pods", "priority", "price"]),
    default="least-waste",
    show_default=True,
    help="How to choose among node pools that would place pending pods.",
)
@click.option(
    "--scale-down-utilization-threshold",
    "threshold",
    type=float,
    default=0.5,
    show_default=True,
    help="Nodes used less than this (0-1) are scale-down candidates.",
)
def plan(paths: tuple[str, ...], expander: Any, threshold: float, **options: Any) -> None:
    """Plan as the cluster autoscaler would: node pool scale-up until the pods fit, then scale-down."""
    from dralint.commands import plan as command

    def go() -> int:
        inputs = _dry_run_inputs("plan", paths, options)
        return command.run(command.PlanSettings(inputs, expander=expander, threshold=threshold))

    _run(go)


@main.command()
@click.argument("paths", nargs=-1)
@click.option(
    "--to",
    "to",
    required=True,
    metavar="VERSION",
    help="The resource.k8s.io version to write: v1, v1beta2, v1beta1 or v1alpha3.",
)
@click.option("--in-place", "-w", is_flag=True, help="Rewrite the files instead of printing the result.")
@_release_option
@_config_option
@_no_config_option
def convert(
    paths: tuple[str, ...], to: str, in_place: bool, release: str | None, config: str | None, no_config: bool
) -> None:
    """Rewrite DRA objects (files, directories, or - for standard input, also when piped in) into another
    resource.k8s.io version, keeping comments and key order; other documents are left as they are.
    A field the version cannot hold is an error, and nothing is written."""
    from dralint.commands import convert as command

    settings = command.ConvertSettings(
        paths=paths, to=to, in_place=in_place, release=release, config=config, no_config=no_config
    )
    _run(lambda: command.run(settings))


@main.command()
@click.argument("paths", nargs=-1)
@click.option(
    "--classes",
    is_flag=True,
    help="Leave the workloads alone: print DeviceClasses (extendedResourceName) that back their resources with DRA.",
)
@click.option(
    "--check",
    "check_roads",
    is_flag=True,
    help="Dry-run the workloads today (device plugin), after the switch (extendedResourceName) and rewritten.",
)
@click.option("--in-place", "-w", is_flag=True, help="Rewrite the files instead of printing the result.")
@click.option("--inventory", "-i", multiple=True, metavar="PATH", help="The cluster, for --check (repeatable).")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json", "html"]), default="text", help="Output of --check."
)
@_release_option
@click.option("--feature-gates", default=None, metavar="GATES", help="Feature gates: Name=true,Other=false.")
@click.option("--profiles", multiple=True, metavar="PATH", help="Driver profiles of your own (repeatable).")
@_config_option
@_no_config_option
def migrate(
    paths: tuple[str, ...],
    classes: bool,
    check_roads: bool,
    in_place: bool,
    inventory: tuple[str, ...],
    fmt: Any,
    release: str | None,
    feature_gates: str | None,
    profiles: tuple[str, ...],
    config: str | None,
    no_config: bool,
) -> None:
    """Move workloads that ask for device-plugin resources (nvidia.com/gpu: 1) to DRA: rewrite them into
    claims from ResourceClaimTemplates, keeping comments and key order, or (--classes) print the
    DeviceClasses that let DRA serve the resources as they are. The driver profiles say which
    devices each resource stands for."""
    from dralint.commands import migrate as command

    def go() -> int:
        settings = command.MigrateSettings(
            paths=paths,
            mode="check" if check_roads else "classes" if classes else "rewrite",
            in_place=in_place,
            flags=_layer(release=release, feature_gates=feature_gates, inventory=inventory, profiles=profiles),
            format=fmt,
            config=config,
            no_config=no_config,
        )
        return command.run(settings)

    _run(go)


@main.group()
def inventory() -> None:
    """Work with compact Inventory documents (dralint.io/v1alpha1)."""


@inventory.command()
@click.argument("path")
@_config_option
@_no_config_option
def expand(path: str, config: str | None, no_config: bool) -> None:
    """Print the Nodes and ResourceSlices an Inventory document stands for (YAML for kubectl apply)."""
    from dralint.commands import inventory as command

    _run(lambda: command.expand(command.ExpandSettings(path=path, config=config, no_config=no_config)))


@main.group()
def profile() -> None:
    """Work with driver profiles (dralint.io/v1alpha1 DriverProfile)."""


@profile.command("extract")
@click.option(
    "--inventory",
    "-i",
    "inventory",
    multiple=True,
    required=True,
    metavar="PATH",
    help="ResourceSlices (kubectl get resourceslices -o yaml) or Inventory documents (repeatable).",
)
@click.option("--driver", "drivers", multiple=True, metavar="NAME", help="Only this driver (repeatable).")
@click.option(
    "--output", "-o", "output", default=None, metavar="FILE", help="Write to FILE instead of standard output."
)
@_config_option
@_no_config_option
def profile_extract(
    inventory: tuple[str, ...], drivers: tuple[str, ...], output: str | None, config: str | None, no_config: bool
) -> None:
    """Write a starting profile for each driver of a cluster's ResourceSlices: names, value types, values seen
    and kinds of device. Add closed value sets, releases and configuration kinds, then name it under profiles:."""
    from dralint.commands import profile as command

    settings = command.ExtractSettings(
        inventory=inventory, drivers=drivers, output=output, config=config, no_config=no_config
    )
    _run(lambda: command.extract(settings))


@profile.command("show")
@click.argument("driver")
@_config_option
@_no_config_option
def profile_show(driver: str, config: str | None, no_config: bool) -> None:
    """Print the driver profile dralint uses for DRIVER (yours from profiles:, else the shipped one)."""
    from dralint.commands import profile as command

    _run(lambda: command.show(command.ShowSettings(driver=driver, config=config, no_config=no_config)))


@main.command()
@click.option("--stdio", is_flag=True, help="Speak over standard input and output (the default and only transport).")
def lsp(stdio: bool) -> None:
    """Run the language server (LSP over standard input and output) for editors: diagnostics across the
    workspace, hover, quick fixes and completion in CEL selectors. Needs the lsp extra (pygls), which
    pip install -e '.[dev]' in a clone includes."""
    from dralint.commands import lsp as command

    _run(command.run)
