"""The search for an order of the workloads that gives devices to the pods file order left without them."""

from __future__ import annotations

from dralint.api.versions import make_target
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from tests.conftest import FIXTURES, ROOT


def _context(*paths: str) -> CheckContext:
    return CheckContext(load(list(paths)), make_target("1.37"))


def test_one_failing_workload_is_tried_first_and_one_replay_answers() -> None:
    ctx = _context(str(ROOT / "examples"))
    (failure,) = [f for f in ctx.analysis.failures if f.fits_empty]
    orders = ctx.contention.orders
    order = orders.counter_example(failure.first.pod.template_index)
    assert order is not None
    assert (order.first, order.everything, orders.tried) == (("Job ml-training/llm-finetune",), True, 1)


def test_several_failing_workloads_try_the_scarcest_first_and_one_order_fits_them_all() -> None:
    # The trainers can use the sixteen A100s only, the inference replicas any of the 32 GPUs: the trainers go
    # first, and the inference replicas then fit on the H100s.
    ctx = _context(str(FIXTURES / "orders" / "two-trainers.yaml"))
    failing = [f.first.pod.template_index for f in ctx.analysis.failures if f.fits_empty]
    assert len(failing) == 2
    orders = ctx.contention.orders
    found = [orders.counter_example(t) for t in failing]
    assert [(o.first, o.everything) if o is not None else None for o in found] == [
        (("Deployment default/trainer-a", "Deployment default/trainer-b"), True)
    ] * 2
    assert orders.tried == 1


def test_when_no_order_fits_every_candidate_is_tried_once() -> None:
    # Five pods of one GPU each on four GPUs: no order fits.
    ctx = _context(str(ROOT / "tests" / "rules" / "DRA501" / "fail" / "two-workloads.yaml"))
    (failure,) = [f for f in ctx.analysis.failures if f.fits_empty]
    orders = ctx.contention.orders
    assert orders.counter_example(failure.first.pod.template_index) is None
    # The Job first; the scarcest first is file order itself (both can use the same four GPUs): not replayed.
    assert orders.tried == 1
