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


@pytest.fixture
def zero_copy(tmp_path):
    """``zero_copy(drop=(...), **meta)``: a folder holding an edited copy of the shipped
    ``zero`` pair, without the arrays ``drop`` (the value head: ``VALUE_KEYS``) and with
    ``meta`` added (``candidate_prior="heuristic"``: a pair reading the heuristic's prior
    columns, which no shipped network does)."""
    import numpy as np

    from agents.learned import POLICY_DIR
    from agents.numpy_nets import save_npz
    from singapore_env.engine.content import FACTIONS

    def make(drop=(), **meta):
        folder = tmp_path / f"zero_copy{len(list(tmp_path.glob('zero_copy*')))}"
        folder.mkdir()
        for faction in FACTIONS:
            with np.load(POLICY_DIR / "zero" / f"{faction}.npz") as data:
                arrays = {k: data[k] for k in data.files if k not in drop}
            arrays.update({f"meta_{k}": np.array(v) for k, v in meta.items()})
            save_npz(folder / f"{faction}.npz", **arrays)
        return folder

    return make
