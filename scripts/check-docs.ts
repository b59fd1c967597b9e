/**
 * Docs that must follow the code (issue 26), checked in CI by `npm run check:docs`:
 * - every decision record `docs/decisions/NNN-<slug>.md` has a heading `# NNN: …` with the file's number, and no
 *   two records share a number;
 * - every module folder under `apps/api/src/modules/`, every feature folder under `apps/panel/src/features/` and
 *   every area folder of the console (`apps/panel/src/console/<area>/`) is named in `CONTRIBUTING.md`'s layout (the
 *   lines from `src/modules/<m>/`, `src/features/<f>/`, resp. `src/console/`, up to the first file-role line, resp.
 *   the scanner's line);
 * - every module folder is named in the README's architecture paragraph (its section `## Architecture`, issue 43).
 * Prints each problem and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const problems: string[] = [];

const decisions = `${root}docs/decisions/`;
const numbers = new Map<string, string>();
for (const file of readdirSync(decisions).filter((f) => f.endsWith('.md'))) {
  const number = /^(\d{3})-[a-z0-9-]+\.md$/.exec(file)?.[1];
  if (!number) {
    problems.push(`docs/decisions/${file}: the name is not NNN-<slug>.md`);
    continue;
  }
  if (numbers.has(number)) problems.push(`docs/decisions/${file}: number ${number} is also ${numbers.get(number)}`);
  numbers.set(number, file);
  const heading = readFileSync(decisions + file, 'utf8').split('\n', 1)[0];
  if (!heading.startsWith(`# ${number}: `))
    problems.push(`docs/decisions/${file}: the heading "${heading}" does not start with "# ${number}: "`);
}

const contributing = readFileSync(`${root}CONTRIBUTING.md`, 'utf8');
const readme = readFileSync(`${root}README.md`, 'utf8');
/** The text of `doc` from the line holding `marker` up to the first line after it holding `end`. */
function block(marker: string, end: string, doc = contributing): string {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l.includes(marker));
  if (start < 0) return '';
  const stop = lines.findIndex((l, i) => i > start && l.includes(end));
  return lines.slice(start, stop < 0 ? undefined : stop).join('\n');
}
const folders = (dir: string) =>
  readdirSync(`${root}${dir}`, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
for (const [file, doc, dir, marker, end, skip] of [
  ['CONTRIBUTING.md', contributing, 'apps/api/src/modules', 'src/modules/<m>/', '<m>.routes.ts', []],
  ['CONTRIBUTING.md', contributing, 'apps/panel/src/features', 'src/features/<f>/', 'api/', []],
  // The console's folders are its areas, but for its catalogues.
  ['CONTRIBUTING.md', contributing, 'apps/panel/src/console', 'src/console/', 'src/scanner/', ['locales']],
  ['README.md', readme, 'apps/api/src/modules', '## Architecture', '## ', []],
] as const) {
  const text = block(marker, end, doc);
  if (!text) problems.push(`${file}: no "${marker}" line`);
  for (const name of folders(dir).filter((f) => !(skip as readonly string[]).includes(f)))
    if (!new RegExp(`(^|[^\\w-])${name}([^\\w-]|$)`).test(text))
      problems.push(`${file}: ${dir}/${name} is not named under "${marker}"`);
}

for (const p of problems) console.error(p);
if (problems.length) process.exit(1);
console.log(`docs: ${numbers.size} decision records and every module, feature and console area are listed`);
