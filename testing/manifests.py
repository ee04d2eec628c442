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


# The cluster of issue 12 at full size: 10,000 nodes of 8 GPUs and 2 NICs, 40,000 pods in 5,000 workloads.
CLUSTER_NODES = 10_000
CLUSTER_WORKLOADS = 5_000
NAMESPACES = 10
# Workload shapes, taken in turn: (kind, pods, template or claim). Eight pods each on average.
_SHAPES = ("whole", "pair", "shared", "partition", "stateful")
_OVERSIZED = 2  # the workload of each hundred whose shared claim asks for 16 GPUs (a "shared" one)


def gpu_cluster(fraction: float = 1.0) -> tuple[str, str]:
    """(inventory, workloads): ``fraction`` of issue 12's cluster, as two YAML streams.

    The inventory is one compact Inventory (nine tenths of the nodes with 8 plain GPUs, one tenth
    with 8 partitionable GPUs of seven 1g partitions each, so a tenth of the GPUs is partitionable;
    every node has 2 NICs shared by consumable bandwidth), the DeviceClasses and the Namespaces.
    The workloads take five shapes in turn, eight pods each: a Deployment of one GPU and a NIC
    share from templates, a Job of two GPUs on one NUMA node (a matchAttribute constraint), a
    Deployment whose pods share one ResourceClaim, a Job asking firstAvailable for a partition
    and else a whole GPU, and a StatefulSet of one GPU and a wider NIC share. Every hundredth
    workload asks for more GPUs per pod than a node has: its pods cannot be placed, so the reports
    have findings that grow with the input.
    """
    nodes = max(10, round(CLUSTER_NODES * fraction))
    workloads = max(len(_SHAPES), round(CLUSTER_WORKLOADS * fraction))
    partitionable = nodes // 10
    inventory = _CLUSTER_INVENTORY.format(plain=nodes - partitionable, partitionable=partitionable)
    inventory += "".join(
        f"---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-{n}\n" for n in range(NAMESPACES)
    )
    parts = [_CLUSTER_TEMPLATES.format(namespace=f"team-{n}") for n in range(NAMESPACES)]
    for index in range(workloads):
        namespace = f"team-{index % NAMESPACES}"
        shape = _SHAPES[index % len(_SHAPES)]
        values = {
            "index": index,
            "namespace": namespace,
            "gpus": 16 if index % 100 == _OVERSIZED else 1,
            "whole": _WHOLE,
        }
        parts.append(_WORKLOADS[shape].format(**values))
    return inventory, "".join(parts)


_GPU_GROUP = """\
    - driver: gpu.example.com
      name: "{name}"
      count: 4
      attributes:
        model: H100
        kind: whole
        numa: {numa}
      capacity:
        memory: 80Gi
"""

_CLUSTER_INVENTORY = (
    """\
apiVersion: dralint.io/v1alpha1
kind: Inventory
metadata:
  name: issue-12
spec:
  nodePools:
  - name: h100
    count: {plain}
    labels:
      accelerator: h100
    devices:
"""
    + _GPU_GROUP.format(name="gpu-{{index}}", numa=0)
    + _GPU_GROUP.format(name="gpu-n1-{{index}}", numa=1)
    + """\
    - driver: nic.example.com
      name: "nic-{{index}}"
      count: 2
      allowMultipleAllocations: true
      attributes:
        speed: 200G
      capacity:
        bandwidth:
          value: 200G
          requestPolicy:
            default: 10G
            validRange:
              min: 1G
              step: 1G
  - name: h100-mig
    count: {partitionable}
    labels:
      accelerator: h100
    devices:
    - driver: gpu.example.com
      name: "mig-{{index}}"
      count: 8
      attributes:
        model: H100
        kind: whole
        numa: 0
      capacity:
        memory: 80Gi
      partitions:
        counters:
          slices: 7
          memory: 80Gi
        devices:
        - name: "mig-{{index}}-1g-{{partition}}"
          count: 7
          attributes:
            kind: partition
            profile: 1g.10gb
          capacity:
            memory: 10Gi
          consumes:
            slices: 1
            memory: 10Gi
    - driver: nic.example.com
      name: "nic-{{index}}"
      count: 2
      allowMultipleAllocations: true
      attributes:
        speed: 200G
      capacity:
        bandwidth:
          value: 200G
          requestPolicy:
            default: 10G
            validRange:
              min: 1G
              step: 1G
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: nic.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "nic.example.com"
"""
)

_WHOLE = 'device.attributes["gpu.example.com"].kind == "whole"'
_PARTITION = 'device.attributes["gpu.example.com"].kind == "partition"'

_CLUSTER_TEMPLATES = f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: gpu-and-nic
  namespace: {{namespace}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: '{_WHOLE}'
      - name: nic
        exactly:
          deviceClassName: nic.example.com
          capacity:
            requests:
              bandwidth: 10G
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: gpu-pair
  namespace: {{namespace}}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 2
          selectors:
          - cel:
              expression: '{_WHOLE}'
      constraints:
      - requests: [gpus]
        matchAttribute: gpu.example.com/numa
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: small-gpu
  namespace: {{namespace}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable:
        - name: partition
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: '{_PARTITION}'
        - name: whole
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: '{_WHOLE}'
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: gpu-wide-nic
  namespace: {{namespace}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: '{_WHOLE}'
      - name: nic
        exactly:
          deviceClassName: nic.example.com
          capacity:
            requests:
              bandwidth: 50G
"""

_POD = """\
    spec:
      nodeSelector:
        accelerator: h100
      containers:
      - name: main
        image: registry.example.com/train:1.0
        resources:
          claims:
          - name: gpu
      resourceClaims:
      - name: gpu
        {claim}
"""


def _workload(head: str, claim: str) -> str:
    return head + _POD.replace("{claim}", claim)


_WORKLOADS = {
    "whole": _workload(
        """\
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: serve-{index}
  namespace: {namespace}
spec:
  replicas: 8
  selector:
    matchLabels: {{app: serve-{index}}}
  template:
    metadata:
      labels: {{app: serve-{index}}}
""",
        "resourceClaimTemplateName: gpu-and-nic",
    ),
    "pair": _workload(
        """\
---
apiVersion: batch/v1
kind: Job
metadata:
  name: train-{index}
  namespace: {namespace}
spec:
  parallelism: 8
  completions: 8
  template:
""",
        "resourceClaimTemplateName: gpu-pair",
    ).replace("      containers:", "      restartPolicy: Never\n      containers:"),
    "shared": """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: shared-{index}
  namespace: {namespace}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        count: {gpus}
        selectors:
        - cel:
            expression: '{whole}'
"""
    + _workload(
        """\
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: notebook-{index}
  namespace: {namespace}
spec:
  replicas: 8
  selector:
    matchLabels: {{app: notebook-{index}}}
  template:
    metadata:
      labels: {{app: notebook-{index}}}
""",
        "resourceClaimName: shared-{index}",
    ),
    "partition": _workload(
        """\
---
apiVersion: batch/v1
kind: Job
metadata:
  name: eval-{index}
  namespace: {namespace}
spec:
  parallelism: 8
  completions: 8
  template:
""",
        "resourceClaimTemplateName: small-gpu",
    ).replace("      containers:", "      restartPolicy: Never\n      containers:"),
    "stateful": _workload(
        """\
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db-{index}
  namespace: {namespace}
spec:
  replicas: 8
  serviceName: db-{index}
  selector:
    matchLabels: {{app: db-{index}}}
  template:
    metadata:
      labels: {{app: db-{index}}}
""",
        "resourceClaimTemplateName: gpu-wide-nic",
    ),
}
