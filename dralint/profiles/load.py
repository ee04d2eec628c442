"""Read driver profiles: the ones dralint ships (``profiles/``) and the user's (``profiles:`` in the configuration).

A profile configures dralint, like a rule file: anything wrong with it (YAML, the schema
``schemas/profile.schema.json``, a device kind or release it names but does not declare, a
configuration schema the claims could not be validated with (:mod:`dralint.profiles.configschema`),
a rule that does not compile) is a :class:`~dralint.errors.ConfigError`
naming file, line and column. The shipped profiles are read one driver at a time, when a
manifest first names the driver (each file is named after its driver), so a run pays only for
the drivers its manifests use.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import field
from pathlib import Path as FilePath
from typing import Any

from dralint import data
from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.errors import ConfigError
from dralint.profiles import extended
from dralint.profiles.model import (
    ConfigKind,
    ConfigRule,
    DeviceKind,
    DriverProfile,
    Published,
    QualifiedName,
    RequestRule,
    Scalar,
    Sharing,
    Span,
)
from dralint.read import userfile
from dralint.read.yamldoc import decode
from dralint.validate import userschema

__all__ = ["Profiles", "builtin", "decode_shipped", "load", "parse"]

SCHEMA = "profile.schema.json"  # in schemas/
SUFFIXES = (".yaml", ".yml")


@dataclass(slots=True)
class Profiles:
    """The profiles of a run, by driver: the user's first, then the shipped ones (read when first asked for)."""

    user: Mapping[str, DriverProfile] = field(default_factory=dict)
    shipped: Mapping[str, FilePath] = field(default_factory=dict)  # driver -> file, not read yet
    pins: Mapping[str, str] = field(default_factory=dict)  # driver -> the release the cluster runs (driverVersions)
    _read: dict[str, DriverProfile | None] = field(default_factory=dict)

    def get(self, driver: str) -> DriverProfile | None:
        """The profile of ``driver``, if there is one."""
        found = self.user.get(driver)
        if found is not None:
            return found
        if driver not in self._read:
            path = self.shipped.get(driver)
            self._read[driver] = None if path is None else _shipped(path)
        return self._read[driver]

    def drivers(self) -> list[str]:
        """Every driver a profile describes, sorted."""
        return sorted({*self.user, *self.shipped})

    def __bool__(self) -> bool:
        return bool(self.user or self.shipped)


def builtin() -> dict[str, FilePath]:
    """The profiles dralint ships: driver -> file (``profiles/<driver>.yaml``)."""
    folder = data.folder("profiles")
    return {path.stem: path for path in sorted(folder.iterdir()) if path.suffix in SUFFIXES and path.is_file()}


def load(
    paths: Sequence[str],
    *,
    shipped: bool = True,
    max_bytes: int | None = None,
    pins: Mapping[str, str] | None = None,
) -> Profiles:
    """The shipped profiles (unless ``shipped`` is false) and those of ``paths`` (files, or folders of them).

    A user's profile of a driver replaces the shipped one; two user profiles of one driver are an
    error. ``pins`` name the release of a driver the cluster runs (``driverVersions``).
    """
    user: dict[str, DriverProfile] = {}
    for file in _files(paths):
        text = _read_text(FilePath(file), max_bytes)
        for profile in parse(file, text):
            earlier = user.get(profile.driver)
            if earlier is not None:
                second = f"a second profile of driver {profile.driver} (the first is {earlier.origin})"
                raise ConfigError(f"{profile.origin}: {second}")
            user[profile.driver] = profile
    return Profiles(user, builtin() if shipped else {}, dict(pins or {}))


def _files(paths: Iterable[str]) -> Iterator[str]:
    for path in paths:
        if os.path.isdir(path):
            yield from sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(SUFFIXES))
        else:
            yield path


def _read_text(path: FilePath, max_bytes: int | None = None) -> str:
    if max_bytes is None:
        return userfile.read_text(str(path), what="profile")
    return userfile.read_text(str(path), max_bytes=max_bytes, what="profile")


def _shipped(path: FilePath) -> DriverProfile | None:
    """A shipped profile, named as the repository names it: the same wherever dralint is installed.

    Read decoded ahead of time when it can be (``profiles/decoded.json``, see :mod:`dralint.data`).
    """
    name, text = f"profiles/{path.name}", _read_text(path)
    found = data.decoded("profiles", {path.name: text})
    if found is None:
        profiles = parse(name, text, validate=False)
    else:
        profiles = [
            _profile(userfile.UserFile(name, content, line=line, column=column), validate=False)
            for line, column, content in found[path.name]
        ]
    return next((p for p in profiles if p.driver == path.stem), None)


def decode_shipped(name: str, text: str) -> list[tuple[int, int, Any]]:
    """(line, column, data) of each document of a shipped profile: what ``decoded.json`` holds of it."""
    return [(*file.position(()), file.data) for file in _files_of(f"profiles/{name}", text)]


def parse(name: str, text: str, *, validate: bool = True) -> list[DriverProfile]:
    """Every profile of the YAML ``text`` (one per document); a defect is a :class:`ConfigError`.

    ``validate=False`` (the shipped profiles, which the tests validate) skips the JSON schema, the
    check of each configuration's schema and the compilation of its rules: jsonschema and the
    policy CEL environment cost a one-file check more than the rest of reading a profile.
    """
    schema = userschema.schema(SCHEMA)
    profiles = []
    for file in _files_of(name, text):
        if validate:
            userschema.validate(schema, file.data, file.where)
        profiles.append(_profile(file, validate=validate))
    return profiles


def _files_of(name: str, text: str) -> list[userfile.UserFile]:
    documents, issues = decode(name, text, templates=False)
    if issues:
        issue = issues[0]
        raise ConfigError(f"{name}:{issue.line}:{issue.column}: {issue.message}")
    return [userfile.UserFile(name, document.data, document) for document in documents]


def _profile(file: userfile.UserFile, *, validate: bool) -> DriverProfile:
    spec: Mapping[str, Any] = file.data["spec"]
    driver: str = spec["driver"]
    versions = tuple(spec.get("versions", ()))
    kinds = tuple(
        DeviceKind(
            k["name"], k.get("description", ""), {_qualified(n, driver): v for n, v in k.get("match", {}).items()}
        )
        for k in spec.get("deviceKinds", ())
    )
    kind_names = [k.name for k in kinds]
    attributes = _published(file, spec, "attributes", driver, versions, kind_names)
    capacities = _published(file, spec, "capacities", driver, versions, kind_names)
    for index, kind in enumerate(kinds):
        for name, value in kind.match.items():
            at: Path = ("spec", "deviceKinds", index, "match", _written(name, driver))
            attribute = attributes.get(name)
            if attribute is None:
                undeclared = f"device kind {kind.name} matches attribute {name[1]}, which the profile does not declare"
                raise ConfigError(f"{file.where(at)}: {undeclared}")
            if not _fits(attribute.type, value):
                raise ConfigError(f"{file.where(at)}: {value!r} is not a value of {attribute.type} attribute {name[1]}")
    configs: dict[tuple[str | None, str | None], tuple[ConfigKind, ...]] | None = None
    if "configs" in spec:
        configs = {}
        for index, entry in enumerate(spec["configs"]):
            config = _config(file, ("spec", "configs", index), entry, versions, kind_names, validate=validate)
            key = (config.api_version, config.kind) if config.api_version is not None else (None, None)
            earlier = configs.get(key, ())
            if any(_overlap(config, other, versions) for other in earlier):
                where = file.where(("spec", "configs", index))
                raise ConfigError(f"{where}: {config.title} is described twice for the same releases (since/until)")
            configs[key] = tuple(sorted((*earlier, config), key=lambda c: _release(c.since, versions, 0)))
    for section in ("deviceClasses", "extendedResources"):
        for index, entry in enumerate(spec.get(section, ())):
            _check_versions(file, ("spec", section, index), entry, versions)
            _check_kinds(file, ("spec", section, index), entry, kind_names)
    classes = extended.device_classes(spec)
    resources = extended.extended_resources(
        file, spec, attributes, classes, lambda name: _qualified(name, driver), validate=validate
    )
    return DriverProfile(
        driver=driver,
        origin=file.where(),
        device_kinds=kinds,
        attributes=attributes,
        capacities=capacities,
        configs=configs,
        versions=versions,
        description=spec.get("description", ""),
        unlisted=tuple(_spans(file, spec, versions)),
        sharing=tuple(_sharing(file, spec, versions, kind_names)),
        request_rules=tuple(_request_rules(file, spec, versions, kind_names, validate=validate)),
        shipped=not validate,  # only dralint's own profiles are read unvalidated (the tests validate them)
        device_classes=classes,
        extended_resources=resources,
    )


def _spans(file: userfile.UserFile, spec: Mapping[str, Any], versions: Sequence[str]) -> Iterator[Span]:
    for index, entry in enumerate(spec.get("unlistedAttributes", ())):
        _check_versions(file, ("spec", "unlistedAttributes", index), entry, versions)
        yield Span(entry.get("since"), entry.get("until"))


def _sharing(
    file: userfile.UserFile, spec: Mapping[str, Any], versions: Sequence[str], kinds: Sequence[str]
) -> Iterator[Sharing]:
    for index, entry in enumerate(spec.get("sharing", ())):
        at: Path = ("spec", "sharing", index)
        _check_versions(file, at, entry, versions)
        _check_kinds(file, at, entry, kinds)
        yield Sharing(
            consumers=entry["consumers"],
            span=Span(entry.get("since"), entry.get("until")),
            device_kinds=frozenset(entry["deviceKinds"]) if "deviceKinds" in entry else None,
            description=entry.get("description", ""),
            source=entry["source"],
        )


def _request_rules(
    file: userfile.UserFile, spec: Mapping[str, Any], versions: Sequence[str], kinds: Sequence[str], *, validate: bool
) -> Iterator[RequestRule]:
    for index, entry in enumerate(spec.get("requestRules", ())):
        at: Path = ("spec", "requestRules", index)
        when: Mapping[str, Any] = entry["when"]
        _check_versions(file, at, entry, versions)
        _check_kinds(file, (*at, "when"), when, kinds)
        if validate:
            _compile_conditions(file, (*at, "when"), when)
        yield RequestRule(
            message=entry["message"],
            admin_access=when.get("adminAccess"),
            config=when.get("config"),
            device_kinds=frozenset(when["deviceKinds"]) if "deviceKinds" in when else None,
            devices=when.get("devices"),
            hardware=entry.get("hardware", ""),
            span=Span(entry.get("since"), entry.get("until")),
            source=entry["source"],
        )


def _compile_conditions(file: userfile.UserFile, at: Path, when: Mapping[str, Any]) -> None:
    """The CEL of a request rule compiles: ``config`` over the parameters, ``devices`` as a selector."""
    from dralint.cel import CelCompileError, compile_selector
    from dralint.profiles.rules import compile_rule

    for key, compile_ in (("config", compile_rule), ("devices", compile_selector)):
        if key not in when:
            continue
        try:
            compile_(when[key])
        except CelCompileError as error:
            first = error.message.split("\n", 1)[0]
            raise ConfigError(f"{file.where((*at, key), error.offset)}: {first}") from None


def _release(name: str | None, versions: Sequence[str], default: int) -> int:
    return versions.index(name) if name is not None else default


def _overlap(a: ConfigKind, b: ConfigKind, versions: Sequence[str]) -> bool:
    """Whether two descriptions of one configuration kind claim a release in common."""
    last = len(versions)
    a_first, a_last = _release(a.since, versions, 0), _release(a.until, versions, last)
    b_first, b_last = _release(b.since, versions, 0), _release(b.until, versions, last)
    return a_first <= b_last and b_first <= a_last


def _qualified(name: str, driver: str) -> QualifiedName:
    domain, slash, short = name.rpartition("/")
    return (domain, short) if slash else (driver, name)


def _written(name: QualifiedName, driver: str) -> str:
    return name[1] if name[0] == driver else f"{name[0]}/{name[1]}"


_PYTHON_TYPES: dict[str, type] = {"string": str, "int": int, "bool": bool, "version": str}


def _fits(kind: str, value: Scalar) -> bool:
    """Whether ``value`` is a value of an attribute of type ``kind`` (of an item, for a list type)."""
    item = kind.removesuffix("s")
    if item == "int" and isinstance(value, bool):
        return False
    return isinstance(value, _PYTHON_TYPES.get(item, str))


def _published(
    file: userfile.UserFile,
    spec: Mapping[str, Any],
    key: str,
    driver: str,
    versions: Sequence[str],
    kinds: Sequence[str],
) -> dict[QualifiedName, Published]:
    out: dict[QualifiedName, Published] = {}
    for index, entry in enumerate(spec.get(key, ())):
        at: Path = ("spec", key, index)
        name = _qualified(entry["name"], driver)
        if name in out:
            raise ConfigError(f"{file.where((*at, 'name'))}: {entry['name']} is described twice")
        _check_versions(file, at, entry, versions)
        _check_kinds(file, at, entry, kinds)
        kind = entry.get("type", "quantity")
        for field_name in ("values", "examples"):
            for n, value in enumerate(entry.get(field_name, ()) if key == "attributes" else ()):
                if not _fits(kind, value):
                    raise ConfigError(
                        f"{file.where((*at, field_name, n))}: {value!r} is not a value of a {kind} attribute"
                    )
        out[name] = Published(
            domain=name[0],
            name=name[1],
            type=kind,
            device_kinds=frozenset(entry["deviceKinds"]) if "deviceKinds" in entry else None,
            optional=bool(entry.get("optional", False)),
            since=entry.get("since"),
            until=entry.get("until"),
            values=tuple(entry["values"]) if "values" in entry else None,
            examples=tuple(entry.get("examples", ())),
            description=entry.get("description", ""),
        )
    return out


def _check_versions(file: userfile.UserFile, at: Path, entry: Mapping[str, Any], versions: Sequence[str]) -> None:
    for bound in ("since", "until"):
        if bound in entry and entry[bound] not in versions:
            listed = ", ".join(versions) if versions else "none"
            raise ConfigError(f"{file.where((*at, bound))}: release {entry[bound]} is not in spec.versions ({listed})")


def _check_kinds(file: userfile.UserFile, at: Path, entry: Mapping[str, Any], kinds: Sequence[str]) -> None:
    for n, kind in enumerate(entry.get("deviceKinds", ())):
        if kind not in kinds:
            known = ", ".join(kinds) if kinds else "none: the profile declares no deviceKinds"
            raise ConfigError(f"{file.where((*at, 'deviceKinds', n))}: unknown device kind {kind} (known: {known})")


def _config(
    file: userfile.UserFile,
    at: Path,
    entry: Mapping[str, Any],
    versions: Sequence[str],
    kinds: Sequence[str],
    *,
    validate: bool,
) -> ConfigKind:
    _check_versions(file, at, entry, versions)
    _check_kinds(file, at, entry, kinds)
    if validate:
        from dralint.profiles.configschema import SchemaDefect, check

        try:
            check(entry["schema"])
        except SchemaDefect as defect:
            raise ConfigError(f"{file.where((*at, 'schema', *defect.path))}: {defect.message}") from None
    rules = tuple(_rule(file, (*at, "rules", n), rule, validate) for n, rule in enumerate(entry.get("rules", ())))
    return ConfigKind(
        api_version=entry.get("apiVersion"),
        kind=entry.get("kind"),
        schema=entry["schema"],
        rules=rules,
        device_kinds=frozenset(entry["deviceKinds"]) if "deviceKinds" in entry else None,
        description=entry.get("description", ""),
        since=entry.get("since"),
        until=entry.get("until"),
    )


def _rule(file: userfile.UserFile, at: Path, entry: Mapping[str, Any], validate: bool) -> ConfigRule:
    if validate:
        from dralint.cel import CelCompileError
        from dralint.profiles.rules import compile_rule

        try:
            compile_rule(entry["rule"])
        except CelCompileError as error:
            first = error.message.split("\n", 1)[0]
            raise ConfigError(f"{file.where((*at, 'rule'), error.offset)}: {first}") from None
    path = tuple(part for part in entry.get("path", "").split(".") if part)
    return ConfigRule(entry["rule"], entry["message"], path, entry.get("source", ""))
