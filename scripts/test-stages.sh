#!/usr/bin/env bash
# `npm test` (README's test command, what `.ci/run` calls): every check, stage by stage, stopping at the
# first that fails, then how long each took (docs/testing.md keeps the figures, issue 41 item 5).
set -uo pipefail
cd "$(dirname "$0")/.."

STAGES=(lint db:check typecheck test:unit test:unit:pg build test:e2e test:e2e:pg)
took=()
started=$SECONDS

line() { printf '  %-14s %5ss  %2d.%d min\n' "$1" "$2" $(($2 / 60)) $(($2 % 60 * 10 / 60)); }

times() {
  echo
  echo "--- time per stage"
  for entry in "${took[@]}"; do line ${entry}; done
  line total $((SECONDS - started))
}

for stage in "${STAGES[@]}"; do
  echo "--- npm run $stage"
  begun=$SECONDS
  npm run "$stage"
  status=$?
  took+=("$stage $((SECONDS - begun))")
  if [[ $status -ne 0 ]]; then
    times
    echo "--- failed: npm run $stage (exit $status)"
    exit "$status"
  fi
done
times
