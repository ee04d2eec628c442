"""What every check reads: the loaded input, the target cluster, and indexes built once on demand.

Built by the pipeline (:mod:`dralint.pipeline.run`) after loading; checks receive it and never mutate it. Costly
shared analyses (normalisation, the cluster model, the dry-run) are cached properties so that
several checks can use them while they are computed at most once. Their modules are imported in
the properties: the stages below import this module, and a run that needs no dry-run never
loads the simulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from dralint.api.producers import DEFAULT as DEFAULT_PRODUCERS
from dralint.api.producers import Producers
from dralint.dataclass import dataclass
from dralint.limits import Limits
from dralint.profiles.load import Profiles
from dralint.read.sourcemap import written_at
from dralint.read.workspace import Workspace

if TYPE_CHECKING:
    # Imported where used: a run that needs no normalised objects (a file without DRA objects,
    # ``dralint rules``) should not pay for the typed model.
    from dralint.admission import Admission
    from dralint.admission.validation import Validated, Validator
    from dralint.api.normalise import Normalised
    from dralint.api.objects import KubeObject
    from dralint.api.producers import Created
    from dralint.api.versions import Target
    from dralint.api.workloads import PodTemplate
    from dralint.apimachinery.fieldpath import Path
    from dralint.cluster.inventory import DocumentReadings, Inventory, SkippedPool
    from dralint.diagnose.profile_selectors import Readings
    from dralint.diagnose.selector_errors import SelectorErrors
    from dralint.dryrun.analysis import Analysis
    from dralint.dryrun.contention import Contention
    from dralint.dryrun.placement import Strategy
    from dralint.findings import Location
    from dralint.plan.planner import Plan
    from dralint.profiles.releases import Releases
    from dralint.validate.apiserver.errors import FieldError
    from dralint.validate.schema import SchemaError


@dataclass(frozen=True, slots=True)
class Options:
    """Analysis options that change what checks do (not how findings are reported)."""

    simulate: bool = True
    namespaces: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # extra namespace labels
    # rule id -> option -> value, defaults filled in (``config.select.rule_options``)
    extra: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)  # the dry-run reads its search budgets here
    producers: Producers = DEFAULT_PRODUCERS  # kinds that make pods and claims (built-in and configured)
    profiles: Profiles = field(default_factory=Profiles)  # driver profiles (shipped and configured)

    def option(self, rule: str, name: str) -> Any:
        """The value of a rule's option (as configured, else its default from the catalogue)."""
        return self.extra[rule][name]


class CheckContext:
    """Read-only view of the input for checks, with lazily built indexes."""

    def __init__(
        self,
        workspace: Workspace,
        target: Target,
        options: Options | None = None,
    ) -> None:
        self.workspace = workspace
        self.target = target
        self.options = options or Options()

    @property
    def objects(self) -> list[KubeObject]:
        return self.workspace.objects

    @property
    def checked_files(self) -> frozenset[str]:
        """The files findings are reported for (the others are context)."""
        return self.workspace.checked_files

    def written_at(self, obj: KubeObject, path: Path) -> Location:
        """Where the user reads ``path`` (in the user's shape) of ``obj``: for an object of a rendered stream, in the
        file it was rendered from, as its findings are (what a message quoting the position names)."""
        return written_at(self.workspace.source_maps, obj.document, obj.prefix + path)

    @cached_property
    def normalised(self) -> dict[KubeObject, Normalised]:
        """Every current DRA object, defaulted and converted to v1, in input order."""
        from dralint.api.normalise import normalise

        out: dict[KubeObject, Normalised] = {}
        for obj in self.workspace.objects:
            result = normalise(obj)
            if result is not None:
                out[obj] = result
        return out

    @cached_property
    def pod_templates(self) -> list[PodTemplate]:
        """Every pod template of every workload, in input order."""
        from dralint.api.workloads import pod_templates

        producers = self.options.producers
        return [template for obj in self.workspace.objects for template in pod_templates(obj, producers)]

    @cached_property
    def produced(self) -> Created:
        """ResourceClaimTemplates and ResourceClaims that objects of the inputs create (an operator's CRs)."""
        from dralint.api.producers import created

        return created(self.workspace.objects, self.options.producers)

    @cached_property
    def inventory(self) -> Inventory:
        """The cluster inventory: inventory kinds among all loaded objects, compact Inventories expanded."""
        from dralint.cluster import inventory

        if not any(inventory.has_device_source(obj) for obj in self.workspace.objects):
            # Nothing to dry-run against: admission would change nothing the checks read.
            return inventory.build(self.workspace.objects, self.normalised, readings=self._document_readings)
        admission = self.admission
        return inventory.build(
            admission.objects, admission.stored, self.rejected_pools, readings=self._document_readings
        )

    @cached_property
    def written_inventory(self) -> Inventory:
        """The inventory as written (one definition per object), rejected slices included: the inventory
        defects (DRA70x) are the slices' own findings, reported whether or not the API server stores them."""
        from dralint.cluster import inventory

        objects = self.workspace.objects
        if any(inventory.has_device_source(obj) for obj in objects):
            replaced = self.admission.replaced  # a definition applied again later is one object, not two
            objects = [obj for obj in objects if obj not in replaced]
        return inventory.build(objects, self.normalised, readings=self._document_readings)

    @cached_property
    def _document_readings(self) -> DocumentReadings:
        """The validation and expansion of compact Inventory documents, shared by :attr:`inventory` and
        :attr:`written_inventory`."""
        return {}

    @cached_property
    def rejected_pools(self) -> dict[tuple[str, str], SkippedPool]:
        """(driver, pool) -> why: the pools of which the API server rejects a slice."""
        from dralint.api import read
        from dralint.cluster.inventory import SkippedPool

        out: dict[tuple[str, str], SkippedPool] = {}
        for obj, rejection in self.admission.rejected.items():
            normalised = self.normalised.get(obj)
            if obj.kind != "ResourceSlice" or normalised is None:
                continue
            spec = read.mapping_or_empty(normalised.data, "spec")
            driver, pool = read.text(spec, "driver"), read.text(read.mapping_or_empty(spec, "pool"), "name")
            if driver and pool:
                reason = f"pool {driver}/{pool} is skipped: {rejection.sentence()}"
                out.setdefault((driver, pool), SkippedPool(reason, read.text(spec, "nodeName") or None))
        return out

    @cached_property
    def selector_errors(self) -> SelectorErrors:
        """CEL runtime errors of the selectors on the inventory's devices (DRA420), and where the
        evaluation stopped at ``limits.maxSelectorEvaluations`` (DRA008)."""
        from dralint.api.requests import claim_specs
        from dralint.diagnose import selector_errors

        inventory = self.inventory
        classes = [(entry.device_class, entry.origin.obj) for entry in inventory.classes.values()]
        claims = claim_specs(self.admission.stored.values())
        slices = [entry.slice for entry in inventory.slices]
        return selector_errors.find(classes, claims, slices, budget=self.options.limits.max_selector_evaluations)

    @cached_property
    def profile_readings(self) -> Readings:
        """The selectors read against the driver profiles, except for drivers the inventory has devices of."""
        from dralint.cel.dra import selector_environment
        from dralint.cluster.inventory import has_device_source
        from dralint.diagnose.profile_selectors import Readings

        skip: frozenset[str] = frozenset()
        if any(has_device_source(obj) for obj in self.workspace.objects):
            inventory = self.inventory
            skip = frozenset({e.slice.driver for e in inventory.slices} | {d for d, _ in inventory.skipped_pools})
        return Readings(selector_environment(target=self.target), self.options.profiles, skip)

    @cached_property
    def driver_releases(self) -> Releases:
        """What is known of the release each profiled driver runs: pinned in the configuration, or read
        from the devices of the inventory's ResourceSlices (not of compact Inventory documents, which
        describe the user's cluster, not what a driver publishes)."""
        from dralint.api import model
        from dralint.cluster.inventory import has_device_source
        from dralint.profiles.releases import Releases

        pools: dict[str, dict[str, list[model.Device]]] = {}
        if any(has_device_source(obj) for obj in self.workspace.objects):
            for entry in self.inventory.slices:
                if not entry.generated:
                    of_driver = pools.setdefault(entry.slice.driver, {})
                    of_driver.setdefault(entry.slice.pool.name, []).extend(entry.slice.devices)
        return Releases(self.options.profiles, pools)

    @cached_property
    def analysis(self) -> Analysis:
        """The cluster dry-run every simulation check reads (run at most once)."""
        return self.dry_run()

    @cached_property
    def contention(self) -> Contention:
        """The pods of the dry-run competing for devices: DRA501's arithmetic, the orders tried, what a finding
        involves (worked out at most once per question)."""
        from dralint.dryrun.contention import Contention

        return Contention(self.analysis)

    @cached_property
    def plan(self) -> Plan:
        """The scale-up the autoscaler would make for the dry-run (no scale-down): what checks tell
        about pods that more nodes of a node pool would place (run at most once)."""
        from dralint.plan import planner

        return planner.plan(self.analysis, scale_down=False)

    def dry_run(self, strategy: Strategy = "pack") -> Analysis:
        """The dry-run of every pod of the admitted objects against the inventory, placing pods by ``strategy``."""
        from dralint.api.quota import resource_quotas
        from dralint.cluster.groups import grouping
        from dralint.cluster.namespaces import namespace_labels
        from dralint.dryrun import analysis

        admission = self.admission
        refused = {obj: rejection.sentence() for obj, rejection in admission.rejected.items()}
        rejected = {
            (kind, namespace, name): rejection.sentence()
            for (_, kind, namespace, name), rejection in admission.rejected_names.items()
            if kind in ("ResourceClaim", "ResourceClaimTemplate")
        }
        return analysis.analyse(
            self.target,
            self.inventory,
            admission.stored,
            admission.templates,
            limits=self.options.limits,
            strategy=strategy,
            namespaces=namespace_labels(admission.objects, self.options.namespaces),
            rejected=rejected,
            produced=self.produced,
            rejected_workloads=refused,
            quotas=resource_quotas(admission.objects),
            grouping=grouping(admission.objects, self.target),
            written_at=self.written_at,
        )

    @cached_property
    def validator(self) -> Validator:
        from dralint.admission.validation import Validator

        return Validator(self.target)

    @cached_property
    def validated(self) -> dict[KubeObject, Validated]:
        """Every DRA object the target serves: as the API server stores it, and its validation errors."""
        from dralint.api.versions import SERVED

        release = self.target.release
        validate = self.validator.validate
        return {
            obj: validate(normalised)
            for obj, normalised in self.normalised.items()
            if release in SERVED.get((obj.kind, obj.version), ())
        }

    @cached_property
    def pod_spec_errors(self) -> dict[KubeObject, list[FieldError]]:
        """The validation errors of the pod specs' claims, per workload (only workloads with errors)."""
        return self.validator.pod_errors(self.pod_templates)

    @cached_property
    def admission(self) -> Admission:
        """What the API server would store of the inputs, and what it would reject (read by the cluster model)."""
        from dralint import admission

        return admission.admit(self)

    @cached_property
    def schema_errors(self) -> dict[KubeObject, list[SchemaError]]:
        """Strict-schema errors of every DRA object and every workload whose pods reference claims.

        Only objects with errors are keys. Objects with unknown fields, wrong types or
        undecodable values are rejected by kube-apiserver before semantic validation.
        """
        from dralint.validate.schema import validate

        release = self.target.release
        claiming = {
            t.owner for t in self.pod_templates if t.spec.resource_claims or any(c.claims for c in t.spec.containers)
        }
        out: dict[KubeObject, list[SchemaError]] = {}
        for obj in self.workspace.objects:
            if obj.is_dra or obj in claiming:
                errors = validate(release, obj.api_version, obj.kind, obj.raw, written=obj.plain_scalar)
                if errors:
                    out[obj] = errors
        return out

    def of_kind(self, kind: str) -> list[Normalised]:
        return [n for n in self.normalised.values() if n.obj.kind == kind]
