#!/usr/bin/env bash
# Create .venv (if missing) and install the project with all extras, editable.
# Idempotent: re-running only installs what is missing or out of date.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi

# pip --quiet still prints warnings and errors; drop only the harmless
# "Location ... is ignored" lines that some machines' pip config produces.
# With pipefail, a pip failure still fails this script.
pip_install() {
    .venv/bin/python -m pip install --quiet "$@" 2>&1 \
        | { grep -v "is ignored: it is neither a file nor a directory" || true; }
}

pip_install --upgrade pip
pip_install -e ".[dev]"
