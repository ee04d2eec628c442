"""Device taints and request tolerations (spec §9).

Counterparts: ``taintPreventsAllocation``/``taintTolerated`` in ``allocator_experimental.go`` and
``resourceclaim.ToleratesTaint``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.api import model


def tolerates(toleration: model.DeviceToleration, taint: model.DeviceTaint) -> bool:
    """``ToleratesTaint``: effect and key match when set; ``Equal`` compares values, ``Exists`` any."""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator in ("", "Equal"):
        return toleration.value == taint.value
    return toleration.operator == "Exists"


def untolerated_taint(
    blocking_taints: Sequence[model.DeviceTaint], tolerations: Sequence[model.DeviceToleration] | None
) -> model.DeviceTaint | None:
    """The first NoSchedule/NoExecute taint no toleration matches (``taintPreventsAllocation``)."""
    for taint in blocking_taints:
        if not tolerations or not any(tolerates(t, taint) for t in tolerations):
            return taint
    return None
