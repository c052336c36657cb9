#!/usr/bin/env bash
# Installs what the WASM build needs on a fresh Debian machine: Debian's Rust with the standard
# library's source (rustup has no wasm32 target here), wasm-ld, wasm-bindgen-cli at the exact
# version the crate pins, and wasm-pack at the version pinned below (both from crates.io into
# target/tools/bin; docs/wasm-build.md). Idempotent: it skips what is already there.
#   --print-bin-dir  print the directory holding wasm-bindgen and wasm-pack (installing them if
#                    needed) and nothing else
#   --check          install nothing; exit 0 when everything is already there, 1 otherwise
set -euo pipefail
cd "$(dirname "$0")/.."
# wasm-pack 0.15.1: its `--mode force` skips the wasm32 sysroot check (docs/wasm-build.md).
wasm_pack_version=0.15.1
bindgen_version=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' solver-rs/Cargo.toml)
tools_bin="$PWD/target/tools/bin"

# Both tools print "<name> <version>".
has_version() { [ -x "$1" ] && [ "$("$1" --version 2>/dev/null | awk '{print $2}')" = "$2" ]; }
# The tool at its pinned version in target/tools/bin, linked from PATH when a matching one is
# there (e.g. from an earlier cargo install: saves minutes), else built from crates.io.
tool_ready() { has_version "$tools_bin/$1" "$2"; }
install_tool() {
  local tool=$1 crate=$2 version=$3
  shift 3
  tool_ready "$tool" "$version" && return
  if has_version "$(command -v "$tool" || true)" "$version"; then
    mkdir -p "$tools_bin" && ln -sf "$(command -v "$tool")" "$tools_bin/$tool"
  else
    echo "install-wasm-tools: building $crate $version (a few minutes)" >&2
    # Built unoptimised (opt-level 0, no debug info): both tools run for seconds once per WASM build,
    # and their output does not depend on how they were compiled, while optimising their ~390 crates
    # was most of a fresh machine's WASM toolchain time. One build directory for both (kept, under
    # target/), not cargo's temporary one each: of wasm-pack's 229 crates, 46 (serde, clap, syn,
    # ring, rustls, …) are also wasm-bindgen-cli's at the same version, and build once where their
    # features agree too.
    CARGO_TARGET_DIR="$PWD/target/tools-build" CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=0 \
      CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
      cargo install "$crate" --version "=$version" "$@" --root "$PWD/target/tools" >&2
  fi
}
debian_rust_ready() { [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] && command -v wasm-ld >/dev/null; }

if [ "${1:-}" = --check ]; then
  debian_rust_ready && { tool_ready wasm-bindgen "$bindgen_version" || has_version "$(command -v wasm-bindgen || true)" "$bindgen_version"; } \
    && { tool_ready wasm-pack "$wasm_pack_version" || has_version "$(command -v wasm-pack || true)" "$wasm_pack_version"; }
  exit
fi

if [ "${1:-}" != --print-bin-dir ] && ! debian_rust_ready; then
  echo "install-wasm-tools: installing Debian's rustc-web, cargo-web, rust-web-src and lld"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq rustc-web cargo-web rust-web-src lld >/dev/null
fi
install_tool wasm-bindgen wasm-bindgen-cli "$bindgen_version"
# --locked: wasm-pack's own lockfile, so a fresh machine builds the same dependencies.
install_tool wasm-pack wasm-pack "$wasm_pack_version" --locked
if [ "${1:-}" = --print-bin-dir ]; then echo "$tools_bin"; else echo "install-wasm-tools: ready (wasm-bindgen $bindgen_version, wasm-pack $wasm_pack_version)"; fi
