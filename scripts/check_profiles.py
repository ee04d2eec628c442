"""Check the shipped driver profiles against their drivers' own published manifests (the corpus).

    python scripts/check_profiles.py [--corpus ../shared/corpus] [--json]

Every corpus file (``INDEX.tsv``) that comes from a repository a profile cites in ``sources`` is
read with dralint; every attribute and capacity its selectors read in a profiled driver's domain
must be listed in that profile, and every opaque configuration of a profiled driver must be one
its profile accepts. The table lists, per driver, the files, selectors and references seen and
each disagreement with the file's label in ``INDEX.tsv``; the exit code is 1 when a file
labelled valid disagrees (that is a gap in the profile, or a mistake of the file to record in
``tests/corpus_decisions.tsv``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dralint.api import model  # noqa: E402
from dralint.api.requests import claim_specs, written_requests  # noqa: E402
from dralint.api.versions import make_target  # noqa: E402
from dralint.cel.dra import selector_environment  # noqa: E402
from dralint.diagnose.profile_selectors import Readings  # noqa: E402
from dralint.pipeline.context import CheckContext  # noqa: E402
from dralint.profiles.load import Profiles, load  # noqa: E402
from dralint.read.load import load as load_files  # noqa: E402
from dralint.validate.opaque import UnknownConfigKind, problems  # noqa: E402
from testing.shared import CORPUS, require  # noqa: E402


@dataclass
class Survey:
    """What the corpus files of one driver's repositories read, and where they disagree with its profile."""

    driver: str
    files: list[str] = field(default_factory=list)
    selectors: int = 0
    references: int = 0
    configs: int = 0
    disagreements: list[dict[str, str]] = field(default_factory=list)  # file, label, what


def survey(corpus: Path) -> list[Survey]:
    profiles = load([])
    cited = _cited(profiles)
    rows = list(csv.DictReader((corpus / "INDEX.tsv").open(encoding="utf-8"), delimiter="\t"))
    readings = Readings(selector_environment(), profiles)
    found: dict[str, Survey] = {driver: Survey(driver) for driver in profiles.drivers()}
    for row in rows:
        drivers = cited.get(row["source_repo"], set())
        if not drivers:
            continue
        name = row["file"]
        workspace = load_files([str(corpus / name)])
        ctx = CheckContext(workspace, make_target("1.37"))
        for driver in drivers:
            found[driver].files.append(name)
        for expression in _expressions(ctx):
            reading = readings.of(expression)
            for driver in set(reading.drivers) & drivers:
                found[driver].selectors += 1
            for unknown in reading.unknown:
                if unknown.domain in drivers:
                    found[unknown.domain].disagreements.append(
                        {"file": name, "label": row["expected"], "what": f"reads {unknown.table} {unknown.name}"}
                    )
            for driver in drivers:
                found[driver].references += _references(expression, driver)
        for driver, parameters in _opaque(ctx):
            profile = profiles.get(driver)
            if driver not in drivers or profile is None or not profile.configs:
                continue
            found[driver].configs += 1
            for problem in problems(profile, parameters):
                if isinstance(problem, UnknownConfigKind):
                    what = f"configuration kind {problem.kind} ({problem.api_version}) is not decoded"
                else:
                    what = f"{'.'.join(map(str, problem.path))}: {problem.message}"
                found[driver].disagreements.append({"file": name, "label": row["expected"], "what": what})
    return [found[d] for d in sorted(found)]


def _cited(profiles: Profiles) -> dict[str, set[str]]:
    """Repository -> the drivers whose profiles cite it."""
    from ruamel.yaml import YAML

    from dralint import data

    out: dict[str, set[str]] = {}
    for driver in profiles.drivers():
        document = YAML(typ="safe").load((data.folder("profiles") / f"{driver}.yaml").read_text(encoding="utf-8"))
        for source in document["spec"]["sources"]:
            if "repository" in source:
                out.setdefault(source["repository"], set()).add(driver)
    return out


def _expressions(ctx: CheckContext) -> Iterable[str]:
    for normalised in ctx.normalised.values():
        if isinstance(normalised.typed, model.DeviceClass):
            yield from (s.cel.expression for s in normalised.typed.selectors if s.cel and s.cel.expression)
    for request in written_requests(claim_specs(ctx.normalised.values())):
        yield from (s.cel.expression for s in request.spec.selectors if s.cel and s.cel.expression)


def _references(expression: str, driver: str) -> int:
    """How many attributes and capacities of ``driver``'s domain the expression reads."""
    from dralint.cel.parser.nodes import walk
    from dralint.cel.parser.parse import parse
    from dralint.diagnose.device_kinds import entry_of

    parsed = parse(expression)
    if parsed.expr is None:
        return 0
    return sum(1 for node in walk(parsed.expr) if (e := entry_of(node)) is not None and e.domain == driver)


def _opaque(ctx: CheckContext) -> Iterable[tuple[str, object]]:
    for normalised in ctx.normalised.values():
        typed = normalised.typed
        if isinstance(typed, model.DeviceClass):
            entries = [c.opaque for c in typed.config]
        elif isinstance(typed, (model.ResourceClaim, model.ResourceClaimTemplate)):
            entries = [c.opaque for c in typed.spec.config]
        else:
            continue
        yield from ((o.driver, o.parameters) for o in entries if o is not None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"the corpus folder (default: {CORPUS})")
    parser.add_argument("--json", action="store_true", help="print the survey as JSON")
    arguments = parser.parse_args()
    require(arguments.corpus / "INDEX.tsv", "the corpus of published manifests", flag="--corpus DIR")
    surveys = survey(arguments.corpus)
    if arguments.json:
        print(json.dumps([asdict(s) for s in surveys], indent=2))
    else:
        print(f"{'driver':40} {'files':>5} {'selectors':>9} {'refs':>5} {'configs':>7} disagreements")
        for s in surveys:
            print(
                f"{s.driver:40} {len(s.files):5} {s.selectors:9} {s.references:5} {s.configs:7} {len(s.disagreements)}"
            )
            for d in s.disagreements:
                print(f"    {d['label']:18} {d['file']}: {d['what']}")
    decided = _decided()
    valid = [d for s in surveys for d in s.disagreements if d["label"] == "valid" and d["file"] not in decided]
    if valid:
        print(f"{len(valid)} disagreement(s) with files labelled valid and not recorded in tests/corpus_decisions.tsv")
    return 1 if valid else 0


def _decided() -> set[str]:
    """Files tests/corpus_decisions.tsv records as wrong (dralint is right about them)."""
    with (ROOT / "tests" / "corpus_decisions.tsv").open(encoding="utf-8") as handle:
        return {row["file"] for row in csv.DictReader(handle, delimiter="\t") if row["errors"]}


if __name__ == "__main__":
    raise SystemExit(main())
