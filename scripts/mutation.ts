/**
 * `npm run mutation` (issue 43, docs/mutation.md): mutation testing of the door and money groups of
 * stryker.config.mjs, one Stryker run per group, then each group's score; exits 1 when a group scores under the
 * configuration's `thresholds.break` (per cent).
 *
 * Options (after `npm run mutation --`):
 * - `--group door|money`: only that group (repeatable; default every group);
 * - `--since <ref>`: only the group files changed since the merge base of `<ref>` (or `origin/<ref>`) and HEAD,
 *   uncommitted changes included; a group with none is skipped;
 * - `--files <a,b>`: only the group files whose path contains one of these texts (to run file by file);
 * - `--tests <globs>`: only these test files (Stryker's `testFiles`, e.g. `apps/api/test/access*.test.ts`);
 * - `--concurrency <n>`: Stryker's test runners (default 1).
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import config, { groups } from '../stryker.config.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    group: { type: 'string', multiple: true },
    since: { type: 'string' },
    files: { type: 'string' },
    tests: { type: 'string' },
    concurrency: { type: 'string' },
  },
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The files changed since the merge base of `ref` and HEAD (committed or not), repository-relative. */
function changedSince(ref: string): Set<string> {
  let base: string;
  try {
    base = git('merge-base', ref, 'HEAD');
  } catch {
    base = git('merge-base', `origin/${ref}`, 'HEAD');
  }
  return new Set(git('diff', '--name-only', base).split('\n').filter(Boolean));
}

const changed = values.since === undefined ? null : changedSince(values.since);
const only = values.files?.split(',').filter(Boolean);
const names = values.group ?? Object.keys(groups);
for (const name of names)
  if (!groups[name]) throw new Error(`unknown group ${name}: ${Object.keys(groups).join(', ')}`);
const breakAt = config.thresholds?.break ?? 0;

/** One group's outcome: mutant counts by status, score in per cent (null: nothing mutated), seconds taken. */
interface Outcome {
  name: string;
  files: number;
  counts: Record<string, number>;
  score: number | null;
  seconds: number;
  failed: boolean;
}

/** Runs Stryker on `files` and reads its JSON report (mutation-testing-report-schema). */
function run(name: string, files: string[]): Outcome {
  const started = Date.now();
  // A run of some files only keeps the whole group's report: reports/mutation/<group>[.<files>].{json,html}.
  const report = only ? `${name}.${only.join('+').replace(/[^\w+-]/g, '_')}` : name;
  const args = ['run', 'stryker.config.mjs', '--mutate', files.join(',')];
  if (values.tests) args.push('--testFiles', values.tests);
  if (values.concurrency) args.push('--concurrency', values.concurrency);
  console.log(`\n[mutation] ${name}: ${files.length} file(s)\n  ${files.join('\n  ')}`);
  const child = spawnSync(process.execPath, [`${root}node_modules/@stryker-mutator/core/bin/stryker.js`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_GROUP: report },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const counts: Record<string, number> = {};
  try {
    const json = JSON.parse(readFileSync(`${root}reports/mutation/${report}.json`, 'utf8')) as {
      files: Record<string, { mutants: { status: string }[] }>;
    };
    for (const file of Object.values(json.files))
      for (const m of file.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  } catch {
    return { name, files: files.length, counts, score: null, seconds, failed: true };
  }
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  const score = valid === 0 ? null : (100 * detected) / valid;
  // Stryker exits 1 itself under thresholds.break; anything else non-zero is a failed run.
  return { name, files: files.length, counts, score, seconds, failed: child.status !== 0 && score === null };
}

const outcomes: Outcome[] = [];
for (const name of names) {
  const files = groups[name].filter((entry) => {
    const path = entry.replace(/:[\d:-]+$/, '');
    return (!changed || changed.has(path)) && (!only || only.some((o) => path.includes(o)));
  });
  if (files.length === 0) {
    console.log(`\n[mutation] ${name}: no file to mutate${changed ? ` changed since ${values.since}` : ''}`);
    continue;
  }
  outcomes.push(run(name, files));
}

console.log('\n[mutation] scores (killed + timeout) / (killed + timeout + survived + no coverage):');
let failing = false;
for (const o of outcomes) {
  const score = o.score === null ? 'n/a' : `${o.score.toFixed(1)} %`;
  const under = o.failed || (o.score !== null && o.score < breakAt);
  failing ||= under;
  const counts = Object.entries(o.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `  ${o.name.padEnd(6)} ${score.padStart(8)}  ${o.files} file(s), ${o.seconds} s  (${counts || 'no report'})${under ? `  FAIL: under ${breakAt} %` : ''}`,
  );
}
if (outcomes.length === 0) console.log('  nothing to mutate');
process.exit(failing ? 1 : 0);
