/**
 * Graceful shutdown of a running instance (issue 11), with close-with-grace: on SIGTERM or SIGINT the
 * server stops accepting connections, lets the requests in flight finish (Fastify's `close`: idle keep-alive
 * connections are closed, a request arriving on a busy one answers 503 Connection: close), runs the app's
 * onClose hooks (housekeeping timer, Redis, mail), closes the database pool (or PGlite) and exits 0. If that
 * takes longer than `timeoutSeconds`, the process exits 1 instead. An uncaught error takes the same path,
 * exiting 1.
 */
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';

export function closeGracefully(deps: { app: FastifyInstance; database: Database; timeoutSeconds: number }) {
  const { app, database } = deps;
  return closeWithGrace(
    { delay: deps.timeoutSeconds * 1000, logger: { error: (msg: unknown) => app.log.error(msg) } },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'closing after an uncaught error');
      else app.log.info(`${signal ?? 'close'}: finishing requests in flight, then exiting`);
      await app.close();
      await database.close();
    },
  );
}
