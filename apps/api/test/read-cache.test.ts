/**
 * `lib/read-cache.ts` (decision 027): a page reads the organisation from a cache that answers at once, refreshed
 * in the background, also while the database fails. Pure: no app, no database.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readCache } from '../src/lib/read-cache.js';

/** A loader whose reads are answered by hand, counting them. */
function manualLoader() {
  const calls: { key: string; resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const load = (key: string) => new Promise<string>((resolve, reject) => calls.push({ key, resolve, reject }));
  return { load, calls };
}

describe('readCache', () => {
  it('reads a key once for concurrent first gets, then answers from the cache without reading', async () => {
    const { load, calls } = manualLoader();
    const cache = readCache(load, { ttlMs: 1000, now: () => 0 });
    const a = cache.get('k');
    const b = cache.get('k');
    expect(calls).toHaveLength(1);
    calls[0].resolve('v1');
    expect(await Promise.all([a, b])).toEqual(['v1', 'v1']);
    expect(await cache.get('k')).toBe('v1');
    expect(calls).toHaveLength(1);
  });

  it('past half its time answers the value at once and replaces it by one background read; never older than ttl', async () => {
    let now = 0;
    const { load, calls } = manualLoader();
    const cache = readCache(load, { ttlMs: 1000, now: () => now });
    const first = cache.get('k');
    calls[0].resolve('v1');
    await first;
    now = 499;
    expect(await cache.get('k')).toBe('v1');
    expect(calls).toHaveLength(1);
    now = 500;
    // The background read is still pending: both gets answer the value, and only one read is made.
    expect(await cache.get('k')).toBe('v1');
    expect(await cache.get('k')).toBe('v1');
    expect(calls).toHaveLength(2);
    calls[1].resolve('v2');
    await nextTurn();
    expect(await cache.get('k')).toBe('v2');
    expect(calls).toHaveLength(2);
    // Not asked for during the second half of its time: past ttl, the caller waits for a fresh read.
    now = 500 + 1000;
    const late = cache.get('k');
    expect(calls).toHaveLength(3);
    calls[2].resolve('v3');
    expect(await late).toBe('v3');
  });

  it('keeps the value when the background read fails, and drops it when the loader says it is gone', async () => {
    let now = 0;
    const { load, calls } = manualLoader();
    const gone = new Error('gone');
    const cache = readCache(load, { ttlMs: 1000, now: () => now, isGone: (e) => e === gone });
    const first = cache.get('k');
    calls[0].resolve('v1');
    await first;
    now = 600;
    expect(await cache.get('k')).toBe('v1');
    calls[1].reject(new Error('database down'));
    await nextTurn();
    expect(await cache.get('k')).toBe('v1'); // kept, and read again
    expect(calls).toHaveLength(3);
    calls[2].reject(gone);
    await nextTurn();
    const after = cache.get('k'); // dropped: a fresh read that the caller waits for
    expect(calls).toHaveLength(4);
    calls[3].reject(gone);
    await expect(after).rejects.toBe(gone);
  });

  it('forgets a key: the next get reads again, and a read begun before the change is not kept', async () => {
    const { load, calls } = manualLoader();
    const cache = readCache(load, { ttlMs: 1000, now: () => 0 });
    const before = cache.get('k');
    cache.forget('k');
    const after = cache.get('k');
    expect(calls).toHaveLength(2);
    calls[1].resolve('new');
    calls[0].resolve('old');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await cache.get('k')).toBe('new');
    expect(calls).toHaveLength(2);
  });
});
