#!/usr/bin/env bash
# Coverage-guided fuzzing of every target in fuzz/ (libFuzzer through
# cargo-fuzz): `bash scripts/fuzz.sh [SECONDS_PER_TARGET]` (default 15).
# Each target runs from a copy of its committed corpus, so a run leaves the
# repository clean; crashing inputs land in fuzz/artifacts/<target>/.
# Exits non-zero on any crash, panic, OOM (256 MB) or slow input (1 s).
# See docs/fuzzing.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SECONDS_PER_TARGET="${1:-15}"
case "$SECONDS_PER_TARGET" in '' | *[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2 ;; esac
# FUZZ_TARGETS="a b" runs only those; FUZZ_ARGS adds libFuzzer flags (e.g. -seed=1).
ensure_fuzz
cd "$ROOT/fuzz"

# The longest input per target: a post's field and body get the 64 KB the
# output bound is stated for; addresses and messages need far less.
max_len() {
  case "$1" in
    chart_read_draw | host_form | table_readers | questions) echo 65536 ;;
    *) echo 4096 ;;
  esac
}

# Its own workspace, so the main `cargo fmt --all` does not see it.
cargo fmt --manifest-path Cargo.toml -- --check

# -s none: no sanitizer (the code is safe Rust; ASan's shadow memory would
# distort the 256 MB bound). Debug assertions on: an overflow is a finding.
say "cargo fuzz build (nightly, no sanitizer, debug assertions)"
cargo +nightly fuzz build -s none --debug-assertions

targets="${FUZZ_TARGETS:-$(cargo +nightly fuzz list)}"
# FUZZ_WORK=dir keeps the grown corpora and logs there (to minimise into
# fuzz/corpus with `cargo fuzz cmin`, see docs/fuzzing.md); else a temp dir.
if [ -n "${FUZZ_WORK:-}" ]; then
  work="$FUZZ_WORK"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
failed=0
total=0
summary=""
for target in $targets; do
  say "fuzz $target for ${SECONDS_PER_TARGET}s"
  mkdir -p "$work/$target" "artifacts/$target"
  cp -r "corpus/$target/." "$work/$target/" 2>/dev/null || true
  dict=()
  [ -f "dict/$target.dict" ] && dict=("-dict=dict/$target.dict")
  status=0
  # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
  cargo +nightly fuzz run -s none --debug-assertions "$target" "$work/$target" -- \
    -max_total_time="$SECONDS_PER_TARGET" -timeout=1 -rss_limit_mb=256 -malloc_limit_mb=256 \
    -max_len="$(max_len "$target")" -print_final_stats=1 "${dict[@]}" ${FUZZ_ARGS:-} \
    >"$work/$target.log" 2>&1 || status=$?
  runs="$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/$target.log" | tail -1)"
  secs="$(awk '/stat::slowest_unit_time_sec/ { print $2 }' "$work/$target.log" | tail -1)"
  peak="$(awk '/stat::peak_rss_mb/ { print $2 }' "$work/$target.log" | tail -1)"
  crashes=0
  if [ "$status" != 0 ] || grep -qE '^==[0-9]+== ERROR: libFuzzer|^SUMMARY: libFuzzer|panicked at' "$work/$target.log"; then
    crashes=1
    failed=1
    # The finding itself, without libFuzzer's banner or the whole stack.
    grep -E -A3 'panicked at|ERROR: libFuzzer|SUMMARY: libFuzzer' "$work/$target.log" | head -30 || tail -20 "$work/$target.log"
    ls -1 "artifacts/$target" | sed "s|^|  artifact: fuzz/artifacts/$target/|"
  fi
  total=$((total + ${runs:-0}))
  line="$(printf '%-16s %12s executions  %3s crashes  peak RSS %4s MB  slowest input %ss' \
    "$target" "${runs:-?}" "$crashes" "${peak:-?}" "${secs:-?}")"
  echo "$line"
  summary+="$line"$'\n'
done
say "fuzz summary (${SECONDS_PER_TARGET}s per target)"
printf '%s' "$summary"
echo "total: $total executions"
exit "$failed"
