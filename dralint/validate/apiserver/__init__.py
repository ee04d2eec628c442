"""kube-apiserver's semantic validation of DRA objects and of the DRA parts of pods.

:func:`dra_object` validates one normalised (defaulted, v1-shaped, gate-stripped) object of a
``resource.k8s.io`` kind; :func:`pod_spec` validates a pod spec's claims. Both return the
:class:`~dralint.validate.apiserver.errors.FieldError` list the API server would report for the
target release described by a :class:`~dralint.validate.apiserver.behaviour.Behaviour`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.api.objects import DRA_KINDS
from dralint.validate.apiserver.behaviour import Behaviour, behaviour
from dralint.validate.apiserver.claims import claim_spec
from dralint.validate.apiserver.errors import FieldError
from dralint.validate.apiserver.metadata import object_meta, template_meta
from dralint.validate.apiserver.pods import pod_spec

__all__ = ["Behaviour", "FieldError", "behaviour", "dra_object", "pod_spec"]


def dra_object(
    kind: str, data: Mapping[str, Any], b: Behaviour, *, raw: Mapping[str, Any] | None = None
) -> list[FieldError]:
    """Every validation error of a ``resource.k8s.io`` object of ``kind`` (metadata, spec, status).

    ``raw`` is the object as written, for the few rules about the versioned shape itself.
    """
    # The modules of the other kinds (and of the status, slices and devices they share) are
    # imported by the first object of those kinds: many inputs are claims and workloads only.
    out = object_meta(data.get("metadata"), namespaced=DRA_KINDS.get(kind, True))
    spec = read.mapping_or_empty(data, "spec")
    if kind == "ResourceClaim":
        from dralint.validate.apiserver.status import claim_status

        out += claim_spec(spec, ("spec",), b)
        out += claim_status(data, b)
    elif kind == "ResourceClaimTemplate":
        out += template_meta(spec.get("metadata"), ("spec", "metadata"))
        out += claim_spec(read.mapping_or_empty(spec, "spec"), ("spec", "spec"), b)
    elif kind == "DeviceClass":
        from dralint.validate.apiserver.admin_kinds import device_class

        out += device_class(data, b)
    elif kind == "ResourceSlice":
        from dralint.validate.apiserver.slices import legacy_basic_required, resource_slice

        out += resource_slice(data, b)
        out += legacy_basic_required(raw, b)
    elif kind == "DeviceTaintRule":
        from dralint.validate.apiserver.admin_kinds import device_taint_rule
        from dralint.validate.apiserver.status import taint_rule_status

        out += device_taint_rule(data, b)
        out += taint_rule_status(data, b)
    elif kind == "ResourcePoolStatusRequest":
        from dralint.validate.apiserver.admin_kinds import resource_pool_status_request
        from dralint.validate.apiserver.status import pool_status_request_status

        out += resource_pool_status_request(data, b)
        out += pool_status_request_status(data, b)
    return out
