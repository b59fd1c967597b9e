#!/usr/bin/env bash
# `npm test`: every check of the README's test command, building once and using both cores.
#   1. side by side: the one build (`npm run build`, what `npm start` runs), then the Playwright specs on it (and
#      the exchange and cancel journeys again on PostgreSQL)  |
#      typecheck, then (once the build has ended: some API files serve its files) the Vitest suites (panel,
#      contract, API on PGlite and on PostgreSQL) less the timing files
#   2. alone: the API files that measure time and CPU against real processes (`timingFiles` in vitest.config.ts, less
#      the waiting ones), one at a time
#   3. the timing files that mostly wait on sockets and timers (`waitingFiles`), one at a time, beside the lanes given
#      as arguments (side_by_side's form): `.ci/run` runs `npm test -- <lanes>` with the backup drill and the Node 22
#      quick start, which need the build of step 1 and no quiet machine; a plain `npm test` gives none.
# Each step's time is printed; a failed step's log is printed whole. CI_SERIAL=1: one step at a time, output live.
set -euo pipefail
# The repository's root.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/steps.sh
source scripts/steps.sh

started=$SECONDS
echo "npm test on Node $(node -v)"
side_by_side \
  "build npm run build ; playwright npx playwright test ; playwright-pg env E2E_DATABASE=postgres npx playwright test e2e/exchange-journey.spec.ts e2e/event-cancel-journey.spec.ts e2e/refund-journey.spec.ts e2e/entry-rules-journey.spec.ts" \
  "typecheck npm run typecheck ; build-wait wait_for build ; vitest env TEST_LANE=main npx vitest run"
step vitest-timing env TEST_LANE=timing npx vitest run
side_by_side "vitest-waiting env TEST_LANE=waiting npx vitest run" "$@"
echo "npm test passed in $((SECONDS - started)) s"
