"""The browser of the web app's tests (:mod:`singapore_app.web.browser`): tests using
:func:`browser` skip, saying why, where Chromium, its driver or Selenium is missing, and
fail instead on CI (``CI`` set), where scripts/setup.sh must have installed them."""

from __future__ import annotations

import os
import time

import pytest

from singapore_app.web.browser import headless_chromium, missing


def browser():
    """A headless Chromium (a generator for a pytest fixture): yields the driver."""
    reason = missing()
    if reason and os.environ.get("CI"):
        pytest.fail(f"no browser on CI: {reason}")
    if reason:
        pytest.skip(reason)
    with headless_chromium() as driver:
        yield driver


def until(driver, test, timeout: float = 60.0, what: str = ""):
    """``test(driver)``'s first true value, asked every 50 ms (an element replaced while
    read counts as not yet); fails the test after ``timeout`` seconds, saying ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = test(driver)
        except Exception:  # (an element replaced while read)
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.05)

