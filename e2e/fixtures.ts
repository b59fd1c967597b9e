/**
 * The `test` every spec imports: Playwright's, plus one automatic worker fixture that points the worker at the server
 * and mail sink of its slot. global-setup.ts starts one sink and one server (freshly seeded) per worker slot; the
 * worker in slot i (`workerInfo.parallelIndex`, 0 to `workers` - 1, kept by a worker that replaces a failed one)
 * sets E2E_BASE_URL (the server on 127.0.0.1), E2E_HOST_URL (the same server as localhost: the demo host page's other
 * site), E2E_MAIL_DIR (the sink's .eml files), E2E_SMTP_URL (the sink, for a spec's own server), E2E_SCANNER_KEY
 * and E2E_ADMIN_KEY in its process from slot i's E2E_*_i, before its first test or `beforeAll`.
 *
 * The specs share a server's demo holders (alice's and bob's tickets, profiles), its keys and its mail sink (a
 * sign-in code is found by address in the sink): two workers on one server could read each other's codes and change
 * each other's tickets. With a server per slot each worker's specs, taken one file at a time in file order
 * (`fullyParallel: false`), see on their server only what files before them in that slot did (decision 028
 * section 13).
 */
import { test as base } from '@playwright/test';

export * from '@playwright/test';

/** The variables a slot exports (as NAME_i) and a worker sets (as NAME). */
const NAMES = ['E2E_BASE_URL', 'E2E_HOST_URL', 'E2E_MAIL_DIR', 'E2E_SMTP_URL', 'E2E_SCANNER_KEY', 'E2E_ADMIN_KEY'];

export const test = base.extend<object, { workerSlot: number }>({
  workerSlot: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from its first parameter
    async ({}, use, workerInfo) => {
      const slot = workerInfo.parallelIndex;
      for (const name of NAMES) {
        const value = process.env[`${name}_${slot}`];
        if (!value) throw new Error(`${name}_${slot} is not set: global-setup.ts starts a server per worker slot`);
        process.env[name] = value;
      }
      await use(slot);
    },
    { scope: 'worker', auto: true },
  ],
});
