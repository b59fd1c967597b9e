/**
 * Time budgets relative to this machine's speed now (issue 26): tests on a shared 2-core machine measure a
 * baseline in the same test and allow a multiple of it, never less than the budget the design promises.
 */

/** Median wall time (ms) of `runs` sequential calls of `fn`. */
export async function baselineMs(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** A budget (ms): `factor` baselines, at least `floorMs` (the promised figure on an idle machine). */
export const budgetMs = (baseline: number, factor: number, floorMs: number): number =>
  Math.max(floorMs, Math.ceil(baseline * factor));
