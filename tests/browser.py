"""A real headless Chromium for the web viewer's tests: Debian's /usr/bin/chromium driven by playwright.

The browser is the distribution's (installed by .ci/run), never playwright's own download. One browser
serves the whole test session; each test gets a fresh page that records console errors, page errors
and every request it makes.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
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


@dataclass
class WatchedPage:
    """A browser page with what went wrong on it: console errors, uncaught errors and refused requests."""

    page: Any
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Returns every console error, page error, dialog and refused request seen so far."""
        return [
            *(f"console: {m}" for m in self.console_errors),
            *(f"page error: {m}" for m in self.page_errors),
            *(f"dialog: {m}" for m in self.dialogs),
            *(f"request left the page: {u}" for u in self.refused),
        ]


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Launches Debian's headless Chromium once for the session (a missing browser fails, never skips)."""
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)")
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield context
        context.close()


def open_page(context: Any, allowed: tuple[str, ...], width: int = 1280, height: int = 900) -> WatchedPage:
    """Opens a page that lets requests through only to URLs starting with one of `allowed` (and data:),
    recording every other as refused."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    watched = WatchedPage(page)
    page.on("console", lambda m: watched.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: watched.page_errors.append(str(e)))

    def on_dialog(dialog: Any) -> None:
        watched.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)

    def route(request_route: Any) -> None:
        url = request_route.request.url
        watched.requests.append(url)
        if url.startswith("data:") or any(url.startswith(prefix) for prefix in allowed):
            request_route.continue_()
        else:
            watched.refused.append(url)
            request_route.abort()

    page.route("**/*", route)
    return watched
