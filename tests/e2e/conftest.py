"""Fixtures of the end-to-end tests: Debian's Chromium driven by Playwright's sync API.

The browser is the system's ``chromium`` package (``.ci/run`` installs it when missing), never
one that Playwright downloads. Without it the tests are skipped, saying so.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"

# Every page of every test reports what the Content-Security-Policy blocked: the browser's
# securitypolicyviolation event, passed on through the console (Playwright's init scripts run
# outside the page's policy), and collected here; a test with any fails at teardown.
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile || document.location.href}:${e.lineNumber} (${e.sample || ""})`);
});"""
CSP_VIOLATIONS: list[str] = []


class WatchedBrowser:
    """The browser, whose every new context reports CSP violations into CSP_VIOLATIONS."""

    def __init__(self, browser: object) -> None:
        self._browser = browser

    def new_context(self, **kwargs: object) -> object:
        context = self._browser.new_context(**kwargs)
        context.add_init_script(script=CSP_WATCH)

        def on_page(page: object) -> None:
            page.on("console", lambda message: _note(message.text))

        context.on("page", on_page)
        return context

    def __getattr__(self, name: str) -> object:
        return getattr(self._browser, name)


def _note(text: str) -> None:
    if text.startswith("CSP violation") or "Content Security Policy" in text:
        CSP_VIOLATIONS.append(text)


def chromium_path() -> str | None:
    return shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )


@pytest.fixture(scope="session")
def browser(django_db_setup: None) -> Iterator[object]:
    """One Chromium per test process, for every browser test it runs (each test opens contexts
    of its own, closed at its end: no cookie, storage or page is shared). Launching one per test
    module cost a launch for each of 43 modules on every worker that ran one of their tests.
    Between the browser tests, tests/conftest.py hides Playwright's event loop from the others.

    After the test databases (``django_db_setup``), made and dropped through connections of a
    thread without that loop: asgiref gives a thread under a running loop other connections."""
    path = chromium_path()
    if path is None:
        pytest.skip(
            "Debian's chromium is not installed (apt-get install chromium; .ci/run does it)"
        )
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread, and Django refuses ORM calls
    # from a thread with a running loop unless told that it is safe (it is: nothing here is
    # asynchronous, the loop only carries Playwright's messages).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            loop = asyncio._get_running_loop()
            browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            try:
                yield WatchedBrowser(browser)
            finally:
                # The session may end with another test, around which tests/conftest.py unmarked
                # the loop and unset the variable: Playwright's calls need the loop marked. The browser tests' database
                # connections are those asgiref keeps under that loop: closed here, where they
                # can be reached (an open one keeps the test database from being dropped).
                asyncio._set_running_loop(loop)
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
                from django.db import connections

                connections.close_all()
                browser.close()
        # (Playwright closed its loop: what follows, the test databases' end, runs without.)
        asyncio._set_running_loop(None)
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _contexts_closed_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Whatever a browser test left open (a context a helper made, a page of a failed test) is
    closed at its end: a page left polling the live server would load the tests after it, which
    now share the browser."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[list[str]]:
    """Fails the test if any page it opened had something blocked by the CSP."""
    CSP_VIOLATIONS.clear()
    yield CSP_VIOLATIONS
    found, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    if found:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(found))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """test-artifacts/e2e/ (git-ignored): screenshots of the pages the tests went through,
    those of the last run only (emptied once per run, so that each test's shots stay: by the
    first of its pytest-xdist workers to get here, which notes the run in the folder)."""
    import fcntl

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    run = os.environ.get("MONOPOLY_TEST_RUN_DIR", "")  # (one per run, shared by its workers: tests/settings.py)
    with open(ARTIFACTS / ".run", "a+") as note:
        fcntl.flock(note, fcntl.LOCK_EX)
        note.seek(0)
        if note.read() != run:
            for old in ARTIFACTS.glob("*.png"):
                old.unlink()
            note.seek(0)
            note.truncate()
            note.write(run)
    return ARTIFACTS


@pytest.fixture
def site(live_server, settings) -> Iterator[str]:
    """The live server's address, set as the site's own (for the links it gives out).

    On SQLite (``bin/test`` without DATABASE_URL) the test database lives in memory, and the
    server's threads all use the test's one connection: a read still open in one request then
    makes a write in another fail with "database table is locked". There, requests are served
    one at a time. PostgreSQL (CI) serves them side by side, as in production."""
    from django.db import connection

    settings.SITE_URL = live_server.url
    httpd = live_server.thread.httpd
    app = httpd.get_app()
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        lock = threading.Lock()

        def one_at_a_time(environ, start_response):
            with lock:
                return app(environ, start_response)

        httpd.set_app(one_at_a_time)
    try:
        yield live_server.url
    finally:
        httpd.set_app(app)
