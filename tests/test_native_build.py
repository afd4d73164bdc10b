"""Without its compiled module the native engine says why it is missing and how to
build it (the Python engine works all the same)."""

import pytest

from singapore_env import native


def test_missing_module_says_why_and_how(monkeypatch):
    monkeypatch.setattr(native.loading, "_native", None)
    monkeypatch.setattr(native.loading, "_MISSING", "ImportError: no module named _native")
    assert not native.available()
    with pytest.raises(native.NativeUnavailable) as info:
        native.Random(1)
    text = str(info.value)
    assert "not built here (ImportError: no module named _native)" in text
    assert "pip install -e ." in text and "C++17 compiler" in text and "pip install -v" in text


def test_a_module_of_other_sources_is_refused():
    """A failed rebuild leaves the module of older sources in place: it does not play."""
    class Old:
        SOURCE_DIGEST = "0" * 16

    assert "built from other sources" in native.loading._stale(Old())
    assert "built from other sources" in native.loading._stale(object())
    if native.available():
        assert native.loading._stale(native.loading._native) == ""
