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

# The web app's browser tests drive Debian's Chromium through its chromedriver
# (downloads of browser builds from elsewhere fail on these machines). Without apt
# (or without root) the browser tests skip and say why.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -qq >/dev/null \
            && apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-liberation \
            >/dev/null; } \
            || echo "setup: apt-get could not install chromium: the browser tests will skip" >&2
    else
        echo "setup: no /usr/bin/chromium and no apt-get as root: the browser tests will skip" >&2
    fi
fi

pip_install --upgrade pip
pip_install -e ".[dev]"
