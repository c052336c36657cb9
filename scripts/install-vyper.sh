#!/usr/bin/env bash
# Installs, under build/vyper/, what the Curve tests need from PyPI (idempotent; ~1 min on a fresh
# machine):
#   venv/          a Python virtual environment with the Vyper compiler the deployed StableSwap-NG
#                  pools were built with (vyper==0.3.10) and curvesim (0.5.0, its pool math only:
#                  installed without its plotting and data dependencies, plus gmpy2 that it imports)
#   curvefi/       Curve's own StableSwap-NG pool source (CurveStableSwapNG.vy v7.0.0, as deployed:
#                  pragma version 0.3.10), as Pygments' PyPI source distribution ships it for its
#                  Vyper lexer tests (tests/examplefiles/vyper/test.vy): no registry package ships
#                  Curve bytecode, this one ships the source (docs/dex-kinds.md, "CURVE").
# Debian's python3-venv when the machine's python3 cannot make a virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."
VYPER_VERSION=0.3.10
PYGMENTS_VERSION=2.21.0
CURVESIM_VERSION=0.5.0
GMPY2_VERSION=2.2.1
dir=build/vyper
if [ -x "$dir/venv/bin/vyper" ] && [ -f "$dir/curvefi/CurveStableSwapNG.vy" ] && [ -f "$dir/venv/.complete-$VYPER_VERSION-$CURVESIM_VERSION-$PYGMENTS_VERSION" ]; then
  exit 0
fi
echo "install-vyper: vyper $VYPER_VERSION, curvesim $CURVESIM_VERSION and Curve's source (pygments $PYGMENTS_VERSION) into $dir"
mkdir -p "$dir"
if ! python3 -m venv "$dir/venv" >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv python3-pip >/dev/null
  rm -rf "$dir/venv"
  python3 -m venv "$dir/venv"
fi
"$dir/venv/bin/pip" install -q --disable-pip-version-check "vyper==$VYPER_VERSION" "gmpy2==$GMPY2_VERSION"
"$dir/venv/bin/pip" install -q --disable-pip-version-check --no-deps "curvesim==$CURVESIM_VERSION"
sdist=$(mktemp -d)
"$dir/venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary :all: -d "$sdist" "pygments==$PYGMENTS_VERSION"
mkdir -p "$dir/curvefi"
tar -xzf "$sdist/pygments-$PYGMENTS_VERSION.tar.gz" -O "pygments-$PYGMENTS_VERSION/tests/examplefiles/vyper/test.vy" >"$dir/curvefi/CurveStableSwapNG.vy"
grep -q '^version: public(constant(String\[8\])) = "v7.0.0"' "$dir/curvefi/CurveStableSwapNG.vy"
rm -rf "$sdist"
touch "$dir/venv/.complete-$VYPER_VERSION-$CURVESIM_VERSION-$PYGMENTS_VERSION"
