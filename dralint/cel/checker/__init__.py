"""Types, declarations, the type checker, AST validators and the static cost estimate."""
