"""Allocations found on one node carried over to another node of the same shape, renamed.

Two nodes of one shape (:mod:`dralint.dryrun.shapes`) differ only in the names of the node and of
its pools, and the allocator's search depends on those names only through their order, which the
shape holds. So claims of one shape that the allocator satisfied on one node are satisfied on any
node of the same shape by the same devices, after as many search steps: the results differ only
where they spell a name, which :func:`carry` rewrites as ``build_results`` would have written it —
the pool of each device, the share ID of a shared device (made from the claim, request and device
ID) and a node selector pinned to the node.

Where a new allocator feature must update this: a field its results gain that names the node, a
pool or the claim must be rewritten here; a decision that reads a name (of the node, a pool, a
slice, or the claim's namespace) other than through the order of pools and slices must be part
of the node shape (dryrun.shapes) or of the claims' key (``Cluster._specs_of``), or nothing may
be carried for claims that use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dralint.allocator.results import pinned_to, share_id
from dralint.allocator.types import device_id_text
from dralint.api import model
from dralint.dataclass import dataclass

PoolKey = tuple[str, str]  # (driver, pool name)
Rank = tuple[str, int]  # (driver, the pool's rank among the node's pools of that driver): see shapes.pool_ranks


@dataclass(frozen=True, slots=True)
class Fitted:
    """A search that satisfied claims on a node: what :func:`carry` needs to repeat it on another."""

    node: str
    claims: tuple[model.ResourceClaim, ...]
    results: tuple[model.AllocationResult, ...]
    ranks: Mapping[PoolKey, Rank]  # the pools of the node's view
    steps: int  # the search's steps, charged again for every node it is carried to
    pinned: tuple[bool, ...]  # per claim, whether its node selector pins the allocation to the node


def fitted(
    node: str,
    claims: Sequence[model.ResourceClaim],
    results: tuple[model.AllocationResult, ...],
    ranks: Mapping[PoolKey, Rank],
    steps: int,
) -> Fitted:
    """What the search that found ``results`` on ``node`` leaves for :func:`carry`."""
    selector = pinned_to(node)
    return Fitted(node, tuple(claims), results, ranks, steps, tuple(r.node_selector == selector for r in results))


def carry(
    fitted: Fitted, node: str, claims: Sequence[model.ResourceClaim], pools: Mapping[Rank, str]
) -> tuple[model.AllocationResult, ...]:
    """``fitted``'s results for ``claims`` (of the same shape as its own) on ``node`` (of the same shape
    as its node), whose view has ``pools`` by rank."""
    pinned = pinned_to(node) if any(fitted.pinned) else None
    out = []
    for allocation, claim, to_node in zip(fitted.results, claims, fitted.pinned, strict=True):
        devices = tuple(_renamed(result, claim, fitted.ranks, pools) for result in allocation.results)
        out.append(model.AllocationResult(devices, allocation.config, pinned if to_node else allocation.node_selector))
    return tuple(out)


def _renamed(
    result: model.DeviceRequestAllocationResult,
    claim: model.ResourceClaim,
    ranks: Mapping[PoolKey, Rank],
    pools: Mapping[Rank, str],
) -> model.DeviceRequestAllocationResult:
    pool = pools[ranks[(result.driver, result.pool)]]
    shared = result.share_id
    if shared is not None:
        shared = share_id(claim, result.request, device_id_text((result.driver, pool, result.device)))
    return model.DeviceRequestAllocationResult(
        request=result.request,
        driver=result.driver,
        pool=pool,
        device=result.device,
        admin_access=result.admin_access,
        tolerations=result.tolerations,
        binding_conditions=result.binding_conditions,
        binding_failure_conditions=result.binding_failure_conditions,
        share_id=shared,
        consumed_capacity=result.consumed_capacity,
    )
