"""No finding claims a cause another finding contradicts: a DRA5xx dry-run finding never blames a field that a
DRA210/DRA211/DRA212 finding says the API server drops (the dry-run sees objects as stored).

Runs every fixture directory at Kubernetes 1.34 (where several DRA gates are off by default, so fields
are dropped) and every corpus repository at 1.34 and at the newest release.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dralint.findings import Finding
from testing.run import ROOT, check
from tests.conftest import CORPUS, require_shared

DROP_RULES = frozenset({"DRA210", "DRA211", "DRA212"})
# What a dry-run finding would say if it took the dropped field as present, by the field's name (the
# device funnel's stage names of dralint/diagnose/why.py and the allocator's error texts).
BLAME: dict[str, tuple[str, ...]] = {
    "capacity": ("capacity request", "with the requested capacity"),
    "adminAccess": ("admin access", "adminaccess"),
    "firstAvailable": ("subrequest", "firstavailable"),
    "distinctAttribute": ("distinctattribute",),
    "sharedCounters": ("within the shared counters", "counters are exhausted"),
    "consumesCounters": ("within the shared counters", "counters are exhausted"),
    "taints": ("tolerating the device taints", "device taint"),
}
CAPACITY_RULES = frozenset({"DRA502", "DRA503", "DRA504", "DRA603"})
SLICE_WIDE = frozenset({"sharedCounters", "consumesCounters", "taints"})  # a slice's drop affects every claim


def contradictions(findings: list[Finding]) -> list[str]:
    """Each DRA5xx/DRA6xx finding that blames what a drop finding of the same run says is gone."""
    out = []
    drops = [f for f in findings if f.rule in DROP_RULES]
    verdicts = [f for f in findings if f.rule[:4] in ("DRA5", "DRA6")]
    for drop in drops:
        name = next((step for step in reversed(drop.path) if isinstance(step, str)), "")
        words = BLAME.get(name)
        if words is None or drop.object is None:
            continue
        ref = drop.object
        for verdict in verdicts:
            same = verdict.object == ref or f"{ref.kind} {ref.namespace}/{ref.name}" in verdict.message
            if not (same or name in SLICE_WIDE):
                continue
            text = verdict.message.lower()
            if any(word in text for word in words) or (name == "capacity" and same and verdict.rule in CAPACITY_RULES):
                out.append(f"{verdict.rule} {verdict.message!r} blames {name}, but {drop.rule} {drop.message!r}")
    return out


def _directories() -> list[Path]:
    found = {p.parent for base in ("tests/fixtures", "tests/rules") for p in (ROOT / base).rglob("*.yaml")}
    return sorted(d for d in found if not any(part.startswith(".") for part in d.relative_to(ROOT).parts))


def _findings(path: Path, release: str) -> list[Finding]:
    """The findings of one run over the files directly in ``path`` (a fixture directory is one scenario)."""
    files = sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and not p.name.startswith("."))
    outcome = check(files or [path], environment={"DRALINT_KUBERNETES_VERSION": release}, jobs=1)
    return list(outcome.report.findings)


def test_the_original_contradiction_is_detected() -> None:
    """The check itself can fail: DRA505 blaming capacity requests that DRA210 says are dropped (before admission)."""
    from dralint.findings import Location, ObjectRef

    template = ObjectRef("resource.k8s.io/v1", "ResourceClaimTemplate", "default", "slice")
    drop = Finding(
        "DRA210",
        "gated-field-dropped",
        "error",
        "capacity is dropped",
        Location("a.yaml", 40, 11),
        template,
        ("spec", "spec", "devices", "requests", 0, "exactly", "capacity"),
    )
    verdict = Finding(
        "DRA505",
        "allocation-error",
        "error",
        "the scheduler's allocator fails for pod default/p: claim default/p-gpu, request gpu: has capacity requests, "
        "but the DRAConsumableCapacity feature is disabled",
        Location("a.yaml", 37, 9),
        template,
        (),
    )
    assert len(contradictions([drop, verdict])) == 1


@pytest.mark.parametrize("release", ["1.34"])  # the release where the most DRA fields are dropped by default
def test_no_dry_run_finding_contradicts_a_drop_finding_in_any_fixture(
    release: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    problems = {
        str(directory.relative_to(ROOT)): found
        for directory in _directories()
        if (found := contradictions(_findings(directory, release)))
    }
    assert problems == {}


@pytest.mark.parametrize("release", ["1.34", "1.37"])
def test_no_dry_run_finding_contradicts_a_drop_finding_in_the_corpus(release: str) -> None:
    require_shared(CORPUS)
    problems = {
        repository.name: found
        for repository in sorted(p for p in CORPUS.iterdir() if p.is_dir())
        if (found := contradictions(_corpus_findings(repository, release)))
    }
    assert problems == {}


def _corpus_findings(repository: Path, release: str) -> list[Finding]:
    outcome = check([repository], environment={"DRALINT_KUBERNETES_VERSION": release}, jobs=1)
    return list(outcome.report.findings)
