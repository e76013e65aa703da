#!/usr/bin/env bash
# A throw-away PostgreSQL 15 cluster for tests, CI and benchmarks (issue 25).
#
#   scripts/pg-local.sh start [port]   # prints postgres://postgres@127.0.0.1:PORT/postgres
#   scripts/pg-local.sh stop  [port]   # stops it and deletes its files
#
# The cluster lives in a temporary folder of its own ($PG_LOCAL_DIR, default
# ${TMPDIR:-/tmp}/whitetail-pg-PORT), listens on 127.0.0.1 only, trusts every local connection and
# trades durability for speed (fsync, synchronous_commit and full_page_writes off): never put data you
# want to keep in it. Both commands are idempotent: start on a running cluster just prints its URL.
# PostgreSQL refuses to run as root, so as root the cluster is made and run as the `postgres` user.
set -euo pipefail

cmd="${1:-}"
port="${2:-55432}"
bin="${PG_BIN:-/usr/lib/postgresql/15/bin}"
dir="${PG_LOCAL_DIR:-${TMPDIR:-/tmp}/whitetail-pg-$port}"
data="$dir/data"
url="postgres://postgres@127.0.0.1:$port/postgres"

usage() {
  echo "usage: $0 start|stop [port]   (default port 55432)" >&2
  exit 2
}
[[ "$cmd" == start || "$cmd" == stop ]] || usage
[[ "$port" =~ ^[0-9]+$ ]] || usage

if [[ ! -x "$bin/pg_ctl" ]]; then
  echo "PostgreSQL 15 not found in $bin. Install it: apt-get install -y postgresql-15 (or set PG_BIN)." >&2
  exit 1
fi

# Run as the postgres user when we are root; as ourselves otherwise.
as_owner() {
  if [[ "$(id -u)" == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() {
  [[ -f "$data/PG_VERSION" ]] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

case "$cmd" in
  start)
    if running; then
      echo "$url"
      exit 0
    fi
    if [[ ! -f "$data/PG_VERSION" ]]; then
      rm -rf "$dir"
      mkdir -p "$dir"
      if [[ "$(id -u)" == 0 ]]; then
        id postgres >/dev/null 2>&1 || {
          echo "No postgres user to run the cluster as (PostgreSQL refuses root). Install postgresql-15, or run as another user." >&2
          exit 1
        }
        chown postgres: "$dir"
      fi
      as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
      }
      cat >>"$data/postgresql.conf" <<EOF
# scripts/pg-local.sh: throw-away test cluster
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 300
EOF
    fi
    if ! as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 start >/dev/null; then
      echo "PostgreSQL did not start on 127.0.0.1:$port; its log ($dir/server.log):" >&2
      tail -n 20 "$dir/server.log" >&2 || true
      exit 1
    fi
    echo "$url"
    ;;
  stop)
    if running; then
      as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    rm -rf "$dir"
    ;;
esac
