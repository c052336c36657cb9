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
# The contracts (solc-js: one thread, a minute or two from scratch) compile beside the Rust builds,
# whose front end holds one core for most of theirs; their output is printed once both are done.
# The embedded market's Curve pools are compiled with Vyper from PyPI (scripts/install-vyper.sh,
# minutes of pip on a fresh machine, seconds once installed): started here beside the native build,
# which takes minutes too, so a first `npm start` does not wait for it when it seeds the chain. Not
# waited for: the seeding's own call to the script waits on its lock (src/devnet/runInstallScript.ts).
mkdir -p build
bash scripts/install-vyper.sh > build/install-vyper.log 2>&1 &
contracts_log=$(mktemp)
node --import tsx scripts/compile-contracts.ts > "$contracts_log" 2>&1 &
contracts=$!
trap 'kill "$contracts" 2>/dev/null || true; rm -f "$contracts_log"' EXIT
bash scripts/build-native.sh $reference
if [ -n "$require_wasm" ] || bash scripts/install-wasm-tools.sh --check; then
  bash scripts/build-wasm.sh $reference
else
  echo "build: skipped the WASM fallback (its toolchain is not installed: bash scripts/install-wasm-tools.sh); the native solver serves"
fi
contracts_status=0
wait "$contracts" || contracts_status=$?
cat "$contracts_log"
[ "$contracts_status" = 0 ] || { echo "build: the contracts did not compile" >&2; exit "$contracts_status"; }
