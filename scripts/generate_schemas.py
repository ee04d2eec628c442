"""Generate ``schemas/kubernetes.json.gz`` from the schemas kubernetes-validate bundles.

kubernetes-validate (a dev dependency, never needed at run time) ships the OpenAPI schemas of
every Kubernetes release as JSON schemas, in a "strict" flavour where objects reject unknown
properties. This script keeps what dralint validates: every ``resource.k8s.io`` kind in every
version each release 1.31-1.37 compiles in, plus the kinds that carry pod templates. It prunes
what validation never reads (descriptions, ``x-kubernetes-*`` annotations) and names every
definition by a hash of its content, with ``$ref``s rewritten to those names: a definition that
did not change between releases is stored once, and every reference resolves inside the one
file. Quantity and IntOrString become a type list with a ``format`` instead of a ``oneOf``, so
that validation can say "expected a quantity" rather than "not valid under any given schema".

Usage: ``python scripts/generate_schemas.py`` (rewrites the file) or ``--check`` (exit 1 when
the committed file differs from what the installed kubernetes-validate gives).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Mapping
from importlib import metadata, resources
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dralint.api.versions import RELEASES  # noqa: E402
from dralint.schemas import FORMAT_VERSION, STORE_FILE  # noqa: E402

OUTPUT = ROOT / "schemas" / STORE_FILE

DRA_PREFIX = "io.k8s.api.resource."
# Kinds that carry a pod template, by the definition that describes them.
WORKLOAD_DEFINITIONS = {
    "io.k8s.api.core.v1.Pod": ("v1", "Pod"),
    "io.k8s.api.core.v1.PodTemplate": ("v1", "PodTemplate"),
    "io.k8s.api.core.v1.ReplicationController": ("v1", "ReplicationController"),
    "io.k8s.api.apps.v1.Deployment": ("apps/v1", "Deployment"),
    "io.k8s.api.apps.v1.ReplicaSet": ("apps/v1", "ReplicaSet"),
    "io.k8s.api.apps.v1.StatefulSet": ("apps/v1", "StatefulSet"),
    "io.k8s.api.apps.v1.DaemonSet": ("apps/v1", "DaemonSet"),
    "io.k8s.api.batch.v1.Job": ("batch/v1", "Job"),
    "io.k8s.api.batch.v1.CronJob": ("batch/v1", "CronJob"),
}
# Definitions replaced by a plain type list plus a format dralint checks itself.
REPLACED = {
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": ["string", "number", "null"], "format": "quantity"},
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {
        "type": ["string", "integer", "null"],
        "format": "int-or-string",
    },
}
KEPT_KEYWORDS = frozenset(
    {"type", "properties", "additionalProperties", "items", "required", "$ref", "format", "enum", "oneOf", "anyOf"}
)
REF_PREFIXES = ("/api/_definitions.json#/$defs/", "#/$defs/")


def bundle_dir(release: str) -> Any:
    """The strict schema folder of ``release`` inside the installed kubernetes-validate."""
    return resources.files("kubernetes_validate") / "kubernetes-json-schema" / f"v{release}.0-local-strict"


def roots_of(definitions: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """apiVersion → kind → definition name, for the kinds dralint validates."""
    roots: dict[str, dict[str, str]] = {}
    for name, schema in definitions.items():
        if name in WORKLOAD_DEFINITIONS:
            api_version, kind = WORKLOAD_DEFINITIONS[name]
            roots.setdefault(api_version, {})[kind] = name
        elif name.startswith(DRA_PREFIX):
            for gvk in schema.get("x-kubernetes-group-version-kind", ()):
                if gvk["group"] == "resource.k8s.io" and not gvk["kind"].endswith("List"):
                    roots.setdefault(f"resource.k8s.io/{gvk['version']}", {})[gvk["kind"]] = name
    return roots


class _Hasher:
    """Prunes one release's definitions and names each by a hash of its pruned content."""

    def __init__(self, definitions: Mapping[str, Any], store: dict[str, Any]) -> None:
        self.definitions = definitions
        self.store = store
        self.names: dict[str, str] = {}
        self.active: set[str] = set()

    def name(self, definition: str) -> str:
        if definition in self.names:
            return self.names[definition]
        if definition in self.active:
            raise SystemExit(f"cyclic definition {definition}: content hashing cannot name it")
        self.active.add(definition)
        pruned = REPLACED.get(definition) or self.prune(self.definitions[definition])
        self.active.discard(definition)
        text = json.dumps(pruned, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        self.store.setdefault(digest, pruned)
        self.names[definition] = digest
        return digest

    def prune(self, schema: Any) -> Any:
        if isinstance(schema, list):
            return [self.prune(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key not in KEPT_KEYWORDS:
                continue
            if key == "$ref":
                out[key] = "#/$defs/" + self.name(_definition_name(value))
            elif key == "properties":
                out[key] = {prop: self.prune(sub) for prop, sub in value.items()}
            elif key in ("additionalProperties", "items", "oneOf", "anyOf"):
                out[key] = self.prune(value)
            else:
                out[key] = value
        return out


def _definition_name(ref: str) -> str:
    for prefix in REF_PREFIXES:
        if ref.startswith(prefix):
            return ref[len(prefix) :]
    raise SystemExit(f"unexpected $ref {ref!r}")


def generate() -> dict[str, Any]:
    """The store: pruned definitions by hash, and per release the root definition of each kind."""
    store: dict[str, Any] = {}
    releases: dict[str, dict[str, dict[str, str]]] = {}
    for release in RELEASES:
        text = (bundle_dir(release) / "_definitions.json").read_text(encoding="utf-8")
        definitions = json.loads(text)["$defs"]
        hasher = _Hasher(definitions, store)
        releases[release] = {
            api_version: {kind: hasher.name(name) for kind, name in sorted(kinds.items())}
            for api_version, kinds in sorted(roots_of(definitions).items())
        }
    return {
        "format": FORMAT_VERSION,
        "source": f"kubernetes-validate {metadata.version('kubernetes-validate')}",
        "releases": releases,
        "definitions": dict(sorted(store.items())),
    }


def encode(store: Mapping[str, Any]) -> bytes:
    """Deterministic bytes: sorted compact JSON, gzip without a timestamp or file name.

    The definitions come first, one per line (``"name":{...}``), so that dralint decodes only the
    definitions a run validates against (:func:`dralint.schemas.definitions`); the rest of the
    store is the last line.
    """

    def compact(value: Any) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))

    definitions = [f"{compact(name)}:{compact(schema)}" for name, schema in sorted(store["definitions"].items())]
    rest = [f",{compact(key)}:{compact(value)}" for key, value in sorted(store.items()) if key != "definitions"]
    text = '{"definitions":{\n' + ",\n".join(definitions) + "\n}" + "".join(rest) + "}\n"
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args(argv)
    store = generate()
    if args.check:
        committed = json.loads(gzip.decompress(OUTPUT.read_bytes()))
        if committed != store:
            print(f"{OUTPUT} is out of date: run scripts/generate_schemas.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_bytes(encode(store))
    print(f"wrote {OUTPUT} ({OUTPUT.stat().st_size} bytes, {len(store['definitions'])} definitions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
