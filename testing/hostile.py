"""Hostile inputs, generated (never committed): sized by arguments so that tests use small ones
and ``benchmarks/hostile_bench.py`` the full ones.

Each function returns the text of one manifest file.
"""

from __future__ import annotations

import json


def alias_bomb(levels: int = 9, width: int = 10) -> str:
    """A "billion laughs": each anchor lists ``width`` aliases of the one before (``width ** levels`` values)."""
    lines = ["apiVersion: v1", "kind: ConfigMap", "metadata: {name: laughs}", 'a0: &a0 ["lol"]']
    for level in range(1, levels + 1):
        aliases = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{aliases}]")
    lines.append(f"data: *a{levels}")
    return "\n".join(lines) + "\n"


def deep_nesting(depth: int) -> str:
    """A DeviceClass whose opaque parameters, and an unknown field, nest ``depth`` levels deep."""
    deep: object = "bottom"
    for level in range(depth):
        deep = {f"l{level}": deep} if level % 2 else [deep]
    document = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": "deep.example.com"},
        "spec": {
            "config": [{"opaque": {"driver": "gpu.example.com", "parameters": {"deep": deep}}}],
            "extra": deep,
        },
    }
    return json.dumps(document, indent=1) + "\n"


def resource_slices(count: int, devices: int = 8) -> str:
    """``count`` ResourceSlices (one per node) of ``devices`` GPUs each, as separate documents."""
    out = []
    for node in range(count):
        device_lines = "".join(
            f"""  - name: gpu-{n}
    attributes:
      gpu.example.com/model: {{string: a100}}
      gpu.example.com/index: {{int: {n}}}
      gpu.example.com/uuid: {{string: GPU-{node:06}-{n:02}-7f3a9c1e-0b2d-4e5f-8a6b-1c2d3e4f5a6b}}
    capacity:
      gpu.example.com/memory: {{value: 80Gi}}
"""
            for n in range(devices)
        )
        out.append(
            f"""apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: node-{node:06}-gpu.example.com
spec:
  driver: gpu.example.com
  nodeName: node-{node:06}
  pool: {{name: node-{node:06}, generation: 1, resourceSliceCount: 1}}
  devices:
{device_lines}"""
        )
    return "---\n".join(out)


def big_file(size: int) -> str:
    """ResourceSlices (8 GPUs each) up to about ``size`` bytes."""
    one = len(resource_slices(1)) + 4
    return resource_slices(max(1, size // one))


def many_documents(count: int) -> str:
    """``count`` small documents (ConfigMaps, about 60 bytes each) in one file."""
    return "---\n".join(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{n}, namespace: ml}}\n" for n in range(count)
    )


def costly_selector(depth: int = 6) -> str:
    """A DeviceClass whose selector nests ``depth`` comprehensions over a list of ten (10**depth steps)."""
    items = "[" + ", ".join(str(n) for n in range(10)) + "]"
    expression = "true"
    for level in range(depth):
        expression = f"{items}.all(x{level}, {expression})"
    return json.dumps(
        {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "DeviceClass",
            "metadata": {"name": "costly.example.com"},
            "spec": {"selectors": [{"cel": {"expression": expression}}]},
        },
        indent=1,
    )


def exponential_search(devices: int = 20) -> str:
    """One node with ``devices`` interchangeable GPUs and a pod whose claim asks for half of them twice over
    (``devices // 2`` and ``devices // 2 + 1``): the allocator tries every way to pick the first half."""
    half = devices // 2
    return f"""apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: gpu.example.com}}
spec:
  selectors:
  - cel: {{expression: 'device.driver == "gpu.example.com"'}}
---
apiVersion: v1
kind: Node
metadata:
  name: node-000000
  labels: {{kubernetes.io/hostname: node-000000}}
---
{resource_slices(1, devices)}---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: greedy, namespace: ml}}
spec:
  spec:
    devices:
      requests:
      - name: first
        exactly: {{deviceClassName: gpu.example.com, allocationMode: ExactCount, count: {half}}}
      - name: second
        exactly: {{deviceClassName: gpu.example.com, allocationMode: ExactCount, count: {half + 1}}}
---
apiVersion: v1
kind: Pod
metadata: {{name: greedy, namespace: ml}}
spec:
  resourceClaims:
  - name: gpus
    resourceClaimTemplateName: greedy
  containers:
  - name: main
    image: registry.example.com/train:1
    resources:
      claims:
      - name: gpus
"""
