"""One module per subcommand; each exposes ``run(settings) -> exit code``."""
