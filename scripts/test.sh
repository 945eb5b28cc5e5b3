#!/usr/bin/env bash
# Run Manda's test suite on a fresh machine: installs what the tests need, then lint and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }

# Debian packages used by tests: a real redis-server (started on a free local port by the tests),
# HAProxy (the load balancer in front of several bot workers, as the README deploys it),
# Chromium (the playground's browser tests drive it with Playwright; no browser download) and
# Tesseract (OCR of scanned PDF pages).
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr tesseract-ocr-eng)
[ -x /usr/bin/chromium ] || need+=(chromium fonts-noto-color-emoji)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${need[*]} (Debian) for the tests" >&2
  as_root apt-get update -qq || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >/dev/null \
    || echo "warning: could not install ${need[*]}; the tests that need them will be skipped" >&2
fi

# Python environment.
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'

# Node packages used by tests: Neo4j's own Cypher parser, to lint every statement we send.
if command -v npm >/dev/null 2>&1 && [ -f tests/kg/cypher_lint/package-lock.json ]; then
  npm ci --silent --no-audit --no-fund --prefix tests/kg/cypher_lint
fi

.venv/bin/ruff check src bot tests evals bench scripts
# On every core (pytest-xdist), each test file whole on one worker: a module's fixtures (a room
# ingested and asked once) run once; rooms shared by many files are built once for all workers
# (tests/fixtures/shared.py). `-n 0` runs in this process.
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n auto --maxprocesses 4 --dist loadfile "$@"
