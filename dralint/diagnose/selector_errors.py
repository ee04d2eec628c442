"""CEL runtime errors that DeviceClass and request selectors raise on inventory devices.

The scheduler evaluates class selectors on every candidate device of every driver, and request
selectors on the devices the class accepts; an error aborts scheduling of the pod. Each selector
is evaluated here on the same devices, in the same order of selectors (a ``false`` stops the
rest), and every selector that errors on some device is reported once, with the first device.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dralint.api import model
from dralint.api.objects import KubeObject
from dralint.api.requests import written_requests
from dralint.apimachinery.fieldpath import Path
from dralint.cel import CelError, CelRuntimeError, DeviceValue, Selector, compile_selector, device_value


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
            out.append(compile_selector(selector.cel.expression) if selector.cel is not None else None)
        except CelError:
            out.append(None)  # compile errors are reported by the CEL checks
    return out


def evaluate(
    selectors: Sequence[model.DeviceSelector], devices: Sequence[Candidate]
) -> tuple[list[Candidate], dict[int, tuple[str, Candidate, int, int]]]:
    """Devices all selectors accept, and per erroring selector (first message, first device, failing, evaluated)."""
    compiled = _compile(selectors)
    passed: list[Candidate] = []
    errors: dict[int, tuple[str, Candidate, int, int]] = {}
    evaluated = [0] * len(compiled)
    for candidate in devices:
        ok = True
        for index, selector in enumerate(compiled):
            if selector is None:
                ok = False
                break
            evaluated[index] += 1
            try:
                if not selector.matches(candidate.value):
                    ok = False
                    break
            except CelRuntimeError as error:
                first = errors.get(index)
                errors[index] = (error.message, candidate, 1, 0) if first is None else (*first[:2], first[2] + 1, 0)
                ok = False
                break
        if ok:
            passed.append(candidate)
    return passed, {i: (m, c, n, evaluated[i]) for i, (m, c, n, _) in errors.items()}


def find(
    classes: Sequence[tuple[model.DeviceClass, KubeObject]],
    claims: Sequence[tuple[model.ResourceClaimSpec, KubeObject, Path]],
    slices: Sequence[model.ResourceSlice],
) -> Iterator[SelectorError]:
    """Runtime errors of class selectors on all devices, and of request selectors on the devices their class accepts."""
    devices = candidates(slices)
    accepted: dict[str, list[Candidate]] = {}
    for device_class, obj in classes:
        passed, errors = evaluate(device_class.selectors, devices)
        accepted[device_class.name] = passed
        for index, (message, first, failing, evaluated) in sorted(errors.items()):
            owner = f"DeviceClass {device_class.name}"
            yield SelectorError(
                obj,
                ("spec", "selectors", index, "cel", "expression"),
                index,
                _expression(device_class.selectors[index]),
                owner,
                message,
                first.name,
                failing,
                evaluated,
            )
    for request in written_requests(claims):
        part = request.spec
        pool = accepted.get(part.device_class_name)
        if pool is None or not part.selectors:
            continue
        _, errors = evaluate(part.selectors, pool)
        for index, (message, first, failing, evaluated) in sorted(errors.items()):
            yield SelectorError(
                request.obj,
                (*request.path, "selectors", index, "cel", "expression"),
                index,
                _expression(part.selectors[index]),
                request.owner,
                message,
                first.name,
                failing,
                evaluated,
            )


def _expression(selector: model.DeviceSelector) -> str:
    return selector.cel.expression if selector.cel is not None else ""
