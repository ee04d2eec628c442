"""References between objects that the API server does not check (spec/api.md §5.2, §6 item 18).

A claim's ``deviceClassName`` must name a DeviceClass, a pod's claims must name a
ResourceClaim or ResourceClaimTemplate in the pod's namespace, and a container's
``claims[].request`` must name a request of that claim. Manifests often rely on objects
installed elsewhere (a driver's Helm chart creates its DeviceClasses; operators create
templates: those the producer table knows, such as NVIDIA's ComputeDomain's, count as
defined), so a reference to something absent from the inputs is only a finding with an error
or warning severity when the inputs say it is probably a mistake: a near-miss name, the same
name in another namespace, or an inventory that lists the cluster's classes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field

from dralint.api.normalise import Normalised
from dralint.api.producers import Created
from dralint.api.requests import claim_specs, written_requests
from dralint.api.workloads import PodTemplate
from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.dataclass import dataclass
from dralint.findings import Replacement, Violation
from dralint.pipeline.context import CheckContext
from dralint.suggest import closest, likely_typo, similar

UNKNOWN_CLASS = RuleId.UNKNOWN_DEVICE_CLASS
UNKNOWN_CLAIM = RuleId.UNKNOWN_RESOURCE_CLAIM
UNKNOWN_TEMPLATE = RuleId.UNKNOWN_RESOURCE_CLAIM_TEMPLATE
UNKNOWN_CONTAINER_REQUEST = RuleId.UNKNOWN_CONTAINER_REQUEST
UNVERIFIED = RuleId.UNVERIFIED_REFERENCE

_TYPO_LABEL = 5  # shorter labels name families of devices (cpu, gpu, tpu, nic), not slips of each other
_KIND_RULE = {"ResourceClaim": UNKNOWN_CLAIM, "ResourceClaimTemplate": UNKNOWN_TEMPLATE}


@dataclass(slots=True)
class Index:
    """Names of the DeviceClasses, claims and templates the inputs define."""

    classes: set[str] = field(default_factory=set)
    # kind -> namespace -> name -> normalised object
    namespaced: dict[str, dict[str, dict[str, Normalised]]] = field(default_factory=dict)
    inventory_given: bool = False
    produced: Created = field(default_factory=dict)  # created by the controllers of other input objects
    drivers: tuple[str, ...] = ()  # the drivers dralint has a profile of: their classes are usually named after them
    # Suggestions for unknown class names, once per name (many claims name the same class).
    _typos: dict[str, str | None] = field(default_factory=dict)
    _hints: dict[str, str | None] = field(default_factory=dict)

    def typo_of(self, name: str) -> str | None:
        """The class an unknown class name is almost certainly a misspelling of."""
        if name not in self._typos:
            self._typos[name] = likely_typo(name, self.classes)
        return self._typos[name]

    def suggestion_for(self, name: str) -> str | None:
        """The class an unknown class name most likely means (for a did-you-mean): a few edits away, not
        merely alike (``gpu.nvidia.com`` is not a misspelling of ``gpu.example.com``)."""
        if name not in self._hints:
            self._hints[name] = closest(name, self.classes)
        return self._hints[name]

    def driver_typo_of(self, name: str) -> str | None:
        """The profiled driver an unknown class name is almost certainly a misspelling of (no class is known):
        a slip in one of its longer labels (``gpu.exmaple.com``). Other names are names of their own: the
        example driver's ``cpu.example.com`` beside ``gpu.example.com`` (a short label is a family of
        devices), DraNet's class ``dranet`` for its driver ``dra.net`` (another shape)."""
        labels = name.split(".")

        def one_slip_apart(driver: str) -> bool:
            theirs = driver.split(".")
            if len(theirs) != len(labels):
                return False
            differ = [(mine, its) for mine, its in zip(labels, theirs, strict=True) if mine != its]
            if len(differ) != 1:
                return False
            mine, its = differ[0]
            return min(len(mine), len(its)) >= _TYPO_LABEL and likely_typo(mine, [its]) == its

        return next((driver for driver in sorted(self.drivers) if one_slip_apart(driver)), None)


def build_index(ctx: CheckContext) -> Index:
    index = Index()
    for normalised in ctx.normalised.values():
        obj = normalised.obj
        if obj.kind == "DeviceClass" and obj.name:
            index.classes.add(obj.name)
        elif obj.kind in _KIND_RULE and obj.name:
            index.namespaced.setdefault(obj.kind, {}).setdefault(obj.namespace or "default", {})[obj.name] = normalised
    checked = ctx.workspace.checked_files
    index.inventory_given = bool(checked) and any(f.name not in checked for f in ctx.workspace.files)
    index.produced = ctx.produced
    index.drivers = tuple(ctx.options.profiles.drivers())
    return index


def check(ctx: CheckContext) -> Iterator[Violation]:
    index = build_index(ctx)
    for normalised in ctx.normalised.values():
        if normalised.obj.kind in _KIND_RULE:
            yield from _class_references(normalised, index)
    for template in ctx.pod_templates:
        yield from _pod_references(template, index)


def class_references(normalised: Normalised) -> Iterator[tuple[str, Path]]:
    """Every non-empty ``deviceClassName`` of a claim or template, with its canonical path."""
    for request in written_requests(claim_specs([normalised])):
        if request.spec.device_class_name:
            yield request.spec.device_class_name, (*request.path, "deviceClassName")


def _known_classes_hint(classes: set[str]) -> str:
    """What to use instead of an unknown class: the known ones, or where they come from when there are none."""
    if not classes:
        return (
            "no DeviceClass is defined in the inventory or inputs; "
            "add the cluster's (kubectl get deviceclasses -o yaml)"
        )
    known = sorted(classes)
    more = f" (and {len(known) - _SHOWN_CLASSES} more)" if len(known) > _SHOWN_CLASSES else ""
    return "use one of: " + ", ".join(known[:_SHOWN_CLASSES]) + more


_SHOWN_CLASSES = 8


def _class_references(normalised: Normalised, index: Index) -> Iterator[Violation]:
    for name, path in class_references(normalised):
        if name in index.classes:
            continue
        near = index.typo_of(name)
        if near is not None or index.inventory_given:
            where = "the inventory and inputs" if index.inventory_given else "the inputs"
            meant = index.suggestion_for(name)
            yield Violation(
                UNKNOWN_CLASS,
                f'DeviceClass "{name}" is not defined in {where}',
                normalised.obj,
                path,
                f"did you mean `{meant}`?" if meant is not None else _known_classes_hint(index.classes),
                replacement=Replacement(name, meant) if meant is not None else None,
            )
        elif (driver := index.driver_typo_of(name)) is not None:
            # Nothing defines classes here, but the name is a slip away from a driver's name, which the
            # class a driver installs usually has (gpu.example.com, gpu.nvidia.com).
            yield Violation(
                UNKNOWN_CLASS,
                f'DeviceClass "{name}" is not defined in the inputs',
                normalised.obj,
                path,
                f"did you mean `{driver}`? (the name of a driver, which its DeviceClass usually has too)",
                replacement=Replacement(name, driver),
            )
        else:
            yield Violation(
                UNVERIFIED,
                f'DeviceClass "{name}" is not among the inputs; it must exist in the cluster',
                normalised.obj,
                path,
                "install the driver that provides it, or pass the cluster's DeviceClasses with --inventory",
            )


def _pod_references(template: PodTemplate, index: Index) -> Iterator[Violation]:
    namespace = template.namespace
    for i, claim in enumerate(template.spec.resource_claims):
        path = template.claim_path(i)
        if claim.resource_claim_name is not None and claim.resource_claim_template_name is None:
            kind, name, field_name = "ResourceClaim", claim.resource_claim_name, "resourceClaimName"
        elif claim.resource_claim_template_name is not None and claim.resource_claim_name is None:
            kind, name, field_name = (
                "ResourceClaimTemplate",
                claim.resource_claim_template_name,
                "resourceClaimTemplateName",
            )
        else:
            continue  # invalid either way; the apiserver check reports it
        if not name:
            continue
        by_namespace = index.namespaced.get(kind, {})
        target = by_namespace.get(namespace, {}).get(name)
        if target is None and (kind, namespace, name) in index.produced:
            continue  # an object of the inputs creates it (the producer table); its requests are unknown
        if target is None:
            templates = index.namespaced.get("ResourceClaimTemplate", {}).get(namespace, {})
            if kind == "ResourceClaim" and name in templates:
                yield _template_named_as_claim(template, name, (*path, field_name))
            else:
                created = [n for k, ns, n in index.produced if k == kind and ns == namespace]
                yield _missing(template, kind, name, (*path, field_name), by_namespace, created)
            continue
        yield from _container_requests(template, claim.name, target)


def _missing(
    template: PodTemplate,
    kind: str,
    name: str,
    path: Path,
    by_namespace: dict[str, dict[str, Normalised]],
    created: list[str],
) -> Violation:
    namespace = template.namespace
    local = sorted({*by_namespace.get(namespace, {}), *created})
    elsewhere = sorted(ns for ns, objects in by_namespace.items() if name in objects and ns != namespace)
    near = similar(name, local)
    message = f'{kind} "{name}" does not exist in namespace "{namespace}"'
    if elsewhere:
        # The control plane only looks in the pod's namespace: nothing ever creates the pod's claim.
        message += f' (only in namespace "{elsewhere[0]}"): the pods stay Pending forever'
        hint = f'create the pod in namespace "{elsewhere[0]}" or move the {kind} to namespace "{namespace}"'
    elif near is not None:
        hint = f"did you mean `{near}`?"
    elif local:
        hint = f"define the {kind} in namespace {namespace}, or name one of: " + ", ".join(sorted(local)[:8])
    else:
        return Violation(
            UNVERIFIED,
            f'{kind} "{name}" is not among the inputs; it must exist in namespace "{namespace}" before the pod starts',
            template.owner,
            path,
            f"apply the {kind} with the workload, or make sure something else creates it",
        )
    replacement = Replacement(name, near) if near is not None and not elsewhere else None
    return Violation(_KIND_RULE[kind], message, template.owner, path, hint, replacement=replacement)


def _template_named_as_claim(template: PodTemplate, name: str, path: Path) -> Violation:
    """``resourceClaimName`` naming a ResourceClaimTemplate: the pod waits for a claim nobody creates."""
    return Violation(
        RuleId.CLAIM_NAME_NAMES_TEMPLATE,
        f'ResourceClaim "{name}" does not exist in namespace "{template.namespace}", but a ResourceClaimTemplate '
        "of that name does: resourceClaimName names a claim, so the pods stay Pending until one is created",
        template.owner,
        path,
        f"did you mean `resourceClaimTemplateName: {name}`? (one claim per pod, made from the template)",
    )


def _container_requests(template: PodTemplate, claim_name: str, target: Normalised) -> Iterator[Violation]:
    """A container's ``claims[].request`` must name a request of the claim (not a sub-request)."""
    specs = claim_specs([target])
    written = specs[0][0].requests if specs else ()
    requests = [r.name for r in written]
    subrequests = {part.name: part.request.name for r in written for part in r.parts() if part.parent is not None}
    for container in template.spec.containers:
        for k, claim in enumerate(container.claims):
            if claim.name != claim_name or not claim.request or claim.request in requests:
                continue
            path = (*template.path, container.kind, container.index, "resources", "claims", k, "request")
            parent = subrequests.get(claim.request)
            if parent is not None:
                hint = f"sub-requests cannot be named here; use the request `{parent}`"
            else:
                near = similar(claim.request, requests)
                hint = f"did you mean `{near}`?" if near else "use one of: " + ", ".join(requests)
                if not near and not requests:
                    hint = f"{target.obj.kind} {target.obj.name} has no requests; add the request to it"
            yield Violation(
                UNKNOWN_CONTAINER_REQUEST,
                f'request "{claim.request}" is not a request of {target.obj.kind} "{target.obj.name}"',
                template.owner,
                path,
                hint,
            )
