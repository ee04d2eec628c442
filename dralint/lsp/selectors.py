"""CEL selectors in the editor: what the inventory publishes for ``device.attributes["domain"].name``
(hover), and the domains and names to complete while typing one.

The facts come from the inventory's devices (the ResourceSlices, compact Inventories expanded);
attribute keys without a domain belong to their driver's domain, as in the CEL environment.
For a driver the inventory has no device of, they come from its driver profile (shipped or
configured), as the checks read selectors against profiles only for such drivers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import field

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode

from dralint.api import model
from dralint.dataclass import dataclass
from dralint.diagnose.hints import devices, qualified
from dralint.profiles.load import Profiles
from dralint.profiles.model import DriverProfile, Published, Table
from dralint.read.positions import char_positions
from dralint.read.yamldoc import Document, walk

Kind = str  # "attributes" or "capacity"

_REFERENCE = re.compile(
    r"""device\.(?P<kind>attributes|capacity)\s*\[\s*"(?P<domain>[^"]*)"\s*\]\s*"""
    r"""(?:\.\s*\??\s*(?P<dotted>[A-Za-z_][A-Za-z0-9_]*)|\[\s*"(?P<bracketed>[^"]*)"\s*\])"""
)
# What the text before the cursor can end with while a reference is being typed.
_TYPING_DOMAIN = re.compile(r"""device\.(?P<kind>attributes|capacity)\s*\[\s*"(?P<prefix>[^"]*)$""")
_TYPING_NAME = re.compile(
    r"""device\.(?P<kind>attributes|capacity)\s*\[\s*"(?P<domain>[^"]*)"\s*\]\s*"""
    r"""(?:\.\s*\??\s*(?P<dotted>[A-Za-z0-9_]*)|\[\s*"(?P<bracketed>[^"]*))$"""
)
_SHOWN_VALUES = 10


@dataclass(slots=True)
class Facts:
    """Per (kind, domain, name): the value types and how many devices have each value; and the driver
    profiles, for what drivers without devices in the inventory publish."""

    values: dict[tuple[Kind, str, str], dict[str, Counter[str]]] = field(default_factory=dict)
    profiles: Profiles | None = None
    drivers: set[str] = field(default_factory=set)  # the drivers the inventory has devices of

    def add(self, driver: str, device: model.Device) -> None:
        self.drivers.add(driver)
        for key, attribute in device.attributes.items():
            by_type = self.values.setdefault(("attributes", *qualified(key, driver)), {})
            by_type.setdefault(attribute.kind or "unset", Counter())[_shown(attribute.value)] += 1
        for key, capacity in device.capacity.items():
            by_type = self.values.setdefault(("capacity", *qualified(key, driver)), {})
            by_type.setdefault("quantity", Counter())[str(capacity.value)] += 1

    def profiled(self, kind: Kind) -> Iterator[tuple[DriverProfile, Published]]:
        """What the profiles of the drivers without devices in the inventory publish in ``kind``."""
        if self.profiles is None:
            return
        for driver in self.profiles.drivers():
            profile = self.profiles.get(driver) if driver not in self.drivers else None
            if profile is not None:
                yield from ((profile, published) for published in profile.published(_table(kind)).values())

    def domains(self, kind: Kind) -> list[str]:
        """The inventory's domains, then those only driver profiles publish in (each part sorted)."""
        known = {domain for k, domain, _ in self.values if k == kind}
        profiled = {published.domain for _, published in self.profiled(kind)} - known
        return sorted(known) + sorted(profiled)

    def names(self, kind: Kind, domain: str) -> list[str]:
        profiled = {published.name for _, published in self.profiled(kind) if published.domain == domain}
        return sorted({name for k, d, name in self.values if k == kind and d == domain} | profiled)

    def describe(self, kind: Kind, domain: str, name: str) -> str:
        """Markdown: the reference's types and values on the inventory's devices and in the driver profiles
        (or that nothing publishes it)."""
        title = f"**{domain}/{name}** ({'attribute' if kind == 'attributes' else 'capacity'})"
        by_type = self.values.get((kind, domain, name), {})
        profiled = [
            _from_profile(p, published) for p, published in self.profiled(kind) if published.qualified == (domain, name)
        ]
        if not by_type and not profiled:
            nor = ", nor does a driver profile" if self.profiles else ""
            return f"{title}\n\nno device of the inventory publishes it{nor}"
        lines = [title, ""]
        for type_name, counts in sorted(by_type.items()):
            devices = sum(counts.values())
            shown = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:_SHOWN_VALUES]
            values = ", ".join(f"`{value}` ({count})" for value, count in shown)
            more = f", and {len(counts) - _SHOWN_VALUES} more" if len(counts) > _SHOWN_VALUES else ""
            lines.append(f"- type `{type_name}` on {devices} device{'s' if devices != 1 else ''}: {values}{more}")
        lines += profiled
        return "\n".join(lines)


def facts(slices: Iterable[model.ResourceSlice], profiles: Profiles | None = None) -> Facts:
    out = Facts(profiles=profiles)
    for driver, device in devices(slices):
        out.add(driver, device)
    return out


def _table(kind: Kind) -> Table:
    return "attributes" if kind == "attributes" else "capacity"


def _from_profile(profile: DriverProfile, published: Published) -> str:
    """One list item of a hover: what the driver profile says of an attribute or capacity."""
    where = profile.origin.rsplit(":", 2)[0]  # the file, without the line and column of its document
    text = f"- type `{published.type}` in the driver profile of {profile.driver} ({where})"
    if published.values is not None:
        text += ": one of " + _listed(published.values)
    elif published.examples:
        text += ": for example " + _listed(published.examples)
    notes = []
    if published.device_kinds is not None:
        notes.append(f"devices of kind {', '.join(sorted(published.device_kinds))}")
    if published.optional:
        notes.append("not on every device")
    if published.since is not None:
        notes.append(f"since {published.since}")
    if published.until is not None:
        notes.append(f"until {published.until}")
    if notes:
        text += f" ({'; '.join(notes)})"
    if published.description:
        text += "\n  " + " ".join(published.description.split())
    return text


def _listed(values: Sequence[object]) -> str:
    shown = ", ".join(f"`{_shown(value)}`" for value in values[:_SHOWN_VALUES])
    return shown + (f", and {len(values) - _SHOWN_VALUES} more" if len(values) > _SHOWN_VALUES else "")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True, slots=True)
class Reference:
    kind: Kind
    domain: str
    name: str


def reference_at(text: str, offset: int) -> Reference | None:
    """The ``device.attributes["domain"].name`` (or capacity) reference of a CEL expression at ``offset``."""
    for match in _REFERENCE.finditer(text):
        if match.start() <= offset <= match.end():
            name = match.group("dotted") or match.group("bracketed") or ""
            return Reference(match.group("kind"), match.group("domain"), name)
    return None


@dataclass(frozen=True, slots=True)
class Completion:
    label: str
    detail: str
    replace_from: int  # how many characters before the cursor the label replaces


def completions(before: str, known: Facts) -> list[Completion]:
    """What may come at the end of ``before`` (the expression's text up to the cursor)."""
    typing = _TYPING_NAME.search(before)
    if typing is not None:
        kind, domain = typing.group("kind"), typing.group("domain")
        prefix = typing.group("dotted") if typing.group("dotted") is not None else typing.group("bracketed") or ""
        detail = "attribute" if kind == "attributes" else "capacity"
        return [
            Completion(name, f"{detail} of {domain}", len(prefix))
            for name in known.names(kind, domain)
            if name.startswith(prefix)
        ]
    typing = _TYPING_DOMAIN.search(before)
    if typing is not None:
        kind, prefix = typing.group("kind"), typing.group("prefix")
        return [
            Completion(domain, f"{kind} domain", len(prefix))
            for domain in known.domains(kind)
            if domain.startswith(prefix)
        ]
    return []


@dataclass(frozen=True, slots=True)
class Expression:
    """A CEL expression (the value of a ``cel: {expression: ...}`` field) and where it is written."""

    node: ScalarNode
    line_offset: int

    def contains(self, line: int, column: int) -> bool:
        start, end = self.node.start_mark, self.node.end_mark
        first, last = start.line + self.line_offset, end.line + self.line_offset
        return (first, start.column) <= (line, column) <= (last, end.column)

    @property
    def text(self) -> str:
        value: str = self.node.value
        return value

    def offset(self, lines: Sequence[str], line: int, column: int) -> int | None:
        """The character of the value at 0-based (``line``, ``column``) of the source, if the source maps to it."""
        start, end = self.node.start_mark, self.node.end_mark
        shift = self.line_offset
        positions = char_positions(
            lines, self.node.style, self.text, (start.line + shift, start.column), (end.line + shift, end.column)
        )
        if positions is None:
            return None
        for index, position in enumerate(positions):
            if position >= (line, column):
                return index
        return len(self.text)


def expression_at(documents: Iterable[Document], line: int, column: int) -> Expression | None:
    """The CEL expression written around 0-based (``line``, ``column``), if any."""
    for document in documents:
        root = document.tree()
        if root is None:
            continue
        for node in _expressions(root):
            expression = Expression(node, document.line_offset)
            if expression.contains(line, column):
                return expression
    return None


def _expressions(root: Node) -> Iterator[ScalarNode]:
    """The values of ``expression`` keys inside ``cel`` mappings (selectors and CEL policies)."""
    for node in walk(root):
        if not isinstance(node, MappingNode):
            continue
        for key, value in node.value:
            if isinstance(key, ScalarNode) and key.value == "cel" and isinstance(value, MappingNode):
                yield from (
                    inner
                    for inner_key, inner in value.value
                    if isinstance(inner_key, ScalarNode)
                    and inner_key.value == "expression"
                    and isinstance(inner, ScalarNode)
                )
