# Shared by the scripts: install what is missing, quietly when all is present.
# Sourced, not run. Every step is idempotent and checks before it installs.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# The timing table. `step LABEL [WHAT]` ends the step before it and starts
# LABEL (printing WHAT, or LABEL); `step_table` ends the last one and prints
# every step's wall and CPU seconds (the commands' own user + system time,
# as bash's `times` counts the children it waited for) and the totals, as a
# Markdown table. A step that an `exit` or a failure cut short is marked so.
STEP_LABELS=()
STEP_WALL=()
STEP_CPU=()
STEP_LABEL=""
STEP_START=""
STEP_CPU_START=""
RUN_START="$EPOCHREALTIME"
STEP_TIMES=""
# Sets CPU to the user + system seconds of the children waited for so far.
# `times` runs in this shell: in a $(...) it would count the subshell's.
children_cpu() {
  [ -n "$STEP_TIMES" ] || STEP_TIMES="$(mktemp)"
  times >"$STEP_TIMES"
  CPU="$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); sub("s", "", u[2]); sub("s", "", s[2])
    printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$STEP_TIMES")"
}
RUN_CPU_START=0 # a script's children have used nothing when it starts
seconds_since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
step() {
  step_end
  STEP_LABEL="$1"
  STEP_START="$EPOCHREALTIME"
  children_cpu
  STEP_CPU_START="$CPU"
  say "${2:-$1}"
}
step_end() {
  [ -n "$STEP_LABEL" ] || return 0
  STEP_LABELS+=("${1:-}$STEP_LABEL")
  STEP_WALL+=("$(seconds_since "$STEP_START" "$EPOCHREALTIME")")
  children_cpu
  STEP_CPU+=("$(seconds_since "$STEP_CPU_START" "$CPU")")
  STEP_LABEL=""
}
step_table() { # [status]: non-zero marks the step that was running as failed
  [ "${1:-0}" = 0 ] || step_end "FAILED: "
  step_end
  printf '\n| step | wall s | CPU s |\n|---|---:|---:|\n'
  for i in "${!STEP_LABELS[@]}"; do
    printf '| %s | %s | %s |\n' "${STEP_LABELS[$i]}" "${STEP_WALL[$i]}" "${STEP_CPU[$i]}"
  done
  children_cpu
  printf '| **total** | **%s** | **%s** |\n' "$(seconds_since "$RUN_START" "$EPOCHREALTIME")" \
    "$(seconds_since "$RUN_CPU_START" "$CPU")"
  rm -f "$STEP_TIMES"
}

# workspace_tests PACKAGE TARGET...: the paths of the named test binaries of
# PACKAGE as `cargo test --workspace` builds them (built if they are not yet),
# one per line, in the order named.
workspace_tests() {
  cargo test --workspace --no-run --quiet --message-format=json |
    node -e '
      const [pkg, ...names] = process.argv.slice(1);
      const found = new Map();
      for (const line of require("fs").readFileSync(0, "utf8").split("\n")) {
        if (!line.startsWith("{")) continue;
        const m = JSON.parse(line);
        if (m.reason === "compiler-artifact" && m.executable && m.target.kind.includes("test")
            && m.package_id.includes(`#${pkg}@`)) {
          found.set(m.target.name, m.executable);
        }
      }
      for (const name of names) {
        if (!found.has(name)) { console.error(`no test binary ${name} in ${pkg}`); process.exit(1); }
        console.log(found.get(name));
      }' "$@"
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

APT_UPDATED=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "apt-get install ${missing[*]}"
  if [ "$APT_UPDATED" = 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The wasm-bindgen version locked in Cargo.lock; the CLI must match it exactly.
locked_wasm_bindgen() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

cargo_install() { # crate version [cargo install flags]
  local crate="$1" version="$2"
  say "cargo install $crate $version ${*:3}"
  # --locked first for reproducibility; some releases lock a yanked crate, so fall back.
  cargo install "$crate" --version "$version" --locked "${@:3}" 2>/dev/null ||
    cargo install "$crate" --version "$version" "${@:3}"
}

# The wasm32 target and wasm-bindgen-cli (wasm-bindgen, which writes a
# module's JS glue, and wasm-bindgen-test-runner, which runs the browser
# tests): cargo and these two are all a WebAssembly build or test needs.
ensure_rust_wasm() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown ||
    { say "rustup target add wasm32-unknown-unknown"; rustup target add wasm32-unknown-unknown; }
  local want
  want="$(locked_wasm_bindgen)"
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    cargo_install wasm-bindgen-cli "$want"
  fi
}

ensure_npm_packages() {
  if [ ! -d "$ROOT/node_modules" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
    say "npm ci"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

ensure_browsers() {
  # Fonts for the scripts of the locales beyond Latin (ja-JP, zh-CN: WenQuanYi
  # Micro Hei; hi-IN: Lohit Devanagari), for the browsers and the host's PNGs.
  apt_install chromium chromium-driver firefox-esr fonts-wqy-microhei fonts-lohit-deva
  # A debug build: it only relays WebDriver commands to Firefox, and
  # compiles in 50 s where a release build takes 91 s (2 cores).
  command -v geckodriver >/dev/null || cargo_install geckodriver "0.37.1" --debug
}

# The fuzz targets (fuzz/, docs/fuzzing.md) need a nightly toolchain for
# libFuzzer's coverage instrumentation, and cargo-fuzz at a pinned version.
CARGO_FUZZ_VERSION="0.13.2"
ensure_fuzz() {
  rustup toolchain list | grep -q '^nightly' ||
    { say "rustup toolchain install nightly"; rustup toolchain install nightly --profile minimal; }
  if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
    cargo_install cargo-fuzz "$CARGO_FUZZ_VERSION"
  fi
}

ensure_build_tools() {
  ensure_rust_wasm
  ensure_wasm_split
  ensure_npm_packages
}

# wasm-split-cli (crates.io: wasm_split_cli_support, the splitter Leptos and
# Yew use) cuts the engine module into its core and a chunk per group of
# card kinds (crates/engine/src/chunks.rs), with one change of ours
# (scripts/wasm-split-shared-in-main.patch): code that more than one chunk
# needs stays in the core. Unpatched, such code becomes a shared chunk of
# its own for each set of groups that needs it: 80 files of 0.2 to 2 KB,
# 44 of them fetched for a line card. Built once per version and patch,
# outside the repository, so that a fresh clone reuses it.
WASM_SPLIT_VERSION="0.2.4"
wasm_split_bin() {
  local patch_hash
  patch_hash="$(sha256sum "$ROOT/scripts/wasm-split-shared-in-main.patch" | cut -c1-12)"
  echo "${XDG_CACHE_HOME:-$HOME/.cache}/zdr-embed/wasm-split-$WASM_SPLIT_VERSION-$patch_hash/bin/wasm-split-cli"
}
ensure_wasm_split() {
  local bin work source
  bin="$(wasm_split_bin)"
  [ -x "$bin" ] && return 0
  say "wasm-split-cli $WASM_SPLIT_VERSION, patched (scripts/wasm-split-shared-in-main.patch)"
  work="$(mktemp -d)"
  # The crate's source, fetched by cargo from the registry like any dependency.
  mkdir -p "$work/fetch/src"
  printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nwasm_split_cli_support = "=%s"\n' \
    "$WASM_SPLIT_VERSION" > "$work/fetch/Cargo.toml"
  touch "$work/fetch/src/lib.rs"
  cargo fetch --quiet --manifest-path "$work/fetch/Cargo.toml"
  source="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"wasm_split_cli_support-$WASM_SPLIT_VERSION" | head -1)"
  cp -r "$source" "$work/crate"
  patch --quiet -d "$work/crate" -p1 < "$ROOT/scripts/wasm-split-shared-in-main.patch"
  cargo install --quiet --locked --path "$work/crate" --features build-binary --root "$(dirname "$(dirname "$bin")")"
  rm -rf "$work"
}

# What the tests of the service API run besides cargo: the documented curl
# walk-through (curl, jq), and the service's Python SDK, which
# crates/host/tests/sdk.rs installs from PyPI into virtual environments of
# its own (python3 with venv and pip: the machine's CPython has them).
S3S_FS_VERSION="0.14.1"

# The newest PostgreSQL's programs (Debian keeps them out of PATH).
postgres_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

# PostgreSQL from Debian, and s3s-fs (an S3 server that checks SigV4
# signatures) from crates.io: the stores replicas share, for the tests.
ensure_shared_stores() {
  [ -n "$(postgres_bin)" ] || apt_install postgresql
  # Debian starts a cluster of its own when it installs one: not used here.
  if command -v s3s-fs >/dev/null && [ "$(s3s-fs --version | awk '{print $2}')" = "$S3S_FS_VERSION" ]; then
    return 0
  fi
  # A debug build, as for geckodriver: the tests' objects are small, and
  # it compiles in 54 s where a release build takes 95 s (2 cores).
  cargo_install s3s-fs "$S3S_FS_VERSION" --features binary --debug
}

ensure_test_tools() {
  apt_install curl jq
  python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
}
