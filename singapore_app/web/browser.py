"""A real browser for the web app's tests and screenshots: Debian's Chromium driven by
Selenium through /usr/bin/chromedriver, headless, with a fresh profile (downloads of
browser builds from elsewhere fail on the project's machines; ``scripts/setup.sh``
installs the two Debian packages)."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")


def missing() -> str | None:
    """Why no browser can be driven here (None if one can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return (f"{path} is missing: scripts/setup.sh installs Debian's chromium and "
                    f"chromium-driver with apt-get (as root)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install 'singapore-1819[web]'"
    return None


@contextmanager
def headless_chromium():
    """A headless Chromium with a fresh profile (removed afterwards): the driver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
