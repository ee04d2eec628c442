"""Why pods did not fit, per request: the device funnel summed over the candidate nodes, the failing
selector clause, and did-you-mean hints — as data, and as the one line a finding prints.

The funnel follows the allocator's order of checks: devices seen on the nodes, passing the class
selector, the request selectors, free, with the capacity, fitting the counters, tolerating the
taints, carrying the attribute a constraint compares.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import field, replace

from dralint.allocator import Explanation
from dralint.allocator.explain import REJECTION_REASONS
from dralint.api import model
from dralint.cel import CelError, DeviceValue, Selector, compile_selector, device_value
from dralint.dataclass import dataclass
from dralint.diagnose import hints
from dralint.diagnose.candidates import accepted_devices

STAGES = {
    "binding-conditions": "without binding conditions",
    "class-selector": "matching the class selector",
    "request-selector": "matching the request selector",
    "node-selection": "reachable from the node",
    "in-use": "free",
    "capacity": "with the requested capacity",
    "counters": "within the shared counters",
    "compatibility": "compatible with the partitions in use",
    "taint": "tolerating the device taints",
    "constraint": "with the attribute the constraints compare",
}


@dataclass(frozen=True, slots=True)
class RequestWhy:
    claim: str  # namespace/name
    request: str  # name, or parent/entry
    device_class: str
    count: int
    mode: str
    nodes: int  # candidate nodes explained
    nodes_with_enough: int  # of them, nodes where this request alone would fit
    seen: int
    usable: int
    rejected: Mapping[str, int]
    most_on_one_node: int = 0
    taint_keys: tuple[str, ...] = ()
    error: str | None = None
    clauses: tuple[hints.ClauseResult, ...] = ()  # request-selector clauses no device passes
    hints: tuple[str, ...] = ()
    selector_index: int | None = None  # the request selector that rejects every device, if one does

    @property
    def blocking(self) -> bool:
        """Whether this request cannot be satisfied on any candidate node even on its own."""
        return self.nodes_with_enough == 0


@dataclass(slots=True)
class _Sum:
    """Running totals of one request over the explained nodes."""

    mode: str
    count: int
    error: str | None
    seen: int = 0
    usable: int = 0
    most: int = 0
    enough: int = 0
    rejected: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REJECTION_REASONS, 0))
    taint_keys: list[str] = field(default_factory=list)


# What a request's selectors reveal against the devices of its class (see _selector_detail): the
# first selector no device passes, its failing clauses and did-you-mean hints. Kept by class and
# expressions, the same for every failing workload with those selectors.
SelectorDetail = tuple[int, tuple[hints.ClauseResult, ...], tuple[str, ...]]
SelectorDetails = dict[tuple[str, tuple[str, ...]], SelectorDetail | None]


def summarise(
    explanations: Sequence[Explanation],
    claims: Sequence[model.ResourceClaim],
    class_devices: Mapping[str, list[tuple[str, model.Device]]],
    vocab: hints.Vocabulary,
    classes: Mapping[str, model.DeviceClass] | None = None,
    devices: Sequence[tuple[str, model.Device]] = (),
    details: SelectorDetails | None = None,
) -> list[RequestWhy]:
    """Per request, the explanations of every candidate node added up, with clause and name hints.

    ``classes`` and all inventory ``devices`` let a class selector that accepts nothing be
    explained the same way as a request selector. ``details`` keeps what the selectors of a
    request reveal, for callers that summarise many failures over the same inventory.
    """
    sums: dict[tuple[str, str], _Sum] = {}
    for explanation in explanations:
        for request in explanation.requests:
            key = (request.claim, request.request)
            total = sums.get(key)
            if total is None:
                total = sums[key] = _Sum(request.mode, request.count, request.error)
            total.seen += request.seen
            total.usable += request.usable
            total.most = max(total.most, request.usable)
            needed = request.count if request.mode == "ExactCount" else 1
            total.enough += request.usable >= max(needed, 1)
            for reason, n in request.rejected.items():
                total.rejected[reason] += n
            total.taint_keys.extend(k for k in request.taint_keys if k not in total.taint_keys)
    by_ref = {f"{c.namespace}/{c.name}" if c.namespace else c.name: c for c in claims}
    out = []
    for (claim, label), total in sums.items():
        spec = request_spec(by_ref.get(claim), label)
        class_name = spec.device_class_name if spec is not None else ""
        why = RequestWhy(
            claim=claim,
            request=label,
            device_class=class_name,
            count=total.count,
            mode=total.mode,
            nodes=len(explanations),
            nodes_with_enough=total.enough,
            seen=total.seen,
            usable=total.usable,
            most_on_one_node=total.most,
            rejected={k: v for k, v in total.rejected.items() if v},
            taint_keys=tuple(total.taint_keys),
            error=total.error,
        )
        if spec is not None and why.rejected.get("request-selector"):
            expressions = (class_name, tuple(s.cel.expression if s.cel is not None else "" for s in spec.selectors))
            if details is not None and expressions in details:
                found = details[expressions]
            else:
                found = _selector_detail(spec, class_devices.get(class_name, []), vocab)
                if details is not None:
                    details[expressions] = found
            if found is not None:
                why = replace(why, selector_index=found[0], clauses=found[1], hints=found[2])
        elif spec is not None and why.seen and why.rejected.get("class-selector") == why.seen:
            device_class = (classes or {}).get(class_name)
            if device_class is not None:
                why = _with_class_hints(why, device_class, devices, vocab)
        out.append(why)
    return out


def request_spec(
    claim: model.ResourceClaim | None, label: str
) -> model.ExactDeviceRequest | model.DeviceSubRequest | None:
    found = model.find_part(claim.spec.requests, label) if claim is not None else None
    return found[1].spec if found is not None and found[1] is not None else None


def _selector_detail(
    spec: model.ExactDeviceRequest | model.DeviceSubRequest,
    devices: list[tuple[str, model.Device]],
    vocab: hints.Vocabulary,
) -> SelectorDetail | None:
    """The first request selector no device of the class passes (index, failing clauses, did-you-mean
    hints), or ``None``. Devices alike share their CEL value: each value is evaluated once."""
    values = list({id(value): value for value in (device_value(driver, device) for driver, device in devices)}.values())
    for index, selector in enumerate(spec.selectors):
        if selector.cel is None:
            continue
        expression = selector.cel.expression
        try:
            compiled = compile_selector(expression)
        except CelError:
            continue
        if not any(_matches(compiled, value) for value in values):
            found = hints.failing_clauses(expression, devices)
            return index, tuple(found), tuple(hints.did_you_mean(expression, vocab))
    return None


def _matches(selector: Selector, value: DeviceValue) -> bool:
    with contextlib.suppress(CelError):
        return selector.matches(value)
    return False


def _with_class_hints(
    why: RequestWhy,
    device_class: model.DeviceClass,
    devices: Sequence[tuple[str, model.Device]],
    vocab: hints.Vocabulary,
) -> RequestWhy:
    """The class selector clauses no inventory device passes, and did-you-mean hints for them."""
    found: list[hints.ClauseResult] = []
    suggestions: list[str] = []
    for selector in device_class.selectors:
        if selector.cel is None:
            continue
        failing = hints.failing_clauses(selector.cel.expression, devices)
        found.extend(failing)
        if failing:
            suggestions.extend(hints.did_you_mean(selector.cel.expression, vocab))
    return replace(why, clauses=tuple(found), hints=tuple(dict.fromkeys(suggestions)))


def blocking(reasons: Sequence[RequestWhy]) -> list[RequestWhy]:
    """The requests that fit no candidate node even alone: for a ``firstAvailable`` request, only
    when every alternative is blocked (then all alternatives are returned)."""
    by_parent: dict[tuple[str, str], list[RequestWhy]] = {}
    for reason in reasons:
        if "/" in reason.request:
            by_parent.setdefault((reason.claim, reason.request.partition("/")[0]), []).append(reason)
    out = []
    for reason in reasons:
        if "/" in reason.request:
            if all(r.blocking for r in by_parent[(reason.claim, reason.request.partition("/")[0])]):
                out.append(reason)
        elif reason.blocking:
            out.append(reason)
    return out


def funnel(why: RequestWhy) -> str:
    """``"16 devices on 2 nodes, 16 matching the class selector, 0 matching the request selector"``."""
    nodes = f"{why.nodes} node" + ("s" if why.nodes != 1 else "")
    parts = [f"{why.seen} device{'s' if why.seen != 1 else ''} on {nodes}"]
    remaining = why.seen
    for reason in REJECTION_REASONS:
        rejected = why.rejected.get(reason, 0)
        if not rejected:
            continue
        remaining -= rejected
        stage = STAGES[reason]
        if reason == "taint" and why.taint_keys:
            stage += f" ({', '.join(why.taint_keys)})"
        parts.append(f"{remaining} {stage}")
    return ", ".join(parts)


def need(why: RequestWhy) -> str:
    if why.mode == "All":
        return f"all devices of class {why.device_class}"
    return f"{why.count} device{'s' if why.count != 1 else ''} of class {why.device_class}"


def sentence(why: RequestWhy) -> str:
    """One line: what the request needs and where the devices fall out."""
    text = f"request {why.request} needs {need(why)}: {funnel(why)}"
    if why.blocking and why.usable and why.mode == "ExactCount":
        text += f", at most {why.most_on_one_node} on one node"
    if why.clauses:
        where = "" if why.selector_index is not None else f" of DeviceClass {why.device_class}"
        text += "; no device passes " + ", ".join(f"`{c.clause}`" for c in why.clauses) + where
    elif why.selector_index is not None:
        text += f"; no device passes selector #{why.selector_index}"
    if why.error:
        text += f"; {why.error}"
    return text


def class_devices(
    slices: Sequence[model.ResourceSlice], device_class: model.DeviceClass
) -> list[tuple[str, model.Device]]:
    """Inventory devices the class selectors accept (runtime errors count as not accepted)."""
    devices = ((resource_slice.driver, device) for resource_slice in slices for device in resource_slice.devices)
    return accepted_devices(device_class.selectors, devices)


def together(reasons: Sequence[RequestWhy], explanations: Sequence[Explanation]) -> str:
    """Why requests that each fit somewhere do not fit together: devices needed per class against the most on a node."""
    need_by_class: dict[str, int] = {}
    for reason in reasons:
        if reason.mode == "ExactCount":
            need_by_class[reason.device_class] = need_by_class.get(reason.device_class, 0) + reason.count
    classes = {(r.claim, r.request): r.device_class for r in reasons}
    parts = []
    for class_name, needed in need_by_class.items():
        most = 0
        for explanation in explanations:
            usable = [r.usable for r in explanation.requests if classes.get((r.claim, r.request)) == class_name]
            most = max(most, max(usable, default=0))
        if needed > most:
            parts.append(f"{needed} devices of class {class_name} in total, at most {most} usable on one node")
    if parts:
        return "the pod's requests need " + "; ".join(parts)
    return "no node has devices that satisfy all requests and constraints at once"
