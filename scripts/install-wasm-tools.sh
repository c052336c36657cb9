#!/usr/bin/env bash
# Installs what the WASM build needs on a fresh Debian machine: Debian's Rust with the standard
# library's source (rustup has no wasm32 target here), wasm-ld, and wasm-bindgen-cli at the exact
# version the crate pins. Idempotent: it skips what is already there.
#   --print-bindgen  print the wasm-bindgen binary path (installing it if needed) and nothing else
#   --check          install nothing; exit 0 when everything is already there, 1 otherwise
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' solver-rs/Cargo.toml)
tools_dir="$PWD/target/tools"
bindgen="$tools_dir/bin/wasm-bindgen"
bindgen_version() { [ -x "$1" ] && [ "$("$1" --version 2>/dev/null | awk '{print $2}')" = "$version" ]; }

if [ "${1:-}" = --check ]; then
  [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] && command -v wasm-ld >/dev/null \
    && { bindgen_version "$bindgen" || bindgen_version "$(command -v wasm-bindgen || true)"; }
  exit
fi

if [ "${1:-}" != --print-bindgen ]; then
  if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust/library ] || ! command -v wasm-ld >/dev/null; then
    echo "install-wasm-tools: installing Debian's rustc-web, cargo-web, rust-web-src and lld"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq rustc-web cargo-web rust-web-src lld >/dev/null
  fi
fi
if ! bindgen_version "$bindgen"; then
  # A matching wasm-bindgen already on PATH (e.g. from cargo install) saves minutes.
  if bindgen_version "$(command -v wasm-bindgen || true)"; then
    mkdir -p "$tools_dir/bin" && ln -sf "$(command -v wasm-bindgen)" "$bindgen"
  else
    echo "install-wasm-tools: building wasm-bindgen-cli $version (a few minutes)" >&2
    cargo install wasm-bindgen-cli --version "=$version" --root "$tools_dir" >&2
  fi
fi
if [ "${1:-}" = --print-bindgen ]; then echo "$bindgen"; else echo "install-wasm-tools: ready (wasm-bindgen $version)"; fi
