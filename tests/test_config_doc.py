"""docs/training.md's config reference is generated from the config class: it
matches it, and every key has a meaning and the kinds of run that read it."""

import dataclasses
from pathlib import Path

import pytest

from training.config import KEYS, TrainConfig
from training.config.doc import BEGIN, END, config_reference, key_notes, with_reference

DOC = Path(__file__).resolve().parents[1] / "docs" / "training.md"


def test_the_page_holds_the_generated_reference():
    text = DOC.read_text()
    assert with_reference(text) == text, \
        "docs/training.md is stale: python -m training.config.doc docs/training.md"


def test_every_key_is_documented_and_read_by_some_run():
    notes = key_notes(TrainConfig)
    assert set(notes) == {f.name for f in dataclasses.fields(TrainConfig)}
    assert all(notes.values()), [k for k, v in notes.items() if not v]
    reference = config_reference()
    assert all(f"| `{name}` |" in reference for name in notes)
    read = {key for keys in KEYS.values() for key in keys} | {"backend"}
    assert read == set(notes), set(notes) ^ read


def test_a_page_without_the_markers_is_refused():
    with pytest.raises(ValueError, match="markers"):
        with_reference(f"# Training\n{BEGIN}\n")
    assert END in with_reference(f"{BEGIN}\nold\n{END}\ntail")
