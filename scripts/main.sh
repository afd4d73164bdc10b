#!/usr/bin/env bash
# Main job: a short self-play training run plus an evaluation report.
# Usage: bash scripts/main.sh [OUT_DIR]   (default: runs/demo)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
exec .venv/bin/singapore-1819 demo --out "${1:-runs/demo}"
