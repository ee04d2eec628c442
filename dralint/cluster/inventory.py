"""The cluster inventory: the devices, classes, nodes, taint rules and existing allocations claims run against.

Gathered from every loaded object of an inventory kind (whether it came from ``--inventory``
or from the checked paths) and from compact ``Inventory`` documents, which are expanded here.
Each item remembers the object and field path it came from, so that findings about the
inventory point at what the user wrote. Nodes named by slices but not given are created with
only the standard hostname label, as the kubelet would register them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING

from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.cluster import compact, compact_schema, nodepools
from dralint.dataclass import dataclass
from dralint.validate.jsontypes import SchemaError

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


@dataclass(frozen=True, slots=True)
class SkippedPool:
    """A pool left out of the cluster model because the API server rejects one of its slices."""

    reason: str  # "pool gpu.example.com/node-a is skipped: ResourceSlice ... is rejected ... (see ...)"
    node: str | None  # the node its rejected slice names (it still exists, without these devices)


@dataclass(slots=True)
class Inventory:
    slices: list[SliceEntry] = field(default_factory=list)
    classes: dict[str, ClassEntry] = field(default_factory=dict)  # first definition of each name wins
    nodes: list[NodeEntry] = field(default_factory=list)
    taint_rules: list[TaintRuleEntry] = field(default_factory=list)
    allocated: list[AllocatedClaim] = field(default_factory=list)
    documents: list[KubeObject] = field(default_factory=list)  # compact Inventory documents
    # the schema defects of the documents that have some (they are not expanded)
    document_errors: dict[KubeObject, list[SchemaError]] = field(default_factory=dict)
    # (driver, pool) -> why the pool is not in the cluster model: one of its slices is rejected
    skipped_pools: dict[tuple[str, str], SkippedPool] = field(default_factory=dict)
    # Valid Inventory documents not expanded because, with those before them, they exceed the limits.
    refused: list[tuple[KubeObject, SchemaError]] = field(default_factory=list)
    pools: list[nodepools.NodePool] = field(default_factory=list)  # node pools of the expanded documents

    @property
    def has_inventory(self) -> bool:
        """Whether there is a cluster to dry-run against: at least one slice (stored or rejected), or a
        node pool of an Inventory document, even one without devices (its claims then fit nowhere)."""
        return bool(self.slices) or bool(self.skipped_pools) or bool(self.pools)

    @property
    def autoscaled(self) -> bool:
        """Whether a node pool declares bounds the autoscaler may resize it within."""
        return any("minCount" in p.spec or "maxCount" in p.spec for p in self.pools)

    def node(self, name: str) -> NodeEntry | None:
        for entry in self.nodes:
            if entry.node.name == name:
                return entry
        return None


def is_inventory_document(obj: KubeObject) -> bool:
    return obj.kind == compact_schema.KIND and obj.group == INVENTORY_GROUP


def has_device_source(obj: KubeObject) -> bool:
    """Whether ``obj`` can put devices into the inventory (a ResourceSlice or a compact Inventory)."""
    return (obj.kind == "ResourceSlice" and obj.is_dra) or is_inventory_document(obj)


@dataclass(slots=True)
class DocumentReading:
    """What was read of one Inventory document: its schema defects and, once expanded, its typed nodes and slices."""

    errors: list[SchemaError]
    entries: tuple[list[NodeEntry], list[SliceEntry]] | None = None


# By document, across the builds over the same objects (the inventory as stored and as written).
DocumentReadings = dict[KubeObject, DocumentReading]


def build(
    objects: Iterable[KubeObject],
    normalised: Mapping[KubeObject, Normalised],
    skipped_pools: Mapping[tuple[str, str], SkippedPool] | None = None,
    *,
    readings: DocumentReadings | None = None,
) -> Inventory:
    """The inventory described by ``objects`` (in input order).

    ``skipped_pools`` are pools one of whose slices the API server rejects: the slices of such a
    pool that it would store are left out too. Upstream, a pool with a slice missing is
    incomplete and unusable for most requests; leaving the whole pool out, with the reason,
    keeps the dry-run from reporting that as a defect of its own.

    ``readings`` memoises the validation and expansion of Inventory documents across builds over
    the same objects (the inventory as stored and as written): expanding 10,000 nodes is not
    cheap, and the entries are immutable.
    """
    inventory = Inventory(skipped_pools=dict(skipped_pools or {}))
    budget = compact_schema.ExpansionBudget()
    for obj in objects:
        if is_inventory_document(obj):
            inventory.documents.append(obj)
            reading = readings.get(obj) if readings is not None else None
            if reading is None:
                reading = DocumentReading(compact_schema.validate(obj.raw))
                if readings is not None:
                    readings[obj] = reading
            if reading.errors:
                inventory.document_errors[obj] = reading.errors
            else:
                refused = budget.take(obj.raw)
                if refused is None:
                    if reading.entries is None:
                        reading.entries = expansion_entries(obj, compact.expand(obj.raw))
                    entries = reading.entries
                    inventory.nodes.extend(entries[0])
                    inventory.slices.extend(entries[1])
                    inventory.pools.extend(nodepools.from_document(obj))
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
            if (typed.driver, typed.pool.name) in inventory.skipped_pools:
                continue
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
    if inventory.pools:
        nodes = [
            (e.node, e.origin.obj if e.origin else None, e.origin.path if e.origin else ()) for e in inventory.nodes
        ]
        inventory.pools = nodepools.with_members(inventory.pools, nodes)
    return inventory


def _drop_duplicate_nodes(inventory: Inventory) -> None:
    seen: set[str] = set()
    unique = []
    for entry in inventory.nodes:
        if entry.node.name not in seen:
            seen.add(entry.node.name)
            unique.append(entry)
    inventory.nodes = unique


def expansion_entries(obj: KubeObject, expansion: compact.Expansion) -> tuple[list[NodeEntry], list[SliceEntry]]:
    """The typed nodes and slices of an Inventory document's expansion (or of a template node made from it)."""
    from dralint.api import model

    nodes = [NodeEntry(model.node(node.data), Origin(obj, node.path)) for node in expansion.nodes]
    slices: list[SliceEntry] = []
    # Every node of a pool has the same devices: build each distinct device once (names aside), and
    # each device the expansion shares between nodes once (the typed devices are shared too).
    built: dict[str, model.Device] = {}
    shared: dict[int, model.Device] = {}  # by the id of the expansion's device (alive as long as it)
    for expanded in expansion.slices:
        spec = expanded.data["spec"]
        typed = model.resource_slice({**expanded.data, "spec": {k: v for k, v in spec.items() if k != "devices"}})
        devices = []
        for device in spec.get("devices", ()):
            found = shared.get(id(device))
            if found is None:
                # (the generator writes keys in one order, so the text of equal devices is equal)
                key = repr({k: v for k, v in device.items() if k != "name"})
                template = built.get(key)
                if template is None:
                    template = built[key] = model.device(device)
                found = shared[id(device)] = dataclasses.replace(template, name=device["name"])
            devices.append(found)
        typed = dataclasses.replace(typed, devices=tuple(devices))
        slices.append(SliceEntry(typed, Origin(obj, expanded.path), expanded.device_paths))
    return nodes, slices


def _add_implicit_nodes(inventory: Inventory) -> None:
    known = {entry.node.name for entry in inventory.nodes}
    named: list[str | None] = []
    for entry in inventory.slices:
        named.append(entry.slice.node_name)
        named.extend(d.node_name for d in entry.slice.devices)
    named.extend(skipped.node for skipped in inventory.skipped_pools.values())
    for name in named:
        if name and name not in known:
            from dralint.api import model

            known.add(name)
            meta = model.ObjectMeta(name=name, labels={compact.HOSTNAME_LABEL: name})
            inventory.nodes.append(NodeEntry(model.Node(meta), None))
