"""What several test modules share: the built site and a browser, the installed wheel, and
how the tests spread over pytest-xdist's workers (``tests/spreading.py``: every test of a
fixture wider than one test runs on one worker, so the site and the wheel are built once).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import site as python_site
import subprocess
import sys
import threading
import time
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import spreading
from browsing import CHROMIUM_ARGS, BuiltSite
from hypothesis import settings
from programs import chromium

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ compiled once a run

def _keep_bytecode() -> None:
    """Compile each module once for the whole run, as Python does by default.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (as on the machines this project is developed on), every command
    and adapter a test starts compiled the project from source again, about a tenth of a
    second a process over some hundreds of processes, and every run rewrote every test
    module's asserts again. Bytecode changes no behaviour, and ``__pycache__`` is ignored by
    git. (``PYTHONPYCACHEPREFIX`` would keep it out of the checkout, but then every installed
    package is compiled again into it on a fresh machine, which costs more than it saves.)
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the commands and adapters tests start
    sys.dont_write_bytecode = False


_keep_bytecode()


# ------------------------------------------------------------------ Hypothesis, on any machine

#: Hypothesis fails an example that takes longer than its deadline (200 ms by default), a
#: measure of the wall clock: on a loaded machine a quick example can take longer, and the
#: test then fails for the machine's speed alone. No test here has a deadline; a test that
#: sets its own ``@settings`` keeps this profile's other values.
settings.register_profile("scorpion", deadline=None)
settings.load_profile("scorpion")


# ------------------------------------------------------------------ spreading over workers

def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "dist", "no") == "loadgroup" and not hasattr(config, "workerinput"):
        spreading.share_groups_file(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    spreading.unshare_groups_file(config)


def pytest_configure_node(node: Any) -> None:
    spreading.offer_groups_file(node.config, node)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    spreading.publish_groups(config, items)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    return spreading.auto_workers()


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return spreading.GroupScheduling(config, log) if config.getvalue("dist") == "loadgroup" else None


# ------------------------------------------------------------------ the site and a browser

@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site, built once with ``mkdocs build --strict`` and a real conformance report."""
    out = tmp_path_factory.mktemp("site")
    env = {k: v for k, v in os.environ.items() if k != "SCORPION_SITE_SKIP_REPORT"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    started = time.monotonic()
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False,
    )
    log = built.stdout + built.stderr
    if built.returncode != 0:
        tail = "\n".join(log.splitlines()[-40:])
        pytest.fail(f"mkdocs build --strict failed (exit {built.returncode}):\n{tail}")
    return BuiltSite(out, log, time.monotonic() - started)


@pytest.fixture(scope="session")
def site(built_site: BuiltSite) -> Path:
    """The built site's folder."""
    return built_site.folder


#: Where Material's search worker fetches the site's search index.
SEARCH_INDEX = "/search/search_index.json"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """The built site's files; ``index``, where given, is sent for the search index instead."""

    def __init__(self, *args: Any, index: bytes | None = None, **kwargs: Any) -> None:
        self.index = index
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        if self.index is None or self.path.split("?")[0] != SEARCH_INDEX:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.index)))
        self.end_headers()
        self.wfile.write(self.index)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def _serving(site: Path, index: bytes | None) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site), index=index)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def served(site: Path) -> Iterator[str]:
    """The built site on 127.0.0.1, on a free port, for what its pages show: its search finds
    nothing. Material's search worker builds the whole site's index on every page it opens,
    about two fifths of Chromium's work over the browser tests; here the index has the site's
    own settings and no page. The search itself is tested on :func:`searchable`."""
    index = json.loads((site / SEARCH_INDEX.lstrip("/")).read_text(encoding="utf-8"))
    with _serving(site, json.dumps({**index, "docs": []}).encode()) as address:
        yield address


@pytest.fixture(scope="session")
def searchable(site: Path) -> Iterator[str]:
    """The built site on 127.0.0.1, on a free port, with its whole search index."""
    with _serving(site, None) as address:
        yield address


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser): one a
    process, whichever tests use it (Playwright's sync API runs once in a thread)."""
    from playwright.sync_api import sync_playwright

    executable = chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def browser(served: str, chromium_browser: Any) -> Any:
    """Chromium, for the built site (``served``): the tests of the site run where it was built."""
    return chromium_browser


# ------------------------------------------------------------------ the installed wheel

def _git_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return [line for line in out.splitlines() if line and (ROOT / line).is_file()]


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv with the wheel installed, built once for the session.

    The wheel is built from a copy of the files git knows (tracked or new, not ignored), so
    nothing left in the checkout's ``build/`` can slip in. The fresh venv sees the project
    venv's third-party packages through a ``.pth`` line (no download, and not the editable
    install of this checkout, whose finder only the project venv loads).
    """
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    for name in _git_files():
        if name.startswith((".real-programs/", "build/", "reports/")):
            continue
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)],
                   check=True, capture_output=True, text=True, timeout=600)
    (wheel,) = dist.glob("scorpion_conformance-*.whl")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=False)  # the project venv's pip installs into it: no ensurepip
    python = env_dir / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    # The project venv's packages (pytest, jsonschema, ...), after the new venv's own.
    deps = "\n".join(python_site.getsitepackages()) + "\n"
    Path(own, "project-deps.pth").write_text(deps, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                    str(wheel)], check=True, capture_output=True, text=True, timeout=600)
    return env_dir / "bin"
