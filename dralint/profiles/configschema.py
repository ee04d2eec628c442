"""The JSON schema of a configuration kind in a user's driver profile, checked once when the profile loads.

Every claim's opaque parameters are validated with it (:mod:`dralint.validate.userschema`:
dralint's compiled validator, or jsonschema for the keywords that one does not implement), and
neither may meet a schema it cannot finish with: a hang or an internal error on some claim
would be the profile's fault, reported far from it. So the profile is refused (exit 2, at the
keyword's position) when its schema

- is not a Draft 2020-12 JSON schema (the meta-schema says; its ``regex`` format, which is
  Python's ``re``, excepted: RE2 judges patterns);
- has a pattern RE2 refuses (a backreference, a lookaround): patterns are matched in linear
  time (:func:`dralint.validate.usercompiled.compile_pattern`), never by a backtracking engine;
- combines ``unevaluatedProperties`` with ``patternProperties``: jsonschema, which validates the
  former, matches the patterns of the latter with Python's ``re`` itself;
- has a ``$ref`` or ``$dynamicRef`` that does not lead to a schema of the schema itself: a
  pointer or an anchor that is not there, or another document. Nothing is fetched, ever:
  loading a profile must not make dralint read a file or the network;
- has references that lead back where they start without descending into a property, an item
  or a key: validating would never end. A reference reached through ``properties`` or ``items``
  is a recursive type (a tree), and finite parameters end it: that one is fine.

References resolve as jsonschema resolves them (the ``referencing`` library, with the base
URIs of ``$id``), so that what passes here is what the validators meet.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from referencing._core import Resolver  # not exported, but what Registry.resolver gives

__all__ = ["SchemaDefect", "check"]


class SchemaDefect(Exception):
    """What is wrong with a configuration schema, and where: the path of the keyword from the schema's root."""

    def __init__(self, path: Path, message: str):
        super().__init__(message)
        self.path = path
        self.message = message


# The keywords whose values hold subschemas (those jsonschema applies and referencing crawls),
# as one schema, a list of them or a map of names to them; true when the subschema applies to
# the value itself, false when to a part of it (a property, an item, a key) or to nothing ($defs).
_ONE = {
    "not": True,
    "if": True,
    "then": True,
    "else": True,
    "items": False,
    "additionalProperties": False,
    "unevaluatedItems": False,
    "unevaluatedProperties": False,
    "contains": False,
    "propertyNames": False,
    "contentSchema": False,
}
_LIST = {"allOf": True, "anyOf": True, "oneOf": True, "prefixItems": False}
_MAP = {"dependentSchemas": True, "properties": False, "patternProperties": False, "$defs": False, "definitions": False}
_REFERENCES = ("$ref", "$dynamicRef")  # jsonschema resolves $dynamicRef as it does $ref

_NO_LINEAR_TIME = "dralint matches patterns in linear time, without backreferences or lookaround"
_BACKTRACKS = "jsonschema, which validates the former for dralint, would match the patterns by backtracking"


@dataclass(frozen=True, slots=True)
class _Step:
    """From one schema to another that applies to the same value: a subschema in place, or a reference."""

    at: Path  # the subschema, or the keyword of the reference
    target: int  # the id of the schema it leads to
    reference: str = ""  # the reference as written (``$ref '#/$defs/a'``); empty for a subschema


def check(schema: Mapping[str, Any]) -> None:
    """Raise :class:`SchemaDefect` for the first defect of ``schema`` (see the module's documentation)."""
    _check_meta(schema)
    located: dict[int, Path] = {}  # every schema object of the document: id -> path
    steps: dict[int, list[_Step]] = {}
    references: list[tuple[int, _Step]] = []  # (from where, the reference): its target is known once all are
    unevaluated: list[Path] = []  # the schemas with unevaluatedProperties
    pattern_properties = False  # whether any schema has patternProperties
    for node, path, resolver in _schemas(schema):
        located[id(node)] = path
        _check_patterns(node, path)
        # true and false apply in place too, but lead nowhere: no step
        in_place = [(sub, at) for sub, at, here in _subschemas(node, path) if here and isinstance(sub, Mapping)]
        steps[id(node)] = [_Step(at, id(sub)) for sub, at in in_place]
        for keyword in _REFERENCES:
            step = _reference(resolver, node[keyword], (*path, keyword)) if keyword in node else None
            if step is not None:
                references.append((id(node), step))
        if "unevaluatedProperties" in node:
            unevaluated.append(path)
        pattern_properties = pattern_properties or "patternProperties" in node
    if unevaluated and pattern_properties:
        at = (*unevaluated[0], "unevaluatedProperties")
        raise SchemaDefect(at, f"unevaluatedProperties cannot be combined with patternProperties: {_BACKTRACKS}")
    for source, step in references:
        if step.target not in located:  # a mapping, but not where a schema is (#/x-note, #/properties)
            raise SchemaDefect(step.at, f"{step.reference} points at something that is not a schema")
        steps[source].append(step)
    _check_loops(located, steps)


# The dialect dralint validates with; a schema that names another one would be read with rules it
# does not follow (draft-04's exclusiveMaximum is a boolean, draft-07's items may be a list).
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _check_meta(schema: Mapping[str, Any]) -> None:
    from jsonschema import Draft202012Validator, FormatChecker  # 50-80 ms to import: only for a user's profile
    from jsonschema.exceptions import SchemaError

    # Patterns are RE2's to judge (_check_patterns), not Python's: the meta-schema's "regex" format
    # would refuse ECMA-262 that RE2 matches ((?<name>...), \p{L}) with a reason for another engine.
    formats = FormatChecker([name for name in Draft202012Validator.FORMAT_CHECKER.checkers if name != "regex"])
    try:
        Draft202012Validator.check_schema(schema, format_checker=formats)
    except SchemaError as error:
        raise SchemaDefect(tuple(error.absolute_path), f"not a valid JSON schema: {error.message}") from None
    declared = schema.get("$schema", DIALECT)  # a string: the meta-schema says so
    if declared.rstrip("#") != DIALECT:
        raise SchemaDefect(("$schema",), f"{declared!r} is not JSON Schema 2020-12, the dialect dralint validates with")


def _schemas(root: Mapping[str, Any]) -> Iterator[tuple[Mapping[str, Any], Path, Resolver[Any]]]:
    """Every schema object of the document, in document order, with its path and the resolver of its
    references (its base URI is that of the nearest ``$id``, as when jsonschema descends into it)."""
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    # A registry of this document alone: a reference to another one does not resolve, rather than being
    # fetched. Crawled once, here: a registry that is not crawls the whole document on each anchor it looks up.
    resource = DRAFT202012.create_resource(root)
    base = resource.id() or ""
    registry = Registry().with_resource(base, resource).crawl()
    pending: list[tuple[Mapping[str, Any], Path, Resolver[Any]]] = [(root, (), registry.resolver(base))]
    while pending:
        node, path, resolver = pending.pop()
        yield node, path, resolver
        children = [(sub, at) for sub, at, _ in _subschemas(node, path) if isinstance(sub, Mapping)]
        for sub, at in reversed(children):
            pending.append((sub, at, resolver.in_subresource(DRAFT202012.create_resource(sub))))


def _subschemas(node: Mapping[str, Any], path: Path) -> Iterator[tuple[Any, Path, bool]]:
    """(subschema, its path, whether it applies to the value itself) of each subschema of ``node``."""
    for key, value in node.items():
        if key in _ONE:
            yield value, (*path, key), _ONE[key]
        elif key in _LIST and isinstance(value, list):
            yield from ((sub, (*path, key, index), _LIST[key]) for index, sub in enumerate(value))
        elif key in _MAP and isinstance(value, Mapping):
            yield from ((sub, (*path, key, name), _MAP[key]) for name, sub in value.items())


def _check_patterns(node: Mapping[str, Any], path: Path) -> None:
    from dralint.validate.usercompiled import compile_pattern

    found: list[tuple[Path, Any]] = [((*path, "pattern"), node["pattern"])] if "pattern" in node else []
    found.extend(((*path, "patternProperties", key), key) for key in node.get("patternProperties", {}))
    for at, pattern in found:
        try:
            compile_pattern(pattern)
        except ValueError as error:
            raise SchemaDefect(at, f"pattern {pattern!r} is not supported (RE2: {error}); {_NO_LINEAR_TIME}") from None


def _reference(resolver: Resolver[Any], ref: str, at: Path) -> _Step | None:
    """The step of the reference ``ref`` (the keyword at ``at``) to the object it resolves to, if it resolves
    to one: to ``true`` or ``false``, schemas that lead nowhere, it is no step."""
    from referencing.exceptions import InvalidAnchor, NoSuchAnchor, PointerToNowhere, Unresolvable

    written = f"{at[-1]} {ref!r}"
    try:
        target = resolver.lookup(ref).contents
    except (NoSuchAnchor, InvalidAnchor):
        raise SchemaDefect(at, f"{written} names an anchor the schema does not declare") from None
    except (PointerToNowhere, ValueError, TypeError):
        # referencing follows a pointer with [] and int(): a step that is not there is one of these
        raise SchemaDefect(at, f"{written} points nowhere in the schema") from None
    except Unresolvable:
        outside = "a reference must point into the schema itself (dralint never fetches another document)"
        raise SchemaDefect(at, f"{written} is not in the schema: {outside}") from None
    if isinstance(target, bool):
        return None
    if not isinstance(target, Mapping):
        raise SchemaDefect(at, f"{written} points at something that is not a schema")
    return _Step(at, id(target), written)


def _check_loops(located: Mapping[int, Path], steps: Mapping[int, list[_Step]]) -> None:
    """Refuse the first loop (a depth-first search in document order) of steps that never descends into the value."""
    done: set[int] = set()
    for start in located:
        if start in done:
            continue
        nodes, steps_taken = [start], list[_Step]()  # the current walk: its schemas, and the steps between them
        walking, pending = {start}, [iter(steps[start])]
        while pending:
            step = next(pending[-1], None)
            if step is None:
                node = nodes.pop()
                walking.discard(node)
                done.add(node)
                pending.pop()
                if steps_taken:
                    steps_taken.pop()
            elif step.target in walking:
                first = nodes.index(step.target)
                _refuse_loop(located, nodes[first:], [*steps_taken[first:], step])
            elif step.target not in done:
                nodes.append(step.target)
                walking.add(step.target)
                steps_taken.append(step)
                pending.append(iter(steps[step.target]))


def _refuse_loop(located: Mapping[int, Path], nodes: list[int], loop: list[_Step]) -> NoReturn:
    """The defect of a loop (``loop[i]`` goes from ``nodes[i]`` to the next), told at its first reference:
    a loop of subschemas alone cannot be, a document is a tree."""
    first = next(index for index, step in enumerate(loop) if step.reference)
    order = [*nodes[first:], *nodes[:first], nodes[first]]
    chain = " -> ".join(_pointer(located[node]) for node in order)
    never = "without descending into a property, an item or a key: validating would never end"
    raise SchemaDefect(loop[first].at, f"{loop[first].reference} leads back here ({chain}) {never}")


def _pointer(path: Path) -> str:
    """A path as the JSON pointer of a reference (``#/$defs/a``)."""
    return "#" + "".join("/" + str(step).replace("~", "~0").replace("/", "~1") for step in path)
