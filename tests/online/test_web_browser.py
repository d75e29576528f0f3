"""`solstis web` in a real browser: headless Chromium opens the page, the board appears,
a key plays a decision, and the screen changes.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them, as it
installs OpenSSH) and ``selenium`` (the test extra); skipped, saying which is missing,
where they are not there. The page draws the terminal on a canvas, so the test compares
screenshots instead of reading text.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:  # pragma: no cover - the test extra installs it
    webdriver = None  # type: ignore[assignment]

pytestmark = [
    pytest.mark.skipif(webdriver is None, reason="selenium is not installed (test extra)"),
    pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                       reason="Chromium or its driver is missing: apt-get install chromium "
                              "chromium-driver (.ci/run does this as root)"),
]

#: Seconds the test waits for the server, the board and a change on screen.
PATIENCE = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(condition, what: str, timeout: float = PATIENCE, step: float = 0.25):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def web_game(tmp_path: Path):
    """`solstis web` on a free port, its saves in a fresh home; yields the page's URL."""
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "TERM": "xterm-256color"}
    server = subprocess.Popen(
        [sys.executable, "-m", "solstis_tui.cli", "web", "--port", str(port), "--",
         "--seed", "3", "--opponent", "random", "--first", "you", "--pace", "0"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        def listening() -> bool:
            if server.poll() is not None:
                raise AssertionError(f"solstis web exited: {server.stderr.read()!r}")
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0
        wait_for(listening, "solstis web to listen")
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--window-size=1100,700"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def steady_screenshot(driver) -> bytes:
    """A screenshot once two in a row, half a second apart, agree (drawing has settled)."""
    last = driver.get_screenshot_as_png()

    def settled():
        nonlocal last
        time.sleep(0.5)
        now = driver.get_screenshot_as_png()
        same, last = now == last, now
        return now if same else None
    return wait_for(settled, "the screen to settle", step=0)


def test_the_board_appears_and_keys_play_a_decision(web_game, browser):
    browser.get(web_game)
    body = browser.find_element(By.TAG_NAME, "body")
    wait_for(lambda: "-first-byte" in (body.get_attribute("class") or ""),
             "the game's first bytes in the page")
    before = steady_screenshot(browser)
    terminal = browser.find_element(By.CLASS_NAME, "textual-terminal")
    terminal.click()
    steady_screenshot(browser)
    before = steady_screenshot(browser)
    ActionChains(browser).send_keys("2").perform()  # to xterm.js's focused input
    picked = wait_for(lambda: (shot := browser.get_screenshot_as_png()) != before and shot,
                      "the screen to change after the key 2")
    assert picked != before
    chosen = steady_screenshot(browser)
    ActionChains(browser).send_keys(Keys.ENTER).perform()  # play the picked tile
    wait_for(lambda: browser.get_screenshot_as_png() != chosen,
             "the screen to change after Enter played the tile")
    closed = "-closed" in (body.get_attribute("class") or "")
    assert not closed, "the game's connection closed"
