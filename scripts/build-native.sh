#!/usr/bin/env bash
# Builds the native addon (napi-rs) into bindings/native/.
#   --reference   with the test and bench references (water-filling: solver.waterfill), the
#                 build the tests and bench:quality use; without it, the production addon.
set -euo pipefail
cd "$(dirname "$0")/.."
features=napi
[ "${1:-}" = --reference ] && features=napi,reference
npx napi build --platform --release \
  --manifest-path solver-rs/Cargo.toml \
  --features "$features" \
  --output-dir bindings/native \
  --no-js
