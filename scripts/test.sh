#!/usr/bin/env bash
# `npm test`: every check of the README's test command, building once and using both cores.
#   1. side by side: typecheck, then the Vitest suites (panel, contract, API on PGlite and on PostgreSQL) less the
#      timing and quiet files, then the API files that measure time against real processes (`timingFiles` in
#      vitest.config.ts), one at a time  |  the one build (`npm run build`, what `npm start` runs),
#      then the Playwright specs on it. The timing files run while Playwright ends: each measures against a baseline
#      or a control server taken in the same test, on the machine as it is then (test/timing.ts).
#   2. alone: the API files that need the machine to themselves (`quietFiles`: the import's event-loop budget).
# Each step's time is printed; a failed step's log is printed whole. CI_SERIAL=1: one step at a time, output live.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/steps.sh
source scripts/steps.sh

started=$SECONDS
# TYPECHECKED=1: the typecheck already ran (`.ci/run` runs it beside lint, where a core is free).
typecheck="typecheck npm run typecheck ;"
[ -z "${TYPECHECKED:-}" ] || typecheck=""
side_by_side \
  "$typecheck vitest env TEST_LANE=main npx vitest run ; vitest-timing env TEST_LANE=timing npx vitest run" \
  "build npm run build ; playwright npx playwright test"
step vitest-quiet env TEST_LANE=quiet npx vitest run
echo "npm test passed in $((SECONDS - started)) s"
