"""Without its compiled module the native engine says why it is missing and how to
build it (the Python engine works all the same)."""

import pytest

from singapore_env import native


def test_missing_module_says_why_and_how(monkeypatch):
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setattr(native, "_MISSING", "ImportError: no module named _native")
    assert not native.available()
    with pytest.raises(native.NativeUnavailable) as info:
        native.Random(1)
    text = str(info.value)
    assert "not built here (ImportError: no module named _native)" in text
    assert "pip install -e ." in text and "C++17 compiler" in text
