#!/usr/bin/env bash
# Start or stop a throwaway PostgreSQL server on loopback for the test suite.
#   eval "$(bash scripts/test-postgres.sh start)"   # exports SAIKORO_TEST_POSTGRES_URL
#   bash scripts/test-postgres.sh stop
# SAIKORO_TEST_PG_HOST, _PORT and _DIR choose where it listens and keeps its data.
# Needs Debian's postgresql package (installed by .ci/run when missing).
set -euo pipefail
PORT="${SAIKORO_TEST_PG_PORT:-54329}"
HOST="${SAIKORO_TEST_PG_HOST:-127.0.0.1}"
DATA="${SAIKORO_TEST_PG_DIR:-/tmp/saikoro-test-pg}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$BIN" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

case "${1:-start}" in
  start)
    if ! as_pg "$BIN/pg_ctl -D $DATA status" >/dev/null 2>&1; then
      rm -rf "$DATA"; mkdir -p "$DATA"
      [ "$(id -u)" = 0 ] && chown postgres:postgres "$DATA"
      as_pg "$BIN/initdb -D $DATA -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
      as_pg "$BIN/pg_ctl -D $DATA -l $DATA/server.log -w -o '-k /tmp -p $PORT -h $HOST -c fsync=off -c max_connections=200' start" >/dev/null
      as_pg "$BIN/createdb -h $HOST -p $PORT -U postgres saikoro_test"
    fi
    echo "export SAIKORO_TEST_POSTGRES_URL=postgresql://postgres@$HOST:$PORT/saikoro_test"
    ;;
  stop)
    as_pg "$BIN/pg_ctl -D $DATA -m fast stop" >/dev/null 2>&1 || true
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
