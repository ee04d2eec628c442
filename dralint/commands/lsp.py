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
        # dralint is not on PyPI: the extra comes with the clone dralint was installed from.
        package = str(error.name).partition(".")[0]
        raise UsageError(
            f"dralint lsp needs {package}: install dralint with its lsp extra (pip install -e '.[lsp]' in a clone, "
            "or pip install 'dralint[lsp] @ git+https://github.com/dralint/dralint')"
        ) from None
    return serve()
