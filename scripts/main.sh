#!/usr/bin/env bash
# Main job: the first two minutes of the learned:zero recipe (batched self-play from
# random weights, training/configs/demo.toml), and an evaluation report.
# Usage: bash scripts/main.sh [OUT_DIR]   (default: runs/demo)
# Setup runs the first time, and again once pyproject.toml, setup.py, setup.sh or the native
# sources are newer than its last run (the package is installed editable, so other
# source changes need none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

stamp=.venv/.setup-done
if [ ! -f "$stamp" ] || [ -n "$(find pyproject.toml setup.py scripts/setup.sh native -newer "$stamp" -print -quit)" ]; then
    bash scripts/setup.sh
    touch "$stamp"
fi
exec .venv/bin/singapore-1819 demo --out "${1:-runs/demo}"
