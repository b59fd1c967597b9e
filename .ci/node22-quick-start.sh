#!/usr/bin/env bash
# The quick start's second half on Node 22 (a lane of .ci/run's `npm test`): in the copy of the tree .ci/run made and
# installed on Node 22 ($N22_COPY, Node 22's bin directory $N22_BIN), `npm start` on a free port, /healthz, one
# sign-in through the dev outbox, /v1/auth/me (scripts/quick-start-smoke.ts).
set -euo pipefail
cd "$N22_COPY"
export PATH="$N22_BIN:$PATH"
SMOKE_NODE_MAJOR=22 npx tsx scripts/quick-start-smoke.ts
