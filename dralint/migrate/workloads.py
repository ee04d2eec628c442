"""Rewrite the device-plugin requests of a workload's pod templates into ResourceClaimTemplates and claims, in place.

A container's ``nvidia.com/gpu: 2`` (in ``limits``, ``requests`` or both) becomes a pod-level
``resourceClaims`` entry naming a ResourceClaimTemplate with one request for two devices, and a
``resources.claims`` entry in the container; the resource leaves ``limits`` and ``requests``.
One template serves every container (of every workload of a namespace) asking for the same
resource and count; each container gets a claim of its own, so no two share a device, as with
the device plugin. The mappings are edited in place, so ruamel's round trip keeps the rest of
the document (comments, key order). Init containers are left alone: their devices are held only
while they run, which a pod's claims cannot say.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any

from dralint.api import rewrite
from dralint.api.objects import KubeObject
from dralint.api.versions import SERVED, VERSIONS
from dralint.api.workloads import pod_templates
from dralint.apimachinery.fieldpath import Path, render, value_at
from dralint.dataclass import dataclass
from dralint.migrate.resolve import Mapped, Unmapped, is_device_plugin_resource, label
from dralint.read.yamldoc import Document

__all__ = [
    "Rewritten",
    "Skipped",
    "Wanted",
    "claim_template",
    "claim_version",
    "describe",
    "requested",
    "rewrite_object",
]

_INTEGER = re.compile(r"^\+?[0-9]+$")


@dataclass(frozen=True, slots=True)
class Wanted:
    """A ResourceClaimTemplate the rewritten object names: ``count`` devices of ``mapped`` in ``namespace``."""

    namespace: str | None  # None: the workload's manifest names none (the template names none either)
    mapped: Mapped
    count: int

    @property
    def name(self) -> str:
        base = label(self.mapped.resource)
        return base if self.count == 1 else f"{base}-x{self.count}"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A request left as it is, and why."""

    path: Path
    resource: str
    reason: str


@dataclass(frozen=True, slots=True)
class Rewritten:
    wanted: tuple[Wanted, ...]  # in the order the object first names them
    skipped: tuple[Skipped, ...]
    containers: int  # containers rewritten


Resolve = Callable[[str], Mapped | Unmapped]


def rewrite_object(obj: MutableMapping[str, Any], resolve: Resolve) -> Rewritten:
    """Rewrite the pod templates of ``obj`` (one Kubernetes object) whose containers ask for device-plugin resources."""
    metadata = obj.get("metadata")
    namespace = metadata.get("namespace") if isinstance(metadata, Mapping) else None
    namespace = namespace if isinstance(namespace, str) else None
    wanted: list[Wanted] = []
    skipped: list[Skipped] = []
    containers = 0
    for spec, key, container, at in _containers(obj):
        found = _container(spec, container, key, at, resolve, namespace)
        wanted += [w for w in found[0] if w not in wanted]
        skipped += found[1]
        containers += bool(found[0])
    return Rewritten(tuple(wanted), tuple(skipped), containers)


def requested(obj: Mapping[str, Any]) -> list[str]:
    """The device-plugin resources the containers of ``obj``'s pod templates ask for, sorted."""
    names = set()
    for _, _, container, _ in _containers(obj):
        resources = container.get("resources")
        for section in ("limits", "requests"):
            values = resources.get(section) if isinstance(resources, Mapping) else None
            if isinstance(values, Mapping):
                names |= {str(n) for n in values if is_device_plugin_resource(str(n))}
    return sorted(names)


def _containers(obj: Mapping[str, Any]) -> Iterator[tuple[Any, str, Any, Path]]:
    """(pod spec, containers key, container, path of its resources) of every pod template of ``obj``."""
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return
    known = KubeObject(Document("", 0, 1, obj), (), api_version, kind, obj)
    for template in pod_templates(known):
        spec = value_at(obj, template.path)
        if not isinstance(spec, MutableMapping) or template.claims_at is not None:
            continue
        for key in ("initContainers", "containers"):
            items = spec.get(key)
            for index, container in enumerate(items if isinstance(items, list) else ()):
                if isinstance(container, MutableMapping):
                    yield spec, key, container, (*template.path, key, index, "resources")


def _container(
    spec: MutableMapping[str, Any],
    container: MutableMapping[str, Any],
    key: str,
    at: Path,
    resolve: Resolve,
    namespace: str | None,
) -> tuple[list[Wanted], list[Skipped]]:
    resources = container.get("resources")
    if not isinstance(resources, MutableMapping):
        return [], []
    sections = [s for s in ("limits", "requests") if isinstance(resources.get(s), MutableMapping)]
    names = sorted({str(n) for s in sections for n in resources[s] if is_device_plugin_resource(str(n))})
    wanted: list[Wanted] = []
    skipped: list[Skipped] = []
    for name in names:
        section = next(s for s in sections if name in resources[s])
        where = (*at, section, name)
        target = resolve(name)
        if isinstance(target, Unmapped):
            skipped.append(Skipped(where, name, target.reason))
            continue
        if key == "initContainers":
            reason = "an init container holds its devices only while it runs; a pod's claims last as long as the pod"
            skipped.append(Skipped(where, name, reason))
            continue
        count = _count(resources[section][name])
        if count is None:
            skipped.append(Skipped(where, name, f"{resources[section][name]!r} is not a whole number of devices"))
            continue
        for s in sections:
            resources[s].pop(name, None)
            if not resources[s]:
                del resources[s]
        if count == 0:
            continue
        want = Wanted(namespace, target, count)
        claim = _claim_name(str(container.get("name", "")), target, spec)
        claims = resources.setdefault("claims", [])
        claims.append({"name": claim})
        spec.setdefault("resourceClaims", []).append({"name": claim, "resourceClaimTemplateName": want.name})
        wanted.append(want)
    return wanted, skipped


def _count(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    text = str(value)
    return int(text) if _INTEGER.match(text) else None


def _claim_name(container: str, mapped: Mapped, spec: Mapping[str, Any]) -> str:
    """A name for the container's claim, unique among the pod's claims."""
    base = f"{container}-{mapped.request_name}"[:63].rstrip("-")
    taken = {str(e.get("name")) for e in spec.get("resourceClaims") or () if isinstance(e, Mapping)}
    name, number = base, 2
    while name in taken:
        suffix = f"-{number}"
        name, number = base[: 63 - len(suffix)] + suffix, number + 1
    return name


def claim_version(release: str) -> str:
    """The newest ``resource.k8s.io`` version ``release`` serves ResourceClaimTemplates in."""
    return next(v for v in reversed(VERSIONS) if release in SERVED.get(("ResourceClaimTemplate", v), ()))


def claim_template(wanted: Wanted, version: str) -> dict[str, Any]:
    """The ResourceClaimTemplate ``wanted`` names, written in ``version``."""
    mapped = wanted.mapped
    exactly: dict[str, Any] = {"deviceClassName": mapped.device_class}
    if wanted.count != 1:
        exactly["count"] = wanted.count
    if mapped.selectors:
        exactly["selectors"] = [{"cel": {"expression": s}} for s in mapped.selectors]
    metadata: dict[str, Any] = {"name": wanted.name}
    if wanted.namespace is not None:
        metadata["namespace"] = wanted.namespace
    template: dict[str, Any] = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaimTemplate",
        "metadata": metadata,
        "spec": {"spec": {"devices": {"requests": [{"name": mapped.request_name, "exactly": exactly}]}}},
    }
    if version != "v1":
        rewrite.convert(template, "ResourceClaimTemplate", "v1", version)
    return template


def describe(skipped: Skipped) -> str:
    """One line for a request left as it is."""
    return f"{render(skipped.path)}: {skipped.resource} left as it is: {skipped.reason}"
