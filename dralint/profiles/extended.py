"""Read the parts of a profile that tie a driver to device plugins: its DeviceClasses and extended resources.

``deviceClasses`` are the DeviceClasses the driver's deployment installs (the kinds of device each
selects, the extended resource it names); ``extendedResources`` the resources device plugins
advertise for the same hardware (``nvidia.com/gpu``, ``nvidia.com/mig-{profile}``), each with the
kinds and attribute values of the devices it stands for. ``dralint migrate`` reads them; anything
they name that the profile does not declare is a :class:`~dralint.errors.ConfigError` at its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from dralint.apimachinery.fieldpath import Path
from dralint.errors import ConfigError
from dralint.profiles.model import ExtendedResource, ProfileClass, Published, QualifiedName
from dralint.read import userfile

__all__ = ["device_classes", "extended_resources", "placeholder_text"]

# One placeholder, a lower-case word in braces: nvidia.com/mig-{profile}.
_PLACEHOLDER = re.compile(r"\{([a-z][a-zA-Z0-9]*)\}")

Qualify = Callable[[str], QualifiedName]


def device_classes(spec: Mapping[str, Any]) -> tuple[ProfileClass, ...]:
    """The ``deviceClasses`` of a profile's spec (their kinds and releases checked by the loader)."""
    return tuple(
        ProfileClass(
            entry["name"],
            frozenset(entry["deviceKinds"]) if "deviceKinds" in entry else None,
            entry.get("extendedResourceName"),
            entry.get("since"),
        )
        for entry in spec.get("deviceClasses", ())
    )


def extended_resources(
    file: userfile.UserFile,
    spec: Mapping[str, Any],
    attributes: Mapping[QualifiedName, Published],
    classes: Sequence[ProfileClass],
    qualify: Qualify,
    *,
    validate: bool,
) -> tuple[ExtendedResource, ...]:
    """The ``extendedResources`` of a profile's spec (their kinds checked by the loader)."""
    out = []
    for index, entry in enumerate(spec.get("extendedResources", ())):
        at: Path = ("spec", "extendedResources", index)
        name: str = entry["name"]
        placeholders = _PLACEHOLDER.findall(name)
        if len(placeholders) > 1 or name.count("{") != len(placeholders):
            raise ConfigError(f"{file.where((*at, 'name'))}: a name has at most one placeholder, written {{word}}")
        if placeholders and "values" not in entry:
            raise ConfigError(f"{file.where(at)}: {name} has a placeholder: say which texts it stands for in values")
        if validate and "values" in entry:
            _compiles(file, (*at, "values"), entry["values"])
        match: dict[QualifiedName, str] = {}
        for written, value in entry.get("match", {}).items():
            qualified = qualify(written)
            if qualified not in attributes:
                where = file.where((*at, "match", written))
                raise ConfigError(f"{where}: attribute {written} is not declared in the profile's attributes")
            match[qualified] = str(value)
        resource = ExtendedResource(
            name=name,
            device_kinds=frozenset(entry["deviceKinds"]) if "deviceKinds" in entry else None,
            values=entry.get("values"),
            match=match,
            class_name=entry.get("className"),
            unmapped=entry.get("unmapped"),
            description=entry.get("description", ""),
            source=entry.get("source", ""),
        )
        named = any(c.extended_resource_name == name for c in classes)
        if resource.unmapped is None and resource.class_name is None and not named:
            raise ConfigError(
                f"{file.where(at)}: {name} needs a className (no class of deviceClasses names it), or unmapped"
            )
        out.append(resource)
    return tuple(out)


def placeholder_text(entry: ExtendedResource, resource: str) -> str | None:
    """The text ``resource`` gives the placeholder of ``entry`` (``""`` when ``entry`` names one resource,
    which it must equal); ``None`` when ``resource`` is not one of ``entry``'s."""
    placeholder = entry.placeholder
    if placeholder is None:
        return "" if resource == entry.name else None
    prefix, suffix = entry.name.split(f"{{{placeholder}}}")
    if len(resource) <= len(prefix) + len(suffix) or not (resource.startswith(prefix) and resource.endswith(suffix)):
        return None
    text = resource[len(prefix) : len(resource) - len(suffix)]
    return text if entry.values is not None and _program(entry.values).fullmatch(text) is not None else None


@lru_cache(maxsize=256)
def _program(pattern: str) -> Any:
    """The RE2 program of ``pattern``; a ``ValueError`` with RE2's reason when it has none."""
    import re2  # only for names with a placeholder

    options = re2.Options()
    options.log_errors = False  # the reason is in the exception, not on standard error
    try:
        return re2.compile(pattern, options)
    except re2.error as error:
        reason = error.args[0] if error.args else error
        raise ValueError(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None


def _compiles(file: userfile.UserFile, at: Path, pattern: str) -> None:
    try:
        _program(pattern)
    except ValueError as error:
        raise ConfigError(f"{file.where(at)}: not a regular expression RE2 takes: {error}") from None
