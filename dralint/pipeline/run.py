"""The pipeline's owner: one configuration path and one order of stages for every command.

Every command (``check``, ``simulate``, ``allocate``, ``inventory expand``, ``rules``) starts
with :func:`configure`, which merges the command-line flags, the ``DRALINT_*`` environment and
the configuration file (``.dralint.yaml`` or ``[tool.dralint]``) into a :class:`Plan`: the
target cluster, the limits, the rule catalogue and selection, the files to read and which of
them are only context. No command builds its own defaults, so ``simulate`` and ``check`` read
the same limits, ``exclude`` and ``context``.

The stages, in order (each is a function here, or a call into the folder that owns it)::

    configure ─► read (read/) ─► validate + checks (checks/, validate/) ─► [admission] ─►
    cluster model (cluster/) ─► analysis (dryrun/, diagnose/) ─► findings (engine) ─► report (report/)

**The admission seam.** The inventory (:attr:`CheckContext.inventory`), the dry-run and every
check that reads them see the objects :mod:`dralint.admission` returns (``ctx.admission``):
what the API server would store for the target release and gates, one per identity, without
the objects it would reject.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import field, replace
from typing import TYPE_CHECKING, Literal

from dralint.api.versions import DEFAULT_RELEASE, Target, make_target, normalise_release, parse_feature_gates
from dralint.config import ConfigFile, discover, globs
from dralint.config import load as load_config
from dralint.config.resolve import CONFIG_ENV, Effective, Layer, Ref, from_environment, from_file, merge, named_by
from dralint.dataclass import dataclass
from dralint.errors import ConfigError, DralintError, InputError
from dralint.findings import Finding, Suppression, exit_code
from dralint.limits import Limits, from_config
from dralint.pipeline.context import CheckContext, Options
from dralint.profiles.load import Profiles
from dralint.profiles.load import load as load_profiles
from dralint.read import sources
from dralint.read.helm_template import HelmChart, RenderFailure
from dralint.read.ignorefiles import repository_root
from dralint.read.issues import IssueKind
from dralint.read.load import Input, inputs
from dralint.read.workspace import Workspace
from dralint.report import Report
from dralint.report.assemble import Presentation, check_report

if TYPE_CHECKING:
    from dralint.dryrun.analysis import Analysis
    from dralint.dryrun.placement import Strategy
    from dralint.pipeline import engine
    from dralint.pipeline.cache import Cache
    from dralint.pipeline.parallel import Checked, Stored
    from dralint.rules import Rule
    from dralint.suppress.exceptions import ConfigException

FailOn = Literal["error", "warning", "info", "never"]
FAIL_ON: tuple[FailOn, ...] = ("error", "warning", "info", "never")


@dataclass(frozen=True, slots=True)
class Request:
    """What a command was asked, before any configuration is read."""

    flags: Layer = field(default_factory=Layer)  # settings given on the command line
    config: str | None = None  # --config FILE
    no_config: bool = False  # --no-config: ignore configuration files (and DRALINT_CONFIG)
    environment: Mapping[str, str] | None = None  # None: os.environ


def with_shortcuts(
    flags: Layer,
    *,
    release: str | None = None,
    feature_gates: Mapping[str, bool] | None = None,
    inventory: tuple[str, ...] = (),
    fail_on: FailOn | None = None,
) -> Layer:
    """``flags`` with the settings programmatic callers (tests, benchmarks) give as plain values, as the flags would."""
    if release is not None:
        flags = replace(flags, release=Ref(release, "--kubernetes-version"))
    if feature_gates is not None:
        flags = replace(flags, feature_gates=dict(feature_gates))
    if inventory:
        named = {**(flags.named or {}), **named_by(None, inventory=inventory)}
        flags = replace(flags, inventory=inventory, named=named)
    if fail_on is not None:
        flags = replace(flags, fail_on=Ref(fail_on, "--fail-on"))
    return flags


@dataclass(frozen=True, slots=True)
class Plan:
    """The effective configuration of one run, turned into what the stages take."""

    effective: Effective
    target: Target
    limits: Limits
    fail_on: FailOn
    profiles: Profiles  # the shipped driver profiles and the user's

    @property
    def root(self) -> str:
        """The directory globs and relative configuration paths are relative to."""
        return self.effective.root

    def inputs(
        self,
        paths: Sequence[str],
        *,
        changed: str | None = None,
        ignore_files: bool = True,
        repository_context: bool = False,
        rendered: Sequence[str] = (),
    ) -> list[Input]:
        """The files to read: ``paths`` (reported on) then inventory and context (read only), minus ``exclude``.

        No ``paths`` is the current directory (the command line reads piped standard input
        instead: :func:`dralint.read.sources.stdin_is_piped`; the language server's own standard
        input is its protocol).
        ``changed`` (``--changed [REF]``; ``""``: the default base) checks the files changed since
        REF among ``paths`` (none: the repository).
        With ``changed`` or ``repository_context`` (pre-commit passes only the files of the
        commit) the repository's other manifests are context unless ``context`` is configured: a
        Deployment whose template, classes or neighbours live in other files is checked against
        them. When nothing is left to check, nothing is read: the inventory is never checked instead.
        With a context, every file is read in path order, so that the dry-run places the pods of the
        checked files among the others as a run on all of them would.
        ``rendered`` names inputs rendered before reading (``--helm-chart``): checked first, and
        with them no ``paths`` is no path.
        """
        repository: str | None = None
        defaulted = False  # no path given: the current directory
        if changed is not None:
            from dralint.read.changed import changed as changed_since
            from dralint.read.kustomize import with_renderers

            found = changed_since(changed or None)
            repository = found.root
            # A changed base, patch or generator file is checked through the kustomization that builds it.
            paths = with_renderers(found.manifests(paths), found.files, paths or (os.path.relpath(found.root),))
        else:
            defaulted = not paths and not rendered
            paths = paths or (() if rendered else (".",))
            if repository_context:
                repository = repository_root(os.getcwd())
        try:
            checked = self.files(paths, ignore_files=ignore_files) if paths else []
        except InputError as error:
            if not defaulted:
                raise
            raise InputError(f"{error} (no path was given: to check standard input, pipe it in or pass -)") from None
        if not checked and not rendered:
            return []
        require(self.effective, "inventory", self.effective.inventory)
        context = self.effective.context
        if context is None:
            context = (os.path.relpath(repository),) if repository is not None else ()
        else:
            require(self.effective, "context", context)
        read_only = self.files(self.effective.inventory + context, ignore_files=ignore_files)
        return [(name, True) for name in rendered] + inputs(checked, read_only, path_order=bool(context))

    def files(self, paths: Sequence[str], *, ignore_files: bool = True) -> list[str]:
        """The files under ``paths`` minus the excluded ones (named files too, so that hooks honour ``exclude``)."""
        from dralint.read.kustomize import unclaimed

        found = sources.discover(paths, ignore_files=ignore_files, walked_filter=unclaimed)
        if not self.effective.exclude:
            return found
        return [f for f in found if not self.excluded(f)]

    def excluded(self, path: str) -> bool:
        """Whether the configuration's ``exclude`` leaves ``path`` out (standard input never is)."""
        exclude = self.effective.exclude
        if not exclude or path == sources.STDIN:
            return False
        return globs.matches_any(exclude, globs.relative_to(path, self.root))

    def options(
        self, *, simulate: bool = True, rule_options: Mapping[str, Mapping[str, object]] | None = None
    ) -> Options:
        """The analysis options of this run (the dry-run's search budgets come from the limits)."""
        from dralint.api.producers import table

        producers = table(self.effective.producers)
        return Options(
            simulate=simulate,
            extra=dict(rule_options or {}),
            limits=self.limits,
            producers=producers,
            profiles=self.profiles,
        )


@dataclass(frozen=True, slots=True)
class Checking:
    """What a run of the checks needs besides the input: the plan, the rule catalogue and selection, the exceptions."""

    plan: Plan
    rules: Mapping[str, Rule]
    selection: engine.Selection
    exceptions: Sequence[ConfigException] = ()


def checking(request: Request) -> Checking:
    """Configure a run of the checks (``check`` and the language server): configuration, then the catalogue
    and the selection, then the exceptions, then the plan (the order in which their errors are reported)."""
    from dralint.config.select import selection
    from dralint.rules import catalogue
    from dralint.suppress.exceptions import build as build_exceptions

    effective = configuration(request)
    require(effective, "rule_paths", effective.rule_paths)
    rules = catalogue(effective.rule_paths)  # catalogue errors before target errors: the order users see them
    chosen = selection(rules, effective)
    exceptions = build_exceptions(effective.exceptions, rules)
    return Checking(plan(effective), rules, chosen, exceptions)


def configure(request: Request) -> Plan:
    """Merge flags, environment and configuration file, and check what they say about target, limits and fail-on."""
    return plan(configuration(request))


def plan(effective: Effective) -> Plan:
    """The plan of an effective configuration (``check`` loads its catalogue in between: the order of errors)."""
    limits = from_config(effective.limits)
    require(effective, "profile_paths", effective.profile_paths)
    profiles = load_profiles(effective.profile_paths, max_bytes=limits.max_file_bytes, pins=effective.driver_versions)
    return Plan(effective, target(effective), limits, fail_on(effective), profiles)


def configuration(request: Request) -> Effective:
    """Flags, then environment, then the configuration file (found, or named by --config/DRALINT_CONFIG)."""
    environment = os.environ if request.environment is None else request.environment
    config_file: ConfigFile | None = None
    if not request.no_config:
        path = request.config or environment.get(CONFIG_ENV) or discover()
        if path is not None and not os.path.lexists(path):  # named by --config or DRALINT_CONFIG
            raise ConfigError(f"{'--config' if request.config else CONFIG_ENV}: {path}: no such file")
        if path is not None:
            config_file = load_config(path)
    layers = [request.flags, from_environment(environment)]
    if config_file is None:
        return merge(*layers, root=".", config=None)
    return merge(*layers, from_file(config_file), root=config_file.root, config=config_file.name)


def require(effective: Effective, setting: str, paths: Sequence[str]) -> None:
    """An input error for the first of ``paths`` (of ``setting``) that is not there, saying who named it:
    ``--inventory: nothere/``, ``DRALINT_INVENTORY: gone.yaml``, ``.dralint.yaml:1:13: inventory: cluster/``."""
    for path in paths:
        if not os.path.lexists(path):
            raise InputError(f"{effective.naming(setting, path)}: no such file or directory")


def _at(ref: Ref, error: DralintError) -> ConfigError:
    return ConfigError(f"{ref.origin}: {error}")


def target(effective: Effective) -> Target:
    """The target cluster: release and feature gates, with the place a bad value was written."""
    release = DEFAULT_RELEASE
    if effective.release is not None:
        try:
            release = normalise_release(effective.release.text)
        except DralintError as error:
            raise _at(effective.release, error) from None
    gates = effective.feature_gates
    if isinstance(gates, Ref):
        try:
            parsed = parse_feature_gates(gates.text)
            return make_target(release, parsed)
        except DralintError as error:
            raise _at(gates, error) from None
    try:
        return make_target(release, gates)
    except DralintError as error:
        where = f"{effective.config}: featureGates" if effective.config else "featureGates"
        raise ConfigError(f"{where}: {error}") from None


def fail_on(effective: Effective) -> FailOn:
    if effective.fail_on is None:
        return "error"
    for level in FAIL_ON:
        if effective.fail_on.text == level:
            return level
    raise ConfigError(f"{effective.fail_on.origin}: fail-on must be one of {', '.join(FAIL_ON)}")


# --- the stages -------------------------------------------------------------------------------


@contextmanager
def read_and_check(
    plan: Plan,
    files: Sequence[Input],
    *,
    options: Options,
    rules: Mapping[str, Rule],
    selection: engine.Selection,
    jobs: int,
    stdin_name: str = sources.STDIN,
    freeze: bool = False,
    stored: Stored | None = None,
    rendered: Mapping[str, str | RenderFailure] | None = None,
) -> Iterator[tuple[CheckContext, engine.Found]]:
    """Read ``files`` and run the checks that look at one object at a time (in ``jobs`` processes when that pays).

    ``rendered`` holds the text of the inputs rendered before reading (``--helm-chart``).

    Yields the context (the checks that read the cluster model see admitted objects through
    ``ctx.admission``, built on first use) and those findings; positions are looked up in the
    worker processes while the ``with`` block lasts.
    ``freeze`` (only entry points ask for it): see :func:`dralint.process.freeze_loaded`.
    ``stored``: what the results cache holds for each file (:class:`FileEntries`).
    """
    from dralint.pipeline import parallel

    with parallel.check(
        files,
        jobs=jobs,
        target=plan.target,
        options=options,
        rules=rules,
        selection=selection,
        limits=plan.limits,
        stdin_name=stdin_name,
        freeze=freeze,
        stored=stored,
        rendered=rendered,
    ) as (ctx, found):
        yield ctx, found


def read(
    plan: Plan, files: Sequence[Input], *, options: Options, stdin_name: str = sources.STDIN, freeze: bool = False
) -> CheckContext:
    """Read ``files`` in this process, without running any check (``simulate``, ``inventory expand``)."""
    from dralint.read.load import load_files, settled

    workspace = settled(load_files(files, stdin_name=stdin_name, limits=plan.limits, freeze=freeze))
    refuse_unreadable_inventory(plan, workspace)
    return CheckContext(workspace, plan.target, options)


# What keeps a file's content from being read: its documents are lost (a duplicate key is not).
_UNREADABLE: frozenset[IssueKind] = frozenset({"syntax", "encoding", "template", "too-large", "too-deep", "unreadable"})


def refuse_unreadable_inventory(plan: Plan, workspace: Workspace) -> None:
    """An input error for the first inventory file (``--inventory``, ``inventory:``) that cannot be read.

    The inventory is read only, so nothing is reported on its objects; but without its devices
    the dry-run would still run, and every claim would look unsatisfiable for the wrong reason.
    A file that is also checked has its defects reported as findings instead.
    """
    unread = [(f, i) for f, i in workspace.issues if i.kind in _UNREADABLE and f not in workspace.checked_files]
    if not unread or not plan.effective.inventory:
        return
    # Which of those files are the inventory's, not context: discovered again, only in this case.
    named = {os.path.abspath(path) for path in plan.files(plan.effective.inventory)}
    for file, issue in unread:
        if os.path.abspath(file) in named:
            raise InputError(f"{file}:{issue.line}:{issue.column}: the inventory cannot be read: {issue.message}")


def dry_run(ctx: CheckContext, *, strategy: Strategy = "pack") -> Analysis:
    """The cluster model and the dry-run of every pod against it."""
    return ctx.dry_run(strategy)


@dataclass(frozen=True, slots=True)
class CheckJob:
    """What ``check`` was asked to do beyond the configuration: which files, and what to do with the findings."""

    paths: tuple[str, ...] = ()  # nothing: the current directory
    changed: str | None = None  # --changed [REF] ("" = the default base)
    ignore_files: bool = True
    repository_context: bool = False  # pre-commit passes only a commit's files: the repository is context
    simulate: bool = True
    jobs: int | None = None  # worker processes; None: one per core
    stdin_name: str = sources.STDIN
    freeze: bool = False
    write_baseline: str | None = None  # record the findings there instead of reporting them
    today: datetime.date | None = None  # for expiry dates; None: today
    presentation: Presentation = field(default_factory=Presentation)
    cache: bool = False  # use the results cache of the repository (see dralint.pipeline.cache)
    helm_charts: tuple[HelmChart, ...] = ()  # --helm-chart: rendered with helm template and checked


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    report: Report
    exit_code: int
    baseline_written: int | None = None  # findings written to ``CheckJob.write_baseline``


def check(request: Request, job: CheckJob) -> CheckOutcome:
    """Every stage of ``check``: configure, read, check, model, analyse, suppress, and assemble the report."""
    configured = checking(request)
    run_plan, rules, chosen, exceptions = configured.plan, configured.rules, configured.selection, configured.exceptions
    effective = run_plan.effective
    rendered = _rendered_charts(job.helm_charts, run_plan.limits)
    files = run_plan.inputs(
        job.paths,
        changed=job.changed,
        ignore_files=job.ignore_files,
        repository_context=job.repository_context,
        rendered=tuple(rendered),
    )
    cached = _open_cache(run_plan, job, files) if job.cache and job.write_baseline is None else None
    if cached is not None:
        hit = cached.run()
        if hit is not None:
            report = _presented(hit, job.presentation, {r: rules[r] for r in sorted(chosen.enabled)})
            return CheckOutcome(report, exit_code(report.findings, run_plan.fail_on))
    # (imported after the cache is asked: a run it answers needs none of the checks)
    from dralint.pipeline import engine, parallel
    from dralint.suppress import Suppressor

    baseline = None
    if effective.baseline is not None and job.write_baseline is None:
        from dralint.suppress import baseline as baselines  # (here and below) only with a baseline: 3 ms to import

        require(effective, "baseline", (effective.baseline,))
        baseline = baselines.read(effective.baseline, max_bytes=run_plan.limits.max_file_bytes)
    with read_and_check(
        run_plan,
        files,
        options=run_plan.options(simulate=job.simulate, rule_options=chosen.options),
        rules=rules,
        selection=chosen,
        jobs=job.jobs if job.jobs is not None else parallel.default_jobs(),
        stdin_name=job.stdin_name,
        freeze=job.freeze,
        stored=cached,
        rendered=rendered,
    ) as (ctx, found):
        refuse_unreadable_inventory(run_plan, ctx.workspace)
        suppressor = Suppressor(
            ctx, rules, exceptions=exceptions, baseline=baseline, root=effective.root, today=job.today
        )
        found += engine.collect(ctx, rules, chosen, "global")
        findings = engine.finish(ctx, rules, chosen, found, suppressor)
        written = None
        if job.write_baseline is not None:
            from dralint.suppress import baseline as baselines

            written = baselines.write(job.write_baseline, [f for f in findings if f.suppressed is None])
            findings = _baselined(findings, job.write_baseline)
        report = check_report(
            ctx.workspace, findings, rules, chosen.enabled, run_plan.target, run_plan.fail_on, job.presentation
        )
    if cached is not None:
        cached.keep_run(_presented(report, Presentation(), {}))
    return CheckOutcome(report, exit_code(findings, run_plan.fail_on), written)


def _presented(report: Report, presentation: Presentation, rules: Mapping[str, Rule]) -> Report:
    """``report`` with the fields that only say how it is shown, and the rules it names (the catalogue's
    objects): what the results cache does not keep."""
    return replace(
        report,
        rules=rules,
        color=presentation.color,
        show_suppressed=presentation.show_suppressed,
        quiet=presentation.quiet,
    )


def _open_cache(plan: Plan, job: CheckJob, files: Sequence[Input]) -> FileEntries | None:
    """The results cache for this run, or ``None``: outside a git repository, with standard input,
    a kustomization or a Helm chart among the inputs (what they give depends on other files than
    the one named), or when the cache cannot be used."""
    from dralint.pipeline import cache
    from dralint.read import kustomize

    if job.helm_charts or any(path == sources.STDIN or kustomize.is_kustomization(path) for path, _ in files):
        return None
    effective = plan.effective
    settings = (effective, job.simulate, job.stdin_name, os.getcwd(), str(job.today or datetime.date.today()))
    named = [*effective.rule_paths, *effective.profile_paths, *([effective.baseline] if effective.baseline else [])]
    opened = cache.open_cache(repository_root(os.getcwd()), settings, named)
    if opened is None:
        return None
    digests = [cache.input_digest(path, plan.limits.max_file_bytes) for path, _ in files]
    return FileEntries(opened, [(path, checked, d) for (path, checked), d in zip(files, digests, strict=True)])


class FileEntries:
    """The results cache for the inputs of one run: each file's entry by its position, and the run's."""

    def __init__(self, opened: Cache, inputs: list[tuple[str, bool, str]]) -> None:
        self.cache = opened
        self.inputs = inputs

    def load(self, number: int) -> Checked | None:
        from dralint.pipeline.parallel import Checked

        path, checked, digest = self.inputs[number]
        found = self.cache.load_file(path, checked, digest)
        return found if isinstance(found, Checked) else None

    def store(self, number: int, checked: Checked) -> None:
        path, is_checked, digest = self.inputs[number]
        self.cache.store_file(path, is_checked, digest, checked)

    def run(self) -> Report | None:
        found = self.cache.load_run(self.inputs)
        return found if isinstance(found, Report) else None

    def keep_run(self, report: Report) -> None:
        self.cache.store_run(self.inputs, report)


def _rendered_charts(charts: Sequence[HelmChart], limits: Limits) -> dict[str, str | RenderFailure]:
    """``helm template``'s output for each chart (or why it failed: a finding), by the name it has among the inputs."""
    if not charts:
        return {}
    from dralint.read import helm_template

    return {chart.name: helm_template.render(chart, max_bytes=limits.max_file_bytes) for chart in charts}


def _baselined(findings: list[Finding], path: str) -> list[Finding]:
    """``findings`` as the run that just wrote them to the baseline ``path`` reports them: suppressed by it."""
    mark = Suppression("baseline", f"recorded in the baseline {path}")
    return [f if f.suppressed is not None else replace(f, suppressed=mark) for f in findings]
