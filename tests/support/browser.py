"""Debian's Chromium, headless, driven by Selenium, for the phones' page: the
browser and what the tests read off the page. Used by tests/web/test_browser.py (a PhoneServer
fed by a bare session) and tests/ui/test_ui_phones.py (the running app); the fixture
``browser`` is in tests/conftest.py.

Chromium missing: skipped on a desktop, a failure in CI (``CI=true``; .ci/run installs it)."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
SIZES = ((390, 844), (1024, 768))
WAIT_S = 10.0


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium at a phone's size, on a profile of its own, quit afterwards."""
    missing = [str(p) for p in (CHROMIUM, DRIVER) if not p.exists()]
    if missing:
        why = f"{' and '.join(missing)} missing (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"The browser tests must run in CI: {why}")
        pytest.skip(why)
    os.environ["SE_OFFLINE"] = "true"        # Selenium Manager downloads nothing
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="companion-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
        try:
            size(driver, *SIZES[0])
            yield driver
        finally:
            driver.quit()


def size(driver, width: int, height: int) -> None:
    """The page's viewport exactly, as a phone or tablet has it (touch, its own width)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})


def until(driver, check: Callable[[], Any], what: str,
          meanwhile: Callable[[], Any] = lambda: None) -> Any:
    """Wait for ``check()`` to hold; ``meanwhile`` runs before each look (the running app's
    tests pump Kivy's frames there, so its main thread drains the inbox and publishes)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def look(_driver) -> Any:
        meanwhile()
        return check()

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.05).until(
        look, message=f"the page never showed {what}")


def text(driver, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id).text


def shown_n(driver) -> int | None:
    """The number of the snapshot the page shows (None before the first)."""
    n = driver.execute_script("return document.body.dataset.n")
    return int(n) if n else None


def seat_names(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#seats .seat .name")]


def pressable(driver) -> list[Any]:
    """The seat's buttons on the page, its dice faces after them."""
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#buttons button, #dice button")
