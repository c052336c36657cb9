#!/usr/bin/env bash
# A private PostgreSQL for the gateway's tests and benchmarks: Debian's package (installed when
# missing), one cluster of our own under var/postgres/, listening on 127.0.0.1 only (trust
# authentication: loopback only, test data only). Idempotent.
#   bash scripts/postgres.sh start   install if needed, init if needed, start if stopped; prints the URL
#   bash scripts/postgres.sh stop    stop the cluster (a no-op when it is not running)
#   bash scripts/postgres.sh url     print the URL (postgres://postgres@127.0.0.1:$PORT/postgres)
# GATEWAY_PG_PORT overrides the port. Otherwise each checkout has a port of its own, chosen free
# when its cluster is first made and kept in var/postgres/port (two checkouts on one machine, e.g.
# git worktrees, would otherwise fight over one port and the second's tests could not start).
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT=$(pwd)/var/postgres
DATA=$ROOT/data
RUN=$ROOT/run
PORT_FILE=$ROOT/port

# Something listens on 127.0.0.1:$1.
port_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# The checkout's port: the recorded one, else the first free port from one derived from the path.
checkout_port() {
  if [ -f "$PORT_FILE" ]; then cat "$PORT_FILE"; return; fi
  # A cluster made before ports were recorded, still running: its port (postmaster.pid, line 4).
  if [ -f "$DATA/postmaster.pid" ]; then sed -n 4p "$DATA/postmaster.pid" | tee "$PORT_FILE"; return; fi
  local port=$((54000 + $(pwd | cksum | cut -d' ' -f1) % 900)) tries=0
  while port_taken "$port" && [ $tries -lt 100 ]; do port=$((port + 1)); tries=$((tries + 1)); done
  mkdir -p "$ROOT"
  echo "$port" > "$PORT_FILE"
  echo "$port"
}

PORT=${GATEWAY_PG_PORT:-$(checkout_port)}
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
