#!/usr/bin/env bash
# Starts a Redis for the service's shared state (REDIS_URL) on 127.0.0.1, installing Debian's
# redis-server first when missing. Persistence: an append-only file fsynced every second under
# var/redis/ (a restart keeps every quote and counter written more than a second before a crash;
# a clean shutdown keeps all). Usage: bash scripts/start-redis.sh [port]   (default 6379)
# Prints the REDIS_URL to use. Stop it with: redis-cli -p <port> shutdown
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-redis.sh
PORT="${1:-6379}"
DIR="var/redis/$PORT"
mkdir -p "$DIR"
redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly yes --appendfsync everysec --maxmemory-policy noeviction \
  --dir "$PWD/$DIR" --daemonize yes --logfile "$PWD/$DIR/redis.log"
for _ in $(seq 1 50); do
  if redis-cli -p "$PORT" ping >/dev/null 2>&1; then echo "REDIS_URL=redis://127.0.0.1:$PORT"; exit 0; fi
  sleep 0.1
done
echo "start-redis: no answer on port $PORT (see $DIR/redis.log)" >&2
exit 1
