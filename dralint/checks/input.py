"""Defects of the input itself: syntax, encoding, templates, duplicate keys, size limits, half objects, bare lists."""

from __future__ import annotations

import json
from collections.abc import Iterator

from dralint.api.objects import Unidentified
from dralint.apimachinery.fieldpath import value_at
from dralint.checks.rule_ids import RuleId
from dralint.findings import Location, Violation
from dralint.pipeline.context import CheckContext
from dralint.read.issues import IssueKind
from dralint.read.scalars import int_text

RULE_OF_ISSUE: dict[IssueKind, RuleId] = {
    "syntax": RuleId.YAML_SYNTAX,
    "encoding": RuleId.FILE_ENCODING,
    "template": RuleId.UNRENDERED_TEMPLATE,
    "duplicate-key": RuleId.DUPLICATE_KEY,
    "too-large": RuleId.INPUT_TOO_LARGE,
    "too-deep": RuleId.INPUT_TOO_LARGE,
    "unreadable": RuleId.INPUT_TOO_LARGE,
    "render": RuleId.RENDER_FAILED,
}


def check(ctx: CheckContext) -> Iterator[Violation]:
    for file, issue in ctx.workspace.issues:
        yield Violation(
            RULE_OF_ISSUE[issue.kind],
            issue.message,
            hint=issue.hint,
            location=Location(file, issue.line, issue.column),
        )
    for broken in ctx.workspace.broken:
        yield _incomplete(broken)
    for document in ctx.workspace.list_documents:
        count = sum(1 for item in document.data if isinstance(item, dict))
        yield Violation(
            RuleId.DOCUMENT_IS_A_LIST,
            f"document is a YAML list of {count} object{'s' * (count != 1)}; kubectl expects one object per document",
            hint="separate the objects with --- lines, or wrap them in a List (kind: List, items: [...])",
            location=Location(document.file, *document.position(())),
        )


def _incomplete(broken: Unidentified) -> Violation:
    data = value_at(broken.document.data, broken.prefix)
    location = Location(broken.document.file, *broken.document.position(broken.prefix))
    if broken.missing == "object":
        return _not_an_object(broken, location)
    if broken.value is not None:
        location = Location(broken.document.file, *broken.document.position((*broken.prefix, broken.missing)))
        message = f"{broken.missing} must be a non-empty string, not {_shown(broken.value)}"
        hint = f"write {broken.missing} as a string such as {_EXAMPLE[broken.missing]}"
        return Violation(RuleId.INCOMPLETE_OBJECT, message, hint=hint, location=location)
    other = "kind" if broken.missing == "apiVersion" else "apiVersion"
    message = f"object has {other} but no {broken.missing}"
    hint = f"add {broken.missing}"
    if isinstance(data, dict) and other not in data:  # an item of an untyped List with neither
        message = "List item has neither apiVersion nor kind"
        hint = "give the item apiVersion and kind, or remove it"
    misspelt = (
        [k for k in data if isinstance(k, str) and k.lower() == broken.missing.lower()]
        if isinstance(data, dict)
        else []
    )
    if misspelt:
        location = Location(broken.document.file, *broken.document.position((*broken.prefix, misspelt[0])))
        message = f"object has {other} but no {broken.missing}: field names are case-sensitive"
        hint = f"rename {misspelt[0]} to {broken.missing}"
    return Violation(RuleId.INCOMPLETE_OBJECT, message, hint=hint, location=location)


def _not_an_object(broken: Unidentified, location: Location) -> Violation:
    """A List item (or a List's ``items``) that is a plain value: kubectl cannot decode the List."""
    shown = _shown(broken.value)
    if broken.prefix[-1] == "items":
        return Violation(
            RuleId.INCOMPLETE_OBJECT,
            f"items of a List must be a list of objects, not {shown}",
            hint="write each object as an item: `items:` then `- apiVersion: ...`",
            location=location,
        )
    return Violation(
        RuleId.INCOMPLETE_OBJECT,
        f"List item {broken.prefix[-1]} is {shown}, not an object",
        hint="remove the item, or write the object it stands for",
        location=location,
    )


_EXAMPLE = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim"}


def _shown(value: object) -> str:
    """A value as JSON writes it; an integer too wide to read is shown by its size."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int_text(value)
    return json.dumps(value, default=str)
