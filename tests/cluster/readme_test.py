"""The Inventory example of the README is valid and expands to what the README says."""

from __future__ import annotations

import re

from ruamel.yaml import YAML

from dralint.cluster import compact, compact_schema
from tests.conftest import ROOT


def _readme_inventory() -> dict[str, object]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml[^\n]*\n(.*?)```", text, flags=re.S)
    (block,) = [b for b in blocks if "kind: Inventory" in b]
    data: dict[str, object] = YAML(typ="safe", pure=True).load(block)
    return data


def test_readme_inventory_is_valid_and_expands() -> None:
    document = _readme_inventory()
    assert compact_schema.validate(document) == []
    expansion = compact.expand(document)
    names = [n.data["metadata"]["name"] for n in expansion.nodes]
    assert names[:2] == ["a100-0", "a100-1"] and len(names) == 16
    first = expansion.slices[0].data["spec"]
    assert first["pool"] == {"name": "a100-0", "generation": 1, "resourceSliceCount": 2}
    devices = [d["name"] for s in expansion.slices[:2] for d in s.data["spec"].get("devices", [])]
    assert devices[:9] == [f"gpu-{i}" for i in range(8)] + ["mig-gpu-0"]
    assert len(devices) == 8 + 1 + 7
    fabric = expansion.slices[-1].data["spec"]
    assert fabric["pool"]["name"] == "rdma-fabric" and len(fabric["devices"]) == 32
