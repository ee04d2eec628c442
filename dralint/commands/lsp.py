"""``dralint lsp``: the language server, over standard input and output."""

from __future__ import annotations

from dralint.errors import UsageError


def run() -> int:
    try:
        from dralint.lsp.server import serve
    except ImportError as error:
        if error.name not in ("pygls", "lsprotocol") and not str(error.name or "").startswith(
            ("pygls.", "lsprotocol.")
        ):
            raise
        raise UsageError(f"dralint lsp needs {error.name}: pip install 'dralint[lsp]'") from None
    return serve()
