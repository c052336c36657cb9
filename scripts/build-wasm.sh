#!/usr/bin/env bash
# Builds the WASM fallback into bindings/wasm/pkg/ with wasm-pack.
#
# rustup cannot download the wasm32 standard library on these machines, so this uses Debian's
# Rust (packages rustc-web, cargo-web, rust-web-src, lld; scripts/install-wasm-tools.sh installs
# them with wasm-pack and wasm-bindgen-cli at their pinned versions) and compiles std from source
# with -Z build-std (see TOOLCHAIN.md). Why each flag below: docs/wasm-build.md.
#   --reference   with the test and bench references (water-filling), as build-native.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
features=wasm
[ "${1:-}" = --reference ] && features=wasm,reference
DEBIAN_RUSTC=${DEBIAN_RUSTC:-/usr/bin/rustc}
DEBIAN_CARGO=${DEBIAN_CARGO:-/usr/bin/cargo}
for tool in "$DEBIAN_RUSTC" "$DEBIAN_CARGO" wasm-ld; do
  command -v "$tool" >/dev/null || { echo "build-wasm: $tool is missing; run scripts/install-wasm-tools.sh" >&2; exit 1; }
done
tools_bin=$(bash scripts/install-wasm-tools.sh --print-bin-dir)

# PATH: wasm-pack runs the `cargo` it finds there (it has no setting for another), so Debian's
# comes before rustup's; the pinned wasm-bindgen comes first of all (wasm-pack looks it up there and
# would otherwise download one). RUSTC: Debian's cargo would otherwise pick rustup's rustc from PATH.
# RUSTC_BOOTSTRAP unlocks -Z build-std on the stable compiler. WASM_PACK_CACHE keeps anything
# wasm-pack caches inside target/.
# --mode force: skips wasm-pack's check that the wasm32 target is in rustc's sysroot, which
# build-std never installs (the std it links is built by cargo below, into the target dir).
# --no-opt: no wasm-opt (wasm-pack would download it); --no-gitignore: bindings/wasm/pkg/ is
# ignored by the repository's .gitignore; --log-level warn: cargo's output and wasm-pack's warnings
# only (its notes ask a crate published to npm for a repository field and a LICENSE file). wasm-pack's package.json names solver.js as "main" and
# declares no "type", so Node loads wasm-bindgen's nodejs output as the CommonJS it is.
# After `--`: cargo's own options, paths relative to this directory.
PATH="$tools_bin:$(dirname "$DEBIAN_CARGO"):$PATH" \
RUSTC="$DEBIAN_RUSTC" RUSTC_BOOTSTRAP=1 WASM_PACK_CACHE="$PWD/target/wasm-pack-cache" \
  wasm-pack --log-level warn build solver-rs --mode force --target nodejs --profile release-wasm \
    --out-dir ../bindings/wasm/pkg --no-opt --no-gitignore \
    -- --features "$features" --target-dir target/wasm -Z build-std=std,panic_abort
