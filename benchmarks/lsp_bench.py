"""How fast ``dralint lsp`` answers in a large workspace, measured over stdio as an editor sees it.

Run from the repository root: ``python benchmarks/lsp_bench.py [--apps N] [--edits N] [--fixtures N]``.
It writes ``precommit_bench.py``'s repository (N applications, default 500: a ResourceClaimTemplate
and a Deployment each, 2N manifests, beside an inventory of 1,000 nodes x 8 GPUs) and one more
manifest of 200 lines, starts the real server (``python -m dralint lsp``) with the debounce set
to 0, and speaks JSON-RPC to it on its standard input and output:

- start-up: from starting the process to the ``initialize`` response (the configuration; the
  files are read in a thread after it);
- the first run of the checks across files (the dry-run of every pod), as the server logs it;
- after ``didChange`` of the 200-line manifest (its replicas raised, so the checks across files
  must run again): the latency of its first diagnostics (the edited file re-checked, the last
  cross-file findings moved), and of the diagnostics with the checks across files redone.

Side by side: ``dralint check .`` on the same repository, what an editor without the server
would have to run after every edit.

Then a repository as a clone looks when an editor opens one of its files
(:mod:`testing.workspaces`: the same applications, N fixture files, default 1,000, that
``.dralint.yaml`` excludes, and 100 files in a git-ignored ``build/``): from starting the server
to the first diagnostics of a file opened right after ``initialized`` (target: under a second,
whatever the repository's size), to the end of the index and to the checks across files.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, best_of, record  # noqa: E402
from precommit_bench import DEPLOYMENT, dralint, write_repository  # noqa: E402

from testing.lspclient import Client, diagnostics_of, logged  # noqa: E402
from testing.manifests import claim_template  # noqa: E402
from testing.workspaces import write_repository as write_workspace  # noqa: E402

CHECKED_ACROSS_FILES = "dralint: checks across files done:"  # as dralint.lsp.server logs them
INDEXED = "dralint: indexed"


def big_manifest(lines: int) -> str:
    """A template and a Deployment of ``lines`` lines (the container's environment fills the rest)."""
    head = claim_template("big-gpu", "team-big") + "---\n" + DEPLOYMENT.format(n="big", team="big", replicas=2)
    head = head.replace("app-big-gpu", "big-gpu")
    env = ["        env:\n"]
    while len((head + "".join(env)).splitlines()) < lines:
        n = len(env)
        env += [f"        - name: SETTING_{n}\n", f'          value: "{n}"\n']
    text = head + "".join(env)
    return "".join(text.splitlines(keepends=True)[:lines])


logged_global = logged(CHECKED_ACROSS_FILES)


def start(repo: Path) -> tuple[Client, float]:
    """The server started in ``repo`` and initialized; the seconds to the ``initialize`` response."""
    started = time.perf_counter()
    client = Client(repo)
    client.initialize(repo, {"debounce": 0})
    return client, time.perf_counter() - started


def open_at_once(repo: Path, name: str) -> dict[str, float]:
    """Seconds from starting the server in ``repo`` to the ``initialize`` response, to the end of the index
    and to the checks across files; and from opening ``name`` right after ``initialized`` to its first diagnostics."""
    started = time.perf_counter()
    client, initialized = start(repo)
    path = repo / name
    opened = time.perf_counter()
    client.open(path)
    times = {"initialize": initialized}
    while len(times) < 4:
        message = client.receive()
        now = time.perf_counter() - started
        if diagnostics_of(path.as_uri(), 1)(message):
            times.setdefault("first", time.perf_counter() - opened)
        elif logged(INDEXED)(message):
            times["indexed"] = now
        elif logged_global(message):
            times["global"] = now
    client.stop()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=500, help="applications (two manifests each)")
    parser.add_argument("--edits", type=int, default=5, help="edits measured (the median counts)")
    parser.add_argument("--fixtures", type=int, default=1000, help="excluded fixture files of the large repository")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        write_repository(repo, options.apps)
        big = repo / "apps" / "big.yaml"
        text = big_manifest(200)
        big.write_text(text)
        uri = big.as_uri()
        started = time.perf_counter()
        client, initialized = start(repo)
        client.until(logged_global)
        first_global = time.perf_counter() - started
        client.send(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )
        client.until(diagnostics_of(uri, 1))
        quick: list[float] = []
        full: list[float] = []
        for edit in range(options.edits):
            version = edit + 2
            changed = text.replace("replicas: 2", f"replicas: {3 + edit % 2}")
            sent = time.perf_counter()
            client.send(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]},
            )
            client.until(diagnostics_of(uri, version))
            quick.append(time.perf_counter() - sent)
            client.until(logged_global)
            full.append(time.perf_counter() - sent)
        client.stop()
        cli = best_of(1, lambda: dralint(repo, ["."]))
        large = Path(folder) / "large"
        read = write_workspace(large, apps=options.apps, fixtures=options.fixtures, ignored=100)
        opened = open_at_once(large, "apps/app-7/deploy.yaml")
    manifests = 2 * options.apps + 3
    quick_ms, full_ms = statistics.median(quick) * 1000, statistics.median(full) * 1000
    edited = len(text.splitlines())
    print(f"{manifests} manifests, a {edited}-line one edited, 1,000 nodes x 8 GPUs; median of {options.edits} edits")
    print(f"  start-up to the initialize response                      {initialized * 1000:7.0f} ms")
    print(f"  the first checks across files done (from start)         {first_global * 1000:7.0f} ms")
    print(f"  didChange -> the edited file's diagnostics               {quick_ms:7.0f} ms")
    print(f"  didChange -> diagnostics with the checks across files    {full_ms:7.0f} ms")
    print(f"  dralint check . (a whole process, for comparison)        {cli[1] * 1000:7.0f} ms")
    files = read + options.fixtures + 100
    print(f"{files:,} files ({read:,} read, {options.fixtures:,} excluded, 100 git-ignored), one opened at once")
    print(f"  start-up to the initialize response                      {opened['initialize'] * 1000:7.0f} ms")
    print(f"  didOpen -> the opened file's first diagnostics           {opened['first'] * 1000:7.0f} ms")
    print(f"  start-up -> the workspace indexed                        {opened['indexed'] * 1000:7.0f} ms")
    print(f"  start-up -> diagnostics with the checks across files     {opened['global'] * 1000:7.0f} ms")
    record(
        Figure(
            f"lsp: didOpen to the first diagnostics while the workspace is indexed, {files:,} files",
            round(opened["first"], 2),
            "s",
            "< 1 s",
            opened["first"] < 1,
            note=f"{read:,} read, the rest excluded or git-ignored; from start-up: initialize response "
            f"{opened['initialize']:.2f} s, indexed {opened['indexed']:.2f} s, "
            f"checks across files {opened['global']:.2f} s",
        )
    )
    record(
        Figure(
            f"lsp: diagnostics of a changed {edited}-line manifest after didChange ({manifests:,} manifests)",
            round(quick_ms),
            "ms",
            "< 50 ms",
            quick_ms < 50,
            note=f"the edited file; with the checks across files (the dry-run) {full_ms:.0f} ms; "
            f"dralint check . {cli[1] * 1000:.0f} ms",
        )
    )


if __name__ == "__main__":
    main()
