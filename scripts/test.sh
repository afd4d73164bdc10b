#!/usr/bin/env bash
# Lint and type-check, then run the test suite (installs/updates the venv first). Extra
# args go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
.venv/bin/ruff check --quiet .     # the linter, configured in pyproject.toml
.venv/bin/mypy                     # the type checker, configured in pyproject.toml
exec .venv/bin/python -m pytest -n 2 "$@"
