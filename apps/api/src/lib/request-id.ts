/**
 * Request ids (issue 25, decision 031): every request gets an id, every line written through the request's logger
 * (`req.log`, Fastify binds the id as `reqId`) carries it, and the answer returns it in `x-request-id`. Code that
 * logs while serving a request is given `req.log` (the Stripe event service takes it as a parameter); the app
 * logger writes only lines that belong to no request (start, workers, housekeeping).
 *
 * `registerAccessLog` writes one line per request (issue 41, point 8).
 *
 * No AsyncLocalStorage: on Node 20 and 22 it turns on promise hooks for the whole process, and carrying the id that
 * way (@fastify/request-context) cost every answer a share (on Node 20 `/healthz` 1.32× and `/v1/auth/me` 1.14×
 * faster without it, same build otherwise, alternating rounds on one PostgreSQL). Node 24 carries a store without
 * them: a few µs per answer (decision 031, "Per-answer costs on Node 24").
 *
 * The id is a proxy's `x-request-id` only when TRUST_PROXY is set and the value is sane (1-128 characters of
 * `A-Z a-z 0-9 . _ : -`); otherwise a fresh UUID, so a client can neither inject text into the logs nor pass itself
 * off as another request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { App } from './http.js';

/** The request header a proxy names its request id in, and the answer header it is returned in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a request id taken from a proxy may look like: bounded length, a charset safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the proxy's `x-request-id` when proxies are trusted and it is sane, else a random UUID.
 * @param trustProxy config `trustProxy` (TRUST_PROXY); false ignores the header
 */
export function requestIdGenerator(trustProxy: unknown): (req: IncomingMessage) => string {
  return (req) => {
    const given = req.headers[REQUEST_ID_HEADER];
    if (trustProxy && typeof given === 'string' && SANE_REQUEST_ID.test(given)) return given;
    return randomUUID();
  };
}

/** Registers the answer header `x-request-id`; call before any route. */
export function registerRequestId(app: App): void {
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
}

/** What the access log and the abort line name for a request no route matched. */
const UNMATCHED_ROUTE = 'unmatched';

/** The route pattern of a request (`/v1/tickets/:userTicketId`): never its path values nor its query. */
export const routeOf = (req: FastifyRequest): string => req.routeOptions.url ?? UNMATCHED_ROUTE;

/**
 * Whether `err` comes from the client going away: Node's `aborted` (ECONNRESET) on a request body cut short, a
 * stream closed early, or any error while the body is incomplete and the socket is gone. A database connection
 * reset (`read ECONNRESET`) is not one, nor a fault of ours after the body was read.
 */
export function clientAborted(req: FastifyRequest, err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const raw = req.raw;
  return (
    (e?.code === 'ECONNRESET' && e.message === 'aborted') ||
    e?.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (!raw.complete && (raw.destroyed || raw.socket?.destroyed === true))
  );
}

/** Requests whose abort is logged already (the abort hook and the error handler may both see it). */
const abortsLogged = new WeakSet<FastifyRequest>();

/** Logs, once per request, that its client went away: an `info` line with the method and route. */
export function logAbort(req: FastifyRequest, code?: unknown): void {
  if (abortsLogged.has(req)) return;
  abortsLogged.add(req);
  req.log.info(
    { method: req.method, route: routeOf(req), ...(code !== undefined ? { code } : {}) },
    'request aborted by the client',
  );
}

/**
 * The access log (issue 41, point 8): one `info` line per answered request, `request completed`, with its `reqId`
 * (the request logger's binding), `method`, `route` (the pattern: path values and the query, where tokens and codes
 * travel, are never written), `statusCode` and `ms` (Fastify's elapsed time, milliseconds), so a `reqId` from an
 * answer's `x-request-id` or another line can be traced. A request the client abandons is one `info` line, `request
 * aborted by the client`, with its route, not an error. Not registered when the log level is above `info`: then it
 * costs nothing. Cost measured in decision 031.
 */
export function registerAccessLog(app: App): void {
  // pino's numeric level (info is 30); a logger switched off (`logger: false`) is 'silent'.
  const levels: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
  if (!((levels[app.log.level] ?? Infinity) <= levels.info)) return;
  // Its own child logger without the redaction paths (lib/log-privacy.ts): these lines hold only the fields named
  // here (ids, a route pattern, numbers), and redacting each line's object was most of its cost (~12 of ~15 µs on
  // this machine). The request id is a field, as `req.log` would bind it.
  const access = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (req, reply, done) => {
    access.info(
      {
        reqId: req.id,
        method: req.method,
        route: routeOf(req),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    logAbort(req);
    done();
  });
}
