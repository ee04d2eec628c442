"""``dralint allocate``: run the allocator on a scenario's claims for every node; print the outcomes."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Literal, TextIO

from dralint.allocator import DEFAULT_SEARCH_BUDGET, NEWEST, Allocator, AllocatorError, Features
from dralint.allocator.prepare import allocated_state, apply_taint_rules, release_for
from dralint.api import model, serialize
from dralint.api.scenario import Scenario, ScenarioError, scenario
from dralint.api.versions import make_target
from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.pipeline import run as pipeline
from dralint.read.sources import read_bytes

Format = Literal["json", "text"]
Outcome = Literal["allocated", "unsatisfiable", "error"]


@dataclass(frozen=True, slots=True)
class AllocateSettings:
    scenario: str  # a path, or "-" for standard input
    format: Format = "json"
    repeat: int = 1
    budget: int | None = None  # search steps per node; None: limits.maxSearchSteps of the configuration
    config: str | None = None
    no_config: bool = False


@dataclass(frozen=True, slots=True)
class NodeOutcome:
    node: str
    outcome: Outcome
    allocations: tuple[tuple[str, model.AllocationResult], ...]
    seconds: float  # the allocate call alone
    steps: int  # allocateOne invocations
    error: str | None = None
    failed_on_node: bool = False


def run(settings: AllocateSettings, stream: TextIO | None = None) -> int:
    plan = pipeline.configure(pipeline.Request(config=settings.config, no_config=settings.no_config))
    budget = settings.budget if settings.budget is not None else plan.limits.max_search_steps
    try:
        loaded = scenario(_read(settings.scenario, plan.limits.max_file_bytes))
    except ScenarioError as error:
        raise ScenarioError(f"scenario {settings.scenario}: {error}") from None
    total = 0.0
    outcomes: list[NodeOutcome] = []
    for _ in range(max(settings.repeat, 1)):
        outcomes = allocate_scenario(loaded, budget=budget)
        total += sum(o.seconds for o in outcomes)
    out = stream if stream is not None else sys.stdout
    if settings.format == "text":
        _render_text(outcomes, out)
    else:
        timed = settings.repeat > 1  # timings only when asked for: the same scenario gives the same bytes
        document: dict[str, Any] = {"results": [_node_json(o, timed=timed) for o in outcomes]}
        if timed:
            document["totalSeconds"] = total
            document["repeat"] = settings.repeat
        json.dump(document, out, indent=2)
        out.write("\n")
    return 0


def allocate_scenario(loaded: Scenario, *, budget: int = DEFAULT_SEARCH_BUDGET) -> list[NodeOutcome]:
    """One allocator for the scenario, one ``allocate`` per node, in node order."""
    features = Features(**loaded.features)
    state = allocated_state(loaded.allocated_claims, consumable_capacity=features.consumable_capacity)
    classes = {c.name: c for c in loaded.device_classes}
    slices = apply_taint_rules(loaded.resource_slices, loaded.device_taint_rules, classes)
    release = release_for(make_target(loaded.kubernetes_version)) if loaded.kubernetes_version else NEWEST
    allocator = Allocator(features, state, classes, slices, budget=budget, release=release)
    claims = loaded.claims
    names = [f"{c.namespace}/{c.name}" if c.namespace else c.name for c in claims]
    outcomes = []
    for node in loaded.nodes:
        start = time.perf_counter()
        try:
            results = allocator.allocate(node, claims)
        except AllocatorError as error:
            seconds = time.perf_counter() - start
            outcomes.append(
                NodeOutcome(node.name, "error", (), seconds, allocator.last_steps, error.message, error.failed_on_node)
            )
            continue
        seconds = time.perf_counter() - start
        if results is None:
            outcomes.append(NodeOutcome(node.name, "unsatisfiable", (), seconds, allocator.last_steps))
        else:
            pairs = tuple(zip(names, results, strict=True))
            outcomes.append(NodeOutcome(node.name, "allocated", pairs, seconds, allocator.last_steps))
    return outcomes


def _read(path: str, max_bytes: int) -> Any:
    """The scenario's JSON, read as dralint reads every input: a regular file (or standard input)
    within ``limits.maxFileBytes``, and a document too deeply nested is an input error."""
    try:
        raw = sys.stdin.buffer.read(max_bytes + 1) if path == "-" else read_bytes(path, max_bytes)
        if len(raw) > max_bytes:
            raise InputError(f"cannot read scenario {path}: larger than {max_bytes} bytes (limits.maxFileBytes)")
        text = raw.decode("utf-8")
    except OSError as error:  # NotARegularFile too: a FIFO or a device is refused, never read
        raise InputError(f"cannot read scenario {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"cannot read scenario {path}: not UTF-8 ({error.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"scenario {path} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise InputError(f"scenario {path} is not valid JSON: it nests too deeply") from None


def _node_json(outcome: NodeOutcome, *, timed: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"node": outcome.node, "outcome": outcome.outcome, "error": outcome.error}
    if outcome.failed_on_node:
        out["failedOnNode"] = True
    out["allocations"] = [
        {"claim": claim, "allocation": serialize.allocation_result(result)} for claim, result in outcome.allocations
    ]
    if timed:
        out["seconds"] = outcome.seconds
    out["allocateOneInvocations"] = outcome.steps
    return out


def _render_text(outcomes: list[NodeOutcome], out: TextIO) -> None:
    for outcome in outcomes:
        line = f"{outcome.node}: {outcome.outcome}"
        if outcome.error is not None:
            line += f": {outcome.error}"
        out.write(line + "\n")
        for claim, result in outcome.allocations:
            devices = ", ".join(f"{r.request}={r.driver}/{r.pool}/{r.device}" for r in result.results)
            out.write(f"  {claim}: {devices or '(no devices)'}\n")
