"""Bad input never crashes: mutated manifests go through the whole pipeline (a fixed-seed fuzz)."""

from __future__ import annotations

import random

from dralint.api.normalise import normalise
from dralint.api.objects import identify
from dralint.api.versions import make_target
from dralint.api.workloads import pod_templates
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext
from dralint.read.workspace import Workspace
from dralint.read.yamldoc import decode
from dralint.rules import builtin_rules
from tests.conftest import FIXTURES, ROOT

SNIPPETS = [
    "{{ .Values.x }}", "<<: *a", "&a ", "*a", "\t", "---\n", "- ", ": ", "'", '"', "[", "{", "}", "]",
    "!!int ", "!!str ", "~", "\ufeff", "\r\n", "#", "|", ">-", "\\", "\x00", "0x", "1e400",
    "apiVersion: resource.k8s.io/v1beta1\n", "kind: List\n", "items:\n", "basic:\n",
]  # fmt: skip


def mutate(text: str, rnd: random.Random) -> str:
    for _ in range(rnd.randint(1, 4)):
        at = rnd.randrange(len(text) + 1)
        choice = rnd.random()
        if choice < 0.4:
            text = text[:at] + rnd.choice(SNIPPETS) + text[at:]
        elif choice < 0.7:
            text = text[:at] + text[at + rnd.randint(1, 20) :]
        else:
            source = rnd.randrange(len(text) + 1)
            text = text[:at] + text[source : source + 30] + text[at:]
    return text


def test_mutated_manifests_never_crash_the_pipeline() -> None:
    sources = sorted((ROOT / "examples").rglob("*.yaml")) + sorted((FIXTURES / "convert").glob("*.yaml"))
    texts = [path.read_text(encoding="utf-8") for path in sources]
    rules = builtin_rules()
    selection = engine.Selection(frozenset(rules))
    rnd = random.Random(20260301)
    for _ in range(400):
        text = mutate(rnd.choice(texts), rnd)
        documents, issues = decode("mutated.yaml", text)
        found = identify(documents)
        workspace = Workspace(
            documents=documents,
            objects=found.objects,
            broken=found.broken,
            list_documents=found.list_documents,
            issues=[("mutated.yaml", issue) for issue in issues],
            checked_files=frozenset({"mutated.yaml"}),
        )
        for obj in found.objects:
            normalise(obj)
            pod_templates(obj)
        for finding in engine.run(CheckContext(workspace, make_target()), rules, selection):
            assert finding.location.file == "mutated.yaml"
            assert finding.location.line >= 1 and finding.location.column >= 1
        for document in documents:
            for path in (("spec", "devices", 0, "basic"), ("metadata", "name"), ("items", 0)):
                assert min(document.scalar_position(path, 3)) >= 1
