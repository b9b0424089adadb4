#!/usr/bin/env bash
# Runs zdr-host as N replicas (default 2) on one machine, as they run behind
# a load balancer: one PostgreSQL and one S3-compatible bucket shared by all
# (scripts/shared-stores.sh starts both in a temporary folder), each replica
# on its own port from 8081 and its own empty --data-dir. Ctrl-C stops the
# replicas and the stores and removes their data.
#
#   bash scripts/replicas.sh [N]
#   ZDR_API_KEYS=my-key bash scripts/replicas.sh 3
#
# The embed stores nothing; the service API's rows are in PostgreSQL and
# its files in the bucket. See docs/deploy.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

count="${1:-2}"
[[ "$count" =~ ^[1-9][0-9]?$ ]] || { echo "usage: $0 [replicas, 1 to 99]" >&2; exit 2; }
: "${ZDR_API_KEYS:=replica-demo-key-0123456789}"
export ZDR_API_KEYS

say "cargo build --release -p zdr-host"
cargo build --release -p zdr-host --quiet

work="$(mktemp -d)"
# PostgreSQL runs as its own user, which must reach its folder inside.
chmod 755 "$work"
pids=()
stop() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  bash "$ROOT/scripts/shared-stores.sh" stop "$work/stores"
  rm -rf "$work"
}
trap stop EXIT INT TERM

say "PostgreSQL and s3s-fs (scripts/shared-stores.sh)"
bash scripts/shared-stores.sh start "$work/stores"
source "$work/stores/env"

for i in $(seq 1 "$count"); do
  port=$((8080 + i))
  "$ROOT/target/release/zdr-host" --port "$port" --data-dir "$work/replica-$i" \
    --www www --package . ${ZDR_REPLICA_FLAGS:-} >"$work/replica-$i.out" 2>"$work/replica-$i.log" &
  pids+=($!)
done
for i in $(seq 1 "$count"); do
  port=$((8080 + i))
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$work/replica-$i.log" >&2; exit 1; }
  echo "replica $i: http://127.0.0.1:$port/ (log: $work/replica-$i.log)"
done
cat <<TEXT

Shared by the replicas:
  ZDR_DATABASE_URL=$ZDR_DATABASE_URL
  ZDR_OBJECT_STORE=$ZDR_OBJECT_STORE (AWS_ENDPOINT_URL=$AWS_ENDPOINT_URL)
  API key(s): $ZDR_API_KEYS

Try: curl -s "http://127.0.0.1:8081/api/v1/beta/file_upload_url?file_name=sales.csv" -H "x-api-key: ${ZDR_API_KEYS%%,*}"
Ctrl-C stops everything.
TEXT
if [ -n "${ZDR_REPLICAS_THEN:-}" ]; then
  # Run a command against the replicas, then stop (the benchmark does).
  bash -c "$ZDR_REPLICAS_THEN"
else
  wait
fi
