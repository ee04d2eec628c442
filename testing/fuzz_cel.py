"""CEL fuzzing: grammar-generated selectors on an inventory, and CEL errors in every YAML scalar style.

Two families, each a pure function of a seed (``random.Random``), so a CI test replays a few
hundred inputs in seconds and ``scripts/fuzz.py --family cel`` as many as you like:

- ``selector``: an expression drawn from a grammar of CEL over the DRA ``device`` (the
  examples' attribute and capacity names, misspelt ones, huge numbers, library calls with odd
  arguments, macros) is compiled and evaluated on every device of the examples' inventory. The
  property: each ends in a value or a CEL error (compile or runtime), never another exception,
  within :data:`MAX_CPU_SECONDS` and :data:`MAX_ALLOCATED` bytes.
- ``styles``: a valid selector with an undeclared name placed at a random clause is written as a
  DeviceClass in a random YAML scalar style (plain, single- or double-quoted, literal, folded)
  and checked by the whole pipeline. The property: exit 1 with one DRA400 finding, at the
  line and column of the undeclared name in the file.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

from dralint.api.model import device as model_device
from dralint.cel import CelCompileError, CelRuntimeError, compile_selector, device_value
from dralint.cel.dra import DeviceValue
from dralint.read.load import load

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = ROOT / "examples" / "cluster"
MAX_CPU_SECONDS = 2.0
MAX_ALLOCATED = 256 * 2**20

_DOMAINS = ['"gpu.example.com"', '"nic.example.com"', '"nope.example.com"', "device.driver"]
_NAMES = ["model", "index", "uuid", "numaNode", "driverVersion", "memory", "rdma", "pciRoot", "linkSpeedGbps", "modle"]
_NUMBERS = ["0", "1", "-1", "7", "2u", "1.5", "-0.0", "1e308", "9223372036854775807", "-9223372036854775808",
            "18446744073709551615u", "0x7f", "9" * 25, "9" * 4400, "0" * 4400 + "1"]  # fmt: skip
_STRINGS = ['"A100-SXM4-80GB"', '"a"', '""', "'b'", 'r"\\d+"', '"\\u00e9"', '"%.1000000000f"', '"%.9999999f"',
            '"+99:99"', '"+24:00"', '"America/New_York"', '"999e999"', '"80Gi"', '"1.2.3"', '"v1"']  # fmt: skip
_CALLS = [
    "quantity({s})", "semver({s})", "semver({s}, true)", "isQuantity({s})", "isSemver({s})", "duration({s})",
    "timestamp({s})", "ip({s})", "cidr({s})", "url({s})", "int({s})", "uint({s})", "double({s})", "string({e})",
    "size({e})", "type({e})", "dyn({e})", "lists.range({n})", "optional.of({e})", "optional.none()",
    "{s}.format([{e}])", "{s}.format([1.0])", "{s}.size()", "{s}.matches({s})", "{s}.split({s})",
    "{s}.replace({s}, {s})", "{s}.lowerAscii()", "{s}.substring({n})", "{s}.charAt({n})", "{s}.indexOf({s})",
    "timestamp(\"2024-01-01T00:00:00Z\").getHours({s})", "quantity({s}).asApproximateFloat()",
    "quantity({s}).isGreaterThan(quantity({s}))", "semver({s}).major()",
]  # fmt: skip
_MEMBERS = [
    ".size()", ".all(x, x)", ".exists(x, x > 1)", ".map(x, x)", ".filter(x, x)", ".exists_one(x, true)",
    ".sortBy(x, x)", ".sort()", ".distinct()", ".reverse()", ".flatten()", ".isSorted()", ".sum()", ".min()",
    ".max()", ".indexOf(1)", ".slice(0, 1)", ".orValue(1)", ".hasValue()", ".?model", "[0]", '["model"]',
    ".compareTo(quantity(\"1\"))", ".asInteger()", ".isInteger()", ".major()", ".join(\",\")", ".includes(1)",
    ".transformList(i, v, v)",
]  # fmt: skip
_BINARY = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "in"]


def expression(rng: random.Random, depth: int = 4) -> str:
    """One expression of the grammar (not always well typed: the checker's errors are part of it)."""
    if depth <= 0 or rng.random() < 0.25:
        return _atom(rng)
    kind = rng.randrange(8)
    if kind == 0:
        return f"{expression(rng, depth - 1)} {rng.choice(_BINARY)} {expression(rng, depth - 1)}"
    if kind == 1:
        return f"({expression(rng, depth - 1)}){rng.choice(_MEMBERS)}"
    if kind == 2:
        return f"{expression(rng, depth - 1)} ? {expression(rng, depth - 1)} : {expression(rng, depth - 1)}"
    if kind == 3:
        return rng.choice(["!", "-", "!!"]) + f"({expression(rng, depth - 1)})"
    if kind == 4:
        return f"cel.bind(v, {expression(rng, depth - 1)}, v {rng.choice(_BINARY)} v)"
    if kind == 5:
        return f"[{', '.join(expression(rng, depth - 1) for _ in range(rng.randrange(4)))}]"
    if kind == 6:
        return f"has({_device_path(rng)})"
    return rng.choice(_CALLS).format(
        s=rng.choice(_STRINGS), n=rng.choice([*_NUMBERS, "100000000"]), e=expression(rng, depth - 1)
    )


def _atom(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return _device_path(rng)
    if roll < 0.6:
        return rng.choice(_NUMBERS)
    if roll < 0.8:
        return rng.choice(_STRINGS)
    return rng.choice(["true", "false", "null", "[]", "{}", '{"a": 1}', "device", "x", "device.driver"])


def _device_path(rng: random.Random) -> str:
    kind = rng.choice(["attributes", "attributes", "capacity"])
    return f"device.{kind}[{rng.choice(_DOMAINS)}].{rng.choice(_NAMES)}"


def inventory_devices() -> list[DeviceValue]:
    """The CEL values of every device of the examples' inventory."""
    devices = []
    for obj in load([str(INVENTORY)]).objects:
        if obj.kind == "ResourceSlice":
            spec = obj.raw.get("spec", {})
            for raw in spec.get("devices", []):
                devices.append(device_value(spec["driver"], model_device(raw)))
    return devices


@dataclass(frozen=True, slots=True)
class Result:
    expression: str
    outcome: str  # "compile-error", "runtime-error", "true", "false" (the first device's)
    cpu_seconds: float
    allocated: int  # peak bytes allocated while compiling and evaluating


def run_selector(text: str, devices: list[DeviceValue]) -> Result:
    """Compile ``text`` and evaluate it on every device; any exception but a CEL error propagates."""
    tracemalloc.start()
    start = time.process_time()
    outcomes: list[str] = []
    try:
        try:
            selector = compile_selector(text)
        except CelCompileError as error:
            assert error.message, text
            outcomes.append("compile-error")
        else:
            for device in devices:
                try:
                    outcomes.append("true" if selector.matches(device) else "false")
                except CelRuntimeError as error:
                    assert isinstance(error.message, str), text
                    outcomes.append("runtime-error")
        elapsed = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return Result(text, outcomes[0] if outcomes else "no device", elapsed, peak)


def check_selector(rng: random.Random, devices: list[DeviceValue]) -> Result:
    """One input of the ``selector`` family, with its property asserted."""
    result = run_selector(expression(rng), devices)
    assert result.cpu_seconds < MAX_CPU_SECONDS, result
    assert result.allocated < MAX_ALLOCATED, result
    return result


# --- CEL errors in every YAML scalar style -----------------------------------------------------

STYLES = ("plain", "single", "double", "literal", "folded")
_CLAUSES = [
    'device.driver == "gpu.example.com"',
    'device.attributes["gpu.example.com"].model == "A100-SXM4-80GB"',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0',
    'device.attributes["gpu.example.com"].index in [0, 1, 2]',
    "device.attributes['gpu.example.com'].numaNode <= 1",
    'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("550.0.0"))',
    'has(device.attributes["gpu.example.com"].uuid)',
]
UNDECLARED = "undeclared_name"


def styled_case(rng: random.Random) -> tuple[str, str, str]:
    """(style, file text, expression) of a DeviceClass whose selector names ``UNDECLARED``."""
    clauses = rng.sample(_CLAUSES, rng.randrange(1, 4))
    clauses.insert(rng.randrange(len(clauses) + 1), f"{UNDECLARED} > 0")
    style = rng.choice(STYLES)
    # Literal and folded scalars keep line breaks (folded ones turn them into spaces): break
    # between clauses; the quoted and plain styles fold too, so they may break as well.
    joiner = rng.choice([" && ", " &&\n"])
    text = joiner.join(clauses)
    lines = text.split("\n")
    indent = " " * 8  # deeper than the "expression" key, as continuation lines must be
    if style == "plain":
        scalar = ("\n" + indent).join(lines)
    elif style == "single":
        scalar = "'" + ("\n" + indent).join(line.replace("'", "''") for line in lines) + "'"
    elif style == "double":
        escaped = [line.replace("\\", "\\\\").replace('"', '\\"') for line in lines]
        scalar = '"' + ("\n" + indent).join(escaped) + '"'
    else:
        indicator = ("|" if style == "literal" else ">") + rng.choice(["", "-", "+"])
        if style == "folded":  # a folded line break is a space; keep the clauses apart with a blank line
            lines = "\n\n".join(lines).split("\n")
        scalar = indicator + "".join("\n" + (indent + line if line else "") for line in lines)
    document = (
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: fuzz.example.com\nspec:\n"
        f"  selectors:\n  - cel:\n      expression: {scalar}\n"
    )
    expected = " ".join(text.split()) if style != "literal" else text
    return style, document, expected


def expected_position(document: str) -> tuple[int, int]:
    """Line and column (1-based) of the undeclared name in the file."""
    offset = document.index(UNDECLARED)
    line = document.count("\n", 0, offset) + 1
    return line, offset - (document.rfind("\n", 0, offset) + 1) + 1


def check_styled(rng: random.Random, directory: Path) -> str:
    """One input of the ``styles`` family, checked by the pipeline, with its property asserted."""
    from dralint.commands.check import CheckSettings, analyse

    style, document, _ = styled_case(rng)
    path = directory / "class.yaml"
    path.write_text(document, encoding="utf-8")
    outcome = analyse(CheckSettings(paths=(str(path),), no_config=True, jobs=1, environment={}))
    found = [(f.rule, f.location.line, f.location.column) for f in outcome.report.findings]
    assert outcome.exit_code == 1, (style, document, found)
    assert found == [("DRA400", *expected_position(document))], (style, document, found)
    return style


@dataclass(frozen=True, slots=True)
class Summary:
    inputs: int
    crashes: int
    worst_cpu: Result | None  # the selector that took longest
    worst_memory: Result | None  # the selector that allocated most
    styles: dict[str, int]
    failure: str  # the first crash, shown with its input


def run_family(selectors: int, styled: int, seed: int, directory: Path) -> Summary:
    """Both families for the given numbers of inputs; a crash is counted and the run goes on."""
    rng = random.Random(seed)
    devices = inventory_devices()
    crashes = 0
    failure = ""
    worst_cpu: Result | None = None
    worst_memory: Result | None = None
    for _ in range(selectors):
        text = expression(rng)
        try:
            result = run_selector(text, devices)
            assert result.cpu_seconds < MAX_CPU_SECONDS and result.allocated < MAX_ALLOCATED, result
        except Exception as error:  # a fuzzer counts every failure and goes on
            crashes += 1
            failure = failure or f"{type(error).__name__}: {error} <- {text[:300]}"
            continue
        if worst_cpu is None or result.cpu_seconds > worst_cpu.cpu_seconds:
            worst_cpu = result
        if worst_memory is None or result.allocated > worst_memory.allocated:
            worst_memory = result
    styles: dict[str, int] = {}
    for _ in range(styled):
        try:
            style = check_styled(rng, directory)
        except Exception as error:  # as above
            crashes += 1
            failure = failure or f"{type(error).__name__}: {error}"
            continue
        styles[style] = styles.get(style, 0) + 1
    return Summary(selectors + styled, crashes, worst_cpu, worst_memory, styles, failure)
