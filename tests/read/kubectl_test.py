"""dralint reads YAML as kubectl does: recorded regression cases, and random documents against kubectl itself.

``tests/fixtures/kubectl`` holds one file per way dralint's reader once disagreed with kubectl,
each beside the verdict kubectl gave (``scripts/record_kubectl.py`` records them); they run
everywhere. Where kubectl is installed, the recordings are checked against kubectl live, and a
few hundred seeded random documents (:mod:`testing.yamlgen`) are read by both and compared
(``benchmarks/kubectl_bench.py`` runs tens of thousands).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testing import yamlgen
from testing.kubectl import (
    Verdict,
    difference,
    disagreements,
    dralint_verdict,
    kubectl_verdicts,
    needs_kubectl,
    recorded,
)
from tests.conftest import FIXTURES

CASES = sorted(p for p in (FIXTURES / "kubectl").iterdir() if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_reader_gives_kubectls_recorded_verdict(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    assert difference(path.name, recorded(path), dralint_verdict(path.name, text)) is None


@needs_kubectl
def test_recorded_verdicts_are_kubectls() -> None:
    live = kubectl_verdicts(FIXTURES / "kubectl", [path.name for path in CASES])
    for path in CASES:
        assert difference(path.name, live.get(path.name, Verdict()), recorded(path)) is None


@needs_kubectl
def test_random_documents_read_as_kubectl_reads_them(tmp_path: Path) -> None:
    texts = dict(yamlgen.files(seed=2025, count=300))
    for name, text in texts.items():
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    verdicts = kubectl_verdicts(tmp_path)
    assert sum(len(v.objects) for v in verdicts.values()) > 250  # most documents are accepted ...
    assert sum(v.error is not None for v in verdicts.values()) > 50  # ... and many files refused
    assert disagreements(texts, verdicts) == []
