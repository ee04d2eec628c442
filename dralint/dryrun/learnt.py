"""What a dry-run learns that holds for every cluster state over the same slices, classes and allocator.

Node shapes and pool states are interned as small integers, and what is known per node shape and
claims' contents (searches that found nothing, or devices: :mod:`dralint.dryrun.carry`), what the
node screen learnt and the CEL outcomes per device depend only on the slices, the classes, the
features, the release and the CEL environment, never on what is allocated beyond the pool states
in the keys. So the clusters of one run (the dry-run's, the empty one the failures are judged on,
and the replays in other orders) share one :class:`Learnt` when they agree on those: a replay
carries what the dry-run found instead of asking the allocator again. An input the allocator gains
(beyond slices, classes, features, release and CEL environment) must be compared in
:meth:`Learnt.serves` too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from dralint.allocator import Features, Release
from dralint.allocator.selection import SelectorCache
from dralint.api import model
from dralint.dryrun import carry, screen, shapes

if TYPE_CHECKING:
    from dralint.cel import Environment

PoolKey = tuple[str, str]  # (driver, pool name)
ClaimsShape = tuple[tuple[str, str], ...]  # see dryrun.state.Cluster.claims_shape


class Learnt:
    """The memos :class:`dralint.dryrun.state.Cluster` shares with the clusters over the same inputs."""

    def __init__(
        self,
        slices: Sequence[model.ResourceSlice],
        classes: Mapping[str, model.DeviceClass],
        features: Features,
        release: Release,
        cel_environment: Environment | None,
        contents: shapes.SliceContents | None = None,
    ) -> None:
        self._inputs = (tuple(map(id, slices)), slices, classes, features, release, cel_environment)
        self.contents = contents if contents is not None else shapes.SliceContents()  # what node shapes are made of
        # One CEL memo for every attempt and explanation: a selector runs once per device per
        # run, not once per pod and node (the slices never change, only what is allocated).
        self.selectors = SelectorCache(cel_environment)
        self.static: dict[str, tuple[model.Node, int]] = {}  # per node: its view's shape, interned
        self.shape_ids: dict[object, int] = {}  # static shapes, interned
        self.state_ids: dict[object, int] = {}  # pool states, interned
        self.states: list[screen.PoolState] = []  # pool states by interned id
        # per node shape and claims' contents: the steps of a search that found nothing, or what it found
        self.unsatisfiable: dict[tuple[object, ...], int] = {}
        self.fitted: dict[tuple[object, ...], carry.Fitted] = {}
        self.specs: dict[ClaimsShape, tuple[str, ...]] = {}  # claims shape -> contents (see Cluster._specs_of)
        self.ranks: dict[str, tuple[dict[PoolKey, carry.Rank], dict[carry.Rank, str]]] = {}  # per node
        # What dryrun.screen learns, and the claims shapes whose claims passed the allocator's
        # validation once (before that, no node is judged without the allocator).
        self.screening = screen.Screening(features, classes, self.selectors, release)
        self.validated: set[ClaimsShape] = set()

    def serves(
        self,
        slices: Sequence[model.ResourceSlice],
        classes: Mapping[str, model.DeviceClass],
        features: Features,
        release: Release,
        cel_environment: Environment | None,
        contents: shapes.SliceContents | None = None,
    ) -> bool:
        """Whether a cluster over these inputs may share what was learnt (the same objects, or equal ones)."""
        ids, _, known_classes, known_features, known_release, environment = self._inputs
        return (
            (contents is None or contents is self.contents)
            and tuple(map(id, slices)) == ids
            and classes is known_classes
            and features == known_features
            and release == known_release
            and cel_environment is environment
        )
