"""How fast ``dralint lsp`` answers an edit in a large workspace, measured over stdio as an editor sees it.

Run from the repository root: ``python benchmarks/lsp_bench.py [--apps N] [--edits N]``. It
writes ``precommit_bench.py``'s repository (N applications, default 500: a ResourceClaimTemplate
and a Deployment each, 2N manifests, beside an inventory of 1,000 nodes x 8 GPUs) and one more
manifest of 200 lines, starts the real server (``python -m dralint lsp``) with the debounce set
to 0, and speaks JSON-RPC to it on its standard input and output:

- start-up and indexing: from starting the process to the ``initialize`` response (the
  configuration, the inventory and every manifest read, and the checks of one object at a time);
- the first run of the checks across files (the dry-run of every pod), as the server logs it;
- after ``didChange`` of the 200-line manifest (its replicas raised, so the checks across files
  must run again): the latency of its first diagnostics (the edited file re-checked, the last
  cross-file findings moved), and of the diagnostics with the checks across files redone.

Side by side: ``dralint check .`` on the same repository, what an editor without the server
would have to run after every edit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, best_of, record  # noqa: E402
from precommit_bench import DEPLOYMENT, dralint, write_repository  # noqa: E402

from testing.manifests import claim_template  # noqa: E402

CHECKED_ACROSS_FILES = "dralint: checks across files done:"


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


class Client:
    """A minimal LSP client over a subprocess's pipes (JSON-RPC with Content-Length headers)."""

    def __init__(self, repo: Path) -> None:
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("DRALINT_", "PRE_COMMIT"))}
        environment["PYTHONPATH"] = str(ROOT)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dralint", "lsp"],
            cwd=repo,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.ids = 0

    def send(self, method: str, params: Any, *, request: bool = False) -> int:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.ids += 1
            message["id"] = self.ids
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return self.ids

    def receive(self) -> dict[str, Any]:
        stream = self.process.stdout
        assert stream is not None
        length = 0
        while True:
            line = stream.readline()
            if not line:
                sys.exit("the server exited")
            if line == b"\r\n":
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: dict[str, Any] = json.loads(stream.read(length))
        return message

    def until(self, wanted: Any) -> dict[str, Any]:
        while True:
            message = self.receive()
            if wanted(message):
                return message

    def stop(self) -> None:
        self.send("shutdown", None, request=True)
        self.send("exit", None)
        self.process.wait(timeout=30)


def logged_global(message: dict[str, Any]) -> bool:
    return message.get("method") == "window/logMessage" and message["params"]["message"].startswith(
        CHECKED_ACROSS_FILES
    )


def diagnostics_of(uri: str, version: int) -> Any:
    def wanted(message: dict[str, Any]) -> bool:
        params = message.get("params") or {}
        return (
            message.get("method") == "textDocument/publishDiagnostics"
            and params.get("uri") == uri
            and params.get("version") == version
        )

    return wanted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=500, help="applications (two manifests each)")
    parser.add_argument("--edits", type=int, default=5, help="edits measured (the median counts)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        write_repository(repo, options.apps)
        big = repo / "apps" / "big.yaml"
        text = big_manifest(200)
        big.write_text(text)
        uri = big.as_uri()
        started = time.perf_counter()
        client = Client(repo)
        client.send(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": repo.as_uri(),
                "capabilities": {},
                "initializationOptions": {"debounce": 0},
            },
            request=True,
        )
        client.until(lambda m: m.get("id") == 1)
        indexed = time.perf_counter() - started
        client.send("initialized", {})
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
    manifests = 2 * options.apps + 3
    quick_ms, full_ms = statistics.median(quick) * 1000, statistics.median(full) * 1000
    edited = len(text.splitlines())
    print(f"{manifests} manifests, a {edited}-line one edited, 1,000 nodes x 8 GPUs; median of {options.edits} edits")
    print(f"  start-up and indexing (to the initialize response)      {indexed * 1000:7.0f} ms")
    print(f"  the first checks across files done (from start)         {first_global * 1000:7.0f} ms")
    print(f"  didChange -> the edited file's diagnostics               {quick_ms:7.0f} ms")
    print(f"  didChange -> diagnostics with the checks across files    {full_ms:7.0f} ms")
    print(f"  dralint check . (a whole process, for comparison)        {cli[1] * 1000:7.0f} ms")
    record(Figure(f"lsp: start-up and indexing, {manifests:,} manifests", round(indexed, 2), "s", "< 5 s", indexed < 5))
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
