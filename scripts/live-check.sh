#!/usr/bin/env bash
# Live checks to run once after installing: the real Claude API (and Redis, Voyage when set).
# Asks one question (streamed) and a follow-up, runs one extraction, and prints tokens, prompt
# cache reads and writes, and latency. Refuses to run without ANTHROPIC_API_KEY.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ANTHROPIC_API_KEY:-}" ]; then
  echo "live-check: ANTHROPIC_API_KEY is not set; this check talks to the real Claude API." >&2
  echo "Export the key (and REDIS_URL, VOYAGE_API_KEY... as deployed), then run it again." >&2
  exit 2
fi
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" scripts/live_check.py "$@"
