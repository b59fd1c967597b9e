#!/usr/bin/env bash
# `npm run typecheck`: the four projects checked by TypeScript 7 (the native compiler, package `typescript-7`, an
# alias of typescript@7), then the typed client's contract check (scripts/check-client-types.ts), which uses the
# TypeScript 5.9 API as ESLint and knip do. Both packages name their CLI `tsc`, so which one `node_modules/.bin/tsc`
# is depends on install order: each is called by its path (the builds' emit uses 5.9's, apps/api and
# packages/contract package.json). Decision 028 section 16: about 60 s less per CI run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tsc7=node_modules/typescript-7/bin/tsc
for project in packages/contract apps/api apps/panel .; do
  node "$tsc7" -p "$project"
done
npx tsx scripts/check-client-types.ts
