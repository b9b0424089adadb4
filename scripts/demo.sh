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
# The service API's state and a local key for it, made once and kept
# (zdr-data/ is in .gitignore): the key is printed for the curl examples of docs/service-api.md.
DATA_DIR="${ZDR_DATA_DIR:-$ROOT/zdr-data}"
KEY_FILE="$DATA_DIR/demo-api-key"
mkdir -p "$DATA_DIR"
if [ ! -s "$KEY_FILE" ]; then
  (umask 077 && node -e "process.stdout.write('zdr_demo_' + require('crypto').randomBytes(24).toString('hex') + '\n')" > "$KEY_FILE")
fi
say "starting zdr-host (Ctrl-C stops it)"
echo "API key of this demo (X-API-Key): $(head -n 1 "$KEY_FILE")"
echo "  e.g. curl -H \"X-API-Key: \$(head -n 1 $KEY_FILE)\" 'http://127.0.0.1:${PORT:-8080}/api/v1/beta/file_upload_url?file_name=sales.csv'"
# --allow-private-fetch: the flow 2 of docs/service-api.md has the host fetch a file this
# machine serves. The demo listens on 127.0.0.1 only; a host others reach
# should not allow it (see docs/service-api.md, the file connector).
exec target/release/zdr-host --bind 127.0.0.1 --port "${PORT:-8080}" --www www --package . \
  --data-dir "$DATA_DIR" --api-keys-file "$KEY_FILE" --allow-private-fetch
