"""The cluster inventory: the devices, classes, nodes, taint rules and existing allocations claims run against.

Gathered from every loaded object of an inventory kind (whether it came from ``--inventory``
or from the checked paths) and from compact ``Inventory`` documents, which are expanded here.
Each item remembers the object and field path it came from, so that findings about the
inventory point at what the user wrote. Nodes named by slices but not given are created with
only the standard hostname label, as the kubelet would register them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.cluster import compact, compact_schema

if TYPE_CHECKING:  # imported where an inventory object is met: most one-file runs have none
    from dralint.api import model

# The kinds whose typed model can be part of the inventory (claims only with an allocation).
_INVENTORY_KINDS = frozenset({"ResourceSlice", "DeviceClass", "DeviceTaintRule", "ResourceClaim"})

INVENTORY_GROUP = "dralint.io"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an inventory item was written: an object and a path inside it (canonical for DRA objects)."""

    obj: KubeObject
    path: Path = ()


@dataclass(frozen=True, slots=True)
class SliceEntry:
    slice: model.ResourceSlice
    origin: Origin
    device_paths: tuple[Path, ...]  # per device, relative to origin.obj

    @property
    def generated(self) -> bool:
        """Whether the slice was expanded from a compact Inventory document (not written as a slice)."""
        return self.origin.obj.kind != "ResourceSlice"

    def at(self, path: Path) -> Origin:
        """Where ``path`` (inside the slice) was written: the field itself, or the Inventory entry."""
        return self.origin if self.generated else Origin(self.origin.obj, path)

    def device_at(self, index: int, path: Path = ()) -> Origin:
        """Where ``path`` inside device ``index`` was written.

        For generated devices the device group has the same field names (``name``,
        ``attributes``, ``capacity``), and positions fall back to the nearest existing parent.
        """
        return Origin(self.origin.obj, (*self.device_paths[index], *path))


@dataclass(frozen=True, slots=True)
class NodeEntry:
    node: model.Node
    origin: Origin | None  # None for nodes created because a slice names them


@dataclass(frozen=True, slots=True)
class ClassEntry:
    device_class: model.DeviceClass
    origin: Origin


@dataclass(frozen=True, slots=True)
class TaintRuleEntry:
    rule: model.DeviceTaintRule
    origin: Origin


@dataclass(frozen=True, slots=True)
class AllocatedClaim:
    claim: model.ResourceClaim
    origin: Origin


@dataclass(slots=True)
class Inventory:
    slices: list[SliceEntry] = field(default_factory=list)
    classes: dict[str, ClassEntry] = field(default_factory=dict)  # first definition of each name wins
    nodes: list[NodeEntry] = field(default_factory=list)
    taint_rules: list[TaintRuleEntry] = field(default_factory=list)
    allocated: list[AllocatedClaim] = field(default_factory=list)
    documents: list[KubeObject] = field(default_factory=list)  # compact Inventory documents
    # Valid Inventory documents not expanded because, with those before them, they exceed the limits.
    refused: list[tuple[KubeObject, compact_schema.SchemaError]] = field(default_factory=list)

    @property
    def has_devices(self) -> bool:
        """Whether there is anything to dry-run against (at least one slice)."""
        return bool(self.slices)

    def node(self, name: str) -> NodeEntry | None:
        for entry in self.nodes:
            if entry.node.name == name:
                return entry
        return None


def is_inventory_document(obj: KubeObject) -> bool:
    return obj.kind == compact_schema.KIND and obj.group == INVENTORY_GROUP


def build(objects: Iterable[KubeObject], normalised: Mapping[KubeObject, Normalised]) -> Inventory:
    """The inventory described by ``objects`` (in input order)."""
    inventory = Inventory()
    budget = compact_schema.ExpansionBudget()
    for obj in objects:
        if is_inventory_document(obj):
            inventory.documents.append(obj)
            if not compact_schema.validate(obj.raw):
                refused = budget.take(obj.raw)
                if refused is None:
                    _add_expansion(inventory, obj, compact.expand(obj.raw))
                else:
                    inventory.refused.append((obj, refused))
            continue
        if obj.kind == "Node" and obj.group == "":
            from dralint.api import model

            inventory.nodes.append(NodeEntry(model.node(obj.raw), Origin(obj)))
            continue
        if obj.kind not in _INVENTORY_KINDS or obj not in normalised:
            continue
        if obj.kind == "ResourceClaim" and "status" not in obj.raw:
            continue  # no allocation without a status
        from dralint.api import model

        typed = normalised[obj].typed
        if isinstance(typed, model.ResourceSlice):
            paths = tuple(("spec", "devices", i) for i in range(len(typed.devices)))
            inventory.slices.append(SliceEntry(typed, Origin(obj), paths))
        elif isinstance(typed, model.DeviceClass):
            inventory.classes.setdefault(typed.name, ClassEntry(typed, Origin(obj)))
        elif isinstance(typed, model.DeviceTaintRule):
            inventory.taint_rules.append(TaintRuleEntry(typed, Origin(obj)))
        elif isinstance(typed, model.ResourceClaim) and typed.allocation is not None:
            claim = typed
            if not claim.meta.namespace:  # the API server puts it in the namespace it was applied to
                claim = dataclasses.replace(claim, meta=dataclasses.replace(claim.meta, namespace=obj.namespace or ""))
            inventory.allocated.append(AllocatedClaim(claim, Origin(obj)))
    _drop_duplicate_nodes(inventory)
    _add_implicit_nodes(inventory)
    return inventory


def _drop_duplicate_nodes(inventory: Inventory) -> None:
    seen: set[str] = set()
    unique = []
    for entry in inventory.nodes:
        if entry.node.name not in seen:
            seen.add(entry.node.name)
            unique.append(entry)
    inventory.nodes = unique


def _add_expansion(inventory: Inventory, obj: KubeObject, expansion: compact.Expansion) -> None:
    from dralint.api import model

    for node in expansion.nodes:
        inventory.nodes.append(NodeEntry(model.node(node.data), Origin(obj, node.path)))
    # Every node of a pool has the same devices: build each distinct device once (names aside).
    built: dict[str, model.Device] = {}
    for expanded in expansion.slices:
        spec = expanded.data["spec"]
        typed = model.resource_slice({**expanded.data, "spec": {k: v for k, v in spec.items() if k != "devices"}})
        devices = []
        for device in spec.get("devices", ()):
            key = json.dumps({k: v for k, v in device.items() if k != "name"}, sort_keys=True)
            template = built.get(key)
            if template is None:
                template = built[key] = model.device(device)
            devices.append(dataclasses.replace(template, name=device["name"]))
        typed = dataclasses.replace(typed, devices=tuple(devices))
        inventory.slices.append(SliceEntry(typed, Origin(obj, expanded.path), expanded.device_paths))


def _add_implicit_nodes(inventory: Inventory) -> None:
    known = {entry.node.name for entry in inventory.nodes}
    for entry in inventory.slices:
        names = [entry.slice.node_name] if entry.slice.node_name else []
        names.extend(d.node_name for d in entry.slice.devices if d.node_name)
        for name in names:
            if name and name not in known:
                from dralint.api import model

                known.add(name)
                meta = model.ObjectMeta(name=name, labels={compact.HOSTNAME_LABEL: name})
                inventory.nodes.append(NodeEntry(model.Node(meta), None))
