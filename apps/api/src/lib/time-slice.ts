/**
 * Cooperative time slicing for long loops on the main thread (issue 19 break 3, decision 021): a loop over
 * 10,000 import rows calls `await slice.tick()` per item, and every `budgetMs` of work the loop gives the event
 * loop a turn (`setImmediate`), so requests of other users are answered in between.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of synchronous work between two turns of the event loop. */
export const SLICE_BUDGET_MS = 8;

export interface TimeSlicer {
  /** Resolves at once while the slice lasts, after one turn of the event loop once it is spent. */
  tick(): Promise<void> | undefined;
}

/**
 * A slicer: `tick()` returns `undefined` (no await needed, no promise made) while less than `budgetMs`
 * milliseconds passed since the last turn, else a promise resolved on the next turn of the event loop.
 * @param budgetMs the slice length in milliseconds (default {@link SLICE_BUDGET_MS})
 */
export function timeSlicer(budgetMs = SLICE_BUDGET_MS): TimeSlicer {
  let since = performance.now();
  return {
    tick() {
      if (performance.now() - since < budgetMs) return undefined;
      return nextTurn().then(() => {
        since = performance.now();
      });
    },
  };
}

/**
 * Maps `items` with `fn`, giving the event loop a turn every `budgetMs` of work.
 * @returns the mapped items, in order
 */
export async function mapSliced<T, R>(items: readonly T[], fn: (item: T, index: number) => R, budgetMs?: number) {
  const slice = timeSlicer(budgetMs);
  const out: R[] = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    const turn = slice.tick();
    if (turn) await turn;
    out[i] = fn(items[i], i);
  }
  return out;
}
