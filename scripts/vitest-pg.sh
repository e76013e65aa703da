#!/usr/bin/env bash
# `npm run test:unit:pg`: vitest on PostgreSQL (TEST_DATABASE_URL from PG_TEST_URL, scripts/with-pg.sh).
# Without arguments it runs the files that touch the database (scripts/db-test-files.ts; the rest run
# the same on either engine and stay with the SQLite run); with arguments, what they name.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -eq 0 ]]; then
  mapfile -t files < <(tsx scripts/db-test-files.ts)
  echo "--- the ${#files[@]} vitest files that touch the database (tsx scripts/db-test-files.ts --others: the rest)"
  set -- "${files[@]}"
fi
TEST_DATABASE_URL="$PG_TEST_URL" exec vitest run "$@"
