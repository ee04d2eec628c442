"""``dralint profile extract`` (a starting driver profile from a real cluster's ResourceSlices) and
``dralint profile show`` (the profile dralint uses for a driver)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dralint.dataclass import dataclass
from dralint.errors import InputError, UsageError
from dralint.pipeline import run as pipeline
from dralint.read.load import inputs
from dralint.report.yamlout import dump_all

if TYPE_CHECKING:
    from dralint.api import model
    from dralint.cluster.inventory import SliceEntry
    from dralint.profiles.load import Profiles

# The schema of the repository, as the README tells editors to map it (an installed dralint's path varies).
HEADER = (
    "# yaml-language-server: $schema=https://raw.githubusercontent.com/dralint/dralint/main/schemas/profile.schema.json\n"
    "# A starting point: review the kinds of device, add closed value sets (values), releases (versions,\n"
    "# since, until), configuration kinds (configs) and where each fact comes from (sources).\n"
)


@dataclass(frozen=True, slots=True)
class ExtractSettings:
    inventory: tuple[str, ...]
    drivers: tuple[str, ...] = ()  # only these drivers (none: every driver of the slices)
    output: str | None = None  # a file instead of standard output
    stdin_name: str = "-"
    config: str | None = None
    no_config: bool = False


def extract(settings: ExtractSettings) -> int:
    """Write one DriverProfile document per driver; exit 2 when the inputs hold no device of the drivers asked for."""
    from dralint.profiles.extract import extract as extract_profiles

    plan = pipeline.configure(pipeline.Request(config=settings.config, no_config=settings.no_config))
    files = inputs(list(settings.inventory))
    ctx = pipeline.read(plan, files, options=plan.options(), stdin_name=settings.stdin_name)
    # The slices the API server would store: a rejected one (an invalid driver or attribute name)
    # says nothing about what the driver publishes.
    entries = [e for e in ctx.inventory.slices if not settings.drivers or e.slice.driver in settings.drivers]
    slices = [entry.slice for entry in entries]
    sources = sorted({entry.origin.obj.file for entry in entries})
    documents = extract_profiles(slices, sources, _fits(plan.profiles, entries))
    if not documents:
        wanted = f" of driver {', '.join(settings.drivers)}" if settings.drivers else ""
        raise InputError(f"{', '.join(settings.inventory)}: no ResourceSlice or Inventory device{wanted}")
    text = render(documents)
    if settings.output is None:
        sys.stdout.write(text)
    else:
        from contextlib import ExitStack

        from dralint.report import open_output

        with ExitStack() as stack:
            open_output(stack, settings.output).write(text)
    return 0


def _fits(profiles: Profiles, entries: Sequence[SliceEntry]) -> dict[str, str]:
    """Per driver with a profile that names releases: which of them the devices (written as ResourceSlices) fit."""
    from dralint.profiles.extract import fit
    from dralint.profiles.releases import from_devices

    pools: dict[str, dict[str, list[model.Device]]] = {}
    for entry in entries:
        if not entry.generated:
            pools.setdefault(entry.slice.driver, {}).setdefault(entry.slice.pool.name, []).extend(entry.slice.devices)
    out = {}
    for driver, by_pool in pools.items():
        profile = profiles.get(driver)
        said = fit(profile, from_devices(profile, by_pool.values())) if profile is not None else None
        if said is not None:
            out[driver] = said
    return out


def render(documents: Sequence[object]) -> str:
    """The documents as YAML, each with the schema line editors read."""
    return dump_all(documents, header=HEADER, flow_scalar_lists=True)


@dataclass(frozen=True, slots=True)
class ShowSettings:
    driver: str
    config: str | None = None
    no_config: bool = False


def show(settings: ShowSettings) -> int:
    """Print the file of the profile dralint uses for the driver (the configured one, else the shipped one)."""
    from dralint.read import userfile
    from dralint.suggest import similar

    plan = pipeline.configure(pipeline.Request(config=settings.config, no_config=settings.no_config))
    profiles, driver = plan.profiles, settings.driver
    configured = profiles.user.get(driver)
    if configured is not None:
        path = configured.origin.rsplit(":", 2)[0]  # file:line:column
        header = f"# the profile of {driver} from {path} (configured)\n"
    elif driver in profiles.shipped:
        path = str(profiles.shipped[driver])
        header = f"# the profile of {driver} shipped with dralint ({path})\n"
    else:
        guess = similar(driver, profiles.drivers())
        hint = f"; did you mean {guess}?" if guess else f"; profiles: {', '.join(profiles.drivers())}"
        raise UsageError(f"no driver profile for {driver}{hint}")
    sys.stdout.write(header + userfile.read_text(path, max_bytes=plan.limits.max_file_bytes, what="profile"))
    return 0
