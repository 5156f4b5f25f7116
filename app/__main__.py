"""``python -m app …``: the same command line as ``forumplay`` (app/cli.py).

``python -m app serve`` applies migrations (app/migrate.py), then serves on
http://127.0.0.1:8000.
"""

from __future__ import annotations


def main() -> None:
    from app.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
