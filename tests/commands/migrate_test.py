"""dralint migrate: device-plugin requests rewritten into claims, and the DeviceClasses that back them instead.

The golden files say what the profiles' data make of each vendor's resources (the classes and
selectors are the DRA drivers' own, cited in profiles/*.yaml); that the result is right for
Kubernetes is tested by ``check`` (schema and API-server validation) and by the dry-run: the
rewritten pods and the kept pods (through extendedResourceName) land where the device plugin's
allocatable counts put them (worked out by hand in ``_DEVICE_PLUGIN_PLACEMENTS``).
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.cli import main
from dralint.commands import migrate
from dralint.errors import UsageError
from tests.conftest import ROOT

FIXTURES = Path(__file__).parent.parent / "fixtures" / "migrate"
EXAMPLE = ROOT / "migrate-example"  # the README's worked example: NVIDIA's device plugin to its DRA driver
VENDORS = ("nvidia", "amd", "intel")
ROADS = ("today", "switch", "rewrite")

# migrate-example/cluster.yaml: node-a advertises nvidia.com/gpu: 2, node-b nvidia.com/mig-1g.10gb: 2; the
# three replicas of infer take one GPU each (the third finds none), the two notebooks one MIG each.
_DEVICE_PLUGIN_PLACEMENTS = {
    "ml/infer-0": "node-a",
    "ml/infer-1": "node-a",
    "ml/infer-2": None,
    "ml/notebooks-0": "node-b",
    "ml/notebooks-1": "node-b",
}


# Without the cluster, check says the driver's classes must exist there (DRA306, info): nothing else may show.
_NO_INVENTORY = ("--ignore", "DRA306", "--fail-on", "info")


def _workloads(vendor: str) -> Path:
    return EXAMPLE / "workloads.yaml" if vendor == "nvidia" else FIXTURES / vendor / "workloads.yaml"


def _run(*paths: Path, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    settings = migrate.MigrateSettings(paths=tuple(str(p) for p in paths), no_config=True, **options)  # type: ignore[arg-type]
    return migrate.run(settings, out), out.getvalue()


@pytest.mark.parametrize("vendor", VENDORS)
def test_migrate_rewrites_each_vendors_requests_into_claims(vendor: str) -> None:
    code, text = _run(_workloads(vendor))
    assert (code, text) == (0, (FIXTURES / vendor / "migrated.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("vendor", VENDORS)
def test_migrate_classes_prints_each_vendors_device_classes(vendor: str) -> None:
    code, text = _run(_workloads(vendor), mode="classes")
    assert (code, text) == (0, (FIXTURES / vendor / "classes.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("vendor", VENDORS)
def test_migrated_workloads_pass_check(vendor: str) -> None:
    result = CliRunner().invoke(
        main, ["check", str(FIXTURES / vendor / "migrated.yaml"), "--no-config", "--no-simulate", "-q", *_NO_INVENTORY]
    )
    assert (result.exit_code, result.output) == (0, "")


@pytest.mark.parametrize("vendor", VENDORS)
def test_migrate_classes_pass_check(vendor: str) -> None:
    result = CliRunner().invoke(
        main, ["check", str(FIXTURES / vendor / "classes.yaml"), "--no-config", "--no-simulate", "-q", *_NO_INVENTORY]
    )
    assert (result.exit_code, result.output) == (0, "")


def _placements(*args: str) -> dict[str, str | None]:
    result = CliRunner().invoke(main, ["simulate", *args, "--no-config", "-f", "json"])
    assert result.exit_code in (0, 1), result.output
    return {p["pod"]: p["node"] for p in json.loads(result.stdout)["placements"]}


def test_rewritten_and_kept_workloads_land_where_the_device_plugin_put_them(tmp_path: Path) -> None:
    cluster = str(EXAMPLE / "cluster.yaml")
    rewritten = _placements(str(FIXTURES / "nvidia" / "migrated.yaml"), "-i", cluster)
    assert rewritten == _DEVICE_PLUGIN_PLACEMENTS
    # The other road: the workloads as they are, the cluster without the device plugin's resources
    # and with the classes of --classes in place of the driver's gpu.nvidia.com.
    text = (EXAMPLE / "cluster.yaml").read_text(encoding="utf-8")
    text = text.replace(', nvidia.com/gpu: "2"', "").replace(', nvidia.com/mig-1g.10gb: "2"', "")
    documents = [d for d in text.split("\n---\n") if "name: gpu.nvidia.com\nspec" not in d]
    (tmp_path / "cluster.yaml").write_text("\n---\n".join(documents), encoding="utf-8")
    classes = str(FIXTURES / "nvidia" / "classes.yaml")
    kept = _placements(str(EXAMPLE / "workloads.yaml"), "-i", str(tmp_path / "cluster.yaml"), "-i", classes)
    assert kept == _DEVICE_PLUGIN_PLACEMENTS


def test_migrate_leaves_unmappable_requests_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "unmapped" / "workloads.yaml"
    code, text = _run(source)
    skipped = [line.replace(str(FIXTURES), "tests/fixtures/migrate") for line in capsys.readouterr().err.splitlines()]
    assert skipped[-1] == "dralint: moved 0 containers in 0 files to claims from 0 ResourceClaimTemplates"
    assert (code, text) == (1, source.read_text(encoding="utf-8"))
    assert skipped[:-1] == (FIXTURES / "unmapped" / "skipped.txt").read_text(encoding="utf-8").splitlines()


def test_migrate_classes_says_which_resources_no_class_can_back() -> None:
    code, text = _run(FIXTURES / "unmapped" / "workloads.yaml", mode="classes")
    assert (code, text) == (1, (FIXTURES / "unmapped" / "classes.yaml").read_text(encoding="utf-8"))


def test_migrate_classes_notes_the_gate_off_by_default_before_1_36() -> None:
    code, text = _run(FIXTURES / "intel" / "workloads.yaml", mode="classes", release="1.35")
    first, rest = text.split("\n", 1)
    assert first == (
        "# Kubernetes 1.35 leaves the DRAExtendedResource feature gate off: the API server drops "
        "extendedResourceName and the scheduler ignores it until DRAExtendedResource=true is set"
    )
    assert (code, rest) == (0, (FIXTURES / "intel" / "classes.yaml").read_text(encoding="utf-8"))


def test_migrate_classes_refuses_a_release_without_extended_resource_name() -> None:
    with pytest.raises(UsageError, match=r"^Kubernetes 1.33 has no extendedResourceName: .* from 1.34 on"):
        _run(FIXTURES / "intel" / "workloads.yaml", mode="classes", release="1.33")


def test_migrate_writes_templates_in_the_version_the_release_serves() -> None:
    code, text = _run(FIXTURES / "intel" / "workloads.yaml", release="1.32")
    assert code == 0
    assert text.count("apiVersion: resource.k8s.io/v1beta1\n") == 2
    assert "exactly:" not in text  # v1beta1 requests are flat
    assert "        deviceClassName: gpu.intel.com\n" in text


def test_migrate_in_place_rewrites_the_file_once(tmp_path: Path) -> None:
    path = tmp_path / "workloads.yaml"
    shutil.copy(EXAMPLE / "workloads.yaml", path)
    assert _run(path, in_place=True) == (0, "")
    assert path.read_text(encoding="utf-8") == (FIXTURES / "nvidia" / "migrated.yaml").read_text(encoding="utf-8")
    assert _run(path, in_place=True) == (0, "")  # nothing left to move
    assert path.read_text(encoding="utf-8") == (FIXTURES / "nvidia" / "migrated.yaml").read_text(encoding="utf-8")


def _check(*args: str) -> tuple[int, dict[str, dict[str, int]], dict[str, list[str]]]:
    """Exit code, placed pods per workload and road, and the reasons of the switch road per workload."""
    result = CliRunner().invoke(main, ["migrate", "--check", "--no-config", "-f", "json", *args])
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.stdout)["workloads"]
    placed = {w["workload"]: {"pods": w["pods"], **{r: w[r]["placed"] for r in ROADS}} for w in found}
    return result.exit_code, placed, {w["workload"]: w["switch"]["reasons"] for w in found}


def test_migrate_check_places_the_pods_on_each_road_as_the_device_plugin_did() -> None:
    classes = str(FIXTURES / "nvidia" / "classes.yaml")
    code, placed, _ = _check(str(EXAMPLE / "workloads.yaml"), "-i", str(EXAMPLE / "cluster.yaml"), "-i", classes)
    # The device plugin's counts: two GPUs for three replicas, two MIG devices for two notebooks.
    assert placed == {
        "Deployment ml/infer": {"pods": 3, "today": 2, "switch": 2, "rewrite": 2},
        "Job ml/notebooks": {"pods": 2, "today": 2, "switch": 2, "rewrite": 2},
    }
    assert code == 0


def test_migrate_check_switch_needs_a_class_naming_the_resource() -> None:
    code, placed, reasons = _check(str(EXAMPLE / "workloads.yaml"), "-i", str(EXAMPLE / "cluster.yaml"))
    assert {w: (p["today"], p["switch"], p["rewrite"]) for w, p in placed.items()} == {
        "Deployment ml/infer": (2, 0, 2),
        "Job ml/notebooks": (2, 0, 2),
    }
    assert reasons["Job ml/notebooks"][0] == (
        "no DeviceClass names nvidia.com/mig-1g.10gb in extendedResourceName "
        "(dralint migrate --classes prints one; DRAExtendedResource)"
    )
    assert code == 1  # the switch places fewer pods than today


@pytest.mark.parametrize(("gates", "switch"), [((), 0), (("--feature-gates", "DRAExtendedResource=true"), 2)])
def test_migrate_check_switch_follows_the_gate_of_the_release(gates: tuple[str, ...], switch: int) -> None:
    inventory = ("-i", str(EXAMPLE / "cluster.yaml"), "-i", str(FIXTURES / "nvidia" / "classes.yaml"))
    _, placed, reasons = _check(str(EXAMPLE / "workloads.yaml"), *inventory, "--kubernetes-version", "1.35", *gates)
    assert placed["Job ml/notebooks"] == {"pods": 2, "today": 2, "switch": switch, "rewrite": 2}
    gate_off = reasons["Job ml/notebooks"][:1] == [
        "Kubernetes 1.35 leaves the DRAExtendedResource feature gate off: the API server drops "
        "extendedResourceName and the scheduler ignores it until DRAExtendedResource=true is set"
    ]
    assert gate_off == (switch == 0)


def test_migrate_check_intel_workloads_on_each_road() -> None:
    cluster = FIXTURES / "intel"
    _, placed, _ = _check(
        str(cluster / "workloads.yaml"), "-i", str(cluster / "cluster.yaml"), "-i", str(cluster / "classes.yaml")
    )
    # media-0 advertises two i915 and two xe GPUs: both replicas (one of each) fit on every road.
    assert placed == {"StatefulSet default/transcode": {"pods": 2, "today": 2, "switch": 2, "rewrite": 2}}


def test_migrate_check_text_lists_the_roads_per_workload() -> None:
    result = CliRunner().invoke(
        main,
        ["migrate", "--check", "--no-config", str(EXAMPLE / "workloads.yaml"), "-i", str(EXAMPLE / "cluster.yaml")],
    )
    assert result.stdout.splitlines()[:4] == [
        "Kubernetes 1.37, DRAExtendedResource on: pods placed",
        "WORKLOAD             RESOURCES               PODS  TODAY  SWITCH  REWRITE",
        "Deployment ml/infer  nvidia.com/gpu          3     2      0       2",
        "Job ml/notebooks     nvidia.com/mig-1g.10gb  2     2      0       2",
    ]
    assert result.exit_code == 1


def test_migrate_check_html_marks_the_roads_that_place_fewer_pods() -> None:
    result = CliRunner().invoke(
        main,
        [
            "migrate",
            "--check",
            "--no-config",
            "-f",
            "html",
            str(EXAMPLE / "workloads.yaml"),
            "-i",
            str(EXAMPLE / "cluster.yaml"),
        ],
    )
    assert result.exit_code == 1
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>")
    row = page.split('<tr data-workload="Job ml/notebooks">', 1)[1].split("</tr>", 1)[0]
    assert row == (
        "<td>Job ml/notebooks</td><td>nvidia.com/mig-1g.10gb</td><td>2</td>"
        '<td class="same">2</td><td class="fewer">0</td><td class="same">2</td>'
    )
    assert (
        "<li><strong>Job ml/notebooks</strong>, after the switch: no DeviceClass names nvidia.com/mig-1g.10gb in "
        "extendedResourceName (dralint migrate --classes prints one; DRAExtendedResource)</li>"
    ) in page


def test_migrate_in_place_keeps_crlf_line_breaks_in_what_it_adds(tmp_path: Path) -> None:
    path = tmp_path / "workloads.yaml"
    path.write_bytes((FIXTURES / "intel" / "workloads.yaml").read_bytes().replace(b"\n", b"\r\n"))
    assert _run(path, in_place=True) == (0, "")
    written = path.read_bytes()
    expected = (FIXTURES / "intel" / "migrated.yaml").read_bytes().replace(b"\n", b"\r\n")
    assert written == expected


def test_migrate_check_amd_workloads_on_each_road(tmp_path: Path) -> None:
    fixture = FIXTURES / "amd" / "roads"
    _, classes = _run(fixture / "workloads.yaml", mode="classes")
    (tmp_path / "classes.yaml").write_text(classes, encoding="utf-8")
    _, placed, _ = _check(
        str(fixture / "workloads.yaml"), "-i", str(fixture / "cluster.yaml"), "-i", str(tmp_path / "classes.yaml")
    )
    # mi300x-0 advertises amd.com/gpu: 2 for three replicas of one GPU each.
    assert placed == {"Deployment serving/rocm-serve": {"pods": 3, "today": 2, "switch": 2, "rewrite": 2}}


MIXED = FIXTURES / "mixed"  # node-dp-0: device plugin only; node-dra-0: DRA only; node-mig-0: both (see the file)


def test_migrate_check_on_a_mixed_cluster_keeps_the_device_plugin_where_it_still_runs() -> None:
    """Expected placements worked out by hand from kube-scheduler's rules (1.37):

    - NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go, fitsRequest with
      shouldDelegateResourceToDRA) counts an extended resource the node advertises (allocatable > 0)
      and leaves one it does not to DynamicResources when a DeviceClass names it;
    - DynamicResources (plugins/dynamicresources/extended_resources.go, filterExtendedResources) asks
      DRA only for the resources the node does not advertise.

    Today (no class serves them): node-dp-0's three GPUs take legacy, tuning (both pinned there) and
    one infer replica; node-mig-0's two MIG devices the notebooks. After the switch node-dra-0 and
    node-mig-0 run the DRA driver (their device plugin is gone) while node-dp-0 keeps its own: legacy,
    tuning and one replica still get node-dp-0's GPUs from the device plugin, three more replicas the
    DRA GPUs (two on node-dra-0, node-mig-0's whole A100); no MIG device exists for the notebooks.
    After the rewrite every pod needs a DRA device: the pinned ones find none on node-dp-0.
    """
    result = CliRunner().invoke(
        main,
        [
            "migrate",
            "--check",
            "--no-config",
            "-f",
            "json",
            str(MIXED / "workloads.yaml"),
            "-i",
            str(MIXED / "cluster.yaml"),
        ],
    )
    assert result.exit_code == 1  # the rewrite places fewer pods of legacy and tuning than today
    found = {w["workload"]: w for w in json.loads(result.stdout)["workloads"]}
    counts = {
        name: (
            w["pods"],
            w["today"]["placed"],
            w["switch"]["placed"],
            w["switch"]["devicePlugin"],
            w["rewrite"]["placed"],
        )
        for name, w in found.items()
    }
    assert counts == {
        "Deployment ml/legacy": (1, 1, 1, 1, 0),
        "Deployment ml/tuning": (1, 1, 1, 1, 0),
        "Deployment ml/infer": (5, 1, 4, 1, 3),
        "Job ml/notebooks": (2, 2, 0, 0, 0),
    }


def test_migrate_check_names_the_node_selection_only_device_plugin_nodes_satisfy() -> None:
    result = CliRunner().invoke(
        main,
        [
            "migrate",
            "--check",
            "--no-config",
            "-f",
            "json",
            str(MIXED / "workloads.yaml"),
            "-i",
            str(MIXED / "cluster.yaml"),
        ],
    )
    found = {w["workload"]: w for w in json.loads(result.stdout)["workloads"]}
    elsewhere = (
        " admits only node-dp-0, where gpu.nvidia.com publishes no devices; it refuses every node with them "
        "(node-dra-0, node-mig-0), so nvidia.com/gpu has no DRA node to go to"
    )
    assert found["Deployment ml/legacy"]["rewrite"]["reasons"][0] == "nodeSelector gpu-stack=device-plugin" + elsewhere
    assert found["Deployment ml/tuning"]["rewrite"]["reasons"][0] == (
        "required node affinity nodeSelectorTerms[0] (gpu-stack In [device-plugin])" + elsewhere
    )
    # The switch keeps node-dp-0's device plugin: the pinned pods lose nothing there, and nothing is said.
    assert found["Deployment ml/legacy"]["switch"]["reasons"] == []


def test_migrate_check_says_mig_resources_need_mig_devices_or_counters_in_the_slices() -> None:
    result = CliRunner().invoke(
        main, ["migrate", "--check", "--no-config", str(MIXED / "workloads.yaml"), "-i", str(MIXED / "cluster.yaml")]
    )
    missing = (
        "nvidia.com/mig-1g.10gb: none of the 3 gpu.nvidia.com devices in the inventory's ResourceSlices matches "
        'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "mig" && '
        'device.attributes["gpu.nvidia.com"].profile == "1g.10gb", and no gpu.nvidia.com slice declares '
        "sharedCounters: the driver publishes a MIG device of one profile (migStrategy mixed) as devices of kind "
        "mig (a MIG partition of a GPU: an existing MIG device, or (DynamicMIG) a partition the driver creates "
        "when it prepares the claim)"
    )
    lines = result.stdout.splitlines()
    assert f"Job ml/notebooks: after the switch: {missing}" in lines
    assert f"Job ml/notebooks: after the rewrite: {missing}" in lines
    assert lines[1:6] == [
        "WORKLOAD              RESOURCES               PODS  TODAY  SWITCH               REWRITE",
        "Deployment ml/legacy  nvidia.com/gpu          1     1      1 (1 device plugin)  0",
        "Deployment ml/tuning  nvidia.com/gpu          1     1      1 (1 device plugin)  0",
        "Deployment ml/infer   nvidia.com/gpu          5     1      4 (1 device plugin)  3",
        "Job ml/notebooks      nvidia.com/mig-1g.10gb  2     2      0                    0",
    ]


PARTITIONS = FIXTURES / "amd" / "partitions"  # two MI300X in CPX/NPS4: eight partitions each (see the file)


def test_migrate_check_amd_partitioned_gpus_on_each_road(tmp_path: Path) -> None:
    """AMD partitions, from ROCm/k8s-device-plugin (cmd/k8s-device-plugin/main.go: the single naming
    strategy counts each partition as an amd.com/gpu, the mixed one as amd.com/<compute>_<memory>)
    and ROCm/k8s-gpu-dra-driver (docs/driver-attributes.md: partitions published as devices of type
    amdgpu-partition with their partitionProfile, in place of their GPU).

    Today the device plugin gives rocm-serve mi300x-1's eight amd.com/gpu (two replicas wait) and
    cpx-batch mi300x-2's eight amd.com/cpx_nps4 (four pods of two). With DRA the class of amd.com/gpu
    selects every GPU and partition of the driver (the profile's amd.com/gpu): the ten replicas, placed
    first, take all of mi300x-1's and two of mi300x-2's partitions, which leaves six cpx_nps4
    partitions for three batch pods. The rewrite selects the same devices: the same counts.
    """
    _, classes = _run(PARTITIONS / "workloads.yaml", mode="classes")
    (tmp_path / "classes.yaml").write_text(classes, encoding="utf-8")
    inventory = ("-i", str(PARTITIONS / "cluster.yaml"), "-i", str(tmp_path / "classes.yaml"))
    code, placed, _ = _check(str(PARTITIONS / "workloads.yaml"), *inventory)
    assert placed == {
        "Deployment serving/rocm-serve": {"pods": 10, "today": 8, "switch": 10, "rewrite": 10},
        "Job serving/cpx-batch": {"pods": 4, "today": 4, "switch": 3, "rewrite": 3},
    }
    assert code == 1


def test_migrated_amd_workloads_take_one_partition_per_amd_com_gpu_and_two_per_cpx_pod(tmp_path: Path) -> None:
    # The rewrite asks for what the device plugin counted: one partition per replica, two cpx_nps4
    # partitions per batch pod; the sixteen partitions hold ten replicas and three batch pods.
    code, text = _run(PARTITIONS / "workloads.yaml")
    assert code == 0
    (tmp_path / "migrated.yaml").write_text(text, encoding="utf-8")
    args = [str(tmp_path / "migrated.yaml"), "-i", str(PARTITIONS / "cluster.yaml"), "--no-config", "-f", "json"]
    result = CliRunner().invoke(main, ["simulate", *args])
    taken: dict[str, list[int]] = {}
    devices: list[tuple[str, str]] = []
    for placement in json.loads(result.stdout)["placements"]:
        own = [(d["pool"], d["device"]) for claim in placement["claims"] for d in claim["devices"]]
        taken.setdefault(placement["workload"], []).append(len(own))
        devices += own
    assert taken == {"Deployment serving/rocm-serve": [1] * 10, "Job serving/cpx-batch": [2, 2, 2, 0]}
    assert len(set(devices)) == len(devices) == 16  # every partition once


@pytest.mark.parametrize(("release", "switch"), [("1.34", 0), ("1.35", 2)])
def test_migrate_check_switch_on_1_34_finds_the_resource_still_listed_at_zero(release: str, switch: int) -> None:
    """After the switch a node's kubelet keeps listing the uninstalled device plugin's resource at 0
    (kubernetes#133488: "kubelet still publishes 'example.com/resource: "0"'"). Kubernetes 1.34's
    NodeResourcesFit (fit.go, fitsRequest: okScalar) keeps a listed resource for the device plugin,
    so neither node takes a pod; 1.35's (shouldDelegateResourceToDRA: allocatable > 0, kubernetes#133784)
    hands it to DRA, which places what the device plugin did."""
    inventory = ("-i", str(EXAMPLE / "cluster.yaml"), "-i", str(FIXTURES / "nvidia" / "classes.yaml"))
    gate = ("--feature-gates", "DRAExtendedResource=true", "--kubernetes-version", release)
    _, placed, reasons = _check(str(EXAMPLE / "workloads.yaml"), *inventory, *gate)
    assert {w: p["switch"] for w, p in placed.items()} == {"Deployment ml/infer": switch, "Job ml/notebooks": switch}
    listed = (
        "the kubelet keeps listing nvidia.com/mig-1g.10gb at 0 in status.allocatable after its device plugin is "
        "uninstalled (kubernetes#133488), and Kubernetes 1.34 leaves a resource a node lists to the device plugin, "
        "so DRA serves it on no such node (from 1.35 on it does: kubernetes#133784)"
    )
    assert (listed in reasons["Job ml/notebooks"]) == (release == "1.34")


def test_migrate_check_html_counts_the_pods_a_kept_device_plugin_serves() -> None:
    args = ["migrate", "--check", "--no-config", "-f", "html", str(MIXED / "workloads.yaml")]
    result = CliRunner().invoke(main, [*args, "-i", str(MIXED / "cluster.yaml")])
    row = result.stdout.split('<tr data-workload="Deployment ml/infer">', 1)[1].split("</tr>", 1)[0]
    assert row == (
        "<td>Deployment ml/infer</td><td>nvidia.com/gpu</td><td>5</td>"
        '<td class="same">1</td><td class="same">4 (1 device plugin)</td><td class="same">3</td>'
    )
    assert (
        "<li><strong>Deployment ml/legacy</strong>, after the rewrite: nodeSelector gpu-stack=device-plugin admits "
        "only node-dp-0, where gpu.nvidia.com publishes no devices; it refuses every node with them (node-dra-0, "
        "node-mig-0), so nvidia.com/gpu has no DRA node to go to</li>"
    ) in result.stdout
