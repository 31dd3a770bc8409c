#!/usr/bin/env bash
# Regenerate tests/oracle/data/bcdice_oracle.jsonl (+ .meta.json): random BCDice generic
# commands answered by the real BCDice (npm package `bcdice`, pinned in package.json).
# Usage: tools/oracle/make_corpus.sh [--seed N] [--count N]
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -d tools/oracle/node_modules/bcdice ]; then
  npm ci --prefix tools/oracle --no-audit --no-fund
fi
PY="${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}"
exec "$PY" tools/oracle/make_corpus.py "$@"
