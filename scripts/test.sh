#!/usr/bin/env bash
# The whole test suite: builds both solver backends (incremental: seconds when nothing changed),
# runs the Rust tests, then every TypeScript test file with node's test runner.
#   TEST_FILES="a.test.ts b.test.ts" limits the TypeScript part to those files.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== build: native addon, WASM module, contracts (solc-js)"
npm run --silent build

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
