"""``helm template`` output led back to the chart's templates: recorded output (always) and helm live (when installed).

The recordings beside the chart (``scripts/record_helm.py`` re-records them) are real
``helm template`` v4.1.4 output. The expected positions are where the fields stand in the
templates of ``tests/fixtures/helm/gpu-inference``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from testing.helm import on_path, real_helm, stand_in
from testing.run import ROOT, cli

HELM = ROOT / "tests" / "fixtures" / "helm"
CHART = "tests/fixtures/helm/gpu-inference"
APPROXIMATE = "the field is not written literally in the template: the position is the object's first line"

# (template, line, column, rule, object) of each finding of the chart rendered with values-broken.yaml
BROKEN = [
    ("templates/claims.yaml", 13, 11, "DRA122", "gpu-inference-gpus-1"),  # deviceClassName, in a range loop
    ("templates/claims.yaml", 13, 11, "DRA122", "gpu-inference-gpus-2"),
    ("templates/claims.yaml", 14, 11, "DRA126", "gpu-inference-gpus-1"),  # allocationMode
    ("templates/claims.yaml", 14, 11, "DRA126", "gpu-inference-gpus-2"),
    ("templates/deviceclass.yaml", 1, 1, "DRA400", "GPU_Class"),  # a selector from toYaml: not in the template
    ("templates/deviceclass.yaml", 4, 3, "DRA120", "GPU_Class"),  # metadata.name
]


def _findings(stdout: str, prefix: str) -> list[tuple[str, int, int, str, str]]:
    found = json.loads(stdout)["findings"]
    return [(f["file"].removeprefix(prefix), f["line"], f["column"], f["rule"], f["object"]["name"]) for f in found]


def test_recorded_helm_template_on_stdin_maps_to_the_templates() -> None:
    recorded = (HELM / "gpu-inference-broken.rendered.yaml").read_text(encoding="utf-8")
    done = cli("check", "--no-config", "--format", "json", "-", cwd=HELM, stdin=recorded)
    assert done.returncode == 1, done.stderr
    assert _findings(done.stdout, "gpu-inference/") == BROKEN
    hints = {f["rule"]: f["hint"] for f in json.loads(done.stdout)["findings"]}
    assert hints["DRA400"].endswith(f"({APPROXIMATE})")
    assert APPROXIMATE not in hints["DRA120"]


def test_recorded_stream_finds_the_chart_under_charts(tmp_path: Path) -> None:
    shutil.copytree(HELM / "gpu-inference", tmp_path / "charts" / "gpu-inference")
    recorded = (HELM / "gpu-inference.rendered.yaml").read_text(encoding="utf-8")
    done = cli("check", "--no-config", "--format", "json", "-", cwd=tmp_path, stdin=recorded)
    # the expression of the one selector, on line 10 of the template
    assert _findings(done.stdout, "") == [
        ("charts/gpu-inference/templates/deviceclass.yaml", 10, 7, "DRA902", "gpu.example.com")
    ]


def test_messages_quote_other_objects_in_their_templates() -> None:
    # Two templates of the chart "twice" define the same DeviceClass; b.yaml's has a label value the API server
    # refuses. The positions quoted are the templates' (a.yaml's object starts on line 2, after a comment; the
    # label is on line 8 of b.yaml), not the rendered stream's (lines 4 and 20 there).
    recorded = (HELM / "twice.rendered.yaml").read_text(encoding="utf-8")
    done = cli("check", "--no-config", "--format", "json", "-", cwd=HELM, stdin=recorded)
    found = [(f["file"], f["line"], f["rule"], f["message"]) for f in json.loads(done.stdout)["findings"]]
    assert found[0] == (
        "twice/templates/b.yaml",
        5,
        "DRA308",
        "DeviceClass gpu.example.com is defined more than once (they differ): first at twice/templates/a.yaml:2; "
        "this definition is rejected by the API server (see DRA120 at line 8), "
        "so the cluster keeps the one at twice/templates/a.yaml:2 and the dry-run uses it",
    )
    assert found[1][:3] == ("twice/templates/b.yaml", 8, "DRA120")


def test_text_on_stdin_without_source_lines_keeps_stdin_positions() -> None:
    recorded = (HELM / "gpu-inference-broken.rendered.yaml").read_text(encoding="utf-8")
    plain = "\n".join(line for line in recorded.splitlines() if not line.startswith("# Source:"))
    done = cli("check", "--no-config", "--format", "json", "-", cwd=HELM, stdin=plain)
    assert {f["file"] for f in json.loads(done.stdout)["findings"]} == {"-"}


@pytest.mark.skipif(real_helm() is None, reason="helm is not installed (DRALINT_HELM, PATH): the recording is tested")
def test_helm_chart_option_renders_the_chart_live(tmp_path: Path) -> None:
    (tmp_path / "helm").symlink_to(str(real_helm()))
    done = cli(
        "check", "--no-config", "--format", "json", "--helm-chart", CHART,
        "--values", f"{CHART}/../values-broken.yaml", cwd=ROOT, env={"PATH": on_path(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    live = [(file, line, column, rule, name.replace("release-name", "gpu-inference"))
            for file, line, column, rule, name in _findings(done.stdout, f"{CHART}/")]  # fmt: skip
    assert live == BROKEN


UNRENDERED = "tests/fixtures/helm/unrendered"
# what helm says of the chart (tests/fixtures/helm/unrendered.stderr.txt), at the template and line it names
# (its column counts from 0: the 'r' of required is the 12th character of line 4)
UNRENDERED_FINDING = (
    f"{UNRENDERED}/templates/deviceclass.yaml", 4, 12, "DRA009",
    "helm template failed: execution error at (unrendered/templates/deviceclass.yaml:4:11): className is required",
)  # fmt: skip


def _chart_findings(helm_folder: Path) -> tuple[int, list[tuple[str, int, int, str, str]]]:
    done = cli(
        "check", "--no-config", "--format", "json", "--helm-chart", UNRENDERED, "--helm-chart", "tests/fixtures/helm/twice",
        cwd=ROOT, env={"PATH": on_path(helm_folder)},
    )  # fmt: skip
    found = json.loads(done.stdout)["findings"]
    return done.returncode, [(f["file"], f["line"], f["column"], f["rule"], f["message"]) for f in found]


def test_a_chart_that_does_not_render_is_a_finding_and_the_others_are_checked(tmp_path: Path) -> None:
    stand_in(tmp_path)  # replays what helm printed for the two charts
    code, found = _chart_findings(tmp_path)
    assert code == 1
    assert [f[:4] for f in found[:-1]] == [
        ("tests/fixtures/helm/twice/templates/b.yaml", 5, 3, "DRA308"),
        ("tests/fixtures/helm/twice/templates/b.yaml", 8, 5, "DRA120"),
    ]
    assert found[-1] == UNRENDERED_FINDING


@pytest.mark.skipif(real_helm() is None, reason="helm is not installed (DRALINT_HELM, PATH): the stand-in is tested")
def test_a_chart_that_does_not_render_is_a_finding_with_helm_live(tmp_path: Path) -> None:
    (tmp_path / "helm").symlink_to(str(real_helm()))
    code, found = _chart_findings(tmp_path)
    assert (code, found[-1]) == (1, UNRENDERED_FINDING)
    assert [f[3] for f in found[:-1]] == ["DRA308", "DRA120"]


def test_helm_chart_option_without_helm_exits_2(tmp_path: Path) -> None:
    done = cli("check", "--no-config", "--helm-chart", CHART, cwd=ROOT, env={"PATH": str(tmp_path)})
    assert (done.returncode, done.stderr) == (
        2,
        "dralint: error: --helm-chart needs helm on PATH; it is not installed\n",
    )


def test_values_without_helm_chart_is_a_usage_error() -> None:
    done = cli("check", "--no-config", "--values", "v.yaml", cwd=ROOT)
    assert (done.returncode, done.stderr) == (2, "dralint: error: --values and --set need --helm-chart\n")
