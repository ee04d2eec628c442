"""Why a selector matches nothing: the clause that fails, and names or values close to real ones.

A selector ``a && b && c`` that matches no device is split into its top-level clauses, each
evaluated on the devices that passed the class selector, to find the clause no device passes.
Attribute and capacity references (``device.attributes["domain"].name``) and the string values
compared with them are checked against what the inventory publishes, for a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import field

from dralint.api import model
from dralint.cel import CelError, compile_selector, device_value
from dralint.dataclass import dataclass
from dralint.findings import Replacement
from dralint.regex import compiled_on_first_use
from dralint.suggest import closest

_driver_re = compiled_on_first_use(r"""device\.driver\s*==\s*"([^"]*)"|"([^"]*)"\s*==\s*device\.driver""")
_reference_re = compiled_on_first_use(
    r"""device\.(attributes|capacity)\s*\[\s*"([^"]*)"\s*\]\s*"""
    r"""(?:\.\s*\??\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*"([^"]*)"\s*\])"""
    r"""(?:\s*==\s*"([^"]*)")?"""
)


@dataclass(slots=True)
class Vocabulary:
    """What the inventory publishes: per kind ("attributes"/"capacity") domain → names, and string values."""

    names: dict[str, dict[str, set[str]]] = field(default_factory=lambda: {"attributes": {}, "capacity": {}})
    values: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    drivers: set[str] = field(default_factory=set)

    def add(self, driver: str, device: model.Device) -> None:
        self.drivers.add(driver)
        for key, attribute in device.attributes.items():
            domain, name = qualified(key, driver)
            self.names["attributes"].setdefault(domain, set()).add(name)
            if attribute.kind == "string" and isinstance(attribute.value, str):
                self.values.setdefault((domain, name), set()).add(attribute.value)
        for key in device.capacity:
            domain, name = qualified(key, driver)
            self.names["capacity"].setdefault(domain, set()).add(name)


def vocabulary(slices: Iterable[model.ResourceSlice]) -> Vocabulary:
    vocab = Vocabulary()
    # The devices of a generated inventory share their attribute and capacity maps: each is read once.
    seen: set[tuple[str, int, int]] = set()
    kept = []  # (the maps stay alive, so that their ids stay their own)
    for driver, device in devices(slices):
        key = (driver, id(device.attributes), id(device.capacity))
        if key not in seen:
            seen.add(key)
            kept.append(device)
            vocab.add(driver, device)
    return vocab


def devices(slices: Iterable[model.ResourceSlice]) -> Iterator[tuple[str, model.Device]]:
    """Every device of ``slices``, with its driver."""
    for resource_slice in slices:
        for device in resource_slice.devices:
            yield resource_slice.driver, device


def qualified(key: str, driver: str) -> tuple[str, str]:
    """(domain, name) of an attribute or capacity key; a key without a domain is in its driver's."""
    domain, sep, name = key.partition("/")
    return (domain, name) if sep else (driver, key)


def did_you_mean(expression: str, vocab: Vocabulary) -> list[str]:
    """Hints for references in ``expression`` that no device publishes but a close one does."""
    return list(dict.fromkeys(text for text, _ in suggestions(expression, vocab)))


def suggestions(expression: str, vocab: Vocabulary) -> list[tuple[str, Replacement]]:
    """:func:`did_you_mean`'s hints, each with the replacement it suggests (for an editor's quick fix)."""
    found: list[tuple[str, Replacement]] = []
    for match in _driver_re().finditer(expression):
        driver = match.group(1) if match.group(1) is not None else match.group(2)
        if driver not in vocab.drivers:
            guess = closest(driver, vocab.drivers)
            if guess:
                found.append((f"no device has driver {driver}; did you mean {guess}?", Replacement(driver, guess)))
    for match in _reference_re().finditer(expression):
        kind, domain, dotted, bracketed, value = match.groups()
        name = dotted if dotted is not None else bracketed
        domains = vocab.names[kind]
        noun = "attribute" if kind == "attributes" else "capacity"
        if domain not in domains:
            guess = closest(domain, domains)
            if guess:
                hint = f"no device publishes {noun}s in domain {domain}; did you mean {guess}?"
                found.append((hint, Replacement(domain, guess)))
            continue
        if name not in domains[domain]:
            guess = closest(name, domains[domain])
            if guess:
                hint = f"no device publishes {noun} {domain}/{name}; did you mean {guess}?"
                found.append((hint, Replacement(name, guess)))
            continue
        if value is not None and kind == "attributes":
            values = vocab.values.get((domain, name), set())
            if values and value not in values:
                guess = closest(value, values, per_edit=5)
                if guess:
                    hint = f'no device has {domain}/{name} "{value}"; did you mean "{guess}"?'
                    found.append((hint, Replacement(f'"{value}"', f'"{guess}"')))
    return found


def clauses(expression: str) -> list[str]:
    """The top-level ``&&`` operands of ``expression`` (the whole expression when there is one)."""
    parts: list[str] = []
    depth = 0
    quote: str | None = None
    start = 0
    i = 0
    while i < len(expression):
        char = expression[i]
        if quote is not None:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "&" and expression.startswith("&&", i) and depth == 0:
            parts.append(expression[start:i].strip())
            start = i + 2
            i += 1
        i += 1
    parts.append(expression[start:].strip())
    return [p for p in parts if p]


@dataclass(frozen=True, slots=True)
class ClauseResult:
    clause: str
    matched: int  # devices for which it is true
    errors: int  # devices on which it raised a runtime error


def failing_clauses(expression: str, devices: Sequence[tuple[str, model.Device]]) -> list[ClauseResult]:
    """The clauses of ``expression`` that no device in ``devices`` satisfies (compiled one by one)."""
    out = []
    values = [device_value(driver, device) for driver, device in devices]
    for clause in clauses(expression):
        try:
            selector = compile_selector(clause)
        except CelError:
            continue
        matched = errors = 0
        for value in values:
            try:
                matched += selector.matches(value)
            except CelError:
                errors += 1
        if matched == 0:
            out.append(ClauseResult(clause, matched, errors))
    return out
