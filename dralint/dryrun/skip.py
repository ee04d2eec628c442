"""Passing over nodes in the dry-run's placement loop, at the cost the allocator would have charged.

:mod:`dralint.dryrun.screen` says on which nodes a pod's search would end at its first request,
and how many steps that search takes. The :class:`Skipper` jumps over such nodes among a pod's
candidates and charges the search budget for each, so that ``limits.maxDryRunSteps`` runs out at
the same pod and step as when every node is tried. The :class:`Ledger` keeps what was charged
since the last allocation: a search repeated before the cluster changes costs nothing, as before.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Protocol

from dralint.api import model
from dralint.dryrun import screen

ClaimsShape = tuple[tuple[str, str], ...]  # (content, namespace) per claim: see dryrun.state.Cluster.claims_shape
Range = tuple[Sequence[int], int, int]  # candidates (node indexes) and positions [start, end) skipped


class Budget(Protocol):
    per_attempt: int
    total: int | None
    used: int


class Ledger:
    """The searches of the current version (see :meth:`Cluster.add`) that ended without a result,
    per claims shape: node by node, and in ranges of candidates a :class:`Skipper` passed over."""

    def __init__(self) -> None:
        self.nodes: dict[ClaimsShape, list[str]] = {}
        self.ranges: dict[ClaimsShape, list[Range]] = {}
        self.index: Mapping[str, int] = {}  # node name -> index, for the skipper's node order

    def clear(self) -> None:
        self.nodes.clear()
        self.ranges.clear()

    def note(self, claims_shape: ClaimsShape, node: str) -> None:
        self.nodes.setdefault(claims_shape, []).append(node)

    def covered(self, claims_shape: ClaimsShape, node: str) -> bool:
        """Whether ``node`` lies in a range skipped for this claims shape."""
        ranges = self.ranges.get(claims_shape)
        index = self.index.get(node) if ranges is not None else None
        if index is None:
            return False
        for candidates, start, end in ranges:  # type: ignore[union-attr]
            at = bisect.bisect_left(candidates, index, start, end)
            if at < end and candidates[at] == index:
                return True
        return False

    def unvisited(self, claims_shape: ClaimsShape, candidates: Sequence[int], position: int) -> bool:
        """Whether no node of ``candidates`` from ``position`` on was charged for this claims shape."""
        for other, _, end in self.ranges.get(claims_shape, ()):
            if other is not candidates or end > position:
                return False
        for name in self.nodes.get(claims_shape, ()):
            index = self.index.get(name)
            if index is None:
                return False
            at = bisect.bisect_left(candidates, index)
            if position <= at < len(candidates) and candidates[at] == index:
                return False
        return True


class Screened(Protocol):
    """What a :class:`Skipper` asks of the cluster (:class:`dralint.dryrun.state.Cluster`)."""

    @property
    def budget(self) -> Budget: ...

    @property
    def ledger(self) -> Ledger: ...

    def claims_shape(self, claims: Sequence[model.ResourceClaim]) -> ClaimsShape: ...

    def first_request(
        self, claims_shape: ClaimsShape, claims: Sequence[model.ResourceClaim]
    ) -> screen.FirstRequest | None: ...

    def dead(self, first: screen.FirstRequest, node: model.Node) -> bool: ...


class Skipper:
    """Skips, in the placement loop of a run over ``nodes``, the candidates where a pod's search would
    end at its first request; one :class:`~dralint.dryrun.screen.NextLive` per first request."""

    def __init__(self, cluster: Screened, nodes: Sequence[model.Node]) -> None:
        self.cluster = cluster
        self.nodes = nodes
        self._next: dict[int, screen.NextLive] = {}

    def skip(self, claims: Sequence[model.ResourceClaim], candidates: Sequence[int], position: int) -> int:
        """The first position of ``candidates`` from ``position`` on whose node the allocator must be
        asked about ``claims`` (``len(candidates)`` when none); the nodes before it are charged.

        Only where the charges are exactly those of trying each node: none of these nodes was tried
        with claims of this shape since the last allocation, and the budget left holds them all (else
        the node where it runs out is returned, for the allocator to run out there)."""
        cluster = self.cluster
        claims_shape = cluster.claims_shape(claims)
        first = cluster.first_request(claims_shape, claims)
        ledger = cluster.ledger
        if first is None or not ledger.unvisited(claims_shape, candidates, position):
            return position
        budget = cluster.budget
        if first.steps > budget.per_attempt:
            return position
        room = len(candidates)
        if budget.total is not None:
            room = max(0, budget.total - budget.used) // first.steps
        next_live = self._next.get(first.number)
        if next_live is None:
            nodes = self.nodes
            next_live = self._next[first.number] = screen.NextLive(
                len(nodes), lambda i: not cluster.dead(first, nodes[i])
            )
        count = len(candidates)
        end = position
        while end < count:
            live = next_live.find(candidates[end])
            end = bisect.bisect_left(candidates, live, end)
            if end == count or candidates[end] == live:
                break
        end = min(end, position + room)
        if end > position:
            budget.used += (end - position) * first.steps
            ledger.ranges.setdefault(claims_shape, []).append((candidates, position, end))
        return end
