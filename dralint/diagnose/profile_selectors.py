"""A CEL selector read against the profiles of the drivers it names: names they never publish, wrong types.

Kubernetes declares every attribute as a value of unknown type, so the API server accepts
``device.attributes["gpu.nvidia.com"].cudaComputeCapability >= "8.0"``; on a node the value is a
version and the comparison raises a runtime error, which stops the scheduling of the pod. With a
profile the type is known: each attribute the selector reads is replaced by a variable of the
published type and the expression is type-checked again, with cel-go's rules; every overload
that no longer resolves is a comparison that can never work on the driver's devices.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import field, replace

from dralint.cel.checker.check import check as check_types
from dralint.cel.checker.decls import Environment
from dralint.cel.checker.types import BOOL, INT, STRING, Type, format_type, list_of, optional_of
from dralint.cel.lib.semver import SEMVER
from dralint.cel.parser.nodes import Call, CreateList, Expr, Ident, Literal, substitute, walk
from dralint.cel.program import parsed_and_checked
from dralint.cel.selector_paths import pinned_driver
from dralint.dataclass import dataclass
from dralint.diagnose.device_kinds import Entry, entry_of
from dralint.profiles.load import Profiles
from dralint.profiles.model import DriverProfile, Published, Table
from dralint.suggest import closest

__all__ = [
    "Readings",
    "SelectorReading",
    "UnknownName",
    "UnpublishedValue",
    "WrongType",
    "correct_form",
    "describe",
    "read",
]

_TYPES: dict[str, Type] = {"string": STRING, "int": INT, "bool": BOOL, "version": SEMVER}
_TYPES |= {f"{name}s": list_of(item) for name, item in _TYPES.items()}  # list-typed attributes
_WORDS = {"string": "a string", "int": "an integer", "bool": "a boolean", "version": "a version"}
_WORDS |= {f"{name}s": f"a list of {word.split(' ', 1)[1]}s" for name, word in _WORDS.items()}
_ORDERING = {"_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">="}
_COMPARISONS = frozenset({*_ORDERING, "_==_", "_!=_", "@in"})
_PLACEHOLDER = "@profile"  # not an identifier CEL text can write


@dataclass(frozen=True, slots=True)
class UnknownName:
    """An attribute or capacity of a profiled driver's domain that the profile does not list."""

    table: Table
    domain: str
    name: str
    offset: int  # of the name in the expression
    suggestion: str | None


@dataclass(frozen=True, slots=True)
class WrongType:
    """An attribute used with an operand or function its published type has no overload for."""

    attribute: Published
    operator: str  # the CEL function: "_==_", "_<_", "startsWith", ...
    other: str | None  # the other operand's type, when there is one
    literal: Literal | None  # the other operand, when it is a literal
    offset: int  # of the operator (or of the literal that needs another form)
    raises: bool  # a runtime error (else the comparison is only ever false, or true for !=)


@dataclass(frozen=True, slots=True)
class UnpublishedValue:
    """A literal compared with an attribute whose values the profile lists, that is not one of them."""

    attribute: Published
    value: str | int | bool
    operator: str  # "_==_", "_!=_" or "@in"
    offset: int  # of the literal
    suggestion: str | None


@dataclass(frozen=True, slots=True)
class SelectorReading:
    """What the profiles say of one selector; ``expr`` is its syntax tree (None: it does not compile)."""

    expr: Expr | None
    drivers: tuple[str, ...] = ()  # the profiled drivers the selector is about
    unknown: tuple[UnknownName, ...] = ()
    mistyped: tuple[WrongType, ...] = ()
    unpublished: tuple[UnpublishedValue, ...] = ()


def read(expression: str, env: Environment, profiles: Profiles, skip: Collection[str] = ()) -> SelectorReading:
    """Read ``expression`` against ``profiles``, except the drivers of ``skip`` (the inventory has their devices)."""
    parsed, checked = parsed_and_checked(expression, env)
    if parsed.expr is None or checked is None or checked.issues:
        return SelectorReading(None)
    expr = parsed.expr
    pinned = pinned_driver(expr)
    entries = [e for node in walk(expr) if (e := entry_of(node, pinned)) is not None]
    domains = [pinned] if pinned is not None else list(dict.fromkeys(e.domain for e in entries))
    found: dict[str, DriverProfile] = {}
    for domain in domains:
        profile = profiles.get(domain) if domain not in skip else None
        if profile is not None:
            found[domain] = profile
    if not found:
        return SelectorReading(expr)
    unknown: list[UnknownName] = []
    typed: dict[int, Published] = {}
    for entry in entries:
        profile = profiles.get(entry.domain) if entry.domain not in skip else None
        if profile is None:
            continue
        table = entry.table
        published = profile.published(table).get((entry.domain, entry.name))
        if published is None:
            suggestion = closest(entry.name, profile.names_in(table, entry.domain))
            if suggestion is None and table == "attributes" and profile.may_publish_unlisted():
                continue  # something on the node may publish names the profile cannot list
            offset = _name_offset(expression, parsed.offsets.get(entry.node.id, 0), entry.name)
            unknown.append(UnknownName(table, entry.domain, entry.name, offset, suggestion))
        elif table == "attributes" and not entry.test_only:
            typed[entry.node.id] = published
    mistyped = list(_mistyped(expr, env, entries, typed, parsed.offsets)) if typed else []
    unpublished = list(_unpublished(expr, typed, parsed.offsets)) if typed else []
    return SelectorReading(expr, tuple(found), tuple(unknown), tuple(mistyped), tuple(unpublished))


def _unpublished(expr: Expr, typed: Mapping[int, Published], offsets: Mapping[int, int]) -> Iterator[UnpublishedValue]:
    """Literals compared (==, !=, in) with an attribute of a closed set of values that are not in the set."""
    for node in walk(expr):
        if not (isinstance(node, Call) and node.function in ("_==_", "_!=_", "@in") and len(node.args) == 2):
            continue
        left, right = node.args
        pairs = [(left, right)] if node.function == "@in" else [(left, right), (right, left)]
        for entry_node, other in pairs:
            published = typed.get(entry_node.id)
            if published is None or published.values is None or published.type not in ("string", "int", "bool"):
                continue
            literals = other.elements if node.function == "@in" and isinstance(other, CreateList) else (other,)
            for literal in literals:
                if not isinstance(literal, Literal) or not isinstance(literal.value, (str, int, bool)):
                    continue
                if any(type(v) is type(literal.value) and v == literal.value for v in published.values):
                    continue
                if type(literal.value) is not type(published.values[0]):
                    continue  # a wrong type, which DRA901 reports
                names = [v for v in published.values if isinstance(v, str)]
                guess = closest(literal.value, names) if isinstance(literal.value, str) else None
                yield UnpublishedValue(published, literal.value, node.function, offsets.get(literal.id, 0), guess)


def _name_offset(expression: str, start: int, name: str) -> int:
    found = expression.find(name, start)
    return found if found >= 0 else start


def _mistyped(
    expr: Expr, env: Environment, entries: list[Entry], typed: Mapping[int, Published], offsets: Mapping[int, int]
) -> Iterator[WrongType]:
    """The calls that stop type-checking once the attributes of ``typed`` (entry node id -> attribute) are typed."""
    placeholders: dict[int, Expr] = {}
    variables = dict(env.variables)
    by_name: dict[str, Published] = {}
    for entry in entries:
        published = typed.get(entry.node.id)
        if published is None:
            continue
        name = f"{_PLACEHOLDER}{entry.node.id}"
        placeholders[entry.node.id] = Ident(entry.node.id, name)
        kind = _TYPES[published.type]
        variables[name] = optional_of(kind) if entry.optional else kind
        by_name[name] = published
    rewritten = substitute(expr, placeholders)
    result = check_types(rewritten, replace(env, variables=variables))
    calls = {node.id: node for node in walk(rewritten) if isinstance(node, Call)}
    for issue in result.issues:
        call = calls.get(issue.node_id)
        if call is None:
            continue
        operands = ([call.target] if call.target is not None else []) + list(call.args)
        for position, operand in enumerate(operands):
            if not (isinstance(operand, Ident) and operand.name in by_name):
                continue
            others = [o for o in operands if o is not operand]
            other = others[0] if len(others) == 1 else None
            other_type = format_type(result.types[other.id]) if other is not None and other.id in result.types else None
            literal = other if isinstance(other, Literal) else None
            published = by_name[operand.name]
            # cel-go's equality is false between values of different types, except that a Kubernetes
            # value (a version) on the left refuses a foreign right operand with an error.
            equality = call.function in ("_==_", "_!=_", "@in")
            raises = not equality or (published.type == "version" and position == 0 and call.function != "@in")
            comparison = call.function in _COMPARISONS
            reform = literal is not None and comparison and _reformable(published, literal)
            at = offsets.get(literal.id if reform and literal is not None else call.id, 0)
            yield WrongType(published, call.function, other_type, literal, at, raises)
            break


def _reformable(published: Published, literal: Literal) -> bool:
    return correct_form(published, literal) is not None


def reformed(wrong: WrongType) -> str | None:
    """The other operand of a comparison written as a value of the attribute's type (not a function's argument)."""
    if wrong.literal is None or wrong.operator not in _COMPARISONS:
        return None
    return correct_form(wrong.attribute, wrong.literal)


def correct_form(published: Published, literal: Literal) -> str | None:
    """The literal written as a value of the attribute's type, when that reading is plain."""
    value = literal.value
    if published.type == "version" and isinstance(value, str):
        return f'semver("{_semver(value)}")'
    if published.type == "int" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return value.strip()
    if published.type == "string" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'"{value}"'
    if published.type == "bool" and isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower()
    return None


def _semver(text: str) -> str:
    """``8.0`` as a semantic version (8.0.0): Kubernetes' ``semver()`` wants three parts."""
    core = text.strip().lstrip("v")
    parts = core.split(".")
    if all(p.isdigit() for p in parts) and 0 < len(parts) < 3:
        core = ".".join(parts + ["0"] * (3 - len(parts)))
    return core


def describe(wrong: WrongType) -> tuple[str, str]:
    """(message, hint) for a wrong type, in the words of the rule's docs."""
    attribute = wrong.attribute
    subject = f'device.attributes["{attribute.domain}"].{attribute.name}'
    published = _WORDS[attribute.type]
    op = wrong.operator
    if op in ("_==_", "_!=_"):
        against = f"compared with {_article(wrong.other)}"
    elif op == "@in":
        against = f"looked up in {_article(wrong.other)}"
    elif op in _ORDERING:
        against = f"ordered ({_ORDERING[op]}) against {_article(wrong.other)}"
    else:
        name = op.strip("_").replace("_", " ") if op.startswith("_") else f"{op}()"
        against = f"passed to {name}" + (f" with {_article(wrong.other)}" if wrong.other else "")
    if wrong.raises:
        effect = "raises a CEL runtime error on the driver's devices, which stops the scheduling of the pod"
    elif op == "_!=_":
        effect = "is always true"
    else:
        effect = "is never true"
    what = "comparison" if op in _COMPARISONS else "call"
    message = f"{subject} is {published} in the {attribute.domain} profile, but {against}: the {what} {effect}"
    return message, _remedy(wrong, subject)


def _article(type_name: str | None) -> str:
    if type_name is None:
        return "another type"
    words = {"string": "a string", "int": "an integer", "bool": "a boolean", "double": "a double"}
    if type_name in words:
        return words[type_name]
    if type_name == "kubernetes.Semver":
        return "a version"
    if type_name == "kubernetes.Quantity":
        return "a quantity"
    return f"a value of type {type_name}"


def _remedy(wrong: WrongType, subject: str) -> str:
    attribute = wrong.attribute
    form = reformed(wrong)
    if attribute.type == "version":
        version = form or 'semver("1.2.3")'
        if wrong.operator in _ORDERING:
            return f"compare versions with compareTo: {subject}.compareTo({version}) {_ORDERING[wrong.operator]} 0"
        return f"write the version as {version}, e.g. {subject} == {version}"
    if form is not None:
        return f"write {form}, a value of the published type"
    if attribute.type.endswith("s"):
        return f"the driver publishes a list: test for an item with {subject}.includes(...)"
    return f"the driver publishes it as {_WORDS[attribute.type]}"


@dataclass(slots=True)
class Readings:
    """The selectors of one run read against the profiles, each distinct expression once."""

    env: Environment
    profiles: Profiles
    skip: frozenset[str] = frozenset()  # drivers the inventory has devices of: the inventory is their truth
    _readings: dict[str, SelectorReading] = field(default_factory=dict)

    def of(self, expression: str) -> SelectorReading:
        found = self._readings.get(expression)
        if found is None:
            found = self._readings[expression] = read(expression, self.env, self.profiles, self.skip)
        return found

    def kinds(self, driver: str, expressions: Sequence[str]) -> tuple[str, ...] | None:
        """The kinds of ``driver``'s devices all of ``expressions`` may select (None: the profile cannot tell)."""
        from dralint.diagnose.device_kinds import admitted

        profile = self.profiles.get(driver)
        exprs = [self.of(e).expr for e in expressions]
        if profile is None or any(e is None for e in exprs):
            return None
        return admitted([e for e in exprs if e is not None], profile)

    def drivers(self, expressions: Sequence[str]) -> tuple[str, ...]:
        """The profiled drivers ``expressions`` are about (the first one that names any)."""
        for expression in expressions:
            found = self.of(expression).drivers
            if found:
                return found
        return ()
