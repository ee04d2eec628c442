"""CEL selectors in the editor: what the inventory publishes for ``device.attributes["domain"].name``
(hover), and the domains and names to complete while typing one.

The facts come from the inventory's devices (the ResourceSlices, compact Inventories expanded);
attribute keys without a domain belong to their driver's domain, as in the CEL environment. A
driver without devices in the inventory is described by its profile, when there is one.
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
from dralint.profiles.model import DriverProfile, Table
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
    """Per (kind, domain, name): the value types and how many devices have each value."""

    values: dict[tuple[Kind, str, str], dict[str, Counter[str]]] = field(default_factory=dict)
    profiles: Profiles | None = None  # for the drivers the inventory has no device of

    def add(self, driver: str, device: model.Device) -> None:
        for key, attribute in device.attributes.items():
            by_type = self.values.setdefault(("attributes", *qualified(key, driver)), {})
            by_type.setdefault(attribute.kind or "unset", Counter())[_shown(attribute.value)] += 1
        for key, capacity in device.capacity.items():
            by_type = self.values.setdefault(("capacity", *qualified(key, driver)), {})
            by_type.setdefault("quantity", Counter())[str(capacity.value)] += 1

    def domains(self, kind: Kind) -> list[str]:
        """The inventory's domains, sorted."""
        return sorted({domain for k, domain, _ in self.values if k == kind})

    def profiled_domains(self, kind: Kind) -> list[str]:
        """The drivers the inventory has no device of whose profile lists names of ``kind``, sorted."""
        if self.profiles is None:
            return []
        table, known = _table(kind), {domain for _, domain, _ in self.values}
        out = []
        for driver in self.profiles.drivers():
            profile = self.profiles.get(driver) if driver not in known else None
            if profile is not None and profile.names_in(table, driver):
                out.append(driver)
        return out

    def names(self, kind: Kind, domain: str) -> list[str]:
        found = sorted({name for k, d, name in self.values if k == kind and d == domain})
        if found:
            return found
        profile = self._profile(domain)
        return profile.names_in(_table(kind), domain) if profile is not None else []

    def _profile(self, domain: str) -> DriverProfile | None:
        """The profile of ``domain``'s driver when the inventory has no device of it."""
        if self.profiles is None or any(d == domain for _, d, _ in self.values):
            return None
        return self.profiles.get(domain)

    def describe(self, kind: Kind, domain: str, name: str) -> str:
        """Markdown: the reference's types and values on the inventory's devices (or that no device has it),
        or what the driver's profile says of it."""
        title = f"**{domain}/{name}** ({'attribute' if kind == 'attributes' else 'capacity'})"
        by_type = self.values.get((kind, domain, name))
        profile = self._profile(domain)
        if by_type is None and profile is not None:
            return f"{title}\n\n{_profiled(profile, kind, domain, name)}"
        if by_type is None:
            return f"{title}\n\nno device of the inventory publishes it"
        lines = [title, ""]
        for type_name, counts in sorted(by_type.items()):
            devices = sum(counts.values())
            shown = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:_SHOWN_VALUES]
            values = ", ".join(f"`{value}` ({count})" for value, count in shown)
            more = f", and {len(counts) - _SHOWN_VALUES} more" if len(counts) > _SHOWN_VALUES else ""
            lines.append(f"- type `{type_name}` on {devices} device{'s' if devices != 1 else ''}: {values}{more}")
        return "\n".join(lines)


def _table(kind: Kind) -> Table:
    return "attributes" if kind == "attributes" else "capacity"


def _profiled(profile: DriverProfile, kind: Kind, domain: str, name: str) -> str:
    """Markdown: what ``profile`` says of an attribute or capacity (or that it does not list it)."""
    published = profile.published(_table(kind)).get((domain, name))
    where = f"the profile of {profile.driver} ({profile.origin})"
    if published is None:
        return f"{where} does not list it"
    lines = [f"from {where}:", ""]
    lines.append(f"- type `{published.type}`" if kind == "attributes" else "- a quantity")
    if published.device_kinds is not None:
        lines.append(f"- published by {', '.join(f'`{k}`' for k in sorted(published.device_kinds))} devices")
    if published.optional:
        lines.append("- not on every device: guard it with `has()` or `.?`")
    releases = [f"since {published.since}"] if published.since else []
    releases += [f"until {published.until}"] if published.until else []
    if releases:
        lines.append(f"- {' and '.join(releases)}")
    if published.values is not None:
        lines.append(f"- values: {', '.join(f'`{_shown(v)}`' for v in published.values[:_SHOWN_VALUES])}")
    elif published.examples:
        lines.append(f"- for example {', '.join(f'`{_shown(v)}`' for v in published.examples[:_SHOWN_VALUES])}")
    if published.description:
        lines += ["", published.description]
    return "\n".join(lines)


def facts(slices: Iterable[model.ResourceSlice], profiles: Profiles | None = None) -> Facts:
    out = Facts(profiles=profiles)
    for driver, device in devices(slices):
        out.add(driver, device)
    return out


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
        # The inventory's domains first: they are the cluster's.
        offered = [(d, f"{kind} domain") for d in known.domains(kind)]
        offered += [(d, f"{kind} domain (driver profile)") for d in known.profiled_domains(kind)]
        return [Completion(domain, detail, len(prefix)) for domain, detail in offered if domain.startswith(prefix)]
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
