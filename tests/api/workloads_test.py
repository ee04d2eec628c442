"""Pod templates and pod counts of workloads (dralint/api/workloads.py)."""

from __future__ import annotations

from dralint.api import model
from dralint.api.objects import KubeObject, identify
from dralint.api.workloads import Container, ContainerClaim, PodClaim, PodSpec, PodTemplate, Toleration, pod_templates
from dralint.read.yamldoc import decode
from tests.conftest import FIXTURES


def objects(name: str) -> list[KubeObject]:
    documents, issues = decode(name, (FIXTURES / "workloads" / name).read_text(encoding="utf-8"))
    assert issues == []
    return identify(documents).objects


def summary(template: PodTemplate) -> tuple[str, str, str, tuple[object, ...], int | None]:
    return (template.owner.kind, template.namespace, template.name, template.path, template.replicas)


def test_pod_templates_of_core_workload_kinds() -> None:
    found = [summary(t) for obj in objects("core.yaml") for t in pod_templates(obj)]
    assert found == [
        ("Pod", "ml", "shared-gpu", ("spec",), 1),
        ("Deployment", "serve", "inference", ("spec", "template", "spec"), 3),
        ("Deployment", "default", "default-replicas", ("spec", "template", "spec"), 1),
        ("ReplicaSet", "default", "scaled-down", ("spec", "template", "spec"), 0),
        ("StatefulSet", "default", "db", ("spec", "template", "spec"), 2),
        ("DaemonSet", "default", "monitor", ("spec", "template", "spec"), None),
        ("Job", "default", "capped-by-completions", ("spec", "template", "spec"), 2),
        ("Job", "default", "sequential", ("spec", "template", "spec"), 1),
        ("CronJob", "default", "nightly", ("spec", "jobTemplate", "spec", "template", "spec"), 3),
        ("ReplicationController", "default", "legacy", ("spec", "template", "spec"), 2),
        ("PodTemplate", "default", "a-template", ("template", "spec"), 0),
    ]


def test_pod_templates_found_generically_in_custom_workloads() -> None:
    found = [summary(t) for obj in objects("generic.yaml") for t in pod_templates(obj)]
    assert found == [
        ("JobSet", "ml", "training", ("spec", "replicatedJobs", 0, "template", "spec", "template", "spec"), 8),
        ("JobSet", "ml", "training", ("spec", "replicatedJobs", 1, "template", "spec", "template", "spec"), 1),
        ("LeaderWorkerSet", "serve", "vllm", ("spec", "leaderWorkerTemplate", "leaderTemplate", "spec"), 2),
        ("LeaderWorkerSet", "serve", "vllm", ("spec", "leaderWorkerTemplate", "workerTemplate", "spec"), 6),
        (
            "LeaderWorkerSet",
            "default",
            "no-leader-template",
            ("spec", "leaderWorkerTemplate", "workerTemplate", "spec"),
            6,
        ),
        ("PyTorchJob", "default", "pytorch", ("spec", "pytorchReplicaSpecs", "Master", "template", "spec"), 1),
        ("PyTorchJob", "default", "pytorch", ("spec", "pytorchReplicaSpecs", "Worker", "template", "spec"), 3),
        ("MPIJob", "default", "mpi", ("spec", "mpiReplicaSpecs", "Launcher", "template", "spec"), 1),
        ("MPIJob", "default", "mpi", ("spec", "mpiReplicaSpecs", "Worker", "template", "spec"), 2),
        ("RayCluster", "default", "ray", ("spec", "headGroupSpec", "template", "spec"), 1),
        ("RayCluster", "default", "ray", ("spec", "workerGroupSpecs", 0, "template", "spec"), 4),
        ("Job", "default", "volcano", ("spec", "tasks", 0, "template", "spec"), 2),
    ]


def test_pod_spec_reads_claims_containers_and_scheduling_fields() -> None:
    (pod,) = pod_templates(objects("core.yaml")[0])
    assert pod.spec == PodSpec(
        resource_claims=(
            PodClaim("gpu", resource_claim_name="shared-gpu"),
            PodClaim("scratch", resource_claim_template_name="scratch-gpu"),
        ),
        containers=(
            Container("warmup", "initContainers", 0, (ContainerClaim("gpu"),)),
            Container(
                "trainer",
                "containers",
                0,
                (ContainerClaim("gpu", "big"), ContainerClaim("scratch")),
                requests={"cpu": "2", "memory": "8Gi", "example.com/gpu": "1"},
                limits={"example.com/gpu": "1"},
            ),
            Container("sidecar", "containers", 1, (ContainerClaim("gpu"),)),
        ),
        node_name="node-a",
        node_selector={"gpu.example.com/present": "true", "count": "2"},
        required_affinity=model.NodeSelector(
            (
                model.NodeSelectorTerm(
                    (model.NodeSelectorRequirement("topology.kubernetes.io/zone", "In", ("zone-a",)),)
                ),
            )
        ),
        tolerations=(Toleration("gpu", "Exists", "", "NoSchedule"), Toleration("maintenance", "Equal", "planned", "")),
    )
    assert pod.metadata_path == ("metadata",)
    assert not pod.per_node


def test_template_metadata_and_paths() -> None:
    deployment = objects("core.yaml")[1]
    (template,) = pod_templates(deployment)
    assert template.labels == {"app": "inference"}
    assert template.annotations == {"note": "hi"}
    assert template.metadata_path == ("spec", "template", "metadata")
    assert deployment.position((*template.path, "containers", 0, "name")) == (62, 21)
    daemon = pod_templates(objects("core.yaml")[5])[0]
    assert daemon.per_node


def test_pod_spec_of_malformed_input_is_empty() -> None:
    from dralint.api.workloads import pod_spec

    assert pod_spec(None) == PodSpec()
    assert pod_spec({"containers": "x", "resourceClaims": [7], "tolerations": None}) == PodSpec(
        resource_claims=(PodClaim(""),)
    )
