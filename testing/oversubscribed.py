"""A seeded GPU cluster where demand exceeds supply (issue 27), as the benchmarks and tests generate it.

At full size: 10,000 nodes in four node pools (H100, H200, A100, L40S), each node with 8 GPUs on
two PCIe roots and 2 NICs (one per root) shared by consumable bandwidth; 5,000 workloads
(Deployments, Jobs, StatefulSets of 1 to 15 pods, 40,000 pods on average) asking for 1 to 8
GPUs per pod, of a model by selector or node selector or of any model. A fifth ask through a
prioritized list (firstAvailable), three tenths also ask for NIC bandwidth, and some of those
align the NIC with the GPUs by ``matchAttribute`` on ``resource.kubernetes.io/pcieRoot``. The
pods ask for about 1.6 times the GPUs there are, so the dry-run tries most pods on most nodes.
"""

from __future__ import annotations

import random

NODES = 10_000
WORKLOADS = 5_000
NAMESPACES = 20
SEED = 27

# (pool, model, GPU memory, NIC bandwidth)
POOLS = (
    ("h100", "H100", "80Gi", "200G"),
    ("h200", "H200", "141Gi", "400G"),
    ("a100", "A100", "80Gi", "200G"),
    ("l40s", "L40S", "48Gi", "100G"),
)
# GPUs per pod, with weights: mostly small pods, a tenth of whole nodes
_GPU_COUNTS = ((1, 30), (2, 25), (3, 5), (4, 20), (5, 2), (6, 5), (7, 2), (8, 11))
_BANDWIDTHS = ("10G", "25G", "50G", "100G")
_PCIE_ROOT = "resource.kubernetes.io/pcieRoot"


def cluster(fraction: float = 1.0, *, seed: int = SEED) -> tuple[str, str]:
    """(inventory, workloads): ``fraction`` of the full size, as two YAML streams, the same for a seed."""
    nodes = max(len(POOLS), round(NODES * fraction))
    workloads = max(1, round(WORKLOADS * fraction))
    rng = random.Random(seed)
    inventory = _inventory(nodes) + "".join(
        f"---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-{n}\n" for n in range(NAMESPACES)
    )
    return inventory, "".join(_workload(index, rng) for index in range(workloads))


def _inventory(nodes: int) -> str:
    pools = []
    for n, (pool, model, memory, bandwidth) in enumerate(POOLS):
        count = nodes // len(POOLS) + (1 if n < nodes % len(POOLS) else 0)
        gpus = "".join(
            f"""\
    - driver: gpu.example.com
      name: "{name}"
      count: 4
      attributes:
        model: {model}
        {_PCIE_ROOT}: "pci0000:0{root}"
      capacity:
        memory: {memory}
"""
            for root, name in enumerate(("gpu-{index}", "gpu-r1-{index}"))
        )
        nics = "".join(
            f"""\
    - driver: nic.example.com
      name: "nic-{root}"
      count: 1
      allowMultipleAllocations: true
      attributes:
        {_PCIE_ROOT}: "pci0000:0{root}"
      capacity:
        bandwidth:
          value: {bandwidth}
          requestPolicy:
            default: 10G
            validRange:
              min: 1G
              step: 1G
"""
            for root in range(2)
        )
        pools.append(
            f"""\
  - name: {pool}
    count: {count}
    labels:
      gpu.example.com/model: {model}
    devices:
{gpus}{nics}"""
        )
    return (
        """\
apiVersion: dralint.io/v1alpha1
kind: Inventory
metadata:
  name: oversubscribed
spec:
  nodePools:
"""
        + "".join(pools)
        + "".join(
            f"""\
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: {driver}
spec:
  selectors:
  - cel:
      expression: device.driver == "{driver}"
"""
            for driver in ("gpu.example.com", "nic.example.com")
        )
    )


def _model_selector(model: str) -> str:
    return f"""\
          selectors:
          - cel:
              expression: 'device.attributes["gpu.example.com"].model == "{model}"'
"""


def _workload(index: int, rng: random.Random) -> str:
    namespace = f"team-{index % NAMESPACES}"
    kind = rng.choices(("Deployment", "Job", "StatefulSet"), (5, 3, 2))[0]
    replicas = rng.randint(1, 15)
    gpus = rng.choices([c for c, _ in _GPU_COUNTS], [w for _, w in _GPU_COUNTS])[0]
    models = [model for _, model, _, _ in POOLS]
    how = rng.choices(("selector", "node selector", "any"), (60, 15, 25))[0]
    model = rng.choice(models)
    prioritized = rng.random() < 0.2
    nic = rng.random() < 0.3
    aligned = nic and rng.random() < 0.4
    if aligned:
        gpus = min(gpus, 4)  # four GPUs share a PCIe root
    bandwidth = rng.choice(_BANDWIDTHS)
    selector = _model_selector(model) if how == "selector" else ""
    if prioritized:
        # this model, else another one, else half the GPUs of any model
        other = rng.choice([m for m in models if m != model])
        gpu = f"""\
      - name: gpu
        firstAvailable:
        - name: first
          deviceClassName: gpu.example.com
          count: {gpus}
{_model_selector(model)}\
        - name: second
          deviceClassName: gpu.example.com
          count: {gpus}
{_model_selector(other)}\
        - name: fewer
          deviceClassName: gpu.example.com
          count: {max(1, gpus // 2)}
"""
    else:
        gpu = f"""\
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          count: {gpus}
{selector}"""
    requests = gpu
    if nic:
        requests += f"""\
      - name: nic
        exactly:
          deviceClassName: nic.example.com
          capacity:
            requests:
              bandwidth: {bandwidth}
"""
    constraints = (
        f"""\
      constraints:
      - requests: [gpu, nic]
        matchAttribute: {_PCIE_ROOT}
"""
        if aligned
        else ""
    )
    name = f"w{index}"
    template = f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: {name}-gpu
  namespace: {namespace}
spec:
  spec:
    devices:
      requests:
{requests}{constraints}"""
    node_selector = f"      nodeSelector:\n        gpu.example.com/model: {model}\n" if how == "node selector" else ""
    restart = "      restartPolicy: Never\n" if kind == "Job" else ""
    pod = f"""\
    spec:
{node_selector}{restart}      containers:
      - name: main
        image: registry.example.com/{name}:1.0
        resources:
          claims:
          - name: gpu
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: {name}-gpu
"""
    if kind == "Job":
        head = f"""\
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {name}
  namespace: {namespace}
spec:
  parallelism: {replicas}
  completions: {replicas}
  template:
"""
    else:
        service = f"  serviceName: {name}\n" if kind == "StatefulSet" else ""
        head = f"""\
---
apiVersion: apps/v1
kind: {kind}
metadata:
  name: {name}
  namespace: {namespace}
spec:
  replicas: {replicas}
{service}  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
"""
    return template + head + pod
