"""CEL selector speed: µs per evaluation, and 100 selectors × 10,000 devices end to end.

Three measurements, each against a baseline in the same run:

1. µs per evaluation of typical selectors (``Selector.evaluate``, no memoisation), best of
   ``--repeat`` rounds.
2. ``Selector.matches`` (memoised by device projection) on a fleet versus the naive
   ``evaluate`` of every (selector, device) pair.
3. 100 selectors × 10,000 devices with ``match_all`` (device classes, driver prefilter) versus
   the naive path (measured on the first ``--naive-devices`` devices and scaled up linearly).

The synthetic fleet follows ``shared/spec/cel.md`` §6: two drivers (a third of the devices are
NICs without the GPU domain, so error absorption is exercised), three models, three memory
sizes, per-device unique ``index``/``uuid`` attributes. Usage::

    python benchmarks/cel_bench.py [--devices 10000] [--selectors 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, record  # noqa: E402

from dralint.api.model import device as model_device  # noqa: E402
from dralint.cel import CelRuntimeError, compile_selector, device_value  # noqa: E402
from dralint.cel.batch import match_all  # noqa: E402
from dralint.cel.device import DeviceValue  # noqa: E402
from dralint.cel.dra import Selector  # noqa: E402

TYPICAL = {
    "1 clause": 'device.driver == "gpu.example.com"',
    "3 clauses": 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "A100" '
    '&& device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0',
    "semver": 'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.2.0"))',
    "in + !=": 'device.attributes["gpu.example.com"].model in ["A100", "H100"] '
    '&& device.attributes["gpu.example.com"].family != "volta"',
    "bind": 'cel.bind(g, device.attributes["gpu.example.com"], g.model == "H100" && g.healthy)',
}


def fleet(count: int, seed: int = 7) -> list[DeviceValue]:
    rng = random.Random(seed)
    devices = []
    for i in range(count):
        if i % 3 == 2:
            raw = {
                "name": f"nic-{i}",
                "attributes": {
                    "index": {"int": i},
                    "model": {"string": rng.choice(["CX7", "E810"])},
                    "firmware": {"version": rng.choice(["4.5.6", "4.10.0"])},
                },
                "capacity": {"bandwidth": {"value": rng.choice(["100G", "400G"])}},
            }
            devices.append(device_value("nic.example.com", model_device(raw)))
            continue
        raw = {
            "name": f"gpu-{i}",
            "attributes": {
                "index": {"int": i},
                "uuid": {"string": f"GPU-{rng.getrandbits(32):08x}"},
                "model": {"string": rng.choice(["A100", "H100", "V100"])},
                "family": {"string": rng.choice(["ampere", "hopper", "volta"])},
                "healthy": {"bool": rng.random() < 0.9},
                "driverVersion": {"version": rng.choice(["1.3.0", "1.10.0", "2.0.0"])},
            },
            "capacity": {"memory": {"value": rng.choice(["40Gi", "80Gi", "94Gi"])}},
        }
        devices.append(device_value("gpu.example.com", model_device(raw)))
    return devices


def selector_mix(count: int) -> list[Selector]:
    """``count`` distinct selectors from four templates (quantity, semver, in + !=, boolean)."""
    templates = [
        lambda n: (
            f'device.driver == "gpu.example.com" && device.capacity["gpu.example.com"].memory'
            f'.compareTo(quantity("{20 + n}Gi")) >= 0'
        ),
        lambda n: (
            f'device.attributes["gpu.example.com"].?driverVersion.orValue(semver("0.0.0"))'
            f'.isGreaterThan(semver("1.{n}.0"))'
        ),
        lambda n: (
            f'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model in '
            f'["A100", "H100"] && device.attributes["gpu.example.com"].family != "f{n}"'
        ),
        lambda n: (
            f'device.attributes["gpu.example.com"].healthy || device.attributes["nic.example.com"].model == "m{n}"'
        ),
    ]
    return [compile_selector(templates[i % 4](i // 4)) for i in range(count)]


def best(fn: Callable[[], object], repeat: int) -> float:
    """Best CPU time of ``repeat`` runs (CPU, not wall, time: the machine is shared)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def naive(selectors: list[Selector], devices: list[DeviceValue]) -> int:
    matched = 0
    for selector in selectors:
        for device in devices:
            try:  # noqa: SIM105 - suppress() would slow the measured loop
                matched += selector.evaluate(device)
            except CelRuntimeError:
                pass
    return matched


def memoised(selectors: list[Selector], devices: list[DeviceValue]) -> int:
    matched = 0
    for selector in selectors:
        for device in devices:
            try:  # noqa: SIM105 - suppress() would slow the measured loop
                matched += selector.matches(device)
            except CelRuntimeError:
                pass
    return matched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--devices", type=int, default=10_000)
    parser.add_argument("--selectors", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive-devices", type=int, default=1_000)
    args = parser.parse_args()

    gpu = fleet(3)[0]
    print("1. µs per evaluation (Selector.evaluate, one GPU device)")
    rounds = 20_000
    for name, expression in TYPICAL.items():
        selector = compile_selector(expression)

        def run(selector: Selector = selector) -> None:
            for _ in range(rounds):
                try:  # noqa: SIM105 - suppress() would slow the measured loop
                    selector.evaluate(gpu)
                except CelRuntimeError:
                    pass

        seconds = best(run, args.repeat)
        print(f"   {name:10s} {seconds / rounds * 1e6:6.2f} µs")

    devices = fleet(args.devices)
    selectors = selector_mix(args.selectors)
    print(f"\n{args.selectors} selectors × {len(devices)} devices")

    subset = devices[: args.naive_devices]
    naive_seconds = best(lambda: naive(selectors, subset), 1) * len(devices) / len(subset)
    print(f"2. naive evaluate, every pair (scaled from {len(subset)} devices): {naive_seconds:7.3f} s")

    memo_seconds = best(lambda: memoised(selectors, devices), 1)
    print(
        f"   Selector.matches, memoised by projection:           {memo_seconds:7.3f} s "
        f"({naive_seconds / memo_seconds:5.1f}× faster)"
    )

    results: list[object] = []
    batch_seconds = best(lambda: results.append(match_all(selectors, devices)), args.repeat)
    last = match_all(selectors, devices)
    matched = sum(m.count for m in last)
    classes = len(last[0].classes) if last else 0
    print(
        f"3. match_all (classes + driver prefilter):              {batch_seconds:7.3f} s "
        f"({naive_seconds / batch_seconds:5.1f}× faster; {classes} classes, {matched} matches)"
    )
    record(
        Figure(
            f"CEL: {args.selectors} selectors x {len(devices)} devices with match_all",
            round(batch_seconds, 3),
            "s",
            note=f"{naive_seconds / batch_seconds:.0f}x faster than evaluating every pair "
            f"({naive_seconds:.1f} s, scaled), best of {args.repeat}",
        )
    )
    check = naive(selectors[:10], devices[:2000])
    expected = sum(1 for m in last[:10] for i in m.devices() if i < 2000)
    assert check == expected, (check, expected)


if __name__ == "__main__":
    main()
