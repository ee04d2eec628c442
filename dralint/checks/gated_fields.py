"""Fields the target release silently drops because their feature gate is off (DRA210-DRA212)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from dralint import schemas
from dralint.api.objects import KubeObject
from dralint.api.versions import SERVED, Target
from dralint.apimachinery.fieldpath import Path, render
from dralint.checks.api_problems import RULE_OF_OUTCOME
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.validate.skew import Drop, Outcome, default_on_from, dra_object_drops, other_object_drops, pod_spec_drops


def check(ctx: CheckContext) -> Iterator[Violation]:
    target = ctx.target
    for normalised in ctx.normalised.values():
        obj = normalised.obj
        if target.release not in SERVED.get((obj.kind, obj.version), ()):
            continue  # DRA200 reports it; nothing of it reaches the cluster
        drops = dra_object_drops(target, obj.kind, normalised.data)
        yield from _report(target, obj, drops, normalised.paths.to_source)
    for template in ctx.pod_templates:
        drops = pod_spec_drops(target, template.owner.raw, template.path)
        yield from _report(target, template.owner, drops, _same)
    for obj in ctx.objects:
        if not obj.is_dra:
            yield from _report(target, obj, other_object_drops(target, obj.group, obj.kind, obj.raw), _same)


def _report(
    target: Target, obj: KubeObject, drops: Sequence[Drop], to_source: Callable[[Path], Path]
) -> Iterator[Violation]:
    """One violation per kind of dropped field in an object, at its first occurrence."""
    # Drops with the same cause and consequence are one defect (all pod claims, every tainted device).
    groups: dict[tuple[str, tuple[str, ...], Outcome], list[Path]] = {}
    first: dict[tuple[str, tuple[str, ...], Outcome], Drop] = {}
    for drop in drops:
        source = to_source(drop.path)
        if not _in_schema(target.release, obj, source):
            continue  # not a field of this version at all: an unknown field (DRA100), not a drop
        key = (drop.effect, drop.gates, drop.outcome)
        groups.setdefault(key, []).append(source)
        first.setdefault(key, drop)
    for key, paths in groups.items():
        drop = first[key]
        message = f"{render(paths[0])} is dropped because {_gates_off(target, drop.gates)}: {drop.effect}"
        if len(paths) > 1:
            message += f" (and {len(paths) - 1} more like it in this object)"
        yield Violation(
            RULE_OF_OUTCOME[drop.outcome], message, obj, paths[0], _hint(target, drop.gates), source_path=True
        )


def _in_schema(release: str, obj: KubeObject, path: Path) -> bool:
    if schemas.root_name(release, obj.api_version, obj.kind) is None:
        return True  # kinds without a stored schema (PodGroup, JobSet, ...): the gate table decides
    return schemas.at_path(release, obj.api_version, obj.kind, path) is not None


def _gates_off(target: Target, gates: Sequence[str]) -> str:
    names = " and ".join(gates)
    noun = "feature gate" if len(gates) == 1 else "feature gates"
    verb = "is" if len(gates) == 1 else "are"
    if any(gate in target.overrides for gate in gates) or {"AllAlpha", "AllBeta"} & set(target.overrides):
        return f"{noun} {names} {verb} off as configured"
    return f"{noun} {names} {verb} off by default in Kubernetes {target.release}"


def _hint(target: Target, gates: Sequence[str]) -> str:
    flags = ",".join(f"{gate}=true" for gate in gates)
    hint = f"enable it on the cluster and tell dralint with --feature-gates {flags}"
    later = [release for gate in gates if (release := default_on_from(gate)) is not None]
    if later and len(later) == len(gates):
        newest = max(later, key=lambda r: tuple(int(p) for p in r.split(".")))
        if not target.at_least(newest):
            hint += f"; it is on by default from Kubernetes {newest}"
    return hint


def _same(path: Path) -> Path:
    return path
