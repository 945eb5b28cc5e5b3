#!/usr/bin/env bash
# Run Manda's main job on the embedded defaults: nothing to configure, no credentials needed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/manda demo "$@"
