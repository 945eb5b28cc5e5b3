#!/usr/bin/env bash
# Run Manda's main job on the embedded defaults: nothing to configure, no credentials needed.
# Ingests the sample data room, answers example questions in the terminal, then serves the real
# bot in a local Slack-like page (http://127.0.0.1:8765) until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
.venv/bin/manda demo
exec .venv/bin/manda playground "$@"
