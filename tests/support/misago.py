"""A real Misago forum for the tests: install once, then one fresh forum per test session.

``python -m tests.support.misago install`` (``make misago``) creates the cached venv with
``misago==0.39.6`` in ``${FORUMPLAY_CACHE_DIR:-~/.cache/forumplay}/misago-0.39.6``. Several
processes may ask at once: one installs under an exclusive ``flock`` while the others wait,
and a stamp file marks the venv complete (a half-made one is removed and made again).

``start_forum()`` then creates a PostgreSQL database, writes a Django settings module that
builds on the example project inside the wheel (``devproject``), migrates, creates the
accounts and a category (``misago_setup.py``), starts ``django-admin runserver`` on a free
port and waits until it answers. ``MisagoForum.stop()`` ends the server and drops the
database. The pytest fixture ``misago_forum`` (tests/conftest.py) wraps this.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import fcntl
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.engine import make_url

from tests.support.waiting import wait_until

MISAGO_VERSION = "0.39.6"
DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432"
STAMP = ".forumplay-complete"
SETUP_SCRIPT = Path(__file__).with_name("misago_setup.py")
# Generous: the machine is shared, and CI runs on a busy one too.
INSTALL_TIMEOUT = 1800.0
LOCK_TIMEOUT = 2400.0
SETUP_TIMEOUT = 600.0
START_TIMEOUT = 180.0
PLAYERS = ("player1", "player2")


class MisagoUnavailable(RuntimeError):
    """The forum could not be installed or started (the text says why)."""


def cache_dir() -> Path:
    configured = os.environ.get("FORUMPLAY_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "forumplay"


def venv_dir() -> Path:
    return cache_dir() / f"misago-{MISAGO_VERSION}"


def _lock(handle: Any, timeout: float) -> None:
    """An exclusive flock on ``handle``, waiting at most ``timeout`` seconds for it."""

    def acquired() -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    try:
        wait_until(
            acquired, timeout=timeout, what="another process installing Misago", interval=1.0
        )
    except AssertionError as error:
        raise MisagoUnavailable(str(error)) from error


def ensure_installed() -> Path:
    """The cached Misago venv, installing it first when no complete one exists."""
    venv = venv_dir()
    if (venv / STAMP).exists():
        return venv
    cache_dir().mkdir(parents=True, exist_ok=True)
    with open(cache_dir() / f"misago-{MISAGO_VERSION}.lock", "w") as lock:
        _lock(lock, LOCK_TIMEOUT)
        if (venv / STAMP).exists():  # another process finished it while we waited
            return venv
        log_path = cache_dir() / f"misago-{MISAGO_VERSION}-install.log"
        started = time.monotonic()
        shutil.rmtree(venv, ignore_errors=True)
        with open(log_path, "w") as log:
            steps = [
                [sys.executable, "-m", "venv", str(venv)],
                [
                    str(venv / "bin" / "python"),
                    "-m",
                    "pip",
                    "install",
                    "--disable-pip-version-check",
                    "--no-input",
                    f"misago=={MISAGO_VERSION}",
                ],
                [str(venv / "bin" / "python"), "-c", "import django, misago, devproject"],
            ]
            for step in steps:
                try:
                    subprocess.run(
                        step,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        check=True,
                        timeout=INSTALL_TIMEOUT,
                    )
                except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
                    raise MisagoUnavailable(
                        f"installing misago=={MISAGO_VERSION} failed ({error}); see {log_path}"
                    ) from error
        seconds = time.monotonic() - started
        (venv / STAMP).write_text(f"misago=={MISAGO_VERSION} installed in {seconds:.0f} s\n")
        return venv


# --- the database ----------------------------------------------------------------------


def _run_async(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run a coroutine to the end from sync code, even when called inside an event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


def _postgres_url() -> str:
    return os.environ.get("TEST_POSTGRES_URL", DEFAULT_PG)


async def _admin(sql: str) -> None:
    import asyncpg

    base = _postgres_url().replace("postgresql+asyncpg", "postgresql")
    conn = await asyncpg.connect(f"{base}/postgres", timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


# --- the forum -------------------------------------------------------------------------


@dataclass(frozen=True)
class MisagoAccount:
    username: str
    password: str
    user_id: int


@dataclass
class MisagoForum:
    """A running Misago forum: its URL, its accounts, a category to open threads in."""

    base_url: str
    category_id: int
    bot: MisagoAccount  # a moderator: posts without the flood limit
    players: tuple[MisagoAccount, ...]  # two members (flood limit lifted for tests)
    admin: MisagoAccount
    database: str
    log_path: Path
    # seconds spent: "database" (create + migrate + accounts), "server" (runserver answering)
    timings: dict[str, float] = field(default_factory=dict)
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _workdir: Path | None = field(default=None, repr=False)

    def channel_config(self, **where: int) -> dict[str, Any]:
        """A ``misago`` channel config for the bot: pass ``thread_id=`` or ``category_id=``
        (default: open a thread in the test category)."""
        return {
            "base_url": self.base_url,
            "username": self.bot.username,
            "password": self.bot.password,
            **(where or {"category_id": self.category_id}),
        }

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        """End the server and drop its database (idempotent)."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        _run_async(_admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)'))
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None


def _tied_to_this_process(command: list[str]) -> list[str]:
    """The command, wrapped so that it ends when the test process dies, even by SIGKILL:
    a killed test run leaves no forum running (util-linux setpriv; without it, as is)."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "TERM", *command] if setpriv else command


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _settings_module(workdir: Path, database: str) -> str:
    pg = make_url(_postgres_url())
    db = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": database,
        "USER": pg.username or "postgres",
        "PASSWORD": pg.password or "",
        "HOST": pg.host or "127.0.0.1",
        "PORT": pg.port or 5432,
    }
    for name in ("media", "static", "userdata"):
        (workdir / name).mkdir(exist_ok=True)
    return f'''"""Test forum settings, written by tests/support/misago.py."""
from devproject.settings import *  # noqa: F403

DATABASES = {{"default": {db!r}}}
# No Redis and no worker: Celery runs tasks inside the request.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
MIDDLEWARE = [m for m in MIDDLEWARE if not m.startswith("debug_toolbar")]  # noqa: F405
# Files stay in this session's folder, not in the shared cached venv.
MEDIA_ROOT = {str(workdir / "media")!r}
STATIC_ROOT = {str(workdir / "static")!r}
MISAGO_USER_DATA_DOWNLOADS_WORKING_DIR = {str(workdir / "userdata")!r}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Signing in is on every test's path; a slow password hash buys nothing here.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Errors go to the log file (tests print it when the forum misbehaves).
LOGGING = {{
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {{"console": {{"class": "logging.StreamHandler"}}}},
    "loggers": {{"django": {{"handlers": ["console"], "level": "WARNING"}}}},
}}
# Misago 0.39 renders Markdown tables only with this extension (README, "Channels").
MISAGO_MARKUP_EXTENSIONS = ["forumplay_misago_tables"]
'''


# The module a forum admin adds for tables: Misago calls ``extend_markdown.extend_markdown(md)``
# for each module listed in MISAGO_MARKUP_EXTENSIONS.
TABLES_EXTENSION = '''"""Markdown tables for Misago 0.39 (python-markdown's own tables extension)."""
from markdown.extensions.tables import TableExtension


class _Tables:
    @staticmethod
    def extend_markdown(md):
        TableExtension().extendMarkdown(md)


extend_markdown = _Tables()
'''


def start_forum() -> MisagoForum:
    """Install if needed, then create, migrate and start a fresh forum (see module doc)."""
    venv = ensure_installed()
    database = f"forumplay_misago_{secrets.token_hex(4)}"
    try:
        _run_async(_admin(f'CREATE DATABASE "{database}"'))
    except Exception as error:  # noqa: BLE001 - any connection failure
        raise MisagoUnavailable(f"PostgreSQL is not reachable for Misago: {error!r}") from error
    workdir = Path(tempfile.mkdtemp(prefix="forumplay-misago-"))
    log_path = workdir / "misago.log"
    names = ("bot", *PLAYERS, "admin")
    passwords = {name: secrets.token_urlsafe(12) for name in names}
    forum = MisagoForum(
        base_url="",
        category_id=0,
        bot=MisagoAccount("bot", passwords["bot"], 0),
        players=(),
        admin=MisagoAccount("admin", passwords["admin"], 0),
        database=database,
        log_path=log_path,
        _workdir=workdir,
    )
    try:
        (workdir / "forumplay_misago_settings.py").write_text(_settings_module(workdir, database))
        (workdir / "forumplay_misago_tables.py").write_text(TABLES_EXTENSION)
        env = {
            **os.environ,
            "PYTHONPATH": str(workdir),
            "DJANGO_SETTINGS_MODULE": "forumplay_misago_settings",
            "FORUMPLAY_MISAGO_PASSWORDS": json.dumps(passwords),
        }
        # Run from the work folder: beside this file, "import misago" would find this module.
        script = workdir / "setup_forum.py"
        shutil.copyfile(SETUP_SCRIPT, script)
        started = time.monotonic()
        setup = subprocess.run(
            [str(venv / "bin" / "python"), str(script)],
            env=env,
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=SETUP_TIMEOUT,
        )
        if setup.returncode != 0:
            raise MisagoUnavailable(
                f"migrating the Misago database failed:\n{setup.stderr[-4000:]}"
            )
        created = json.loads(setup.stdout.strip().splitlines()[-1])
        ids = created["accounts"]
        forum.category_id = int(created["category_id"])
        forum.bot = MisagoAccount("bot", passwords["bot"], ids["bot"])
        forum.admin = MisagoAccount("admin", passwords["admin"], ids["admin"])
        forum.players = tuple(MisagoAccount(n, passwords[n], ids[n]) for n in PLAYERS)
        forum.timings["database"] = time.monotonic() - started
        started = time.monotonic()
        _serve(forum, venv, env, workdir)
        forum.timings["server"] = time.monotonic() - started
    except BaseException:
        forum.stop()
        raise
    return forum


def _serve(forum: MisagoForum, venv: Path, env: dict[str, str], workdir: Path) -> None:
    """Start runserver on a free port and wait until it answers; if another process took
    the port between asking and binding, try another one."""
    for _attempt in range(3):
        port = _free_port()
        log = open(forum.log_path, "ab")  # noqa: SIM115 - the server process owns it
        process = subprocess.Popen(
            _tied_to_this_process(
                [str(venv / "bin" / "django-admin"), "runserver", f"127.0.0.1:{port}", "--noreload"]
            ),
            env=env,
            cwd=workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        forum._process = process
        forum.base_url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                response = httpx.get(f"{forum.base_url}/api/auth/", timeout=5)
            except httpx.HTTPError:
                return False
            return response.status_code == 200

        def died(process: subprocess.Popen[bytes] = process) -> str | None:
            code = process.poll()
            return None if code is None else f"runserver exited with {code}:\n{forum.log()}"

        try:
            wait_until(answers, timeout=START_TIMEOUT, what="Misago to answer", give_up=died)
            return
        except AssertionError as error:
            in_use = "already in use" in forum.log()
            forum._process = None
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
            if not in_use:
                raise MisagoUnavailable(str(error)) from error
    raise MisagoUnavailable("no free port for Misago after 3 attempts")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.support.misago")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="create the cached Misago venv (idempotent)")
    sub.add_parser("check", help="install, start a forum, sign in as the bot, tear down")
    args = parser.parse_args()
    venv = ensure_installed()
    print(f"misago {MISAGO_VERSION} venv ready: {venv} ({(venv / STAMP).read_text().strip()})")
    if args.command == "check":
        forum = start_forum()
        try:
            phases = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in forum.timings.items())
            print(f"misago forum up at {forum.base_url} ({phases})")
        finally:
            forum.stop()


if __name__ == "__main__":
    main()
