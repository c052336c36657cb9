#!/usr/bin/env bash
# Builds what the service runs: the native solver addon, the WASM fallback, our contracts (solc-js).
#   --require-wasm   fail when the WASM toolchain is missing (the test command: the parity tests
#                    compare both backends); without it the WASM build is skipped, with one line
#                    saying so, when its toolchain is not installed (the native addon is the default
#                    backend, WASM only its fallback, so `npm start` must not need that toolchain).
#   --reference      both backends with the test and bench references (water-filling:
#                    `solver.waterfill`), which production builds leave out (solver-rs/Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

require_wasm=
reference=
for flag in "$@"; do
  case "$flag" in
    --require-wasm) require_wasm=1 ;;
    --reference) reference=--reference ;;
    *) echo "build: unknown flag $flag" >&2; exit 2 ;;
  esac
done
bash scripts/build-native.sh $reference
if [ -n "$require_wasm" ] || bash scripts/install-wasm-tools.sh --check; then
  bash scripts/build-wasm.sh $reference
else
  echo "build: skipped the WASM fallback (its toolchain is not installed: bash scripts/install-wasm-tools.sh); the native solver serves"
fi
node --import tsx scripts/compile-contracts.ts
