"""The filters that depend on the pods placed before: NodeResourcesFit, InterPodAffinity and
PodTopologySpread, and --strategy spread across separate pods (tests/fixtures/simulate/filters/)."""

from __future__ import annotations

from dralint.dryrun import analysis, resources
from dralint.dryrun.placement import Strategy
from testing.run import ROOT
from testing.simulate import context

Row = tuple[str, str, str, str, str]


def _rows(name: str, *, strategy: Strategy = "pack") -> tuple[list[Row], list[Row]]:
    """(pods that need devices, pods without claims): name, outcome, node, devices, reason."""
    simulation = context(f"filters/{name}").dry_run(strategy).simulation

    def row(p: analysis.Placement) -> Row:
        devices = ",".join(r.device for _, a in p.allocations for r in a.results)
        return (p.pod.name, p.outcome, p.node or "-", devices, p.reason)

    return [row(p) for p in simulation.placements], [row(p) for p in simulation.others]


def test_required_hostname_anti_affinity_keeps_the_second_worker_off_the_only_node() -> None:
    placed, _ = _rows("anti-affinity-hostname.yaml")
    assert placed == [
        ("workers-0", "placed", "gpu-0", "gpu-0,gpu-1,gpu-2,gpu-3", ""),
        (
            "workers-1",
            "no-node",
            "-",
            "",
            "0 of 1 nodes are eligible: 1 node excluded by pod anti-affinity with Job ml/workers",
        ),
    ]


def test_zone_anti_affinity_spreads_replicas_over_zones_and_ignores_unselected_pods() -> None:
    placed, others = _rows("anti-affinity-zone.yaml")
    assert placed == [
        ("replicas-0", "placed", "a-0", "gpu-0", ""),
        ("replicas-1", "placed", "b-0", "gpu-0", ""),
        (
            "replicas-2",
            "no-node",
            "-",
            "",
            "0 of 3 nodes are eligible: 3 nodes excluded by pod anti-affinity with StatefulSet default/replicas",
        ),
    ]
    assert others == [("logger", "placed", "b-0", "", "")]


def test_placed_pods_anti_affinity_repels_later_pods() -> None:
    placed, others = _rows("anti-affinity-existing.yaml")
    assert placed == [
        (
            "noisy",
            "no-node",
            "-",
            "",
            "0 of 1 nodes are eligible: 1 node excluded by the pod anti-affinity of Pod ml/loner",
        )
    ]
    assert others == [("loner", "placed", "gpu-0", "", "")]


def test_required_pod_affinity_follows_the_selected_pods_and_lets_the_first_of_a_group_go_anywhere() -> None:
    placed, others = _rows("affinity.yaml")
    assert placed == [
        ("reader-0", "placed", "node-1", "gpu-0", ""),  # pack would have taken node-0
        ("group-0", "placed", "node-0", "gpu-0", ""),
        ("group-1", "placed", "node-0", "gpu-1", ""),
        ("group-2", "unsatisfiable", "-", "", "the claims cannot be allocated on the only node the pod may run on"),
    ]
    assert others == [("cache", "placed", "node-1", "", "")]
    failure = context("filters/affinity.yaml").analysis.failures[0]
    assert (failure.first.candidates, failure.first.filters) == (("node-0",), ("pod affinity",))


def test_pod_requests_count_init_containers_sidecars_overhead_and_limits_only_resources() -> None:
    ctx = context("filters/resources.yaml")
    train = next(t for t in ctx.pod_templates if t.name == "train")
    # app 2 + 1 (limits only) + sidecar 0.5 = 3.5 > init 2 + sidecar 0.5; + overhead 0.5
    assert resources.pod_requests(train.spec) == {"cpu": 4000, "memory": 6 * 2**30 + 512 * 2**20}
    fpga = next(t for t in ctx.pod_templates if t.name == "fpga")
    assert resources.pod_requests(fpga.spec) == {"example.com/fpga": 2}


def test_node_resources_fit_against_allocatable_minus_placed_pods() -> None:
    placed, _ = _rows("resources.yaml")
    assert placed == [
        ("train-0", "placed", "node-0", "gpu-0", ""),
        ("train-1", "placed", "node-0", "gpu-1", ""),
        ("train-2", "placed", "node-1", "gpu-0", ""),  # node-0 has GPUs left, but 0 CPUs
        (
            "big",
            "no-node",
            "-",
            "",
            "0 of 2 nodes are eligible: node-0: insufficient cpu: 8 requested, 0 of 8 allocatable free; "
            "node-1: insufficient cpu: 8 requested, 4 of 8 allocatable free",
        ),
        (
            "fpga",
            "no-node",
            "-",
            "",
            "0 of 2 nodes are eligible: node-0: insufficient example.com/fpga: 2 requested, 1 of 1 allocatable free; "
            "node-1: insufficient example.com/fpga: 2 requested, 1 of 1 allocatable free",
        ),
        # the DeviceClass-backed extended resource is the allocator's, not NodeResourcesFit's
        ("extended", "placed", "node-0", "gpu-2", ""),
    ]


def test_pods_allocatable_counts_pods_without_claims_and_nodes_without_allocatable_are_unlimited() -> None:
    placed, others = _rows("pods.yaml")
    assert placed == [
        ("web-0", "placed", "node-0", "gpu-0", ""),
        ("web-1", "placed", "node-1", "gpu-0", ""),
        ("web-2", "placed", "node-1", "gpu-1", ""),
    ]
    assert others == [("agent", "placed", "node-0", "", "")]


def test_topology_spread_do_not_schedule_with_max_skew_min_domains_and_missing_keys() -> None:
    placed, _ = _rows("spread.yaml")
    assert placed == [
        ("even-0", "placed", "a-0", "gpu-0", ""),
        ("even-1", "placed", "b-0", "gpu-0", ""),
        ("even-2", "placed", "a-0", "gpu-1", ""),
        ("even-3", "placed", "b-0", "gpu-1", ""),
        ("wide-0", "placed", "a-0", "gpu-2", ""),
        ("wide-1", "placed", "b-0", "gpu-2", ""),
        (
            "wide-2",
            "no-node",
            "-",
            "",
            "0 of 3 nodes are eligible: 3 nodes excluded by topology spread on topology.kubernetes.io/zone "
            "(maxSkew 1 exceeded)",
        ),
        (
            "racked",
            "no-node",
            "-",
            "",
            "0 of 3 nodes are eligible: 2 nodeSelector topology.kubernetes.io/zone=zone-b; "
            "1 node without label example.com/rack (topology spread constraint)",
        ),
    ]


def test_spread_strategy_continues_after_the_node_any_pod_used_last() -> None:
    placed, _ = _rows("spread-strategy.yaml", strategy="spread")
    assert [(name, node) for name, _, node, _, _ in placed] == [
        ("first", "node-0"),
        ("second", "node-1"),
        ("third", "node-2"),
        ("fourth", "node-0"),
    ]
    packed, _ = _rows("spread-strategy.yaml")
    assert [node for _, _, node, _, _ in packed] == ["node-0", "node-0", "node-1", "node-1"]


def test_topology_spread_counts_tainted_domains_unless_node_taints_policy_is_honor() -> None:
    placed, _ = _rows("spread-taints.yaml")
    assert placed == [
        ("ignore-0", "placed", "b-0", "gpu-0", ""),
        (
            "ignore-1",
            "no-node",
            "-",
            "",
            "0 of 2 nodes are eligible: 1 node excluded by topology spread on topology.kubernetes.io/zone "
            "(maxSkew 1 exceeded); 1 untolerated taint maintenance=true:NoSchedule",
        ),
        ("honor-0", "placed", "b-0", "gpu-1", ""),
        ("honor-1", "placed", "b-0", "gpu-2", ""),
    ]


def test_nodes_excluded_for_resources_are_named_with_their_numbers_then_counted() -> None:
    placed, _ = _rows("resources-many.yaml")
    assert placed == [
        (
            "big",
            "no-node",
            "-",
            "",
            "0 of 5 nodes are eligible: "
            "node-0: insufficient cpu: 8 requested, 4 of 4 allocatable free and "
            "insufficient memory: 32Gi requested, 16Gi of 16Gi allocatable free; "
            "node-1: insufficient cpu: 8 requested, 4 of 4 allocatable free and "
            "insufficient memory: 32Gi requested, 16Gi of 16Gi allocatable free; "
            "node-2: insufficient cpu: 8 requested, 4 of 4 allocatable free and "
            "insufficient memory: 32Gi requested, 16Gi of 16Gi allocatable free; "
            "2 more nodes with insufficient cpu and insufficient memory",
        )
    ]


def test_claims_that_fit_where_node_resources_fit_excludes_the_pod_make_it_the_workloads_finding() -> None:
    # kube-scheduler: "0/2 nodes are available: 1 Insufficient cpu, 1 cannot allocate all claims".
    simulation = context(str(ROOT / "tests/rules/DRA506/fail/cpu-where-the-devices-are.yaml")).dry_run().simulation
    second = simulation.placements[1]
    assert (second.pod.name, second.outcome, second.filters, second.reason) == (
        "train-1",
        "no-node",
        ("claims", "resources"),
        "0 of 2 nodes are eligible: 1 node has no room for the pod's claims; "
        "node-a: insufficient cpu: 16 requested, 14 of 30 allocatable free",
    )
