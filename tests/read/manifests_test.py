"""Files that are not Kubernetes manifests are skipped and counted, manifests (broken ones too) are checked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dralint.read.manifests import HELM_ADVICE, not_a_manifest
from testing.run import cli
from tests.conftest import FIXTURES

REPO = FIXTURES / "notmanifests" / "repo"
OTHER_TOOLS = [".devcontainer.json", ".github/workflows/ci.yml", ".pre-commit-config.yaml", "docker-compose.yml",
               "mkdocs.yml", "web/tsconfig.json"]  # fmt: skip
CHART = ["charts/gpu/Chart.yaml", "charts/gpu/templates/claim.yaml", "charts/gpu/values.yaml"]
MANIFESTS = ["apps/broken.yaml", "apps/claim.yaml", "charts/gpu/crds/class.yaml"]
FINDINGS = [
    "apps/broken.yaml:6:28: error DRA001 invalid YAML: while parsing a flow node: did not find expected node content",
    "charts/gpu/crds/class.yaml:1:1: error DRA200 Kubernetes 1.37 does not serve resource.k8s.io/v1alpha3 DeviceClass "
    "(served in 1.31-1.33) (DeviceClass/gpu.example.com); use resource.k8s.io/v1; "
    "`dralint convert --to v1 charts/gpu/crds/class.yaml` rewrites it",
]


@pytest.mark.parametrize("name", OTHER_TOOLS)
def test_other_tools_files_are_not_manifests(name: str) -> None:
    assert not_a_manifest(str(REPO / name), (REPO / name).read_text(encoding="utf-8")) == "not-kubernetes"


@pytest.mark.parametrize("name", CHART)
def test_a_charts_own_files_and_templates_are_not_manifests(name: str) -> None:
    assert not_a_manifest(str(REPO / name), (REPO / name).read_text(encoding="utf-8")) == "helm-chart"


@pytest.mark.parametrize("name", MANIFESTS)
def test_manifests_broken_or_in_a_charts_crds_are_manifests(name: str) -> None:
    assert not_a_manifest(str(REPO / name), (REPO / name).read_text(encoding="utf-8")) is None


@pytest.mark.parametrize(
    "text",
    [
        '{"apiVersion": "v1", "kind": "ConfigMap"}',
        '{\n  "kind"\n  : "ConfigMap"}',
        "{apiVersion: v1, kind: ConfigMap}",
        "- apiVersion: v1\n  kind: ConfigMap\n",
        '"apiVersion": v1\n',
        "# a comment\n---\nkind: ConfigMap\r\n",
        "apiVersion v1\nkind: [\n",  # broken, and still a manifest
        '---\n{\n  apiVersion: "v1",\n  kind: "Pod",\n}\n',  # as the Kubernetes website writes examples
        "spec:\n  kind: nested\n",  # perhaps not a manifest: reading it is harmless, skipping one is not
    ],
)
def test_any_top_level_apiversion_or_kind_makes_a_manifest(text: str) -> None:
    assert not_a_manifest("file.yaml", text) is None


@pytest.mark.parametrize(
    "text",
    [
        "# apiVersion: v1\nfoo: bar\n",
        '{\n  // comment\n  "compilerOptions": {},\n}\n',
        "name: ci\njobs:\n  build: {runs-on: ubuntu-latest}\n",
    ],
)
def test_documents_without_a_top_level_apiversion_or_kind_are_not_manifests(text: str) -> None:
    assert not_a_manifest("file.yaml", text) == "not-kubernetes"


def test_templates_folder_without_chart_yaml_is_checked(tmp_path: Path) -> None:
    template = tmp_path / "templates" / "claim.yaml"
    template.parent.mkdir()
    template.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n")
    assert not_a_manifest(str(template), template.read_text()) is None


def test_a_repository_walk_checks_the_manifests_and_counts_the_rest() -> None:
    result = cli("check", ".", cwd=REPO)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        *FINDINGS,
        "3 files, 2 objects: 2 errors, 0 warnings, 0 info; 6 files skipped, not Kubernetes manifests "
        "(charts/gpu/Chart.yaml, charts/gpu/templates/claim.yaml, charts/gpu/values.yaml and 3 more); "
        f"3 are of a Helm chart: {HELM_ADVICE}",
    ]  # hidden files and folders are not walked: .devcontainer.json, .github/, .pre-commit-config.yaml


def test_files_named_as_pre_commit_names_them_are_classified_the_same() -> None:
    names = sorted(OTHER_TOOLS + CHART + MANIFESTS)
    result = cli("check", *names, "-f", "json", cwd=REPO)
    assert (result.returncode, result.stderr) == (1, "")
    summary = json.loads(result.stdout)["summary"]
    assert (summary["files"], summary["objects"], summary["errors"]) == (3, 2, 2)
    assert summary["skippedFiles"] == [
        {"file": name, "reason": "helm-chart" if name in CHART else "not-kubernetes"}
        for name in names
        if name not in MANIFESTS
    ]


def test_only_files_that_are_not_manifests_pass_with_their_count() -> None:
    result = cli("check", "web/tsconfig.json", ".devcontainer.json", cwd=REPO)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "0 files, 0 objects: 0 errors, 0 warnings, 0 info; "
        "2 files skipped, not Kubernetes manifests (web/tsconfig.json, .devcontainer.json)\n"
    )


def test_a_rendered_chart_on_standard_input_is_checked(tmp_path: Path) -> None:
    rendered = (REPO / "charts/gpu/templates/claim.yaml").read_text().replace('{{ include "gpu.fullname" . }}', "gpu")
    result = cli("check", "-", "--stdin-filename", "rendered.yaml", stdin=rendered.replace("{{ .Values.gpus }}", "1"))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == "1 file, 1 object: 0 errors, 0 warnings, 1 info"


def test_a_chart_is_found_from_any_depth_below_it(tmp_path: Path) -> None:
    shutil.copytree(REPO / "charts", tmp_path / "charts")
    nested = tmp_path / "charts" / "gpu" / "templates" / "sub" / "more.yaml"
    nested.parent.mkdir()
    nested.write_text("apiVersion: v1\nkind: ConfigMap\n")
    assert not_a_manifest(str(nested), nested.read_text()) == "helm-chart"
    crd = tmp_path / "charts" / "gpu" / "crds" / "class.yaml"
    assert not_a_manifest(str(crd), crd.read_text()) is None
