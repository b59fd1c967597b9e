/**
 * A per-process cache of a slow-changing database read (the organisation a page shows, issue 19 break 3,
 * decision 027): a page must not wait for the database, and on the embedded one a read waits for any open
 * write transaction (a 10,000-row import holds the one connection for seconds).
 *
 * Refresh ahead: a value is answered as is for `ttlMs` (never older); once older than half of it, the next
 * `get` still answers it at once and starts one read in the background that replaces it. So while pages are
 * asked for, none waits; only a key never read, forgotten, or not asked for during the second half of its
 * time reads the database in the request. Concurrent first reads share one. A failed background read keeps
 * the value until its time is up (the next `get` tries again); a value the loader refuses with `isGone` is
 * dropped.
 */

/** A cache of `load(key)`; see the module's comment. */
export interface ReadCache<K, V> {
  /**
   * The key's value: cached (refreshed in the background once past half its time), else loaded.
   * @throws what `load` throws for a key not cached (nothing is kept then)
   */
  get(key: K): Promise<V>;
  /** Drops the key (its row changed here): the next `get` reads the database. */
  forget(key: K): void;
}

/**
 * @param load reads the value of a key from the database
 * @param opts.ttlMs milliseconds a value is answered at most (refreshed in the background after half of it)
 * @param opts.now the clock, in milliseconds
 * @param opts.maxEntries at most this many keys are kept; the cache is emptied when full (default 1,000)
 * @param opts.isGone a background refresh that throws this error drops the key instead of keeping the old value
 */
export function readCache<K, V>(
  load: (key: K) => Promise<V>,
  opts: { ttlMs: number; now: () => number; maxEntries?: number; isGone?: (err: unknown) => boolean },
): ReadCache<K, V> {
  const maxEntries = opts.maxEntries ?? 1000;
  const entries = new Map<K, { value: V; refreshAt: number; until: number; refreshing: boolean }>();
  const loading = new Map<K, Promise<V>>();
  const keep = (key: K, value: V) => {
    if (!entries.has(key) && entries.size >= maxEntries) entries.clear();
    const at = opts.now();
    entries.set(key, { value, refreshAt: at + opts.ttlMs / 2, until: at + opts.ttlMs, refreshing: false });
  };
  return {
    get(key) {
      const hit = entries.get(key);
      const at = opts.now();
      if (hit && hit.until > at) {
        if (hit.refreshAt <= at && !hit.refreshing) {
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
