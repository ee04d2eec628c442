"""Kustomizations rendered by the real ``kubectl kustomize``, with findings led back to the user's files.

The fixtures under ``tests/fixtures/kustomize`` are a base, two overlays (a strategic-merge
patch file, an inline JSON 6902 patch, a JSON 6902 patch file, namePrefix, namespace, a
configMapGenerator), a kustomization that does not build and one with a remote base. The
expected positions are where the fields stand in those files.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dralint.config.resolve import Layer
from dralint.findings import Location
from dralint.read import load
from dralint.read.kustomize import renderer
from dralint.report import text
from testing.run import ROOT, check, cli

FIXTURES = "tests/fixtures/kustomize"

pytestmark = pytest.mark.skipif(
    shutil.which("kubectl") is None and shutil.which("kustomize") is None and not os.environ.get("CI"),
    reason="neither kubectl nor kustomize is installed",
)


def _where(paths: list[str]) -> list[tuple[str, str, str]]:
    stream = io.StringIO()
    text.render(check(paths).report, stream)
    lines = [line for line in stream.getvalue().splitlines() if ": error " in line or ": warning " in line]
    return [(line.split(" ")[0], line.split(" ")[2], line.rsplit("(", 1)[-1].split(")")[0]) for line in lines]


def test_check_reports_each_finding_where_the_field_was_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    found = [(where, rule, obj) for where, rule, obj in _where([FIXTURES]) if rule != "DRA009"]
    assert found == [
        # the base, once per overlay that renders it (the base is not also checked on its own)
        (f"{FIXTURES}/base/claims.yaml:33:7:", "DRA122", "ResourceClaim/default/prod-shared-nic"),
        (f"{FIXTURES}/base/claims.yaml:33:7:", "DRA122", "ResourceClaim/staging/shared-nic"),
        # a strategic-merge patch file that set count
        (f"{FIXTURES}/overlays/prod/gpu-pair.yaml:12:11:", "DRA127", "ResourceClaimTemplate/default/prod-gpu-pair"),
        # inside the expression of an inline JSON 6902 patch of the kustomization: the '=' and what follows
        (f"{FIXTURES}/overlays/prod/kustomization.yaml:12:57:", "DRA400", "DeviceClass/prod-gpu.example.com"),
        (f"{FIXTURES}/overlays/prod/kustomization.yaml:12:59:", "DRA400", "DeviceClass/prod-gpu.example.com"),
        # a JSON 6902 patch file (patchesJson6902) that added allocationMode
        (
            f"{FIXTURES}/overlays/staging/allocation-mode.yaml:3:3:",
            "DRA126",
            "ResourceClaimTemplate/staging/single-gpu",
        ),
        # kustomize's namespace transformer put a namespace on the cluster-scoped DeviceClass
        (f"{FIXTURES}/overlays/staging/kustomization.yaml:1:1:", "DRA120", "DeviceClass/gpu.example.com"),
    ]


def test_check_reports_a_build_failure_and_a_remote_base_on_the_kustomization(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    outcome = check([f"{FIXTURES}/broken", f"{FIXTURES}/remote"])
    found = [(f.location.file, f.location.line, f.location.column, f.rule, f.message) for f in outcome.report.findings]
    assert [f[:4] for f in found] == [
        (f"{FIXTURES}/broken/kustomization.yaml", 1, 1, "DRA009"),
        (f"{FIXTURES}/remote/kustomization.yaml", 2, 3, "DRA009"),
    ]
    assert "no such file or directory" in found[0][4] and f"{FIXTURES}/broken/claims.yaml" in found[0][4]
    assert found[1][4] == (
        "remote resource https://github.com/example/gpu-manifests//base?ref=v1.2.0 is not fetched: "
        "dralint renders local kustomizations only"
    )


def test_check_renders_a_base_named_explicitly_and_a_kustomization_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert _where([f"{FIXTURES}/base"]) == [
        (f"{FIXTURES}/base/claims.yaml:33:7:", "DRA122", "ResourceClaim/default/shared-nic")
    ]
    assert [w for w in _where([f"{FIXTURES}/overlays/prod/kustomization.yaml"]) if w[1] == "DRA127"] == [
        (f"{FIXTURES}/overlays/prod/gpu-pair.yaml:12:11:", "DRA127", "ResourceClaimTemplate/default/prod-gpu-pair")
    ]


def test_generated_configmap_maps_to_its_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    workspace = load.load([f"{FIXTURES}/overlays/prod"])
    (source_map,) = workspace.source_maps.values()
    generated = next(d for d in workspace.documents if d.data.get("kind") == "ConfigMap")
    kustomization = f"{FIXTURES}/overlays/prod/kustomization.yaml"
    assert source_map.locate(generated, ("data", "batchSize"), None) == (
        Location(kustomization, 16, 5),
        None,
    )  # the literal
    assert source_map.locate(generated, ("metadata", "name"), None) == (
        Location(kustomization, 14, 3),
        None,
    )  # the generator


def test_sarif_and_json_name_the_source_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    done = cli("check", "--no-config", "--format", "sarif", f"{FIXTURES}/overlays/staging", cwd=ROOT)
    results = json.loads(done.stdout)["runs"][0]["results"]
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results)
    assert uris == [
        f"{FIXTURES}/base/claims.yaml",
        f"{FIXTURES}/overlays/staging/allocation-mode.yaml",
        f"{FIXTURES}/overlays/staging/kustomization.yaml",
    ]
    done = cli("check", "--no-config", "--format", "json", f"{FIXTURES}/overlays/staging", cwd=ROOT)
    assert {f["file"] for f in json.loads(done.stdout)["findings"]} == set(uris)


def test_check_without_kustomize_or_kubectl_exits_2(tmp_path: Path) -> None:
    done = cli("check", "--no-config", f"{FIXTURES}/overlays/prod", cwd=ROOT, env={"PATH": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "dralint: error: rendering a kustomization needs kustomize or kubectl on PATH; neither is installed"
    ]


def test_renderer_prefers_kubectl_then_kustomize(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("kubectl", "kustomize"):
        program = tmp_path / name
        program.write_text("#!/bin/sh\n", encoding="utf-8")
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert renderer() == [str(tmp_path / "kubectl"), "kustomize"]
    (tmp_path / "kubectl").unlink()
    assert renderer() == [str(tmp_path / "kustomize"), "build"]


def test_changed_base_rechecks_the_overlay_that_renders_it(tmp_path: Path) -> None:
    shutil.copytree(ROOT / FIXTURES / "base", tmp_path / "base")
    shutil.copytree(ROOT / FIXTURES / "overlays" / "staging", tmp_path / "overlays" / "staging")
    (tmp_path / "other.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unrelated\n")
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(
            ["git", *command], cwd=tmp_path, check=True, env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null"}
        )
    claims = tmp_path / "base" / "claims.yaml"
    claims.write_text(claims.read_text().replace("name: NIC_0", "name: NIC_1"))
    done = cli("check", "--no-config", "--changed", "HEAD", "--format", "json", cwd=tmp_path)
    found = json.loads(done.stdout)["findings"]
    # the base is checked through the overlay (its namespace, its patch), not on its own
    assert [(f["file"], f["line"], f["rule"], f["object"]["namespace"]) for f in found] == [
        ("base/claims.yaml", 33, "DRA122", "staging"),
        ("overlays/staging/allocation-mode.yaml", 3, "DRA126", "staging"),
        ("overlays/staging/kustomization.yaml", 1, "DRA120", None),
    ]


def test_messages_quote_other_objects_where_they_were_written(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two kustomizations define the same DeviceClass; app b's has a label value the API server refuses.
    monkeypatch.chdir(ROOT)
    quoted = "tests/fixtures/quoted-positions"
    found = [(f.location.file, f.location.line, f.rule, f.message) for f in check([quoted]).report.findings]
    first = f"{quoted}/a-app/deviceclass.yaml:2"  # the object's first line in app a's file (after a comment)
    assert found[0] == (
        f"{quoted}/b-app/deviceclass.yaml",
        6,
        "DRA308",
        f"DeviceClass gpu.example.com is defined more than once (they differ): first at {first}; "
        "this definition is rejected by the API server (see DRA120 at line 8), "
        f"so the cluster keeps the one at {first} and the dry-run uses it",
    )
    assert found[1][:3] == (f"{quoted}/b-app/deviceclass.yaml", 8, "DRA120")  # the label, where line 8 leads


def test_strategic_merge_patches_are_matched_by_the_list_merge_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # The base's containers are proxy, model; the patch model.yaml names only model (its first item), proxy.yaml
    # only proxy: kubectl kustomize renders proxy, model. Each claim name is blamed where it was written.
    monkeypatch.chdir(ROOT)
    fixtures = "tests/fixtures/kustomize-merge-keys"
    found = [(f.location.file, f.location.line, f.location.column, f.path, f.message.split(": ")[2])
             for f in check([fixtures]).report.findings if f.rule == "DRA304"]  # fmt: skip
    claim = ("spec", "template", "spec", "containers", 0, "resources", "claims", 0)
    assert found == [
        # proxy's claim, as the base wrote it (not model's claim, second in the base)
        (f"{fixtures}/base/deployment.yaml", 25, 13, claim, '"nics"'),
        # model's claim, set by the patch whose first container model is
        (f"{fixtures}/overlay/model.yaml", 16, 13, (*claim[:4], 1, *claim[5:]), '"gpus"'),
    ]


TRANSFORMERS = "tests/fixtures/kustomize-transformers"


def test_replicas_and_images_are_attributed_to_the_kustomization_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    workspace = load.load([f"{TRANSFORMERS}/scaled"])
    (source_map,) = workspace.source_maps.values()
    deployment = next(d for d in workspace.documents if d.data.get("kind") == "Deployment")
    assert deployment.data["spec"]["replicas"] == 3  # kubectl kustomize applied the overlay's replicas
    kustomization = f"{TRANSFORMERS}/scaled/kustomization.yaml"
    container = ("spec", "template", "spec", "containers", 0)
    assert source_map.locate(deployment, ("spec", "replicas"), None) == (Location(kustomization, 5, 3), None)
    assert source_map.locate(deployment, (*container, "image"), None) == (Location(kustomization, 7, 3), None)
    # what no transformer set stays in the base
    assert source_map.locate(deployment, (*container, "name"), None) == (
        Location(f"{TRANSFORMERS}/base/deployment.yaml", 19, 9),
        None,
    )
    # the dry-run places the 3 replicas the overlay asks for on the inventory's 2 GPUs
    outcome = check([f"{TRANSFORMERS}/scaled"], flags=Layer(inventory=(f"{TRANSFORMERS}/cluster",)))
    assert [(f.rule, f.message.split(" get ")[0]) for f in outcome.report.findings] == [
        ("DRA501", "1 of 3 pods of Deployment default/inference")
    ]


def test_a_field_a_replacement_writes_is_attributed_to_its_target(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    done = cli(
        "check", "--no-config", "--format", "json", "-i", f"{TRANSFORMERS}/cluster", f"{TRANSFORMERS}/renamed-class",
        cwd=ROOT,
    )  # fmt: skip
    (found,) = json.loads(done.stdout)["findings"]
    # the replacement's fieldPaths entry, not the base's deviceClassName it overwrote
    assert (found["file"], found["line"], found["column"], found["rule"]) == (
        f"{TRANSFORMERS}/renamed-class/kustomization.yaml",
        15,
        7,
        "DRA300",
    )
    assert found["hint"] == (
        "did you mean `gpu.example.com`? (the value is copied there by a replacement from ConfigMap gpu-settings "
        "data.className)"
    )


def test_the_dry_run_quotes_a_rendered_slice_where_it_was_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    folder = "tests/fixtures/kustomize-incomplete-pool"
    found = {f.rule: f for f in check([folder]).report.findings}
    # resourceSliceCount, on line 12 of slices.yaml (after a comment), is where DRA701 is and what DRA500 quotes
    assert (found["DRA701"].location.file, found["DRA701"].location.line) == (f"{folder}/slices.yaml", 12)
    assert "is 2, at tests/fixtures/kustomize-incomplete-pool/slices.yaml:12)" in found["DRA500"].message
