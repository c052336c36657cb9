#!/usr/bin/env bash
# Builds Kubo (the IPFS node, `ipfs`) from its Go module when the machine lacks it, into
# ~/go/bin/ipfs, where the Kubo tests find it (src/gateway/documents/createKuboPinner.test.ts
# runs against it; without it they run against the stand-in only). Idempotent. Kubo 0.39's
# dependency github.com/cockroachdb/swiss does not compile with Go 1.26, so the build uses the
# Go 1.25 toolchain (fetched by Go itself). About 15 minutes on 2 shared cores.
set -euo pipefail
KUBO_VERSION=v0.39.0
if [ -x "${IPFS_BIN:-}" ] || command -v ipfs >/dev/null 2>&1 || [ -x "$HOME/go/bin/ipfs" ]; then
  exit 0
fi
echo "install-kubo: building github.com/ipfs/kubo/cmd/ipfs@$KUBO_VERSION"
GOTOOLCHAIN=go1.25.4 GOFLAGS=-mod=mod go install "github.com/ipfs/kubo/cmd/ipfs@$KUBO_VERSION"
"$HOME/go/bin/ipfs" version
