"""The browser of the web app's tests (:mod:`singapore_app.web.browser`): tests using
:func:`browser` skip, saying why, where Chromium, its driver or Selenium is missing, and
fail instead on CI (``CI`` set), where scripts/setup.sh must have installed them."""

from __future__ import annotations

import os

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
