#!/usr/bin/env bash
# Installs, under build/balancer-v2/, Balancer V2's own Vault and Authorizer artifacts (bytecode as
# deployed on mainnet and every V2 chain, Base included) from the npm package that ships them,
# @balancer-labs/v2-deployments (tasks/20210418-vault, tasks/20210418-authorizer). The package is
# fetched with `npm pack` rather than installed: it declares hardhat as a peer dependency, which
# npm would otherwise install with it. Idempotent; a few seconds on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=3.2.0
dir=build/balancer-v2
if [ -f "$dir/.complete-$VERSION" ]; then
  exit 0
fi
echo "install-balancer-v2: @balancer-labs/v2-deployments@$VERSION (Vault, Authorizer) into $dir"
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@balancer-labs/v2-deployments@$VERSION" >/dev/null)
tar -xzf "$tmp/balancer-labs-v2-deployments-$VERSION.tgz" -C "$tmp"
cp "$tmp/package/dist/tasks/20210418-vault/artifact/Vault.json" "$dir/Vault.json"
cp "$tmp/package/dist/tasks/20210418-authorizer/artifact/Authorizer.json" "$dir/Authorizer.json"
touch "$dir/.complete-$VERSION"
