"""A minimal LSP client over the pipes of a real ``dralint lsp`` process (JSON-RPC with Content-Length headers).

pytest-lsp drives the server as an editor does in most tests; this one is for what it hides: the
order in which messages arrive, timings (``benchmarks/lsp_bench.py``) and the process's exit code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

Message = dict[str, Any]


class ServerExited(Exception):
    """The server closed its output while a message was awaited."""


class Client:
    """``python -m dralint lsp`` started in ``workspace``, with this checkout and a clean environment."""

    def __init__(self, workspace: Path) -> None:
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("DRALINT_", "PRE_COMMIT"))}
        environment["PYTHONPATH"] = str(ROOT)
        # a file, not a pipe nobody reads while the server runs; closed with the client
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dralint", "lsp"],
            cwd=workspace,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        self.ids = 0
        self.received: list[Message] = []  # every message, in the order it came

    def send(self, method: str, params: Any, *, request: bool = False) -> int:
        message: Message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.ids += 1
            message["id"] = self.ids
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return self.ids

    def initialize(self, workspace: Path, options: dict[str, Any] | None = None) -> Message:
        """``initialize`` (its response returned), then ``initialized``."""
        params = {
            "processId": os.getpid(),
            "rootUri": workspace.as_uri(),
            "capabilities": {},
            "initializationOptions": options or {},
        }
        number = self.send("initialize", params, request=True)
        response = self.until(lambda m: m.get("id") == number)
        self.send("initialized", {})
        return response

    def open(self, path: Path, text: str | None = None) -> None:
        document = {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text or path.read_text()}
        self.send("textDocument/didOpen", {"textDocument": document})

    def receive(self) -> Message:
        stream = self.process.stdout
        assert stream is not None
        length = 0
        while True:
            line = stream.readline()
            if not line:
                raise ServerExited("the server exited")
            if line == b"\r\n":
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: Message = json.loads(stream.read(length))
        self.received.append(message)
        return message

    def until(self, wanted: Callable[[Message], bool]) -> Message:
        while True:
            message = self.receive()
            if wanted(message):
                return message

    def stop(self, *, timeout: float = 30) -> int:
        """``shutdown`` then ``exit``; the server's exit code."""
        self.send("shutdown", None, request=True)
        self.send("exit", None)
        return self.process.wait(timeout=timeout)


    def errors(self) -> str:
        """What the server wrote on its standard error so far."""
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")


def logged(prefix: str) -> Callable[[Message], bool]:
    """A ``window/logMessage`` that starts with ``prefix``."""
    return lambda m: m.get("method") == "window/logMessage" and m["params"]["message"].startswith(prefix)


def diagnostics_of(uri: str, version: int | None = None) -> Callable[[Message], bool]:
    """Diagnostics published for ``uri`` (of its ``version``, if given)."""

    def wanted(message: Message) -> bool:
        params = message.get("params") or {}
        return (
            message.get("method") == "textDocument/publishDiagnostics"
            and params.get("uri") == uri
            and (version is None or params.get("version") == version)
        )

    return wanted
