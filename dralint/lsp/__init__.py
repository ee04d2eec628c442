"""``dralint lsp``: a language server with dralint's findings as diagnostics, hover, quick fixes and
completion in CEL selectors (pygls, the optional ``lsp`` extra)."""
