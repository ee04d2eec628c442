"""A large repository as an editor opens it: applications, test fixtures and rendered output.

The language server's tests and ``benchmarks/lsp_bench.py`` need a workspace of a thousand and
more files in which what ``dralint check .`` reads differs from what the folder holds: fixture
trees the configuration excludes and a folder git ignores, each holding objects that would
change the findings if they were read (another definition of the DeviceClass, thousands of
devices more).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from testing.manifests import claim_template

INVENTORY = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
apiVersion: dralint.io/v1alpha1
kind: Inventory
metadata:
  name: cluster
spec:
  nodePools:
  - name: gpu
    count: {nodes}
    devices:
    - driver: gpu.example.com
      name: "gpu-{{index}}"
      count: 8
      attributes:
        model: A100
"""

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{n}
  namespace: team-{team}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: app-{n}
  template:
    metadata:
      labels:
        app: app-{n}
    spec:
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: app-{n}-gpu
      containers:
      - name: app
        image: registry.example.com/app:{n}
        resources:
          claims:
          - name: gpu
"""

# What a repository's test fixtures hold: another definition of the class (DRA308 if read) and a
# large inventory of another driver (its devices would count in every finding that counts devices).
FIXTURE = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.attributes["gpu.example.com"].model == "fixture-{n}"
---
apiVersion: dralint.io/v1alpha1
kind: Inventory
metadata:
  name: fixture-{n}
spec:
  nodePools:
  - name: fixture-{n}
    count: 50
    devices:
    - driver: fixture.example.com
      count: 8
"""

CONFIG = 'inventory: [cluster/]\nexclude: ["tests/fixtures/"]\n'


def write_repository(root: Path, *, apps: int, fixtures: int, ignored: int, nodes: int = 100) -> int:
    """A git repository at ``root``; returns how many files ``dralint check .`` reads there.

    ``apps`` applications (a ResourceClaimTemplate and a Deployment in files of their own, in
    ``apps/app-N/``), ``fixtures`` files under ``tests/fixtures/`` (excluded by ``.dralint.yaml``)
    and ``ignored`` files under ``build/`` (ignored by ``.gitignore``), beside an inventory of
    ``nodes`` nodes of 8 GPUs in ``cluster/``.
    """
    (root / "cluster").mkdir(parents=True)
    (root / "cluster" / "inventory.yaml").write_text(INVENTORY.format(nodes=nodes))
    (root / ".dralint.yaml").write_text(CONFIG)
    (root / ".gitignore").write_text("build/\n")
    for n in range(apps):
        folder = root / "apps" / f"app-{n}"
        folder.mkdir(parents=True)
        (folder / "template.yaml").write_text(claim_template(f"app-{n}-gpu", f"team-{n % 10}"))
        (folder / "deploy.yaml").write_text(DEPLOYMENT.format(n=n, team=n % 10))
    for n in range(fixtures):
        folder = root / "tests" / "fixtures" / f"case-{n // 50}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"fixture-{n}.yaml").write_text(FIXTURE.format(n=n))
    for n in range(ignored):
        folder = root / "build"
        folder.mkdir(exist_ok=True)
        (folder / f"rendered-{n}.yaml").write_text(FIXTURE.format(n=f"build-{n}"))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return 2 * apps + 1
