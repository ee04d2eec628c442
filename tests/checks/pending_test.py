"""DRA521 and the guarantee behind it: every pod ``dralint simulate`` leaves unplaced has a finding in
``dralint check`` on its workload or on a claim or template it names ("simulate and check agree")."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dralint.commands.simulate import SimulateSettings, dry_run
from dralint.errors import InputError
from dralint.findings import Finding
from dralint.report import text
from testing.run import ROOT, check
from tests.conftest import CORPUS, FIXTURES

PENDING = FIXTURES / "pending"


def _text(*paths: str | Path, cwd: Path, inventory: tuple[str, ...] = (), config: Path | None = None) -> str:
    import io

    here = os.getcwd()
    os.chdir(cwd)
    try:
        outcome = check([str(p) for p in paths], inventory=inventory, config=config)
    finally:
        os.chdir(here)
    stream = io.StringIO()
    text.render(outcome.report, stream)
    return stream.getvalue()


def test_a_class_of_the_inventory_that_fails_at_run_time_leaves_the_job_pending_and_says_where() -> None:
    # The scheduler evaluates the class selector on every device of the node; the first runtime error
    # aborts the pod's scheduling (allocator: "CEL runtime error"), so neither pod of the Job starts.
    # The class is inventory (context): it is reported on the Job, naming the class's file and line.
    scenario = PENDING / "class-runtime-error"
    assert _text("apps", cwd=scenario, inventory=("cluster",)) == (
        "apps/train.yaml:22:5: error DRA521 2 pods of Job ml/train stay pending: the scheduler's allocator fails on "
        "selector #0 of DeviceClass gpu.example.com at cluster/classes.yaml:9: CEL runtime error on 2 devices, "
        "first gpu.example.com/node-a/gpu-0: no such key: type (Job/ml/train); fix the selector where it is "
        "written (checking that file reports it as DRA420)\n"
        "1 file, 2 objects: 1 error, 0 warnings, 0 info\n"
    )


def test_checking_the_class_too_reports_it_where_it_is_written_and_the_job_still_says_it_stays_pending() -> None:
    lines = _text(".", cwd=PENDING / "class-runtime-error").splitlines()
    assert [line.split(" ")[2] for line in lines[:-1]] == ["DRA521", "DRA420"]  # apps/ then cluster/


def test_a_template_read_as_context_that_fits_no_device_is_reported_on_the_deployment() -> None:
    # No device of the inventory is an H100: the template's request fits no node (DRA500 would say so on
    # the template, but shared/ is context), so both replicas stay pending.
    scenario = PENDING / "template-in-context"
    assert _text("apps", cwd=scenario, config=scenario / ".dralint.yaml") == (
        "apps/serve.yaml:13:5: error DRA521 2 pods of Deployment serving/serve stay pending: the claims cannot be "
        "allocated on the only node the pod may run on; ResourceClaimTemplate serving/h100 at "
        "shared/templates.yaml:11, request gpu needs 1 device of class gpu.example.com: 2 devices on 1 node, 0 "
        'matching the request selector; no device passes `device.attributes["gpu.example.com"].model == '
        '"H100-SXM5-80GB"` (Deployment/serving/serve); no device has gpu.example.com/model "H100-SXM5-80GB"; '
        'did you mean "A100-SXM4-80GB"?\n'
        "1 file, 1 object: 1 error, 0 warnings, 0 info\n"
    )


def test_a_pod_whose_template_is_reported_gets_no_second_finding() -> None:
    # The only slice is rejected (device names must be DNS labels), so its pool is left out and the
    # template fits nothing: DRA500 on the template says so, naming the rejected slice.
    output = _text("apps", cwd=PENDING / "rejected-slice", inventory=("cluster",))
    assert [line.split(" ")[2] for line in output.splitlines()[:-1]] == ["DRA500"]
    assert "pool gpu.example.com/node-a is skipped: ResourceSlice node-a-gpu is rejected by the API server" in output


def test_an_incomplete_pool_of_the_inventory_is_named_with_where_its_slice_is_written() -> None:
    # The pool announces 2 slices and publishes 1: the allocator takes nothing from an incomplete pool
    # (upstream test "no-allocation-from-incomplete-pools": no allocation), so node-a has no usable GPU
    # and the template fits nothing. The slice is context: DRA500 on the template names the pool, the
    # line of the slice's pool (19) and that the pool is the cause, not a missing ResourceSlice.
    scenario = PENDING / "incomplete-pool"
    assert _text("apps", cwd=scenario, inventory=("cluster",)) == (
        "apps/train.yaml:10:9: error DRA500 ResourceClaimTemplate ml/one-gpu cannot be allocated for 2 pods of Job "
        "ml/train on any node: request gpu needs 1 device of class gpu.example.com: 0 devices on 1 node; pool "
        "gpu.example.com/node-a is skipped: the scheduler allocates nothing from an incomplete pool (generation 1 "
        "has 1 slice but resourceSliceCount is 2, at cluster/inventory.yaml:19) (ResourceClaimTemplate/ml/one-gpu); "
        "fix the pools named in the inventory: the scheduler takes no device of them\n"
        "1 file, 2 objects: 1 error, 0 warnings, 0 info\n"
    )


def test_simulate_names_the_incomplete_pool_among_the_reasons_the_job_is_unplaced() -> None:
    from dralint.report.simulation.model import build

    here = os.getcwd()
    os.chdir(PENDING / "incomplete-pool")
    try:
        analysis = dry_run(SimulateSettings(paths=("apps", "cluster"), no_config=True, environment={}))
    finally:
        os.chdir(here)
    [pod, _] = build(analysis).unplaced
    assert pod.details == (
        "request gpu needs 1 device of class gpu.example.com: 0 devices on 1 node",
        "pool gpu.example.com/node-a is skipped: the scheduler allocates nothing from an incomplete pool (generation 1 "
        "has 1 slice but resourceSliceCount is 2, at cluster/inventory.yaml:19)",
    )


def test_an_invalid_pool_of_the_inventory_is_named_at_the_duplicate_device() -> None:
    # Device gpu-0 is published by both slices of the pool: upstream's allocator marks the pool invalid
    # ("duplicate device name gpu-0"), takes no device of it and fails the node with "invalid resource
    # pools were encountered" (upstream test "duplicate-slice"), which the scheduler counts as the node
    # not fitting: both pods stay pending. The second gpu-0 is written at line 33.
    output = _text("apps", cwd=PENDING / "invalid-pool", inventory=("cluster",))
    assert output.splitlines()[0].split(" ")[2] == "DRA500"
    assert (
        "; pool gpu.example.com/node-a is skipped: the scheduler allocates nothing from an invalid pool (device "
        "name gpu-0 appears in slices node-a-gpu-0 and node-a-gpu-1 of pool gpu.example.com/node-a, at "
        "cluster/inventory.yaml:33) (ResourceClaimTemplate/ml/one-gpu); fix the pools named in the inventory"
    ) in output


# --- simulate and check agree ---------------------------------------------------------------------------

_INVENTORY = re.compile(r"^\s*(?:-\s+)?kind:\s*(?:ResourceSlice|Inventory)\s*$", re.MULTILINE)
_SUFFIXES = (".yaml", ".yml", ".json")


def _has_inventory(path: Path) -> bool:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.suffix in _SUFFIXES and p.is_file()]
    return any(_INVENTORY.search(p.read_text(encoding="utf-8", errors="replace")) for p in files)


def _scenarios() -> Iterator[Path]:
    """Each fixture file that holds an inventory, and each fixture directory whose files hold one (not the
    root of all fixtures: the union of the others, 25 s), the examples and the corpus's projects."""
    for base in (ROOT / "tests" / "rules", FIXTURES):
        for path in sorted(base.rglob("*")):
            if path.suffix in _SUFFIXES and path.is_file() and _has_inventory(path):
                yield path
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_dir()):
        if _has_inventory(path):
            yield path
    yield ROOT / "examples"
    if CORPUS.exists():
        for path in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
            if _has_inventory(path):
                yield path


SCENARIOS = list(_scenarios())


def _named(finding: Finding) -> tuple[str, str, str | None] | None:
    ref = finding.object
    return None if ref is None else (ref.kind, ref.namespace or "default", ref.name)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[str(p.relative_to(p.parents[1])) for p in SCENARIOS])
def test_every_pod_simulate_leaves_pending_has_a_finding_in_check(scenario: Path) -> None:
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        try:
            analysis = dry_run(SimulateSettings(paths=(str(scenario),), no_config=True, environment={}))
        except InputError:
            pytest.skip("no inventory to dry-run against (simulate exits 2)")
        findings = check([scenario]).report.findings
    finally:
        os.chdir(here)
    reported = {_named(f) for f in findings}
    missing = []
    for placement in analysis.simulation.placements:
        if placement.outcome == "placed":
            continue
        pod = placement.pod
        owner = pod.template.owner
        names = {(owner.kind, owner.namespace or "default", owner.name)}
        for entry in pod.template.spec.resource_claims:
            if entry.resource_claim_name is not None:
                names.add(("ResourceClaim", pod.namespace, entry.resource_claim_name))
            if entry.resource_claim_template_name is not None:
                names.add(("ResourceClaimTemplate", pod.namespace, entry.resource_claim_template_name))
        if not names & reported:
            missing.append(f"{pod.display} ({placement.outcome}: {placement.reason})")
    assert not missing, "pods simulate leaves pending without a finding in check: " + "; ".join(missing)
