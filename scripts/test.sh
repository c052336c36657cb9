#!/usr/bin/env bash
# The whole test suite: installs what a fresh machine lacks for it, builds both solver backends
# (incremental: seconds when nothing changed), runs the Rust tests and clippy (scripts/test-rust.sh),
# then every TypeScript test file with vitest (vitest.config.ts: two files at a time but for those
# that must run alone, each in a child process of its own).
#   TEST_FILES="a.test.ts b.test.ts" limits the TypeScript part to those files (vitest's file
#   filters: a path matches every test file whose path contains it).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
# A section header with the seconds since the start, so a slow section shows in the log.
section() { echo "== $1 (at $(( $(date +%s) - started )) s)"; }

# The parity tests compare both backends, so the tests need the WASM toolchain that `npm start`
# can do without: installed here when missing (Debian packages and wasm-bindgen-cli; idempotent).
bash scripts/install-wasm-tools.sh
# The Solidly cross-check's second implementation (test/crosscheck/solidly_pool.py) runs on Python 3,
# standard library only: Debian's python3 when the machine has none.
if ! command -v python3 >/dev/null 2>&1; then
  echo "== installing Debian's python3 (test/crosscheck/solidly_pool.py)"
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
fi

# The format check and the typecheck need no build output: they run beside the build, the Rust
# tests and vitest (tsc takes a minute or more of one core), and are waited for at the end, so a
# run with a type error still runs every test and then fails.
checks=$(mktemp -d)
trap 'jobs -p | xargs -r kill 2>/dev/null || true; rm -rf "$checks"' EXIT
section "format (rustfmt, Prettier: docs/formatting.md) and typecheck (tsc), in the background"
# Fails on any file the formatters would change; `npm run format` rewrites them.
npm run --silent format:check > "$checks/format.log" 2>&1 &
format_check=$!
npx tsc --noEmit -p tsconfig.json > "$checks/tsc.log" 2>&1 &
typecheck=$!
# Waits for one of them, prints its output, and fails the run when it failed.
finish() {
  local status=0
  wait "$2" || status=$?
  cat "$3"
  [ "$status" = 0 ] || { echo "== $1 failed" >&2; exit "$status"; }
  echo "== $1 passed"
}

section "build: native addon, WASM module (both with the water-filling reference), contracts (solc-js)"
# The tests compare our plans with water-filling (solver.waterfill), a reference production builds
# leave out: the tests' build has it (--reference; `npm start` rebuilds without it).
bash scripts/build.sh --require-wasm --reference

# TEST_RUST=done: the caller ran scripts/test-rust.sh already (.ci/run, beside npm install).
if [ "${TEST_RUST:-}" = done ]; then
  section "rust: tests and clippy already run by the caller (TEST_RUST=done)"
else
  bash scripts/test-rust.sh
fi

section "typescript: vitest (the format check and the typecheck go on beside it)"
# No TEST_FILES: every *.test.ts under src/, test/ and bindings/ (the config's include).
read -r -a files <<< "${TEST_FILES:-}"
vitest_status=0
npx vitest run "${files[@]}" || vitest_status=$?

section "format check and typecheck (started before the build)"
finish "format check" "$format_check" "$checks/format.log"
finish "typescript: typecheck" "$typecheck" "$checks/tsc.log"
exit "$vitest_status"
