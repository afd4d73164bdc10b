#!/usr/bin/env bash
# Run the test suite (installs/updates the venv first). Extra args go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
exec .venv/bin/python -m pytest -n 2 "$@"
