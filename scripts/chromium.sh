#!/usr/bin/env bash
# Debian's chromium for the tests that render the /docs pages in a real headless browser:
# installed with apt when missing. Prints the binary's path.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y --no-install-recommends chromium >/dev/null; }
fi
command -v chromium
