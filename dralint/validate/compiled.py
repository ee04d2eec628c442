"""A validator for the JSON-schema subset of the Kubernetes OpenAPI schemas, compiled into closures.

The generated schemas (``schemas/kubernetes.json.gz``) use eight keywords: ``type``, ``properties``,
``additionalProperties``, ``items``, ``required``, ``enum``, ``format`` and ``$ref``. Each schema
object becomes one closure that applies its keywords; ``$ref`` targets are compiled the first
time a value reaches them, so a one-file run compiles only the parts of a schema its objects
use. Why not jsonschema: on the corpus this is about ten times faster, and it imports nothing
(jsonschema and its dependencies cost 50-80 ms of start-up, a fifth of a pre-commit run).

Issues say what jsonschema's errors say (Draft 2020-12 semantics): the failing keyword, its
value, the instance and the schema object holding the keyword, and the absolute path; a test
compares both validators on the corpus and on mutated objects. The order of issues may differ
(jsonschema walks some keywords in set order); callers sort.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

# A path under construction: (parent trail, step), None at the root; turned into a tuple only
# for values that have an issue.
Trail = tuple[Any, str | int] | None
Check = Callable[[Any, Trail, list["Issue"]], None]
FormatCheck = Callable[[str, Any], "str | None"]  # (format, value) -> what is wrong, or None

KEYWORDS = frozenset({"type", "properties", "additionalProperties", "items", "required", "enum", "format", "$ref"})


@dataclass(frozen=True, slots=True)
class Issue:
    """One failed keyword, in jsonschema's terms (``validator``, ``validator_value``, ``instance``, ``schema``)."""

    keyword: str
    value: Any  # the keyword's value in the schema
    instance: Any
    schema: Mapping[str, Any]  # the schema object that holds the keyword
    path: Path  # where the instance is, from the root
    message: str = ""  # for ``format``: what is wrong with the value


def path_of(trail: Trail) -> Path:
    steps: list[str | int] = []
    while trail is not None:
        trail, step = trail
        steps.append(step)
    return tuple(reversed(steps))


class Compiler:
    """Compiles schemas whose ``$ref`` values are ``#/$defs/<name>`` into checks, each definition once.

    A subclass may implement more keywords (:mod:`dralint.validate.usercompiled`): it widens
    ``keywords`` and ``annotations`` (keywords that validate nothing) and extends ``_keyword``.
    """

    keywords: frozenset[str] = KEYWORDS
    annotations: frozenset[str] = frozenset({"description"})

    def __init__(
        self, definitions: Mapping[str, Mapping[str, Any]], formats: FormatCheck, known_formats: frozenset[str]
    ):
        self._definitions = definitions
        self._formats = formats
        self._known_formats = known_formats
        self._compiled: dict[str, Check] = {}

    def definition(self, name: str) -> Check:
        """The check of a named definition (compiled on first use; recursion is fine)."""
        found = self._compiled.get(name)
        if found is None:
            found = self._compiled[name] = self.compile(self._definitions[name])
        return found

    def compile(self, schema: Mapping[str, Any] | bool) -> Check:
        if schema is True:  # accepts everything
            return _accept
        if not isinstance(schema, Mapping):
            raise ValueError(f"unsupported JSON schema {schema!r}")
        unknown = [key for key in schema if key not in self.keywords and not self.is_annotation(key)]
        if unknown:
            raise ValueError(f"unsupported JSON-schema keywords {sorted(unknown)}")
        checks: list[Check] = []
        for key, value in schema.items():
            check = self._keyword(key, value, schema) if key in self.keywords else None
            if check is not None:
                checks.append(check)
        if not checks:
            return _accept
        if len(checks) == 1:
            return checks[0]
        fused = tuple(checks)

        def check_all(instance: Any, trail: Trail, out: list[Issue]) -> None:
            for check in fused:
                check(instance, trail, out)

        return check_all

    def is_annotation(self, key: str) -> bool:
        """Whether ``key`` is a keyword that validates nothing."""
        return key in self.annotations

    def _keyword(self, key: str, value: Any, schema: Mapping[str, Any]) -> Check | None:
        if key == "$ref":
            return self._ref(value)
        if key == "type":
            return _type(value, schema)
        if key == "properties":
            return self._properties(value)
        if key == "additionalProperties":
            return self._additional(value, schema)
        if key == "items":
            return None if value is True else self._items(value)
        if key == "required":
            return _required(value, schema)
        if key == "enum":
            return _enum(value, schema)
        if key == "format":
            return self._format(value, schema) if value in self._known_formats else None
        return None  # pragma: no cover - KEYWORDS is checked above

    def _ref(self, ref: str) -> Check:
        prefix = "#/$defs/"
        if not ref.startswith(prefix) or ref[len(prefix) :] not in self._definitions:
            raise ValueError(f"unsupported $ref {ref!r}")
        name = ref[len(prefix) :]
        compiled = self._compiled
        definition = self.definition

        def check_ref(instance: Any, trail: Trail, out: list[Issue]) -> None:
            target = compiled.get(name)
            if target is None:
                target = definition(name)
            target(instance, trail, out)

        return check_ref

    def _properties(self, properties: Mapping[str, Mapping[str, Any]]) -> Check:
        subs = {name: self.compile(sub) for name, sub in properties.items()}

        def check_properties(instance: Any, trail: Trail, out: list[Issue]) -> None:
            if isinstance(instance, dict):
                for name, value in instance.items():
                    sub = subs.get(name)
                    if sub is not None:
                        sub(value, (trail, name), out)

        return check_properties

    def _additional(self, additional: Any, schema: Mapping[str, Any]) -> Check | None:
        declared = schema.get("properties", {})
        if isinstance(additional, Mapping):
            sub = self.compile(additional)

            def check_values(instance: Any, trail: Trail, out: list[Issue]) -> None:
                if isinstance(instance, dict):
                    for name, value in instance.items():
                        if name not in declared:
                            sub(value, (trail, name), out)

            return check_values
        if additional is False:

            def check_none(instance: Any, trail: Trail, out: list[Issue]) -> None:
                if isinstance(instance, dict) and any(name not in declared for name in instance):
                    out.append(Issue("additionalProperties", False, instance, schema, path_of(trail)))

            return check_none
        return None

    def _items(self, items: Mapping[str, Any] | bool) -> Check:
        sub = self.compile(items)

        def check_items(instance: Any, trail: Trail, out: list[Issue]) -> None:
            if isinstance(instance, list):
                for index, value in enumerate(instance):
                    sub(value, (trail, index), out)

        return check_items

    def _format(self, fmt: str, schema: Mapping[str, Any]) -> Check:
        formats = self._formats

        def check_format(instance: Any, trail: Trail, out: list[Issue]) -> None:
            problem = formats(fmt, instance)
            if problem is not None:
                out.append(Issue("format", fmt, instance, schema, path_of(trail), problem))

        return check_format


def _accept(instance: Any, trail: Trail, out: list[Issue]) -> None:
    return None


def _type(types: str | Sequence[str], schema: Mapping[str, Any]) -> Check:
    names = frozenset([types] if isinstance(types, str) else types)
    unknown = names - {"null", "boolean", "integer", "number", "string", "object", "array"}
    if unknown:
        raise ValueError(f"unsupported JSON-schema types {sorted(unknown)}")
    # Draft 2020-12: booleans are not numbers, integral floats are integers.
    accepted: set[type] = set()
    if "null" in names:
        accepted.add(type(None))
    if "boolean" in names:
        accepted.add(bool)
    if "integer" in names or "number" in names:
        accepted.add(int)
    if "number" in names:
        accepted.add(float)
    if "string" in names:
        accepted.add(str)
    if "object" in names:
        accepted.add(dict)
    if "array" in names:
        accepted.add(list)
    exact = frozenset(accepted)
    integral_floats = "integer" in names and "number" not in names

    def check_type(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if type(instance) in exact or _subtype_ok(instance, names, integral_floats):
            return
        out.append(Issue("type", types, instance, schema, path_of(trail)))

    return check_type


def _subtype_ok(instance: Any, names: frozenset[str], integral_floats: bool) -> bool:
    """The slow path of ``type``: subclasses (OrderedDict, IntEnum, ...) and integral floats."""
    if isinstance(instance, bool):
        return "boolean" in names
    if isinstance(instance, float):
        return "number" in names or (integral_floats and instance.is_integer())
    if isinstance(instance, int):
        return "integer" in names or "number" in names
    if isinstance(instance, str):
        return "string" in names
    if isinstance(instance, dict):
        return "object" in names
    if isinstance(instance, list):
        return "array" in names
    return instance is None and "null" in names


def _required(names: Sequence[str], schema: Mapping[str, Any]) -> Check:
    wanted = tuple(names)

    def check_required(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if isinstance(instance, dict):
            for name in wanted:
                if name not in instance:
                    out.append(Issue("required", names, instance, schema, path_of(trail)))

    return check_required


def _enum(values: Sequence[Any], schema: Mapping[str, Any]) -> Check:
    def check_enum(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if not any(json_equal(value, instance) for value in values):
            out.append(Issue("enum", values, instance, schema, path_of(trail)))

    return check_enum


def json_equal(one: Any, two: Any) -> bool:
    """JSON equality: booleans are not numbers, containers compare item by item."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(json_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(json_equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return one is two
    return bool(one == two)
