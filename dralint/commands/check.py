"""``dralint check``: the command line's settings, then :func:`dralint.pipeline.run.check`, then the outputs."""

from __future__ import annotations

import datetime
import io
import os
import sys
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import field, replace
from typing import TextIO

from dralint import progress, report
from dralint.config.resolve import Layer
from dralint.dataclass import dataclass
from dralint.errors import UsageError
from dralint.pipeline import run as pipeline
from dralint.pipeline.run import FAIL_ON, FailOn
from dralint.read.helm_template import HelmChart
from dralint.report.assemble import Presentation

__all__ = ["FAIL_ON", "CheckSettings", "FailOn", "Outcome", "analyse", "run"]
GITHUB_ACTIONS = "GITHUB_ACTIONS"
PRE_COMMIT = "PRE_COMMIT"  # pre-commit sets it to 1 for its hooks
NO_CACHE = "DRALINT_NO_CACHE"  # set (to anything but nothing): as --no-cache


@dataclass(frozen=True, slots=True)
class CheckSettings:
    paths: tuple[str, ...] = ()  # nothing: the current directory
    outputs: tuple[tuple[str, str | None], ...] = (("auto", None),)  # (format, file or None for stdout)
    flags: Layer = field(default_factory=Layer)  # settings given on the command line
    config: str | None = None  # --config FILE
    no_config: bool = False  # --no-config: ignore configuration files (and DRALINT_CONFIG)
    stdin_name: str = "-"
    simulate: bool = True
    color: bool = False
    terminal: bool = False  # standard output is a terminal (auto prints the full format there)
    show_suppressed: bool = False
    write_baseline: str | None = None
    jobs: int | None = None  # worker processes for many files; None: one per core
    ignore_files: bool = True  # directory walks skip what .gitignore and .git/info/exclude ignore
    changed: str | None = None  # --changed [REF]: check the files changed since REF ("" = the default base)
    freeze_loaded: bool = False  # gc.freeze() after loading: a process-wide effect the command line asks for
    environment: Mapping[str, str] | None = None  # None: os.environ
    today: datetime.date | None = None  # for expiry dates; None: today
    # Shortcuts for programmatic callers (tests, benchmarks): the same as the flags.
    release: str | None = None
    feature_gates: Mapping[str, bool] | None = None
    inventory: tuple[str, ...] = ()
    fail_on: FailOn | None = None
    quiet: bool = False  # --quiet: findings only, no summary line, no progress line
    statistics: bool = False  # --statistics: counts per rule instead of the findings (human formats)
    progress: bool = False  # a progress line on standard error when it is a terminal (the command line asks)
    cache: bool = False  # the results cache, in a git repository (the command line uses it unless --no-cache)
    helm_charts: tuple[HelmChart, ...] = ()  # --helm-chart CHART (with --values, --set): rendered and checked

    def request(self) -> pipeline.Request:
        flags = pipeline.with_shortcuts(
            self.flags,
            release=self.release,
            feature_gates=self.feature_gates,
            inventory=self.inventory,
            fail_on=self.fail_on,
        )
        return pipeline.Request(flags, self.config, self.no_config, self.environment)

    def env(self) -> Mapping[str, str]:
        return os.environ if self.environment is None else self.environment

    def job(self) -> pipeline.CheckJob:
        return pipeline.CheckJob(
            paths=self.paths,
            changed=self.changed,
            ignore_files=self.ignore_files,
            repository_context=self.env().get(PRE_COMMIT) == "1",
            simulate=self.simulate,
            jobs=self.jobs,
            stdin_name=self.stdin_name,
            freeze=self.freeze_loaded,
            write_baseline=self.write_baseline,
            today=self.today,
            presentation=Presentation(self.color, self.show_suppressed, self.quiet),
            cache=self.cache and not self.env().get(NO_CACHE),
            helm_charts=self.helm_charts,
        )


Outcome = pipeline.CheckOutcome


def run(settings: CheckSettings) -> int:
    environment = settings.env()
    for requested, _ in settings.outputs:  # a typo in a format must not cost a whole analysis
        _format(requested, environment)
    with progress.shown(sys.stderr, enabled=settings.progress and not settings.quiet):
        outcome = analyse(settings)
    write_outputs(
        outcome.report, settings.outputs, environment, terminal=settings.terminal, statistics=settings.statistics
    )
    if outcome.baseline_written is not None:
        print(f"dralint: wrote {outcome.baseline_written} findings to {settings.write_baseline}", file=sys.stderr)
    return outcome.exit_code


def analyse(settings: CheckSettings) -> Outcome:
    """Everything but writing the outputs (tests and ``run`` share it)."""
    return pipeline.check(settings.request(), settings.job())


def resolve_format(name: str, environment: Mapping[str, str], *, terminal: bool = False) -> str:
    """``auto``: ``github`` under GitHub Actions; ``full`` (source lines) when a person reads a terminal;
    else ``concise``, one finding per line, for whatever parses it (pre-commit, CI logs, pipes)."""
    if name == report.AUTO:
        if environment.get(GITHUB_ACTIONS) == "true":
            return "github"
        machine = any(environment.get(variable) for variable in MACHINE_RUNNERS)
        return "full" if terminal and not machine else "concise"
    return name


# Set by pre-commit and by CI services: their logs are read by tools as much as by people.
MACHINE_RUNNERS = ("PRE_COMMIT", "CI")


def _format(requested: str, environment: Mapping[str, str], *, terminal: bool = False) -> str:
    name = resolve_format(requested, environment, terminal=terminal)
    if name not in report.FORMATS:
        raise UsageError(f"unknown format {requested!r}; known: {', '.join([report.AUTO, *sorted(report.FORMATS)])}")
    return name


def write_outputs(
    result: report.Report,
    outputs: tuple[tuple[str, str | None], ...],
    environment: Mapping[str, str],
    *,
    terminal: bool = False,
    statistics: bool = False,
) -> None:
    report.refuse_replacing_manifests(
        [path for _, path in outputs if path is not None], {o.file for o in result.objects}
    )
    with ExitStack() as stack:
        for requested, path in outputs:
            name = _format(requested, environment, terminal=terminal and path is None)
            stream: TextIO
            if path is None:
                stream = sys.stdout
                if isinstance(stream, io.TextIOWrapper) and (stream.encoding or "").lower().replace("-", "") != "utf8":
                    # A non-UTF-8 terminal must not turn a non-ASCII file name into a crash.
                    stream.reconfigure(errors="backslashreplace")
                rendered = result
            else:
                stream = report.open_output(stack, path)
                rendered = replace(result, color=False)
            report.renderer(name, statistics=statistics)(rendered, stream)
            if name == "github":
                _write_job_summary(result, environment)


STEP_SUMMARY = "GITHUB_STEP_SUMMARY"


def _write_job_summary(result: report.Report, environment: Mapping[str, str]) -> None:
    """Append the job summary to ``$GITHUB_STEP_SUMMARY`` (GitHub Actions shows it on the run's page)."""
    path = environment.get(STEP_SUMMARY)
    if not path:
        return
    from dralint.report.github import summary_markdown

    try:
        with open(path, "a", encoding="utf-8", newline="\n") as summary:
            summary.write(summary_markdown(result))
    except OSError as error:
        raise UsageError(f"cannot write the job summary {path} (${STEP_SUMMARY}): {error.strerror or error}") from None
