#!/usr/bin/env bash
# Starts, or stops, the shared stores that replicas of zdr-host use: a real
# PostgreSQL and an S3-compatible server (s3s-fs, which checks SigV4
# signatures, POST policies included), each on a free loopback port, with
# their data in one temporary folder.
#
#   scripts/shared-stores.sh start DIR   # prints nothing; writes DIR/env
#   source DIR/env                       # ZDR_DATABASE_URL, ZDR_OBJECT_STORE, AWS_*
#   scripts/shared-stores.sh stop DIR
#
# DIR/env also names the PostgreSQL tools and an administrator URL
# (ZDR_TEST_PG_BIN, ZDR_TEST_PG_ADMIN) for tests that make a database each,
# and the S3 server's folder of the bucket (ZDR_TEST_S3_ROOT).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# PostgreSQL refuses to run as root: as root, it runs as the postgres user.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

wait_for_port() { # port what
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "$2 did not start on port $1" >&2
  return 1
}

case "$command" in
  start)
    ensure_shared_stores
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    chmod 755 "$dir"
    pg_bin="$(postgres_bin)"
    pg_port="$(free_port)"
    mkdir -p "$dir/pg"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/pg"
    as_postgres "$pg_bin/initdb" -D "$dir/pg/data" -U postgres -A trust --no-sync >/dev/null
    as_postgres "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w \
      -o "-h 127.0.0.1 -p $pg_port -k $dir/pg -c fsync=off -c max_connections=300" start >/dev/null
    as_postgres "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres zdr

    s3_port="$(free_port)"
    mkdir -p "$dir/s3/zdr-test"
    access_key="zdr-test-access"
    secret_key="zdr-test-secret-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
    s3s-fs --host 127.0.0.1 --port "$s3_port" --access-key "$access_key" --secret-key "$secret_key" \
      "$dir/s3" >"$dir/s3.log" 2>&1 &
    echo $! >"$dir/s3.pid"
    wait_for_port "$s3_port" s3s-fs

    cat >"$dir/env" <<ENV
export ZDR_DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/zdr
export ZDR_OBJECT_STORE=s3://zdr-test/zdr
export AWS_ENDPOINT_URL=http://127.0.0.1:$s3_port
export AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=$access_key
export AWS_SECRET_ACCESS_KEY=$secret_key
export ZDR_TEST_PG_BIN=$pg_bin
export ZDR_TEST_PG_ADMIN=postgres://postgres@127.0.0.1:$pg_port/postgres
export ZDR_TEST_S3_ROOT=$dir/s3/zdr-test
ENV
    ;;
  stop)
    [ -d "$dir" ] || exit 0
    if [ -f "$dir/s3.pid" ]; then kill "$(cat "$dir/s3.pid")" 2>/dev/null || true; fi
    if [ -d "$dir/pg/data" ]; then
      as_postgres "$(postgres_bin)/pg_ctl" -D "$dir/pg/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
