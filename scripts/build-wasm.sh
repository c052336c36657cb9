#!/usr/bin/env bash
# Builds the WASM fallback into bindings/wasm/pkg/.
#
# rustup cannot download the wasm32 standard library on these machines, so this uses Debian's
# Rust (packages rustc-web, cargo-web, rust-web-src, lld; .ci/run installs them) and compiles std
# from source with -Z build-std (see TOOLCHAIN.md). wasm-bindgen-cli must match the crate's
# pinned wasm-bindgen version; scripts/install-wasm-tools.sh installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
DEBIAN_RUSTC=${DEBIAN_RUSTC:-/usr/bin/rustc}
DEBIAN_CARGO=${DEBIAN_CARGO:-/usr/bin/cargo}
for tool in "$DEBIAN_RUSTC" "$DEBIAN_CARGO" wasm-ld; do
  command -v "$tool" >/dev/null || { echo "build-wasm: $tool is missing; run scripts/install-wasm-tools.sh" >&2; exit 1; }
done
WASM_BINDGEN=$(bash scripts/install-wasm-tools.sh --print-bindgen)
# Debian's cargo would otherwise pick rustup's rustc from PATH; RUSTC_BOOTSTRAP unlocks -Z build-std
# on the stable compiler.
RUSTC="$DEBIAN_RUSTC" RUSTC_BOOTSTRAP=1 "$DEBIAN_CARGO" build \
  --manifest-path solver-rs/Cargo.toml \
  --profile release-wasm \
  --target wasm32-unknown-unknown \
  --features wasm \
  --target-dir target/wasm \
  -Z build-std=std,panic_abort
"$WASM_BINDGEN" --target nodejs --out-dir bindings/wasm/pkg \
  target/wasm/wasm32-unknown-unknown/release-wasm/solver.wasm
# wasm-bindgen's nodejs target emits CommonJS; the project is "type": "module".
echo '{ "type": "commonjs" }' > bindings/wasm/pkg/package.json
