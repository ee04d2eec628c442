"""Which parts of ``device`` a selector reads, so results can be memoised per device projection.

A selector is *projectable* when every use of ``device`` is ``device.driver``,
``device.allowMultipleAllocations``, a whole domain map ``device.attributes["d"]`` /
``device.capacity["d"]`` or an entry of one (``...["d"].name``, ``...["d"]["name"]``,
``.?name``, ``has(...)``), with constant domains (or ``device.driver``) and names. Its result
then depends only on those values, which form the projection key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dralint.cel.parser.nodes import Call, Expr, Ident, Literal, Select, children, walk
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.cel.device import DeviceValue
    from dralint.cel.program import Program

__all__ = ["SelectorPaths", "analyse", "hashable", "pinned_driver"]

DRIVER = "@driver"  # a domain given as device.driver
_INTERNED: dict[tuple[Any, ...], int] = {}


@dataclass(frozen=True, slots=True)
class SelectorPaths:
    device_slot: int
    projectable: bool
    reads: tuple[Any, ...]  # ("driver",), ("multi",), ("entry", kind, domain, name), ("domain", kind, domain)
    driver: str | None  # a driver the selector requires (a top-level ``device.driver == "x"`` conjunct)
    key_id: int

    def key(self, device: DeviceValue) -> tuple[Any, ...]:
        out: list[Any] = []
        value = device.value
        for read in self.reads:
            tag = read[0]
            if tag == "driver":
                out.append(device.driver)
            elif tag == "multi":
                out.append(value["allowMultipleAllocations"])
            elif tag == "entry":
                domain = device.driver if read[2] == DRIVER else read[2]
                out.append(hashable(device.flat.get((read[1], domain, read[3]), _ABSENT)))
            else:
                domain = device.driver if read[2] == DRIVER else read[2]
                entries = dict.get(value[read[1]], domain, {})
                out.append(tuple(sorted((k, hashable(v)) for k, v in entries.items())))
        return tuple(out)


_ABSENT = ("<absent>",)


def hashable(value: Any) -> Any:
    """A hashable stand-in that distinguishes every value a selector could tell apart."""
    t = type(value)
    if t in (list, tuple):
        return ("list", tuple(hashable(v) for v in value))
    if t.__name__ in ("Quantity", "BoxedQuantity"):
        return ("quantity", value.value, value.fast, value.format)
    if t.__name__ == "Semver":
        return ("semver", str(value))
    return (t.__name__, value)


def analyse(program: Program) -> SelectorPaths:
    checked = program.checked
    slot = program.variables.get("device", 0)
    parents: dict[int, Expr] = {}
    for node in walk(checked.expr):
        for child in children(node):
            parents[child.id] = node
    reads: set[Any] = set()
    projectable = True
    for node in walk(checked.expr):
        if isinstance(node, Ident) and node.name == "device" and checked.idents.get(node.id) == "var":
            read = _classify(node, parents)
            if read is None:
                projectable = False
            else:
                reads.update(read)
    ordered = tuple(sorted(reads, key=repr))
    key_id = _INTERNED.setdefault(ordered, len(_INTERNED))
    return SelectorPaths(slot, projectable, ordered, pinned_driver(checked.expr), key_id)


def _constant_key(node: Expr, parents: dict[int, Expr]) -> str | None:
    if isinstance(node, Literal) and isinstance(node.value, str):
        return node.value
    if (
        isinstance(node, Select)
        and node.field == "driver"
        and isinstance(node.operand, Ident)
        and node.operand.name == "device"
    ):
        return DRIVER
    return None


def _classify(device: Ident, parents: dict[int, Expr]) -> list[Any] | None:
    parent = parents.get(device.id)
    if not isinstance(parent, Select) or parent.test_only:
        return None
    if parent.field == "driver":
        return [("driver",)]
    if parent.field == "allowMultipleAllocations":
        return [("multi",)]
    if parent.field not in ("attributes", "capacity"):
        return None
    kind = parent.field
    domain_node = parents.get(parent.id)
    domain: str | None = None
    if isinstance(domain_node, Select) and not domain_node.test_only:
        domain = domain_node.field
    elif isinstance(domain_node, Call) and domain_node.function == "_[_]" and domain_node.args[0] is parent:
        domain = _constant_key(domain_node.args[1], parents)
    if domain is None or domain_node is None:
        return None
    extra = [("driver",)] if domain == DRIVER else []
    entry_node = parents.get(domain_node.id)
    name: str | None = None
    if isinstance(entry_node, Select):
        name = entry_node.field
    elif (
        isinstance(entry_node, Call)
        and entry_node.function in ("_[_]", "_?._", "_[?_]")
        and entry_node.args[0] is domain_node
    ):
        name = _constant_key(entry_node.args[1], parents)
        if name == DRIVER:
            name = None
    if name is not None:
        return [*extra, ("entry", kind, domain, name)]
    return [*extra, ("domain", kind, domain)]


def pinned_driver(expr: Expr) -> str | None:
    """The driver named by a ``device.driver == "x"`` conjunct of the top-level ``&&`` chain."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Call) and node.function == "_&&_":
            stack.extend(node.args)
            continue
        if isinstance(node, Call) and node.function == "_==_":
            left, right = node.args
            for a, b in ((left, right), (right, left)):
                if (
                    isinstance(a, Select)
                    and a.field == "driver"
                    and isinstance(a.operand, Ident)
                    and a.operand.name == "device"
                    and isinstance(b, Literal)
                    and isinstance(b.value, str)
                ):
                    return b.value
    return None
