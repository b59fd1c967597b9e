#!/usr/bin/env bash
# `npm run api:check` (CI): the API document and the typed client made from the code must equal the checked-in
# apps/api/client (else run `npm run api:client` and commit), and the document passes redocly lint (recommended
# rules, 0 errors). Made in a temporary directory, never in the tree: CI runs this beside `npm test`, whose
# test/openapi.test.ts reads apps/api/client.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tsx --conditions=source apps/api/scripts/openapi.ts "$out/openapi.json"
openapi-typescript "$out/openapi.json" -o "$out/schema.d.ts" >/dev/null
for f in openapi.json schema.d.ts; do
  diff -u "apps/api/client/$f" "$out/$f" >&2 || {
    echo "apps/api/client/$f is out of date: run npm run api:client and commit it" >&2
    exit 1
  }
done
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true redocly lint "$out/openapi.json"
