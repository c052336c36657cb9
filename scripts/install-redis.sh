#!/usr/bin/env bash
# Installs Debian's redis-server when the machine lacks it: the shared quote store and rate limiter
# tests (and any multi-instance run of the service) need a real Redis. Idempotent.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
echo "install-redis: installing Debian's redis-server"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
# The package starts a system service on 6379; the project starts its own servers, on their own ports.
$SUDO systemctl disable --now redis-server >/dev/null 2>&1 || $SUDO service redis-server stop >/dev/null 2>&1 || true
redis-server --version
