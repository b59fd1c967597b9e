/**
 * A per-process cache of a slow-changing database read (the organisation a page shows, issue 19 break 3,
 * decision 027): a page must not wait for the database, and on the embedded one a read waits for any open
 * write transaction (a 10,000-row import holds the one connection for seconds).
 *
 * Stale while revalidate: a value younger than `ttlMs` is answered as is; an older one is still answered at
 * once while one read in the background replaces it. Only a key never read (or forgotten) waits for the
 * database; concurrent first reads share one. A failed background read keeps the old value (a database
 * outage leaves pages answering); a value the loader refuses with `isGone` is dropped.
 */

/** A cache of `load(key)`; see the module's comment. */
export interface ReadCache<K, V> {
  /**
   * The key's value: cached (fresh or stale, a stale one is then refreshed in the background), else loaded.
   * @throws what `load` throws for a key not cached (nothing is kept then)
   */
  get(key: K): Promise<V>;
  /** Drops the key (its row changed here): the next `get` reads the database. */
  forget(key: K): void;
}

/**
 * @param load reads the value of a key from the database
 * @param opts.ttlMs milliseconds a value is answered without a refresh
 * @param opts.now the clock, in milliseconds
 * @param opts.maxEntries at most this many keys are kept; the cache is emptied when full (default 1,000)
 * @param opts.isGone a background refresh that throws this error drops the key instead of keeping the old value
 */
export function readCache<K, V>(
  load: (key: K) => Promise<V>,
  opts: { ttlMs: number; now: () => number; maxEntries?: number; isGone?: (err: unknown) => boolean },
): ReadCache<K, V> {
  const maxEntries = opts.maxEntries ?? 1000;
  const entries = new Map<K, { value: V; until: number; refreshing: boolean }>();
  const loading = new Map<K, Promise<V>>();
  const keep = (key: K, value: V) => {
    if (!entries.has(key) && entries.size >= maxEntries) entries.clear();
    entries.set(key, { value, until: opts.now() + opts.ttlMs, refreshing: false });
  };
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit) {
        if (hit.until <= opts.now() && !hit.refreshing) {
          hit.refreshing = true;
          load(key).then(
            (value) => entries.get(key) === hit && keep(key, value),
            (err: unknown) => {
              if (entries.get(key) !== hit) return;
              if (opts.isGone?.(err)) entries.delete(key);
              else hit.refreshing = false; // tried again on the next get
            },
          );
        }
        return Promise.resolve(hit.value);
      }
      const shared = loading.get(key);
      if (shared) return shared;
      // Kept only while not forgotten meanwhile (a change made during the read).
      const pending: Promise<V> = load(key)
        .then((value) => {
          if (loading.get(key) === pending) keep(key, value);
          return value;
        })
        .finally(() => {
          if (loading.get(key) === pending) loading.delete(key);
        });
      loading.set(key, pending);
      return pending;
    },
    forget(key) {
      entries.delete(key);
      loading.delete(key);
    },
  };
}
