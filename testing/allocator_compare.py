"""Comparison of allocator outputs under the rules of shared/conformance/README.md."""

from __future__ import annotations

from typing import Any

from dralint.apimachinery.quantity import parse_quantity

_RESULT_FIELDS = ("request", "driver", "pool", "device", "adminAccess", "bindingConditions", "bindingFailureConditions")


def _empty(value: Any) -> bool:
    return value is None or value is False or value == [] or value == {}


def _toleration(value: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in value.items() if not _empty(v) and v != ""}
    if not out.get("operator"):
        out["operator"] = "Equal"
    return out


def _device(result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _RESULT_FIELDS:
        value = result.get(key)
        if not _empty(value):
            out[key] = value
    tolerations = result.get("tolerations")
    if not _empty(tolerations):
        out["tolerations"] = [_toleration(t) for t in tolerations]
    consumed = result.get("consumedCapacity")
    if not _empty(consumed):
        out["consumedCapacity"] = {k: parse_quantity(str(v)).value for k, v in consumed.items()}
    out["hasShareID"] = bool(result.get("shareID") or result.get("hasShareID"))
    return out


def _selector(selector: Any) -> Any:
    if _empty(selector):
        return None
    terms = []
    for term in selector.get("nodeSelectorTerms") or []:
        terms.append(
            {
                key: [
                    {"key": r["key"], "operator": r["operator"], "values": list(r.get("values") or [])}
                    for r in term.get(key) or []
                ]
                for key in ("matchExpressions", "matchFields")
            }
        )
    return terms


def normalise_node(result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"node": result["node"], "outcome": result["outcome"]}
    if result["outcome"] == "error":
        out["error"] = result["error"]  # upstream's text, word for word
    if result["outcome"] == "allocated":
        out["allocations"] = [
            {
                "claim": a["claim"],
                "results": [_device(r) for r in ((a["allocation"].get("devices") or {}).get("results") or [])],
                "nodeSelector": _selector(a["allocation"].get("nodeSelector")),
            }
            for a in result.get("allocations") or []
        ]
    return out


def normalise(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [normalise_node(r) for r in document["results"]]
