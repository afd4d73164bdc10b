"""Fixtures shared by several test files."""

import re
import shutil

import pytest

from singapore_env.engine.content import DATA_DIR


@pytest.fixture
def cheap_cards(tmp_path):
    """An edited copy of the data files: every single-price market card costs $1."""
    folder = tmp_path / "cards"
    shutil.copytree(DATA_DIR, folder)
    text = (folder / "cards.toml").read_text()
    (folder / "cards.toml").write_text(re.sub(r"(?m)^price = \d+", "price = 1", text))
    return folder
