#!/usr/bin/env bash
# Builds what is missing and starts the demo on http://127.0.0.1:${PORT:-8080}/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash scripts/build.sh
say "starting the demo server"
exec node scripts/dev-server.mjs --port "${PORT:-8080}"
