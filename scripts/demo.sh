#!/usr/bin/env bash
# Builds what is missing (the npm package and the embed service zdr-host) and
# starts zdr-host on http://127.0.0.1:${PORT:-8080}/: it serves the demo pages
# (www/), the package at /node_modules/zdr-embed/, and answers the widget's
# posts to /embed/{card_id}/ with the chart. Ctrl-C stops it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash scripts/build.sh
say "cargo build --release -p zdr-host"
cargo build --release -p zdr-host
say "starting zdr-host (Ctrl-C stops it)"
exec target/release/zdr-host --bind 127.0.0.1 --port "${PORT:-8080}" --www www --package .
