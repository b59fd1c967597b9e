/**
 * The instance lock (issue 39 item 12, re-audit): every instance serving a PostgreSQL database holds a shared
 * advisory lock on `INSTANCE_LOCK_KEY` for as long as it runs, on a connection of its own (the pool may close every
 * connection of an idle instance: with JOB_POLL_MS and the webhook worker's interval raised, an idle instance held
 * none, and `db:import --force` ran under it). `db:import` takes the same key exclusively in its transaction and
 * refuses when it cannot: a running instance is never imported under, whatever flags are given. PGlite needs none
 * (its data directory's `postmaster.pid` says the same).
 */
import type pg from 'pg';

/** The advisory lock key of "an instance serves this database" (ASCII `tp_i`). */
export const INSTANCE_LOCK_KEY = 0x74705f69;

/**
 * Seconds between two tries to take the lock again when the last try failed (the database unreachable). After a
 * connection that held the lock is lost, the first try is at once (the third re-audit imported in the 5 s an
 * instance used to wait).
 */
const RECONNECT_SECONDS = 2;

/**
 * Holds the instance lock on `databaseUrl` until `release()`: connects, takes `pg_advisory_lock_shared` (waiting
 * while an import holds it), and connects again every RECONNECT_SECONDS after the connection is lost (a database
 * restart; at once after a lost connection, then every RECONNECT_SECONDS while it fails). Never throws: failures go
 * to `log`. Known limit: between a lost connection and the lock taken again (milliseconds on a reachable database)
 * an import could pass; its other-connection check still sees the instance's pooled connections unless the
 * operator confirms every instance stopped.
 */
export function holdInstanceLock(
  databaseUrl: string,
  log: (msg: string, err: unknown) => void,
): { release(): Promise<void> } {
  let client: pg.Client | null = null;
  let released = false;
  let retry: NodeJS.Timeout | null = null;
  const again = (seconds: number) => {
    if (released || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void take();
    }, seconds * 1000);
    retry.unref();
  };
  const take = async () => {
    // `pg` loads with the first lock taken: only an instance on PostgreSQL takes one (decision 041).
    const { Client } = (await import('pg')).default;
    // TCP keep-alive: a connection silently dropped (a failover) is noticed and the lock taken on the new server.
    const c = new Client({
      connectionString: databaseUrl,
      application_name: 'ticket-panel instance lock',
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = c;
    c.on('error', (err) => {
      log('instance lock connection lost; taking it again', err);
      void c.end().catch(() => undefined);
      again(0);
    });
    try {
      await c.connect();
      await c.query('select pg_advisory_lock_shared($1)', [INSTANCE_LOCK_KEY]);
      if (released) await c.end();
    } catch (err) {
      if (released) return;
      log('instance lock not taken; trying again', err);
      await c.end().catch(() => undefined);
      again(RECONNECT_SECONDS);
    }
  };
  void take();
  return {
    async release() {
      released = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
