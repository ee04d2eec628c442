"""CEL runtime errors that DeviceClass and request selectors raise on inventory devices.

The scheduler evaluates class selectors on every candidate device of every driver, and request
selectors on the devices the class accepts; an error aborts scheduling of the pod. Each selector
is evaluated here on the same devices, in the same order of selectors (a ``false`` stops the
rest), and every selector that errors on some device is reported once, with the first device.
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.api import model
from dralint.api.objects import KubeObject
from dralint.api.requests import written_requests
from dralint.apimachinery.fieldpath import Path
from dralint.cel import CelError, CelRuntimeError, DeviceValue, Selector, compile_selector, device_value
from dralint.cel.dra import COST_LIMIT
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class SelectorError:
    obj: KubeObject
    path: Path  # of the expression, canonical
    index: int  # selector number
    expression: str
    owner: str  # "DeviceClass gpu.example.com" or "ResourceClaim ml/x request gpu"
    message: str  # the first runtime error
    device: str  # driver/pool/device it was raised on
    failing: int  # devices raising it
    evaluated: int  # devices the selector ran on
    offset: int | None = None  # where in the expression it is raised on that device


@dataclass(frozen=True, slots=True)
class Candidate:
    driver: str
    pool: str
    device: model.Device
    value: DeviceValue

    @property
    def name(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device.name}"


def candidates(slices: Sequence[model.ResourceSlice]) -> list[Candidate]:
    return [
        Candidate(s.driver, s.pool.name, device, device_value(s.driver, device)) for s in slices for device in s.devices
    ]


def _compile(selectors: Sequence[model.DeviceSelector]) -> list[Selector | None]:
    out: list[Selector | None] = []
    for selector in selectors:
        try:
            compiled = compile_selector(selector.cel.expression) if selector.cel is not None else None
        except CelError:
            compiled = None  # compile errors are reported by the CEL checks
        # A selector over the cost limit is rejected by the API server (DRA403): it never runs.
        out.append(compiled if compiled is not None and compiled.program.max_cost <= COST_LIMIT else None)
    return out


class BudgetExhausted(Exception):
    """``limits.maxSelectorEvaluations`` evaluations were spent."""


Outcome = tuple[list[Candidate], dict[int, tuple[str, Candidate, int, int]]]


class Evaluator:
    """Selectors on devices, each distinct (selector, device projection) evaluated once.

    Devices that agree on every value a selector reads get the same result from it, so the
    devices are grouped by the selector's projection (``Selector.paths``) and one device of each
    group is evaluated; the grouping of a device list is kept per projection, and the outcome
    of a whole selector list per device list, so thousands of claims over the same class and
    inventory cost one pass each (the dry-run's selector cache shares the same per-projection
    results through the compiled selectors).
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.evaluations = 0
        self._groups: dict[tuple[int, int, str | None], list[list[int]]] = {}
        self._outcomes: dict[tuple[int, tuple[str, ...]], Outcome] = {}

    def evaluate(self, selectors: Sequence[model.DeviceSelector], devices: Sequence[Candidate]) -> Outcome:
        """Devices all selectors accept, and per erroring selector (first message, first device, failing, evaluated)."""
        key = (id(devices), tuple(s.cel.expression if s.cel is not None else "" for s in selectors))
        found = self._outcomes.get(key)
        if found is None:
            found = self._outcomes[key] = self._evaluate(_compile(selectors), devices)
        return found

    def _evaluate(self, compiled: list[Selector | None], devices: Sequence[Candidate]) -> Outcome:
        alive: list[int] | None = None  # None: every device
        errors: dict[int, tuple[str, Candidate, int, int]] = {}
        for index, selector in enumerate(compiled):
            if selector is None:
                return [], errors
            accepted: list[int] = []
            first: tuple[int, str] | None = None
            failing = 0
            for group in self._grouped(selector, devices, alive):
                self.evaluations += 1
                if self.evaluations > self.budget:
                    raise BudgetExhausted
                try:
                    if selector.matches(devices[group[0]].value):
                        accepted.extend(group)
                except CelRuntimeError as error:
                    failing += len(group)
                    if first is None or group[0] < first[0]:
                        first = (group[0], error.message)
            if first is not None:
                evaluated = len(devices) if alive is None else len(alive)
                errors[index] = (first[1], devices[first[0]], failing, evaluated)
            alive = sorted(accepted)
        return [devices[i] for i in (range(len(devices)) if alive is None else alive)], errors

    def _grouped(self, selector: Selector, devices: Sequence[Candidate], alive: list[int] | None) -> list[list[int]]:
        """Indices of ``alive`` (all devices when None) grouped by what ``selector`` reads, in order."""
        paths = selector.paths
        if alive is not None or not paths.projectable:
            return _group(selector, devices, range(len(devices)) if alive is None else alive)
        key = (id(devices), paths.key_id, paths.driver)
        found = self._groups.get(key)
        if found is None:
            found = self._groups[key] = _group(selector, devices, range(len(devices)))
        return found


def _group(selector: Selector, devices: Sequence[Candidate], indices: Sequence[int]) -> list[list[int]]:
    paths = selector.paths
    if not paths.projectable:
        return [[i] for i in indices]
    groups: dict[object, list[int]] = {}
    for i in indices:
        value = devices[i].value
        projection = value.keys.get(paths.key_id)
        if projection is None:
            projection = value.keys[paths.key_id] = paths.key(value)
        pinned = paths.driver is None or value.driver == paths.driver
        groups.setdefault((value.error, pinned, projection), []).append(i)
    return list(groups.values())


@dataclass(frozen=True, slots=True)
class Stopped:
    """Where the evaluation stopped at ``limits.maxSelectorEvaluations``."""

    obj: KubeObject
    path: Path
    owner: str  # the first selectors' owner left unevaluated
    unchecked: int  # selector lists left unevaluated, that one included


@dataclass(frozen=True, slots=True)
class SelectorErrors:
    errors: list[SelectorError]
    stopped: Stopped | None


def find(
    classes: Sequence[tuple[model.DeviceClass, KubeObject]],
    claims: Sequence[tuple[model.ResourceClaimSpec, KubeObject, Path]],
    slices: Sequence[model.ResourceSlice],
    *,
    budget: int,
) -> SelectorErrors:
    """Runtime errors of class selectors on all devices, and of request selectors on the devices their class
    accepts, until ``budget`` evaluations (of one device per projection group) are spent."""
    devices = candidates(slices)
    evaluator = Evaluator(budget)
    accepted: dict[str, list[Candidate]] = {}
    # (selectors, their class, object, path, the class they define or None, owner for messages)
    work: list[tuple[Sequence[model.DeviceSelector], str, KubeObject, Path, str | None, str]] = [
        (c.selectors, "", obj, ("spec",), c.name, f"DeviceClass {c.name}") for c, obj in classes
    ]
    for request in written_requests(claims):
        part = request.spec
        work.append((part.selectors, part.device_class_name, request.obj, request.path, None, request.owner))
    errors: list[SelectorError] = []
    for position, (selectors, class_name, obj, path, defines, owner) in enumerate(work):
        pool = devices if defines is not None else accepted.get(class_name)
        if pool is None or (defines is None and not selectors):
            continue
        try:
            passed, failed = evaluator.evaluate(selectors, pool)
        except BudgetExhausted:
            return SelectorErrors(errors, Stopped(obj, (*path, "selectors"), owner, len(work) - position))
        if defines is not None:
            accepted[defines] = passed
        for index, (message, first, failing, evaluated) in sorted(failed.items()):
            errors.append(
                SelectorError(
                    obj,
                    (*path, "selectors", index, "cel", "expression"),
                    index,
                    _expression(selectors[index]),
                    owner,
                    message,
                    first.name,
                    failing,
                    evaluated,
                    _error_offset(selectors[index], first),
                )
            )
    return SelectorErrors(errors, None)


def _error_offset(selector: model.DeviceSelector, device: Candidate) -> int | None:
    """Where the selector's error arises on ``device`` (the part of the expression to point at)."""
    try:
        offset: int | None = compile_selector(_expression(selector)).error_offset(device.value)
    except CelError:
        return None
    return offset


def _expression(selector: model.DeviceSelector) -> str:
    return selector.cel.expression if selector.cel is not None else ""
