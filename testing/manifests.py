"""Shared pieces of the synthetic manifests the benchmarks and the hostile workloads generate:
the ``gpu.example.com`` DeviceClass and claims asking for one request ``gpu`` of that class."""

from __future__ import annotations

DEVICE_CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
"""


def gpu_request(indent: int, *, count: int | None = None, selector: str | None = None) -> str:
    """A ``devices:`` block, indented by ``indent`` spaces, with one request ``gpu`` of the class
    ``gpu.example.com``: ``count`` devices if given, and a CEL ``selector`` if given."""
    lines = ["devices:", "  requests:", "  - name: gpu", "    exactly:", "      deviceClassName: gpu.example.com"]
    if count is not None:
        lines.append(f"      count: {count}")
    if selector is not None:
        lines += ["      selectors:", "      - cel:", f"          expression: {selector}"]
    return "".join(" " * indent + line + "\n" for line in lines)


def claim_template(
    name: str, namespace: str | None = None, *, count: int | None = None, selector: str | None = None
) -> str:
    """A ResourceClaimTemplate ``name`` whose claims hold :func:`gpu_request` (``count``, ``selector``)."""
    metadata = f"  name: {name}\n" + (f"  namespace: {namespace}\n" if namespace is not None else "")
    head = f"apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n{metadata}spec:\n  spec:\n"
    return head + gpu_request(4, count=count, selector=selector)
