#!/usr/bin/env bash
# Installs schemathesis (PyPI), the schema-driven fuzzer of test/http/schemaFuzz.test.ts, into a
# local venv under target/ (nothing system-wide but Debian's python3-venv when it is missing).
# Idempotent: a second run with the pinned version in place does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=4.32.5
VENV=target/schemathesis-venv

# One install at a time: CI starts this script beside npm install, and the fuzz tests may call it
# meanwhile; a second caller waits here, then finds the version in place and returns.
mkdir -p target
exec 9>target/.install-schemathesis.lock
flock 9

if [ -x "$VENV/bin/schemathesis" ] && "$VENV/bin/schemathesis" --version 2>/dev/null | grep -qF "$VERSION"; then
  exit 0
fi

if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  echo "install-schemathesis: installing Debian's python3 and python3-venv"
  apt-get update -qq && apt-get install -y -qq python3 python3-venv >/dev/null
fi

rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
echo "install-schemathesis: schemathesis $VERSION in $VENV"
