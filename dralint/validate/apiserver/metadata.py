"""``ObjectMeta`` validation: names, namespaces, labels and annotations (``ValidateObjectMeta``).

Also the ResourceClaimTemplate's embedded claim metadata, where only labels and annotations
may be set (``ValidateTemplateObjectMeta``). Every error belongs to the metadata rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dralint.apimachinery.fieldpath import Key, Path
from dralint.apimachinery.validation import (
    dns1123_label_errors,
    dns1123_subdomain_errors,
    label_value_errors,
    mask_trailing_dash,
    qualified_name_errors,
)
from dralint.validate.apiserver.errors import (
    METADATA,
    OWNER_REFERENCE,
    FieldError,
    GoValue,
    forbidden,
    invalid,
    required,
    retag,
    too_long,
)
from dralint.validate.apiserver.formats import label_name, suggest_label, suggest_subdomain

TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024
_TEMPLATE_ALLOWED = frozenset({"labels", "annotations"})


def object_meta(meta: Any, *, namespaced: bool, path: Path = ("metadata",)) -> list[FieldError]:
    """The metadata checks the API server runs on create (the namespace itself may be omitted)."""
    meta = meta if isinstance(meta, Mapping) else {}
    out: list[FieldError] = []
    name = meta.get("name")
    generate = meta.get("generateName")
    name = name if isinstance(name, str) else ""
    generate = generate if isinstance(generate, str) else ""
    if generate:
        # A generated name is the prefix plus random characters: a trailing '-' is fine.
        masked = mask_trailing_dash(generate)
        hint = f"use a DNS subdomain prefix, e.g. `{suggest_subdomain(generate)}-`"
        out.extend(invalid((*path, "generateName"), generate, m, hint=hint) for m in dns1123_subdomain_errors(masked))
    if not name and not generate:
        out.append(required((*path, "name"), "name or generateName is required", hint="set metadata.name"))
    elif name:
        hint = f"use lower-case letters, digits, '-' and '.', e.g. `{suggest_subdomain(name)}`"
        out.extend(invalid((*path, "name"), name, m, hint=hint) for m in dns1123_subdomain_errors(name))
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace:
        if namespaced:
            hint = f"a namespace name is a DNS label, e.g. `{suggest_label(namespace)}`"
            out.extend(invalid((*path, "namespace"), namespace, m, hint=hint) for m in dns1123_label_errors(namespace))
        else:
            out.append(
                forbidden(
                    (*path, "namespace"),
                    "not allowed on this type",
                    hint="remove metadata.namespace: the kind is cluster-scoped",
                )
            )
    out.extend(label_map(meta.get("labels"), (*path, "labels")))
    out.extend(annotation_map(meta.get("annotations"), (*path, "annotations")))
    return [*retag(out, METADATA), *owner_references(meta.get("ownerReferences"), (*path, "ownerReferences"))]


# Kinds that may not own anything (apimachinery's BannedOwners), as (group, version, kind).
_BANNED_OWNERS = frozenset({("", "v1", "Event")})


def owner_references(data: Any, path: Path) -> list[FieldError]:
    """``ValidateOwnerReferences``: each entry names apiVersion (with a version), kind, name and uid; at most one
    is the controller; Events own nothing."""
    out: list[FieldError] = []
    if not isinstance(data, list):
        return out
    controllers: list[str] = []
    for i, ref in enumerate(data):
        if not isinstance(ref, Mapping):
            continue
        at = (*path, i)
        api_version, kind = _text(ref, "apiVersion"), _text(ref, "kind")
        group, version = _group_version(api_version)
        hint = "copy the owner's apiVersion, kind, name and uid from the cluster (kubectl get -o yaml)"
        if not version:
            out.append(invalid((*at, "apiVersion"), api_version, "version must not be empty", hint=hint))
        for name in ("kind", "name", "uid"):
            if not _text(ref, name):
                out.append(invalid((*at, name), _text(ref, name), f"{name} must not be empty", hint=hint))
        if (group, version, kind) in _BANNED_OWNERS:
            detail = f"{group}/{version}, Kind={kind} is disallowed from being an owner"
            out.append(invalid(at, GoValue("metav1.OwnerReference{...}"), detail, hint="remove the reference"))
        if ref.get("controller") is True:
            controllers.append(_text(ref, "name"))
    if len(controllers) > 1:
        detail = (
            "Only one reference can have Controller set to true. "
            f'Found "true" in references for {controllers[0]} and {controllers[1]}'
        )
        out.append(
            invalid(
                path, GoValue("[]metav1.OwnerReference{...}"), detail, hint="set controller: true on one reference only"
            )
        )
    return retag(out, OWNER_REFERENCE)


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _group_version(api_version: str) -> tuple[str, str]:
    """``schema.ParseGroupVersion``, with an unparsable value read as no version at all."""
    if not api_version:
        return "", ""
    if api_version.count("/") > 1:
        return "", ""
    group, _, version = api_version.rpartition("/")
    return group, version


def label_map(data: Any, path: Path) -> list[FieldError]:
    """``ValidateLabels``: keys are qualified names, values label values (errors at the map's path)."""
    out: list[FieldError] = []
    if not isinstance(data, Mapping):
        return out
    for key, value in data.items():
        key_text = str(key)
        out.extend(_at_key(e, (*path, Key(key_text))) for e in label_name(key_text, path))
        if isinstance(value, str):
            hint = "use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
            out.extend(invalid(path, value, m, hint=hint, at=(*path, Key(key_text))) for m in label_value_errors(value))
    return out


def annotation_map(data: Any, path: Path) -> list[FieldError]:
    """``ValidateAnnotations``: keys are qualified names (case-insensitive), total size ≤ 256 KiB."""
    out: list[FieldError] = []
    if not isinstance(data, Mapping):
        return out
    total = 0
    for key, value in data.items():
        key_text = str(key)
        total += len(key_text.encode()) + (len(value.encode()) if isinstance(value, str) else 0)
        hint = "use `[prefix/]name` with a name of at most 63 letters, digits, '-', '_' or '.'"
        out.extend(
            invalid(path, key_text, m, hint=hint, at=(*path, Key(key_text)))
            for m in qualified_name_errors(key_text.lower())
        )
    if total > TOTAL_ANNOTATION_SIZE_LIMIT:
        out.append(too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT, hint="annotations may hold at most 256 KiB in total"))
    return out


def template_meta(meta: Any, path: Path) -> list[FieldError]:
    """``ValidateTemplateObjectMeta``: labels and annotations only; any other field is forbidden."""
    out: list[FieldError] = []
    if not isinstance(meta, Mapping):
        return out
    out.extend(annotation_map(meta.get("annotations"), (*path, "annotations")))
    out.extend(label_map(meta.get("labels"), (*path, "labels")))
    for key in sorted(str(k) for k in meta):
        if key not in _TEMPLATE_ALLOWED and _is_set(meta[key]):
            out.append(
                forbidden(
                    (*path, key),
                    "cannot be set",
                    hint="only labels and annotations of the generated claim can be set here",
                )
            )
    return retag(out, METADATA)


def _is_set(value: Any) -> bool:
    return value not in (None, "", 0, False) and value != [] and value != {}


def _at_key(error: FieldError, at: Path) -> FieldError:
    return replace(error, at=at)
