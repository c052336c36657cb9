#!/usr/bin/env bash
# Builds the native addon (napi-rs) into bindings/native/.
set -euo pipefail
cd "$(dirname "$0")/.."
npx napi build --platform --release \
  --manifest-path solver-rs/Cargo.toml \
  --features napi \
  --output-dir bindings/native \
  --no-js --dts native.d.ts
