"""Hostile CEL workloads, generated (never committed), sized by arguments: the tests use small
ones and ``benchmarks/hostile_bench.py`` the full ones."""

from __future__ import annotations

from testing.hostile import resource_slices
from testing.manifests import gpu_request


def many_selectors(claims: int = 2000, nodes: int = 1250) -> str:
    """``claims`` ResourceClaims, each with a selector of its own, beside ``nodes`` × 8 GPUs.

    The shape of issue 18 (item 8): every claim's selector is evaluated on every device by
    DRA420 and by the dry-run, and only the devices' projections make that affordable.
    """
    head = """apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
"""
    attribute = 'device.attributes["gpu.example.com"]'
    claim_docs = [
        f"""apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: claim-{n}, namespace: ml}}
spec:
"""
        + gpu_request(2, selector=f"'{expression}'")
        for n in range(claims)
        for expression in [f'{attribute}.model == "a100" && {attribute}.index >= {n % 8} && {n} >= 0']
    ]
    return "---\n".join([head, resource_slices(nodes), *claim_docs])
