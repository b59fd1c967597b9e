// The supported Node.js lines (package.json `engines`: ^22.13 || >=24; decision 026), checked in plain Node with
// no dependency so that it runs on any version: `npm ci` and `npm install` run it as the root `preinstall`
// (`.npmrc` engine-strict already stops them before any download on an older Node; this is the message for
// `--force` or `--engine-strict=false`). Exit code 1 with the command that gets Node 24 on an unsupported Node.
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 22 && minor >= 13) || major >= 24)) {
  console.error(
    [
      '',
      `Node ${process.versions.node} is not supported: this project needs Node 24 LTS (or Node 22.13 or later).`,
      'Node 20 reached its end of life in April 2026. Get Node 24 from the npm registry into this repository:',
      '',
      '    export PATH="$(bash scripts/node-lts.sh):$PATH"    # then run npm ci again',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
