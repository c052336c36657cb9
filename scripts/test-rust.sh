#!/usr/bin/env bash
# The Rust half of the test command: the solver's tests (Cargo.toml's release-test profile, with
# the water-filling reference) and both clippy runs. Needs only cargo, no Node packages or build
# output: `.ci/run` starts it beside `npm install`, so its minutes of compiling overlap the
# download; `scripts/test.sh` runs it after the build otherwise.
#   --examples-only  compile the examples in the tests' profile and stop (the Curve differential
#                    tests run one, test/differential/runStableSwapModel.ts; `cargo test` below
#                    compiles them too, and then finds them built): .ci/run compiles them at normal
#                    priority before the TypeScript tests, then runs this script at the lowest
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
section() { echo "== $1 (at $(( $(date +%s) - started )) s)"; }

if [ "${1:-}" = --examples-only ]; then
  section "rust: cargo build --examples"
  cargo build --profile release-test -p solver-rs --features reference --examples
  exit
fi

section "rust: cargo test"
cargo test --profile release-test -p solver-rs --features reference

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
