"""What one ``Allocate`` call on one node shares between its validation, search and explanation.

Upstream keeps these on the ``allocator`` struct for the length of one call; here they travel
as one frozen value instead of six arguments through every function.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dralint.allocator.devices import DeviceRegistry
from dralint.allocator.pools import Pool
from dralint.allocator.selection import SelectorCache
from dralint.allocator.types import Features, Release
from dralint.api import model
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class NodeScope:
    """The node being tried, the features and release behaviour, the device classes, the node's pools
    (as gathered, invalid and incomplete ones included), the memo of CEL outcomes and the device registry."""

    node: model.Node
    features: Features
    classes: Mapping[str, model.DeviceClass]
    pools: Sequence[Pool]
    cache: SelectorCache
    registry: DeviceRegistry
    release: Release
