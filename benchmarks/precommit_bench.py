"""What reading the repository as context costs a pre-commit run: a repository of 1,000 manifests.

Run from the repository root: ``python benchmarks/precommit_bench.py [--apps N] [--repeat N]``.
It writes a git repository of N applications (default 500), each a ResourceClaimTemplate and a
Deployment of two replicas in their own files (2N manifests), beside ``simulate_bench.py``'s
inventory (1,000 nodes × 8 GPUs) in ``cluster/``, then times whole processes (``python -m
dralint check``, interpreter start-up included), best of N, CPU and wall:

- one file checked alone, as before the repository became context (the baseline);
- the same file under pre-commit (``PRE_COMMIT=1``): the repository's other manifests as context;
- ``--changed`` with one changed file (the same work, plus asking git);
- the whole repository (``dralint check .``), what the ``dralint-all`` hook does;

and, in this process, where the CPU time of the pre-commit run goes (configuration and the walk,
reading and decoding, the checks of one object at a time, the dry-run, the other checks): what a
cache of decoded files could save is the reading and decoding share.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, best_of, record  # noqa: E402
from simulate_bench import DEVICES_PER_NODE, INVENTORY, NODES  # noqa: E402

from testing.manifests import claim_template  # noqa: E402

TEMPLATE = claim_template("app-{n}-gpu", "team-{team}")

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{n}
  namespace: team-{team}
spec:
  replicas: {replicas}
  selector:
    matchLabels:
      app: app-{n}
  template:
    metadata:
      labels:
        app: app-{n}
    spec:
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: app-{n}-gpu
      containers:
      - name: app
        image: registry.example.com/app:{n}
        resources:
          claims:
          - name: gpu
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def write_repository(repo: Path, apps: int) -> None:
    (repo / "cluster").mkdir(parents=True)
    (repo / "cluster" / "inventory.yaml").write_text(INVENTORY)
    (repo / ".dralint.yaml").write_text("inventory: [cluster/]\n")
    for n in range(apps):
        folder = repo / "apps" / f"app-{n:04d}"
        folder.mkdir(parents=True)
        (folder / "template.yaml").write_text(TEMPLATE.format(n=n, team=n % 20))
        (folder / "deploy.yaml").write_text(DEPLOYMENT.format(n=n, team=n % 20, replicas=2))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "apps")


def dralint(repo: Path, args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DRALINT_", "PRE_COMMIT"))}
    environment["PYTHONPATH"] = str(ROOT)
    environment.update(env or {})
    result = subprocess.run(
        [sys.executable, "-m", "dralint", "check", *args],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode not in (0, 1):  # a failed run would time nothing worth reporting
        sys.exit(f"dralint check {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


def stage_times(repo: Path, one: str) -> list[tuple[str, float]]:
    """CPU seconds of each stage of the one-file run under pre-commit, measured in this process."""
    sys.path.insert(0, str(ROOT))
    from dralint.config.select import selection
    from dralint.pipeline import engine
    from dralint.pipeline import run as pipeline
    from dralint.pipeline.context import CheckContext
    from dralint.read.load import load_files
    from dralint.rules import catalogue

    cwd = os.getcwd()
    os.chdir(repo)
    try:
        times = [time.process_time()]
        effective = pipeline.configuration(pipeline.Request(environment={}))
        rules = catalogue(effective.rule_paths)
        chosen = selection(rules, effective)
        plan = pipeline.plan(effective)
        files = plan.inputs([one], repository_context=True)
        times.append(time.process_time())
        workspace = load_files(files, limits=plan.limits)
        times.append(time.process_time())
        ctx = pipeline.admitted(CheckContext(workspace, plan.target, plan.options(rule_options=chosen.options)))
        engine.collect(ctx, rules, chosen, "local")
        times.append(time.process_time())
        assert ctx.analysis is not None  # the dry-run the checks read, run once
        times.append(time.process_time())
        engine.collect(ctx, rules, chosen, "global")
        times.append(time.process_time())
    finally:
        os.chdir(cwd)
    labels = (
        "configuration, the walk of the repository",
        "reading and decoding",
        "checks of one object at a time",
        "the dry-run",
        "checks across objects",
    )
    return [(label, end - start) for label, start, end in zip(labels, times[:-1], times[1:], strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=500, help="applications (two manifests each)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the best one counts)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        write_repository(repo, options.apps)
        one = f"apps/app-{options.apps // 2:04d}/deploy.yaml"
        deploy = repo / one
        deploy.write_text(deploy.read_text().replace("replicas: 2", "replicas: 3"))
        pre_commit = {"PRE_COMMIT": "1"}
        # Sanity: the one-file run under pre-commit reads the whole repository (all its objects are context).
        shown = dralint(repo, [one], pre_commit)
        assert shown.returncode == 0 and shown.stdout.startswith("1 file, 1 object"), shown.stdout + shown.stderr
        repeat = options.repeat
        rows = [
            ("one file alone (no context; the baseline)", best_of(repeat, lambda: dralint(repo, [one]))),
            (
                "one file under pre-commit (the rest as context)",
                best_of(repeat, lambda: dralint(repo, [one], pre_commit)),
            ),
            ("--changed (one file changed)", best_of(repeat, lambda: dralint(repo, ["--changed"]))),
            ("the whole repository (dralint check .)", best_of(repeat, lambda: dralint(repo, ["."]))),
        ]
        stages = stage_times(repo, one)
    manifests = 2 * options.apps + 2
    print(f"{manifests} manifests ({options.apps} Deployments of 2 replicas, their templates, the inventory), "
          f"{NODES} nodes x {DEVICES_PER_NODE} GPUs; whole processes, best of {options.repeat}")  # fmt: skip
    print(f"  {'':<45}  CPU ms   wall ms")
    for label, (cpu, wall) in rows:
        print(f"  {label:<45}  {cpu * 1000:7.0f}  {wall * 1000:7.0f}")
    print("  where the CPU time of the pre-commit run goes (in this process):")
    for label, seconds in stages:
        print(f"    {label:<43}  {seconds * 1000:7.0f}")
    baseline, context = rows[0][1], rows[1][1]
    record(
        Figure(
            f"one-file check under pre-commit, {manifests} manifests as context",
            round(context[1] * 1000),
            "ms",
            note=f"wall, best of {options.repeat}; CPU {context[0] * 1000:.0f} ms; the file alone (no context) "
            f"{baseline[1] * 1000:.0f} ms wall, {baseline[0] * 1000:.0f} ms CPU; the dry-run "
            f"{dict(stages)['the dry-run'] * 1000:.0f} ms CPU",
        )
    )


if __name__ == "__main__":
    main()
