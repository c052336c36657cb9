#!/usr/bin/env bash
# Installs, under build/vyper/, what the Curve tests need from PyPI (idempotent; ~15 s on a fresh
# machine):
#   venv/          a Python virtual environment with the Vyper compiler (vyper==0.4.3) and curvesim
#                  (0.5.0, its pool math only: installed without its plotting and data dependencies,
#                  plus gmpy2 that the math imports)
#   curvefi/       Curve's own StableSwap-NG pool source, as the Vyper 0.4.3 source distribution
#                  ships it (tests/functional/examples/thirdparty/curvefi/): no registry package
#                  ships Curve bytecode, this one ships the source (docs/dex-kinds.md, "CURVE").
# Debian's python3-venv when the machine's python3 cannot make a virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."
VYPER_VERSION=0.4.3
CURVESIM_VERSION=0.5.0
GMPY2_VERSION=2.2.1
dir=build/vyper
if [ -x "$dir/venv/bin/vyper" ] && [ -f "$dir/curvefi/CurveStableSwapNG.vy" ] && [ -f "$dir/venv/.complete-$VYPER_VERSION-$CURVESIM_VERSION" ]; then
  exit 0
fi
echo "install-vyper: vyper $VYPER_VERSION, curvesim $CURVESIM_VERSION and Curve's sources into $dir"
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
"$dir/venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary :all: -d "$sdist" "vyper==$VYPER_VERSION"
mkdir -p "$dir/curvefi"
tar -xzf "$sdist/vyper-$VYPER_VERSION.tar.gz" -C "$dir/curvefi" --strip-components=6 \
  "vyper-$VYPER_VERSION/tests/functional/examples/thirdparty/curvefi/CurveStableSwapNG.vy"
rm -rf "$sdist"
touch "$dir/venv/.complete-$VYPER_VERSION-$CURVESIM_VERSION"
