#!/usr/bin/env bash
# Live checks against the real services (issue 27, items 1-7): Claude with ANTHROPIC_API_KEY,
# Slack with SLACK_BOT_TOKEN, MANDA_LIVE_CHANNEL and MANDA_LIVE_USER. Each check runs only when
# its service is configured and is listed as skipped otherwise, with the variable it needs; the
# script exits 2 when nothing could be checked. What each check asks: scripts/live_check.py.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" scripts/live_check.py "$@"
