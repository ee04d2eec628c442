"""Strict JSON-schema validation of one object against the schema of its kind in a release.

Strict as kubectl's default server-side field validation: unknown fields are errors. Every
error of a document is reported (not just the first), each at the path of the offending value
in the user's own shape, with a message that says what was expected and what was found,
never a dump of the schema. Decoding rules the API server applies before validation and that
JSON schema cannot express (quantities, integer widths, timestamps) are checked here too.

Validators are built lazily, once per (release, apiVersion, kind), by :mod:`dralint.validate.compiled`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from functools import cache
from typing import Any

from dralint import schemas
from dralint.api.versions import RELEASES
from dralint.apimachinery.fieldpath import Path, render
from dralint.apimachinery.quantity import QuantityError, parse_quantity
from dralint.dataclass import dataclass
from dralint.read.scalars import NumberText, int_text
from dralint.regex import compiled_on_first_use
from dralint.validate.compiled import Check, Compiler, Issue
from dralint.validate.jsontypes import TYPE_PHRASES, Problem, SchemaError, json_type, type_phrase

__all__ = ["Problem", "SchemaError", "Validator", "format_problem", "validate", "validator"]

_INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
# metav1.Time is decoded with Go's time.RFC3339 layout.
_rfc3339_re = compiled_on_first_use(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")

FORMATS = frozenset({"quantity", "int32", "int64", "date-time"})


def format_problem(fmt: str, instance: Any) -> str | None:
    """What is wrong with ``instance`` for ``fmt`` (formats whose violations the API server rejects when decoding)."""
    if fmt == "quantity":
        if isinstance(instance, str):
            try:
                parse_quantity(instance.strip())
            except QuantityError as error:
                return str(error)
        elif isinstance(instance, float) and not math.isfinite(instance):
            return "not a finite number"
    elif fmt in _INT_RANGES and isinstance(instance, (int, float)) and not isinstance(instance, bool):
        # An integer beyond int64 reaches the API server as a float64 (kubectl's JSON): still out of range.
        low, high = _INT_RANGES[fmt]
        if not low <= instance <= high:
            return f"out of range for {fmt}"
    elif fmt == "date-time" and isinstance(instance, str) and not _is_rfc3339(instance):
        return "not an RFC 3339 timestamp"
    return None


def _is_rfc3339(text: str) -> bool:
    if not _rfc3339_re().fullmatch(text):
        return False
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


@cache
def _compiler() -> Compiler:
    return Compiler(schemas.definitions(), format_problem, FORMATS)


@dataclass(frozen=True, slots=True, eq=False)
class Validator:
    """The compiled schema of one (release, apiVersion, kind)."""

    check: Check

    def issues(self, instance: Any) -> list[Issue]:
        out: list[Issue] = []
        self.check(instance, None, out)
        return out


@cache
def validator(release: str, api_version: str, kind: str) -> Validator | None:
    """The compiled validator of ``kind`` in ``api_version`` for ``release``; ``None`` if not stored."""
    name = schemas.root_name(release, api_version, kind)
    if name is None:
        return None
    return Validator(_compiler().definition(name))


Written = Callable[[Path], str | None]


def _not_written(path: Path) -> str | None:
    return None


def validate(
    release: str, api_version: str, kind: str, raw: Mapping[str, Any], *, written: Written = _not_written
) -> list[SchemaError]:
    """Every schema error of ``raw`` (an object of ``kind``), each once; the engine orders findings.

    ``written`` gives a plain scalar as the file spells it (``1e22``, ``0777``), for hints that
    tell the user to quote it: quoting the decoded value would change it.
    """
    compiled = validator(release, api_version, kind)
    if compiled is None:
        return []
    found: dict[tuple[Problem, Path, str], SchemaError] = {}
    for issue in compiled.issues(raw):
        for item in _explain(release, api_version, kind, issue, written):
            found.setdefault((item.problem, item.path, item.message), item)
    return list(found.values())


def _explain(release: str, api_version: str, kind: str, issue: Issue, written: Written) -> Iterator[SchemaError]:
    path = schemas.typed_path(release, api_version, kind, issue.path)
    instance = issue.instance
    schema = issue.schema
    if issue.keyword == "additionalProperties" and isinstance(instance, Mapping):
        declared = schemas.properties(schema)
        for name in instance:
            if name not in declared:
                field_path = (*path, name)
                yield SchemaError(
                    "unknown-field",
                    field_path,
                    f'unknown field "{render(field_path)}"',
                    _unknown_field_hint(release, api_version, kind, path, name, declared),
                )
    elif issue.keyword == "type":
        yield _wrong_type(path, issue.value, instance, schema, written(issue.path))
    elif issue.keyword == "required" and isinstance(instance, Mapping) and isinstance(issue.value, list):
        for name in issue.value:
            if name not in instance:
                yield SchemaError(
                    "missing-field",
                    path,
                    f'missing required field "{render((*path, name))}"',
                    f"add {name}",
                )
    elif issue.keyword == "format":
        yield _bad_format(path, str(issue.value), instance, issue.message)
    else:  # keywords the generated schemas do not use today (enum on apiVersion/kind is checked upstream)
        yield SchemaError("wrong-type", path, f"{render(path)} has an invalid value: {_show(instance)}")


def _show(value: Any) -> str:
    """A short rendering of a value for messages (scalars shown, containers only named)."""
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f'string "{text}"'
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"{json_type(value)} {int_text(value)}"
    if isinstance(value, float):
        return f"{json_type(value)} {value}"
    return type_phrase(value)


def _wrong_type(
    path: Path, expected: Any, instance: Any, schema: Mapping[str, Any], written: str | None = None
) -> SchemaError:
    fmt = schema.get("format")
    required = schema.get("required") or []
    names = [expected] if isinstance(expected, str) else list(expected)
    names = [TYPE_PHRASES[n] for n in names if n != "null"]
    if fmt == "quantity":
        wanted = "a quantity (string or number)"
    elif fmt == "int-or-string":
        wanted = "an integer or a string"
    else:
        wanted = " or ".join(names)
    got = json_type(instance)
    scalar = got in ("string", "integer", "number", "boolean")
    hint = None
    if names == ["a string"] and got == "boolean":
        hint = "quote the value: YAML reads unquoted y, n, yes, no, on and off as booleans"
    elif names == ["a string"] and scalar:
        hint = f'quote the value: "{written or _plain(instance)}"'
    elif names in (["an integer"], ["a number"]) and isinstance(instance, NumberText):
        # go-yaml kept the unquoted number as text because no float64 holds it.
        return SchemaError(
            "wrong-type", path, f"{render(path)} must be {wanted}, got {_show_number(instance)} that is out of range"
        )
    elif names in (["an integer"], ["a number"], ["a boolean"]) and got == "string":
        hint = "write the value without quotes"
    elif names == ["a list"] and got == "object":
        hint = "write a list: each item starts with '-'"
    elif names == ["a mapping"] and got == "array":
        hint = "write a mapping (key: value), not a list"
    elif names == ["a mapping"] and scalar and len(required) == 1:
        hint = f'write it as a mapping: "{required[0]}: {written or _plain(instance)}"'
    elif names == ["a mapping"] and scalar and path and isinstance(path[-1], int):
        hint = "each item of this list is a mapping of fields, not a plain value"
    elif names == ["a mapping"] and scalar:
        hint = "this field holds nested fields; check the indentation"
    return SchemaError("wrong-type", path, f"{render(path)} must be {wanted}, got {_show(instance)}", hint)


def _show_number(text: str) -> str:
    return f"number {text if len(text) <= 40 else text[:37] + '...'}"


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return int_text(value) if isinstance(value, int) else str(value)


def _bad_format(path: Path, fmt: str, instance: Any, detail: str) -> SchemaError:
    where = render(path)
    if fmt == "quantity":
        return SchemaError(
            "invalid-quantity",
            path,
            f"{where} is not a valid quantity: {_show(instance)}",
            "write a number with an optional suffix, such as 10Gi, 500m, 2 or 1e3",
        )
    if fmt == "date-time":
        return SchemaError(
            "invalid-format",
            path,
            f"{where} is not an RFC 3339 timestamp: {_show(instance)}",
            "write the time like 2025-01-31T12:00:00Z",
        )
    if fmt in _INT_RANGES:
        low, high = _INT_RANGES[fmt]
        return SchemaError(
            "invalid-format", path, f"{where} is {detail}: {_show(instance)}", f"use a value from {low} to {high}"
        )
    return SchemaError("invalid-format", path, f"{where} is {detail}: {_show(instance)}")


# --- hints for unknown fields ----------------------------------------------------------------

# Fields that moved between versions of the same kind (spec/api.md §2.3).
_GROUP_V1 = "resource.k8s.io/v1"
_FLAT_REQUEST = frozenset(
    {"deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity"}
)


def _unknown_field_hint(
    release: str, api_version: str, kind: str, parent: Path, name: str, declared: Mapping[str, Any]
) -> str | None:
    moved = _moved_field_hint(api_version, kind, parent, name, declared)
    if moved:
        return moved
    hints = []
    elsewhere = _other_release_hint(release, api_version, kind, (*parent, name))
    if elsewhere:
        hints.append(elsewhere)
    import difflib  # only when there is something to suggest a name for

    close = difflib.get_close_matches(name, list(declared), n=1, cutoff=0.75)
    if close:
        hints.append(f'did you mean "{close[0]}"?')
    return "; ".join(hints) or None


def _moved_field_hint(api_version: str, kind: str, parent: Path, name: str, declared: Mapping[str, Any]) -> str | None:
    version = api_version.rpartition("/")[2]
    in_request = _is_request(kind, parent)
    if name == "exactly" and in_request:
        return (
            f"{version} requests are flat: put the fields of exactly directly on the request, or use resource.k8s.io/v1"
        )
    if name in _FLAT_REQUEST and in_request and "exactly" in declared:
        return f"in {version} this field belongs under exactly"
    if name == "basic" and kind == "ResourceSlice" and parent[-2:-1] == ("devices",):
        return f"{version} devices have no basic wrapper: move its fields up onto the device"
    if name == "source" and parent[-2:-1] == ("resourceClaims",):
        return (
            "the source wrapper was removed in Kubernetes 1.31: "
            "put resourceClaimName or resourceClaimTemplateName directly on the entry"
        )
    return None


def _is_request(kind: str, parent: Path) -> bool:
    base: Path = ("spec", "spec") if kind == "ResourceClaimTemplate" else ("spec",)
    return len(parent) == len(base) + 3 and parent[: len(base) + 2] == (*base, "devices", "requests")


def _other_release_hint(release: str, api_version: str, kind: str, path: Path) -> str | None:
    having = [r for r in RELEASES if r != release and schemas.at_path(r, api_version, kind, path) is not None]
    if not having:
        return None
    later = [r for r in having if RELEASES.index(r) > RELEASES.index(release)]
    where = f"{api_version} {kind}"
    if later and len(later) == len(having):
        return f"{path[-1]} exists in {where} from Kubernetes {later[0]}"
    return f"{path[-1]} exists in {where} only in Kubernetes {_span(having)}"


def _span(releases: list[str]) -> str:
    return releases[0] if len(releases) == 1 else f"{releases[0]}-{releases[-1]}"
