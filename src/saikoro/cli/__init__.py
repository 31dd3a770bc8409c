"""Command-line front end (Typer). Each sub-command lives in its own module with ``register(app)``."""
