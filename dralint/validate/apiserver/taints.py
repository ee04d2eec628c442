"""Device taints (ResourceSlice devices, DeviceTaintRule) and binding conditions."""

from __future__ import annotations

from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import FieldError, duplicate, go_slice, invalid, not_supported, required
from dralint.validate.apiserver.formats import label_name, label_value
from dralint.validate.apiserver.lists import check_list

MAX_BINDING_CONDITIONS = 4


def taint_errors(taint: Any, path: Path, b: Behaviour) -> list[FieldError]:
    """``validateDeviceTaint``: key a label name, value a label value, effect required and known."""
    out = label_name(
        read.text(taint, "key"), (*path, "key"), hint="name the taint like a label, e.g. `example.com/unhealthy`"
    )
    value = read.text(taint, "value")
    if value:
        out += label_value(value, (*path, "value"))
    effect = read.text(taint, "effect")
    if not effect:
        out.append(required((*path, "effect"), hint="set effect to " + ", ".join(b.taint_effects)))
    elif effect not in b.taint_effects:
        out.append(not_supported((*path, "effect"), effect, b.taint_effects))
    return out


def binding_conditions(owner: Any, path: Path, b: Behaviour) -> list[FieldError]:
    """``validateDeviceBindingParameters`` for a device or an allocation result at ``path``."""
    conditions = read.opt_items(owner, "bindingConditions")
    failures = read.opt_items(owner, "bindingFailureConditions")
    ok = [c for c in conditions or [] if isinstance(c, str)]
    bad = [c for c in failures or [] if isinstance(c, str)]

    def name(value: Any, at: Path) -> list[FieldError]:
        return label_name(value if isinstance(value, str) else "", at)

    out = check_list(conditions or [], MAX_BINDING_CONDITIONS, name, (*path, "bindingConditions"), b)
    out += check_list(failures or [], MAX_BINDING_CONDITIONS, name, (*path, "bindingFailureConditions"), b)
    seen: set[str] = set()
    for index, condition in enumerate(ok):
        if condition in seen:
            out.append(duplicate((*path, "bindingConditions", index), condition))
        seen.add(condition)
    seen_failures: set[str] = set()
    for index, condition in enumerate(bad):
        if condition in seen_failures:
            out.append(duplicate((*path, "bindingFailureConditions", index), condition))
        seen_failures.add(condition)
        if condition in ok:
            out.append(
                invalid(
                    (*path, "bindingFailureConditions", index),
                    condition,
                    "bindingFailureConditions must not overlap with bindingConditions",
                    hint="a condition is either a success or a failure condition, not both",
                )
            )
    if not ok and bad:
        out.append(
            invalid(
                (*path, "bindingConditions"),
                go_slice("string", conditions),
                "bindingConditions are required to use bindingFailureConditions",
                hint="add the bindingConditions that signal success",
            )
        )
    if not bad and ok:
        out.append(
            invalid(
                (*path, "bindingFailureConditions"),
                go_slice("string", failures),
                "bindingFailureConditions are required to use bindingConditions",
                hint="add the bindingFailureConditions that signal failure",
            )
        )
    return out
