#!/usr/bin/env bash
# The Rust half of the test command: the solver's tests (Cargo.toml's release-test profile, with
# the water-filling reference) and both clippy runs. Needs only cargo, no Node packages or build
# output: `.ci/run` starts it beside `npm install`, so its minutes of compiling overlap the
# download; `scripts/test.sh` runs it after the build otherwise.
# The library's unit tests only: the examples are benchmark and profiling tools (bench/README.md),
# whose compiling clippy's --all-targets checks and `cargo run --example` does when asked, and the
# documentation's examples are written as prose, their facts asserted by the unit tests. Either would
# compile the library once more as a dependency (rlib and cdylib, about 75 core-seconds) and the
# three examples about 75 more, for binaries nothing runs.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
section() { echo "== $1 (at $(( $(date +%s) - started )) s)"; }

section "rust: cargo test --lib"
cargo test --profile release-test -p solver-rs --features reference --lib

section "rust: cargo clippy (denies wrapping and truncating integer operators in pools/ and route/)"
# The integer lints are denied in the modules themselves (#![deny] in pools/mod.rs and
# route/mod.rs, for the code the solver runs; tests build cases with plain arithmetic). Every
# target (tests and examples too) and every other finding must be clean (-D warnings): about 8 s
# of CPU more than the library alone. Linted with the references and without them (the production
# build, which must compile and leave nothing unused once they are gated out).
# The tests' profile: its own target directory, so a build of the release addon beside it (CI)
# never waits for clippy's lock on target/release.
cargo clippy --profile release-test -p solver-rs --features reference --all-targets -- -D warnings
cargo clippy --profile release-test -p solver-rs -- -D warnings
section "rust: done"
