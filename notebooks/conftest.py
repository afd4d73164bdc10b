"""The notebooks run in the test suite (nbmake); each takes a while, so they are ``slow``
(a fast loop: ``pytest -m "not slow"``)."""

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Mark every notebook item ``slow`` before ``-m`` selects items."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
