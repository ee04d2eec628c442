"""Write kubeconform's local schemas for Kubernetes 1.37 from the kubernetes-validate bundle, for kubeconform_bench.py.

Run: ``python benchmarks/kubeconform_schemas.py OUT_DIR`` (nothing of it belongs in the repository).

kubernetes-validate (a dev dependency) ships one strict JSON schema (draft 2020-12) per kind and
API version, each referring to one shared ``_definitions.json`` by an absolute URL. kubeconform
reads a local folder laid out as ``OUT_DIR/v1.37.0-standalone-strict/<kind>-<group>-<version>.json``
(its default template for ``-schema-location OUT_DIR``) and fetches nothing, so each schema is
written self-contained: the definitions it reaches, under its own ``$defs``.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

RELEASE = "1.37.0"
BUNDLE = f"v{RELEASE}-local-strict"
SHARED = "/api/_definitions.json#/$defs/"  # how the kind schemas refer to the shared definitions
LOCAL = "#/$defs/"


def references(value: Any) -> set[str]:
    """The names of the definitions ``value`` refers to directly (shared or local ``$ref``)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                for prefix in (SHARED, LOCAL):
                    if ref.startswith(prefix):
                        found.add(ref[len(prefix) :])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def localised(value: Any) -> Any:
    """``value`` with its references to the shared definitions made local."""
    if isinstance(value, dict):
        out = {key: localised(item) for key, item in value.items() if key != "$id"}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith(SHARED):
            out["$ref"] = LOCAL + ref[len(SHARED) :]
        return out
    if isinstance(value, list):
        return [localised(item) for item in value]
    return value


def standalone(schema: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    """The kind's schema with every definition it reaches, transitively, under its ``$defs``."""
    reached: set[str] = set()
    todo = references(schema)
    while todo:
        name = todo.pop()
        if name in reached or name not in definitions:
            continue
        reached.add(name)
        todo |= references(definitions[name])
    out = localised(schema)
    if reached:
        out["$defs"] = {name: localised(definitions[name]) for name in sorted(reached)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to give kubeconform as -schema-location")
    args = parser.parse_args()
    bundle = resources.files("kubernetes_validate") / "kubernetes-json-schema" / BUNDLE
    if not bundle.is_dir():
        sys.exit(f"kubernetes-validate has no {BUNDLE} schemas: pip install -e '.[dev]'")
    definitions = json.loads((bundle / "_definitions.json").read_text(encoding="utf-8"))["$defs"]
    target = args.out / f"v{RELEASE}-standalone-strict"
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    for entry in sorted(bundle.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json") or entry.name in ("_definitions.json", "all.json"):
            continue
        schema = json.loads(entry.read_text(encoding="utf-8"))
        (target / entry.name).write_text(json.dumps(standalone(schema, definitions)), encoding="utf-8")
        written += 1
    print(f"{written} schemas in {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
