"""Admission: what kube-apiserver would store of the inputs, for the target release and feature gates.

The seam between "is each object valid" and "what does the cluster do". Every object, from
the checked paths and the inventory alike, goes through what the API server does on create:
defaults (:mod:`dralint.api.defaults`, applied by normalisation), the drop of fields whose
feature gates are off (:func:`dralint.validate.skew.strip`) and validation (served versions,
the schema, the apiserver rules; for workloads the claims of their pod specs). Admission only
decides, from those results, whether each object is stored or rejected; it re-implements no
rule. The cluster model reads :attr:`Admission.objects` and :attr:`Admission.stored`:

- an object the API server would reject is not part of the simulated cluster; it has its own
  findings, and whatever depends on it refers to the first of them
  (:meth:`Rejection.reference`) instead of failing in its own words;
- the same object defined twice (group, kind, namespace, name) is stored once: as
  ``kubectl apply -f`` leaves it, the last definition in input order, except that a definition
  in the checked paths is applied over the inventory's (the cluster's state); a rejected later
  definition leaves the earlier one in place;
- a ResourceClaim's status that a status update would reject (invalid-status) is not stored, so its
  allocation does not count;
- a pod spec's claim fields are dropped when their feature gate is off (DRA210 says so), so the
  pods of :attr:`Admission.templates` run without those claims.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field, replace
from typing import TYPE_CHECKING

from dralint.admission.types import Inputs, Rejection, source_line
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api.workloads import PodTemplate

__all__ = ["Admission", "Identity", "Inputs", "Rejection", "admit", "identity", "source_line"]

# group, kind, namespace ("" for cluster-scoped kinds), name
Identity = tuple[str, str, str, str]


@dataclass(slots=True)
class Admission:
    """The inputs as the cluster would hold them."""

    objects: list[KubeObject] = field(default_factory=list)  # stored, one per identity, in input order
    stored: dict[KubeObject, Normalised] = field(default_factory=dict)  # the DRA objects of ``objects``, as stored
    # the pod templates of ``objects`` and of rejected workloads, their claim fields as stored
    templates: list[PodTemplate] = field(default_factory=list)
    rejected: dict[KubeObject, Rejection] = field(default_factory=dict)
    replaced: dict[KubeObject, KubeObject] = field(default_factory=dict)  # a definition -> the one stored instead
    # identities of which every definition is rejected, for references by name
    rejected_names: dict[Identity, Rejection] = field(default_factory=dict)

    def rejection(self, kind: str, namespace: str, name: str, group: str = "resource.k8s.io") -> Rejection | None:
        """Why the object of that kind and name is not in the cluster although the inputs define it."""
        return self.rejected_names.get((group, kind, namespace, name))


def identity(obj: KubeObject) -> Identity | None:
    """What makes two definitions the same object; ``None`` for objects named by ``generateName``."""
    name = obj.metadata.get("name")
    if not isinstance(name, str) or not name:
        return None
    return (obj.group, obj.kind, obj.namespace or "", name)


def admit(ctx: Inputs) -> Admission:
    """Run every loaded object through admission (see the module docstring)."""
    from dralint.admission import verdicts

    admission = Admission()
    judge = verdicts.Judge(ctx)
    stored: dict[KubeObject, Normalised | None] = {}
    for obj in ctx.objects:
        rejection = judge.rejection(obj)
        if rejection is not None:
            admission.rejected[obj] = rejection
        else:
            stored[obj] = judge.stored(obj)
    checked = ctx.checked_files
    winners = _winners(stored, checked)
    for obj in ctx.objects:
        key = identity(obj)
        winner = winners.get(key) if key is not None else None
        if obj in admission.rejected:
            if key is not None and winner is None:
                admission.rejected_names.setdefault(key, admission.rejected[obj])
            continue
        if winner is not None and winner is not obj:
            admission.replaced[obj] = winner
            continue
        admission.objects.append(obj)
        normalised = stored[obj]
        if normalised is not None:
            admission.stored[obj] = normalised
    # The pods of rejected workloads stay, unplaced with the reason (simulate shows them).
    kept = set(admission.objects) | set(admission.rejected)
    admission.templates = [_stored_template(ctx, t) for t in ctx.pod_templates if t.owner in kept]
    return admission


def _stored_template(ctx: Inputs, template: PodTemplate) -> PodTemplate:
    """``template`` as its pods are stored: the claim fields of a pod spec whose feature gate is off are
    dropped on create (:func:`dralint.validate.skew.pod_spec_drops`), and the pods run without them."""
    from dralint.validate.skew import pod_spec_drops

    if not pod_spec_drops(ctx.target, template.owner.raw, template.path):
        return template
    spec = template.spec
    containers = tuple(replace(container, claims=()) for container in spec.containers)
    return replace(template, spec=replace(spec, resource_claims=(), containers=containers))


def _winners(stored: dict[KubeObject, Normalised | None], checked: Iterable[str]) -> dict[Identity, KubeObject]:
    """The definition of each identity that is stored: the last, a checked path's over the inventory's."""
    checked_files = frozenset(checked)
    out: dict[Identity, KubeObject] = {}
    for obj in stored:
        key = identity(obj)
        if key is None:
            continue
        previous = out.get(key)
        if previous is not None and checked_files and obj.file not in checked_files and previous.file in checked_files:
            continue  # the manifests are applied over what the cluster has
        out[key] = obj
    return out
