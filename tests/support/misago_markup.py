"""Misago's own Markdown renderer, called in the test forum's venv (tests/support/misago.py
installs it): ``render_markdown(texts)`` gives the HTML Misago 0.39.6 stores for each post
(``misago.markup.parser.parse``, mentions off: they need the forum's database), and
``misago_css()`` the forum's stylesheet from the installed package's static files.

One subprocess for all texts (Django's start-up is the slow part); no database, no server.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.misago import ensure_installed

RENDER_TIMEOUT = 120.0

_SCRIPT = r"""
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "devproject.settings")
import django
django.setup()
from misago.markup.parser import parse


class Request:
    def get_host(self):
        return "forum.example.org"

    def is_secure(self):
        return True


texts = json.loads(sys.stdin.read())
out = [parse(t, Request(), None, allow_mentions=False)["parsed_text"] for t in texts]
sys.stdout.write(json.dumps(out))
"""


def _site_packages(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python3*/site-packages/misago"))
    if not found:
        raise FileNotFoundError(f"no misago package in {venv}")
    return found[0]


def render_markdown(texts: list[str]) -> list[str]:
    """Each Markdown text as Misago renders it into a post (its ``parsed_text``)."""
    venv = ensure_installed()
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-c", _SCRIPT],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        timeout=RENDER_TIMEOUT,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"Misago's parser failed:\n{result.stderr[-4000:]}")
    rendered = json.loads(result.stdout)
    assert isinstance(rendered, list) and len(rendered) == len(texts)
    return [str(html) for html in rendered]


def misago_css() -> Path:
    """The forum's own stylesheet (``misago/static/misago/css/misago.css``)."""
    return _site_packages(ensure_installed()) / "static" / "misago" / "css" / "misago.css"
