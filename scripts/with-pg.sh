#!/usr/bin/env bash
# Runs a command with PG_TEST_URL set (issue 25): `npm run test:unit:pg` and `npm run test:e2e:pg`.
#
#   bash scripts/with-pg.sh COMMAND [ARGS…]
#
# PG_TEST_URL already set (CI: `.ci/run` starts a cluster and exports it): the command runs with it.
# Unset, and PostgreSQL 15's binaries installed (Debian's postgresql-15): a throw-away cluster is
# started for the command with scripts/pg-local.sh on WITH_PG_PORT (default 55439) and stopped
# after it. Neither: a one-line error, exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${PG_TEST_URL:-}" ]]; then
  bin="${PG_BIN:-/usr/lib/postgresql/15/bin}"
  if [[ ! -x "$bin/postgres" ]]; then
    echo "PostgreSQL not available: set PG_TEST_URL to an admin URL (postgres://postgres@127.0.0.1:55432/postgres), or install postgresql-15 (apt-get install postgresql-15) for a throw-away local cluster." >&2
    exit 1
  fi
  port="${WITH_PG_PORT:-55439}"
  PG_TEST_URL="$(bash scripts/pg-local.sh start "$port")"
  trap 'bash scripts/pg-local.sh stop "$port"' EXIT
  echo "--- throw-away PostgreSQL cluster: $PG_TEST_URL (stopped afterwards)" >&2
fi
export PG_TEST_URL
PATH="$PWD/node_modules/.bin:$PATH" "$@"
