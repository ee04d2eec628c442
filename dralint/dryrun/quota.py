"""ResourceQuota in the dry-run: what creating a pod or a ResourceClaim charges, and whether the quotas of
its namespace let it be created (kube-apiserver's quota admission).

Usage follows kube-controller-manager's evaluators: the pod evaluator (``pods``, ``count/pods``,
requests of CPU, memory, ephemeral storage, hugepages and extended resources; limits are not
modelled) and the resource claim evaluator (``count/resourceclaims.resource.k8s.io``,
``<class>.deviceclass.resource.k8s.io/devices``: a request's count, 32 for ``allocationMode:
All``, the largest alternative per class for ``firstAvailable``, admin access included; with
DRAExtendedResource, also ``requests.deviceclass.resource.kubernetes.io/<class>`` and
``requests.<extendedResourceName>``, less what the owning pod's own usage already counts).
Admission checks every quota of the namespace and charges all of them or none; scoped quotas
never match a claim and are not modelled for pods.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence

from dralint.allocator.types import ALLOCATION_RESULTS_MAX_SIZE
from dralint.api import model
from dralint.api.quota import ResourceQuota
from dralint.apimachinery.quantity import Quantity, parse_quantity
from dralint.cluster.pods import ClaimUse, Pod, QuotaRefusal
from dralint.dryrun import resources

Usage = dict[str, Quantity]
CLAIM_COUNT = "count/resourceclaims.resource.k8s.io"
DEVICES_PER_CLASS = ".deviceclass.resource.k8s.io/devices"  # corev1.ResourceClaimsPerClass
IMPLICIT_REQUESTS = "requests.deviceclass.resource.kubernetes.io/"  # ResourceImplicitExtendedClaimsPerClass
REQUESTS = "requests."
_NATIVE = ("cpu", "memory", "ephemeral-storage")
_ZERO = parse_quantity("0")


def _add(usage: Usage, name: str, amount: Quantity) -> None:
    usage[name] = usage.get(name, _ZERO).add(amount)


def _devices(part: model.ExactDeviceRequest | model.DeviceSubRequest) -> int:
    if part.allocation_mode == "ExactCount":
        return part.count
    if part.allocation_mode == "All":
        return ALLOCATION_RESULTS_MAX_SIZE  # the worst case
    return 0  # an unknown mode does not count


def claim_usage(
    spec: model.ResourceClaimSpec,
    extended: Mapping[str, str] | None = None,
    pod_usage: Mapping[str, Quantity] | None = None,
) -> Usage:
    """``claimEvaluator.Usage``. ``extended`` (DeviceClass -> its extendedResourceName) is given when
    DRAExtendedResource is on; ``pod_usage`` is the owning pod's usage, for its extended-resource claim."""
    usage: Usage = {CLAIM_COUNT: parse_quantity("1")}
    for request in spec.requests:
        if request.first_available:
            worst: dict[str, int] = {}
            for sub in request.first_available:
                name = sub.device_class_name + DEVICES_PER_CLASS
                worst[name] = max(worst.get(name, 0), _devices(sub))
            for name, count in worst.items():
                _add(usage, name, parse_quantity(str(count)))
        elif request.exactly is not None:
            name = request.exactly.device_class_name + DEVICES_PER_CLASS
            _add(usage, name, parse_quantity(str(_devices(request.exactly))))
    if extended is not None:
        _add_extended(usage, extended, pod_usage or {})
    return usage


def _add_extended(usage: Usage, extended: Mapping[str, str], pod_usage: Mapping[str, Quantity]) -> None:
    """``addExtendedResourceQuota``: a class's devices count for its extended resource names too."""
    more: Usage = {}
    for name, amount in usage.items():
        device_class = name.removesuffix(DEVICES_PER_CLASS)
        if device_class == name or not device_class:
            continue
        more[IMPLICIT_REQUESTS + device_class] = amount
        if extended.get(device_class):
            more[REQUESTS + extended[device_class]] = amount
    for name, amount in more.items():
        left = amount.sub(pod_usage[name]) if name in pod_usage else amount
        if left.sign() > 0:
            usage[name] = left


def pod_usage(requests: Mapping[str, int]) -> Usage:
    """The pod evaluator's usage of a pod with these requests (:func:`resources.pod_requests`)."""
    usage: Usage = {"pods": parse_quantity("1"), "count/pods": parse_quantity("1")}
    for name, value in requests.items():
        amount = parse_quantity(f"{value}m" if name == "cpu" else str(value))
        if name in _NATIVE or name.startswith("hugepages-"):
            usage[name] = usage[REQUESTS + name] = amount
        elif resources.extended(name) and "kubernetes.io/" not in name:  # helper.IsExtendedResourceName
            usage[REQUESTS + name] = amount
    return usage


def _pretty(usage: Mapping[str, Quantity], names: Sequence[str]) -> str:
    """``prettyPrint``: ``name=quantity`` in name order, joined by commas."""
    return ",".join(f"{name}={usage[name]}" for name in names if name in usage)


class Quotas:
    """The ResourceQuotas of every namespace with what is charged to them so far (mutable)."""

    def __init__(self, quotas: Sequence[ResourceQuota]) -> None:
        self.by_namespace: dict[str, list[ResourceQuota]] = {}
        for quota in sorted(quotas, key=lambda q: (q.namespace, q.name)):
            self.by_namespace.setdefault(quota.namespace, []).append(quota)
        # The usage starts at status.used (the quota controller gives every hard resource one) or nothing.
        self.used: dict[int, Usage] = {
            id(q): {name: (q.used or {}).get(name, _ZERO) for name in q.hard} for q in quotas
        }

    def __bool__(self) -> bool:
        return bool(self.by_namespace)

    def charge_existing(self, namespace: str, usage: Mapping[str, Quantity]) -> None:
        """Count an object that already exists, where the quota's status.used does not count it already."""
        for quota in self.by_namespace.get(namespace, ()):
            if quota.used is None and not quota.scoped:
                used = self.used[id(quota)]
                for name, amount in usage.items():
                    if name in quota.hard:
                        used[name] = used[name].add(amount)

    def give_back(self, namespace: str, usage: Mapping[str, Quantity]) -> None:
        """Uncharge what :meth:`admit` charged for an object that is not created after all."""
        for quota in self.by_namespace.get(namespace, ()):
            if not quota.scoped:
                used = self.used[id(quota)]
                for name, amount in usage.items():
                    if name in quota.hard:
                        used[name] = used[name].sub(amount)

    def admit(self, namespace: str, usage: Mapping[str, Quantity]) -> str | None:
        """Charge a new object to every quota of ``namespace``; the admission's refusal when one would be
        exceeded (then nothing is charged): ``exceeded quota: gpus, requested: …, used: …, limited: …``."""
        charges: list[tuple[Usage, dict[str, Quantity]]] = []
        for quota in self.by_namespace.get(namespace, ()):
            if quota.scoped:
                continue
            requested = {name: amount for name, amount in usage.items() if name in quota.hard}
            if not requested:
                continue
            used = self.used[id(quota)]
            exceeded = sorted(name for name, amount in requested.items() if used[name].add(amount) > quota.hard[name])
            if exceeded:
                return (
                    f"exceeded quota: {quota.name}, requested: {_pretty(requested, exceeded)}, "
                    f"used: {_pretty(used, exceeded)}, limited: {_pretty(quota.hard, exceeded)}"
                )
            charges.append((used, requested))
        for used, requested in charges:
            for name, amount in requested.items():
                used[name] = used[name].add(amount)
        return None


def admit_pods(
    pods: Sequence[Pod],
    claims: Iterable[model.ResourceClaim],
    quotas: Quotas,
    requests: Callable[[Pod], Mapping[str, int]],
    extended: Mapping[str, str] | None = None,
) -> list[Pod]:
    """The pods, each with why quota admission leaves it pending, if it does.

    In the order things are created: the ResourceClaims of the inputs (those already allocated
    exist: they are counted, not admitted), then each pod (in its namespace's quotas, in order)
    and the claims the resource claim controller makes for it from templates, in entry order.
    A pod refused is never created; one whose claim is refused waits for it for ever. The claim
    of DRA-backed extended resources is made when the pod is bound (:class:`ExtendedClaims`).
    """
    if not quotas:
        return list(pods)
    refused: dict[tuple[str, str], str] = {}
    for claim in claims:
        usage = claim_usage(claim.spec, extended)
        if claim.allocation is not None:
            quotas.charge_existing(claim.namespace, usage)
            continue
        why = quotas.admit(claim.namespace, usage)
        if why is not None:
            refused[(claim.namespace, claim.name)] = why
    groups: dict[tuple[str, str], str | None] = {}  # the claims made once per PodGroup: refused or not
    out = []
    for pod in pods:
        refusal = None if pod.rejected is not None else _pod_refusal(pod, quotas, refused, groups, requests, extended)
        out.append(dataclasses.replace(pod, quota=refusal) if refusal is not None else pod)
    return out


def _pod_refusal(
    pod: Pod,
    quotas: Quotas,
    refused: Mapping[tuple[str, str], str],
    groups: dict[tuple[str, str], str | None],
    requests: Callable[[Pod], Mapping[str, int]],
    extended: Mapping[str, str] | None,
) -> QuotaRefusal | None:
    why = quotas.admit(pod.namespace, pod_usage(requests(pod)))
    if why is not None:
        return QuotaRefusal(f"pod {pod.display} is not created: {why}")
    for use in pod.claims:
        if use.claim is None:
            continue
        name = f"{use.key[0]}/{use.key[1]}"
        if use.shared and use.key in refused:
            return QuotaRefusal(f"ResourceClaim {name} is not created: {refused[use.key]}", use.entry_index)
        if use.source is None or use.source.kind != "ResourceClaimTemplate" or use.kind not in ("template", "group"):
            continue
        if use.kind == "group" and use.key in groups:  # made once, for the first pod of the group
            why = groups[use.key]
        else:
            why = quotas.admit(pod.namespace, claim_usage(use.claim.spec, extended))
            if use.kind == "group":
                groups[use.key] = why
        if why is not None:
            template = f"{use.source.namespace or 'default'}/{use.source.name}"
            owner = "its PodGroup" if use.kind == "group" else f"pod {pod.display}"
            made = f"the ResourceClaim {name} made from ResourceClaimTemplate {template} for {owner}"
            return QuotaRefusal(f"{made} is not created: {why}", use.entry_index)
    return None


class ExtendedClaims:
    """Admits the claim kube-scheduler makes (at PreBind) for a pod's DRA-backed extended resources on
    its node, and gives it back when the pod is not bound after all (its gang does not run: the
    pods wait at Permit, before PreBind, so the claim is never made)."""

    def __init__(
        self, quotas: Quotas, requests: Callable[[Pod], Mapping[str, int]], extended: Mapping[str, str] | None
    ) -> None:
        self.quotas = quotas
        self.requests = requests
        self.extended = extended
        self.charged: dict[int, Usage] = {}  # by id of the pod

    def __call__(self, pod: Pod, uses: Sequence[ClaimUse]) -> str | None:
        """Why the claim is refused, if it is: then binding fails and the pod stays pending."""
        for use in uses:
            if use.kind == "extended" and use.claim is not None:
                usage = claim_usage(use.claim.spec, self.extended, pod_usage(self.requests(pod)))
                why = self.quotas.admit(pod.namespace, usage)
                if why is None:
                    self.charged[id(pod)] = usage
                    return None
                return (
                    f"the claim kube-scheduler makes for the extended resources of pod {pod.display} "
                    f"is not created: {why}"
                )
        return None

    def give_back(self, pod: Pod) -> None:
        """The pod is not bound: its claim is not made."""
        usage = self.charged.pop(id(pod), None)
        if usage is not None:
            self.quotas.give_back(pod.namespace, usage)
