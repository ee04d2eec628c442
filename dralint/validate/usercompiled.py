"""The compiled validator with the keywords of dralint's own schemas and of drivers' configuration schemas.

jsonschema took 45 ms to import, and a validator of it more to build: a one-file check of a
claim with a driver's opaque configuration, and every run with a configuration file, paid
that to validate a few dozen values. :class:`UserCompiler` adds to :mod:`dralint.validate.compiled`
the keywords those schemas use, each reporting what jsonschema's Draft 2020-12 keyword reports:
the same keyword, value, instance, schema object, path, and message (``userschema`` shows the
message for keywords it has no words of its own for). A schema with any other keyword (or a
``false`` schema, a ``$ref`` outside the root's ``$defs``, a pattern RE2 cannot compile) is
refused with ``ValueError``, and ``userschema`` validates it with jsonschema, as before.

Patterns are matched with RE2 (:func:`compile_pattern`), here and in ``userschema``'s jsonschema
alike: Python's ``re`` backtracks, and a driver profile's ``^(a+)+$`` on a claim's ``aaa…a!``
hung the run. A profile whose pattern RE2 refuses (a backreference, a lookaround) is refused when
it loads (:mod:`dralint.profiles.configschema`), so that no claim ever meets one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from dralint.regex import compiled_on_first_use
from dralint.validate.compiled import KEYWORDS, Check, Compiler, Issue, Trail, json_equal, path_of

__all__ = ["UserCompiler", "compile_pattern", "compile_root"]

# Validate nothing, in jsonschema too ("$defs" is read through "$ref"; "then" and "else" through "if").
ANNOTATIONS = frozenset(
    {"description", "title", "examples", "default", "$comment", "$schema", "$defs", "then", "else", "deprecated"}
)

_Build = Callable[["UserCompiler", Any, Mapping[str, Any]], Check | None]


def compile_root(schema: Mapping[str, Any]) -> Check:
    """The check of a whole schema document (``$ref`` values point into its ``$defs``)."""
    if not isinstance(schema, Mapping):
        raise ValueError(f"unsupported JSON schema {schema!r}")
    definitions = schema.get("$defs", {})
    compiler = UserCompiler(definitions, _no_format, frozenset())
    # "$id" sets the base of references: harmless at the root, where "#/$defs/..." still means this document.
    check = compiler.compile({k: v for k, v in schema.items() if k != "$id"})
    # Each definition now, not when a value first reaches it: one with a keyword this compiler lacks
    # refuses the schema here (jsonschema validates it), not in the middle of validating a value.
    for name in definitions:
        compiler.definition(name)
    return check


def _no_format(fmt: str, value: Any) -> str | None:
    return None  # as jsonschema without a format checker: formats are annotations


class UserCompiler(Compiler):
    """A :class:`Compiler` for user-facing schemas; ``format`` is an annotation, as in jsonschema by default."""

    annotations = ANNOTATIONS

    def is_annotation(self, key: str) -> bool:
        return key in self.annotations or key.startswith("x-")  # extensions (x-message): jsonschema ignores them

    def _keyword(self, key: str, value: Any, schema: Mapping[str, Any]) -> Check | None:
        build = _BUILDERS.get(key)
        if build is not None:
            return build(self, value, schema)
        return super()._keyword(key, value, schema)

    def valid(self, schema: Any) -> Callable[[Any, Trail], bool]:
        """Whether an instance is valid under ``schema`` (jsonschema's ``is_valid``)."""
        check = self.compile(schema)

        def is_valid(instance: Any, trail: Trail) -> bool:
            found: list[Issue] = []
            check(instance, trail, found)
            return not found

        return is_valid


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bound(keyword: str, test: Callable[[Any, Any], bool], words: str) -> _Build:
    """minimum, maximum and their exclusive forms: a number beyond the bound."""

    def build(compiler: UserCompiler, bound: Any, schema: Mapping[str, Any]) -> Check:
        def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
            if _is_number(instance) and test(instance, bound):
                message = f"{instance!r} is {words} {bound!r}"
                out.append(Issue(keyword, bound, instance, schema, path_of(trail), message))

        return check

    return build


def _size(keyword: str, kind: type[str | list[Any] | dict[Any, Any]], too_many: bool) -> _Build:
    """minLength, maxLength, minItems, maxItems, minProperties, maxProperties, with jsonschema's words."""

    def build(compiler: UserCompiler, limit: int, schema: Mapping[str, Any]) -> Check:
        if too_many:
            words = "is expected to be empty" if limit == 0 else "is too long"
            if kind is dict:
                words = "is expected to be empty" if limit == 0 else "has too many properties"
        else:
            words = "should be non-empty" if limit == 1 else "is too short"
            if kind is dict and limit != 1:
                words = "does not have enough properties"

        def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
            if not isinstance(instance, kind):
                return
            if len(instance) > limit if too_many else len(instance) < limit:
                out.append(Issue(keyword, limit, instance, schema, path_of(trail), f"{instance!r} {words}"))

        return check

    return build


def _const(compiler: UserCompiler, const: Any, schema: Mapping[str, Any]) -> Check:
    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if not json_equal(instance, const):
            out.append(Issue("const", const, instance, schema, path_of(trail), f"{const!r} was expected"))

    return check


# ECMA-262's \uXXXX (JSON Schema patterns are ECMA-262 regular expressions) is RE2's \x{XXXX};
# any other escape (an escaped backslash first) is left as it is.
_ESCAPE = compiled_on_first_use(r"\\(?:u([0-9A-Fa-f]{4})|.)", re.DOTALL)

Search = Callable[[str], object]  # a string -> its first match, or None


@lru_cache(maxsize=1024)
def compile_pattern(pattern: str) -> Search:
    """The search of a JSON-schema ``pattern`` anywhere in a string (patterns are not anchored), in linear time.

    RE2 is closer to ECMA-262 than Python's ``re`` is (``\\d`` is ASCII, ``$`` is only the end);
    it has no backreferences nor lookaround: those are a ``ValueError`` naming RE2's reason.
    """
    import re2  # only for a schema with patterns

    options = re2.Options()
    options.log_errors = False  # the reason is in the exception, not on standard error
    try:
        return re2.compile(_ESCAPE().sub(_re2_escape, pattern), options).search  # type: ignore[no-any-return]
    except re2.error as error:
        reason = error.args[0] if error.args else error
        text = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
        raise ValueError(text) from None


def _re2_escape(escape: re.Match[str]) -> str:
    return f"\\x{{{escape[1]}}}" if escape[1] else escape[0]


def _pattern(compiler: UserCompiler, pattern: str, schema: Mapping[str, Any]) -> Check:
    search = compile_pattern(pattern)  # a ValueError refuses the schema

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if isinstance(instance, str) and search(instance) is None:
            message = f"{instance!r} does not match {pattern!r}"
            out.append(Issue("pattern", pattern, instance, schema, path_of(trail), message))

    return check


def _not(compiler: UserCompiler, negated: Any, schema: Mapping[str, Any]) -> Check:
    is_valid = compiler.valid(negated)

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if is_valid(instance, trail):
            message = f"{instance!r} should not be valid under {negated!r}"
            out.append(Issue("not", negated, instance, schema, path_of(trail), message))

    return check


def _if(compiler: UserCompiler, condition: Any, schema: Mapping[str, Any]) -> Check:
    holds = compiler.valid(condition)
    then = compiler.compile(schema["then"]) if "then" in schema else None
    otherwise = compiler.compile(schema["else"]) if "else" in schema else None

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        branch = then if holds(instance, trail) else otherwise
        if branch is not None:
            branch(instance, trail, out)

    return check


def _all_of(compiler: UserCompiler, subschemas: Sequence[Any], schema: Mapping[str, Any]) -> Check:
    checks = [compiler.compile(sub) for sub in subschemas]

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        for sub in checks:
            sub(instance, trail, out)

    return check


def _any_of(compiler: UserCompiler, subschemas: Sequence[Any], schema: Mapping[str, Any]) -> Check:
    valid = [compiler.valid(sub) for sub in subschemas]

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if not any(is_valid(instance, trail) for is_valid in valid):
            message = f"{instance!r} is not valid under any of the given schemas"
            out.append(Issue("anyOf", subschemas, instance, schema, path_of(trail), message))

    return check


def _one_of(compiler: UserCompiler, subschemas: Sequence[Any], schema: Mapping[str, Any]) -> Check:
    valid = [compiler.valid(sub) for sub in subschemas]

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        matching = [index for index, is_valid in enumerate(valid) if is_valid(instance, trail)]
        if not matching:
            message = f"{instance!r} is not valid under any of the given schemas"
            out.append(Issue("oneOf", subschemas, instance, schema, path_of(trail), message))
        elif len(matching) > 1:  # jsonschema names the later ones, then the first
            reprs = ", ".join(repr(subschemas[index]) for index in (*matching[1:], matching[0]))
            message = f"{instance!r} is valid under each of {reprs}"
            out.append(Issue("oneOf", subschemas, instance, schema, path_of(trail), message))

    return check


def _unique_items(compiler: UserCompiler, unique: bool, schema: Mapping[str, Any]) -> Check | None:
    if not unique:
        return None

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if isinstance(instance, list) and any(
            json_equal(a, b) for index, a in enumerate(instance) for b in instance[index + 1 :]
        ):
            message = f"{instance!r} has non-unique elements"
            out.append(Issue("uniqueItems", unique, instance, schema, path_of(trail), message))

    return check


def _property_names(compiler: UserCompiler, names: Any, schema: Mapping[str, Any]) -> Check:
    sub = compiler.compile(names)

    def check(instance: Any, trail: Trail, out: list[Issue]) -> None:
        if isinstance(instance, dict):
            for name in instance:
                sub(name, trail, out)  # a key is checked where its object is, as jsonschema reports it

    return check


_BUILDERS: dict[str, _Build] = {
    "const": _const,
    "pattern": _pattern,
    "minimum": _bound("minimum", lambda value, bound: value < bound, "less than the minimum of"),
    "maximum": _bound("maximum", lambda value, bound: value > bound, "greater than the maximum of"),
    "exclusiveMinimum": _bound(
        "exclusiveMinimum", lambda value, bound: value <= bound, "less than or equal to the minimum of"
    ),
    "exclusiveMaximum": _bound(
        "exclusiveMaximum", lambda value, bound: value >= bound, "greater than or equal to the maximum of"
    ),
    "minLength": _size("minLength", str, too_many=False),
    "maxLength": _size("maxLength", str, too_many=True),
    "minItems": _size("minItems", list, too_many=False),
    "maxItems": _size("maxItems", list, too_many=True),
    "minProperties": _size("minProperties", dict, too_many=False),
    "maxProperties": _size("maxProperties", dict, too_many=True),
    "not": _not,
    "if": _if,
    "allOf": _all_of,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "propertyNames": _property_names,
    "uniqueItems": _unique_items,
}
UserCompiler.keywords = KEYWORDS | frozenset(_BUILDERS)
