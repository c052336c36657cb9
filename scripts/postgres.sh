#!/usr/bin/env bash
# A private PostgreSQL for the gateway's tests and benchmarks: Debian's package (installed when
# missing), one cluster of our own under var/postgres/, listening on 127.0.0.1 only (trust
# authentication: loopback only, test data only). Idempotent.
#   bash scripts/postgres.sh start   install if needed, init if needed, start if stopped; prints the URL
#   bash scripts/postgres.sh stop    stop the cluster (a no-op when it is not running)
#   bash scripts/postgres.sh url     print the URL (postgres://postgres@127.0.0.1:$PORT/postgres)
# GATEWAY_PG_PORT overrides the port (default 54329).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${GATEWAY_PG_PORT:-54329}
ROOT=$(pwd)/var/postgres
DATA=$ROOT/data
RUN=$ROOT/run
URL="postgres://postgres@127.0.0.1:$PORT/postgres"

bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$dir" ] && [ -x "$dir/postgres" ] && echo "$dir"
}

# The server refuses to run as root: as root it runs as Debian's `postgres` user.
as_server_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install() {
  if [ -z "$(bindir)" ]; then
    echo "postgres.sh: installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  fi
  [ -n "$(bindir)" ] || { echo "postgres.sh: no PostgreSQL server binary after install" >&2; exit 1; }
}

running() {
  [ -f "$DATA/postmaster.pid" ] && as_server_user "$(bindir)/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

start() {
  install
  local bin
  bin=$(bindir)
  mkdir -p "$ROOT" "$RUN"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$ROOT" "$RUN"; fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    as_server_user "$bin/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if ! running; then
    # Tests only: no fsync (faster, and data survive only a clean stop, which is all tests need).
    as_server_user "$bin/pg_ctl" -D "$DATA" -l "$ROOT/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$RUN -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >/dev/null
  fi
  echo "$URL"
}

stop() {
  if [ -n "$(bindir)" ] && running; then as_server_user "$(bindir)/pg_ctl" -D "$DATA" -w -m fast stop >/dev/null; fi
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  url) echo "$URL" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
