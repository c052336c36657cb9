#!/usr/bin/env bash
# The whole test suite: installs what a fresh machine lacks for it, builds both solver backends
# (incremental: seconds when nothing changed), runs the Rust tests, then every TypeScript test file
# with node's test runner.
#   TEST_FILES="a.test.ts b.test.ts" limits the TypeScript part to those files.
set -euo pipefail
cd "$(dirname "$0")/.."

# The parity tests compare both backends, so the tests need the WASM toolchain that `npm start`
# can do without: installed here when missing (Debian packages and wasm-bindgen-cli; idempotent).
bash scripts/install-wasm-tools.sh

echo "== build: native addon, WASM module, contracts (solc-js)"
bash scripts/build.sh --require-wasm

echo "== rust: cargo test"
cargo test --release -p solver-rs

echo "== typescript: typecheck"
npx tsc --noEmit -p tsconfig.json

echo "== typescript: node --test"
if [ -n "${TEST_FILES:-}" ]; then
  read -r -a files <<< "$TEST_FILES"
else
  mapfile -t files < <(find src test bindings -name '*.test.ts' -not -path '*/node_modules/*' | sort)
fi
# One file per process (node's default); anvil-backed files each start their own chain on a free port.
node --import tsx --test --test-concurrency=1 "${files[@]}"
