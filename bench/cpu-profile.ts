/**
 * Reading a V8 CPU profile (`node --cpu-prof`): self and total (inclusive) time by function and by package, the
 * tables bench/profile-listing.ts and bench/qr-cost.ts print.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** The parts of a `.cpuprofile` file read here. */
export interface Profile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock (`process.hrtime` / 1000 on Linux) of the first sample. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Reads a `.cpuprofile` file. */
export const readProfile = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Profile;

/**
 * The profile's samples taken within `windows` (start and end, microseconds on the monotonic clock: `hrtime` of
 * the process that drove the load, same machine), e.g. the measured phases without the server's start.
 */
export function windowed(profile: Profile, windows: [number, number][]): Profile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (windows.some(([from, to]) => at >= from && at <= to)) {
      samples.push(id);
      timeDeltas.push(profile.timeDeltas[i] ?? 0);
    }
  });
  return { ...profile, samples, timeDeltas };
}

/** Milliseconds the profile sampled. */
export const sampledMs = (profile: Profile) => profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000;

/** Self time (ms) per key of a node, summed over the profile's samples; largest first. */
export function selfTime(profile: Profile, keyOf: (n: ProfileNode) => string): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const key = keyOf(byId.get(id)!);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/**
 * Total time (ms) per key: a sample counts once for every key on its stack (a recursive function once), so a
 * function's figure includes what it called; largest first.
 */
export function totalTime(profile: Profile, keyOf: (n: ProfileNode) => string): [string, number][] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const keys = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) keys.add(keyOf(byId.get(at)!));
    for (const key of keys) totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** The package (node_modules/<name>), the app's own file (apps/api/dist/...), or node's internals. */
export function packageOf(url: string): string {
  if (!url) return '(native / V8)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.startsWith('node:')) return url;
  const app = url.match(/apps\/api\/dist\/(.*)$/);
  return app ? `app: ${app[1]}` : url;
}

/** A node's function, with its package or file and line. */
export function functionOf(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${packageOf(url)}:${lineNumber + 1}` : ''}`.trim();
}

/**
 * Prints `items` (ms) as a table: share of `totalMs`, milliseconds, key; the first `top` rows. With `per` (a count of
 * requests), also microseconds per request.
 */
export function printTable(
  title: string,
  items: [string, number][],
  totalMs: number,
  top: number,
  per?: { count: number; what: string },
): void {
  console.log(
    `\n${title} (of ${Math.round(totalMs)} ms sampled${per ? `, ${per.count} ${per.what}; µs per ${per.what.replace(/s$/, '')}` : ''})`,
  );
  for (const [key, ms] of items.slice(0, top))
    console.log(
      `  ${((ms / totalMs) * 100).toFixed(1).padStart(5)} %  ${String(Math.round(ms)).padStart(6)} ms  ${per ? `${String(Math.round((ms * 1000) / per.count)).padStart(6)} µs  ` : ''}${key}`,
    );
}
